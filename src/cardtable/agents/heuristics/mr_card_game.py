"""A Mr. Card Game player a casual player would recognise.

It decides from one state sampled from its observation (``obs.sample``: its own hand is true, what it
cannot see is resampled), never from the true state:

* it builds around one maneuver (the one its bonuses and stat cards favour most);
* in the non-combat phase it equips its best equipment, eats and drinks what gives stat cards, sells
  what it no longer uses, trains the affordable skills that help its maneuver (best value for the
  meat first), turns on buffs when it can pay for them with Mysticality it does not fight with, and
  dives the Heap for a good item it can afford;
* in combat it kills the best monster it can reach (power, meat, stat drop and item), playing as
  few cards as it needs (keeping the rest for the March), with combat items and skills only when
  they make a better kill possible;
* at the end of a turn it discards off-type low cards, and at rollover upgrades its main stat;
* it marches only when a simulation of its own March (buffs off, then its best non-combat phase,
  combat abilities and maneuver) reaches the Sorceress.

:func:`rollout_rewards` scores a position for ISMCTS (each seat's chance to win); ``CARD_USES`` of
the game says which actions per-card statistics count.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, Final

from cardtable.agents.base import Agent, Observation
from cardtable.engine import Action, OptionError
from cardtable.games.mr_card_game import modifiers
from cardtable.games.mr_card_game.ascension import sorceress_power
from cardtable.games.mr_card_game.cards import (
    E_COMBAT,
    E_PASSIVE,
    K_BOSS,
    S_BUFF,
    S_COMBAT,
    S_NONCOMBAT,
    S_PASSIVE,
    T_ACCESSORY,
)
from cardtable.games.mr_card_game.codes import (
    D_BLOCK,
    D_CHOOSE,
    D_CLASS,
    D_COMBAT,
    D_CURE,
    D_DISCARD,
    D_LIMIT,
    D_MANEUVER,
    D_NONCOMBAT,
    D_PERM,
    D_POLL,
    D_PULVERIZE,
    D_SIDE,
    D_SPELLX,
    D_TARGET,
    D_UNEQUIP,
    D_UPGRADE,
    EVADE,
    M_MARCH,
    M_TURN,
    RANGED,
    SPELL,
    ST_COMBAT,
    ST_TARGET,
)
from cardtable.games.mr_card_game.combat import power_of, targets
from cardtable.games.mr_card_game.effects import (
    ANY,
    AUTOSELL_BONUS,
    BONUS,
    BONUS_VS,
    CURE,
    DAMAGE,
    DAMAGE_PER_MOJO,
    DAMAGE_POWER,
    DAMAGE_VS,
    DIVE_COST,
    DRAW,
    EXTRA_UPGRADE,
    F_MANEUVER,
    FORBID,
    GAIN_MEAT,
    GAIN_STAT,
    MANEUVER_STAT,
    MEAT_BONUS,
    MONSTER_POWER,
    PULVERIZE,
    REDUCE_POWER,
    RESIST,
    SKILL_COST,
    UNEQUIP,
    UPGRADE_STAT,
)
from cardtable.games.mr_card_game.hardcore import ranged_weapon_power
from cardtable.games.mr_card_game.march import qualifies, sorceress_card
from cardtable.games.mr_card_game.mojo import cost_of, mys_in_hand
from cardtable.games.mr_card_game.noncombat import equipped_count
from cardtable.games.mr_card_game.resolve import equipped_power
from cardtable.games.mr_card_game.state import McgState

SORCERESS: Final = -2
"""``plan``'s target code for the Sorceress form of the player's run (ascension: ``kill-sorceress``)."""
SORCERESS_VALUE: Final = 100.0
"""What defeating the Sorceress of one's run is worth to ``plan`` (ascension): more than any monster."""
QUEST_BONUS: Final = 3.0
"""Extra value of a boss when the quests must be done before anyone may March (quests-before-march)."""
NEGATIVE_TURNS: Final = 1.5
"""A negative effect stays about this long (one leaves at each rollover): its cost is its value times this."""
KEEP_MAIN: Final = 0.6
KEEP_OFF: Final = 0.25
"""The cost of discarding a stat card (per point of value) of the main type, and of another type."""
_FORBID_COST = (3.0, 1.0, 1.0, 2.5, 1.5, 1.5, 1.5)
"""The cost of losing train, dive, autosell, equip, use, skill, buff (``effects.FORBIDDABLE`` order)."""
MANEUVER_FORBIDS: Final = F_MANEUVER
"""``FORBIDDABLE`` index of maneuver:melee (the others follow)."""
RUN_VALUE: Final = 25.0
""":func:`strength` of a completed ascension run (about a Sorceress form's power)."""
# How long the March simulation may run (decisions), a safety net only.
MARCH_SIM_LIMIT: Final = 400


# -- reading a position ------------------------------------------------------------------------------


def _value(kind: int) -> int:
    return (kind & 3) + 1


def collection(st: McgState, p: int) -> list[int]:
    """Every stat card ``p`` owns (hand, deck, discard pile, played)."""
    return [*st.hand[p], *st.deck[p], *st.disc[p], *st.played[p]]


def type_values(st: McgState, p: int) -> list[int]:
    """Total stat value per type (Muscle, Mysticality, Moxie) in ``p``'s collection."""
    skind = st.game.cards.skind
    out = [0, 0, 0]
    for card in collection(st, p):
        k = skind[card]
        out[k >> 2] += _value(k)
    return out


def main_maneuver(st: McgState, p: int) -> int:
    """The maneuver ``p`` builds around: bonuses plus the stat value that feeds it."""
    m = st.mods[p]
    tv = type_values(st, p)
    scores = [m[i] * 3 + tv[MANEUVER_STAT[i]] for i in range(4)]
    if not st.game.evasion_adds:
        scores[EVADE] -= 1  # Evasion gets no damage from combat items and skills
    return max(range(4), key=lambda i: scores[i])


