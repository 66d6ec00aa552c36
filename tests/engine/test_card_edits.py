"""What-if card edits: an edit changes only the field it names, bad edits are refused like bad card
files (naming the file, the card and the field), and records carry their edits so replays rebuild the
edited game exactly, under a config hash of its own."""

from __future__ import annotations

import copy
import dataclasses
import json
import pickle
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardtable
from cardtable.engine import CardDataError, CardtableError, OptionError, ReplayDivergence, Rng
from cardtable.engine.card_edits import CardEditError, apply_edits, edited_sha, parse_edit
from cardtable.engine.carddata import read_card_file
from cardtable.games.army_of_darkness.cards import DEFAULT_PATH as AOD_CARDS
from cardtable.games.army_of_darkness.cards import NAME_FIELDS as AOD_NAMES
from cardtable.games.mephisto.cards import load_cards as mephisto_cards
from cardtable.games.mr_card_game.cards import BUNDLED as MCG_CARDS
from cardtable.games.mr_card_game.cards import NAME_FIELDS as MCG_NAMES
from tests.engine.toy import Toy
from tests.support.walk import apply_random

cardtable.register("toy", Toy)


# -- the text of an edit ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("Witch.attack=10", "Witch.attack=10"),
        ("  Witch.attack = +10 ", "Witch.attack=10"),
        ("Knight of Arthur.count=0x6", "Knight of Arthur.count=6"),
        ("Naughty Sorceress.powers=[20,30]", "Naughty Sorceress.powers=[20, 30]"),
        ("Imp#2.immediate[0].amount=3", "Imp#2.immediate[0].amount=3"),
        ('Witch.type="spell"', 'Witch.type="spell"'),
        ("X.flag=true", "X.flag=true"),
    ],
)
def test_an_edit_has_one_canonical_text(text: str, canonical: str) -> None:
    assert parse_edit(text).text == canonical


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("Witch.attack", "CARD.FIELD=VALUE"),
        ("attack=10", "CARD.FIELD=VALUE"),
        ("Witch.=10", "CARD.FIELD=VALUE"),
        ("Witch.attack=", "CARD.FIELD=VALUE"),
        ("Witch.attack=ten", "is not a value"),
        ("Witch.attack=10\nother=1", "control character"),
        ("Witch.attack=1979-05-27", "must be a number"),
        ("W" * 300 + ".attack=1", "longer than"),
    ],
)
def test_a_malformed_edit_is_refused_before_any_file_is_read(text: str, says: str) -> None:
    with pytest.raises(CardEditError, match=says):
        cardtable.load("mephisto", card_edits=[text])


@pytest.mark.parametrize("edits", [[10], 10, {"Witch.attack": 10}])
def test_edits_must_be_text(edits: object) -> None:
    with pytest.raises(CardEditError, match="must be"):
        cardtable.load("mephisto", card_edits=edits)


# -- an edit changes only the named field ----------------------------------------------------------


def _columns(cards: Any) -> dict[str, Any]:
    return {f.name: getattr(cards, f.name) for f in dataclasses.fields(cards) if f.name not in ("path", "sha", "raw")}


def test_an_edit_changes_only_the_named_field_of_the_named_card() -> None:
    base = _columns(mephisto_cards())
    edited = _columns(mephisto_cards(None, ["Witch.attack=10"]))
    witch = base["names"].index("Witch")
    for name, column in base.items():
        for card, value in enumerate(column):
            expected = 10 if (name, card) == ("attack", witch) else value
            assert edited[name][card] == expected, (name, card)


def test_a_name_edits_every_copy_and_a_copy_number_one_copy() -> None:
    base = mephisto_cards()
    imps = [k for k, n in enumerate(base.names) if n == "Imp"]
    assert len(imps) == 2
    every = mephisto_cards(None, ["Imp.attack=7"])
    second = mephisto_cards(None, ["Imp#2.attack=7"])
    assert [every.attack[k] for k in imps] == [7, 7]
    assert [second.attack[k] for k in imps] == [base.attack[imps[0]], 7]
    changed = [k for k in range(len(base)) if second.attack[k] != base.attack[k]]
    assert changed == [imps[1]]


def _diff(a: Any, b: Any, at: str = "") -> list[str]:
    """Every path at which two parsed TOML values differ."""
    if isinstance(a, dict) and isinstance(b, dict):
        return [p for k in sorted(set(a) | set(b)) for p in _diff(a.get(k), b.get(k), f"{at}.{k}")]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [p for i, (x, y) in enumerate(zip(a, b, strict=True)) for p in _diff(x, y, f"{at}[{i}]")]
    return [] if a == b else [at]


