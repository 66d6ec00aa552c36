"""Clones share per-card tables copy-on-write (Mephisto's ``dur``/``host``, Doctor Strange's
``att_on``): a change in one state must never show in the other, whichever of the two changes first."""

from __future__ import annotations

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