def effects_worth(effects: tuple[tuple[int, int, int, int], ...], man: int) -> float:
    """What lasting effects (a class ability, a passive item, a negative effect, a global effect) are
    worth to a player building around maneuver ``man``, in :func:`item_worth` units (a point of the
    main maneuver is 3); penalties count negative. Instants count 0 here."""
    worth = 0.0
    for op, a, b, c in effects:
        if op == BONUS:
            worth += b * (3.0 if a == man else 0.5)
        elif op == BONUS_VS:
            worth += c * (0.6 if b == man else 0.1)
        elif op == RESIST:
            worth += b * (0.6 if man == EVADE else 0.1)
        elif op == MONSTER_POWER:
            worth -= b * (3.0 if a == ANY else 0.6)
        elif op == MEAT_BONUS:
            worth += 1.5 * a
        elif op == SKILL_COST:
            worth -= a
        elif op == AUTOSELL_BONUS:
            worth += 0.5 * a
        elif op == DIVE_COST:
            worth -= 0.5 * a
        elif op == EXTRA_UPGRADE:
            worth += 2.0 * a
        elif op == FORBID:
            if a >= MANEUVER_FORBIDS:
                worth -= 6.0 if a - MANEUVER_FORBIDS == man else 0.3
            else:
                worth -= _FORBID_COST[a]
        elif op == UNEQUIP:
            worth -= 1.5
    return worth


def negative_cost(st: McgState, card: int, man: int) -> float:
    """What suffering the negative effect on boss card ``card`` costs a player building around
    ``man`` (never nothing: every negative effect is a penalty of some kind)."""
    return max(0.5, -effects_worth(st.game.cards.effects[card], man)) * NEGATIVE_TURNS


def item_worth(st: McgState, card: int, man: int) -> float:
    """How much an item helps a player building around maneuver ``man``."""
    c = st.game.cards
    icons = c.icons[card]
    worth = icons[man] * 3.0 + sum(icons) * 0.5 + c.anvil[card] * 0.3
    if c.etype[card] == E_PASSIVE:
        worth += effects_worth(c.effects[card], man)
    for op, a, b, _ in c.effects[card]:
        if op in (DAMAGE, REDUCE_POWER):
            worth += a
        elif op == DAMAGE_VS:
            worth += b * 0.4
        elif op == GAIN_STAT:
            worth += b
    return worth


def monster_value(st: McgState, card: int, man: int) -> float:
    """What killing ``card`` is worth: its power (a proxy for the loot), meat, stat and item. A boss
    gives no item but a stat card of a type of one's choice (and, with quests-before-march, opens
    the March); a nemesis no meat but its epic item."""
    c = st.game.cards
    drop = c.drop[card]
    if c.kind[card] == K_BOSS:
        value = c.mpower[card] * 0.5 + c.meat[card] + (-1 - drop) * 2.5
        return value + (QUEST_BONUS if st.game.quests_first else 0.0)
    stat = _value(drop) if drop >= 0 else 0
    return c.mpower[card] * 0.5 + c.meat[card] + stat * 2.0 + item_worth(st, card, man)


def skill_worth(st: McgState, card: int, man: int) -> float:
    c = st.game.cards
    st_ = c.stype[card]
    icons = c.icons[card]
    worth = icons[man] * 3.0 + sum(icons) * 0.4
    for op, a, _b, _ in c.effects[card]:
        if op in (DAMAGE, REDUCE_POWER, DAMAGE_PER_MOJO):
            worth += a * 1.5
        elif op == DAMAGE_POWER:
            worth += 3.0
        elif op == MEAT_BONUS:
            worth += 1.5 * a
        elif op in (GAIN_MEAT, GAIN_STAT, DRAW, UPGRADE_STAT):
            worth += 1.0
    if st_ in (S_PASSIVE, S_BUFF):
        worth += effects_worth(c.effects[card], man)
    if st_ == S_BUFF:
        worth *= 0.8
    elif st_ == S_PASSIVE:
        worth *= 1.2
    return worth


def _damage_of(st: McgState, p: int, card: int) -> int:
    """The damage an activated combat item or skill would add (roughly: X spells count 2)."""
    c = st.game.cards
    total = 0
    for op, a, _b, _ in c.effects[card]:
        if op in (DAMAGE, REDUCE_POWER):
            total += a
        elif op == DAMAGE_POWER:
            total += equipped_power(st, p, a)
        elif op == DAMAGE_PER_MOJO:
            total += 2 * a
    return total


# -- a combat plan -----------------------------------------------------------------------------------


def _base(st: McgState, p: int, man: int, element: int) -> int:
    """Score from everything but the cards still to play, for ``man`` against ``element``."""
    m = st.mods[p]
    total = m[man] + m[modifiers.VS + 4 * element + man] + st.cb[man] + (st.psum if st.man == man else 0)
    if man != EVADE or st.game.evasion_adds:
        total += st.dmg + st.dmg_vs[element]
    return total


def hardcore_risk(st: McgState, p: int, target: int, man: int, left: list[int], main: int) -> float:
    """What the counter-attack of ``target`` is expected to cost ``p`` after a kill with maneuver
    ``man`` (-1: damage alone) leaving ``left`` stat value of each type in hand: the cheapest block
    (cards discarded) when the hand can make it, else the negative effect. 0 when nothing comes of
    it: the Sorceress, a combat that is not hardcore, and a monster's or nemesis's counter-attack
    under hardcore=all (no negative effect in these components, interpretation A45)."""
    c = st.game.cards
    if target < 0 or c.kind[target] != K_BOSS:
        return 0.0
    value = -1 - c.drop[target]
    if man == RANGED:
        value -= ranged_weapon_power(st, p)  # O1.3
    if value <= 0:
        return 0.0
    main_type = MANEUVER_STAT[main]
    blocks = [value * (KEEP_MAIN if t == main_type else KEEP_OFF) for t in range(3) if left[t] >= value]
    return min([negative_cost(st, target, main), *blocks])


def saving(st: McgState, p: int) -> bool:
    """Ascension: whether ``p`` is saving its hand for the Sorceress of its run: the six best cards
    of its main type it owns, with its bonus, would beat her (then it does not spend them on
    monsters and cycles its low cards)."""
    if not st.game.ascension:
        return False
    power = sorceress_power(st, p)
    if power is None:
        return False
    main = main_maneuver(st, p)
    t = MANEUVER_STAT[main]
    skind = st.game.cards.skind
    vals = sorted((_value(skind[x]) for x in collection(st, p) if skind[x] >> 2 == t), reverse=True)
    return st.mods[p][main] + sum(vals[:6]) >= power


