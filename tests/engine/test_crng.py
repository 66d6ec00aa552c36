"""The C generator and its pure-Python twin produce the same numbers, method by method.

Random programs of calls (every public method, with sizes from empty to large, seeds over the whole
integer range) run on both twins side by side: every return value, every list they change and the
state after every call must be equal. Bad arguments raise the same exception class in both and move
neither. The C module is the built one, or compiled from source for this test run
(``tests/support/crng.py``); CI runs this file against the compiled build too.
"""

from __future__ import annotations

import copy
import importlib.util
import pickle
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.engine.rng import PyRng
from tests.support.crng import c_rng_class

CRng = c_rng_class()
pytestmark = pytest.mark.skipif(CRng is None, reason="no built C generator and no C compiler to build it")

SEEDS = st.integers(min_value=-(2**70), max_value=2**70)
COUNTS = st.one_of(st.integers(1, 60), st.integers(1, 2**64 - 1), st.sampled_from([1, 2, 2**32, 2**63, 2**64 - 1]))

# One call: (method name, a function of the generator returning what to compare).
Op = tuple[str, Callable[[Any], Any]]


def _list_result(fn: Callable[[Any, list[int]], Any], items: list[int]) -> Callable[[Any], Any]:
    def run(r: Any) -> Any:
        seq = list(items)
        out = fn(r, seq)
        return out, seq

    return run


@st.composite
def ops(draw: st.DrawFn) -> Op:
    kind = draw(
        st.sampled_from(
            [
                *("next64", "below", "roll", "choice", "shuffle", "shuffle-other", "shuffle32"),
                *("draw", "pick", "deal", "fork", "copy", "state", "pickle"),
            ]
        )
    )
    items = draw(st.lists(st.integers(-5, 500), max_size=70))
    if kind == "next64":
        return kind, lambda r: r.next64()
    if kind == "below":
        n = draw(COUNTS)
        return kind, lambda r: r.below(n)
    if kind == "roll":
        n = draw(COUNTS)
        return kind, lambda r: r.roll(n)
    if kind == "choice":
        seq: list[int] | tuple[int, ...] = items or [7]
        if draw(st.booleans()):
            seq = tuple(seq)
        return kind, lambda r: r.choice(seq)
    if kind == "shuffle":
        return kind, _list_result(lambda r, s: r.shuffle(s), items)
    if kind == "shuffle-other":
        # A mutable sequence that is not a list takes the generic path in C.
        return kind, lambda r: (lambda b: (r.shuffle(b), bytes(b)))(bytearray(x % 256 for x in items))
    if kind == "shuffle32":
        return kind, _list_result(lambda r, s: r.shuffle32(s), items)
    if kind == "draw":
        n = draw(st.integers(0, len(items)))
        return kind, _list_result(lambda r, s: (lambda dest: (r.draw(dest, s, n), dest))([1, 2]), items)
    if kind == "pick":
        tup = tuple(items) or (3,)
        return kind, lambda r: r.pick(tup)
    if kind == "deal":
        k = draw(st.integers(0, len(items)))
        return kind, _list_result(lambda r, s: r.deal(s, k), items)
    if kind == "fork":
        return kind, lambda r: (lambda child: (child.state, child.next64(), type(child).__name__))(r.fork())
    if kind == "copy":
        return kind, lambda r: (lambda twin: (twin.state, twin.next64(), twin is r))(r.copy())
    if kind == "state":
        value = draw(st.integers(-(2**66), 2**66))

        def set_state(r: Any) -> Any:
            r.state = value
            return r.state

        return kind, set_state
    # A copy goes through __reduce_ex__ and __getstate__/__setstate__, as pickling does.
    return kind, lambda r: (copy.copy(r).next64(), copy.deepcopy(r).state)


@settings(max_examples=300)
@given(SEEDS, st.lists(ops(), max_size=25))
def test_twins_agree_on_every_method(seed: int, program: list[Op]) -> None:
    c, p = CRng(seed), PyRng(seed)
    assert c.state == p.state
    for name, op in program:
        assert op(c) == op(p), name
        assert c.state == p.state, name


