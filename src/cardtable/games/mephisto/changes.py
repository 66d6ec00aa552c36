"""The change list a machine observer may ask a Mephisto state to keep (``MephistoState.changes``).

While an RL observer follows a state, the rules append one integer per change to what the observer
reads: ``game.NOTE[zone][seat] + 2 * card + added`` (:mod:`cardtable.engine.changes`). Zones with a
seat: a hand, the cards in play, the souls (defeated monsters), the seat's favor or soul points
(``Z_SEAT``: card 0, added 0) and its bonus this turn (``Z_BONUS``: card 0, added 0). Zones of the
table note seat 0: the discard pile; a dungeon space whose card changed (``Z_SPACE``: the space for
the card, added 0); a card's public bit set (``Z_PUB``, added 1: a bit is cleared only as its card
leaves a hand, which that hand's entry says); a card's durability (``Z_DUR``) and activation
(``Z_ACT``) changed (added 0); a spell attached to a weapon or taken off it (``Z_ATTACH``).
"""

from __future__ import annotations

from typing import Final

from cardtable.engine.changes import note_starts as _note_starts

Z_HAND: Final = 0
Z_PLAY: Final = 1
Z_SOULS: Final = 2
Z_SEAT: Final = 3
Z_DISCARD: Final = 4
Z_SPACE: Final = 5
Z_PUB: Final = 6
Z_DUR: Final = 7
Z_ACT: Final = 8
Z_ATTACH: Final = 9
Z_BONUS: Final = 10
ZONES: Final = 11


def note_starts(players: int, cards: int) -> tuple[tuple[int, ...], ...]:
    """``NOTE[zone][seat]`` for Mephisto's zones (:func:`cardtable.engine.changes.note_starts`)."""
    return _note_starts(ZONES, players, cards)
