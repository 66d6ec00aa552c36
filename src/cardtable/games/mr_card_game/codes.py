"""Small integer codes shared by the rules modules: open decisions, flow steps, modes, queue ops.

None of these reach a view: views say in words what is being decided (``views.prompt``).
"""

from __future__ import annotations

from typing import Final

# Open decisions (``state.phase``): what ``current_player`` is choosing now.
D_NONCOMBAT: Final = 0  # non-combat actions A-G (and making mojo), then combat / end-turn (done in the March)
D_SPELLX: Final = 1  # choose X for a Spell Attack ability
D_CHOOSE: Final = 2  # choose the stat type of a gain
D_PULVERIZE: Final = 3  # choose the item Pulverize destroys
D_UPGRADE: Final = 4  # a rollover upgrade or exchange (or one from an effect)
D_COMBAT: Final = 5  # combat step 1: combat items and skills, then a maneuver (or a kill by damage alone)
D_MANEUVER: Final = 6  # combat step 2: play stat cards of the maneuver's type
D_TARGET: Final = 7  # combat step 3: choose the monster to kill
D_DISCARD: Final = 8  # end of turn: voluntary discards
D_LIMIT: Final = 9  # end of turn: discard down to six
D_POLL: Final = 10  # the March poll
D_OVER: Final = 11
D_BLOCK: Final = 12  # hardcore combat: discard stat cards of the counter-attack's type to block it, or suffer
D_CURE: Final = 13  # rollover: remove one negative effect, or keep them
D_UNEQUIP: Final = 14  # a fourth piece of equipment was equipped: unequip one of the others
D_PERM: Final = 15  # ascension: perm one trained skill (or none)
D_CLASS: Final = 16  # ascension with classes: choose a new class (or the Mr. Card Game side of a board)
D_SIDE: Final = 17  # setup with class boards: the side of your board

# Flow steps (``state.step``): where the flow resumes once no sub-decision is open.
ST_NONCOMBAT: Final = 0
ST_COMBAT: Final = 1
ST_MANEUVER: Final = 2
ST_TARGET: Final = 3
ST_DISCARD: Final = 4
ST_DRAW: Final = 5
ST_LIMIT: Final = 6
ST_END: Final = 7
ST_POLL: Final = 8
ST_OVER: Final = 9
ST_BLOCK: Final = 10  # between the kill and the loot: the hardcore block
ST_ASCEND: Final = 11  # after defeating a Sorceress form (ascension): perm, then class
ST_SIDE: Final = 12  # before the first turn: each player chooses the side of their class board

# Modes (``state.mode``).
M_TURN: Final = 0
M_MARCH: Final = 1
M_CLEANUP: Final = 2

# Queue ops beyond the effect vocabulary (effects.py uses 0..47).
Q_DRAW_TO: Final = 100
"""Draw until the hand holds ``a`` cards (the end-of-turn refill)."""

HAND_SIZE: Final = 6
NO_LIMIT: Final = -1
"""``state.pool`` when the meat supply is unlimited."""
MAX_X: Final = 40
"""The largest X a Spell Attack ability can be given (``spend mojo=1..MAX_X``)."""

# Maneuvers (``state.man``, ``-1`` when none): the indices of ``effects.MANEUVERS``.
MELEE: Final = 0
SPELL: Final = 1
RANGED: Final = 2
EVADE: Final = 3

# Ascension stages (``state.asc_stage``): perm a skill, then choose a class, then done.
ASC_PERM: Final = 0
ASC_CLASS: Final = 1
ASC_DONE: Final = 2

NO_ELEMENT_BONUS: Final = (0, 0, 0, 0, 0, 0)
"""``state.dmg_vs`` when no bonus against any element applies (indexed by ``effects.ELEMENTS``)."""
KIND_VALUES: Final = tuple(k % 4 + 1 for k in range(12))
"""The stat value of each stat-card kind (``kind % 4 + 1``), for totals by kind."""
