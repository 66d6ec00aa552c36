"""Games and states pickle and deep-copy (what environments, worker processes and checkpoints need), in
every game and configuration: a game as its class and options, a state with all its fields; the copy
is the same position and plays on identically."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pytest

from cardtable.engine.rng import Rng
from tests.rl.helpers import CASES, load, random_play


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_games_and_states_pickle_and_deep_copy(game_id: str, options: dict[str, Any]) -> None:
    game = load(game_id, options)
    assert copy.deepcopy(game) is game and copy.copy(game) is game  # a game never changes
    again = pickle.loads(pickle.dumps(game))
    assert type(again) is type(game) and dict(again.options) == dict(game.options)
    assert pickle.loads(pickle.dumps(game)) is again  # loaded once per process
    state = game.new(17)  # with its event log
    random_play(state, Rng(17), steps=40)
    state.legal_actions()  # a cached legal list is not pickled: it belongs to this process's game
    for twin in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state)):
        assert twin.snapshot() == state.snapshot() and twin.fingerprint() == state.fingerprint()
        assert [a.text for a in twin.legal_actions()] == [a.text for a in state.legal_actions()]
        for seat in range(game.players):
            assert twin.view(seat) == state.view(seat)
        for reader in [*range(game.players), None]:  # the event log, as each seat and a spectator read it
            assert twin.events(reader) == state.events(reader)
        a, b = state.clone(), twin
        random_play(a, Rng(3), steps=25)
        random_play(b, Rng(3), steps=25)
        assert a.fingerprint() == b.fingerprint()
    determinized = state.determinize(0, 5)
    assert pickle.loads(pickle.dumps(determinized)).snapshot() == determinized.snapshot()
