"""The event log kept as data (cardtable.engine.events.EventLog): entries recorded as runs of slots
of a flat list, made into Event objects only when read, and what apply returns (a lazy LogSlice).

These pin the contract the cheap log must keep: reading it gives the same events as before (same
texts for every seat, same objects on a second read), apply's return is a true read-only sequence of
the events it caused, and the log survives pickling, undo (``head``) and ``start_log``.
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Sequence
from itertools import pairwise
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardtable
from cardtable.engine import Event, EventLog, Rng, State
from cardtable.engine import game as engine_game
from cardtable.engine.events import LogSlice


def _played(game_id: str, seed: int, steps: int, **options: object) -> State:
    state = cardtable.load(game_id, **options).new(seed)
    pick = Rng(seed + 1)
    for _ in range(steps):
        if state.is_over:
            break
        legal = state.legal_actions()
        state.apply(legal[pick.below(len(legal))])
    return state


def _texts(events: Sequence[Event], players: int) -> list[list[str]]:
    return [[e.for_seat(s) for s in [*range(players), None]] for e in events]


@settings(max_examples=15, deadline=None)
@given(
    st.sampled_from(["mephisto", "doctor-strange", "army-of-darkness", "mr-card-game"]),
    st.integers(0, 10_000),
    st.integers(0, 60),
)
def test_events_are_made_on_first_read_and_kept(game_id: str, seed: int, steps: int) -> None:
    state = _played(game_id, seed, steps, players=2)
    log = state.log
    assert isinstance(log, EventLog) and state._raw is log.raw
    # Every entry is a run of at least four slots, and the entries cover the buffer exactly.
    starts = [*log._scan(), len(log.raw)]
    assert len(starts) - 1 == len(log) and all(b - a >= 4 for a, b in pairwise(starts))
    assert log._made == []  # nothing read yet: no event object was built while the game played
    events = list(log)
    assert len(events) == len(log) and all(isinstance(e, Event) for e in events)
    assert [log[i] for i in range(len(log))] == events
    assert all(log[i] is events[i] for i in range(len(log)))  # the same object on a second read
    assert log[-1] is events[-1] and log[2:5] == events[2:5]
    players = state.game.players
    for seat in [*range(players), None]:
        assert state.events(seat) == [e.for_seat(seat) for e in events]
        assert state.events(seat, 3) == [e.for_seat(seat) for e in events[3:]]


@pytest.mark.parametrize("game_id", ["mephisto", "doctor-strange", "army-of-darkness", "mr-card-game"])
def test_apply_returns_a_lazy_sequence_of_its_events(game_id: str) -> None:
    state = _played(game_id, 5, 10, players=2)
    assert state.log is not None
    pick = Rng(9)
    kept: list[tuple[Sequence[Event], list[str]]] = []
    for _ in range(40):
        if state.is_over:
            break
        before = len(state.log)
        legal = state.legal_actions()
        returned = state.apply(legal[pick.below(len(legal))])
        assert isinstance(returned, Sequence)
        assert len(returned) == len(state.log) - before
        if not returned:
            assert returned == ()
            continue
        assert isinstance(returned, LogSlice)
        logged = state.log[before:]
        assert list(returned) == logged and returned == logged
        assert all(a is b for a, b in zip(returned, logged, strict=True))
        assert returned[0] is logged[0] and returned[-1] is logged[-1] and returned[0:1] == logged[0:1]
        assert logged[0] in returned and returned.index(logged[0]) == 0 and returned.count(logged[0]) >= 1
        assert list(reversed(returned)) == logged[::-1]
        kept.append((returned, [e.text for e in logged]))
        with pytest.raises(IndexError):
            returned[len(returned)]
    # A slice read after later applies still holds the events of its own apply.
    assert kept and all([e.text for e in returned] == texts for returned, texts in kept)
    quiet = cardtable.load(game_id, players=2).new(5, log=False)
    assert quiet.log is None and quiet.apply(quiet.legal_actions()[0]) == ()


@pytest.mark.parametrize("game_id", ["mephisto", "doctor-strange", "army-of-darkness", "mr-card-game"])
def test_a_log_survives_pickle_and_deepcopy_and_keeps_recording(game_id: str) -> None:
    state = _played(game_id, 11, 25, players=2)
    assert state.log is not None
    state.log[0]  # part made, part still data
    players = state.game.players
    for twin in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state)):
        assert twin.log is not None and twin._raw is twin.log.raw  # records into the log it shows
        assert _texts(twin.log, players) == _texts(state.log, players)
        if not twin.is_over:
            action = twin.legal_actions()[0]
            returned = twin.apply(action)
            assert len(twin.log) == len(state.log) + len(returned)
            assert twin.log[len(state.log) :] == list(returned)


def test_head_and_start_log() -> None:
    state = _played("army-of-darkness", 3, 30, players=3)
    log = state.log
    assert log is not None and len(log) > 6
    made = log[:4]
    head = log.head(6)
    assert len(head) == 6 and head.raw == log.raw[: log._starts[6]] and head.raw is not log.raw
    assert head[:4] == made and all(a is b for a, b in zip(head[:4], made, strict=True))
    assert _texts(head, 3) == _texts(log[:6], 3)
    quiet = state.clone()
    assert quiet.log is None and quiet._raw is None and quiet.events(0) == []
    quiet.start_log(head)
    assert quiet.log is head and quiet._raw is head.raw
    if not quiet.is_over:
        quiet.apply(quiet.legal_actions()[0])
        assert len(head) >= 6 and len(log) == len(state.log)  # the original log is untouched
    fresh = state.clone()
    fresh.start_log()
    assert fresh.log is not None and len(fresh.log) == 0 and fresh.events(None) == []


def test_an_event_log_compares_by_its_events() -> None:
    state = _played("mephisto", 8, 12, players=2)
    log = state.log
    assert log is not None
    assert log == list(log) and log == tuple(log) and log == log.head(len(log))
    assert log != log.head(len(log) - 1) and (log == 3) is False
    assert repr(log).startswith("EventLog([Event(")


def _echo(game: object, args: tuple[object, ...], seat: int | None) -> str:
    return f"{seat}: {args!r}"


def _record(state: State, how: str, args: tuple[int, ...], to: frozenset[int]) -> None:
    """Record ``args`` through one of the State's recording methods (or as text: ``emit``)."""
    n = len(args)
    if how == "tuple":
        state.tell("k", _echo, args, to)
    elif how == "seated":
        state.tell_seated("k", _echo, args)
    elif how == "text":
        state.emit("k", f"text {args!r}", f"private {args!r}" if to else None, sorted(to))
    elif how == "list1":
        state.tell_list1("k", _echo, args[0], list(args[1:]), to)
    elif how == "list":
        state.tell_list("k", _echo, args[0], args[1], [9, 9, *args[2:]], 2, to)
    elif n == 1:  # flat: tell1 … tell5, by the number of arguments
        state.tell1("k", _echo, args[0], to)
    elif n == 2:
        state.tell2("k", _echo, args[0], args[1], to)
    elif n == 3:
        state.tell3("k", _echo, args[0], args[1], args[2], to)
    elif n == 4:
        state.tell4("k", _echo, args[0], args[1], args[2], args[3], to)
    else:
        a, b, c, d, e = args
        state.tell5("k", _echo, a, b, c, d, e, to)


