"""Observers (DESIGN.md, "Observations are for machines"): in every game and configuration, a game's
observer gives exactly the reference encoding of ``view(seat)``, is unchanged under
``determinize(seat, ...)``, and its incremental path equals a fresh write; the conformance harness's
checks catch a leaking observer (the positive control)."""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardtable
from cardtable.engine import State
from cardtable.engine.rng import Rng
from cardtable.games.army_of_darkness import codes as aod_codes
from cardtable.games.army_of_darkness.state import AodState
from cardtable.games.doctor_strange import changes as ds_changes
from cardtable.games.doctor_strange.base import replaced
from cardtable.games.doctor_strange.state import DSState
from cardtable.games.mephisto import changes as meph_changes
from cardtable.games.mephisto.game import Mephisto
from cardtable.games.mephisto.rules import MephistoState
from cardtable.games.mr_card_game.state import McgState
from cardtable.rl.encode import encoder_for
from cardtable.rl.observe import Observer, Tracker, ViewObserver, dedicated, observer_for
from cardtable.rl.observe import army_of_darkness as aod_observer
from cardtable.rl.observe import doctor_strange as ds_observer
from cardtable.rl.observe import mephisto as meph_observer
from cardtable.testing.conformance import (
    ConformanceError,
    check_observer,
    check_observer_blind,
    check_observer_equivalence,
    leaking_observer,
)
from tests.rl.helpers import CASES, load, random_play

SEEDS = st.integers(min_value=0, max_value=2**31 - 1)
GAMES = ("mephisto", "doctor-strange", "army-of-darkness", "mr-card-game")
OWN_CASES = [p for p in CASES if p.values[0] in GAMES]
ChangeListState = AodState | MephistoState | DSState
"""The state classes whose rules keep a change list for the observer."""

CHANGE_LISTS = [
    pytest.param("army-of-darkness", {"players": 3}, AodState, aod_observer._READ, "deck", id="army-of-darkness"),
    pytest.param("mephisto", {"players": 3}, MephistoState, meph_observer._READ, "deck", id="mephisto"),
    pytest.param("doctor-strange", {}, DSState, ds_observer._READ, "pool", id="doctor-strange"),
]
"""The games whose rules keep a change list for the observer: options, state class, the memo slot of
the list a buffer follows, and the list of hidden cards a card can be taken from. In all three, a
change list entry of a hand is ``game.NOTE[0][seat] + 2 * card + added`` and a state has ``hands``."""


def _reference(game: Any) -> Any:
    encoder = encoder_for(game)
    return lambda state, seat: encoder.encode(state.view(seat))


def test_every_game_has_its_own_observer() -> None:
    for game_id in GAMES:
        assert dedicated(game_id), f"{game_id} has lost its observer"
        observer = observer_for(cardtable.load(game_id), observe="state")
        assert not isinstance(observer, ViewObserver) and observer.game_id == game_id
    toy = load("toy", {"players": 2})
    assert isinstance(observer_for(toy), ViewObserver)
    with pytest.raises(ValueError, match="no observer of its own"):
        observer_for(toy, observe="state")
    with pytest.raises(ValueError, match="observe must be"):
        observer_for(toy, observe="fast")
    # The generic hashed encoder has no fast observer: its observer is the reference path.
    assert isinstance(observer_for(cardtable.load("mephisto"), "generic"), ViewObserver)


@pytest.mark.parametrize(("game_id", "options"), OWN_CASES)
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=SEEDS)
def test_observer_equals_the_reference_and_is_blind_to_hidden_cards(
    game_id: str, options: dict[str, Any], seed: int
) -> None:
    """The conformance harness's observer check over a random game: at about 30 steps spread over it,
    for every seat, the observer's vector is bit for bit the encoding of the seat's view, and two
    determinizations for that seat leave it unchanged."""
    game = load(game_id, options)
    observer = observer_for(game, observe="state")
    changed = check_observer(game, seed, observer.observe, _reference(game), checked_steps=30, samples=2)
    assert any(changed), "no determinization changed a hidden card: the blindness check was vacuous"


