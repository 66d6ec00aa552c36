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

TUNED: Final[dict[str, dict[str, str]]] = {}
"""Per game id, the settings that differ from :data:`BASE` (spec option texts); a key
``"<game>/<players>"`` applies to that player count only, after the game's own."""


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
