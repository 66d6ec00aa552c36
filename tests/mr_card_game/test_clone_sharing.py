"""``clone`` shares the lists of ``state.SHARED`` between a state and its clones (copy on write):
playing on a clone never changes the original, playing on the original never changes the clone,
in every configuration, including the rare moves that replace those lists (kills, training, the
map update and rebuilt locations, the March, ascension runs, class changes)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import cardtable
from cardtable.engine import Rng
from cardtable.games.mr_card_game.game import MrCardGame
from cardtable.games.mr_card_game.state import SHARED, McgState
from tests.support.walk import apply_random

CONFIGS = [dict(c) for c in MrCardGame.CONFIGURATIONS]


def _fields(s: McgState) -> str:
    """Every field of the state (game rules' and engine's), as text: equal texts, equal states."""
    own = {f: getattr(s, f) for f in McgState.__slots__}
    return repr((own, s.history, s.turn, s.current_player, s.is_over, s.rng.state))


def _views(s: McgState) -> str:
    return json.dumps([s.view(p) for p in range(s.game.players)], sort_keys=True)


def _play(s: McgState, rng: Rng, steps: int) -> None:
    for _ in range(steps):
        if s.is_over:
            return
        apply_random(s, rng)


def test_shared_fields_are_lists_of_the_state() -> None:
    s = cardtable.load("mr-card-game", players=3).new(1, log=False)
    assert isinstance(s, McgState)
    for f in SHARED:
        assert f in McgState.__slots__ and isinstance(getattr(s, f), list)
        assert getattr(s.clone(), f) is getattr(s, f)  # shared, not copied


@settings(max_examples=12)
@given(config=st.sampled_from(CONFIGS), seed=st.integers(0, 2**31))
def test_playing_on_a_clone_or_its_original_never_changes_the_other(config: dict[str, Any], seed: int) -> None:
    s = cardtable.load("mr-card-game", **config).new(seed, log=False)
    assert isinstance(s, McgState)
    rng = Rng(seed)
    checked = 0
    while not s.is_over and checked < 400:
        # A clone taken here and played to the end (or far on) leaves the original as it was ...
        before = _fields(s)
        views = _views(s) if checked % 50 == 0 else None
        c = s.clone()
        _play(c, Rng(seed + checked), 300)
        assert _fields(s) == before
        if views is not None:
            assert _views(s) == views
        # ... and the original, played on, leaves a clone taken here as it was.
        c = s.clone()
        kept = _fields(c)
        _play(s, rng, 1 + rng.below(12))
        assert _fields(c) == kept
        checked += 1
