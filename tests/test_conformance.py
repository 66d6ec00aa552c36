"""The protocol's promises, checked by the conformance harness on every game and every configuration.

Cases are collected from ``cardtable.available()`` at collection time, so a game that lands in the
registry (built in or plug-in) is checked with each of its ``Game.CONFIGURATIONS`` without touching
this file, and with each option that has a legacy value at that value (old records replay under it).
The toy game of the engine tests is always included. Hypothesis chooses the seeds.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardtable
from cardtable.engine.options import OptionValue
from cardtable.games import builtin
from cardtable.testing.conformance import check_game, config_label, configurations, legacy_configurations
from tests.engine.toy import Toy

cardtable.register("toy", Toy)

SEEDS = st.integers(min_value=0, max_value=2**31 - 1)


def _cases() -> list[Any]:
    """One pytest param per (game, configuration); a game whose configurations cannot be read still
    gets a case, which fails with the error instead of vanishing from the run."""
    out: list[Any] = []
    ids = list(dict.fromkeys([*cardtable.available(), "toy"]))
    for game_id in ids:
        try:
            configs: list[dict[str, OptionValue]] = [*configurations(game_id), *legacy_configurations(game_id)]
        except Exception as exc:
            out.append(pytest.param(game_id, None, exc, id=f"{game_id}-unloadable"))
            continue
        for options in configs:
            out.append(pytest.param(game_id, options, None, id=f"{game_id}-{config_label(options)}"))
    return out


CASES = _cases()


@pytest.mark.parametrize(("game_id", "options", "error"), CASES)
def test_configuration_loads(game_id: str, options: dict[str, OptionValue] | None, error: Exception | None) -> None:
    """Every configuration a game lists is a valid option set (the harness and the benchmark run it)."""
    if error is not None:
        raise error
    assert options is not None
    game = cardtable.load(game_id, **options)
    assert game.id == game_id
    for key, value in options.items():
        assert game.options[key.replace("_", "-")] == value


@pytest.mark.parametrize(("game_id", "options", "error"), CASES)
@settings(max_examples=2)
@given(seed=SEEDS)
def test_conformance(game_id: str, options: dict[str, OptionValue] | None, error: Exception | None, seed: int) -> None:
    """One fully checked random playout per seed (see cardtable.testing.conformance for the list)."""
    if error is not None:
        raise error
    report = check_game(game_id, options, [seed])
    (playout,) = report.playouts
    assert playout.steps > 0


@given(seed=SEEDS)
def test_toy_conformance_many_seeds(seed: int) -> None:
    """The toy game is cheap: check it over many more seeds (it is the harness's reference game)."""
    report = check_game("toy", {"players": 2}, [seed])
    (playout,) = report.playouts
    # The toy always ends by its rules (both hands empty), never by the harness's step cap.
    assert playout.over and playout.reason == "hands-empty"
    assert all(playout.hidden_changed)


@pytest.mark.parametrize("game_id", builtin())
def test_builtin_game_declares_its_view(game_id: str) -> None:
    """Every game that ships is held to "views are for people": it lists its view's top-level keys
    (the harness refuses any other) and has a prompt among them, so no game is spared the check."""
    game = cardtable.load(game_id)
    assert game.VIEW_KEYS is not None, f"{game_id} does not declare VIEW_KEYS"
    assert "prompt" in game.VIEW_KEYS
