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
from typing import Any

from cardtable.agents.base import Agent, Observation
from cardtable.engine import Action, OptionError
from cardtable.games.mr_card_game import modifiers
from cardtable.games.mr_card_game.cards import (
    E_COMBAT,
    S_BUFF,
    S_COMBAT,
    S_NONCOMBAT,
    S_PASSIVE,
)
from cardtable.games.mr_card_game.codes import (
    D_CHOOSE,
    D_COMBAT,
    D_DISCARD,
    D_LIMIT,
    D_MANEUVER,
    D_NONCOMBAT,
    D_PERM,
    D_POLL,
    D_PULVERIZE,
    D_SPELLX,
    D_TARGET,
    D_UNEQUIP,
    D_UPGRADE,
    M_MARCH,
    M_TURN,
)
from cardtable.games.mr_card_game.combat import power_of, targets
from cardtable.games.mr_card_game.effects import (
    DAMAGE,
    DAMAGE_PER_MOJO,
    DAMAGE_POWER,
    DAMAGE_VS,
    DRAW,
    GAIN_MEAT,
    GAIN_STAT,
    MANEUVER_STAT,
    MEAT_BONUS,
    PULVERIZE,
    REDUCE_POWER,
    UPGRADE_STAT,
)
from cardtable.games.mr_card_game.march import qualifies
from cardtable.games.mr_card_game.mojo import cost_of, mys_in_hand
from cardtable.games.mr_card_game.resolve import equipped_power
from cardtable.games.mr_card_game.state import McgState

EVADE = 3
SPELL = 1
# How long the March simulation may run (decisions), a safety net only.
MARCH_SIM_LIMIT = 400


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


def item_worth(st: McgState, card: int, man: int) -> float:
    """How much an item helps a player building around maneuver ``man``."""
    c = st.game.cards
    icons = c.icons[card]
    worth = icons[man] * 3.0 + sum(icons) * 0.5 + c.anvil[card] * 0.3
    for op, a, b, _ in c.effects[card]:
        if op in (DAMAGE, REDUCE_POWER):
            worth += a
        elif op == DAMAGE_VS:
            worth += b * 0.4
        elif op == GAIN_STAT:
            worth += b
    return worth


def monster_value(st: McgState, card: int, man: int) -> float:
    """What killing ``card`` is worth: its power (a proxy for the loot), meat, stat and item."""
    c = st.game.cards
    drop = c.drop[card]
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


SORCERESS = -2
"""The target id :func:`plan` gives the Sorceress under ascension (``kill-sorceress``)."""


