"""The protocol: views for people (declared keys, card objects with their printed data, prompts, no
bookkeeping), hidden information (views, known cards, determinize, the perturbation check), bad input,
action texts and descriptions, records and replay."""

from __future__ import annotations

import json
from typing import Any

import pytest

import cardtable
from cardtable.engine import GameOver, IllegalAction, MalformedAction, NotYourTurn, Rng
from cardtable.games.mr_card_game.codes import D_COMBAT, D_NONCOMBAT
from cardtable.games.mr_card_game.game import MrCardGame
from cardtable.games.mr_card_game.state import McgState

from .helpers import (
    act,
    cid,
    determinize,
    empty_pile,
    give_item,
    give_skill,
    legal,
    new,
    set_deck,
    set_discard,
    set_hand,
    set_trainer,
)
from .perturb import check_perturbation

BASE_KEYS = {"game", "seat", "turn", "current_player", "is_over", "seat_names"}
CONFIGS = [dict(c) for c in MrCardGame.CONFIGURATIONS]


def _walk(config: dict[str, Any], seed: int, steps: int) -> McgState:
    s = cardtable.load("mr-card-game", **config).new(seed)
    assert isinstance(s, McgState)
    r = Rng(seed)
    for _ in range(steps):
        if s.is_over:
            break
        legal_now = s.legal_actions()
        s.apply(legal_now[r.below(len(legal_now))])
    return s


def _card_objects(value: Any) -> list[dict[str, Any]]:
    out = []
    if isinstance(value, dict):
        if isinstance(value.get("id"), int) and isinstance(value.get("name"), str):
            out.append(value)
        for v in value.values():
            out += _card_objects(v)
    elif isinstance(value, list):
        for v in value:
            out += _card_objects(v)
    return out


def _keys(value: Any) -> set[str]:
    out: set[str] = set()
    if isinstance(value, dict):
        out |= set(value)
        for v in value.values():
            out |= _keys(v)
    elif isinstance(value, list):
        for v in value:
            out |= _keys(v)
    return out


# -- views for people --------------------------------------------------------------------------------


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: json.dumps(c))
def test_views_use_the_declared_keys_and_cards_carry_their_printed_data(config: dict[str, Any]) -> None:
    for steps in (0, 40, 120):
        s = _walk(config, steps, steps)
        for seat in [*range(s.game.players), None]:
            view = s.view(seat)
            assert set(view) - BASE_KEYS == set(MrCardGame.VIEW_KEYS)
            assert isinstance(view["prompt"], str) and view["prompt"]
            for card in _card_objects(view):
                assert isinstance(card["type"], str) and card["type"]
                assert isinstance(card["text"], str)
            # No engine bookkeeping: no effect queue, phase codes, flags or raw effect syntax.
            assert not _keys(view) & {"queue", "step", "mode", "pending", "upg_left", "plast", "psum", "mods", "eq"}
            assert "do=" not in json.dumps(view) and "do =" not in json.dumps(view)


def test_every_item_and_skill_says_its_abilities_in_words() -> None:
    s = new(3)
    walrus, lance = cid(s, "Rage of the Walrus"), cid(s, "Lasagna Lance")
    give_skill(s, 0, walrus)
    give_skill(s, 0, lance)
    skills = {d["name"]: d for d in s.view(1)["players"][0]["skills"]}
    assert skills["Rage of the Walrus"]["text"].startswith("Buff (2 mojo")
    assert "+3 melee damage" in skills["Rage of the Walrus"]["text"]
    assert skills["Lasagna Lance"]["mojo"] == "X" and "X damage" in skills["Lasagna Lance"]["text"]
    case = s.view(1)["players"][0]["display_case"]
    assert case[0]["name"] == "Sweet Ninja Sword" and case[0]["type"] == "melee weapon"
    assert "+1 melee damage" in case[0]["text"] and case[0]["power"] == 1 and case[0]["autosell"] == 1
    monster = s.view(1)["map"][0]["monster"]
    assert {"power", "element", "meat", "stat_drop", "item_side"} <= set(monster)