def plan(st: McgState, p: int, extra: int = 0) -> tuple[float, int, int, int] | None:
    """The best kill ``p`` can make now: (value, target, maneuver, cards to play) or None.

    ``extra`` adds damage (from combat items or skills not yet used) to every score. The target may
    be :data:`SORCERESS` (ascension: the Sorceress form of ``p``'s run). A kill's value is the loot
    less the expected cost of a hardcore counter-attack; kills worth nothing are not planned.
    """
    c = st.game.cards
    skind = c.skind
    by_type: list[list[int]] = [[], [], []]
    for card in st.hand[p]:
        k = skind[card]
        by_type[k >> 2].append(_value(k))
    for vals in by_type:
        vals.sort(reverse=True)
    totals = [sum(vals) for vals in by_type]
    main = main_maneuver(st, p)
    save = saving(st, p)
    best: tuple[float, int, int, int] | None = None
    mans = [st.man] if st.man >= 0 else [m for m in range(4) if by_type[MANEUVER_STAT[m]]]
    foes = [(t, power_of(st, t), c.element[t], monster_value(st, t, main)) for t in targets(st)]
    if st.game.ascension:
        power = sorceress_power(st, p)
        if power is not None:
            foes.append((SORCERESS, power - st.red, 0, SORCERESS_VALUE))
    for t, power, elem, value in foes:
        if power <= 0 or (st.dmg + st.dmg_vs[elem] + extra >= power and st.man < 0):
            worth = value + 0.5 - hardcore_risk(st, p, t, st.man, totals, main)
            cand = (worth, t, -1, 0)
            if worth > 0 and (best is None or cand > best):
                best = cand
            continue
        for man in mans:
            vals = by_type[MANEUVER_STAT[man]]
            have = _base(st, p, man, elem) + (extra if man != EVADE or st.game.evasion_adds else 0)
            need = power - have
            n = 0
            total = 0
            allowed = [v for v in vals if st.man < 0 or v - 1 <= st.plast]
            for v in allowed:
                if total >= need and (n > 0 or (st.man >= 0 and st.psum > 0)):
                    break
                total += v
                n += 1
            if total >= need and (n > 0 or (st.man >= 0 and st.psum > 0)):
                left = list(totals)
                left[MANEUVER_STAT[man]] -= sum(allowed[:n])
                worth = value - 0.3 * n - hardcore_risk(st, p, t, man, left, main)
                if save and t != SORCERESS and MANEUVER_STAT[man] == MANEUVER_STAT[main]:
                    worth -= 1.5 * sum(allowed[:n])  # the cards it saves for the Sorceress
                cand = (worth, t, man, n)
                if worth > 0 and (best is None or cand > best):
                    best = cand
    return best


# -- the agent ---------------------------------------------------------------------------------------


class Heuristic(Agent):
    """The rule-of-thumb player described in the module docstring. No options."""

    name = "heuristic"

    def __init__(self, seed: int = 0, **options: Any) -> None:
        super().__init__(seed)
        if options:
            raise OptionError(f"heuristic agent for mr-card-game takes no options, got {', '.join(options)}")

    def choose(self, obs: Observation) -> Action:
        legal = obs.legal_actions()
        if len(legal) == 1:
            return legal[0]
        st = obs.sample(self.rng)
        assert isinstance(st, McgState)
        return decide(st, obs.seat, legal)


def _find(legal: list[Action], kind: str, arg: object = None) -> Action | None:
    for a in legal:
        if a.kind == kind and (arg is None or a.args[0] == arg):
            return a
    return None


def decide(st: McgState, me: int, legal: list[Action]) -> Action:
    """The heuristic's choice in ``st`` (a full state: a sample of what ``me`` may know)."""
    ph = st.phase
    if st.mode == M_MARCH and ph in (D_NONCOMBAT, D_COMBAT, D_MANEUVER, D_SPELLX):
        man = best_march_maneuver(st, me)
        return march_policy(st, me, legal, man)
    if ph == D_POLL:
        return legal[0] if can_win_march(st, me) else _find(legal, "pass") or legal[-1]
    if ph == D_NONCOMBAT:
        return noncombat_choice(st, me, legal)
    if ph == D_COMBAT:
        return combat_choice(st, me, legal)
    if ph == D_MANEUVER:
        return maneuver_choice(st, me, legal)
    if ph == D_TARGET:
        return target_choice(st, me, legal)
    if ph == D_SPELLX:
        return legal[-1]  # as much as it can
    if ph == D_CHOOSE:
        want = MANEUVER_STAT[main_maneuver(st, me)]
        return _find(legal, "choose", ("mus", "mys", "mox")[want]) or legal[0]
    if ph == D_PULVERIZE:
        main = main_maneuver(st, me)
        return min(legal, key=lambda a: item_worth(st, int(a.args[0]), main))
    if ph == D_UPGRADE:
        return upgrade_choice(st, me, legal)
    if ph in (D_DISCARD, D_LIMIT):
        return discard_choice(st, me, legal, ph == D_LIMIT)
    if ph == D_BLOCK:
        return block_choice(st, me, legal)
    if ph == D_CURE:
        return cure_choice(st, me, legal)
    if ph == D_UNEQUIP:
        return unequip_choice(st, me, legal)
    if ph == D_PERM:
        return perm_choice(st, me, legal)
    if ph in (D_CLASS, D_SIDE):
        return class_choice(st, me, legal)
    return legal[0]


def activate_or_make_mojo(st: McgState, me: int, legal: list[Action], kind: str, card: int) -> Action | None:
    """The action activating ``card`` (``kind`` skill or buff) now, else the Mysticality card to
    discard for mojo towards its cost (the smallest that covers it, else the largest); None when the
    hand cannot pay for it or it is not available."""
    want = _find(legal, kind, card)
    if want is not None:
        return want
    need = cost_of(st, card) - st.mojo
    mojos = [(int(str(a.args[0])[3]), a) for a in legal if a.kind == "mojo"]
    if need <= 0 or not mojos or mys_in_hand(st, me) < need:
        return None
    mojos.sort(key=lambda va: va[0])
    for v, a in mojos:
        if v >= need:
            return a
    return mojos[-1][1]


def _usable(st: McgState, me: int, card: int, stype: int) -> bool:
    """An owned skill of ``stype`` that may still be activated this turn (buffs: not on yet)."""
    c = st.game.cards
    if c.stype[card] != stype:
        return False
    if stype == S_BUFF:
        return not st.buffs >> card & 1
    return not st.used >> card & 1


