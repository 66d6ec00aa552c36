"""Per-game heuristic agents: module ``cardtable.agents.heuristics.<game package>`` defines ``Heuristic``.

This package is the only place where agents know a particular game.
"""

from __future__ import annotations

import importlib

from cardtable.agents.base import Agent
from cardtable.engine.errors import OptionError


def heuristic_class(game_id: str) -> type[Agent]:
    """The heuristic agent class for ``game_id``."""
    module_name = f"cardtable.agents.heuristics.{game_id.replace('-', '_')}"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError:
        raise OptionError(f"there is no heuristic agent for {game_id!r} yet") from None
    cls: type[Agent] = module.Heuristic
    return cls
