"""What a finished game is worth to each seat: the rewards every search maximises and simulations count."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cardtable.engine.game import Result


def win_shares(result: Result, players: int) -> list[float]:
    """Each seat's share of the win: a sole winner 1; winners who are not one team share 1 equally;
    every member of a winning team gets the team's share; a draw without winners shares 1 among the
    top-ranked seats; a game nobody won (or a limit stop without winners) gives 0 to everyone."""
    out = [0.0] * players
    winners = result.winners
    if winners:
        teams = result.teams
        if teams:
            team_of = {seat: i for i, team in enumerate(teams) for seat in team}
            winning_teams = {team_of.get(seat, -1 - seat) for seat in winners}
            share = 1.0 / len(winning_teams)
        else:
            share = 1.0 / len(winners)
        for seat in winners:
            out[seat] = share
        return out
    if result.draw:
        top = [seat for seat, rank in enumerate(result.ranks) if rank == 1] or list(range(players))
        for seat in top:
            out[seat] = 1.0 / len(top)
    return out


def seat_rewards(result: Result, players: int) -> list[float]:
    """The reward the search maximises for every seat: its :func:`win_shares`, except in solitaire.

    Solitaire: a "win" may be the only outcome (a ranking says how well), so the score counts too,
    squashed monotonically into 0..1: half for winning, half for the score.
    """
    if players == 1:
        score = result.scores[0] if result.scores else 0.0
        return [0.5 * (0 in result.winners) + 0.25 + 0.25 * score / (1.0 + abs(score))]
    return win_shares(result, players)