@pytest.mark.parametrize(
    ("path", "names", "edit", "where"),
    [
        (AOD_CARDS, AOD_NAMES, "Deadite.count=10", ".card[1].count"),
        (MCG_CARDS, MCG_NAMES, "Naughty Sorceress.powers[0]=15", ".sorceress.powers[0]"),
        (MCG_CARDS, MCG_NAMES, "Turnip Cudgel.bonus.melee=5", ".monster[1].bonus.melee"),
        (MCG_CARDS, MCG_NAMES, "Spiteful Turnip.power=9", ".monster[1].power"),
    ],
)
def test_edits_reach_one_place_in_every_games_file(path: Any, names: Any, edit: str, where: str) -> None:
    plain = read_card_file(path).data
    edited = read_card_file(path, [edit], names).data
    assert _diff(plain, edited) == [where]


@pytest.mark.parametrize(
    ("game", "options", "edit", "read"),
    [
        ("mephisto", {}, "Greataxe.cost=3", lambda g: g.cards.cost[g.cards.names.index("Greataxe")]),
        (
            "doctor-strange",
            {},
            "Doctor Strange.power=9",
            lambda g: g.cards.power[g.cards.names.index("Doctor Strange")],
        ),
        ("army-of-darkness", {}, "Deadite.count=10", lambda g: g.cards.names.count("Deadite")),
        ("mr-card-game", {}, "Naughty Sorceress.powers[0]=15", lambda g: g.sorceress_power),
    ],
)
def test_every_game_plays_its_edited_cards(game: str, options: dict[str, Any], edit: str, read: Any) -> None:
    plain = cardtable.load(game, **options)
    edited = cardtable.load(game, card_edits=[edit], **options)
    assert read(edited) == int(edit.rpartition("=")[2]) and read(plain) != read(edited)
    assert edited.card_edits == (edit,) and plain.card_edits == ()
    assert edited.config_hash != plain.config_hash and edited.card_hash != plain.card_hash
    state = edited.new(3, log=False)
    r = Rng(1)
    while not state.is_over and len(state.history) < 3000:
        apply_random(state, r)


def test_an_edited_game_and_its_states_pickle_with_their_edits() -> None:
    # Worker processes and environments receive games by pickle: the edits travel with the options.
    edited = cardtable.load("mephisto", card_edits=["Greataxe.cost=3"])
    again = pickle.loads(pickle.dumps(edited))
    assert again.card_edits == edited.card_edits and again.config_hash == edited.config_hash
    assert pickle.loads(pickle.dumps(cardtable.load("mephisto"))).card_edits == ()
    state = edited.new(4)
    state.apply(state.legal_actions()[0])
    twin = pickle.loads(pickle.dumps(state))
    assert twin.game.config_hash == edited.config_hash and twin.fingerprint() == state.fingerprint()
    assert copy.deepcopy(edited) is edited


def test_the_same_edits_spelled_differently_are_the_same_game() -> None:
    a = cardtable.load("mephisto", card_edits=["Witch.attack=10", "Imp.souls=2"])
    b = cardtable.load("mephisto", card_edits=[" Witch.attack = 0xA", "Imp.souls=2"])
    assert a is b
    c = cardtable.load("mephisto", card_edits=["Imp.souls=2", "Witch.attack=10"])
    assert c.card_hash == a.card_hash  # the order of different fields does not matter
    assert cardtable.load("mephisto", card_edits="Witch.attack=10").card_edits == ("Witch.attack=10",)
    assert edited_sha("abc", []) == "abc" and edited_sha("abc", ["x.y=1"]) != "abc"


# -- bad edits are refused like bad card files ----------------------------------------------------


@pytest.mark.parametrize(
    ("game", "edit", "card", "field", "problem"),
    [
        ("mephisto", "Witch.attack=99", "Witch", "attack", "at most 30"),
        ("mephisto", "Witch.atack=9", "Witch", "atack", "unknown field"),
        ("mephisto", "Wtich.attack=9", "Wtich", None, "did you mean 'Witch'"),
        ("mephisto", "Witch.attack=true", "Witch", "attack", "must be int"),
        ("mephisto", "Imp#3.attack=1", "Imp#3", None, "names copy 3"),
        ("mephisto", "Witch.immediate[4].amount=1", "Witch", "immediate[4]", "the list has 1"),
        ("mephisto", "Witch.immediate[0].amount=0", "Witch", "immediate[0].amount", "at least 1"),
        ("mephisto", "Witch.souls.x=1", "Witch", "souls", "not a table"),
        ("mephisto", "Witch.souls[0]=1", "Witch", "souls", "not a list"),
        ("mephisto", 'Witch.name="Warlock"', "Witch", "name", "rename"),
        ("doctor-strange", "Doctor Strange.power=99", "Doctor Strange", "power", "at most 20"),
        ("doctor-strange", "Doctor Strange.pwr=9", "Doctor Strange", "pwr", "unknown field"),
        ("army-of-darkness", "Deadite.count=0", "Deadite", "count", "at least 1"),
        ("army-of-darkness", "Deadite.cnt=2", "Deadite", "cnt", "unknown field"),
        ("mr-card-game", "Spiteful Turnip.powr=3", "Spiteful Turnip", "powr", "unknown field"),
        ("mr-card-game", "Turnip Cudgel.bonus.mele=3", "Spiteful Turnip", "bonus.mele", "unknown field"),
        ("mr-card-game", "Naughty Sorceress.powers=[15]", "sorceress", "powers", "two powers"),
    ],
)
def test_a_bad_edit_is_refused_naming_file_card_and_field(
    game: str, edit: str, card: str, field: str | None, problem: str
) -> None:
    plain = cardtable.load(game)
    with pytest.raises((CardDataError, OptionError)) as info:
        cardtable.load(game, card_edits=[edit])
    message = str(info.value)
    assert "cards.toml" in message and f"'{card}" in message.replace("'#0 ", "'").replace("'#1 ", "'")
    if field is not None:
        assert f"field '{field}'" in message
    assert problem in message
    assert repr(edit) in message  # which edit it was, so the reader knows the file itself is fine
    assert cardtable.load(game) is plain  # nothing changed


