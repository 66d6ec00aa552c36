"""Episodes that always end: the environments' default limits on decisions.

Every cardtable game ends by its own rules: Mephisto when the deck has run out (each turn draws),
Doctor Strange, Army of Darkness and Mr. Card Game at the latest at their ``turn-limit`` option, and
no turn of any game can go on forever (every decision spends something a turn has finitely many of:
a card from a hand, a once-a-turn use, a character's attack, meat or mojo; Mr. Card Game's free
equipment changes may never return to an arrangement already held under the default
``equipment-repeats=refused``, see docs/rules/mr-card-game.md; the legacy ``allowed``, kept for old
records, lets a turn cycle, and then only the safety limits below end it).
``docs/rl.md`` gives the longest turns and games seen in random play.

The environments add two safety limits of their own, so no training run can hang even on a plug-in
game or a rule bug: a game is stopped (a *truncation*, with the rewards of an unfinished game) after
``max_steps`` decisions in all, or after ``max_turn_steps`` decisions within one turn (the state's
``turn`` counter not moving). Both are on by default, far above anything the games reach:
:data:`MAX_STEPS` and :data:`MAX_TURN_STEPS`. ``None`` turns a limit off.
"""

from __future__ import annotations

from typing import Final

MAX_STEPS: Final = 50_000
"""Decisions (every seat's) after which an environment stops a game by default. The longest random
game seen in any configuration took under 10,000 (Army of Darkness with 8 players)."""

MAX_TURN_STEPS: Final = 1_000
"""Decisions within one turn after which an environment stops a game by default. The longest turn seen
in random play took under 100 decisions (Mr. Card Game with 5 players)."""


TURN_BOUNDS: Final = {"mephisto": 100, "doctor-strange": 150, "army-of-darkness": 40, "mr-card-game": 300}
"""For each built-in game, a bound on the decisions of one turn (every seat's, as the state's ``turn``
counter stands still) that random play keeps to: about four times the longest turn seen in 200
random games of every configuration (docs/rl.md has the table). ``tests/rl/test_limits.py`` checks
it on random games of every configuration; :data:`MAX_TURN_STEPS` is ten times more, for any game."""


def check_limit(name: str, value: int | None) -> int:
    """The limit as a number of decisions (no limit: a number never reached); raises ValueError for
    anything but None or a positive integer."""
    if value is None:
        return 1 << 62
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a positive integer or None (no limit), got {value!r}")
    return value
