"""Instant effects: what each op of the vocabulary does when an ability resolves.

Activated abilities (items used, skills activated) put their instants on ``state.queue``;
:func:`head` resolves the first one. An instant that needs a choice (a stat type, Pulverize's item,
an upgrade) opens a decision and stays at the head until the choice is made. An instant with no valid
target is ignored (clarification 2): a gain from an empty pile, Pulverize with no item that has an
anvil, a cure with nothing to cure, an upgrade with nothing to upgrade.

The economy helpers used by every rule (meat in and out of the pool, a stat card from its pile) live
here too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardtable.games.mr_card_game import endturn, modifiers, said
from cardtable.games.mr_card_game.cards import K_BOARD_ITEM, K_BOSS
from cardtable.games.mr_card_game.codes import D_CHOOSE, D_CURE, D_PULVERIZE, NO_LIMIT, Q_DRAW_TO
from cardtable.games.mr_card_game.effects import (
    ALL_SLOTS,
    ANY,
    CHOOSE,
    COMBAT_BONUS,
    CURE,
    DAMAGE,
    DAMAGE_PER_MOJO,
    DAMAGE_POWER,
    DAMAGE_VS,
    DRAW,
    ELEMENTS,
    GAIN_MEAT,
    GAIN_MOJO,
    GAIN_STAT,
    PULVERIZE,
    REDUCE_POWER,
    UNEQUIP,
    UPGRADE_STAT,
)
from cardtable.games.mr_card_game.text import kind_text

if TYPE_CHECKING:
    from cardtable.games.mr_card_game.state import McgState


# -- economy -----------------------------------------------------------------------------------------


def gain_meat(s: McgState, p: int, amount: int) -> int:
    """Player ``p`` takes up to ``amount`` meat from the pool (all of it when the supply is unlimited,
    what is left otherwise); returns how much was taken."""
    if amount <= 0:
        return 0
    if s.pool != NO_LIMIT:
        amount = min(amount, s.pool)
        s.pool -= amount
    s.meat[p] += amount
    s.marks[p] += 1  # the rl observer's change mark (McgState.marks)
    return amount


def pay_meat(s: McgState, p: int, amount: int) -> None:
    """Player ``p`` returns ``amount`` meat to the pool (legality checked by the caller)."""
    s.meat[p] -= amount
    s.marks[p] += 1  # the rl observer's change mark (McgState.marks)
    if s.pool != NO_LIMIT:
        s.pool += amount


def gain_stat(s: McgState, p: int, kind: int) -> bool:
    """Take a stat card of ``kind`` from its pile into ``p``'s discard pile (K7.7, K13.2); nothing
    when the pile is empty. Returns whether a card was gained."""
    pile = s.piles[kind]
    if not pile:
        if s.log is not None:
            s.emit("stat", f"the {kind_text(s, kind)} pile is empty: {s.game.seat_name(p)} gains nothing")
        return False
    s.disc[p].append(pile[-1])
    s.marks[p] += 1  # the rl observer's change mark (McgState.marks)
    s.piles[kind] = pile[:-1]
    if s.log is not None:
        s.tell2("stat", said.said_stat, p, kind)
    return True


def equipped_power(s: McgState, p: int, slot: int) -> int:
    """The anvil of ``p``'s equipped item in ``slot`` (ANY: the highest; ALL_SLOTS: the sum)."""
    c = s.game.cards
    eq = s.eq
    powers = [c.anvil[card] for card in s.items[p] if eq >> card & 1 and (slot < 0 or c.slot[card] == slot)]
    if not powers:
        return 0
    if slot == ALL_SLOTS:
        return sum(powers)
    return max(powers)


def pulverize_targets(s: McgState, p: int) -> list[int]:
    """Items with an anvil in ``p``'s display case, equipped or not (O7.1); class board equipment is
    printed on the board and cannot be destroyed (A43)."""
    c = s.game.cards
    return [card for card in s.items[p] if c.anvil[card] > 0 and c.kind[card] != K_BOARD_ITEM]


def choosable_types(s: McgState, value: int) -> list[int]:
    """Stat types whose pile of ``value`` is not empty."""
    return [t for t in range(3) if s.piles[t * 4 + value - 1]]


# -- the queue ---------------------------------------------------------------------------------------


