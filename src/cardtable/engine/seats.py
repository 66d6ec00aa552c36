"""Seats as Python numbers them (0..n-1) and as people do (P1..Pn, or a game's own names).

Python code passes 0-based ints. Everything a person reads or types names seats the way a table does:
``P1``..``Pn`` (``Game.seat_name``; Doctor Strange says ``Good``/``Evil``). Action parameters that name a
seat take ``P<n>`` values (``target seat=P2``), so an action's text reads the same in a log, on screen
and in a record.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardtable.engine.errors import InvalidSeat, OptionError, quoted

if TYPE_CHECKING:
    from cardtable.engine.game import Game


def seat_label(seat: int) -> str:
    """The people's number of a 0-based seat: ``P1`` for seat 0."""
    return f"P{seat + 1}"


def seat_labels(players: int) -> tuple[str, ...]:
    """``("P1", ..., "Pn")``: the values of a seat parameter in action texts and options."""
    return tuple(seat_label(s) for s in range(players))


def label_seat(label: str) -> int:
    """The 0-based seat of a ``P<n>`` label (``"P2"`` -> 1). The label must come from :func:`seat_label`."""
    return int(label[1:]) - 1


def check_seat(game: Game, seat: object) -> int:
    """``seat`` if it is a seat of ``game`` (an int, not a bool, in ``0..players-1``); else
    :class:`InvalidSeat` saying what seats there are."""
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < game.players:
        return seat
    if isinstance(seat, str):
        shown = quoted(seat, 20)
    elif isinstance(seat, int | float):  # bool included: True is "no seat True"
        shown = repr(seat) if len(repr(seat)) <= 20 else repr(seat)[:20] + "…"
    else:
        shown = quoted(seat)
    raise InvalidSeat(
        f"no seat {shown} in this {game.players}-player game: seats are 0..{game.players - 1} in Python "
        f"({', '.join(game.seat_name(s) for s in range(game.players))} for people)"
    )


def parse_seat(game: Game, text: str) -> int:
    """A seat a person typed, as a 0-based seat: ``P2``, ``2`` (counted from 1) or the seat's name.

    Raises :class:`OptionError` naming the seats there are."""
    word = text.strip()
    lowered = word.lower()
    for seat in range(game.players):
        if lowered in (seat_label(seat).lower(), game.seat_name(seat).lower()):
            return seat
    if word.isascii() and word.isdigit() and 1 <= int(word) <= game.players:
        return int(word) - 1
    names = ", ".join(game.seat_name(s) for s in range(game.players))
    raise OptionError(f"no seat {quoted(text, 20)}: this game's seats are {names} (or 1..{game.players})")