def noncombat_choice(st: McgState, me: int, legal: list[Action]) -> Action:
    g = st.game
    c = g.cards
    main = main_maneuver(st, me)
    eq = st.eq
    # 1. Equip the best item of each slot (over the three-equipment limit only to replace the worst).
    equips = [(equip_gain(st, me, int(a.args[0]), main), a) for a in legal if a.kind == "equip"]
    if equips:
        gain, a = max(equips, key=lambda ga: ga[0])
        if gain > 0.1:
            return a
    # 2. Eat and drink what gives stat cards (and other non-combat items).
    for a in legal:
        if a.kind == "use":
            card = int(a.args[0])
            if c.slot[card] < 0 or not g.consume_all:
                return a
    # 2b. Reveal a Mr. Store item that helps (what it adds over what it would replace).
    reveals = [(reveal_gain(st, me, int(a.args[0]), main), a) for a in legal if a.kind == "reveal"]
    if reveals:
        gain, a = max(reveals, key=lambda ga: ga[0])
        if gain >= 3.0:
            return a
    # 3. Train the best affordable skill (value for the meat).
    trains = [a for a in legal if a.kind == "train"]
    if trains:
        best = max(trains, key=lambda a: skill_worth(st, int(a.args[0]), main) / (1 + c.cost[int(a.args[0])]))
        card = int(best.args[0])
        # With class piles only a bought top turns up a new skill: with meat to spare it buys one to dig.
        if skill_worth(st, card, main) >= 1.0 or (g.class_trainer and st.meat[me] >= 2 * c.cost[card] + 5):
            return best
    # 4. Sell what it no longer uses: unequipped equipment (worse than what is equipped).
    for a in legal:
        if a.kind == "autosell":
            card = int(a.args[0])
            if c.slot[card] >= 0 and not eq >> card & 1:
                return a
    # 5. Dumpster Dive a good item.
    for a in legal:
        if a.kind == "dive" and item_worth(st, int(a.args[0]), main) >= 4.0:
            return a
    # 6. Buffs for the main maneuver, paid with Mysticality it does not fight with.
    if main != SPELL:
        for card in st.skills[me]:
            if _usable(st, me, card, S_BUFF) and (
                c.icons[card][main] > 0 or any(op == MEAT_BONUS for op, *_ in c.effects[card])
            ):
                pick = activate_or_make_mojo(st, me, legal, "buff", card)
                if pick is not None:
                    return pick
    # 7. Non-combat skills that give something (meat, stats, cards), when Mysticality is spare.
    if main != SPELL:
        for card in st.skills[me]:
            if _usable(st, me, card, S_NONCOMBAT) and not any(op == PULVERIZE for op, *_ in c.effects[card]):
                pick = activate_or_make_mojo(st, me, legal, "skill", card)
                if pick is not None:
                    return pick
    return _find(legal, "combat") or _find(legal, "done") or legal[-1]


def equip_gain(st: McgState, me: int, card: int, man: int) -> float:
    """What equipping ``card`` adds: its worth over the item of its slot, or, when three pieces are
    equipped already (O5), over the least useful one (which the forced unequip takes off)."""
    c = st.game.cards
    eq = st.eq
    sl = c.slot[card]
    worth = item_worth(st, card, man)
    current = [x for x in st.items[me] if eq >> x & 1 and c.slot[x] == sl and sl != T_ACCESSORY]
    if current:
        return worth - max(item_worth(st, x, man) for x in current)
    if equipped_count(st, me) >= 3:
        return worth - min(item_worth(st, x, man) for x in st.items[me] if eq >> x & 1)
    return worth


def reveal_gain(st: McgState, me: int, card: int, man: int) -> float:
    """What revealing the face-down Mr. Store item ``card`` brings: for equipment what equipping it
    adds, for a cure the worst negative effect it would remove, else what the item is worth."""
    c = st.game.cards
    if c.slot[card] >= 0:
        return equip_gain(st, me, card, man)
    worth = item_worth(st, card, man)
    if any(op == CURE for op, *_ in c.effects[card]):
        worth += max((negative_cost(st, x, man) for x in negatives(st, me)), default=-1.0)
    return worth


def combat_choice(st: McgState, me: int, legal: list[Action]) -> Action:
    best = plan(st, me)
    if best is not None:
        _, t, man, _ = best
        if man < 0:
            a = _find(legal, "kill-sorceress") if t == SORCERESS else _find(legal, "kill", t)
            if a is not None:
                return a
        else:
            a = _find(legal, "maneuver", ("melee", "spell", "ranged", "evade")[man])
            if a is not None:
                return a
    # Nothing (good) in reach: would a combat item or skill make a kill possible?
    items = [int(a.args[0]) for a in legal if a.kind == "use"]
    skills = [x for x in st.skills[me] if _usable(st, me, x, S_COMBAT)]
    helpers = [x for x in (*items, *skills) if _damage_of(st, me, x) > 0]
    if helpers:
        extra = sum(_damage_of(st, me, x) for x in helpers)
        if plan(st, me, extra) is not None:
            for card in sorted(helpers, key=lambda x: -_damage_of(st, me, x)):
                use = card in items
                a = _find(legal, "use", card) if use else activate_or_make_mojo(st, me, legal, "skill", card)
                if a is not None:
                    return a
    return _find(legal, "end-combat") or legal[-1]


def target_choice(st: McgState, me: int, legal: list[Action]) -> Action:
    """Step 3: the Sorceress of its run if it can (ascension), else the kill worth most after the
    hardcore risk (a kill worth nothing is declined)."""
    sorceress = _find(legal, "kill-sorceress")
    if sorceress is not None:
        return sorceress
    kills = [a for a in legal if a.kind == "kill"]
    if not kills:
        return legal[-1]
    main = main_maneuver(st, me)
    left = [0, 0, 0]
    skind = st.game.cards.skind
    for x in st.hand[me]:
        left[skind[x] >> 2] += _value(skind[x])

    def worth(a: Action) -> float:
        t = int(a.args[0])
        return monster_value(st, t, main) - hardcore_risk(st, me, t, st.man, left, main)

    best = max(kills, key=worth)
    return best if worth(best) > 0 else (_find(legal, "end-combat") or best)


def maneuver_choice(st: McgState, me: int, legal: list[Action]) -> Action:
    best = plan(st, me)
    plays = [a for a in legal if a.kind == "play"]
    if best is not None and best[3] == 0 and _find(legal, "done") is not None:
        return _find(legal, "done") or legal[-1]
    if plays:
        return plays[0]  # the highest value first (legal lists them in non-increasing value)
    return _find(legal, "done") or legal[-1]


