"""The non-combat phase: actions A to G in any number and order (clauses K4, O7, O8).

* A ``equip`` / ``unequip``: one weapon, one hat and one pants equipped at a time; equipping swaps out
  the item in that slot (K4.1).
* B ``autosell``: an item with an AutoSell value goes to escrow for its value in meat (K4.3, O8).
* C ``use``: a non-combat item's ability; the item goes to escrow (``use-consumes``: every used item,
  or only food, booze and combat items, equipment then working once per turn) (K4.4).
* D ``train``: a face-up trainer skill for its meat cost (K4.6).
* E ``skill`` / F ``buff``: see :mod:`.mojo`.
* G ``dive``: the top card of the Heap for its meat cost, if it has one (K4.9).

Then ``combat`` (start the combat phase) or ``end-turn`` (no combat); in the March ``done``.
Equipment must be equipped to be used (clarification 1). Escrow reaches the Heap only at the end of
the turn, so an item sold or used this turn cannot be dived back the same turn (K4.10).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from cardtable.engine import Action
from cardtable.games.mr_card_game import flow, modifiers, said
from cardtable.games.mr_card_game.cards import K_BOARD_ITEM, K_STORE, S_BUFF, S_NONCOMBAT, T_ACCESSORY
from cardtable.games.mr_card_game.codes import M_MARCH
from cardtable.games.mr_card_game.effects import (
    CHOOSE,
    F_AUTOSELL,
    F_BUFF,
    F_DIVE,
    F_EQUIP,
    F_SKILL,
    F_TRAIN,
    F_USE,
    GAIN_STAT,
)
from cardtable.games.mr_card_game.modifiers import DIVE, FORBIDS, SKILLCOST
from cardtable.games.mr_card_game.mojo import mojo_actions
from cardtable.games.mr_card_game.resolve import choosable_types, gain_meat, gain_stat, pay_meat, pulverize_targets

if TYPE_CHECKING:
    from cardtable.games.mr_card_game.state import McgState

CONSUMABLE_TYPES: Final = (4, 5, 6)
"""Item type codes of food, booze and combat items."""


def train_cost(s: McgState, p: int, card: int) -> int:
    return max(0, s.game.cards.cost[card] + s.mods[p][modifiers.SKILLCOST])


def dive_price(s: McgState, p: int, card: int) -> int:
    """The meat to dive ``card`` (-1: it has no Heap price and cannot be dived)."""
    price = s.game.cards.price[card]
    if price < 0:
        return -1
    return max(0, price + s.mods[p][modifiers.DIVE])


def autosell_value(s: McgState, p: int, card: int) -> int:
    """The meat ``card`` sells for (-1: no AutoSell icon, it cannot be sold)."""
    value = s.game.cards.autosell[card]
    if value < 0:
        return -1
    return max(0, value + s.mods[p][modifiers.SELL])


def legal(s: McgState) -> list[Action]:
    """The non-combat actions open to the player in their phase (or March non-combat phase)."""
    g = s.game
    c = g.cards
    p = s.actor
    m = s.mods[p]
    forbid = m[FORBIDS]
    eq = s.eq
    used = s.used
    equips: list[Action] = []
    sells: list[Action] = []
    uses: list[Action] = []
    may_equip = not forbid & F_EQUIP
    may_sell = not forbid & F_AUTOSELL
    may_use = not forbid & F_USE
    acts = g.ITEM_ACTIONS
    seen = s.eq_seen
    for card in s.items[p]:
        unequip, equip, sell, use = acts[card]
        if unequip is not None:  # equipment
            if eq >> card & 1:
                if not seen or eq & ~(1 << card) not in seen:
                    equips.append(unequip)
                if use is not None and may_use and not used >> card & 1:
                    uses.append(use)
            elif may_equip and equip is not None and (not seen or equipped_after(s, p, card) not in seen):
                equips.append(equip)
        elif use is not None and may_use:
            uses.append(use)
        if sell is not None and may_sell:
            sells.append(sell)
    out = equips
    out += sells
    out += uses
    meat = s.meat[p]
    skill0 = g.skill0
    if not forbid & F_TRAIN:
        cost = c.cost
        budget = meat - m[SKILLCOST]
        train = g.TRAIN
        for card in s.trainer:
            if card >= 0 and cost[card] <= budget:
                out.append(train[card - skill0])
    owned = s.skills[p]
    if owned:
        pool = s.mojo
        stype, mojo = c.stype, c.mojo
        buffs = s.buffs
        may_skill = not forbid & F_SKILL
        may_buff = not forbid & F_BUFF
        wants_mojo = False  # an ability this phase could still pay for: making mojo makes sense
        for card in owned:
            st = stype[card]
            if st == S_NONCOMBAT:
                if may_skill and not used >> card & 1:
                    if mojo[card] <= pool:
                        out.append(g.SKILL[card - skill0])
                    if mojo[card] > 0:
                        wants_mojo = True
            elif st == S_BUFF and may_buff and not buffs >> card & 1:
                if mojo[card] <= pool:
                    out.append(g.BUFF[card - skill0])
                if mojo[card] > 0:
                    wants_mojo = True
        if wants_mojo:
            out += mojo_actions(s, p)
    if s.store[p]:
        # S1.2: a face-down Mr. Store item turned face up for its meat cost.
        prices = c.price
        for card in s.store[p]:
            if prices[card] <= meat:
                out.append(g.REVEAL[card])
    heap = s.heap
    if heap and not forbid & F_DIVE:
        top = heap[-1]
        price = c.price[top]
        if price >= 0 and price + m[DIVE] <= meat:
            out.append(g.DIVE[top])
    if s.mode == M_MARCH:
        out.append(g.DONE)
    else:
        out.append(g.COMBAT)
        out.append(g.END_TURN)
    return out


def _remove_item(s: McgState, p: int, card: int) -> None:
    """Take ``card`` out of ``p``'s display case (unequipping it)."""
    adds = modifiers.item_adds(s, card)
    s.items[p] = tuple(x for x in s.items[p] if x != card)
    s.marks[p] += 1  # the rl observer's change mark (McgState.marks)
    if s.eq >> card & 1:
        s.eq &= ~(1 << card)
    if adds:
        modifiers.update(s, p, (), (s.game.sums.item[card],))


