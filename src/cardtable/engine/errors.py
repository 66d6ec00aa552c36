"""Every error cardtable raises on bad input.

All of them derive from :class:`CardtableError`; the ones about actions also derive from
``ValueError`` so that callers treating bad text as a value error keep working. Messages are written
for a person and never name a card the reader may not see.
"""

from __future__ import annotations


class CardtableError(Exception):
    """Base class of every error cardtable raises on purpose."""


class IllegalAction(CardtableError, ValueError):
    """An action that cannot be applied now. The state is left exactly as it was."""


class MalformedAction(IllegalAction):
    """Action text that does not parse, or names an action the game does not have."""


class NotYourTurn(IllegalAction):
    """An action sent by a seat that is not the one to decide now."""


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
