"""Views are built from per-game caches of card objects and words (issue 12's throughput work): a view
handed out must share nothing a caller could change with the caches or with another view. Here every
dict and list of a view is changed in place, and the next views of the same position must still be
what they were before (the caches are per loaded game, so a clone would share them: the reference
is the JSON text taken first)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardtable
from cardtable.engine.rng import Rng
from tests.rl.helpers import CASES


def _vandalise(value: Any) -> None:
    """Change every dict and list inside ``value`` in place (add a key or an item, change values)."""
    if isinstance(value, dict):
        for key in list(value):
            _vandalise(value[key])
            if isinstance(value[key], int | str) and not isinstance(value[key], bool):
                value[key] = "changed"
        value["vandalised"] = True
    elif isinstance(value, list):
        for item in value:
            _vandalise(item)
        value.append("vandalised")


@pytest.mark.parametrize(("game_id", "options"), CASES)
@given(seed=st.integers(0, 2**16), steps=st.integers(0, 150))
def test_changing_a_view_changes_no_later_view(game_id: str, options: dict[str, Any], seed: int, steps: int) -> None:
    game = cardtable.load(game_id, **options)
    state = game.new(seed, log=False)
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_over:
            break
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
    seats = [None, *range(game.players)]
    before = [json.dumps(state.view(seat), sort_keys=True) for seat in seats]
    for seat in seats:
        _vandalise(state.view(seat))
        _vandalise(state.view(seat))
    assert [json.dumps(state.view(seat), sort_keys=True) for seat in seats] == before
