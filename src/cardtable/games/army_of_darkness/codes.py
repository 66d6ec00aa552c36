"""Small integer codes shared by the rules modules: action kinds, phases, sides, reduction states."""

# Action kinds, looked up by action index so that ``_do`` never compares strings.
(
    A_PLAY,
    A_TO,
    A_TARGET,
    A_PICK,
    A_DONE,
    A_SLAY,
    A_SLAY3,
    A_DRAW,
    A_ATTACK,
    A_PASS,
    A_DISCARD,
) = range(11)


# Phases: what the decision now open is about.
(
    P_PLAY,  # step 1: play a card (or ``done`` after the first)
    P_PLACE,  # step 1: choose the player in front of whom the played item/ally/monster goes
    P_PICK,  # event: choose a card (tabled or in the discard pile)
    P_TARGET,  # event: choose a character
    P_DEST,  # event: choose the player in front of whom the chosen card goes
    P_SLAY,  # step 2: discard one opposing card in front of you (or three same-name monsters)
    P_FREE,  # step 3: draw, attack another character, or pass
    P_HIT,  # steps 3-4: ``victim`` discards a card for a hit
    P_OVER,
) = range(9)

GOOD, EVIL = 0, 1
SIDE_NAMES = ("good", "evil")

# A player's progress towards switching sides when she has no hand cards (see the rules notes, AD8).
HAS_CARDS, REDUCED, ARMED = 0, 1, 2
REDUCTION_NAMES = ("has-cards", "reduced", "armed")
