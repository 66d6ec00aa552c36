"""Heuristic variants for AoD vs the shipped heuristic; paired deals, seats rotated."""

import json
import sys

import screen

import cardtable
from cardtable.agents.heuristics import army_of_darkness as H
from cardtable.games.army_of_darkness.cards import NECRONOMICON
from cardtable.games.army_of_darkness.codes import GOOD, P_HIT


class V(H.Heuristic):
    progress_fn = None
    opp_weight = 0.6
    reply = False

    def _value(self, st, me, depth):
        if self.reply and not st.is_over and st.current_player != me and st.phase == P_HIT and depth >= 0:
            victim = st.current_player
            best = None
            bv = -float("inf")
            for a in st.legal_actions():
                child = st.clone()
                child.apply(a)
                v = self.evaluate(child, victim)
                if v > bv:
                    best, bv = child, v
            return self._value(best, me, depth)
        if depth <= 0 or st.is_over or st.current_player != me:
            return self.evaluate(st, me)
        best = -float("inf")
        for a in st.legal_actions():
            child = st.clone()
            child.apply(a)
            best = max(best, self._value(child, me, depth - 1))
        return best

    def evaluate(self, st, me):
        if st.is_over:
            if st.winner == me:
                return H.WIN
            if st.winner >= 0:
                return -H.WIN
            return 0.0
        p = self.progress_fn
        others = [p(st, s) for s in range(st.game.players) if s != me]
        return p(st, me) - self.opp_weight * max(others)


def make_progress(
    necro=12.0,
    ally=4.0,
    extra_ally=0.5,
    good_mon=5.0,
    distinct=3.0,
    extra_mon=0.3,
    evil_ally=5.0,
    item=1.0,
    hand=0.8,
    handcap=6,
    ready=0.0,
    flip=0.0,
):
    def progress(st, s):
        if flip and not st.hands[s]:
            return max(side_progress(st, s, st.side[s]), side_progress(st, s, 1 - st.side[s]) + 0.8 * 5 - flip)
        return side_progress(st, s, st.side[s])

    def side_progress(st, s, side):
        types = st.game.TYPE
        nec = any(types[c] == NECRONOMICON for c in st.item[s])
        score = necro if nec else 0.0
        if side == GOOD:
            a = len(st.ally[s])
            score += ally * min(a, 3) + extra_ally * max(0, a - 3)
            score -= good_mon * len(st.mon[s])
            rd = nec and a >= 3 and not st.mon[s]
        else:
            names = st.game.NAME_ID
            d = len({names[c] for c in st.mon[s]})
            score += distinct * min(d, 5) + extra_mon * (len(st.mon[s]) - d)
            score -= evil_ally * len(st.ally[s])
            rd = nec and d >= 5 and not st.ally[s]
        if rd and st.hands[s]:
            score += ready
        score += item * len(st.item[s]) + hand * min(len(st.hands[s]), handcap)
        return score

    return progress


def play(args):
    params, opp_w, deal, rot, players, reply, depth = args

    def candidate(seed):
        a = V(seed)
        a.progress_fn = make_progress(**params)
        a.opp_weight = opp_w
        a.reply = reply
        a.depth = depth
        return a

    st, hero = screen.play(cardtable.load("army-of-darkness", players=players), candidate, deal, rot, 5000)
    w = st.winner
    return (deal, rot, 1.0 if w == hero else (0.0 if w is not None and w >= 0 else 1.0 / players))


if __name__ == "__main__":
    spec = json.loads(sys.argv[1])  # {"name":..., "params":{...}, "opp":0.6, "deals":N, "players":2}
    players = spec.get("players", 2)
    first = spec.get("first", 0)
    tasks = [
        (spec.get("params", {}), spec.get("opp", 0.6), d, r, players, spec.get("reply", False), spec.get("depth", 3))
        for d in range(first, first + spec["deals"])
        for r in range(players)
    ]
    res = screen.run(play, tasks, int(spec.get("workers", 2)), name=spec["name"])
    with open(f"res-{spec['name']}.json", "w") as f:
        json.dump(res, f)
