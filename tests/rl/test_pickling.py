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


@pytest.mark.parametrize("game_id", ["mephisto", "doctor-strange", "army-of-darkness", "mr-card-game"])
def test_the_environments_core_pickles_piece_by_piece(game_id: str) -> None:
    """Each object of an environment's core (compiled classes in the compiled build, which unpickle
    through their ``__init__`` unless they say otherwise) pickles on its own: the observer, a seat's
    buffer, the codec, the episode, the table and its opponents; a table's copy holds the same buffers
    and plays on identically."""
    import numpy as np

    import cardtable.rl

    env = cardtable.rl.gymnasium_env(game_id, opponents="random")
    obs, _ = env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(6):
        obs, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert not (terminated or truncated)
    table = env.table
    for part in (table.observer, table.tracker, table.codec, table.live, *table.opponents.values()):
        twin = pickle.loads(pickle.dumps(part))
        assert type(twin) is type(part)
    tracker = pickle.loads(pickle.dumps(table.tracker))
    assert np.array_equal(tracker.vector, table.tracker.vector) and tracker.seat == table.tracker.seat
    episode = pickle.loads(pickle.dumps(table.live))
    assert episode.state.fingerprint() == table.live.state.fingerprint()
    assert (episode.steps, episode.turn_steps, episode.stopped) == (table.live.steps, table.live.turn_steps, None)
    assert episode.legal_indices() == table.live.legal_indices()
    for twin in (pickle.loads(pickle.dumps(table)), copy.deepcopy(table)):
        assert np.array_equal(twin.observation, table.observation) and np.array_equal(twin.mask, table.mask)
        assert twin.observation is not table.observation and twin.seat == table.seat
        original = copy.deepcopy(table)  # played on instead of the environment's own table
        for _ in range(20):
            if original.over:
                break
            action = int(rng.choice(original.legal_indices()))
            assert twin.step(action)[:3] == original.step(action)[:3]
            assert np.array_equal(twin.observation, original.observation)
            assert np.array_equal(twin.mask, original.mask)
