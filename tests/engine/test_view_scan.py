"""The conformance harness walks each view once (``scan_view``) and walks it again, building paths,
only when a check fails. The quick answers must be exactly the careful walks' answers: property
tests over random trees that mix what views hold with everything a view must not hold."""

from __future__ import annotations

import math
import re
from typing import Any
from unittest import mock

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardtable.engine.game import ENGINE_VIEW_KEYS
from cardtable.testing import conformance
from cardtable.testing.conformance import (
    INTERNAL_KEYS,
    ConformanceError,
    ViewScan,
    card_objects,
    check_json_ready,
    check_view_for_people,
    is_json_ready,
    scan_view,
    strings_in,
)
from tests.engine.toy import Toy

TEXTS = st.sampled_from(["", "Witch", "pay 2 gold", "do=draw", "kinds=x", "whose turn", "a=b", "Ash"])
KEYS = st.one_of(st.sampled_from(["name", "type", "text", "cards", "score", *sorted(INTERNAL_KEYS)]), TEXTS)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.floats(allow_nan=True, allow_infinity=True),
    TEXTS,
    st.just((1, 2)),  # not JSON: a tuple
    st.just(frozenset({1})),  # not JSON: a set
)
CARD = st.fixed_dictionaries(
    {"id": st.integers(0, 9), "name": TEXTS},
    optional={"type": st.one_of(TEXTS, st.none()), "text": st.one_of(TEXTS, st.integers(0, 1))},
)


def _trees(children: Any) -> Any:
    return st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(KEYS, children, max_size=4),
        st.dictionaries(st.integers(0, 2), children, max_size=2),  # not JSON: an int key
        CARD,
    )


TREES = st.recursive(st.one_of(SCALARS, CARD), _trees, max_leaves=25)


def json_ready(v: Any) -> bool:
    """What JSON-ready means, written plainly (the reference for the harness's walks)."""
    if v is None or type(v) in (str, int, bool):
        return True
    if type(v) is float:
        return math.isfinite(v)
    if type(v) is list:
        return all(json_ready(x) for x in v)
    if type(v) is dict:
        return all(type(k) is str for k in v) and all(json_ready(x) for x in v.values())
    return False


def reads_for_people(v: Any) -> bool:
    """No bookkeeping key, no raw effect syntax, every card object with its type and text."""
    if type(v) is str:
        return conformance._RAW_EFFECT.search(v) is None
    if type(v) is list:
        return all(reads_for_people(x) for x in v)
    if type(v) is dict:
        if any(k in INTERNAL_KEYS for k in v):
            return False
        card = type(v.get("id")) is int and type(v.get("name")) is str
        if card and (type(v.get("type")) is not str or type(v.get("text")) is not str):
            return False
        return all(reads_for_people(x) for x in v.values())
    return True


def _a_view(tree: Any) -> dict[str, Any]:
    """A view of the toy game with ``tree`` under one of its declared keys."""
    view: dict[str, Any] = {key: 0 for key in ENGINE_VIEW_KEYS | Toy.VIEW_KEYS}
    view["prompt"] = "Play a card."
    view["table"] = tree
    return view


def _raises(check: Any) -> bool:
    try:
        check()
    except ConformanceError:
        return True
    return False


@given(TREES)
def test_one_walk_answers_as_the_careful_walks(tree: Any) -> None:
    scan = scan_view(tree)
    assert scan.json_ready == json_ready(tree) == is_json_ready(tree)
    assert scan.for_people == reads_for_people(tree)
    assert sorted(scan.cards) == sorted(card_objects(tree))
    assert sorted(scan.strings) == sorted(strings_in(tree))


@given(TREES)
def test_the_careful_walks_raise_exactly_when_the_answer_is_no(tree: Any) -> None:
    game = Toy(players=2)
    view = _a_view(tree)
    careful = ViewScan(json_ready=False, for_people=False, cards=[], strings=[])  # forces the walk with paths
    assert _raises(lambda: check_view_for_people(game, view, "view", careful)) == (not reads_for_people(tree))
    assert _raises(lambda: check_view_for_people(game, view, "view")) == (not reads_for_people(tree))
    assert _raises(lambda: check_json_ready(tree, "v")) == (not json_ready(tree))
    with mock.patch.object(conformance, "is_json_ready", lambda value: False):  # the careful walk alone
        assert _raises(lambda: check_json_ready(tree, "v")) == (not json_ready(tree))


@pytest.mark.parametrize(
    ("tree", "words"),
    [
        ({"a": (1, 2)}, "v.a is a tuple"),
        ({"b": {1: 2}}, "v.b has the non-string key 1"),
        ({"a": [0.5, float("nan")]}, "v.a[1] is nan, which JSON cannot carry"),
    ],
)
def test_the_careful_json_walk_names_the_place(tree: Any, words: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Even where the quick answer would be wrong, the careful walk alone decides and says where."""
    monkeypatch.setattr(conformance, "is_json_ready", lambda value: False)
    with pytest.raises(ConformanceError, match=re.escape(words)):
        check_json_ready(tree, "v")
    check_json_ready({"a": [1, 2.5, "x", None, True]}, "v")  # and passes what is JSON-ready
