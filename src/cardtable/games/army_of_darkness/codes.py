"""Small integer codes shared by the rules modules: action kinds, phases, sides, reduction states."""

from typing import Final

# Action kinds, looked up by action index so that ``_do`` never compares strings.
A_PLAY: Final = 0
A_TO: Final = 1
A_TARGET: Final = 2
A_PICK: Final = 3
A_DONE: Final = 4
A_SLAY: Final = 5
A_SLAY3: Final = 6
A_DRAW: Final = 7
A_ATTACK: Final = 8
A_PASS: Final = 9
A_DISCARD: Final = 10


# Phases: what the decision now open is about.
P_PLAY: Final = 0  # step 1: play a card (or ``done`` after the first)
P_PLACE: Final = 1  # step 1: choose the player in front of whom the played item/ally/monster goes
P_PICK: Final = 2  # event: choose a card (tabled or in the discard pile)
P_TARGET: Final = 3  # event: choose a character
P_DEST: Final = 4  # event: choose the player in front of whom the chosen card goes
P_SLAY: Final = 5  # step 2: discard one opposing card in front of you (or three same-name monsters)
P_FREE: Final = 6  # step 3: draw, attack another character, or pass
P_HIT: Final = 7  # steps 3-4: ``victim`` discards a card for a hit
P_OVER: Final = 8

GOOD: Final = 0
EVIL: Final = 1
SIDE_NAMES = ("good", "evil")

# A player's progress towards switching sides when she has no hand cards (see the rules notes, AD8).
HAS_CARDS: Final = 0
REDUCED: Final = 1
ARMED: Final = 2
REDUCTION_NAMES = ("has-cards", "reduced", "armed")

# The zones of the change list a machine observer may ask a state to keep (``AodState.changes``):
# an entry is ``NOTE[zone][seat] + 2 * card + added`` (``Z_DISCARD`` notes seat 0; ``Z_SEAT`` notes
# card 0, added 1: the seat's side, switches or reduction state changed).
Z_HAND: Final = 0
Z_MON: Final = 1
Z_ALLY: Final = 2
Z_ITEM: Final = 3
Z_DISCARD: Final = 4
Z_SEAT: Final = 5
ZONES: Final = 6