def _reference(how: str, args: tuple[int, ...], to: frozenset[int], players: int) -> list[str]:
    """What every seat (then a spectator) must read of that event."""
    if how == "text":
        return [f"private {args!r}" if s in to else f"text {args!r}" for s in range(players)] + [f"text {args!r}"]
    if how == "seated":
        return [_echo(None, args, s) for s in range(players)] + [_echo(None, args, None)]
    return [_echo(None, args, s if s in to else None) for s in range(players)] + [_echo(None, args, None)]


_HOWS = ("tuple", "flat", "seated", "text", "list1", "list")


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(_HOWS),
            st.lists(st.integers(-5, 400), min_size=2, max_size=5).map(tuple),
            st.frozensets(st.integers(0, 2), max_size=2),
        ),
        max_size=30,
    ),
    st.data(),
)
def test_every_way_of_recording_reads_the_same(
    records: list[tuple[str, tuple[int, ...], frozenset[int]]], data: st.DataObject
) -> None:
    """``tell`` with a tuple, its flat variants (``tell1`` … ``tell5``, ``tell_list``, ``tell_list1``),
    ``tell_seated`` and ``emit`` all record into one buffer whose entries differ in length: each reads
    back as the event it recorded, for every seat, through the log, its slices, ``head`` and pickle."""
    state = cardtable.load("army-of-darkness", players=3).new(1, log=False)
    state.start_log()
    log = state.log
    assert log is not None
    marks = [0]
    # Both ways the flat variants record (appends in the compiled build, one += in the pure one).
    with patch.object(engine_game, "COMPILED", data.draw(st.booleans())):
        for how, args, to in records:
            _record(state, how, args, to)
            marks.append(len(log.raw))
    expected = [_reference(how, args, to, 3) for how, args, to in records]
    assert len(log) == len(records)
    assert [[e.for_seat(s) for s in [0, 1, 2, None]] for e in log] == expected
    # A window of the buffer (what apply returns) holds exactly the entries recorded in it.
    i = data.draw(st.integers(0, len(records)))
    j = data.draw(st.integers(i, len(records)))
    window = LogSlice(log, marks[i], marks[j])
    assert len(window) == j - i and [[e.for_seat(s) for s in [0, 1, 2, None]] for e in window] == expected[i:j]
    head = log.head(i)
    assert len(head) == i and head.raw == log.raw[: marks[i]]
    twin = pickle.loads(pickle.dumps(log))
    assert [[e.for_seat(s) for s in [0, 1, 2, None]] for e in twin] == expected


def test_a_flat_tell_is_the_tuple_tell() -> None:
    """The flat variants hand the words function the very tuple ``tell`` would have."""
    state = cardtable.load("army-of-darkness", players=2).new(1, log=False)
    state.start_log()
    seen: list[tuple[object, ...]] = []

    def words(game: object, args: tuple[object, ...], seat: int | None) -> str:
        seen.append(args)
        return ""

    state.tell3("k", words, 1, "Ash", (2, 3))
    state.tell("k", words, (1, "Ash", (2, 3)))
    state.tell_list("k", words, 1, "Ash", [7, 2, 3], 1)
    assert state.log is not None
    for event in state.log:
        assert event.text == ""
    assert seen == [(1, "Ash", (2, 3)), (1, "Ash", (2, 3)), (1, "Ash", 2, 3)]