def equipped_count(s: McgState, p: int) -> int:
    """How many pieces of equipment ``p`` has equipped (O5: at most three, of any types)."""
    eq = s.eq
    return sum(1 for x in s.items[p] if eq >> x & 1)


def slot_free(s: McgState, p: int, card: int) -> bool:
    """Whether ``card`` can be equipped without unequipping anything: its slot is empty (any number
    of accessories) and fewer than three pieces of equipment are equipped (O5)."""
    c = s.game.cards
    sl = c.slot[card]
    eq = s.eq
    if equipped_count(s, p) >= 3:
        return False
    return sl == T_ACCESSORY or not any(eq >> x & 1 and c.slot[x] == sl for x in s.items[p])


def gain_item(s: McgState, p: int, card: int) -> None:
    """``card`` enters ``p``'s display case (loot, a dive); new equipment follows ``new-equipment``."""
    s.items[p] = (*s.items[p], card)
    s.marks[p] += 1  # the rl observer's change mark (McgState.marks)
    c = s.game.cards
    if c.slot[card] >= 0 and s.game.equip_if_free and slot_free(s, p, card):
        s.eq |= 1 << card
    if modifiers.item_adds(s, card):
        modifiers.update(s, p, (s.game.sums.item[card],), ())


def equipped_after(s: McgState, p: int, card: int) -> int:
    """The ``eq`` mask after ``p`` equips ``card``: the piece in its slot comes off (any number of
    accessories; a fourth piece's forced unequip is a decision of its own)."""
    c = s.game.cards
    sl = c.slot[card]
    eq = s.eq | 1 << card
    if sl != T_ACCESSORY:
        for x in s.items[p]:
            if x != card and eq >> x & 1 and c.slot[x] == sl:
                eq &= ~(1 << x)
    return eq


