"""The action codec (index <-> action, masks) and the rewards every adapter shares."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardtable.engine.errors import MalformedAction
from cardtable.engine.game import Result, ranks_from_keys
from cardtable.engine.rng import Rng
from cardtable.rl.rewards import rewards
from cardtable.rl.spaces import ActionCodec
from tests.rl.helpers import CASES, load, random_play


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_codec_is_the_game_action_space(game_id: str, options: dict[str, Any]) -> None:
    game = load(game_id, options)
    codec = ActionCodec(game)
    assert codec.size == len(game.actions)
    for action in game.actions:
        assert codec.action(action.index) is action
        assert codec.index(action.text) == action.index
        assert codec.index(action) == action.index
    for bad in (3, None, 2.5, b"done"):
        with pytest.raises(MalformedAction, match="an action is an Action of this game or its text"):
            codec.index(bad)


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_mask_is_exactly_the_legal_actions_of_the_seat_to_decide(game_id: str, options: dict[str, Any]) -> None:
    game = load(game_id, options)
    codec = ActionCodec(game)
    state = game.new(5, log=False)

    def check(s: Any) -> None:
        legal = {a.index for a in s.legal_actions()}
        for seat in range(game.players):
            mask = codec.mask(s, seat)
            assert mask.dtype == np.int8 and mask.shape == (codec.size,)
            expected = legal if seat == s.current_player else set()
            assert set(np.flatnonzero(mask).tolist()) == expected
        assert codec.legal_indices(s) == sorted(legal)

    random_play(state, Rng(1), steps=60, each=check)


def test_bad_indices_are_refused_by_name() -> None:
    codec = ActionCodec(load("mephisto", {"players": 2}))
    assert codec.action(np.int64(0)) is codec.items[0]
    for bad, words in [
        (-1, "out of range"),
        (codec.size, "out of range"),
        (True, "integer"),
        (1.0, "integer"),
        ("done", "integer"),
        (None, "integer"),
    ]:
        with pytest.raises(MalformedAction, match=words):
            codec.action(bad)


def _result(winners: tuple[int, ...], n: int, teams: Any = None, draw: bool = False) -> Result:
    keys = [(1.0 if s in winners else 0.0,) for s in range(n)]
    return Result(tuple(k[0] for k in keys), ranks_from_keys(keys), winners, "test", 1, draw=draw, teams=teams)


def test_rewards_two_players_zero_sum() -> None:
    assert rewards(_result((1,), 2), 2) == [-1.0, 1.0]
    assert rewards(_result((), 2), 2) == [0.0, 0.0]  # nobody won (a limit stop)
    drawn = Result((1.0, 1.0), (1, 1), (), "tie", 3, draw=True)
    assert rewards(drawn, 2) == [0.0, 0.0]


def test_rewards_free_for_all_and_shared_wins() -> None:
    assert rewards(_result((2,), 4), 4) == pytest.approx([-1 / 3, -1 / 3, 1.0, -1 / 3])
    # two winners who are not a team share the win
    assert rewards(_result((0, 2), 3), 3) == pytest.approx([0.25, -0.5, 0.25])


def test_team_mates_share_their_reward() -> None:
    teams = ((0, 2), (1, 3))
    assert rewards(_result((1, 3), 4, teams), 4) == [-1.0, 1.0, -1.0, 1.0]


def test_solitaire_reward_is_in_unit_interval() -> None:
    won = Result((5.0,), (1,), (0,), "deck-exhausted", 9)
    lost = Result((-2.0,), (1,), (), "deck-exhausted", 9)
    assert 0.5 < rewards(won, 1)[0] <= 1.0
    assert 0.0 <= rewards(lost, 1)[0] < 0.5


@given(
    n=st.integers(min_value=2, max_value=8),
    data=st.data(),
)
def test_rewards_are_zero_sum_and_bounded(n: int, data: st.DataObject) -> None:
    winners = tuple(sorted(data.draw(st.sets(st.integers(0, n - 1), max_size=n))))
    values = rewards(_result(winners, n), n)
    assert sum(values) == pytest.approx(0.0, abs=1e-9)
    assert all(-1.0 <= v <= 1.0 for v in values)
    if winners and len(winners) < n:
        assert min(values[s] for s in winners) > max(values[s] for s in range(n) if s not in winners)
