"""A greedy heuristic player for the Doctor Strange card game.

It reads only its seat's view and legal actions (never the hidden state) and plays by simple rules:
draw and search events first, summon every character, put attachments on its strongest character,
attack with every character (targeting whoever holds its captured or controlled characters, else
the strongest opponent) using the Attack card with the best fate, counter every attack, spend
Power cards and Call Defender only when they turn a losing roll into a winning one, play every
Negate on its own behalf, and discard its least useful cards at the hand limit.
"""

from __future__ import annotations

import math
from typing import Any, Final

from cardtable.agents.base import Agent, Observation
from cardtable.engine.actions import Action
from cardtable.engine.errors import OptionError
from cardtable.games.doctor_strange import base as B
from cardtable.games.doctor_strange import cards as C
from cardtable.games.doctor_strange.game import DoctorStrange
from cardtable.games.doctor_strange.state import DSState
from cardtable.games.doctor_strange.words import STEP

# How much each fate hurts the opponent (control also gains a character for us).
FATE_RANK = {C.CONTROL: 5, C.KILL: 4, C.EXILE: 4, C.CAPTURE: 3, C.INCAPACITATE: 2}
EVENT_RANK = {
    "counter": 7,
    "call_defender": 6,
    "negate": 5,
    "draw": 5,
    "search_deck": 5,
    "look_deck": 2,
    "look_hand": 1,
    "discard_hand": 2,
}