@pytest.mark.parametrize(("game_id", "options"), OWN_CASES)
def test_observer_equals_the_reference_in_games_the_heuristic_plays(game_id: str, options: dict[str, Any]) -> None:
    """Random players rarely get far (in Mr. Card Game they never reach a March they can win, nor an
    ascension): games of the heuristic agents, with a random move now and then, reach the states
    random play does not. Every 7th step, every seat: equal to the reference, blind to the hidden
    cards, and the incremental path equal too."""
    from cardtable.agents.base import Observation
    from cardtable.agents.registry import make_agent

    game = load(game_id, options)
    observer = observer_for(game, observe="state")
    reference = _reference(game)
    trackers = [observer.tracker() for _ in range(game.players)]
    rng = Rng(13)
    state = game.new(13, log=False)
    agents = [make_agent("heuristic", game, seed=13 + p) for p in range(game.players)]
    step = 0
    while True:
        if step % 7 == 0 or state.is_over:
            for seat in range(game.players):
                expected = check_observer_equivalence(state, seat, observer.observe, reference)
                check_observer_blind(state, seat, observer.observe, [rng.below(2**31)])
                assert np.array_equal(observer.update(state, seat, trackers[seat]), expected)
        if state.is_over or step >= 2500:
            break
        mover = state.current_player
        assert mover is not None
        legal = state.legal_actions()
        if rng.below(10) == 0:
            state.apply(legal[rng.below(len(legal))])
        else:
            state.apply(agents[mover].choose(Observation(state, mover)))
        step += 1


@pytest.mark.parametrize(("game_id", "options"), OWN_CASES)
def test_incremental_updates_equal_a_fresh_write(game_id: str, options: dict[str, Any]) -> None:
    """Each seat's buffer is brought up to date at every step of a random game (only what changed is
    written) and must equal the reference; so must one buffer shared by every seat (a seat switch
    starts afresh) and buffers that also saw determinized states in between (another state,
    then back)."""
    game = load(game_id, options)
    observer = observer_for(game, observe="state")
    reference = _reference(game)
    trackers = [observer.tracker() for _ in range(game.players)]
    shared = observer.tracker()
    rng = Rng(5)
    for seed in (1, 2):
        state = game.new(seed, log=False)
        step = 0
        while True:
            seat = step % game.players
            expected = reference(state, seat)
            assert np.array_equal(observer.update(state, seat, trackers[seat]), expected), step
            assert np.array_equal(observer.update(state, seat, shared), expected), step
            if step % 7 == 0:  # another state in between: a determinization, then this one again
                other = state.determinize(seat, rng.below(2**31))
                observer.update(other, seat, trackers[seat])
                assert np.array_equal(observer.update(state, seat, trackers[seat]), expected), step
            if state.is_over or step >= 400:
                break
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
            step += 1


