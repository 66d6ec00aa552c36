"""The game-agnostic core: the Game/State protocol, actions, options, randomness, records, errors."""

from cardtable.engine.actions import Action, ActionSpace
from cardtable.engine.errors import (
    CardDataError,
    CardtableError,
    GameOver,
    IllegalAction,
    InvalidSeat,
    MalformedAction,
    NotYourTurn,
    OptionError,
    RecordError,
    ReplayDivergence,
    UndoRefused,
)
from cardtable.engine.events import EventLog
from cardtable.engine.game import (
    CONCEALED,
    ENGINE_VIEW_KEYS,
    JSON,
    Event,
    Game,
    Result,
    State,
    fingerprint_of,
    ranks_from_keys,
)
from cardtable.engine.options import Option, OptionValue
from cardtable.engine.rng import Rng, as_rng
from cardtable.engine.seats import check_seat, parse_seat, seat_label, seat_labels
from cardtable.engine.table import Table

__all__ = [
    "CONCEALED",
    "ENGINE_VIEW_KEYS",
    "JSON",
    "Action",
    "ActionSpace",
    "CardDataError",
    "CardtableError",
    "Event",
    "EventLog",
    "Game",
    "GameOver",
    "IllegalAction",
    "InvalidSeat",
    "MalformedAction",
    "NotYourTurn",
    "Option",
    "OptionError",
    "OptionValue",
    "RecordError",
    "ReplayDivergence",
    "Result",
    "Rng",
    "State",
    "Table",
    "UndoRefused",
    "as_rng",
    "check_seat",
    "fingerprint_of",
    "parse_seat",
    "ranks_from_keys",
    "seat_label",
    "seat_labels",
]
