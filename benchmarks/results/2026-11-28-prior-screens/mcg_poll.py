"""Mr. Card Game heuristic variants against the shipped heuristic; paired deals, seats rotated."""

import json
import math
import sys
import time
from multiprocessing import Pool

import cardtable
from cardtable.agents.base import Observation
from cardtable.agents.heuristics import mr_card_game as H
from cardtable.agents.registry import make_agent
from cardtable.games.mr_card_game.codes import D_POLL


class V(H.Heuristic):
    mode = "base"

    def __init__(self, seed=0):
        super().__init__(seed)

    def choose(self, obs):
        legal = obs.legal_actions()
        if len(legal) == 1:
            return legal[0]
        st = obs.sample(self.rng)
        me = obs.seat
        if st.phase == D_POLL and self.mode != "base":
            return self.poll(st, me, legal)
        return H.decide(st, me, legal)

    def poll(self, st, me, legal):
        march = legal[0]
        pas = H._find(legal, "pass") or legal[-1]
        if self.mode != "sim" and not H.can_win_march(st, me):
            return pas
        sim = st.clone()
        while sim.phase == D_POLL and sim.current_player != me:
            sim.apply(sim.game.PASS)
        if sim.phase != D_POLL:
            return pas
        sim.apply(sim.game.MARCH)
        end = H.finish_march(sim)
        if self.mode in ("win", "sim"):
            return march if (end.is_over and me in end.winners) else pas
        return march


def play(args):
    mode, deal, rot, players = args
    game = cardtable.load("mr-card-game", players=players)
    n = game.players
    agents = []
    for s in range(n):
        seed = (deal * 1_000_003 + s * 7919 + 17) % (1 << 62)
        if (s + rot) % n == 0:
            a = V(seed)
            a.mode = mode
        else:
            a = make_agent("heuristic", game, seed)
        agents.append(a)
    hero = next(s for s in range(n) if (s + rot) % n == 0)
    st = game.new(7000 + deal, log=False)
    while not st.is_over:
        seat = st.current_player
        legal = st.legal_actions()
        act = legal[0] if len(legal) == 1 else agents[seat].choose(Observation(st, seat))
        st.apply(act)
    r = st.result()
    winners = list(st.winners)
    share = (1.0 / len(winners)) if hero in winners else 0.0
    return (deal, rot, share, r.reason, r.turns)


if __name__ == "__main__":
    mode = sys.argv[1]
    deals = int(sys.argv[2])
    players = int(sys.argv[3])
    first = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    tasks = [(mode, d, r, players) for d in range(first, first + deals) for r in range(players)]
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
    nowin = sum(1 for x in res if x[3] != "sorceress-defeated" and x[2] == 0)
    print(
        json.dumps(
            {
                "mode": mode,
                "players": players,
                "games": n,
                "share": round(ph, 4),
                "ci": [round(c - h, 3), round(c + h, 3)],
                "secs": round(time.time() - t, 1),
            }
        ),
        flush=True,
    )
    with open(f"res-{mode}-{players}p-{first}.json", "w") as out:
        json.dump(res, out)