def _seen(s: McgState, before: int) -> None:
    """Remember the arrangement before and after an equipment change (see ``McgState.eq_seen``);
    nothing under ``equipment-repeats=allowed``, which offers every change."""
    if s.game.no_repeats:
        s.eq_seen = (*(s.eq_seen or (before,)), s.eq)


def do_equip(s: McgState, action: Action) -> None:
    card = int(action.args[0])
    p = s.actor
    before = s.eq
    c = s.game.cards
    sl = c.slot[card]
    sums = s.game.sums.item
    lost: tuple[modifiers.Entry, ...] = ()  # what stops counting in the sums
    if sl != T_ACCESSORY:
        for x in s.items[p]:
            if s.eq >> x & 1 and c.slot[x] == sl:
                if modifiers.item_adds(s, x):
                    lost = (*lost, sums[x])
                s.eq &= ~(1 << x)
                if s.log is not None:
                    s.tell2("equip", said.said_unequip, p, x)
    s.eq |= 1 << card
    modifiers.update(s, p, (sums[card],) if modifiers.item_adds(s, card) else (), lost)
    if s.log is not None:
        s.tell2("equip", said.said_equip, p, card)
    _seen(s, before)
    if equipped_count(s, p) > 3:
        s.force = card  # O5.2: a fourth piece of equipment: one of the others must come off at once
    flow.advance(s)


def do_unequip(s: McgState, action: Action) -> None:
    """``unequip card=N``: by choice in a non-combat phase, or forced after equipping a fourth piece."""
    card = int(action.args[0])
    p = s.actor
    adds = modifiers.item_adds(s, card)
    before = s.eq
    s.eq &= ~(1 << card)
    _seen(s, before)
    s.force = -1
    if adds:
        modifiers.update(s, p, (), (s.game.sums.item[card],))
    if s.log is not None:
        s.tell2("equip", said.said_unequip, p, card)
    flow.advance(s)


def legal_forced_unequip(s: McgState) -> list[Action]:
    """O5.2: the equipped items other than the one just equipped."""
    g = s.game
    eq = s.eq
    return [g.UNEQUIP[x] for x in s.items[s.actor] if eq >> x & 1 and x != s.force]


def do_reveal(s: McgState, action: Action) -> None:
    """``reveal card=N`` (S1.2): pay a face-down Mr. Store item's meat cost; it joins the display case."""
    card = int(action.args[0])
    p = s.actor
    price = s.game.cards.price[card]
    pay_meat(s, p, price)
    s.store[p] = tuple(x for x in s.store[p] if x != card)
    s.marks[p] += 1  # the rl observer's change mark (McgState.marks)
    s.pub &= ~(1 << card)
    if s.log is not None:
        s.emit("store", f"{s.game.seat_name(p)} reveals the Mr. Store item {s.game.card_name(card)} for {price} meat")
    gain_item(s, p, card)
    flow.advance(s)


def store_back(s: McgState, p: int, card: int, why: str) -> None:
    """A Mr. Store item leaves the display case but never for the Heap (S1.3): back face down to its
    owner, its identity now public (pulverized, or used with ``store-used=facedown``), or out of the
    game (used, ``store-used=removed``)."""
    _remove_item(s, p, card)
    if why == "used" and s.game.store_removed:
        s.gone = (*s.gone, card)
        where = "leaves the game"
    else:
        s.store[p] = tuple(sorted((*s.store[p], card)))
        s.marks[p] += 1  # the rl observer's change mark (McgState.marks)
        s.pub |= 1 << card
        where = "goes back face down"
    if s.log is not None:
        s.emit("store", f"the Mr. Store item {s.game.card_name(card)} {where} ({why})")


