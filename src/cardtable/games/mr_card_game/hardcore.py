"""Hardcore combat, bosses and negative effects (clauses B2, O1, O2).

A combat is hardcore against a boss (always, when ``bosses`` is on) and, with ``hardcore=all``,
against every monster and nemesis. The defeated foe counter-attacks with its stat drop: a boss with
its value of any type (Ed the Undying: 4 of any), a monster or nemesis with its type and value (the
Hung Over Half-Orc Hobo: Muscle 2). After a Ranged Attack the counter is lowered by the power of the
equipped ranged weapon. To block it the player discards from their hand stat cards of the
counter's type (against "any": of one single type, chosen with the first card) worth at least the
counter (``block stat=mus2``, cards offered in non-increasing value, the block ending by itself
once the total is reached), or takes it (``suffer``). Only a card that can still complete the block
is offered (option ``block-discards=completing``): discarding towards a block that cannot be reached
would lose the cards for nothing; the legacy ``any`` offers every card of the type, as records made
before this reading have it. The step comes between the kill and the loot, and it is offered
whenever the counter is above 0, whatever the hand holds (the hand is hidden).

Retaliation never prevents the kill. A boss gives no item: its meat, and a stat card of its value of
a type the player chooses (``choose type=``, from a pile that is not empty). Blocked, the boss card
leaves the game; not blocked, it is flipped and its negative effect goes into the player's display
case (``state.lasting``): lasting penalties, and an ``unequip`` that happens when it arrives. A
monster or nemesis that is not blocked has no negative effect in these components (supplemental
rules: "in future expansions"), so failing to block it changes nothing (interpretation A45).

Negative effects leave by a cure (``resolve.cure``) or at a rollover, where the player may remove
one (``cure card=N`` / ``no-cure``); a removed boss card leaves the game. Under ascension, once every
boss is beaten the quest pile is built again (``boss-reset``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from cardtable.engine import Action
from cardtable.games.mr_card_game import combat, flow, modifiers, said
from cardtable.games.mr_card_game.cards import K_BOSS, STAT_CODE
from cardtable.games.mr_card_game.codes import RANGED
from cardtable.games.mr_card_game.effects import CHOOSE, GAIN_STAT, SUBTYPES, UNEQUIP
from cardtable.games.mr_card_game.endturn import kind_mask, take_kind
from cardtable.games.mr_card_game.resolve import cure_options, gain_meat, remove_negative, unequip_slot

if TYPE_CHECKING:
    from cardtable.games.mr_card_game.state import McgState

ANY_TYPE: Final = -1


def counter_attack(s: McgState, target: int) -> tuple[int, int]:
    """The counter-attack of ``target`` against the acting player: (value, stat type or -1 for any).
    (0, -1) when the combat is not hardcore; the value may be 0 or less after a Ranged Attack."""
    g = s.game
    c = g.cards
    drop = c.drop[target]
    if c.kind[target] == K_BOSS:
        value, typ = -1 - drop, ANY_TYPE
    elif g.hardcore_all and drop >= 0:
        value, typ = (drop & 3) + 1, drop >> 2
    else:
        return 0, ANY_TYPE
    if s.man == RANGED:
        # O1.3: a Ranged Attack lowers the counter by the power of the equipped ranged weapon.
        value -= ranged_weapon_power(s, s.actor)
    return value, typ


def ranged_weapon_power(s: McgState, p: int) -> int:
    """The anvil of ``p``'s equipped ranged weapon (0: none; a melee weapon gives nothing, A26)."""
    c = s.game.cards
    eq = s.eq
    return max((c.anvil[x] for x in s.items[p] if eq >> x & 1 and c.slot[x] == 0 and c.ranged[x]), default=0)


