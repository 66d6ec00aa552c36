"""The combat phase: its four steps, the score against each target, and loot (clauses K7, K15).

1. Step 1 (``D_COMBAT``): combat items (``use``) and combat skills (``skill``) in any number and order.
2. Step 2: one maneuver with its first stat card (``maneuver kind=melee stat=mus3``: at least one
   card of its type, clarification 4), then more cards of that type (``play stat=mus2``; offered in
   non-increasing value so the same cards are not offered in every order) and ``done``.
3. Step 3 (``D_TARGET``): ``kill card=N`` for a monster on top of a location whose power (after
   reductions and power changes) is at most the score *against that monster*, or 0 or less
   (clarification 7); or ``end-combat``. The score depends on the target's element (K7.6).
   Without a maneuver the score is the damage of step 1 alone (clarification 5), and a monster it
   beats may be killed straight from step 1.
4. Loot (K7.7): meat, the stat card of the monster's drop into the discard pile (nothing if that pile
   is empty), and the card itself, item side up, into the display case.

Score against a monster of element e, for maneuver m (K7.3, K7.4):
``cards played + bonus[m] + bonus_vs[e][m] + this combat's bonus[m] + damage + damage_vs[e]``, where
Evasion adds the damage only with the option ``evasion-adds-damage``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardtable.engine import Action
from cardtable.games.mr_card_game import ascension, flow, hardcore, march, modifiers, said
from cardtable.games.mr_card_game.cards import E_COMBAT, K_BOSS, MOJO_X, S_COMBAT, STAT_CODE
from cardtable.games.mr_card_game.codes import (
    EVADE,
    M_TURN,
    NO_ELEMENT_BONUS,
    ST_BLOCK,
    ST_COMBAT,
    ST_MANEUVER,
    ST_TARGET,
)
from cardtable.games.mr_card_game.effects import F_MANEUVER, F_SKILL, F_USE, MANEUVER_STAT
from cardtable.games.mr_card_game.endturn import kind_mask, take_kind
from cardtable.games.mr_card_game.mojo import mojo_actions
from cardtable.games.mr_card_game.noncombat import gain_item
from cardtable.games.mr_card_game.resolve import gain_meat, gain_stat

if TYPE_CHECKING:
    from cardtable.games.mr_card_game.state import McgState


def targets(s: McgState) -> list[int]:
    """The monsters that may be chosen: the top card of every location pile, nemesis piles included
    (a location whose top was taken shows its location card until the map update), and the top boss
    of the quest pile. (Under ascension the Sorceress is a target too: see :mod:`.ascension`.)"""
    out = [t for t in s.top if t >= 0]
    if s.quests:
        out.append(s.quests[0])
    return out


def score(s: McgState, element: int) -> int:
    """The acting player's combat score against a target of ``element`` (see the module docstring)."""
    damage = s.dmg + s.dmg_vs[element]
    man = s.man
    if man < 0:
        return damage
    m = s.mods[s.actor]
    total = s.psum + m[man] + m[modifiers.VS + 4 * element + man] + s.cb[man]
    if man != EVADE or s.game.evasion_adds:
        total += damage
    return total


def power_of(s: McgState, card: int) -> int:
    """A monster's power for the acting player now: printed power, power changes on their turn, minus
    this combat's reductions."""
    c = s.game.cards
    return c.mpower[card] + s.mods[s.actor][modifiers.MPOW + c.element[card]] - s.red


def scores(s: McgState) -> list[int]:
    """:func:`score` against a target of each element, indexed by element (computed together)."""
    dmg = s.dmg
    dmg_vs = s.dmg_vs
    man = s.man
    if man < 0:
        return [dmg + d for d in dmg_vs]
    m = s.mods[s.actor]
    base = s.psum + m[man] + s.cb[man]
    vs = modifiers.VS + man
    if man != EVADE or s.game.evasion_adds:
        return [base + m[vs + 4 * e] + dmg + dmg_vs[e] for e in range(len(dmg_vs))]
    return [base + m[vs + 4 * e] for e in range(len(dmg_vs))]


def kill_actions(s: McgState) -> list[Action]:
    """``kill card=N`` for each target the acting player may kill now (K7.6, clarification 7): its
    power (:func:`power_of`) is 0 or less, or at most the score against its element (:func:`scores`,
    worked out once for all the targets)."""
    g = s.game
    c = g.cards
    mpower, element = c.mpower, c.element
    mpow = s.mods[s.actor][modifiers.MPOW :]
    red = s.red
    against = scores(s)
    kill = g.KILL
    out = []
    for t in targets(s):
        e = element[t]
        power = mpower[t] + mpow[e] - red
        if power <= 0 or against[e] >= power:
            out.append(kill[t])
    return out


def legal_step1(s: McgState) -> list[Action]:
    g = s.game
    c = g.cards
    p = s.actor
    forbid = s.mods[p][modifiers.FORBIDS]
    out: list[Action] = []
    eq, used = s.eq, s.used
    mask = kind_mask(s, s.hand[p])
    if not forbid & F_USE:
        etype, slot = c.etype, c.slot
        for card in s.items[p]:
            if etype[card] == E_COMBAT and (slot[card] < 0 or (eq >> card & 1 and not used >> card & 1)):
                out.append(g.USE[card])
    if s.skills[p] and not forbid & F_SKILL:
        pool = s.mojo
        skill0 = g.skill0
        stype, mojo = c.stype, c.mojo
        wants_mojo = False
        for card in s.skills[p]:
            if stype[card] == S_COMBAT and not used >> card & 1:
                cost = 1 if mojo[card] == MOJO_X else mojo[card]
                if cost <= pool:
                    out.append(g.SKILL[card - skill0])
                if cost > 0:
                    wants_mojo = True
        if wants_mojo:
            out += mojo_actions(s, p, mask)
    table = g.MANEUVER_BY
    for m in range(4):
        if not forbid >> (F_MANEUVER + m) & 1:
            out += table[m][mask >> 4 * MANEUVER_STAT[m] & 15]
    if s.mode == M_TURN and (
        s.dmg or s.red or s.dmg_vs != NO_ELEMENT_BONUS or g.low_power or s.tower in g.low_power_foils
    ):
        # A kill by damage alone (clarification 5) or of a monster at power 0 or less (clarification 7).
        out += kill_actions(s)
        if g.ascension and beats_sorceress(s):
            out.append(g.KILL_SORCERESS)
    out.append(g.END_COMBAT)
    return out