def plan(st: McgState, p: int, extra: int = 0) -> tuple[float, int, int, int] | None:
    """The best kill ``p`` can make now: (value, target, maneuver, cards to play) or None.

    ``extra`` adds damage (from combat items or skills not yet used) to every score.
    """
    c = st.game.cards
    skind = c.skind
    by_type: list[list[int]] = [[], [], []]
    for card in st.hand[p]:
        k = skind[card]
        by_type[k >> 2].append(_value(k))
    for vals in by_type:
        vals.sort(reverse=True)
    main = main_maneuver(st, p)
    best: tuple[float, int, int, int] | None = None
    mans = [st.man] if st.man >= 0 else [m for m in range(4) if by_type[MANEUVER_STAT[m]]]
    foes: list[tuple[int, int, int, float]] = [
        (t, power_of(st, t), c.element[t], monster_value(st, t, main)) for t in targets(st)
    ]
    if st.game.ascension and st.mode == M_TURN:
        # O3.3: the Sorceress of its run is worth more than any monster (target -2: kill-sorceress).
        from cardtable.games.mr_card_game.ascension import sorceress_power

        power = sorceress_power(st, p)
        if power is not None:
            foes.append((SORCERESS, power - st.red, 0, 1000.0))
    for t, power, elem, value in foes:
        if power <= 0 or (st.dmg + st.dmg_vs[elem] + extra >= power and st.man < 0):
            cand = (value + 0.5, t, -1, 0)
            if best is None or cand > best:
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
                cand = (value - 0.3 * n, t, man, n)
                if best is None or cand > best:
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
        sorceress = _find(legal, "kill-sorceress")
        if sorceress is not None:
            return sorceress
        kills = [a for a in legal if a.kind == "kill"]
        if not kills:
            return legal[-1]
        main = main_maneuver(st, me)
        return max(kills, key=lambda a: monster_value(st, int(a.args[0]), main))
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
    if ph == D_UNEQUIP:
        # The forced unequip (O5): the equipment worth least.
        main = main_maneuver(st, me)
        return min(legal, key=lambda a: item_worth(st, int(a.args[0]), main))
    if ph == D_PERM:
        # Ascension: perm the trained skill worth most.
        perms = [a for a in legal if a.kind == "perm"]
        if perms:
            main = main_maneuver(st, me)
            return max(perms, key=lambda a: skill_worth(st, int(a.args[0]), main))
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
    # 1. Equip the best item of each slot.
    for a in legal:
        if a.kind == "equip":
            card = int(a.args[0])
            sl = c.slot[card]
            current = [x for x in st.items[me] if eq >> x & 1 and c.slot[x] == sl]
            worth = item_worth(st, card, main)
            if not current:
                # Into a free slot; with three equipped already (O5) one must come off, so only when
                # it beats the weakest of them (else it would swap the same items back and forth).
                on = [x for x in st.items[me] if eq >> x & 1]
                if len(on) < 3 or worth > min(item_worth(st, x, main) for x in on) + 0.1:
                    return a
            elif worth > max(item_worth(st, x, main) for x in current) + 0.1:
                return a
    # 2. Eat and drink what gives stat cards (and other non-combat items).
    for a in legal:
        if a.kind == "use":
            card = int(a.args[0])
            if c.slot[card] < 0 or not g.consume_all:
                return a
    # 3. Train the best affordable skill (value for the meat).
    trains = [a for a in legal if a.kind == "train"]
    if trains:
        best = max(trains, key=lambda a: skill_worth(st, int(a.args[0]), main) / (1 + c.cost[int(a.args[0])]))
        if skill_worth(st, int(best.args[0]), main) >= 1.0:
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
            if a.kind == "equip":
                card = int(a.args[0])
                sl = c.slot[card]
                current = [x for x in st.items[me] if eq >> x & 1 and c.slot[x] == sl]
                if not current or c.icons[card][man] > max(c.icons[x][man] for x in current):
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


def strength(st: McgState, p: int) -> float:
    """How close ``p`` is to beating the Sorceress: best maneuver bonus plus the stat value a hand
    of six of its best type would hold, plus combat damage it owns."""
    if st.out >> p & 1:
        return -1e9
    c = st.game.cards
    skind = c.skind
    count = [0, 0, 0]
    total = [0, 0, 0]
    for zone in (st.hand[p], st.deck[p], st.disc[p], st.played[p]):
        for x in zone:
            k = skind[x]
            count[k >> 2] += 1
            total[k >> 2] += (k & 3) + 1
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
_SCALE = 3.0
ROLLOUT_DEPTH = 6


def rollout_rewards(state: McgState) -> list[float]:
    """Search evaluation (full information, e.g. a determinization): one value per seat in 0..1.

    A finished game gives the real outcome (winners share 1). Otherwise the seats still in share the
    win by a softmax of their :func:`strength` (how close each is to beating the Sorceress); seats
    that are out get 0. Reads the state only, in microseconds.
    """
    n = state.game.players
    if state.is_over:
        w = state.winners
        return [1.0 / len(w) if p in w else 0.0 for p in range(n)] if w else [0.0] * n
    scores = [strength(state, p) for p in range(n)]
    alive = [p for p in range(n) if not state.out >> p & 1]
    top = max(scores[p] for p in alive)
    weights = [math.exp((scores[p] - top) / _SCALE) if p in alive else 0.0 for p in range(n)]
    total = sum(weights)
    return [w / total for w in weights]


__all__ = ["Heuristic", "decide", "rollout_rewards"]
