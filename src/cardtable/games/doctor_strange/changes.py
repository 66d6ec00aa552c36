"""The change list a machine observer may ask a Doctor Strange state to keep (``DSBase.changes``).

While an RL observer follows a state, the rules append one integer per change to what the observer
reads: ``game.NOTE[zone][seat] + 2 * card + added`` (:mod:`cardtable.engine.changes`). ``Z_HAND``
notes a card into or out of that seat's hand; the other zones note seat 0: a card onto or off the
discard pile, the killed or the exiled pile; a character whose numbers changed or that entered or
left play (``Z_CHAR``: its side, owner, incapacitation, controller, captor, modified power or
Location; added 0); a card attached to a character or taken off it (``Z_ATT``: ``att_on`` changed;
added 0).
"""

from __future__ import annotations

from typing import Final

from cardtable.engine.changes import note_starts as _note_starts

Z_HAND: Final = 0
Z_DISCARD: Final = 1
Z_KILLED: Final = 2
Z_EXILED: Final = 3
Z_CHAR: Final = 4
Z_ATT: Final = 5
ZONES: Final = 6


def note_starts(players: int, cards: int) -> tuple[tuple[int, ...], ...]:
    """``NOTE[zone][seat]`` for Doctor Strange's zones (:func:`cardtable.engine.changes.note_starts`)."""
    return _note_starts(ZONES, players, cards)
