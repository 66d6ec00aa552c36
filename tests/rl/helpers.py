"""Shared pieces of the RL adapter tests: the cases (every game and configuration, and the engine's
toy game, which has no encoder of its own and so exercises the generic path a new game takes), random
play, and the hidden-information check."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import cardtable
from cardtable.engine.game import Game, State
from cardtable.engine.options import OptionValue
from cardtable.engine.rng import Rng
from cardtable.rl.encode import Encoder
from cardtable.testing.conformance import config_label, configurations, legacy_configurations
from tests.engine.toy import Toy

cardtable.register("toy", Toy)


def game_ids() -> list[str]:
    return list(dict.fromkeys([*cardtable.available(), "toy"]))


def cases() -> list[Any]:
    """One pytest param per (game id, options): every configuration of every available game, and the
    options at their legacy values (``legacy_configurations``: old records replay under those
    readings, and an environment can be given one)."""
    return [
        pytest.param(game_id, options, id=f"{game_id}-{config_label(options)}")
        for game_id in game_ids()
        for options in [*configurations(game_id), *legacy_configurations(game_id)]
    ]


CASES = cases()
FIRST_CASES = [
    pytest.param(game_id, configurations(game_id)[0], id=f"{game_id}-{config_label(configurations(game_id)[0])}")
    for game_id in game_ids()
]
"""One configuration per game (for checks of the generic encoder on games that have their own)."""


def random_play(state: State, rng: Rng, steps: int = -1, each: Callable[[State], None] | None = None) -> int:
    """Play uniformly random legal actions (until the end, or ``steps`` of them); returns how many."""
    n = 0
    while not state.is_over and n != steps:
        if each is not None:
            each(state)
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
        n += 1
    return n


Observe = Callable[[State, int], np.ndarray]


def encoded(encoder: Encoder) -> Observe:
    """What an adapter observes for a seat: the encoding of the seat's view."""
    return lambda state, seat: encoder.encode(state.view(seat))


def check_blind_to_hidden(observe: Observe, state: State, seat: int, rng: Rng, samples: int = 2) -> bool:
    """The seat's observation must not change when only what it cannot see changes: resample the
    hidden part (``determinize``) and compare the observations. Returns whether any resample actually
    changed the full state (so a caller can tell the check was not vacuous)."""
    before = state.snapshot()
    mine = observe(state, seat)
    changed = False
    for _ in range(samples):
        other = state.determinize(seat, rng.below(2**31))
        theirs = observe(other, seat)
        if not np.array_equal(mine, theirs):
            diff = np.flatnonzero(mine != theirs)
            raise AssertionError(
                f"{state.game.id}: seat {seat}'s observation changed when only hidden information did "
                f"(positions {diff[:8].tolist()}, after {len(state.history)} actions)"
            )
        changed = changed or _cards(other.snapshot()) != _cards(before)
    assert state.snapshot() == before, "the check must not change the state"
    return changed


def _cards(snapshot: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in snapshot.items() if k not in ("rng", "seed")}


def load(game_id: str, options: dict[str, OptionValue]) -> Game:
    return cardtable.load(game_id, **options)
