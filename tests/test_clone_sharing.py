"""Clones share per-card tables copy-on-write (Mephisto's ``dur``/``host``, Doctor Strange's
``att_on``) and, in every game, the action history: a change in one state must never show in the
other, whichever of the two changes first."""

from __future__ import annotations

import sys

import pytest

import cardtable
from cardtable.engine import Rng, State
from tests.support.walk import apply_random


def _play(state: State, steps: int, seed: int) -> None:
    pick = Rng(seed)
    for _ in range(steps):
        if state.is_over:
            return
        apply_random(state, pick)


@pytest.mark.parametrize("game_id", ["mephisto", "doctor-strange"])
@pytest.mark.parametrize("seed", range(12))
def test_a_clone_and_its_original_play_on_independently(game_id: str, seed: int) -> None:
    game = cardtable.load(game_id, players=2)
    state = game.new(seed, log=False)
    _play(state, 20 + seed, seed)
    for which in ("clone", "original"):
        original = state.clone()
        twin = original.clone()
        before = original.fingerprint()
        moving, still = (twin, original) if which == "clone" else (original, twin)
        _play(moving, 150, seed + 100)  # through fights, damage, repairs, attachments and breaks
        assert still.fingerprint() == before
        # The one that stood still plays the same game as a fresh copy made from the history.
        replayed = game.new(seed, log=False)
        for index in still.history:
            replayed.apply(game.actions.items[index])
        assert replayed.fingerprint() == still.fingerprint()
        _play(still, 150, seed + 100)
        assert still.fingerprint() == moving.fingerprint()  # same actions from the same position


@pytest.mark.parametrize("game_id", cardtable.available())
@pytest.mark.parametrize("seed", range(4))
def test_a_shared_history_is_copied_by_whichever_state_grows_first(game_id: str, seed: int) -> None:
    game = cardtable.load(game_id, players=2)
    state = game.new(seed, log=False)
    _play(state, 30, seed)
    before = list(state.history)
    twin = state.clone()
    assert twin.history == before
    # apply on the original, then on the clone: neither's history shows the other's actions
    _play(state, 5, seed + 1)
    assert twin.history == before
    grown = list(state.history)
    _play(twin, 7, seed + 2)
    assert state.history == grown
    assert twin.history[: len(before)] == before
    # a search extends a clone's history through add_to_history (it calls _do itself, as ISMCTS does)
    third = state.clone()
    if not third.is_over:
        action = third.legal_actions()[0]
        third._legal = None
        third.add_to_history(action.index)
        third._do(action)
        assert third.history == [*grown, action.index]
    assert state.history == grown
    # a clone of a clone, and a determinization, share nothing that the others then see
    fourth = twin.clone()
    _play(fourth, 3, seed + 3)
    assert twin.history[: len(before)] == before and len(fourth.history) >= len(twin.history)
    det = state.determinize(0, Rng(seed))
    _play(det, 4, seed + 4)
    assert state.history == grown


def test_an_ismcts_search_leaves_the_histories_of_the_state_and_its_clones_alone() -> None:
    from cardtable.agents.base import Observation
    from cardtable.agents.ismcts import Ismcts

    game = cardtable.load("mephisto", players=2)
    state = game.new(3, log=False)
    _play(state, 25, 3)
    twin = state.clone()
    before = list(state.history)
    Ismcts(1, iterations=60).choose(Observation(state, state.current_player or 0))
    assert state.history == before and twin.history == before


@pytest.mark.parametrize("game_id", ["mephisto", "doctor-strange", "army-of-darkness", "mr-card-game"])
@pytest.mark.parametrize("seed", range(3))
def test_the_compiled_builds_blank_constructor_clones_like_new(
    game_id: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The compiled build starts a clone from the state class's own constructor told to set nothing
    # (``_blank=True``, see ``_new_blank``); the pure build uses ``cls.__new__``. Take the compiled
    # path here, in whichever build runs, and check the clone is a full, independent copy.
    game = cardtable.load(game_id, players=2)
    state = game.new(seed, log=False)
    _play(state, 25 + seed, seed)
    module = sys.modules[type(state).__module__]
    monkeypatch.setattr(module, "COMPILED", True)
    blank = state._new_blank()
    assert type(blank) is type(state)
    twin = state.clone()
    assert type(twin) is type(state)
    assert twin.fingerprint() == state.fingerprint()
    assert twin.view(0) == state.view(0) and twin.legal_actions() == state.legal_actions()
    before = state.fingerprint()
    _play(twin, 60, seed + 7)
    assert state.fingerprint() == before


DS_TUPLES = ("side", "owner", "incap", "ctl", "cap", "mpow", "loc", "peek", "streak", "attacks", "fight", "fpa", "fpd")


@pytest.mark.parametrize("seed", range(6))
def test_doctor_strange_clones_share_only_immutable_tables(seed: int) -> None:
    # A Doctor Strange clone shares its per-slot tables and fight record with its original: they are
    # tuples, which the rules replace whole, so a change made in place by a user fails loudly instead
    # of showing in the other state. Every list field is the state's own (att_on is the guarded
    # copy-on-write exception, tested above).
    from cardtable.games.doctor_strange.base import DSBase

    state = cardtable.load("doctor-strange").new(seed, log=False)
    _play(state, 60 + 10 * seed, seed)
    assert isinstance(state, DSBase)
    twin = state.clone()
    assert isinstance(twin, DSBase)
    for name in DS_TUPLES:
        value = getattr(state, name)
        assert type(value) is tuple and getattr(twin, name) is value, name
        if value:
            with pytest.raises(TypeError):
                value[0] = 5
    pairs = [(getattr(state, n), getattr(twin, n)) for n in ("stack", "pool", "discard", "killed", "exiled", "chars")]
    pairs += [(state.hands, twin.hands), *zip(state.hands, twin.hands, strict=True)]
    assert twin.changes is None  # a change list is its observer's, never a clone's (DSBase.changes)
    for mine, theirs in pairs:
        assert type(mine) is list and mine == theirs and mine is not theirs
    # The rules replace a table in the state that changes, never in its twin.
    before = state.fingerprint()
    tables = {name: getattr(state, name) for name in DS_TUPLES}
    _play(twin, 200, seed + 50)
    assert state.fingerprint() == before
    assert all(getattr(state, name) is table for name, table in tables.items())
