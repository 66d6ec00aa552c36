"""Shaped rewards: a learning signal for games whose random play never produces a winner.

Mr. Card Game is won by defeating the Naughty Sorceress in the March on the Tower, which random
players never do (they are eliminated in the March), so the true reward of a learner against random
opponents is 0 in every game at first, and nothing is learned. ``reward="shaped"`` adds a
*potential-based* shaping term (Ng, Harada and Russell, 1999) to the true win/loss reward: after
each of the learner's steps it gets ``scale * (phi(after) - phi(before))``, where ``phi`` is the
learner's progress towards the March, a number in ``[0, 1]`` worked out from its own public numbers
(:func:`mr_card_game_progress`). Over an episode these terms add up to
``scale * (phi(end) - phi(start))``, at most ``scale`` (default 0.5), so a win (+1) is always worth
more than any progress; the true reward comes at the end as usual, and ``info["true_reward"]`` and
``info["shaping"]`` keep the two apart. Because the final progress counts, this shaping does change
what is optimal (ending with more progress is better among equal results): it is a learning aid, and
evaluations report the true result.

Only the seat's public numbers enter ``phi``, never a hidden card: a reward is not an observation,
but a shaped reward that depended on hidden cards would leak them to the learner all the same.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from typing import Final

from cardtable.engine.game import State

REWARDS: Final = ("win", "shaped")
DEFAULT_SCALE: Final = 0.5

Potential = Callable[[State, int], float]


def mr_card_game_progress(state: State, seat: int) -> float:
    """How far ``seat`` has come towards defeating the Naughty Sorceress, in ``[0, 1]``:

    * 0.35 for its stat cards: the total value of every stat card it owns (hand, deck, discard and
      played: what the view's ``stat_total`` shows), 60 counting fully (a player starts with 12);
    * 0.35 for its kills, 10 counting fully (each kill drops a stat card and meat);
    * 0.2 for its best maneuver bonus (melee, spell, ranged or evasion, from items, skills and
      effects), 5 counting fully;
    * 0.1 for still being in the game (not eliminated in a March).
    """
    s = state
    skind = s.game.cards.skind  # type: ignore[attr-defined]
    stats = 0
    for pile in (s.hand[seat], s.deck[seat], s.disc[seat], s.played[seat]):  # type: ignore[attr-defined]
        for x in pile:
            stats += (skind[x] & 3) + 1
    mods = s.mods[seat]  # type: ignore[attr-defined]
    bonus = max(mods[0], mods[1], mods[2], mods[3])
    alive = 0.0 if s.out >> seat & 1 else 1.0  # type: ignore[attr-defined]
    return float(
        0.35 * min(1.0, stats / 60.0)
        + 0.35 * min(1.0, s.kills[seat] / 10.0)  # type: ignore[attr-defined]
        + 0.2 * min(1.0, max(0, bonus) / 5.0)
        + 0.1 * alive
    )


POTENTIALS: dict[str, Potential] = {"mr-card-game": mr_card_game_progress}
"""The games with a shaped reward, by id."""


def check_scale(value: object) -> float:
    """The shaping scale as a float; raises ValueError for anything but a finite real number."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        raise ValueError(f"shaping_scale must be a finite number, got {value!r}")
    return float(value)


def potential_for(game_id: str, reward: str) -> Potential | None:
    """The potential of ``reward="shaped"`` for ``game_id`` (None for ``reward="win"``); raises
    ValueError for an unknown reward or a game without a shaped reward."""
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {', '.join(REWARDS)}, got {reward!r}")
    if reward == "win":
        return None
    potential = POTENTIALS.get(game_id)
    if potential is None:
        raise ValueError(
            f"reward='shaped' is available for {', '.join(sorted(POTENTIALS))}, not {game_id!r}: its "
            "random games have winners, so the true reward already teaches"
        )
    return potential