def test_the_prompt_says_what_is_decided_by_whom_and_why() -> None:
    s = new(3)
    assert s.view(0)["prompt"].startswith("P1 (you): non-combat phase")
    assert s.view(1)["prompt"].startswith("P1: non-combat phase")
    set_hand(s, 0, ["mus2", "mus1", "mox1", "mox1", "mys1", "mys1"])
    act(s, "combat")
    assert "combat step 1" in s.view(2)["prompt"]
    act(s, "maneuver kind=melee stat=mus2")
    assert "Melee Attack" in s.view(2)["prompt"] and "so far 2" in s.view(2)["prompt"]
    act(s, "done")
    assert "choose the monster to kill" in s.view(2)["prompt"]
    # The totals a player adds up: the score against each target.
    rows = s.view(2)["combat"]["targets"]
    assert len(rows) == 9 and all({"power", "score", "beaten"} <= set(r) for r in rows)


# -- hidden information ------------------------------------------------------------------------------


def test_views_hide_other_hands_and_every_deck_order() -> None:
    s = _walk({"players": 3}, 5, 30)
    for seat in range(3):
        view = s.view(seat)
        text = json.dumps(view)
        for p, row in enumerate(view["players"]):
            assert "hand" not in row and row["hand_size"] == len(s.hand[p])
        # Stat cards appear only as kinds and counts, never by id (ids would tell hand from deck).
        stat_ids = set(s.game.cards.stats)
        assert not {c["id"] for c in _card_objects(view)} & stat_ids
        # Changing what the seat cannot see changes nothing it sees.
        other = s.determinize(seat, Rng(seat + 11))
        assert json.dumps(other.view(seat)) == text
    spectator = s.view(None)
    assert spectator["hand"] is None and spectator["deck"] is None


def test_known_cards_are_the_public_cards_and_the_own_hand() -> None:
    s = _walk({"players": 3}, 2, 25)
    c = s.game.cards
    for seat in range(3):
        known = s.known_cards(seat)
        assert set(s.hand[seat]) <= known
        for p in range(3):
            assert not set(s.deck[p]) & known
            if p != seat:
                assert not set(s.hand[p]) & known
        for li in c.kingdom:
            assert not set(s.below[li]) & known and (s.top[li] < 0 or s.top[li] in known)
        assert not set(s.skill_pile) & known
        assert set(s.heap) <= known and {x for x in s.trainer if x >= 0} <= known


def test_determinize_resamples_other_hands_within_each_player_and_keeps_the_rest() -> None:
    s = _walk({"players": 4}, 9, 30)
    changed = False
    for k in range(6):
        d = determinize(s, 1, Rng(k))
        assert d.view(1) == s.view(1)
        assert d.hand[1] == s.hand[1] and sorted(d.deck[1]) == sorted(s.deck[1])
        for p in (0, 2, 3):
            assert sorted(d.hand[p] + d.deck[p]) == sorted(s.hand[p] + s.deck[p])  # within the player
            assert len(d.hand[p]) == len(s.hand[p])
            changed |= sorted(d.hand[p]) != sorted(s.hand[p])
        assert d.below == s.below and d.skill_pile == s.skill_pile  # unordered: nothing to resample
        assert d.seed == -1 and d.rng.state != s.rng.state
    assert changed


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: json.dumps(c))
def test_whether_a_decision_appears_never_depends_on_a_hidden_card(config: dict[str, Any]) -> None:
    """The perturbation check (see perturb.py) from several points of random games, every seat:
    the March poll, every window and every choice included."""
    compared = 0
    for seed in range(2):
        for steps in (0, 15, 50):
            s = _walk(config, seed, steps)
            for seat in range(s.game.players):
                compared += check_perturbation(s, seat, seed * 100 + steps, steps=60)
    assert compared > 100