def discard_choice(st: McgState, me: int, legal: list[Action], forced: bool) -> Action:
    main_type = MANEUVER_STAT[main_maneuver(st, me)]
    discards = [a for a in legal if a.kind == "discard"]
    off = []
    for a in discards:
        kind = str(a.args[0])
        t = ("mus", "mys", "mox").index(kind[:3])
        v = int(kind[3])
        keep_mys = t == 1 and any(st.game.cards.stype[x] in (S_BUFF, S_COMBAT) for x in st.skills[me])
        if t != main_type and not keep_mys and (v <= 2 or forced):
            off.append((v, a))
        elif t == main_type and v <= 2 and not forced and saving(st, me):
            off.append((v + 4, a))  # cycle the low cards of its type towards a hand for the Sorceress
    if off:
        return min(off, key=lambda x: x[0])[1]
    if forced:
        return min(discards, key=lambda a: (str(a.args[0])[:3] == ("mus", "mys", "mox")[main_type], a.args[0]))
    return _find(legal, "done") or legal[-1]


def upgrade_choice(st: McgState, me: int, legal: list[Action]) -> Action:
    main_type = ("mus", "mys", "mox")[MANEUVER_STAT[main_maneuver(st, me)]]
    best: tuple[int, Action] | None = None
    for a in legal:
        if a.kind != "upgrade":
            continue
        frm, to = str(a.args[0]), str(a.args[1])
        gain = 0
        if to[:3] == main_type:
            gain = int(to[3]) * 2 + (3 if frm[:3] != main_type else 1)
        if gain and (best is None or gain > best[0]):
            best = (gain, a)
    return best[1] if best else (_find(legal, "no-upgrade") or legal[-1])


# -- the supplemental decisions ------------------------------------------------------------------------


def negatives(st: McgState, p: int) -> list[int]:
    """The boss cards in ``p``'s display case negative effect side up."""
    kind = st.game.cards.kind
    return [x for x in st.lasting[p] if kind[x] == K_BOSS]


def block_choice(st: McgState, me: int, legal: list[Action]) -> Action:
    """Hardcore (O1): block the counter-attack when the negative effect costs more than the stat cards
    it takes (the cheapest type that reaches the counter, smallest card that finishes it, else the
    largest); take it when it brings no negative effect or the hand cannot block it."""
    g = st.game
    c = g.cards
    suffer = _find(legal, "suffer") or legal[-1]
    target = st.hc_target
    if target < 0 or c.kind[target] != K_BOSS:
        return suffer  # A45: a monster's or nemesis's counter-attack brings no negative effect
    main = main_maneuver(st, me)
    main_type = MANEUVER_STAT[main]
    by_type: list[list[tuple[int, Action]]] = [[], [], []]
    for a in legal:
        if a.kind == "block":
            kind = str(a.args[0])
            by_type[("mus", "mys", "mox").index(kind[:3])].append((int(kind[3]), a))
    need = st.hc
    hand: list[list[int]] = [[], [], []]
    for x in st.hand[me]:
        k = c.skind[x]
        if (k & 3) <= st.hc_last:
            hand[k >> 2].append(_value(k))
    best: tuple[float, int] | None = None
    for t in range(3):
        if not by_type[t] or sum(hand[t]) < need:
            continue
        spent = 0
        rest = sorted(hand[t], reverse=True)
        while rest and spent < need:  # what the greedy choice below discards
            fit = [w for w in rest if w >= need - spent]
            pick = min(fit) if fit else rest[0]
            rest.remove(pick)
            spent += pick
        cost = spent * (KEEP_MAIN if t == main_type else KEEP_OFF)
        if best is None or cost < best[0]:
            best = (cost, t)
    if best is None or best[0] >= negative_cost(st, target, main):
        return suffer
    options = by_type[best[1]]
    enough = [va for va in options if va[0] >= need]
    return min(enough, key=lambda va: va[0])[1] if enough else max(options, key=lambda va: va[0])[1]


def cure_choice(st: McgState, me: int, legal: list[Action]) -> Action:
    """Rollover (O2.2): remove the negative effect that costs most."""
    cures = [a for a in legal if a.kind == "cure"]
    if not cures:
        return legal[-1]
    main = main_maneuver(st, me)
    return max(cures, key=lambda a: negative_cost(st, int(a.args[0]), main))


def unequip_choice(st: McgState, me: int, legal: list[Action]) -> Action:
    """A fourth piece of equipment (O5.2): take off the least useful (in the March: for its maneuver)."""
    c = st.game.cards
    if st.mode == M_MARCH:
        man = best_march_maneuver(st, me)
        return min(legal, key=lambda a: (c.icons[int(a.args[0])][man], item_worth(st, int(a.args[0]), man)))
    main = main_maneuver(st, me)
    return min(legal, key=lambda a: item_worth(st, int(a.args[0]), main))


def perm_choice(st: McgState, me: int, legal: list[Action]) -> Action:
    """Ascension (O3.4): perm the trained skill worth most to it (it keeps it through every run)."""
    perms = [a for a in legal if a.kind == "perm"]
    if not perms:
        return legal[-1]
    main = main_maneuver(st, me)
    return max(perms, key=lambda a: skill_worth(st, int(a.args[0]), main))


def class_worth(st: McgState, p: int, card: int) -> float:
    """What class card or board ``card`` (class side up) is worth to ``p`` over playing without a
    class (boards: over the newbie gear), for the maneuver it fits best given ``p``'s bonuses and
    stat cards."""
    c = st.game.cards
    m = st.mods[p]
    tv = type_values(st, p)
    fit = [m[i] * 3 + tv[MANEUVER_STAT[i]] for i in range(4)]
    top = max(fit)
    best = -math.inf
    for man in range(4):
        worth = effects_worth(c.effects[card], man)
        if card in c.class_boards:
            worth += sum(item_worth(st, x, man) for x in c.board_items[c.class_boards.index(card)])
            worth -= sum(item_worth(st, x, man) for x in c.newbie[(p - st.first) % st.game.players])
        best = max(best, worth + 0.3 * (fit[man] - top))
    return best


