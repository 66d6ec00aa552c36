"""``strong``: the search tuned for each game and player count.

``strong`` is :class:`~cardtable.agents.ismcts.Ismcts` with the settings that won most against the
game's heuristic on the ladder (``benchmarks/ladder.py``; docs/agents.md gives every measurement): a
fixed iteration budget by default, so a game played by ``strong`` is reproducible from its seeds, and
any search option of the spec (``strong:ms=1000``, ``strong:workers=4``) overrides the tuned value.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from cardtable.agents.base import Agent
from cardtable.engine.game import Game

BASE: Final[dict[str, str]] = {"iterations": "2000", "prior": "always"}
"""The settings of every game unless :data:`TUNED` says otherwise (spec option texts)."""

TUNED: Final[dict[str, dict[str, str]]] = {
    # 1,000 iterations with the heuristic's prior: 89% [74-95] against the heuristic over 35 games.
    "mephisto": {"iterations": "1000"},
    # 1,000 iterations: 57% [42-71] over 40 games, plain ISMCTS 45% [31-60]; the learned value did
    # not help (55% [40-69]).
    "doctor-strange": {"iterations": "1000"},
    # The heuristic asked only at nodes visited 8 times (it is slow here): 70% [55-82] over 40 games
    # at a third of the time per iteration; with the learned value at the cut (2 players only: the
    # value is trained for 2), 78% [62-88].
    "army-of-darkness": {"iterations": "1000", "lazy": "8"},
    "army-of-darkness/2": {"eval": "learned"},
    # The tree kept from the last decision: 75% [60-86] over 40 games, plain ISMCTS 56% [41-70]; over
    # 200 games 60% [53-67], and 65% [58-71] since the evaluation plays a March as the heuristic would.
    "mr-card-game": {"iterations": "1000", "reuse": "yes"},
    # The leaf scored at once, no random moves before the cut: 74.5% [68.0-80.0] over the 200 games,
    # +9.75 points [+1.1, +18.4] paired with the above.
    "mr-card-game/2": {"depth": "0"},
    # The same at 3 players: 54.2% [50.4-58.0] against two heuristics over 648 games (1.63x the even
    # share), +5.8 points [+1.0, +10.5] paired with the 2-move rollouts (48.5%), by a rule fixed before
    # the last 150 games (benchmarks/results/2026-11-29-mcg3-700/). 4-5 players unmeasured: they keep
    # the 2-move rollouts, already above 1.5x.
    "mr-card-game/3": {"depth": "0"},
}
"""Per game id, the settings that differ from :data:`BASE` (spec option texts); a key
``"<game>/<players>"`` applies to that player count only, after the game's own. The figures are the
tuning runs (``benchmarks/ladder.py pair``, paired deals, seats rotated, 95% Wilson intervals);
docs/agents.md has them all, and the README the ladder of the settings kept."""


def strong_options(game: Game) -> dict[str, str]:
    """The tuned spec options of ``strong`` for ``game`` (its id and player count)."""
    out = dict(BASE)
    out.update(TUNED.get(game.id, {}))
    out.update(TUNED.get(f"{game.id}/{game.players}", {}))
    return out


def make_strong(game: Game, seed: int, opts: Mapping[str, Any], name: str = "strong") -> Agent:
    """The strong agent for ``game``: its tuned options, then ``opts`` over them (validated alike).

    Where the spec sets a time budget (``ms``) and not ``iterations``, the search thinks for that time
    (the tuned iteration budget no longer applies)."""
    from cardtable.agents.ismcts import Ismcts
    from cardtable.agents.registry import search_settings

    options: dict[str, Any] = strong_options(game)
    if "ms" in opts and "iterations" not in opts:
        options.pop("iterations", None)
    options.update(opts)
    return Ismcts(seed, **search_settings(name, game, options))
