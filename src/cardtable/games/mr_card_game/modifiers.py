"""Lasting effects: what each player's active cards add up to (K4.2, K7.3, K15.1).

Each player has one flat tuple of sums, ``state.mods[p]``, rebuilt by :func:`refresh` whenever what
is active changes (equipping, a buff turned on or off, a card gained or lost). Scoring then reads a
handful of integers instead of walking the display case.

A card is *active* (its icons and lasting effects count) when it is:

* a piece of equipment that is **equipped** (clarification 1: unequipped equipment gives nothing);
* a passive skill (always, while in the display case);
* a buff skill that is turned on;
* a card in the player's ``lasting`` list (the supplemental rules' negative effects and Instant
  Karmas), the player's class card or the class side of their class board (``state.klass``), or a
  global effect of the table (a foil on top of the Tower): ``state.global_fx``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardtable.games.mr_card_game.cards import S_BUFF, S_PASSIVE
from cardtable.games.mr_card_game.effects import (
    ANY,
    AUTOSELL_BONUS,
    BONUS,
    BONUS_VS,
    DIVE_COST,
    EXTRA_UPGRADE,
    FAMILIAR_WEIGHT,
    FORBID,
    MEAT_BONUS,
    MONSTER_POWER,
    RESIST,
    SKILL_COST,
    Effect,
)

if TYPE_CHECKING:
    from collections.abc import Iterable

    from cardtable.games.mr_card_game.state import McgState

# Layout of a mods tuple.
ICON = 0
"""``mods[ICON + m]``: the bonus to maneuver m (melee, spell, ranged, evade) from icons and ``bonus``."""
VS = 4
"""``mods[VS + 4 * element + m]``: the bonus to maneuver m against monsters of that element."""
MPOW = 28
"""``mods[MPOW + element]``: the change to the power of monsters of that element on your turn."""
MEAT, SKILLCOST, SELL, DIVE, FORBIDS, UPGRADES, FAMILIAR = 34, 35, 36, 37, 38, 39, 40
SIZE = 41
ZERO: tuple[int, ...] = (0,) * SIZE


def add_effects(acc: list[int], effects: Iterable[Effect]) -> None:
    """Add lasting effects to a mods accumulator (instants never reach here: the loader refuses them)."""
    for op, a, b, c in effects:
        if op == BONUS:
            acc[ICON + a] += b
        elif op == BONUS_VS:
            acc[VS + 4 * a + b] += c
        elif op == RESIST:
            acc[VS + 4 * a + 3] += b
        elif op == MONSTER_POWER:
            if a == ANY:
                for e in range(6):
                    acc[MPOW + e] += b
            else:
                acc[MPOW + a] += b
        elif op == MEAT_BONUS:
            acc[MEAT] += a
        elif op == SKILL_COST:
            acc[SKILLCOST] += a
        elif op == AUTOSELL_BONUS:
            acc[SELL] += a
        elif op == DIVE_COST:
            acc[DIVE] += a
        elif op == FORBID:
            acc[FORBIDS] |= 1 << a
        elif op == EXTRA_UPGRADE:
            acc[UPGRADES] += a
        elif op == FAMILIAR_WEIGHT:
            acc[FAMILIAR] += a


def compute(s: McgState, p: int) -> tuple[int, ...]:
    """The sums of everything active for player ``p`` (see the module docstring)."""
    c = s.game.cards
    icons, effects, slot, stype = c.icons, c.effects, c.slot, c.stype
    acc = [0] * SIZE
    eq = s.eq
    for card in s.items[p]:
        if slot[card] >= 0 and not eq >> card & 1:
            continue
        i0, i1, i2, i3 = icons[card]
        acc[0] += i0
        acc[1] += i1
        acc[2] += i2
        acc[3] += i3
        if effects[card] and c.etype[card] == 1:  # E_PASSIVE: lasting
            add_effects(acc, effects[card])
    buffs = s.buffs
    for card in s.skills[p]:
        st = stype[card]
        if st == S_PASSIVE or (st == S_BUFF and buffs >> card & 1):
            i0, i1, i2, i3 = icons[card]
            acc[0] += i0
            acc[1] += i1
            acc[2] += i2
            acc[3] += i3
            add_effects(acc, effects[card])
    for card in s.lasting[p]:
        add_effects(acc, effects[card])
    k = s.klass[p]
    if k >= 0 and not s.plain >> p & 1:
        add_effects(acc, effects[k])  # the class card, or the class side of a class board
    if s.global_fx:
        add_effects(acc, s.global_fx)
    return tuple(acc)


def refresh(s: McgState, p: int) -> None:
    """Rebuild player ``p``'s sums after a change of what is active."""
    s.mods[p] = compute(s, p)
