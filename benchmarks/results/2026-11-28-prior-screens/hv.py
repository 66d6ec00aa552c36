"""Heuristic variants for AoD vs the shipped heuristic; paired deals, seats rotated."""

import json
import math
import sys
import time
from multiprocessing import Pool

import cardtable
from cardtable.agents.base import Observation
from cardtable.agents.heuristics import army_of_darkness as H
from cardtable.agents.registry import make_agent
from cardtable.games.army_of_darkness.cards import NECRONOMICON
from cardtable.games.army_of_darkness.codes import GOOD

VARIANTS = {}


def variant(name):
    def deco(fn):
        VARIANTS[name] = fn
        return fn

    return deco


class V(H.Heuristic):
    progress_fn = None
    opp_weight = 0.6
    reply = False

    def _value(self, st, me, depth):
        if self.reply and not st.is_over and st.current_player != me and st.phase == 7 and depth >= 0:
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

    def choose(self, obs):
        legal = obs.legal_actions()
        if len(legal) == 1:
            return legal[0]
        me = obs.seat
        sample = obs.sample(self.rng)
        best = []
        bv = -float("inf")
        for a in legal:
            child = sample.clone()
            child.apply(a)
            v = self._value(child, me, self.depth - 1)
            if v > bv + 1e-9:
                best, bv = [a], v
            elif v > bv - 1e-9:
                best.append(a)
        return best[self.rng.below(len(best))]


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
    hand_necro=0.0,
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
    _name, params, opp_w, deal, rot, players, spec_reply, spec_depth = args
    game = cardtable.load("army-of-darkness", players=players)
    n = game.players
    agents = []
    for s in range(n):
        seed = (deal * 1_000_003 + s * 7919 + 17) % (1 << 62)
        if (s + rot) % n == 0:
            a = V(seed)
            a.progress_fn = make_progress(**params)
            a.opp_weight = opp_w
            a.reply = spec_reply
            a.depth = spec_depth
        else:
            a = make_agent("heuristic", game, seed)
        agents.append(a)
    hero = next(s for s in range(n) if (s + rot) % n == 0)
    st = game.new(5000 + deal, log=False)
    while not st.is_over:
        seat = st.current_player
        legal = st.legal_actions()
        act = legal[0] if len(legal) == 1 else agents[seat].choose(Observation(st, seat))
        st.apply(act)
    w = st.winner
    return (deal, rot, 1.0 if w == hero else (0.0 if w is not None and w >= 0 else 1.0 / n))


if __name__ == "__main__":
    spec = json.loads(sys.argv[1])  # {"name":..., "params":{...}, "opp":0.6, "deals":N, "players":2}
    players = spec.get("players", 2)
    tasks = [
        (
            spec["name"],
            spec.get("params", {}),
            spec.get("opp", 0.6),
            d,
            r,
            players,
            spec.get("reply", False),
            spec.get("depth", 3),
        )
        for d in range(spec.get("first", 0), spec.get("first", 0) + spec["deals"])
        for r in range(players)
    ]
    t = time.time()
    with Pool(int(spec.get("workers", 2))) as p:
        res = p.map(play, tasks, chunksize=4)
    wins = sum(x[2] for x in res)
    n = len(res)
    z = 1.96
    ph = wins / n
    den = 1 + z * z / n
    c = (ph + z * z / (2 * n)) / den
    h = z * math.sqrt(ph * (1 - ph) / n + z * z / (4 * n * n)) / den
    print(
        json.dumps(
            {
                "name": spec["name"],
                "games": n,
                "share": round(ph, 4),
                "ci": [round(c - h, 3), round(c + h, 3)],
                "secs": round(time.time() - t, 1),
            }
        ),
        flush=True,
    )
    with open(f"res-{spec['name']}.json", "w") as f:
        json.dump(res, f)
