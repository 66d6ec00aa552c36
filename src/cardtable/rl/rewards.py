"""Rewards from a finished game's :class:`~cardtable.engine.game.Result`, the same for every adapter.

With two or more seats the reward is zero-sum and lies in [-1, 1]. The seats are grouped into *sides*:
the teams of ``result.teams`` (team-mates share their reward), or one side per seat. Each side's share
of the win is the engine's :func:`~cardtable.agents.ismcts.win_shares` (a sole winner 1, winners who
are not one team share 1, a draw shares 1 among the top-ranked, a game nobody won gives 0 to all).
With ``m`` sides and shares ``w``, a side's reward is ``(m·w_side - Σw) / (m - 1)``: the winner of a
two-sided game gets +1 and the loser -1; in a four-seat free-for-all the winner gets +1 and each other
seat -1/3; a game nobody won (a limit stop) gives 0 to everyone.

Solitaire (one seat) has no opponent to be zero-sum against: the reward is the engine's own solitaire
reward (:func:`~cardtable.agents.ismcts.seat_rewards`: half for winning, half for the score, squashed
into 0..1).

A seat that sends an illegal action under ``illegal="lose"`` gets :data:`ILLEGAL_REWARD` and the
others 0 (PettingZoo's convention for illegal moves in classic games).
"""

from __future__ import annotations

from cardtable.agents.ismcts import seat_rewards, win_shares
from cardtable.engine.game import Result

ILLEGAL_REWARD = -1.0


def sides(result: Result, players: int) -> list[tuple[int, ...]]:
    """The sides of a game: its teams, plus one side for every seat in no team."""
    teams = [tuple(t) for t in result.teams or ()]
    seated = {s for t in teams for s in t}
    return teams + [(s,) for s in range(players) if s not in seated]


def rewards(result: Result, players: int) -> list[float]:
    """Each seat's reward for a finished game (see the module docstring)."""
    if players == 1:
        return seat_rewards(result, 1)
    shares = win_shares(result, players)
    groups = sides(result, players)
    m = len(groups)
    if m < 2:
        # Every seat on one team: nobody to be zero-sum against (no game has this; be safe).
        return [0.0] * players
    side_share = [max(shares[s] for s in group) for group in groups]
    total = sum(side_share)
    out = [0.0] * players
    for group, share in zip(groups, side_share, strict=True):
        value = (m * share - total) / (m - 1)
        for seat in group:
            out[seat] = value
    return out


def reward_bounds(players: int) -> tuple[float, float]:
    """Bounds on the reward of a game played to its end (no illegal action): [-1, 1], or [0, 1] in
    solitaire."""
    return (0.0, 1.0) if players == 1 else (-1.0, 1.0)
