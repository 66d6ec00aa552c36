"""Every option of every game as people see it: a label in words, a group, an advanced flag, choice
labels; every whole number bounded (and documented); errors that name the option(s) at fault."""

from __future__ import annotations

import pickle
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardtable
from cardtable.engine import Game, Option, OptionError
from cardtable.engine.options import GROUPS, grouped
from cardtable.games import game_class

ROOT = Path(__file__).resolve().parents[2]
GAMES = [g for g in cardtable.games.builtin() if g in cardtable.available()]
# The rulebook's words each game's labels use at least once (the labels speak the rulebook's terms).
RULEBOOK_TERMS = {
    "mephisto": ("Care Bear Variant", "Dungeon", "durability", "2v2"),
    "doctor-strange": ("Good", "VICTORY", "Rest Phase", "Mystic Arts Phase"),
    "army-of-darkness": ("step 3", "attack"),
    "mr-card-game": ("Certificate of Participation", "March on the Tower", "Naughty Sorceress", "Heap", "Hardcore"),
}


def options_of(game_id: str) -> tuple[Option, ...]:
    cls = game_class(game_id)
    assert isinstance(cls, type) and issubclass(cls, Game)  # a built-in game is a class
    return tuple(cls.OPTIONS)


def all_options() -> list[tuple[str, Option]]:
    return [(g, o) for g in GAMES for o in options_of(g)]


@pytest.mark.parametrize(("game_id", "option"), all_options(), ids=lambda x: x if isinstance(x, str) else x.name)
def test_every_option_has_a_label_in_words_a_group_and_choice_labels(game_id: str, option: Option) -> None:
    # A label a person reads, not the id with its hyphens swapped for spaces.
    assert option.label and not option.label[0].islower(), option.label
    assert option.label.lower() != option.name.replace("-", " "), f"{option.name}: the label is only the id"
    assert "-" not in option.name or option.name not in option.label, f"{option.label}: an id is no label"
    assert option.group in GROUPS
    assert option.doc
    if option.choices is not None:
        assert option.choice_labels is not None, f"{game_id} {option.name}: its choices need words"
        assert len(option.choice_labels) == len(option.choices)
        assert all(label and not label[0].islower() for label in option.choice_labels)
        shown = option.to_json()
        assert shown["choice_labels"] == list(option.choice_labels) and shown["choices"] == list(option.choices)
    # The card file is for a person at the machine, never a first thing to set.
    if option.name == "cards":
        assert option.group == "Card file" and option.advanced


@pytest.mark.parametrize("game_id", GAMES)
def test_labels_use_the_rulebooks_terms_and_players_come_first(game_id: str) -> None:
    options = options_of(game_id)
    text = " ".join(o.label + " " + " ".join(o.choice_labels or ()) for o in options)
    for term in RULEBOOK_TERMS[game_id]:
        assert term in text, f"{game_id}: no label says {term!r}"
    groups = grouped(options)
    assert groups[0][0] == "Players" and groups[0][1][0].name == "players"
    assert sum(len(members) for _, members in groups) == len(options)
    # What a first game needs is not folded away: the players are never advanced.
    assert not any(o.advanced for o in options if o.group == "Players")


def test_a_declaration_without_words_or_with_a_stray_group_is_refused() -> None:
    with pytest.raises(ValueError, match="group"):
        Option("speed", "fast", "how fast", choices=("fast", "slow"), group="Misc")
    with pytest.raises(ValueError, match="choice_labels"):
        Option("speed", "fast", "how fast", choices=("fast", "slow"), choice_labels=("Fast",))
    plain = Option("speed", "fast", "how fast", choices=("fast", "slow"))
    assert plain.label == "Speed" and plain.choice_label("slow") == "slow"


# -- bounds ----------------------------------------------------------------------------------------------

NUMERIC = [(g, o) for g, o in all_options() if o.kind is int]


@pytest.mark.parametrize(("game_id", "option"), NUMERIC, ids=lambda x: x if isinstance(x, str) else x.name)
def test_every_whole_number_option_has_a_sane_maximum_that_holds_for_every_input_form(
    game_id: str, option: Option
) -> None:
    assert option.min is not None and option.max is not None
    assert option.min <= int(option.default) <= option.max
    assert option.max <= 10_000, f"{game_id} {option.name}: {option.max} is no sane bound"
    name = option.name
    # The bound itself is accepted, from Python, from a command line (text) and from JSON (a float).
    for ok in (option.max, str(option.max), float(option.max)):
        assert cardtable.load(game_id, **{name: ok}).options[name] == option.max
    for bad in (option.max + 1, 1e30, 10**40, "1e30", str(10**40), "10**40", -(10**40), float("nan")):
        with pytest.raises(OptionError) as info:
            cardtable.load(game_id, **{name: bad})
        assert info.value.option == name and info.value.options == (name,)
        message = str(info.value)
        assert f"option {name!r}" in message and len(message) < 200, message
        assert str(option.max) in message or str(option.min) in message, message


