"""Learned position values: features per seat that never change the state, shipped models that match
their features and give chances that add up to one, and a training script that is reproducible."""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from importlib import resources
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardtable
from cardtable.agents import Observation, values
from cardtable.agents.hooks import heuristic_module
from cardtable.agents.values import FORMAT, learned_value
from cardtable.engine import Rng, State
from tests.agents.games import search_agent

WITH_FEATURES = [
    g
    for g in ("mephisto", "doctor-strange", "army-of-darkness", "mr-card-game")
    if hasattr(heuristic_module(g), "value_features")
]
SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "train_values.py"


def _walk(game_id: str, players: int, seed: int, steps: int) -> State:
    state = cardtable.load(game_id, players=players).new(seed, log=False)
    r = Rng(seed * 3 + 1)
    for _ in range(steps):
        legal = state.legal_actions()
        nxt = state.clone()
        nxt.apply(legal[r.below(len(legal))])
        if nxt.is_over:
            break
        state = nxt
    return state


@pytest.mark.parametrize("game_id", WITH_FEATURES)
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 150), players=st.sampled_from([2, 3, 4]))
def test_features_describe_every_seat_and_change_nothing(game_id: str, seed: int, steps: int, players: int) -> None:
    try:
        state = _walk(game_id, players, seed, steps)
    except cardtable.engine.OptionError:
        return  # that game does not take that many players
    module = heuristic_module(game_id)
    assert module is not None
    before = state.snapshot()
    rows = module.value_features(state)
    assert state.snapshot() == before
    assert len(rows) == state.game.players
    for row in rows:
        assert len(row) == len(module.VALUE_FEATURES)
        assert all(isinstance(x, float) and math.isfinite(x) for x in row)


def _shipped() -> list[str]:
    folder = resources.files("cardtable.agents") / "data"
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".json")) if folder.is_dir() else []


@pytest.mark.parametrize("name", _shipped())
def test_every_shipped_model_matches_its_features_and_says_how_it_was_made(name: str) -> None:
    data = json.loads((resources.files("cardtable.agents") / "data" / name).read_text())
    assert data["format"] == FORMAT
    module = heuristic_module(data["game"])
    assert module is not None
    assert tuple(data["features"]) == tuple(module.VALUE_FEATURES)
    assert len(data["weights"]) == len(data["features"])
    trained = data["trained"]
    assert {"script", "games", "seed"} <= set(trained)
    # It predicts held-out games better than an even chance (and says so).
    assert trained["held_out_log_loss"] < trained["even_chance_log_loss"]
    game = cardtable.load(data["game"], players=data["players"])
    value = learned_value(game)
    assert value is not None
    for seed in range(5):
        chances = value(_walk(data["game"], data["players"], seed, 40))
        assert len(chances) == game.players
        assert all(0.0 <= c <= 1.0 for c in chances) and math.isclose(sum(chances), 1.0)


def test_a_search_scores_with_the_learned_value_when_asked() -> None:
    game = cardtable.load("doctor-strange")
    if learned_value(game) is None:
        pytest.skip("no learned value shipped for doctor-strange")
    state = _walk("doctor-strange", 2, 3, 10)
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    seat = state.current_player
    assert seat is not None
    hand = search_agent("ismcts:iterations=60", game, 1)
    learned = search_agent("ismcts:iterations=60,eval=learned", game, 1)
    hand.choose(Observation(state, seat))
    learned.choose(Observation(state, seat))
    assert hand.last_stats != learned.last_stats


def test_an_explicit_depth_keeps_the_learned_value_at_its_cut() -> None:
    """``eval=learned`` with ``depth=N`` scores the cut with the learned value, not the hand-made one
    (it used to fall back silently to the hand-made evaluation whenever the depth was given)."""
    game = cardtable.load("army-of-darkness", players=2)
    value = learned_value(game)
    if value is None:
        pytest.skip("no learned value shipped for army-of-darkness at 2 players")
    for spec, depth in (("strong:depth=0", 0), ("strong:depth=3", 3), ("ismcts:depth=2,eval=learned", 2)):
        agent = search_agent(spec, game, 1)
        found = agent.settings(game)
        assert (found.depth, found.evaluate) == (depth, value), spec
    hand = search_agent("strong:depth=2,eval=hand", game, 1).settings(game)
    assert hand.evaluate is not value and hand.depth == 2


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_values", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_training_is_reproducible_from_its_seed(tmp_path: Path) -> None:
    pytest.importorskip("numpy")
    script = _script()
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    for out in (a, b):
        assert script.main(["doctor-strange", "--games", "12", "--seed", "5", "--keep", "0.5", "--out", str(out)]) == 0
    first, second = json.loads(a.read_text()), json.loads(b.read_text())
    for data in (first, second):
        data["trained"].pop("seconds")
    assert first == second
    assert first["trained"]["games"] == 12 and first["trained"]["seed"] == 5


def test_an_explicit_depth_keeps_the_games_other_rollout_settings() -> None:
    """``depth=N`` changes the cut only: the game's ``rollout_stop``, exploration constant and
    normalisation still apply (an explicit depth used to drop them, so ``strong:depth=0`` searched
    inside Mr. Card Game's Marches with unnormalised means)."""
    from cardtable.agents.hooks import game_hooks

    game = cardtable.load("mr-card-game", players=2)
    hooks = game_hooks(game)
    assert hooks is not None and hooks.stop is not None and hooks.normalise
    default = search_agent("strong", game, 1).settings(game)
    for spec, depth in (("strong:depth=0", 0), ("ismcts:depth=5", 5)):
        found = search_agent(spec, game, 1).settings(game)
        assert found.depth == depth, spec
        assert found.stop is hooks.stop and found.normalise, spec
        assert found.evaluate is hooks.evaluate, spec
    assert search_agent("strong:depth=0", game, 1).settings(game).c == default.c


def test_a_model_whose_features_are_not_the_codes_is_refused_by_name() -> None:
    """A shipped file out of step with its heuristic's features must fail loudly, never leave the
    search quietly on the hand-made evaluation (``learned_value`` builds every model this way)."""
    game_id = WITH_FEATURES[0]
    module = heuristic_module(game_id)
    assert module is not None
    names = tuple(module.VALUE_FEATURES)
    data = values.read_data(game_id, 2)
    assert data is not None, f"precondition: {game_id} ships a 2-player model"
    name = values.data_name(game_id, 2)
    assert values.model_from(name, data, names, module.value_features).names == names
    stale = dict(data, features=[*data["features"][:-1], "a_feature_the_code_dropped"])
    with pytest.raises(ValueError, match="a_feature_the_code_dropped") as refused:
        values.model_from(name, stale, names, module.value_features)
    assert name in str(refused.value)