def do_autosell(s: McgState, action: Action) -> None:
    """B: the item goes to escrow and its AutoSell value comes from the pool."""
    card = int(action.args[0])
    p = s.actor
    value = autosell_value(s, p, card)
    _remove_item(s, p, card)
    s.escrow[p] = (*s.escrow[p], card)
    s.marks[p] += 1  # the rl observer's change mark (McgState.marks)
    got = gain_meat(s, p, value)
    if s.log is not None:
        s.tell3("autosell", said.said_autosell, p, card, got)
    flow.advance(s)


def do_use(s: McgState, action: Action) -> None:
    """C (and combat step 1's combat items): use an item's ability."""
    g = s.game
    c = g.cards
    card = int(action.args[0])
    p = s.actor
    kind = c.kind[card]
    where = ""
    if kind == K_BOARD_ITEM or (c.itype[card] not in CONSUMABLE_TYPES and not g.consume_all):
        s.used |= 1 << card  # board equipment is never used up (S3.4): once a turn
    elif kind != K_STORE:
        _remove_item(s, p, card)
        s.escrow[p] = (*s.escrow[p], card)
        s.marks[p] += 1  # the rl observer's change mark (McgState.marks)
        where = " (to escrow)"
    if s.log is not None:
        s.emit("use", f"{g.seat_name(p)} uses {g.card_name(card)}{where}")
    if kind == K_STORE and not s.used >> card & 1:
        store_back(s, p, card, "used")
    s.queue.extend((op, a, b, card, 0) for op, a, b, _ in c.effects[card])
    flow.advance(s)


def do_train(s: McgState, action: Action) -> None:
    """D: pay the skill's cost; it joins the display case (a buff arrives turned off)."""
    card = int(action.args[0])
    p = s.actor
    cost = train_cost(s, p, card)
    pay_meat(s, p, cost)
    s.trainer = tuple(-1 if x == card else x for x in s.trainer)
    s.skills[p] = (*s.skills[p], card)
    s.marks[p] += 1  # the rl observer's change mark (McgState.marks)
    trained = s.trained.copy()  # shared between clones: replace, never change in place
    trained[p] += 1
    s.trained = trained
    if modifiers.skill_adds(s, card):
        modifiers.update(s, p, (s.game.sums.skill[card],), ())
    if s.log is not None:
        s.tell3("train", said.said_train, p, card, cost)
    flow.advance(s)


def do_dive(s: McgState, action: Action) -> None:
    """G: Dumpster Dive the top of the Heap."""
    card = int(action.args[0])
    p = s.actor
    price = dive_price(s, p, card)
    pay_meat(s, p, price)
    s.heap = s.heap[:-1]
    gain_item(s, p, card)
    if s.log is not None:
        s.tell3("dive", said.said_dive, p, card, price)
    flow.advance(s)


def do_end_turn(s: McgState, action: Action) -> None:
    """No combat this turn (K3.3): the phase ends and the end of the turn begins."""
    flow.end_phase(s)
    if s.log is not None:
        s.tell1("turn", said.said_no_combat, s.actor)
    flow.start_end_of_turn(s, s.actor)
    flow.advance(s)


# -- effect choices ----------------------------------------------------------------------------------


def legal_choose(s: McgState) -> list[Action]:
    g = s.game
    value = s.queue[0][2]
    return [g.CHOOSE[t] for t in choosable_types(s, value)]


def do_choose(s: McgState, action: Action) -> None:
    """``choose type=mus``: the stat type of a gain ("of your choice")."""
    from cardtable.games.mr_card_game.effects import STAT_TYPES

    _, _, value, _, _ = s.queue.pop(0)
    t = STAT_TYPES.index(str(action.args[0]))
    gain_stat(s, s.actor, t * 4 + value - 1)
    flow.advance(s)


