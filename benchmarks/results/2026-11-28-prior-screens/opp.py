"""Variant: my turn completed greedily, then the opponents' turns played by a greedy depth-1 policy,
then evaluated."""

import json
import math
import sys
import time
from multiprocessing import Pool

import cardtable
from cardtable.agents.base import Observation
from cardtable.agents.heuristics import army_of_darkness as H
from cardtable.agents.registry import make_agent


def greedy_step(st, who, depth):
    best = None
    bv = -float("inf")
    for a in st.legal_actions():
        ch = st.clone()
        ch.apply(a)
        v = val(ch, who, depth - 1)
        if v > bv:
            best, bv = ch, v
    return best


def val(st, me, depth):
    if depth <= 0 or st.is_over or st.current_player != me:
        return H.evaluate(st, me)
    return max(val(_ap(st, a), me, depth - 1) for a in st.legal_actions())


def _ap(st, a):
    ch = st.clone()
    ch.apply(a)
    return ch


class Opp(H.Heuristic):
    turns = 1
    odepth = 1

    def score(self, st, me):
        # finish my turn greedily
        guard = 0
        while not st.is_over and st.current_player == me and guard < 30:
            st = greedy_step(st, me, self.depth)
            guard += 1
        # the others' turns (and hits I take on their turns: me decides greedily with depth 1)
        guard = 0
        while not st.is_over and guard < 60:
            p = st.current_player
            if p == me and st.phase != 7:
                break
            st = greedy_step(st, p, self.odepth if p != me else 1)
            guard += 1
        return H.evaluate(st, me)

    def choose(self, obs):
        legal = obs.legal_actions()
        if len(legal) == 1:
            return legal[0]
        me = obs.seat
        sample = obs.sample(self.rng)
        best = []
        bv = -float("inf")
        for a in legal:
            ch = sample.clone()
            ch.apply(a)
            v = self.score(ch, me)
            if v > bv + 1e-9:
                best, bv = [a], v
            elif v > bv - 1e-9:
                best.append(a)
        return best[self.rng.below(len(best))]


def play(args):
    deal, rot, players, odepth = args
    game = cardtable.load("army-of-darkness", players=players)
    n = game.players
    agents = []
    for s in range(n):
        seed = (deal * 1_000_003 + s * 7919 + 17) % (1 << 62)
        if (s + rot) % n == 0:
            a = Opp(seed)
            a.odepth = odepth
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
    deals = int(sys.argv[1])
    players = int(sys.argv[2])
    odepth = int(sys.argv[3])
    first = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    tasks = [(d, r, players, odepth) for d in range(first, first + deals) for r in range(players)]
    t = time.time()
    with Pool(2) as p:
        res = p.map(play, tasks, chunksize=2)
    wins = sum(x[2] for x in res)
    n = len(res)
    ph = wins / n
    z = 1.96
    den = 1 + z * z / n
    c = (ph + z * z / (2 * n)) / den
    h = z * math.sqrt(ph * (1 - ph) / n + z * z / (4 * n * n)) / den
    print(
        json.dumps(
            {
                "games": n,
                "share": round(ph, 4),
                "ci": [round(c - h, 3), round(c + h, 3)],
                "secs": round(time.time() - t, 1),
                "odepth": odepth,
                "players": players,
            }
        ),
        flush=True,
    )