class Heuristic(Agent):
    """Sensible greedy play (see the module docstring). Takes no options."""

    name = "heuristic"

    def __init__(self, seed: int = 0, **options: Any) -> None:
        if options:
            raise OptionError(f"the doctor-strange heuristic takes no options, got {', '.join(options)}")
        super().__init__(seed)

    # -- card values --------------------------------------------------------------------------------
    def value(self, g: DoctorStrange, seat: int, card: int) -> float:
        """How much a card in hand is worth keeping (0 = useless to this seat)."""
        if not g.USE[seat][card]:
            return 0.0
        t = g.TYPE[card]
        if t == C.CHARACTER:
            return 10.0 + float(g.POW[card])
        if t == C.ATTACK:
            return 8.0 + float(FATE_RANK[g.FATE[card]])
        if t == C.POWER:
            return 3.0 + g.POW[card] - (0.5 if g.ROLE[card] != C.ROLE_ANY else 0.0)
        if t == C.EVENT:
            return float(EVENT_RANK.get(g.EVENT_KIND[card], 1))
        return 4.0 + g.POW[card]  # attachments

    # -- choosing -----------------------------------------------------------------------------------
    def choose(self, obs: Observation) -> Action:
        legal = obs.legal_actions()
        if len(legal) == 1:
            return legal[0]
        g = obs.game
        if not isinstance(g, DoctorStrange):
            raise TypeError(f"the doctor-strange heuristic cannot play {g.id!r}")
        seat = obs.seat
        me = g.seat_name(seat)
        v = obs.view()
        step = v["step"]
        table = {c["id"]: c for c in v["table"]}
        by_kind: dict[str, list[Action]] = {}
        for a in legal:
            by_kind.setdefault(a.kind, []).append(a)
        plays = by_kind.get("play", [])
        pass_ = next((a for a in legal if a.kind == "pass"), None)

        def card(a: Action) -> int:
            return int(a.args[0])

        def mine(c: int) -> bool:
            return bool(table[c]["side"] == me)

        if step == STEP[B.EXCHANGE]:
            return self._exchange(g, seat, v, plays, pass_)
        if step == STEP[B.COUNTER]:
            counters = [a for a in plays if g.EVENT_KIND[card(a)] == "counter"]
            return counters[0] if counters else pass_ or legal[0]
        if step in (STEP[B.ONTO], STEP[B.HELPER]):
            options = by_kind.get("onto") or by_kind.get("helper") or legal
            return max(options, key=lambda a: (table[card(a)]["viable"], table[card(a)]["modified_power"], -card(a)))
        if step == STEP[B.DECLARE]:
            attackers = by_kind.get("attacker", [])
            if attackers:
                return max(attackers, key=lambda a: (table[card(a)]["modified_power"], -card(a)))
            return pass_ or legal[0]
        if step == STEP[B.TARGET]:
            holders = {c["held_by"] for c in v["table"] if c["owner"] == me and c["held_by"] is not None}

            def target_key(a: Action) -> tuple[bool, bool, int, int]:
                # Free our own characters first; then spread attacks (a second attack on a target
                # that already fell would be wasted); then the strongest.
                c = card(a)
                return (c in holders, not table[c]["marked"], table[c]["modified_power"], -c)

            return max(by_kind["target"], key=target_key)
        if step == STEP[B.WEAPON]:
            return max(plays, key=lambda a: (FATE_RANK[g.FATE[card(a)]], -card(a)))
        if step == STEP[B.DISCARD]:
            return min(by_kind["discard"], key=lambda a: (self.value(g, seat, card(a)), card(a)))
        if step == STEP[B.TAKE]:
            return max(by_kind["take"], key=lambda a: (self.value(g, seat, card(a)), -card(a)))
        if step == STEP[B.NEGATE]:
            negs = by_kind["negate"]

            def negate_key(a: Action) -> tuple[bool, int, int]:
                c = card(a)
                if c in table:  # a character in play (incapacitated or captured one of ours)
                    return (True, table[c]["power"], -c)
                # an Item: prefer one on an opposing character; otherwise a character from a pile
                host = next((h for h in v["table"] if any(x["id"] == c for x in h["attachments"])), None)
                return (host is None or host["side"] != me, g.POW[c], -c)

            return max(negs, key=negate_key)
        # Phases where cards are played from hand: summon, mystic arts, rest, any-time window.
        good_plays = []
        for a in plays:
            c = card(a)
            t = g.TYPE[c]
            kind = g.EVENT_KIND[c]
            if t == C.EVENT and kind == "discard_hand" and len(v["hand"]) > 3:
                continue  # Experiment only when the hand is poor
            if t == C.EVENT and kind == "look_hand" and step != STEP[B.MYSTIC]:
                continue
            # Petty Thieves: only when an opposing character carries an Item.
            foe_items = any(
                not mine(h["id"]) and any(g.TYPE[x["id"]] == C.ITEM for x in h["attachments"]) for h in v["table"]
            )
            if t == C.EVENT and kind == "negate" and g.NEGATE[c] == "item" and not foe_items:
                continue
            good_plays.append(a)
        if good_plays:
            # Characters first (strongest), then attachments, then events.
            def play_key(a: Action) -> tuple[int, int, int]:
                c = card(a)
                t = g.TYPE[c]
                order = 3 if t == C.CHARACTER else 2 if t in C.PERMANENT_ATTACHMENTS else 1
                return (order, g.POW[c], -c)

            return max(good_plays, key=play_key)
        return pass_ or legal[0]

    def _exchange(
        self,
        g: DoctorStrange,
        seat: int,
        v: dict[str, Any],
        plays: list[Action],
        pass_: Action | None,
    ) -> Action:
        """Behind in a fight: play the biggest boost only if all our boosts together can win it."""
        fight = v["fight"]
        me = g.seat_name(seat)
        defender = v["turn_of"] != me
        atk, dfn = fight["attacker"]["total"], fight["defender"]["total"]
        need = (atk - dfn + 1) if defender else (dfn - atk)
        boosts: list[tuple[int, Action]] = []
        for a in plays:
            c = int(a.args[0])
            bonus = g.BON[seat][1 if defender else 0][c]
            if bonus:
                boosts.append((bonus, a))
            elif g.EVENT_KIND[c] == "call_defender":
                helpers = [
                    h["modified_power"]
                    for h in v["table"]
                    if h["side"] == me and h["viable"] and not h["marked"] and not h["helping"]
                ]
                if helpers:
                    boosts.append((max(helpers), a))
        if boosts and sum(b for b, _ in boosts) >= need:
            return max(boosts, key=lambda x: (x[0], -int(x[1].args[0])))[1]
        if pass_ is not None:
            return pass_
        return plays[0]


# -- search evaluation ----------------------------------------------------------------------------------
# DS11: a seat loses after two checked turns without a viable character, so what matters is how many
# viable characters each side keeps (and how strong they are: power wins the attack rolls), the
# characters waiting in hand to replace the fallen, and the cards to fight with.
_VIABLE: Final = 2.0
_POWER: Final = 0.25
_HAND_CHARACTER: Final = 1.0
_HAND_CARD: Final = 0.15
_STREAK: Final = 3.0
# The score difference that makes a seat ~73% likely to win (logistic scale).
_SCALE: Final = 3.0