def legal_pulverize(s: McgState) -> list[Action]:
    g = s.game
    return [g.TARGET[card] for card in pulverize_targets(s, s.actor)]


def do_target(s: McgState, action: Action) -> None:
    """``target card=N``: Pulverize's item goes to escrow (and the Heap); a stat card of its power."""
    g = s.game
    card = int(action.args[0])
    p = s.actor
    _, t, _, src, _ = s.queue.pop(0)
    value = min(4, g.cards.anvil[card])
    if s.log is not None:
        s.emit("pulverize", f"{g.seat_name(p)} pulverizes {g.card_name(card)} (power {g.cards.anvil[card]})")
    if g.cards.kind[card] == K_STORE:
        store_back(s, p, card, "pulverized")  # O7.3: back face down, never into the Heap
    else:
        _remove_item(s, p, card)
        s.escrow[p] = (*s.escrow[p], card)
        s.marks[p] += 1  # the rl observer's change mark (McgState.marks)
    if t == CHOOSE:
        s.queue.insert(0, (GAIN_STAT, CHOOSE, value, src, 0))
    else:
        gain_stat(s, p, t * 4 + value - 1)
    flow.advance(s)


# -- why an action is refused ------------------------------------------------------------------------


def why_illegal(s: McgState, action: Action) -> str | None:
    """Why an action is refused now, in words for the deciding seat: Mr. Store, equipment and AutoSell
    here, the others in :mod:`.reasons`. Only its own cards and public ones are named (an item another
    seat holds face down, or one set aside, is "not one of your face-down Mr. Store items", never
    named). None: no particular reason."""
    from cardtable.games.mr_card_game import reasons
    from cardtable.games.mr_card_game.codes import D_NONCOMBAT, D_UNEQUIP

    g = s.game
    c = g.cards
    kind = action.kind
    if kind not in ("reveal", "equip", "unequip", "autosell") or not action.args:
        return reasons.why(s, action)
    card = int(action.args[0])
    p = s.actor
    if s.phase == D_UNEQUIP:
        new = g.card_name(s.force)
        if kind == "unequip" and card == s.force:
            return f"{new} was just equipped: unequip one of the other pieces of equipment"
        if kind == "unequip" and card in s.items[p] and s.eq >> card & 1:
            return None
        return f"four pieces of equipment are equipped after {new}: first unequip one of the others (O5)"
    if s.phase != D_NONCOMBAT:
        return "only in a non-combat phase"
    if kind == "reveal":
        if card not in s.store[p]:
            return f"card {card} is not one of your face-down Mr. Store items"
        return f"{g.card_name(card)} costs {c.price[card]} meat and you have {s.meat[p]}"
    if card not in s.items[p]:
        # A public card (the item is in no display case of this seat); hidden cards are not named.
        return f"card {card} is not in your display case"
    if kind in ("equip", "autosell") and (why := reasons.forbidden(s, p, action)) is not None:
        return why  # O2.1: a negative effect takes the action away
    if kind == "autosell" and c.autosell[card] < 0:
        return f"{g.card_name(card)} has no AutoSell value and can never be sold (O8)"
    if kind in ("equip", "unequip") and c.slot[card] < 0:
        return f"{g.card_name(card)} is not equipment"
    if kind == "equip" and s.eq >> card & 1:
        return f"{g.card_name(card)} is already equipped"
    if kind == "unequip" and not s.eq >> card & 1:
        return f"{g.card_name(card)} is not equipped"
    seen = s.eq_seen
    if kind in ("equip", "unequip") and seen:
        after = equipped_after(s, p, card) if kind == "equip" else s.eq & ~(1 << card)
        if after in seen:
            return (
                f"{kind}ping {g.card_name(card)} would bring back an arrangement of equipment you have held "
                "since your last other action: equipment changes never go round in a circle, so take the "
                "shortest way to the arrangement you want"
            )
    return None