def _check_any_schedule(game: Any, observer: Observer, seed: int, schedule: int) -> None:
    """Incremental updates against a full recompute (:meth:`Observer.write` on a fresh buffer) over a
    game with a random schedule of observations (an ``AssertionError`` at the first difference). In
    between, now and then: a determinized state, another game's state, a clone that went its own way,
    and pickling (the state with its trackers, or the trackers alone)."""
    trackers = [observer.tracker() for _ in range(game.players)]
    shared = observer.tracker()
    rng = Rng(schedule)
    state = game.new(seed, log=False)
    other = game.new(seed + 1, log=False)
    fresh = np.empty(observer.size, dtype=np.float32)
    for step in range(300):
        seat = rng.below(game.players)
        if rng.below(3):  # most of the time: observe now (else let several moves pile up)
            observer.write(state, seat, fresh)
            assert np.array_equal(observer.update(state, seat, trackers[seat]), fresh), (step, seat)
            assert np.array_equal(observer.update(state, seat, shared), fresh), (step, seat)
        roll = rng.below(12)
        if roll == 0:  # a determinization in between, then the real state again
            observer.update(state.determinize(seat, rng.below(2**31)), seat, trackers[seat])
        elif roll == 1 and not other.is_over:  # another game in between
            observer.update(other, seat, trackers[seat])
            legal = other.legal_actions()
            other.apply(legal[rng.below(len(legal))])
        elif roll == 2 and not state.is_over:  # a clone that went its own way (it shares tuples)
            fork = state.clone()
            legal = fork.legal_actions()
            fork.apply(legal[rng.below(len(legal))])
            observer.update(fork, seat, trackers[seat])
            observer.update(fork, seat, shared)
        elif roll == 3:  # the state and its trackers pickled together (their shared objects kept)
            state, trackers, shared = pickle.loads(pickle.dumps((state, trackers, shared)))
        elif roll == 4:  # the trackers pickled alone (they now hold copies of what the state holds)
            trackers, shared = pickle.loads(pickle.dumps((trackers, shared)))
        if state.is_over:
            break
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
    for seat in range(game.players):  # the last state, every seat
        observer.write(state, seat, fresh)
        assert np.array_equal(observer.update(state, seat, trackers[seat]), fresh), seat


@pytest.mark.parametrize(("game_id", "options"), OWN_CASES)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=SEEDS, schedule=SEEDS)
def test_incremental_updates_equal_a_full_recompute_on_any_schedule(
    game_id: str, options: dict[str, Any], seed: int, schedule: int
) -> None:
    """The incremental path against a full recompute over a random game, with a random schedule of
    observations: a tracker per seat brought up to date after a random number of moves (one change,
    or many at once), now and then a determinized state, another game's state or a clone that went
    its own way in between (the observers' prechecks, marks and identity tests must see every change,
    whatever came before), the state and trackers pickled, and a tracker shared by all seats. Bit for
    bit, every time."""
    game = load(game_id, options)
    _check_any_schedule(game, observer_for(game, observe="state"), seed, schedule)


def test_the_schedule_check_catches_a_stale_precheck() -> None:
    """The positive control of the check above: an observer whose precheck is too coarse (it skips
    the game's sections while the seat to act and the turn stay the same, a plausible shortcut that
    misses the cards played within a turn) fails it."""
    game = load("mephisto", {})
    base = type(observer_for(game, observe="state"))

    class Stale(Observer):
        def __init__(self, encoder: Any) -> None:
            self.inner = base(encoder)
            super().__init__(encoder)

        def build(self) -> None:
            self.slots = self.inner.slots + 1

        def fill(self, state: Any, seat: int, out: Any, memo: list[Any]) -> None:
            key = (state.current_player, state.turn)
            if memo[-1] == key:
                return
            self.inner.fill(state, seat, out, memo)
            memo[-1] = key

    _check_any_schedule(game, base(encoder_for(game)), 3, 4)  # the real one passes on this schedule
    with pytest.raises(AssertionError, match=r"\(\d+, \d+\)"):  # a step and seat where they differ
        _check_any_schedule(game, Stale(encoder_for(game)), 3, 4)


@pytest.mark.parametrize(("game_id", "options", "state_class", "read_slot", "hidden"), CHANGE_LISTS)
def test_the_schedule_check_catches_a_change_list_followed_on_another_state(
    game_id: str, options: dict[str, Any], state_class: type[ChangeListState], read_slot: int, hidden: str
) -> None:
    """The positive control for what lets a change list be followed: the state it belongs to. An
    observer that goes on from any state as if it were the one whose change list its buffer follows
    (it takes the new state's list, read up to its end, for that list) fails the schedule check: a
    clone that went its own way, a determinized state or another game shows other cards than the
    buffer holds."""
    game = load(game_id, options)
    base = type(observer_for(game, observe="state"))

    class Forged(Observer):
        def __init__(self, encoder: Any) -> None:
            self.inner = base(encoder)
            super().__init__(encoder)

        def build(self) -> None:
            self.slots = self.inner.slots

        def fill(self, state: Any, seat: int, out: Any, memo: list[Any]) -> None:
            read = memo[read_slot]  # any state is taken for the one whose list was followed
            if read is not None and read[0] is not state.changes:
                if state.changes is None:
                    state.changes = []
                memo[read_slot] = (state.changes, len(state.changes))
            self.inner.fill(state, seat, out, memo)

    _check_any_schedule(game, base(encoder_for(game)), 2, 4)  # the real one passes on this schedule
    with pytest.raises(AssertionError, match=r"\(\d+, \d+\)"):
        _check_any_schedule(game, Forged(encoder_for(game)), 2, 4)


