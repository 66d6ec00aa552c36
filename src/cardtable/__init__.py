"""cardtable: plays tabletop card games by their complete printed rules.

>>> import cardtable
>>> game = cardtable.load("mephisto", players=2)
>>> state = game.new(seed=7)
>>> state.current_player in (0, 1)
True
"""

from __future__ import annotations

__version__ = "0.1.0"

from cardtable.engine import (
    Action,
    CardDataError,
    CardtableError,
    Game,
    IllegalAction,
    OptionError,
    ReplayDivergence,
    Result,
    Rng,
    State,
    Table,
)
from cardtable.engine.record import replay
from cardtable.games import available, load, register

__all__ = [
    "Action",
    "CardDataError",
    "CardtableError",
    "Game",
    "IllegalAction",
    "OptionError",
    "ReplayDivergence",
    "Result",
    "Rng",
    "State",
    "Table",
    "__version__",
    "available",
    "load",
    "register",
    "replay",
]
