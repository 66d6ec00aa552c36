"""Small integer codes shared by the rules modules: open decisions, flow steps, modes, queue ops.

None of these reach a view: views say in words what is being decided (``views.prompt``).
"""

from __future__ import annotations

# Open decisions (``state.phase``): what ``current_player`` is choosing now.
(
    D_NONCOMBAT,  # non-combat actions A-G (and making mojo), then combat / end-turn (done in the March)
    D_SPELLX,  # choose X for a Spell Attack ability
    D_CHOOSE,  # choose the stat type of a gain
    D_PULVERIZE,  # choose the item Pulverize destroys
    D_UPGRADE,  # a rollover upgrade or exchange (or one from an effect)
    D_COMBAT,  # combat step 1: combat items and skills, then a maneuver (or a kill by damage alone)
    D_MANEUVER,  # combat step 2: play stat cards of the maneuver's type
    D_TARGET,  # combat step 3: choose the monster to kill
    D_DISCARD,  # end of turn: voluntary discards
    D_LIMIT,  # end of turn: discard down to six
    D_POLL,  # the March poll
    D_OVER,
    D_BLOCK,  # hardcore combat: discard stat cards of the counter-attack's type to block it, or suffer
    D_CURE,  # rollover: remove one negative effect, or keep them
    D_UNEQUIP,  # a fourth piece of equipment was equipped: unequip one of the others
    D_PERM,  # ascension: perm one trained skill (or none)
    D_CLASS,  # ascension with classes: choose a new class (or the Mr. Card Game side of a board)
    D_SIDE,  # setup with class boards: the side of your board
) = range(18)

# Flow steps (``state.step``): where the flow resumes once no sub-decision is open.
(
    ST_NONCOMBAT,
    ST_COMBAT,
    ST_MANEUVER,
    ST_TARGET,
    ST_DISCARD,
    ST_DRAW,
    ST_LIMIT,
    ST_END,
    ST_POLL,
    ST_OVER,
    ST_BLOCK,  # between the kill and the loot: the hardcore block
    ST_ASCEND,  # after defeating a Sorceress form (ascension): perm, then class
    ST_SIDE,  # before the first turn: each player chooses the side of their class board
) = range(13)

# Modes (``state.mode``).
M_TURN, M_MARCH, M_CLEANUP = 0, 1, 2

# Queue ops beyond the effect vocabulary (effects.py uses 0..47).
Q_DRAW_TO = 100
"""Draw until the hand holds ``a`` cards (the end-of-turn refill)."""

HAND_SIZE = 6
NO_LIMIT = -1
"""``state.pool`` when the meat supply is unlimited."""
MAX_X = 40
"""The largest X a Spell Attack ability can be given (``spend mojo=1..MAX_X``)."""