def test_the_march_poll_asks_a_player_whatever_their_hand() -> None:
    """Every player still in is asked at every round end: with no card at all, too."""
    s = new(2)
    act(s, "end-turn", "done", "end-turn", "done")
    s.hand[1].clear()
    s._legal = None
    assert s.current_player == 0 and legal(s) == ["march", "pass"]
    act(s, "pass")
    assert s.current_player == 1 and legal(s) == ["march", "pass"]


# -- bad input ---------------------------------------------------------------------------------------


def test_bad_input_gives_a_clear_error_and_changes_nothing() -> None:
    s = new(3)
    set_hand(s, 0, ["mus2", "mus1", "mox1", "mox1", "mys1", "mys1"])
    before = s.snapshot()
    cases = [
        ("kill card=abc", MalformedAction, "no such action"),
        ("maneuver kind=melee", MalformedAction, "missing parameter"),
        ("spend mojo=99", MalformedAction, "no such action"),
        ("explode", MalformedAction, "unknown action"),
        ("maneuver kind=melee stat=mus2", IllegalAction, "not legal now"),
        (f"dive card={cid(s, 'Barrel Stave Club')}", IllegalAction, "not legal now"),
    ]
    for text, cls, words in cases:
        with pytest.raises(cls, match=words):
            s.apply(text)
        assert s.snapshot() == before
    with pytest.raises(NotYourTurn, match="P2 cannot act now: it is P1's decision"):
        s.apply("end-turn", seat=1)
    assert s.snapshot() == before


def _refused(s: McgState, text: str, words: str) -> None:
    """``text`` is refused with a message containing ``words``, and nothing changes."""
    before = s.snapshot()
    view = json.dumps(s.view(s.current_player), sort_keys=True)
    with pytest.raises(IllegalAction) as info:
        s.apply(text)
    assert words in str(info.value), str(info.value)
    assert s.snapshot() == before and json.dumps(s.view(s.current_player), sort_keys=True) == view


def test_illegal_actions_say_why_in_words_and_change_nothing() -> None:
    s = new(3)
    c = s.game.cards
    walrus, thrust = cid(s, "Rage of the Walrus"), cid(s, "Thrust-Smack")  # a buff (2 mojo); a combat skill
    grenade, sword = cid(s, "Rat Trap Grenade"), s.items[0][0]
    give_skill(s, 0, walrus)
    give_skill(s, 0, thrust)
    give_item(s, 0, grenade)
    set_hand(s, 0, ["mus2", "mus1", "mox1", "mox1", "mys1", "mys1"])
    set_trainer(s, [cid(s, "Spiky Shell"), *s.trainer[1:]])  # 7 meat; P1 has 5
    outside = next(x for x in s.skill_pile)
    # The non-combat phase.
    _refused(s, f"buff card={walrus}", "Rage of the Walrus (card 163) needs 2 mojo and your mojo pool has 0")
    _refused(s, f"skill card={thrust}", "is a combat skill: use it in combat step 1")
    _refused(s, f"train card={cid(s, 'Spiky Shell')}", "Spiky Shell (card 172) costs 7 meat and you have 5")
    _refused(s, f"train card={outside}", f"card {outside} is not in the trainer")  # never says where it is
    _refused(s, f"dive card={cid(s, 'Barrel Stave Club')}", "the Heap is empty")
    _refused(s, "mojo stat=mys4", "you have no Cosmicality (Mysticality 4) in your hand")
    _refused(s, "mojo stat=mus1", "stat is one of mys1, mys2, mys3, mys4")  # malformed: not a mojo card
    _refused(s, f"equip card={sword}", "is already equipped")
    _refused(s, f"use card={grenade}", "has a combat ability: use it in combat step 1")
    _refused(s, "discard stat=mus1", "only at the end of your turn")
    _refused(s, "maneuver kind=melee stat=mus2", "only in combat")
    # Combat step 1, step 2 and step 3.
    act(s, "combat")
    strong = max((t for t in s.top if t >= 0), key=lambda t: c.mpower[t])
    _refused(s, "maneuver kind=melee stat=mus4", "you have no Musclosity (Muscle 4) in your hand")
    _refused(s, f"kill card={strong}", f"has power {c.mpower[strong]} and the damage alone (no maneuver yet)")
    _refused(s, f"train card={cid(s, 'Spiky Shell')}", "combat has started")
    act(s, "maneuver kind=melee stat=mus1")
    _refused(s, "play stat=mox1", "a Melee Attack is performed with Muscle cards only")
    _refused(s, "play stat=mus2", "played from the highest down")
    act(s, "done")
    _refused(s, f"kill card={strong}", "your score against it is 2")  # 1 + the Sweet Ninja Sword
    # The end of the turn: more than six cards, then a rollover.
    act(s, "end-combat")
    _refused(s, "discard stat=mus4", "you have no Musclosity (Muscle 4) in your hand")
    s2 = new(3)
    set_hand(s2, 0, ["mus1", "mus1", "mox1"])
    set_deck(s2, 0, [])
    set_discard(s2, 0, ["mus2", "mox1"])
    act(s2, "end-turn", "done")
    _refused(s2, "upgrade from=mus3 to=mus4", "you have no Brawnitude (Muscle 3) in your discard pile")
    empty_pile(s2, "mys2", 1)
    _refused(s2, "upgrade from=mus2 to=mys2", "the Arcanery (Mysticality 2) pile is empty")