def start(s: McgState, target: int) -> bool:
    """After the kill of ``target``: open the block step if the counter is above 0 (True), else
    nothing to do (False; logged when a Ranged Attack turned it away)."""
    value, typ = counter_attack(s, target)
    hardcore = s.game.cards.kind[target] == K_BOSS or s.game.hardcore_all
    if value <= 0:
        if hardcore and s.log is not None:
            s.tell1("hardcore", said.said_turned_away, target)
        return False
    s.hc_target = target
    s.hc = value
    s.hc_type = typ
    s.hc_last = 3
    if s.log is not None:
        s.tell4("hardcore", said.said_counter, target, s.actor, typ, value)
    return True


def legal_block(s: McgState) -> list[Action]:
    """The block cards the acting player may discard next (highest type first), then ``suffer``."""
    g = s.game
    typ = s.hc_type
    hand = s.hand[s.actor]
    mask = kind_mask(s, hand)
    low = (2 << s.hc_last) - 1  # values up to the last one discarded
    out: list[Action] = []
    for t in (2, 1, 0):  # kinds in decreasing order
        if typ < 0 or t == typ:
            values = completing_values(s, hand, t) if g.complete_blocks else mask >> 4 * t & low
            out += g.BLOCK_BY[t][values]
    out.append(g.SUFFER)
    return out


def completing_values(s: McgState, hand: list[int], t: int) -> int:
    """The values of stat type ``t`` whose card can be discarded next towards the block and still
    complete it (bit v - 1 for value v): the card, with every other card of that type in ``hand`` worth
    no more than it (all that may follow it, blocking cards going from the highest down), reaches the
    ``s.hc`` still to block. A card that cannot is a discard that blocks nothing (O1.2)."""
    skind = s.game.cards.skind
    counts = [0, 0, 0, 0]
    for x in hand:
        k = skind[x]
        if k >= 0 and k >> 2 == t and k & 3 <= s.hc_last:
            counts[k & 3] += 1
    values = 0
    below = 0  # the worth of the type's cards of lower values
    for i in range(4):
        n = counts[i]
        if n and below + (i + 1) * n >= s.hc:
            values |= 1 << i
        below += (i + 1) * n
    return values


def do_block(s: McgState, action: Action) -> None:
    """``block stat=mus2``: discard a card towards the block; the block holds once the total is reached."""
    p = s.actor
    kind = STAT_CODE[action.args[0]]
    s.disc[p].append(take_kind(s, s.hand[p], kind))
    s.marks[p] += 1  # the rl observer's change mark (McgState.marks)
    s.hc_type = kind >> 2
    s.hc_last = kind & 3
    s.hc -= (kind & 3) + 1
    if s.log is not None:
        s.tell2("hardcore", said.said_block_discard, p, kind)
    if s.hc <= 0:
        if s.log is not None:
            s.tell1("hardcore", said.said_blocks, p)
        _settle(s, True)
    flow.advance(s)


def do_suffer(s: McgState, action: Action) -> None:
    """``suffer``: the counter-attack is not blocked."""
    if s.log is not None:
        s.tell1("hardcore", said.said_no_block, s.actor)
    _settle(s, False)
    flow.advance(s)


def _settle(s: McgState, blocked: bool) -> None:
    target = s.hc_target
    s.hc = 0
    s.hc_type = ANY_TYPE
    s.hc_target = -1
    combat.finish_kill(s, target, blocked)


def loot_boss(s: McgState, p: int, boss: int, blocked: bool) -> None:
    """B2.4, B2.6: a boss's loot (meat, a stat card of a chosen type, no item), then its card leaves
    the game (blocked) or its negative effect joins the display case (not blocked)."""
    g = s.game
    c = g.cards
    s.quests = s.quests[1:]
    kills = s.kills.copy()  # shared between clones: replace, never change in place
    kills[p] += 1
    s.kills = kills
    s.marks[p] += 1  # the rl observer's change mark (McgState.marks)
    got = gain_meat(s, p, c.meat[boss] + s.mods[p][modifiers.MEAT])
    log = s.log is not None
    if log:
        s.emit("loot", f"{g.seat_name(p)} loots {got} meat")
    # A stat card of the boss's value, of a type the player chooses (queued: a decision).
    s.queue.append((GAIN_STAT, CHOOSE, -1 - c.drop[boss], boss, 0))
    if blocked:
        s.gone = (*s.gone, boss)
        if log:
            s.emit("boss", f"{c.mname[boss]} leaves the game")
    else:
        suffer_negative(s, p, boss)
    if g.ascension and not s.quests:
        reset_bosses(s)


