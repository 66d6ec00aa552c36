"""The RL observers are compiled in the compiled build and write exactly what the pure ones write.

The compiled build compiles ``cardtable/rl/observe`` with the engine (``build_backend/
compiled_modules.py``). Run against it (CI's compiled stage), this checks that the observers really
are compiled, then plays random games of every configuration of every game in this process and in a
subprocess running the pure source tree, every seat observed (through a kept buffer, incrementally,
as the environments observe) at every decision, and the two streams of vectors must be the same bit
for bit; in this process each vector must also equal the reference, the encoding of the seat's view
(so the compiled observers keep the contract the pure suite proves of the pure ones). In the pure
suite there is no second build to compare with, so the test says so and skips.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from pathlib import Path

import numpy as np
import pytest

import cardtable
from cardtable.engine.rng import Rng
from cardtable.testing.conformance import configurations
from tests.compiled.pure_build import compiled_only, pure_result

GAMES = ("mephisto", "doctor-strange", "army-of-darkness", "mr-card-game")
SEEDS = 3
MAX_DECISIONS = 400


def digests(game_id: str, reference: bool = False) -> dict[str, str]:
    """Per configuration, the SHA-256 of every seat's observation at every decision of ``SEEDS``
    random games (at most ``MAX_DECISIONS`` each); with ``reference``, each vector is also checked
    against the encoding of the seat's view."""
    pytest.importorskip("numpy")
    from cardtable.rl.encode import encoder_for
    from cardtable.rl.observe import observer_for

    out: dict[str, str] = {}
    for options in configurations(game_id):
        game = cardtable.load(game_id, **options)
        encoder = encoder_for(game)
        observer = observer_for(game, encoder, observe="state")
        digest = hashlib.sha256()
        for seed in range(SEEDS):
            trackers = [observer.tracker() for _ in range(game.players)]
            state = game.new(seed, log=False)
            rng = Rng(seed)
            for _ in range(MAX_DECISIONS):
                for seat in range(game.players):
                    vector = observer.update(state, seat, trackers[seat])
                    digest.update(vector.tobytes())
                    if reference:
                        expected = encoder.encode(state.view(seat))
                        assert np.array_equal(vector, expected), (game_id, options, seed, seat, state.history)
                if state.is_over:
                    break
                legal = state.legal_actions()
                state.apply(legal[rng.below(len(legal))])
        out[json.dumps(options, sort_keys=True)] = digest.hexdigest()
    return out


@compiled_only
@pytest.mark.parametrize("game_id", GAMES)
def test_compiled_observers_write_what_the_pure_ones_write(game_id: str, tmp_path: Path) -> None:
    module = importlib.import_module("cardtable.rl.observe." + game_id.replace("-", "_"))
    base = importlib.import_module("cardtable.rl.observe.base")
    for compiled in (module, base):
        assert not str(compiled.__file__).endswith(".py"), f"{compiled.__name__} is not compiled"
    pure = pure_result("tests.compiled.test_observers_compiled", "digests", game_id, tmp_path)
    compiled_digests = digests(game_id, reference=True)
    assert compiled_digests.keys() == pure.keys() and compiled_digests
    different = [config for config in pure if pure[config] != compiled_digests[config]]
    assert not different, f"the builds' observations differ in {game_id} {different}"


def test_the_observer_digest_is_a_function_of_the_observations() -> None:
    """In either build: the digest is reproducible and tells two games apart (so the comparison above
    can fail)."""
    first = digests("army-of-darkness")
    assert first == digests("army-of-darkness")
    assert len(set(first.values())) == len(first)  # every configuration observed differently
