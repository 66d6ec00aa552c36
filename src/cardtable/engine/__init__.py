"""The game-agnostic core: the Game/State protocol, actions, options, randomness, records, errors."""

from cardtable.engine.actions import Action, ActionSpace
from cardtable.engine.errors import (
    CardDataError,
    CardtableError,
    GameOver,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    OptionError,
    ReplayDivergence,
    UndoRefused,
)
from cardtable.engine.game import JSON, Event, Game, Result, State, fingerprint_of, ranks_from_keys
from cardtable.engine.options import Option, OptionValue
from cardtable.engine.rng import Rng, as_rng
from cardtable.engine.table import Table

__all__ = [
    "JSON",
    "Action",
    "ActionSpace",
    "CardDataError",
    "CardtableError",
    "Event",
    "Game",
    "GameOver",
    "IllegalAction",
    "MalformedAction",
    "NotYourTurn",
    "Option",
    "OptionError",
    "OptionValue",
    "ReplayDivergence",
    "Result",
    "Rng",
    "State",
    "Table",
    "UndoRefused",
    "as_rng",
    "fingerprint_of",
    "ranks_from_keys",
]
