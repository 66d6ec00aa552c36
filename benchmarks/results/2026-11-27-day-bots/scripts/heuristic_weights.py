import json
import sys

import cardtable
from cardtable.agents import Observation, make_agent, seat_rewards
from cardtable.agents.heuristics import army_of_darkness as M
from cardtable.games.army_of_darkness.cards import NECRONOMICON
from cardtable.games.army_of_darkness.codes import GOOD

game = cardtable.load("army-of-darkness", players=2)
W0 = dict(
    necro=12.0, ally=4.0, ally_x=0.5, opp=5.0, dist=3.0, dup=0.3, item=1.0, hand=0.8, handcap=6, other=0.6, nohand=0.0
)


def make(W):
    def progress(st, s):
        types = st.game.TYPE
        necro = any(types[c] == NECRONOMICON for c in st.item[s])
        score = W["necro"] if necro else 0.0
        if st.side[s] == GOOD:
            score += W["ally"] * min(len(st.ally[s]), 3) + W["ally_x"] * max(0, len(st.ally[s]) - 3)
            score -= W["opp"] * len(st.mon[s])
        else:
            names = st.game.NAME_ID
            distinct = len({names[c] for c in st.mon[s]})
            score += W["dist"] * min(distinct, 5) + W["dup"] * (len(st.mon[s]) - distinct)
            score -= W["opp"] * len(st.ally[s])
        score += W["item"] * len(st.item[s]) + W["hand"] * min(len(st.hands[s]), W["handcap"])
        if not st.hands[s]:
            score -= W["nohand"]
        return score

    def evaluate(st, me):
        if st.is_over:
            return M.WIN if st.winner == me else (-M.WIN if st.winner >= 0 else 0.0)
        others = [progress(st, s) for s in range(st.game.players) if s != me]
        return progress(st, me) - W["other"] * max(others)

    class H(M.Heuristic):
        def _value(self, st, me, depth):
            # The heuristic's own lookahead (its recursion calls this method), scored by these weights.
            if depth <= 0 or st.is_over or st.current_player != me:
                return evaluate(st, me)
            return super()._value(st, me, depth)

    return H


def match(W, n, off=0):
    H = make(W)
    wins = 0
    for g in range(off, off + n):
        state = game.new(9000 + g // 2, log=False)
        hero = g % 2
        ag = {hero: H(g), 1 - hero: make_agent("heuristic", game, 50000 + g)}
        while not state.is_over:
            p = state.current_player
            state.apply(ag[p].choose(Observation(state, p)))
        wins += seat_rewards(state.result(), 2)[hero]
    return wins / n


n = int(sys.argv[1])
for change in sys.argv[2:]:
    W = dict(W0)
    W.update(json.loads(change))
    print(change, match(W, n), flush=True)