def class_choice(st: McgState, me: int, legal: list[Action]) -> Action:
    """A board's side at setup (S3.2) or a new class after an ascension run (S2.3, S3.5): the class
    that fits its stats best, or the Mr. Card Game side when no class side beats the newbie gear."""
    options: list[tuple[float, Action]] = []
    for a in legal:
        if a.kind == "class":
            options.append((class_worth(st, me, int(a.args[0])), a))
        elif a.kind == "side":
            board = st.klass[me]
            worth = class_worth(st, me, board) if str(a.args[0]) == "class" and board >= 0 else 0.0
            options.append((worth, a))
    if not options:
        return legal[0]
    return max(options, key=lambda wa: wa[0])[1]


# -- the March ---------------------------------------------------------------------------------------


def march_policy(st: McgState, me: int, legal: list[Action], man: int, train: bool = True) -> Action:
    """Greedy best total for the March with maneuver ``man``. With ``train=False`` it counts only on
    its own cards (not on trainer skills another marcher might buy first)."""
    g = st.game
    c = g.cards
    ph = st.phase
    if ph == D_SPELLX:
        return legal[-1]
    if ph == D_NONCOMBAT:
        eq = st.eq
        for a in legal:
            if a.kind in ("equip", "reveal"):
                card = int(a.args[0])
                sl = c.slot[card]
                if sl < 0:
                    continue
                current = [x for x in st.items[me] if eq >> x & 1 and c.slot[x] == sl and sl != T_ACCESSORY]
                if not current and equipped_count(st, me) >= 3:
                    current = [min((x for x in st.items[me] if eq >> x & 1), key=lambda x: c.icons[x][man])]
                better = not current or c.icons[card][man] > max(c.icons[x][man] for x in current)
                if better and (a.kind == "equip" or c.icons[card][man] > 0):
                    return a
        trains = [a for a in legal if a.kind == "train"]
        useful = [
            a for a in trains if train and c.stype[int(a.args[0])] == S_PASSIVE and c.icons[int(a.args[0])][man] > 0
        ]
        if useful:
            return max(useful, key=lambda a: c.icons[int(a.args[0])][man])
        if man != SPELL:
            buffs = [x for x in st.skills[me] if _usable(st, me, x, S_BUFF) and c.icons[x][man] > 0]
            for card in sorted(buffs, key=lambda x: -c.icons[x][man]):
                pick = activate_or_make_mojo(st, me, legal, "buff", card)
                if pick is not None:
                    return pick
        return _find(legal, "done") or legal[-1]
    if ph == D_COMBAT:
        if man != EVADE or g.evasion_adds:
            for a in legal:
                if a.kind == "use" and c.etype[int(a.args[0])] == E_COMBAT and _damage_of(st, me, int(a.args[0])) > 0:
                    return a
            for card in st.skills[me]:
                if _usable(st, me, card, S_COMBAT) and _damage_of(st, me, card) >= cost_of(st, card):
                    pick = activate_or_make_mojo(st, me, legal, "skill", card)
                    if pick is not None:
                        return pick
        else:
            for a in legal:
                if a.kind == "use" and any(op == REDUCE_POWER for op, *_ in c.effects[int(a.args[0])]):
                    return a
            for card in st.skills[me]:
                if _usable(st, me, card, S_COMBAT) and any(op == REDUCE_POWER for op, *_ in c.effects[card]):
                    pick = activate_or_make_mojo(st, me, legal, "skill", card)
                    if pick is not None:
                        return pick
        m = _find(legal, "maneuver", ("melee", "spell", "ranged", "evade")[man])
        return m or _find(legal, "end-combat") or legal[-1]
    if ph == D_MANEUVER:
        plays = [a for a in legal if a.kind == "play"]
        return plays[0] if plays else (_find(legal, "done") or legal[-1])
    return legal[-1]


def _quick(st: McgState, legal: list[Action]) -> Action:
    """Another player's decision in a March simulation: get out of the way."""
    for kind in ("done", "end-combat", "pass", "no-upgrade"):
        a = _find(legal, kind)
        if a is not None:
            return a
    return legal[0]


def simulate_march(st: McgState, me: int, man: int) -> bool:
    """Play ``me``'s March greedily with maneuver ``man`` on a copy of ``st``; does ``me`` reach
    the Sorceress? The others get out of the way, and it counts only on its own cards (the others
    play their non-combat phases first and could buy a trainer skill it wanted), so what it finds
    holds in the real March whatever the others do. ``st`` is left alone."""
    sim = st.clone()
    if sim.phase == D_POLL:
        while sim.phase == D_POLL and sim.current_player != me:
            sim.apply(sim.game.PASS)
        if sim.phase != D_POLL:
            return False
        sim.apply(sim.game.MARCH)
    for _ in range(MARCH_SIM_LIMIT):
        if sim.is_over or sim.mtotal[me] >= 0 or sim.mode != M_MARCH:
            break
        legal = sim.legal_actions()
        a = march_policy(sim, me, legal, man, train=False) if sim.current_player == me else _quick(sim, legal)
        sim.apply(a)
    if sim.mtotal[me] < 0:
        return sim.is_over and me in sim.winners
    return qualifies(sim, me)


def _march_total(st: McgState, me: int, man: int) -> int:
    sim = st.clone()
    for _ in range(MARCH_SIM_LIMIT):
        if sim.is_over or sim.mtotal[me] >= 0 or sim.mode != M_MARCH:
            break
        legal = sim.legal_actions()
        a = march_policy(sim, me, legal, man) if sim.current_player == me else _quick(sim, legal)
        sim.apply(a)
    return sim.mtotal[me] - sim.mthresh[me] if sim.mtotal[me] >= 0 else -99


def best_march_maneuver(st: McgState, me: int) -> int:
    skind = st.game.cards.skind
    types = {skind[x] >> 2 for x in st.hand[me]}
    mans = [m for m in range(4) if MANEUVER_STAT[m] in types] or [main_maneuver(st, me)]
    if len(mans) == 1:
        return mans[0]
    return max(mans, key=lambda m: _march_total(st, me, m))


def can_win_march(st: McgState, me: int) -> bool:
    """Would ``me`` reach the Sorceress if it announced the March now?"""
    skind = st.game.cards.skind
    types = {skind[x] >> 2 for x in st.hand[me]}
    return any(simulate_march(st, me, m) for m in range(4) if MANEUVER_STAT[m] in types)


# -- search evaluation -------------------------------------------------------------------------------


MEAT_VALUE: Final = 0.1
MEAT_CAP: Final = 15
"""What a meat is worth to :func:`strength` (a skill of 4 to 10 meat adds about one to a maneuver),
counted up to this many meat (more is rarely spent in time)."""