def test_two_edits_of_one_field_are_refused() -> None:
    with pytest.raises(CardDataError, match="edited twice"):
        cardtable.load("mephisto", card_edits=["Imp.attack=3", "Imp#1.attack=4"])


def test_a_game_without_card_data_refuses_edits() -> None:
    with pytest.raises(OptionError, match="no card data"):
        cardtable.load("toy", card_edits=["Card.value=3"])


def test_apply_edits_finds_cards_by_every_name_field_and_nested_names_are_not_cards() -> None:
    data: dict[str, Any] = {
        "monster": [{"monster": "Bat", "item": "Wing", "power": 1}],
        "boss": {"name": "Boss", "power": 5, "equipment": [{"name": "Hat", "anvil": 1}]},
    }
    apply_edits("f.toml", data, ["Wing.power=2", "Boss.equipment[0].anvil=3"], ("name", "monster", "item"))
    assert data["monster"][0]["power"] == 2 and data["boss"]["equipment"][0]["anvil"] == 3
    with pytest.raises(CardDataError, match="names no card"):
        apply_edits("f.toml", copy.deepcopy(data), ["Hat.anvil=2"], ("name",))


def test_a_card_name_with_a_dot_is_found_whole() -> None:
    data: dict[str, Any] = {"card": [{"name": "Dr. Who", "power": 1}, {"name": "Dr", "power": 2}]}
    apply_edits("f.toml", data, ["Dr. Who.power=5", "Dr.power=6"])
    assert [c["power"] for c in data["card"]] == [5, 6]


# -- records --------------------------------------------------------------------------------------


def _play(game: cardtable.Game, seed: int, agent: int) -> cardtable.State:
    state = game.new(seed)
    r = Rng(agent)
    while not state.is_over:
        apply_random(state, r)
    return state


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 10**6))
def test_a_record_with_edits_replays_exactly(seed: int, agent: int) -> None:
    edits = ["Witch.attack=30", "Greataxe.cost=0", "Imp#2.souls=9"]
    game = cardtable.load("mephisto", players=2, card_edits=edits)
    state = _play(game, seed, agent)
    record = json.loads(json.dumps(state.record()))
    assert record["card_edits"] == edits
    assert record["config"] == game.config_hash != cardtable.load("mephisto", players=2).config_hash
    again = cardtable.replay(record)
    assert again.game is game
    assert again.snapshot() == state.snapshot() and again.events(0) == state.events(0)


def test_a_record_without_edits_has_no_edits_field_and_losing_the_edits_is_caught() -> None:
    plain = _play(cardtable.load("mephisto", players=2), 5, 5).record()
    assert "card_edits" not in plain
    edited = _play(cardtable.load("mephisto", players=2, card_edits=["Witch.attack=1"]), 5, 5).record()
    stripped = {k: v for k, v in edited.items() if k != "card_edits"}
    with pytest.raises(ReplayDivergence, match="card data"):
        cardtable.replay(stripped)


@pytest.mark.parametrize("bad", [{"card_edits": "Witch.attack=1"}, {"card_edits": [1]}])
def test_a_record_with_malformed_edits_is_refused(bad: dict[str, Any]) -> None:
    record = _play(cardtable.load("mephisto", players=2), 1, 1).record()
    record.update(bad)
    with pytest.raises(CardtableError, match="card_edits"):
        cardtable.replay(record)


def test_a_record_whose_edit_no_longer_applies_says_so() -> None:
    record = _play(cardtable.load("mephisto", players=2, card_edits=["Witch.attack=1"]), 2, 2).record()
    record["card_edits"] = ["Nobody.attack=1"]
    with pytest.raises(ReplayDivergence, match="names no card"):
        cardtable.replay(record)