def legal_maneuver(s: McgState) -> list[Action]:
    g = s.game
    t = MANEUVER_STAT[s.man]
    values = kind_mask(s, s.hand[s.actor]) >> 4 * t & ((2 << s.plast) - 1)  # at most the last value played
    out = list(g.PLAY_BY[t][values])
    out.append(g.DONE)
    return out


def legal_target(s: McgState) -> list[Action]:
    g = s.game
    out = kill_actions(s)
    if g.ascension and beats_sorceress(s):
        out.append(g.KILL_SORCERESS)
    out.append(g.END_COMBAT)
    return out


def beats_sorceress(s: McgState) -> bool:
    """Ascension (O3.3): whether the acting player beats the Sorceress form of their run."""
    power = ascension.sorceress_power(s, s.actor)
    if power is None:
        return False
    power -= s.red
    return power <= 0 or score(s, 0) >= power


def do_start(s: McgState, action: Action) -> None:
    """``combat``: the non-combat phase ends (its mojo is lost) and combat begins (K3.4)."""
    flow.end_phase(s)
    flow.reset_combat(s)
    s.step = ST_COMBAT
    if s.log is not None:
        s.tell1("combat", said.said_combat, s.actor)
    flow.advance(s)


def do_maneuver(s: McgState, action: Action) -> None:
    """Step 2: the maneuver with its first card; no more combat items or skills after it."""
    s.man = ("melee", "spell", "ranged", "evade").index(str(action.args[0]))
    s.step = ST_MANEUVER
    if s.log is not None:
        s.tell2("maneuver", said.said_maneuver, s.actor, s.man)
    _play(s, STAT_CODE[action.args[1]])
    flow.advance(s)


def do_play(s: McgState, action: Action) -> None:
    _play(s, STAT_CODE[action.args[0]])
    flow.advance(s)


def _play(s: McgState, kind: int) -> None:
    p = s.actor
    s.played[p].append(take_kind(s, s.hand[p], kind))
    s.marks[p] += 1  # the rl observer's change mark (McgState.marks)
    s.psum += (kind & 3) + 1
    s.plast = kind & 3
    if s.log is not None:
        s.tell2("play", said.said_play, p, kind)


def maneuver_done(s: McgState) -> None:
    """``done`` after the maneuver's cards: step 3 (or, in the March, the total is announced)."""
    if s.mode == M_TURN:
        s.step = ST_TARGET
        flow.advance(s)
    else:
        march.combat_done(s)


def do_kill(s: McgState, action: Action) -> None:
    """Step 3 then 4: kill the chosen monster and loot it; the combat (and the phase) ends."""
    g = s.game
    c = g.cards
    t = int(action.args[0])
    p = s.actor
    if s.log is not None:
        s.tell4("kill", said.said_kill, p, t, power_of(s, t), score(s, c.element[t]))
    if hardcore.start(s, t):
        s.step = ST_BLOCK  # the block comes between the kill and the loot (O1.2)
        flow.advance(s)
        return
    finish_kill(s, t, True)
    flow.advance(s)


def finish_kill(s: McgState, t: int, blocked: bool) -> None:
    """Step 4 after the (hardcore) counter-attack is settled: the loot, then the combat ends (the
    caller runs the flow)."""
    p = s.actor
    if s.game.cards.kind[t] == K_BOSS:
        hardcore.loot_boss(s, p, t, blocked)
    else:
        if not blocked and s.log is not None:
            s.emit("hardcore", "no negative effect comes with this counter-attack (none in these components)")
        loot(s, p, t)
    flow.end_phase(s)
    flow.start_end_of_turn(s, p)


def loot(s: McgState, p: int, t: int) -> None:
    """K7.7: meat (plus meat bonuses), the stat drop, and the item side into the display case."""
    c = s.game.cards
    li = c.loc[t]
    top = s.top.copy()  # shared between clones: replace, never change in place
    top[li] = -1
    s.top = top
    s.taken |= 1 << li
    kills = s.kills.copy()
    kills[p] += 1
    s.kills = kills
    s.marks[p] += 1  # the rl observer's change mark (McgState.marks)
    got = gain_meat(s, p, c.meat[t] + s.mods[p][modifiers.MEAT])
    if s.log is not None:
        s.tell2("loot", said.said_loot_meat, p, got)
    if c.drop[t] >= 0:
        gain_stat(s, p, c.drop[t])
    gain_item(s, p, t)
    if s.log is not None:
        s.tell2("loot", said.said_loot_item, p, t)


def do_end_combat(s: McgState, action: Action) -> None:
    """``end-combat``: no kill (declined, or nothing beaten); in the March, announce the total now."""
    if s.mode != M_TURN:
        march.combat_done(s)
        return
    if s.log is not None:
        s.tell1("combat", said.said_no_kill, s.actor)
    _end_combat(s)


def _end_combat(s: McgState) -> None:
    flow.end_phase(s)
    flow.start_end_of_turn(s, s.actor)
    flow.advance(s)
