import sys

import cardtable
from cardtable.agents import Observation, make_agent, seat_rewards
from cardtable.agents.heuristics import army_of_darkness as M
from cardtable.agents.values import learned_value

game = cardtable.load("army-of-darkness", players=2)
V = learned_value(game)


class LH(M.Heuristic):
    def _value(self, st, me, depth):
        if depth <= 0 or st.is_over or st.current_player != me:
            if st.is_over:
                return M.evaluate(st, me)
            return V(st)[me]
        return super()._value(st, me, depth)


wins = 0
n = int(sys.argv[1])
off = int(sys.argv[2]) if len(sys.argv) > 2 else 0
for g in range(off, off + n):
    state = game.new(9000 + g // 2, log=False)
    hero = g % 2
    ag = {hero: LH(g), 1 - hero: make_agent("heuristic", game, 50000 + g)}
    while not state.is_over:
        p = state.current_player
        state.apply(ag[p].choose(Observation(state, p)))
    wins += seat_rewards(state.result(), 2)[hero]
print("learned-value heuristic vs heuristic", wins, "/", n)
