"""Every error cardtable raises on bad input.

All of them derive from :class:`CardtableError`; the ones about actions also derive from
``ValueError`` so that callers treating bad text as a value error keep working. Messages are written
for a person and never name a card the reader may not see.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
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


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """``" (did you mean 'heuristic'?)"`` when ``word`` is a near miss of one or two of ``choices``
    (a typo, a letter's case), else ``""``: the tail of an "unknown X" message."""
    known = [c for c in choices if isinstance(c, str)]
    if not isinstance(word, str) or not word or not known:
        return ""
    lowered = {c.lower(): c for c in known}
    close = difflib.get_close_matches(word.lower()[:60], list(lowered), n=2, cutoff=0.7)
    if not close:
        return ""
    return " (did you mean " + " or ".join(repr(lowered[c]) for c in close) + "?)"


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
    """An unknown game, an unknown option, an option value out of range, or options that do not go
    together.

    ``options`` names every option at fault, the one to fix first leading (a combination names each
    option involved: ``("teams", "players")``); ``option`` is that first one, or None when no option
    is at fault (an unknown game, a bad agent spec). Interfaces show the message next to those fields.
    """

    def __init__(self, message: str, *, option: str | None = None, options: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        names = options or ((option,) if option is not None else ())
        self.options: tuple[str, ...] = tuple(names)
        self.option: str | None = names[0] if names else None

    def __reduce__(self) -> tuple[object, ...]:
        # Keyword-only arguments are not in ``args``: keep the names when pickled (process pools).
        return (_option_error, (str(self), self.options))


def _option_error(message: str, options: tuple[str, ...]) -> OptionError:
    return OptionError(message, options=options)


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