def _observed_after_six_moves(game_id: str, options: dict[str, Any]) -> tuple[Observer, np.ndarray, State]:
    """The marks tests' setting: ``game_id``'s state observer, a buffer for its full rewrite, and a
    state (seed 4, no log) six random moves into its game."""
    game = load(game_id, options)
    observer = observer_for(game, observe="state")
    fresh = np.empty(observer.size, dtype=np.float32)
    state = game.new(4, log=False)
    rng = Rng(2)
    for _ in range(6):
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
    return observer, fresh, state


@pytest.mark.parametrize(("game_id", "options", "state_class", "read_slot", "hidden"), CHANGE_LISTS)
def test_updates_read_the_change_list_the_state_keeps(
    game_id: str, options: dict[str, Any], state_class: type[ChangeListState], read_slot: int, hidden: str
) -> None:
    """Army of Darkness's, Mephisto's and Doctor Strange's observers write a buffer in full once per
    state, then read only the change list the rules keep on that state (``AodState.changes``,
    ``MephistoState.changes``, ``DSBase.changes``). The positive control of the schedule check for that list: a change
    made behind the rules' back, without its entry (a rule that forgot to note it), leaves the
    incremental vector stale, and a full rewrite's comparison catches it; the same change with its
    entry is seen. Also: a state keeps no list until an observer asks (searches never pay for it),
    and a clone or a determinized copy starts without one, so it is written in full and never taken
    for its original."""
    game = load(game_id, options)
    dealt = game.new(4, log=False)
    assert isinstance(dealt, state_class) and dealt.changes is None
    observer, fresh, state = _observed_after_six_moves(game_id, options)
    assert isinstance(state, state_class) and state.changes is None
    tracker = observer.tracker()
    observer.update(state, 0, tracker)
    log = state.changes
    assert log is not None and log == []  # the observer asked for it
    legal = state.legal_actions()
    state.apply(legal[0])
    observer.write(state, 0, fresh)
    assert np.array_equal(observer.update(state, 0, tracker), fresh)
    # Seat 0 gets a hidden card behind the rules' back: its own hand shows one more card.
    card = getattr(state, hidden).pop()
    state.hands[0].append(card)
    observer.write(state, 0, fresh)
    assert not np.array_equal(observer.update(state, 0, tracker), fresh)  # stale: no entry
    assert aod_codes.Z_HAND == meph_changes.Z_HAND == ds_changes.Z_HAND == 0
    log.append(state.game.NOTE[0][0] + 2 * card + 1)  # seat 0's hand gains the card
    assert np.array_equal(observer.update(state, 0, tracker), fresh)  # with the entry: seen
    # What code that edits a state by hand does instead of writing entries: drop the list, and every
    # buffer that followed the state is written afresh.
    state.hands[-1].append(getattr(state, hidden).pop())
    state.changes = None
    observer.write(state, 0, fresh)
    assert np.array_equal(observer.update(state, 0, tracker), fresh)
    log = state.changes
    assert log is not None
    # Copies start without a list; changed behind the rules' back, they are still written in full.
    for other in (state.clone(), state.determinize(0, 9)):
        assert isinstance(other, state_class) and other.changes is None
        other.hands[-1].append(getattr(other, hidden).pop())
        observer.write(other, 0, fresh)
        assert np.array_equal(observer.update(other, 0, tracker), fresh)
        assert other.changes is not None and other.changes is not log