def strength(st: McgState, p: int) -> float:
    """How close ``p`` is to beating the Sorceress: best maneuver bonus plus the stat value a hand
    of six of its best type would hold, plus combat damage it owns and what its meat may buy, less
    its negative effects (a point per 3 of their cost). Ascension: :data:`RUN_VALUE` per completed
    run plus that strength up to the power of the form it faces next (a reset costs strength, a run
    must still pay)."""
    if st.out >> p & 1:
        return -1e9
    raw = _raw_strength(st, p) + MEAT_VALUE * min(st.meat[p], MEAT_CAP)
    bad = negatives(st, p)
    if bad:
        main = main_maneuver(st, p)
        raw -= sum(negative_cost(st, x, main) for x in bad) / 3.0
    g = st.game
    if g.ascension:
        runs = st.runs[p]
        need = g.cards.form_power[min(runs, 2)]
        return RUN_VALUE * runs + min(raw, float(need))
    return raw


_PACKED: list[tuple[object, list[int]]] = []
"""The card set last seen and each of its cards' stat kind packed for :func:`_raw_strength`."""
_BITS: Final = 16


def _packed(c: Any) -> list[int]:
    """Each card's contribution to a packed sum: for a stat card of type t and value v, 1 in field
    2t (the count) and v in field 2t+1 (the total), fields :data:`_BITS` bits wide; 0 for other
    cards. Summing a zone's entries (``sum(map(...))``, in C) counts and totals it at once."""
    if _PACKED and _PACKED[0][0] is c:
        return _PACKED[0][1]
    table: list[int] = []
    for k in c.skind:
        if k < 0:
            table.append(0)
            continue
        t = k >> 2
        table.append((1 << (2 * t * _BITS)) + (_value(k) << ((2 * t + 1) * _BITS)))
    _PACKED[:] = [(c, table)]
    return table


def _raw_strength(st: McgState, p: int) -> float:
    c = st.game.cards
    get = _packed(c).__getitem__
    packed = sum(map(get, st.hand[p])) + sum(map(get, st.deck[p])) + sum(map(get, st.disc[p]))
    if st.played[p]:
        packed += sum(map(get, st.played[p]))
    mask = (1 << _BITS) - 1
    count = (packed & mask, packed >> 2 * _BITS & mask, packed >> 4 * _BITS & mask)
    total = (packed >> _BITS & mask, packed >> 3 * _BITS & mask, packed >> 5 * _BITS & mask)
    cards = count[0] + count[1] + count[2]
    m = st.mods[p]
    best = 0.0
    for man in range(4):
        t = MANEUVER_STAT[man]
        n = count[t]
        if n:
            # The value of the cards of that type a hand of six holds on average.
            best = max(best, m[man] + total[t] / n * min(6.0 * n / cards, n))
    dmg = 0.0
    if st.skills[p]:
        for card in st.skills[p]:
            if c.stype[card] == S_COMBAT:
                dmg += 0.7 * _damage_of(st, p, card)
            elif c.stype[card] == S_BUFF:
                dmg += 0.5 * max(c.icons[card])
    for card in st.items[p]:
        if c.etype[card] == E_COMBAT and c.slot[card] < 0:
            dmg += 0.8 * _damage_of(st, p, card)
    return best + dmg


# The strength difference that makes a seat ~73% likely to win (logistic scale of :func:`strength`).
_SCALE: Final = 3.0
ROLLOUT_DEPTH: Final = 2
KILL_WEIGHT: Final = 0.15
"""The share of the value of :func:`plan`'s best kill that counts as strength before the kill is
made (about what its loot adds to :func:`strength` once taken)."""
ROLLOUT_NORMALISE: Final = True
"""ISMCTS rescales mean rewards to the range seen in each decision: one kill or skill changes a
position's chance by a few hundredths, which the exploration term would drown otherwise."""
BASE_CHANCE: Final = 0.2
PROGRESS_CHANCE: Final = 0.5
"""The chance that a seat still in wins, for :func:`rollout_rewards`: its share of the win against
the others (a softmax of :func:`strength`) times ``BASE_CHANCE + PROGRESS_CHANCE * progress`` (its
:func:`progress` towards the Sorceress, 0..1). The chances add up to at most 0.7, the rest being the
chance that nobody wins (the turn limit): only a real win is worth 1, and that margin lets the search
see that a March that surely wins beats waiting in any position."""


def progress(st: McgState, p: int, known: float | None = None) -> float:
    """How far ``p`` is towards beating the Sorceress on their own, in 0..1: their :func:`strength`
    over the power they must reach (the Sorceress's, changed by their own effects). Ascension: runs
    completed plus the progress towards the form faced next, over the three runs that free the King.

    This is what makes a lone player (the others out) or one far ahead still want to grow and March:
    a share of the win against the others alone says nothing about the Sorceress. ``known``: ``p``'s
    :func:`strength` if the caller has it already."""
    g = st.game
    c = g.cards
    if g.ascension:
        runs = st.runs[p]
        need = float(c.form_power[min(runs, 2)])
        return min(3.0, runs + max(0.0, min(1.0, _raw_strength(st, p) / need))) / 3.0
    need = float(g.sorceress_power + st.mods[p][modifiers.MPOW + c.element[sorceress_card(st)]])
    if need <= 0:
        return 1.0
    # Not capped at the Sorceress's power: strength is an average, and a March needs the hand of
    # the day to reach it, so growing on beyond it still pays (0.7 at that power, 0.9 at twice it).
    value = strength(st, p) if known is None else known
    return 1.0 - math.exp(-1.2 * max(0.0, value) / need)


def rollout_stop(state: McgState) -> bool:
    """ISMCTS stops a random rollout at the March poll and inside a March: random play marches at
    half the polls and plays a March badly, so the evaluation judges those instead (the search tree
    still decides the poll and the March itself)."""
    return state.phase == D_POLL or state.mode == M_MARCH


def _static_march_maneuver(st: McgState, p: int) -> int:
    """The maneuver with the best bonus plus hand value (cheap: no simulation)."""
    skind = st.game.cards.skind
    vals = [0, 0, 0]
    for x in st.hand[p]:
        k = skind[x]
        vals[k >> 2] += _value(k)
    m = st.mods[p]
    options = [man for man in range(4) if vals[MANEUVER_STAT[man]]] or [main_maneuver(st, p)]
    return max(options, key=lambda man: m[man] + vals[MANEUVER_STAT[man]])