def head(s: McgState) -> bool:
    """Resolve the first queued instant; True when it opened a decision (it then stays queued)."""
    q = s.queue
    op, a, b, _, x = q[0]
    p = s.actor
    if op in (Q_DRAW_TO, DRAW):
        return endturn.draw_from_queue(s)
    log = s.log is not None
    name = s.game.seat_name(p) if log else ""
    if op == GAIN_STAT and a == CHOOSE:
        if not choosable_types(s, b):
            q.pop(0)
            if log:
                s.emit("stat", f"every pile of value {b} is empty: {name} gains nothing")
            return False
        s.phase = D_CHOOSE
        s.current_player = p
        return True
    if op == PULVERIZE:
        if not pulverize_targets(s, p):
            q.pop(0)
            if log:
                s.emit("effect", f"{name} has no item with an anvil: Pulverize does nothing")
            return False
        s.phase = D_PULVERIZE
        s.current_player = p
        return True
    if op == CURE and len(cure_options(s, p, a)) > 1:
        # O2.2: which of several negative effects of the cure's sub-type goes is the player's choice
        # (the display case is public, so whether the choice opens reveals nothing).
        s.phase = D_CURE
        s.current_player = p
        return True
    q.pop(0)
    if op == DAMAGE:
        s.dmg += a
        if log:
            s.emit("effect", f"{name} deals {a} damage")
    elif op == DAMAGE_VS:
        dv = list(s.dmg_vs)
        dv[a] += b
        s.dmg_vs = tuple(dv)
        if log:
            s.emit("effect", f"{name} deals {b} extra damage to {ELEMENTS[a]} monsters")
    elif op == DAMAGE_POWER:
        n = equipped_power(s, p, a)
        s.dmg += n
        if log:
            s.emit("effect", f"{name} deals {n} damage (equipment power)")
    elif op == DAMAGE_PER_MOJO:
        s.dmg += a * x
        if log:
            s.emit("effect", f"{name} deals {a * x} damage ({x} mojo)")
    elif op == REDUCE_POWER:
        s.red += a
        if log:
            s.emit("effect", f"the monster {name} chooses will have {a} less power")
    elif op == COMBAT_BONUS:
        cb = list(s.cb)
        cb[a] += b
        s.cb = (cb[0], cb[1], cb[2], cb[3])
    elif op == GAIN_STAT:
        gain_stat(s, p, a * 4 + b - 1)
    elif op == UPGRADE_STAT:
        if endturn.upgrade_options(s, p):
            s.upg_left = 1  # the flow opens the upgrade decision
            s.upg_roll = False
            return False
        if log:
            s.emit("effect", f"{name} has nothing to upgrade")
    elif op == GAIN_MEAT:
        got = gain_meat(s, p, a)
        if log:
            s.emit("meat", f"{name} gains {got} meat")
    elif op == GAIN_MOJO:
        s.mojo += a
        if log:
            s.emit("mojo", f"{name} gains {a} mojo (pool {s.mojo})")
    elif op == CURE:
        cure(s, p, a)
    elif op == UNEQUIP:
        unequip_slot(s, p, a)
    return False


def cure_options(s: McgState, p: int, subtype: int) -> list[int]:
    """``p``'s negative effects a cure of ``subtype`` (ANY: any) may remove, oldest first."""
    c = s.game.cards
    return [x for x in s.lasting[p] if c.kind[x] == K_BOSS and (subtype == ANY or c.subtype[x] == subtype)]


def cure(s: McgState, p: int, subtype: int) -> None:
    """Remove ``p``'s negative effect of ``subtype`` (ANY: any), out of the game (O2.2-O2.3); reached
    with at most one such effect (several open the choice, :func:`remove_negative` then)."""
    options = cure_options(s, p, subtype)
    if options:
        remove_negative(s, p, options[0])
    elif s.log is not None:
        s.emit("effect", f"{s.game.seat_name(p)} has nothing to cure")


def remove_negative(s: McgState, p: int, card: int) -> None:
    """A cure removes the negative effect ``card`` from ``p``'s display case, out of the game (O2.3)."""
    s.lasting[p] = tuple(x for x in s.lasting[p] if x != card)
    s.marks[p] += 1  # the rl observer's change mark (McgState.marks)
    s.gone = (*s.gone, card)
    modifiers.refresh(s, p)
    if s.log is not None:
        s.emit("effect", f"{s.game.seat_name(p)} is cured of {s.game.cards.negative_name[card]}")


def unequip_slot(s: McgState, p: int, slot: int) -> None:
    """Unequip ``p``'s equipped item in ``slot`` (ANY: the one acquired last)."""
    c = s.game.cards
    for card in reversed(s.items[p]):
        if s.eq >> card & 1 and (slot == ANY or c.slot[card] == slot):
            s.eq &= ~(1 << card)
            modifiers.refresh(s, p)
            if s.log is not None:
                s.emit("equip", f"{s.game.seat_name(p)} unequips {s.game.card_name(card)}")
            return
