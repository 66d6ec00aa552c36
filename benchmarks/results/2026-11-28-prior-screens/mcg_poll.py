"""Mr. Card Game heuristic variants against the shipped heuristic; paired deals, seats rotated."""

import json
import sys

import screen

import cardtable
from cardtable.agents.heuristics import mr_card_game as H
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

    def candidate(seed):
        a = V(seed)
        a.mode = mode
        return a

    st, hero = screen.play(cardtable.load("mr-card-game", players=players), candidate, deal, rot, 7000)
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
    res = screen.run(play, tasks, mode=mode, players=players)
    with open(f"res-{mode}-{players}p-{first}.json", "w") as out:
        json.dump(res, out)
