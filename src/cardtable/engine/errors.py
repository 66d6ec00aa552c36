"""Every error cardtable raises on bad input.

All of them derive from :class:`CardtableError`; the ones about actions also derive from
``ValueError`` so that callers treating bad text as a value error keep working. Messages are written
for a person and never name a card the reader may not see.
"""

from __future__ import annotations

from typing import Final


class CardtableError(Exception):
    """Base class of every error cardtable raises on purpose."""


QUOTE_LIMIT: Final = 60
"""Longest piece of someone's input an error message repeats (longer input is cut, with an ellipsis)."""


def quoted(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``value`` as an error message shows it: ``repr`` of a string, cut to ``limit`` characters.

    Messages quote input once and never at length, so a megabyte of junk makes a one-line error.
    """
    if isinstance(value, str):
        return repr(value[:limit]) + "…" if len(value) > limit else repr(value)
    if value is None or isinstance(value, bool | float) or (isinstance(value, int) and value.bit_length() < 64):
        return repr(value)
    if isinstance(value, int):
        return "a number of many digits"
    return f"a {type(value).__name__}"


class IllegalAction(CardtableError, ValueError):
    """An action that cannot be applied now. The state is left exactly as it was."""


class MalformedAction(IllegalAction):
    """Action text that does not parse, or names an action the game does not have."""


class NotYourTurn(IllegalAction):
    """An action sent by a seat that is not the one to decide now."""


class InvalidSeat(IllegalAction):
    """A seat argument that names no seat of the game (not an integer, a boolean, out of range).

    Python numbers seats from 0; people read and type P1..Pn. Also a ``ValueError``."""


class GameOver(IllegalAction):
    """An action sent after the game has ended."""


class OptionError(CardtableError, ValueError):
    """An unknown game, an unknown option, or an option value out of range."""


class CardDataError(CardtableError, ValueError):
    """A card file that cannot be used. Names the file, the card and the field at fault."""

    def __init__(self, file: str, card: str | None, field: str | None, problem: str) -> None:
        self.file = file
        self.card = card
        self.field = field
        self.problem = problem
        where = file
        if card is not None:
            where += f", card {card!r}"
        if field is not None:
            where += f", field {field!r}"
        super().__init__(f"{where}: {problem}")


class RecordError(CardtableError):
    """A record that cannot be replayed at all: not a record, a field of the wrong type, no way to
    verify it. (A record that replays into a different game raises :class:`ReplayDivergence`.)"""


class ReplayDivergence(CardtableError):
    """A record that no longer replays to the game it recorded.

    ``index`` is the 0-based position of the first action at which the replayed game differs from
    the record (or ``len(actions)`` when only the final state differs).
    """

    def __init__(self, index: int, message: str) -> None:
        self.index = index
        super().__init__(message)


class UndoRefused(CardtableError):
    """An undo that would cross a barrier: another seat's decision, a new turn, a reveal or a die."""
