"""How often each spec leaves its root prior's move on fixed positions, and by what margin of the
root's means. Positions: every 4th decision with a choice of DEALS heuristic self-play games (deals
300..), pickled to POSITIONS on first use. Usage: N=80 python position_deviations.py SPEC..."""

import os
import pickle
import sys

import cardtable
from cardtable.agents import Observation, make_agent

game = cardtable.load("army-of-darkness", players=2)
P = os.environ.get("POSITIONS", "/tmp/bots/positions.pkl")
if not os.path.exists(P):
    pos = []
    for deal in range(int(os.environ.get("DEALS", "4"))):
        state = game.new(300 + deal, log=False)
        h = [make_agent("heuristic", game, deal * 3 + s) for s in range(2)]
        k = 0
        while not state.is_over:
            seat = state.current_player
            obs = Observation(state, seat)
            if len(obs.legal_actions()) > 1:
                k += 1
                if k % 4 == 0:
                    pos.append(state.clone())
            state.apply(h[seat].choose(obs))
    with open(P, "wb") as fh:
        pickle.dump(pos, fh)
with open(P, "rb") as fh:
    pos = pickle.load(fh)[: int(os.environ.get("N", "80"))]
for spec in sys.argv[1:]:
    devs = []
    for i, st in enumerate(pos):
        seat = st.current_player
        ag = make_agent(spec, game, i + 1)
        a = ag.choose(Observation(st, seat))
        hint = next((x for x in st.legal_actions() if x.index == ag.root_hint), None)
        if hint is not None and a.text != hint.text:
            vh, th = ag.last_stats[hint.text]
            vb, tb = ag.last_stats[a.text]
            devs.append((i, a.text, hint.text, round(tb / vb - (th / vh if vh else 0), 3)))
    print(spec, "positions", len(pos), "deviations", len(devs), [d[3] for d in devs], flush=True)