def suffer_negative(s: McgState, p: int, boss: int) -> None:
    """O2: the boss card flipped, its negative effect into ``p``'s display case (an unequip happens now)."""
    c = s.game.cards
    s.lasting[p] = (*s.lasting[p], boss)
    s.marks[p] += 1  # the rl observer's change mark (McgState.marks)
    if s.log is not None:
        s.emit(
            "boss",
            f"{s.game.seat_name(p)} suffers {c.negative_name[boss]} (an {SUBTYPES[c.subtype[boss]]})",
        )
    for op, a, _b, _c in c.effects[boss]:
        if op == UNEQUIP:
            unequip_slot(s, p, a)
    modifiers.refresh(s, p)


def reset_bosses(s: McgState) -> None:
    """O3.7 (ascension): every boss beaten: the boss cards go back to the quest pile, lowest power on
    top: those removed from the game, or (``boss-reset=all``) the negative effects in display cases too."""
    g = s.game
    c = g.cards
    back = set(x for x in s.gone if c.kind[x] == K_BOSS)
    s.gone = tuple(x for x in s.gone if x not in back)
    if g.boss_reset_all:
        for p in range(g.players):
            mine = [x for x in s.lasting[p] if c.kind[x] == K_BOSS]
            if mine:
                back.update(mine)
                s.lasting[p] = tuple(x for x in s.lasting[p] if c.kind[x] != K_BOSS)
                s.marks[p] += 1  # the rl observer's change mark (McgState.marks)
                modifiers.refresh(s, p)
    s.quests = tuple(x for x in c.bosses if x in back)
    if s.log is not None:
        s.emit("boss", f"every boss is beaten: {len(s.quests)} boss cards return to the quest pile")


# -- rollover: remove one negative effect ------------------------------------------------------------


def negatives(s: McgState, p: int) -> list[int]:
    c = s.game.cards
    return [x for x in s.lasting[p] if c.kind[x] == K_BOSS]


def legal_cure(s: McgState) -> list[Action]:
    """At a rollover (``cure_left``): any one negative effect, or none. For a cure effect at the head
    of the queue: one of the negative effects of its sub-type (it must remove one)."""
    g = s.game
    if not s.cure_left:
        return [g.CURE[x] for x in cure_options(s, s.actor, s.queue[0][1])]
    out = [g.CURE[x] for x in negatives(s, s.actor)]
    out.append(g.NO_CURE)
    return out


def do_cure(s: McgState, action: Action) -> None:
    """``cure card=N`` at a rollover (O2.2): that negative effect leaves the game (O2.3); or the
    negative effect a cure effect removes, chosen among those of its sub-type."""
    card = int(action.args[0])
    p = s.actor
    if not s.cure_left:
        s.queue.pop(0)
        remove_negative(s, p, card)
        flow.advance(s)
        return
    s.lasting[p] = tuple(x for x in s.lasting[p] if x != card)
    s.marks[p] += 1  # the rl observer's change mark (McgState.marks)
    s.gone = (*s.gone, card)
    modifiers.refresh(s, p)
    s.cure_left = False
    if s.log is not None:
        s.emit("rollover", f"{s.game.seat_name(p)} removes {s.game.cards.negative_name[card]} at the rollover")
    flow.advance(s)


def do_no_cure(s: McgState, action: Action) -> None:
    s.cure_left = False
    flow.advance(s)