def finish_march(st: McgState, simulate: bool = True) -> McgState:
    """A copy of ``st`` (in a March) with the March played to its end: every marcher plays
    :func:`march_policy` with the maneuver that reaches its highest total when its March is
    simulated alone (:func:`best_march_maneuver`, as the heuristic agent picks it), or, with
    ``simulate=False``, the best-looking one by bonus and hand value (cheap, and often wrong: a
    player the heuristic sees winning the March was judged to fail it, so the search never
    marched; :data:`VALUE_FEATURES` were fitted with it). ``st`` is left alone."""
    sim = st.clone()
    players = sim.game.players
    if simulate:
        mans = [0 if sim.out >> p & 1 else best_march_maneuver(sim, p) for p in range(players)]
    else:
        mans = [_static_march_maneuver(sim, p) for p in range(players)]
    for _ in range(MARCH_SIM_LIMIT):
        if sim.is_over or sim.mode != M_MARCH:
            break
        me = sim.current_player
        assert me is not None
        sim.apply(march_policy(sim, me, sim.legal_actions(), mans[me]))
    return sim


def rollout_rewards(state: McgState) -> list[float]:
    """Search evaluation (full information, e.g. a determinization): one value per seat in 0..1.

    A finished game gives the real outcome (winners share 1; a game stopped by the turn limit or
    with everyone out gives 0 to all). Inside a March, the March is first played to its end
    (:func:`finish_march`): a failed announcer is out. Otherwise each seat still in gets its share
    of the win (a softmax of :func:`strength` among the seats still in) times a chance that grows
    with its :func:`progress` towards the Sorceress (:data:`BASE_CHANCE`, :data:`PROGRESS_CHANCE`);
    seats that are out get 0. The values add up to at most 1 (the rest: nobody wins).
    """
    if state.mode == M_MARCH and not state.is_over:
        state = finish_march(state)
    n = state.game.players
    if state.is_over:
        w = state.winners
        return [1.0 / len(w) if p in w else 0.0 for p in range(n)] if w else [0.0] * n
    out = state.out
    alive = [p for p in range(n) if not out >> p & 1]
    scores = [strength(state, p) if not out >> p & 1 else 0.0 for p in range(n)]
    own = list(scores)
    if state.mode == M_TURN and ST_COMBAT <= state.step <= ST_TARGET:
        # In combat, the kill still to come counts (a fraction of its loot): otherwise every step
        # towards it (the maneuver, each card played) looks no better than ending the combat.
        kill = plan(state, state.active)
        if kill is not None:
            scores[state.active] += KILL_WEIGHT * kill[0]
    top = max(scores[p] for p in alive)
    weights = [math.exp((scores[p] - top) / _SCALE) if not out >> p & 1 else 0.0 for p in range(n)]
    total = sum(weights)
    rewards = [0.0] * n
    if len(alive) == 1:
        # Alone, the share of the win is 1 whatever happens, so the kill still to come must count in
        # the progress itself: otherwise no step of a combat looks better than ending it, and a lone
        # player (the others out) waits for the turn limit, which nobody wins.
        own = scores
    for p in alive:
        rewards[p] = weights[p] / total * (BASE_CHANCE + PROGRESS_CHANCE * progress(state, p, own[p]))
    return rewards


__all__ = ["Heuristic", "decide", "rollout_rewards", "rollout_stop"]


# -- learned evaluation (cardtable.agents.values) ---------------------------------------------------------
VALUE_FEATURES = (
    "out",
    "strength",
    "progress",
    "meat",
    "cards",
    "hand",
    "skills",
    "items",
    "negatives",
    "kills",
    "runs",
    "to_move",
)
"""What :func:`value_features` measures for each seat (``scripts/train_values.py`` fits the weights)."""


def value_features(state: McgState) -> list[list[float]]:
    """Per seat: whether it is out, the hand-made :func:`strength` and :func:`progress`, meat (up to
    :data:`MEAT_CAP`), its cards (all, and in hand), skills, items, negative effects, kills, runs, and
    whether it is the active seat. Inside a March, the March is played out first (as
    :func:`rollout_rewards` does)."""
    if state.mode == M_MARCH and not state.is_over:
        # The static maneuvers: the shipped weights were fitted on features computed with them.
        state = finish_march(state, simulate=False)
    out: list[list[float]] = []
    for p in range(state.game.players):
        if state.out >> p & 1:
            out.append([1.0] + [0.0] * (len(VALUE_FEATURES) - 1))
            continue
        value = strength(state, p)
        cards = len(state.hand[p]) + len(state.deck[p]) + len(state.disc[p]) + len(state.played[p])
        out.append(
            [
                0.0,
                value,
                progress(state, p, value),
                float(min(state.meat[p], MEAT_CAP)),
                float(cards),
                float(len(state.hand[p])),
                float(len(state.skills[p])),
                float(len(state.items[p])),
                float(len(negatives(state, p))),
                float(state.kills[p]),
                float(state.runs[p]),
                1.0 if state.active == p else 0.0,
            ]
        )
    return out


def search_defers(view: Mapping[str, Any], seat: int) -> bool:
    """Whether ISMCTS hands ``seat``'s decision to the heuristic (:func:`search_prior`) unsearched: when
    every other seat is out of the game. Alone, the share of the win is the seat's whatever it does,
    and only its progress towards the Sorceress separates the moves: a search of 1,000 iterations
    averages a combat's many poor lines against a plain end of turn and ends turn after turn (the
    device ladder of 2026-11-27: `strong` against a random seat that had marched and failed ran to the
    turn limit, nobody winning, in 3 of 20 games), while the heuristic plays its plan out (it beats
    random in 99.5% of 200 games). Read from the seat's own view: who is out is public."""
    players = view.get("players")
    if not isinstance(players, list) or not 0 <= seat < len(players) or len(players) < 2:
        return False
    out = [isinstance(p, Mapping) and p.get("out_of_the_game") is True for p in players]
    return not out[seat] and all(out[p] for p in range(len(players)) if p != seat)


def search_prior(state: McgState) -> Action:
    """The move :func:`decide` makes in ``state`` (a determinization): ISMCTS's prior."""
    me = state.current_player
    assert me is not None
    return decide(state, me, state.legal_actions())