def test_army_of_darkness_change_list_follows_reshuffles_and_switches() -> None:
    """The rarer entries of the change list, read by updates: random two-player games observed at
    every step by a tracker per seat until a reshuffle (the discard pile's cards leave it for the deck,
    one entry each) and a change of side, switches or reduction state (a seat entry) have both been
    read; every update equals a full write. The test fails if either kind never came up, so it cannot
    pass without exercising them."""
    game = load("army-of-darkness", {"players": 2})
    observer = observer_for(game, observe="state")
    fresh = np.empty(observer.size, dtype=np.float32)
    reshuffled = seat_read = False
    for seed in range(40):
        state = game.new(seed, log=False)
        assert isinstance(state, AodState)
        seat_notes = state.game.NOTE[aod_codes.Z_SEAT]  # a seat entry is one of these, plus 1
        trackers = [observer.tracker() for _ in range(2)]
        rng = Rng(seed)
        while not state.is_over:
            for seat in (0, 1):
                observer.write(state, seat, fresh)
                assert np.array_equal(observer.update(state, seat, trackers[seat]), fresh), (seed, seat)
            log = state.changes
            assert log is not None
            read = len(log)
            deck = len(state.deck)
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
            if not state.is_over:  # what this move changed is read at the next step
                reshuffled |= len(state.deck) > deck
                seat_read |= any(e - 1 in seat_notes for e in log[read:])
        if reshuffled and seat_read:
            break
    assert reshuffled, "no reshuffle came up: the test saw none of its entries"
    assert seat_read, "no seat entry came up"


