"""Change lists: what a game's rules record, while a machine observer asks, of the changes they make.

A game whose RL observer follows its states keeps ``state.changes``: ``None`` (kept by nobody)
unless an observer sets it to a list, and ``None`` again on every clone and determinized copy. While
it is a list, the rules append one integer per change an observation can show. The games share the
encoding: an entry is ``starts[zone][seat] + 2 * card + added`` (``starts``: :func:`note_starts`,
kept on the game as ``NOTE``), so ``entry >> 1`` indexes a table of every (zone, seat, card) and the
last bit says whether the card entered the zone or left it. Each game names its own zones.
"""

from __future__ import annotations


def note_starts(zones: int, players: int, cards: int) -> tuple[tuple[int, ...], ...]:
    """``starts[zone][seat]``: where that zone's entries start, for ``zones`` zones, ``players`` seats
    and ``cards`` cards (each zone and seat holds two entries per card: taken and added)."""
    return tuple(tuple((z * players + s) * 2 * cards for s in range(players)) for z in range(zones))


def append_entry(
    changes: list[int] | None, starts: tuple[tuple[int, ...], ...], zone: int, seat: int, card: int, added: int
) -> None:
    """Append the entry of ``card`` entering (``added`` 1) or leaving (0) ``zone`` of ``seat`` to a
    state's kept change list (a rule calls it only while the list is kept: it tests for ``None``
    first, so that play without an observer pays one test)."""
    assert changes is not None
    changes.append(starts[zone][seat] + 2 * card + added)