def _position(st: DSState, seat: int) -> float:
    g = st.game
    slot, side, incap, cap, mpow = g.SLOT, st.side, st.incap, st.cap, st.mpow
    score = 0.0
    for c in st.chars:
        s = slot[c]
        if side[s] == seat and not incap[s] and cap[s] < 0:
            score += _VIABLE + _POWER * mpow[s]
    usable = g.USE[seat]
    types = g.TYPE
    character = C.CHARACTER
    hand = st.hands[seat]
    for c in hand:
        if types[c] == character and usable[c]:
            score += _HAND_CHARACTER
    return score + _HAND_CARD * len(hand) - _STREAK * st.streak[seat]


# ISMCTS cuts its random rollouts after this many decisions and scores them with rollout_rewards:
# against the heuristic, depth 4 did better than 0 (the evaluation alone) and than 16 (random play
# blurs the position) at the same budget.
ROLLOUT_DEPTH: Final = 4


def rollout_rewards(state: DSState) -> list[float]:
    """Search evaluation of a Doctor Strange position (full information, e.g. a determinization).

    One value per seat in 0..1 estimating :func:`~cardtable.agents.ismcts.seat_rewards` at the end:
    a logistic function of the difference between the two seats' scores (viable characters and their
    current power, usable characters in hand, hand size, minus turns already spent without a viable
    character). Reads the state's fields only (never mutates it) and takes a few microseconds.
    """
    diff = _position(state, 0) - _position(state, 1)
    p0 = 1.0 / (1.0 + math.exp(-diff / _SCALE))
    return [p0, 1.0 - p0]


# -- learned evaluation (cardtable.agents.values) ---------------------------------------------------------
VALUE_FEATURES = (
    "viable",
    "viable_power",
    "incapacitated",
    "captive",
    "holding_captive",
    "no_viable",
    "streak",
    "hand",
    "hand_characters",
    "hand_attacks",
    "hand_power",
    "hand_counters",
    "hand_events",
    "hand_attachments",
    "to_move",
)
"""What :func:`value_features` measures for each seat (``scripts/train_values.py`` fits the weights)."""


def value_features(state: DSState) -> list[list[float]]:
    """Per seat: its characters (viable, their power, incapacitated, captured by the other side,
    captives it holds), whether it has no viable character and its streak of such turns (DS11), and
    what its hand holds (cards, usable characters, Attack cards, Power bonus, counters, other events,
    attachments); and whether it is the seat whose turn it is."""
    g = state.game
    slot, side, incap, cap, mpow, owner = g.SLOT, state.side, state.incap, state.cap, state.mpow, state.owner
    types, use, bonus = g.TYPE, g.USE, g.BONUS
    out: list[list[float]] = []
    for seat in (0, 1):
        viable = power = down = captive = holding = 0.0
        for c in state.chars:
            s = slot[c]
            if cap[s] >= 0:  # captured: cap is the capturing character's card
                if owner[s] == seat:
                    captive += 1
                elif side[slot[cap[s]]] == seat:
                    holding += 1
                continue
            if side[s] != seat:
                continue
            if incap[s]:
                down += 1
            else:
                viable += 1
                power += mpow[s]
        hand = state.hands[seat]
        usable = use[seat]
        chars = attacks = pw = counters = events = attach = 0.0
        for c in hand:
            if not usable[c]:
                continue
            t = types[c]
            if t == C.CHARACTER:
                chars += 1
            elif t == C.ATTACK:
                attacks += 1
            elif t == C.POWER:
                pw += max(bonus[0][c], bonus[1][c])
            elif t == C.EVENT:
                if g.EVENT_KIND[c] == "counter":
                    counters += 1
                else:
                    events += 1
            else:
                attach += 1
        out.append(
            [
                viable,
                power,
                down,
                captive,
                holding,
                1.0 if viable == 0 else 0.0,
                float(state.streak[seat]),
                float(len(hand)),
                chars,
                attacks,
                pw,
                counters,
                events,
                attach,
                1.0 if state.active == seat else 0.0,
            ]
        )
    return out