@pytest.mark.parametrize("game_id", GAMES)
def test_the_rules_docs_list_every_option_with_its_bounds(game_id: str) -> None:
    doc = (ROOT / "docs" / "rules" / f"{game_id}.md").read_text()
    for option in options_of(game_id):
        rows = [line for line in doc.splitlines() if line.startswith(f"| `{option.name}` |")]
        assert len(rows) == 1, f"docs/rules/{game_id}.md: no row for {option.name} in its Options table"
        assert option.group.split(" / ")[0] in rows[0], f"{option.name}: its group is not documented"
        if option.kind is int:
            assert f"{option.min}..{option.max}" in rows[0], f"{option.name}: bounds not documented: {rows[0]}"


def test_doctor_strange_turns_are_bounded_now() -> None:
    """Issue 23, finding 2: turn-limit and victory-from took 1e30."""
    for name in ("turn-limit", "victory-from"):
        with pytest.raises(OptionError, match=rf"option '{name}' must be at most 2000, got 1e\+30"):
            cardtable.load("doctor-strange", **{name: 1e30})
        with pytest.raises(OptionError, match=rf"option '{name}' must be at most 2000, got a number of many digits"):
            cardtable.load("doctor-strange", **{name: 10**40})


# -- errors name the options at fault ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game_id", "options", "fields"),
    [
        ("mephisto", {"teams": True}, ("teams", "players")),
        ("mephisto", {"players": 3, "lane-view": "shared"}, ("lane-view", "players")),
        ("mephisto", {"players": 1, "variant": "care-bear"}, ("variant", "players")),
        ("mephisto", {"corner-cards": "spare"}, ("corner-cards", "players")),
        ("mephisto", {"solo-refill-effects": "skip"}, ("solo-refill-effects", "players")),
        ("mephisto", {"variant": "grumpy"}, ("variant",)),
        ("mephisto", {"colour": "red"}, ("colour",)),
        ("doctor-strange", {"good-seat": "P3"}, ("good-seat",)),
        ("doctor-strange", {"cards": "/no/such/file"}, ("cards",)),
        ("army-of-darkness", {"players": 9}, ("players",)),
        ("army-of-darkness", {"cards": "/no/such/file"}, ("cards",)),
        ("mr-card-game", {"players": 3, "first-player": "P4"}, ("first-player", "players")),
        ("mr-card-game", {"players": 3, "meat-supply": 17}, ("meat-supply", "players")),
        ("mr-card-game", {"quests-before-march": True}, ("quests-before-march", "bosses")),
        ("mr-card-game", {"ascension": True, "sorceress": "25"}, ("sorceress", "ascension")),
        (
            "mr-card-game",
            {"ascension": True, "bosses": True, "quests-before-march": True},
            ("quests-before-march", "ascension"),
        ),
        ("mr-card-game", {"boss-reset": "all", "bosses": True}, ("boss-reset", "ascension", "bosses")),
        ("mr-card-game", {"store-used": "removed"}, ("store-used", "mr-store")),
        ("mr-card-game", {"march-tie": "nobody"}, ("march-tie",)),
    ],
)
def test_an_option_error_names_every_option_involved(
    game_id: str, options: dict[str, Any], fields: tuple[str, ...]
) -> None:
    with pytest.raises(OptionError) as info:
        cardtable.load(game_id, **options)
    assert info.value.options == fields
    assert info.value.option == fields[0]
    # Pickled (a bot worker's error crossing processes), the names survive.
    copy = pickle.loads(pickle.dumps(info.value))
    assert copy.options == fields and str(copy) == str(info.value)


def test_an_error_that_is_no_option_names_none() -> None:
    with pytest.raises(OptionError) as info:
        cardtable.load("chess")
    assert info.value.option is None and info.value.options == ()


def _values(option: Option) -> st.SearchStrategy[Any]:
    if option.choices is not None:
        return st.sampled_from(option.choices)
    if option.kind is bool:
        return st.booleans()
    if option.kind is int:
        assert option.min is not None and option.max is not None
        return st.sampled_from((option.min, option.max, int(option.default), option.min + 1))
    return st.just("")


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_refused_combination_names_options_of_the_game(game_id: str, data: st.DataObject) -> None:
    """Random option sets: whatever is refused names at least one option, each one of this game's, and
    the message says each of them."""
    names = {o.name for o in options_of(game_id)}
    chosen = {
        o.name: data.draw(_values(o), label=o.name)
        for o in options_of(game_id)
        if o.name != "cards" and data.draw(st.booleans(), label=f"set {o.name}")
    }
    try:
        cardtable.load(game_id, **chosen)
    except OptionError as exc:
        assert exc.options, f"{game_id} {chosen}: {exc} names no option"
        assert set(exc.options) <= names
        for name in exc.options:
            assert name in str(exc) or _said_in_words(name, str(exc)), f"{name} not in {exc}"


def _said_in_words(name: str, message: str) -> bool:
    """``players`` is said as "3 players"; ``cards`` as "the card file"."""
    words = {"players": r"\d+[ -]players?|players=", "cards": r"card file", "ascension": r"ascension"}
    return bool(re.search(words.get(name, re.escape(name)), message))
