"""Records and replay: round trips, divergence at the right index, clear errors for broken records."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardtable
from cardtable.engine import CardtableError, RecordError, ReplayDivergence, Rng, State
from cardtable.engine.record import FORMAT
from tests.engine.toy import Toy
from tests.support.walk import apply_random

cardtable.register("toy", Toy)


def play(seed: int, agent: int, steps: int | None = None) -> State:
    state = cardtable.load("toy").new(seed)
    r = Rng(agent)
    n = 0
    while not state.is_over and (steps is None or n < steps):
        apply_random(state, r)
        n += 1
    return state


@given(st.integers(0, 10**6), st.integers(0, 10**6))
def test_round_trip_through_json(seed: int, agent: int) -> None:
    state = play(seed, agent)
    record = json.loads(json.dumps(state.record()))
    assert record["format"] == FORMAT and record["game"] == "toy" and record["seed"] == seed
    assert record["options"] == {"players": 2} and record["engine"] == cardtable.__version__
    assert record["actions"] == state.actions_taken()
    assert len(record["hashes"]) == len(record["actions"])
    assert record["result"] == state.result().to_json()
    again = cardtable.replay(record)
    assert again.snapshot() == state.snapshot()
    assert again.events(0) == state.events(0)


def test_record_of_an_unfinished_game_and_upto() -> None:
    state = play(4, 5, steps=6)
    record = state.record()
    assert record["result"] is None
    assert cardtable.replay(record).snapshot() == state.snapshot()
    partial = cardtable.replay(record, upto=3)
    assert partial.actions_taken() == record["actions"][:3]
    assert cardtable.replay(record, upto=-5).actions_taken() == []
    assert cardtable.replay(record, upto=99).snapshot() == state.snapshot()


def tamper(record: dict[str, Any], **changes: Any) -> dict[str, Any]:
    bad = copy.deepcopy(record)
    bad.update(changes)
    return bad


def divergence(record: dict[str, Any]) -> ReplayDivergence:
    with pytest.raises(ReplayDivergence) as info:
        cardtable.replay(record)
    return info.value


@given(st.integers(0, 10**6), st.data())
def test_changed_action_diverges_at_its_index(seed: int, data: st.DataObject) -> None:
    state = play(seed, seed + 1)
    record = state.record()
    i = data.draw(st.integers(0, len(record["actions"]) - 1))
    at = cardtable.replay(record, upto=i)
    others = [a.text for a in at.legal_actions() if a.text != record["actions"][i]]
    if others:
        # Another legal action leads to another state: caught by the hash after it.
        bad = copy.deepcopy(record)
        bad["actions"][i] = others[0]
        err = divergence(bad)
        assert err.index == i and f"action {i}" in str(err)
    # An action that is not legal there is caught when it is applied.
    bad = copy.deepcopy(record)
    bad["actions"][i] = "play card=99" if i % 2 else "jump"
    err = divergence(bad)
    assert err.index == i and f"action {i}" in str(err)


@given(st.integers(0, 10**6), st.data())
def test_changed_hash_diverges_at_its_index(seed: int, data: st.DataObject) -> None:
    record = play(seed, 3).record()
    i = data.draw(st.integers(0, len(record["actions"]) - 1))
    bad = copy.deepcopy(record)
    bad["hashes"][i] = "ffffffffffff" if bad["hashes"][i] != "ffffffffffff" else "000000000000"
    err = divergence(bad)
    assert err.index == i
    assert "differs from the recorded one" in str(err)
    # Without verification the same record replays.
    assert cardtable.replay(bad, verify=False).actions_taken() == record["actions"]


def test_card_hash_change_diverges() -> None:
    record = play(7, 8).record()
    err = divergence(tamper(record, cards="other-cards"))
    assert err.index == len(record["actions"])
    assert "card data changed" in str(err)
    err = divergence(tamper(record, config="0123456789ab"))
    assert "card data or options hash differs" in str(err)
    assert cardtable.replay(tamper(record, cards="other-cards"), verify=False).snapshot() == play(7, 8).snapshot()


def test_card_hash_change_is_named_where_the_game_diverges() -> None:
    """When the changed card data also changes the game, the first differing action is named,
    with the reason."""
    record = play(7, 8).record()
    bad = tamper(record, cards="other-cards")
    bad["hashes"] = list(bad["hashes"])
    bad["hashes"][2] = "000000000000"
    err = divergence(bad)
    assert err.index == 2 and "card data changed" in str(err)


def test_engine_version_alone_is_no_divergence_but_is_named() -> None:
    record = play(2, 2).record()
    old = tamper(record, engine="0.0.1")
    assert cardtable.replay(old).snapshot() == play(2, 2).snapshot()
    old["hashes"] = ["000000000000", *old["hashes"][1:]]
    assert "made by engine 0.0.1" in str(divergence(old))


def test_unknown_game_or_options() -> None:
    record = play(1, 1).record()
    err = divergence(tamper(record, game="no-such-game"))
    assert err.index == 0 and "cannot be loaded now" in str(err) and "no-such-game" in str(err)
    err = divergence(tamper(record, options={"players": 9}))
    assert err.index == 0 and "players" in str(err)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"format": "something-else"}, "not a cardtable record"),
        ({"format": None}, "not a cardtable record"),
        ({"game": 3}, "record field 'game' is missing or not a text"),
        ({"options": []}, "record field 'options' is missing or not a JSON object"),
        ({"options": {"players": 2, "x": None} | {3: 1}}, "map option names"),
        ({"seed": "7"}, "record field 'seed' is missing or not a whole number"),
        ({"seed": True}, "record field 'seed' is missing or not a whole number"),
        ({"seed": 7.0}, "record field 'seed' is missing or not a whole number"),
        ({"actions": "done"}, "record field 'actions' is missing or not a list"),
        ({"actions": ["draw", 3]}, "record action 1 is not text"),
        ({"hashes": ["abc"]}, "'hashes' must list one state hash per action"),
        ({"hashes": "abc"}, "'hashes' must list one state hash per action"),
        ({"cards": 5}, "'cards' must be text"),
        ({"result": [1]}, "'result' must be an object or null"),
    ],
)
def test_malformed_records(change: dict[str, Any], words: str) -> None:
    record = play(3, 3).record()
    with pytest.raises(RecordError, match=words):
        cardtable.replay(tamper(record, **change))


def test_missing_field_and_non_object() -> None:
    record = play(3, 3).record()
    del record["seed"]
    with pytest.raises(CardtableError, match="'seed' is missing"):
        cardtable.replay(record)
    with pytest.raises(CardtableError, match="must be a JSON object, got list"):
        cardtable.replay([])


def test_record_without_hashes_is_refused_unless_accepted_unverified() -> None:
    state = play(6, 6)
    record = state.record()
    del record["hashes"]
    with pytest.raises(RecordError, match="no state hashes, so it cannot be verified"):
        cardtable.replay(record)
    assert cardtable.replay(record, verify=False).snapshot() == state.snapshot()


def test_changed_action_without_hashes_cannot_pass_as_verified() -> None:
    """Without hashes, a record whose action was changed to another legal one replays into another
    game: so a record without hashes is never taken as verified."""
    state = play(6, 6)
    record = state.record()
    game = state.game
    first = game.new(record["seed"])
    other = next(a for a in first.legal_actions() if a.text != record["actions"][0])
    forged = tamper(record, actions=[other.text])
    del forged["hashes"]
    forged["result"] = None
    with pytest.raises(RecordError, match="cannot be verified"):
        cardtable.replay(forged)
    assert cardtable.replay(forged, verify=False).actions_taken() == [other.text]


def test_stored_result_is_checked() -> None:
    state = play(6, 6)
    assert state.is_over
    record = state.record()
    assert cardtable.replay(record).is_over
    forged = tamper(record, result={**record["result"], "winners": [9]})
    err = divergence(forged)
    assert err.index == len(record["actions"]) and "stored result differs" in str(err)
    err = divergence(tamper(record, result=None))
    assert "stores no result" in str(err)
    unfinished = tamper(record, actions=record["actions"][:3], hashes=record["hashes"][:3])
    err = divergence(unfinished)
    assert err.index == 3 and "not over" in str(err)
    # A prefix replay (upto) does not judge the result of the whole game.
    assert not cardtable.replay(record, upto=3).is_over
