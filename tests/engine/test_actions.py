"""Actions: interned objects with stable text forms; parsing errors say what is wrong."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardtable.engine import Action, ActionSpace, IllegalAction, MalformedAction


def space() -> ActionSpace:
    s = ActionSpace()
    s.declare("play", "card")
    s.declare("move", "card", "lane")
    s.declare("done")
    s.grid("play", range(5))
    for card in range(3):
        for lane in (1, 2):
            s.add("move", card, lane)
    s.add("done")
    s.declare("name", "who")
    s.add("name", "ash")
    return s


def test_text_forms_are_kind_then_params_in_declared_order() -> None:
    s = space()
    assert s.get("play", 3).text == "play card=3"
    assert s.get("move", 2, 1).text == "move card=2 lane=1"
    assert s.get("done").text == "done"
    assert str(s.get("name", "ash")) == "name who=ash"
    assert repr(s.get("done")) == "Action('done')"


def test_actions_are_interned_with_fixed_indices() -> None:
    s = space()
    a = s.add("play", 3)
    assert s.add("play", 3) is a
    assert s.parse("play card=3") is a
    assert s.items[a.index] is a
    assert [x.index for x in s] == list(range(len(s)))
    assert a.arg("card") == 3 and s.get("move", 1, 2).arg("lane") == 2


def test_grid_returns_actions_indexed_like_values() -> None:
    s = ActionSpace()
    s.declare("fight", "lane")
    lanes = s.grid("fight", [3, 1, 2])
    assert [a.args for a in lanes] == [(3,), (1,), (2,)]


@given(st.permutations(["card=2", "lane=1"]), st.integers(0, 3), st.integers(0, 3))
def test_parse_accepts_any_parameter_order_and_extra_spaces(order: list[str], pad1: int, pad2: int) -> None:
    s = space()
    text = " " * pad1 + "move" + " " * (pad2 + 1) + (" " * (pad2 + 1)).join(order)
    assert s.parse(text) is s.get("move", 2, 1)


@given(st.sampled_from(space().items))
def test_every_text_form_parses_back_to_its_action(action: Action) -> None:
    # Each example builds a fresh space: text forms are stable across loads, not only within one.
    s = space()
    assert s.parse(action.text).text == action.text
    assert s.parse(action.text).index == action.index


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "empty action text"),
        ("   ", "empty action text"),
        ("jump", "unknown action 'jump'"),
        ("jump card=1", "unknown action 'jump'"),
        ("play 3", "expected name=value, got '3'"),
        ("play card", "expected name=value"),
        ("play card=", "expected name=value"),
        ("play =3", "expected name=value"),
        ("play", "missing parameter(s) card"),
        ("move card=1", "missing parameter(s) lane"),
        ("play card=1 card=2", "parameter 'card' given twice"),
        ("play lane=1", "has no parameter 'lane'"),
        ("done now=1", "has no parameter 'now' (it takes none)"),
        ("play lane=1", "(it takes card)"),
        ("play card=9", "no such action 'play card=9'"),
        ("play card=x", "no such action 'play card=x'"),
        ("play card=1234567890123456789012", "is out of range"),
        ("play card=x", "card='x' is neither a card's number (card is a number from 0 to 4) nor the name of"),
        ("move card=1 lane=x", "lane='x' is not a number (lane is a number from 1 to 2)"),
        ("name who=bob", "no such action 'name who=bob'"),
    ],
)
def test_parse_errors_name_the_problem(text: str, words: str) -> None:
    with pytest.raises(MalformedAction) as info:
        space().parse(text)
    assert words in str(info.value)
    # Malformed actions are illegal actions and value errors, so callers can catch either.
    assert isinstance(info.value, IllegalAction) and isinstance(info.value, ValueError)


def test_unknown_kind_error_lists_the_games_actions() -> None:
    with pytest.raises(MalformedAction, match=r"play card=<card>, move card=<card> lane=<lane>, done"):
        space().parse("jump")


@pytest.mark.parametrize("value", [None, 3, b"done", ["done"]])
def test_parse_refuses_non_text(value: object) -> None:
    with pytest.raises(MalformedAction, match="an action must be an Action or its text"):
        space().parse(value)


def test_get_refuses_unknown_kind_and_missing_action() -> None:
    s = space()
    with pytest.raises(MalformedAction, match="unknown action 'jump'"):
        s.get("jump")
    with pytest.raises(MalformedAction, match="no such action 'play card=7'"):
        s.get("play", 7)


def test_a_game_may_say_why_a_combination_of_valid_values_is_no_action() -> None:
    """``move card=0 lane=3`` has valid values but names no action: the game's explainer gives the
    rule; without one, or when it has nothing to say, the generic message stands."""
    s = space()
    s.add("move", 0, 3)  # lane 3 exists, for card 0 only
    with pytest.raises(MalformedAction, match=r"^no such action 'move card=1 lane=3' in this game$"):
        s.parse("move card=1 lane=3")
    s.explain = lambda kind, args: "only card 0 reaches lane 3" if kind == "move" and args[1] == 3 else None
    with pytest.raises(MalformedAction, match=r"^no such action 'move card=1 lane=3': only card 0 reaches lane 3$"):
        s.parse("move card=1 lane=3")
    with pytest.raises(MalformedAction, match="lane=4 is out of range"):  # a value never taken: as before
        s.parse("move card=1 lane=4")


def test_declaring_is_checked() -> None:
    s = ActionSpace()
    s.declare("play", "card")
    s.declare("play", "card")  # the same declaration again is fine
    with pytest.raises(ValueError, match="declared twice"):
        s.declare("play", "lane")
    for bad in ("", "two words", "a=b"):
        with pytest.raises(ValueError, match="bad action kind"):
            s.declare(bad)
    with pytest.raises(ValueError, match="was not declared"):
        s.add("jump")
    with pytest.raises(ValueError, match="takes 1 arguments, got 2"):
        s.add("play", 1, 2)


def test_negative_integers_round_trip() -> None:
    s = ActionSpace()
    s.declare("shift", "by")
    a = s.add("shift", -2)
    assert s.parse("shift by=-2") is a