@given(SEEDS)
def test_twins_agree_on_long_streams(seed: int) -> None:
    c, p = CRng(seed), PyRng(seed)
    assert [c.next64() for _ in range(200)] == [p.next64() for _ in range(200)]
    assert [c.below(n) for n in range(1, 200)] == [p.below(n) for n in range(1, 200)]
    decks = [list(range(52)) for _ in range(2)]
    c.shuffle(decks[0])
    p.shuffle(decks[1])
    assert decks[0] == decks[1]


BAD_CALLS: list[tuple[str, Callable[[Any], Any], type[Exception]]] = [
    ("below(0)", lambda r: r.below(0), ValueError),
    ("below(-3)", lambda r: r.below(-3), ValueError),
    ("below(2**64)", lambda r: r.below(2**64), ValueError),
    ("below(1.5)", lambda r: r.below(1.5), TypeError),
    ("below('6')", lambda r: r.below("6"), TypeError),
    ("below(None)", lambda r: r.below(None), TypeError),
    ("roll(0)", lambda r: r.roll(0), ValueError),
    ("roll(2.0)", lambda r: r.roll(2.0), TypeError),
    ("choice([])", lambda r: r.choice([]), IndexError),
    ("choice(())", lambda r: r.choice(()), IndexError),
    ("shuffle(tuple)", lambda r: r.shuffle((1, 2, 3)), TypeError),
    ("shuffle(str)", lambda r: r.shuffle("abc"), TypeError),
    ("shuffle32(tuple)", lambda r: r.shuffle32((1, 2)), TypeError),
    ("draw(too many)", lambda r: r.draw([], [1, 2], 3), ValueError),
    ("draw(-1)", lambda r: r.draw([], [1, 2], -1), ValueError),
    ("draw(tuple pile)", lambda r: r.draw([], (1, 2), 1), TypeError),
    ("draw(n text)", lambda r: r.draw([], [1, 2], "1"), TypeError),
    ("pick(())", lambda r: r.pick(()), IndexError),
    ("pick(list)", lambda r: r.pick([1, 2]), TypeError),
    ("deal(too many)", lambda r: r.deal([1, 2], 3), ValueError),
    ("deal(-1)", lambda r: r.deal([1, 2], -1), ValueError),
    ("deal(tuple)", lambda r: r.deal((1, 2), 1), TypeError),
    ("state = 1.0", lambda r: setattr(r, "state", 1.0), TypeError),
    ("seed 1.0", lambda r: type(r)(1.0), TypeError),
    ("seed '1'", lambda r: type(r)("1"), TypeError),
]


@pytest.mark.parametrize(("what", "call", "error"), BAD_CALLS, ids=[b[0] for b in BAD_CALLS])
def test_bad_arguments_raise_the_same_error_and_move_nothing(
    what: str, call: Callable[[Any], Any], error: type[Exception]
) -> None:
    for cls in (CRng, PyRng):
        r = cls(99)
        with pytest.raises(error):
            call(r)
        assert r.state == cls(99).state, (cls, what)


def test_interpreted_subclass_of_the_c_generator() -> None:
    """A Python subclass (a scripted die, as the Doctor Strange tests use) keeps its own fields and
    overrides; the draws it does not override come from the C stream."""

    class Dice(CRng):  # type: ignore[misc,valid-type]  # CRng is the class c_rng_class() found at run time
        __slots__ = ("rolls",)

        def __init__(self, rolls: list[int], seed: int = 0) -> None:
            super().__init__(seed)
            self.rolls = rolls

        def roll(self, sides: int) -> int:
            return self.rolls.pop(0) if self.rolls else int(super().roll(sides))

    d = Dice([12, 1], seed=5)
    assert [d.roll(12), d.roll(12)] == [12, 1]
    plain = PyRng(5)
    assert d.roll(12) == plain.roll(12) and d.below(52) == plain.below(52)
    assert type(d.copy()) is CRng and d.copy().state == d.state


@pytest.mark.skipif(
    importlib.util.find_spec("cardtable.engine._crng") is None, reason="pickling needs the built module"
)
def test_the_built_generator_pickles() -> None:
    r = CRng(7)
    r.next64()
    again = pickle.loads(pickle.dumps(r))
    assert type(again) is CRng and again.state == r.state
