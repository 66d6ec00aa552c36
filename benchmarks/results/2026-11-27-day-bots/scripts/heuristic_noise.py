import collections

import cardtable
from cardtable.agents import Observation, make_agent
from cardtable.agents.heuristics.army_of_darkness import Heuristic

game = cardtable.load("army-of-darkness", players=2)
tot = agree = decs = 0
for deal in range(6):
    state = game.new(100 + deal, log=False)
    h = [make_agent("heuristic", game, deal * 3 + s) for s in range(2)]
    probe = Heuristic(99)
    while not state.is_over:
        seat = state.current_player
        obs = Observation(state, seat)
        if len(obs.legal_actions()) > 1:
            picks = collections.Counter(probe.choose(obs).text for _ in range(16))
            mode = picks.most_common(1)[0][1]
            tot += 16
            agree += mode
            decs += 1
        state.apply(h[seat].choose(obs))
print("decisions", decs, "share of picks equal to the modal pick", agree / tot)