def test_no_action_after_the_end() -> None:
    s = new(2, turn_limit=1)
    act(s, "end-turn", "done", "end-turn", "done", "pass", "pass")
    assert s.is_over and s.current_player is None and s.legal_actions() == []
    with pytest.raises(GameOver):
        s.apply("pass")


# -- texts, records ----------------------------------------------------------------------------------


def test_action_texts_are_stable_and_described_in_words() -> None:
    g = cardtable.load("mr-card-game", players=3)
    assert isinstance(g, MrCardGame)
    sword = g.cards.newbie[0][0]
    assert g.describe_action(g.actions.parse(f"autosell card={sword}")) == f"AutoSell Sweet Ninja Sword (card {sword})"
    assert (
        g.describe_action(g.actions.parse("maneuver kind=evade stat=mox2")) == "perform an Evasion with Sass (Moxie 2)"
    )
    assert g.describe_action(g.actions.parse("upgrade from=mus1 to=mys1")) == (
        "exchange Strengthliness (Muscle 1) for Enchantedness (Mysticality 1)"
    )
    assert g.describe_action(g.actions.parse("march")) == "march on the Tower"
    assert g.card_name(0) == "Dust Bunny Brute / Stale Cellar Cracker (card 0)"
    # Every action is declared when the game is loaded (fixed indices for learning agents).
    again = cardtable.load("mr-card-game", players=3, turn_limit=50)
    assert [a.text for a in again.actions] == [a.text for a in g.actions]


@pytest.mark.parametrize("config", CONFIGS[:3], ids=lambda c: json.dumps(c))
def test_records_replay_exactly(config: dict[str, Any]) -> None:
    s = _walk(config, 4, 200)
    again = cardtable.replay(json.loads(json.dumps(s.record())))
    assert again.snapshot() == s.snapshot()
    assert again.events(0) == s.events(0)


def test_phases_and_decisions_are_at_the_rules_steps() -> None:
    s = new(3)
    assert s.phase == D_NONCOMBAT
    act(s, "combat")
    assert s.phase == D_COMBAT


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("maneuver kind=melee stat=mox1", "a Melee Attack is played with Muscle cards, and mox1 is a Moxie card"),
        ("maneuver kind=evade stat=mys2", "an Evasion is played with Moxie cards, and mys2 is a Mysticality card"),
        ("upgrade from=mus2 to=mus4", "upgraded to the next value of its stat"),
        ("upgrade from=mus1 to=mys2", "exchanged for a card of the same value of another stat"),
    ],
)
def test_k7_2_k9_3_a_combination_the_rules_never_allow_says_which_rule(text: str, words: str) -> None:
    s = cardtable.load("mr-card-game", players=2).new(0, log=False)
    before = s.snapshot()
    with pytest.raises(MalformedAction, match=words):
        s.apply(text)
    assert s.snapshot() == before