def test_mephisto_change_list_entries_of_every_kind_are_read() -> None:
    """Every kind of entry of Mephisto's change list, read by updates: random two-player games
    observed at every step by a tracker per seat, every update equal to a full write, until an entry
    of each zone, each way the zone has, has been read (a card into and out of a hand, play and the
    discard pile: a reshuffle takes the pile's cards; a soul added; favor, soul points and a bonus; a
    dungeon space; a public bit set; a durability and an activation; a spell attached and, as its
    weapon breaks, taken off). The test fails if any kind never came up, so it cannot pass without
    exercising them all."""
    game = load("mephisto", {"players": 2})
    assert isinstance(game, Mephisto)
    observer = observer_for(game, observe="state")
    fresh = np.empty(observer.size, dtype=np.float32)
    C = meph_changes
    expected = {(z, 1) for z in (C.Z_HAND, C.Z_PLAY, C.Z_SOULS, C.Z_DISCARD, C.Z_PUB, C.Z_ATTACH)}
    expected |= {(z, 0) for z in (C.Z_HAND, C.Z_PLAY, C.Z_DISCARD, C.Z_ATTACH)}
    expected |= {(z, 0) for z in (C.Z_SEAT, C.Z_BONUS, C.Z_SPACE, C.Z_DUR, C.Z_ACT)}
    assert len(expected) == 15 and {z for z, _ in expected} == set(range(C.ZONES))
    per_zone = 2 * len(game.cards) * game.players  # entries of one zone, every seat's
    read: set[tuple[int, int]] = set()
    for seed in range(30):
        state = game.new(seed, log=False)
        assert isinstance(state, MephistoState)
        trackers = [observer.tracker() for _ in range(2)]
        place = [0, 0]  # how much of the state's list each seat's tracker has read
        rng = Rng(seed)
        while True:
            for seat in (0, 1):
                observer.write(state, seat, fresh)
                assert np.array_equal(observer.update(state, seat, trackers[seat]), fresh), (seed, seat)
                log = state.changes
                assert log is not None
                read |= {(e // per_zone, e & 1) for e in log[place[seat] :]}
                place[seat] = len(log)
            if state.is_over:
                break
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
        if read >= expected:
            break
    assert read == expected, f"never read: {sorted(expected - read)}; unknown: {sorted(read - expected)}"


def test_mr_card_game_marks_are_what_lets_a_player_be_skipped() -> None:
    """Mr. Card Game's observer skips a player whose change mark (``McgState.marks``) is the one it
    saw on the same state. The positive control of the schedule check for those marks: a change to
    a player's cards or meat made without its mark (a rule that forgot to bump it) leaves the
    incremental vector stale, and a full rewrite's comparison catches it; the same change with the
    mark bumped is seen. Also: a clone, which copies the marks into a list of its own, is never
    taken for its original."""
    observer, fresh, state = _observed_after_six_moves("mr-card-game", {"players": 3})
    assert isinstance(state, McgState)
    seat = state.current_player
    assert seat is not None
    other_seat = (seat + 1) % 3
    tracker = observer.tracker()
    observer.update(state, seat, tracker)
    # Another player's meat and discard pile change behind the rules' back: both are public.
    state.meat[other_seat] += 3
    state.disc[other_seat].append(state.deck[other_seat].pop())
    observer.write(state, seat, fresh)
    assert not np.array_equal(observer.update(state, seat, tracker), fresh)  # stale: no mark bumped
    state.marks[other_seat] += 1
    assert np.array_equal(observer.update(state, seat, tracker), fresh)  # with the mark: seen
    # The seat's own hand, likewise (its stat cards by kind).
    state.hand[seat].append(state.deck[seat].pop())
    observer.write(state, seat, fresh)
    assert not np.array_equal(observer.update(state, seat, tracker), fresh)
    state.marks[seat] += 1
    assert np.array_equal(observer.update(state, seat, tracker), fresh)
    # A clone has its own marks list: changed behind the rules' back, it is still compared in full.
    other = state.clone()
    assert isinstance(other, McgState)
    assert other.marks == state.marks and other.marks is not state.marks
    other.meat[other_seat] += 2
    observer.write(other, seat, fresh)
    assert np.array_equal(observer.update(other, seat, tracker), fresh)


def test_doctor_strange_table_is_read_from_the_change_list() -> None:
    """Doctor Strange's observer works the characters in play out again only after a change list
    entry of the table (``Z_CHAR``, ``Z_ATT``) or a change of its three bit masks. The positive
    control of the schedule check for those entries: a character's power changed behind the rules'
    back, without its entry (a rule that forgot to note it), leaves the incremental vector stale, and
    a full rewrite's comparison catches it; the same change with its entry is seen. Also: a clone
    starts without a list, so changed behind the rules' back it is still written in full."""
    observer, fresh, state = _observed_after_six_moves("doctor-strange", {})
    assert isinstance(state, DSState)
    seat = state.current_player
    assert seat is not None
    tracker = observer.tracker()
    observer.update(state, seat, tracker)
    log = state.changes
    assert log is not None
    card = state.chars[0]
    slot = state.game.SLOT[card]
    # Behind the rules' back: a public number of the table.
    state.mpow = replaced(state.mpow, slot, state.mpow[slot] + 3)
    observer.write(state, seat, fresh)
    assert not np.array_equal(observer.update(state, seat, tracker), fresh)  # stale: no entry
    log.append(state.game.NOTE[ds_changes.Z_CHAR][0] + 2 * card)
    assert np.array_equal(observer.update(state, seat, tracker), fresh)  # with the entry: seen
    other = state.clone()
    assert isinstance(other, DSState) and other.changes is None
    other.mpow = replaced(other.mpow, slot, other.mpow[slot] + 2)
    observer.write(other, seat, fresh)
    assert np.array_equal(observer.update(other, seat, tracker), fresh)


@pytest.mark.parametrize(("game_id", "options"), OWN_CASES)
def test_the_checks_catch_a_leaking_observer(game_id: str, options: dict[str, Any]) -> None:
    """The positive control, in every configuration: an observer that mixes in a number from the
    hidden part of the state is caught by the blindness check (and by the equivalence check), for
    every seat, where the true observer passes the same checks."""
    game = load(game_id, options)
    observer = observer_for(game, observe="state")
    leaky = leaking_observer(observer.observe)
    state = game.new(3, log=False)
    random_play(state, Rng(3), steps=15)
    for seat in range(game.players):
        assert check_observer_blind(state, seat, observer.observe, [1, 2, 3])
        with pytest.raises(ConformanceError, match="changed under determinize"):
            check_observer_blind(state, seat, leaky, [1, 2, 3])
        with pytest.raises(ConformanceError, match="differs from the reference"):
            check_observer_equivalence(state, seat, leaky, _reference(game))
    with pytest.raises(ConformanceError):
        check_observer(game, 3, leaky, _reference(game), checked_steps=3)


def test_the_equivalence_check_catches_an_observer_that_drifts() -> None:
    """A subtler fault than a leak: an observer that gets one number wrong (here, a hand size a little
    off) is caught by the equivalence check along a random game."""
    game = cardtable.load("mephisto", players=2)
    observer = observer_for(game, observe="state")
    hand_size = observer.layout["players"].start + 2

    def drifting(state: Any, seat: int) -> np.ndarray:
        out = observer.observe(state, seat)
        out[hand_size] += np.float32(0.001)
        return out

    with pytest.raises(ConformanceError, match="differs from the reference"):
        check_observer(game, 1, drifting, _reference(game), checked_steps=5)


def test_observers_refuse_bad_seats_and_buffers() -> None:
    game = cardtable.load("doctor-strange")
    observer = observer_for(game)
    state = game.new(1, log=False)
    for seat in (-1, 2, True, "0", None):
        with pytest.raises(ValueError, match="seat from 0 to 1"):
            observer.observe(state, seat)
    with pytest.raises(ValueError, match="float32"):
        Tracker(np.zeros(observer.size, dtype=np.float64), 1)
    with pytest.raises(ValueError, match="float32"):
        Tracker(np.zeros((2, observer.size), dtype=np.float32)[:, 0], 1)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_batch_row_is_a_buffer(game_id: str) -> None:
    """An observer writes into a row of a batch (what the vectorised environment does) as into its own
    buffer, and never outside the row."""
    game = cardtable.load(game_id)
    observer: Observer = observer_for(game)
    batch = np.full((3, observer.size), 7.0, dtype=np.float32)
    state = game.new(4, log=False)
    random_play(state, Rng(4), steps=20)
    observer.write(state, 0, batch[1])
    assert np.array_equal(batch[1], observer.observe(state, 0))
    assert (batch[0] == 7.0).all() and (batch[2] == 7.0).all()


@settings(max_examples=300, deadline=None)
@given(
    old=st.one_of(st.none(), st.lists(st.integers(0, 11), max_size=9, unique=True)),
    new=st.lists(st.integers(0, 11), max_size=9, unique=True),
    grow=st.booleans(),
    drop=st.integers(0, 8),
)
def test_moving_a_zones_cells_sets_exactly_the_new_cards(
    old: list[int] | None, new: list[int], grow: bool, drop: int
) -> None:
    """``Observer.cards`` (every observer's zone writer, with its short cuts for a zone that grew at
    its end or lost one card) leaves exactly the cells of ``new`` set, from a buffer holding ``old``'s;
    the short cuts' cases are drawn on purpose (``new`` made from ``old``), and any other pair too."""
    if old is not None and grow:
        new = old + [c for c in new if c not in old]
    elif old and drop < len(old) and not new:
        new = old[:drop] + old[drop + 1 :]
    column = Observer.column(1, 2, 12)
    out = np.zeros(30, dtype=np.float32)
    for c in old or ():
        out[column[c]] = 1.0
    Observer.cards(out.data, column, old, new)
    expected = np.zeros(30, dtype=np.float32)
    for c in new:
        expected[column[c]] = 1.0
    assert np.array_equal(out, expected)
