import sys

import cardtable
from cardtable.agents import Observation, make_agent

game = cardtable.load("army-of-darkness", players=2)
out = []
for deal in [int(x) for x in sys.argv[1:]]:
    state = game.new(deal, log=False)
    import os

    agents = [
        make_agent(os.environ.get("SPEC", "strong"), game, deal * 7 + 1),
        make_agent("heuristic", game, deal * 7 + 2),
    ]
    n = 0
    while not state.is_over:
        seat = state.current_player
        a = agents[seat].choose(Observation(state, seat))
        if seat == 0 and agents[0].last_stats:
            ag = agents[0]
            n += 1
            st = ag.last_stats
            hint = next((x for x in state.legal_actions() if x.index == ag.root_hint), None)
            if hint is not None and a.text != hint.text:
                vh, th = st[hint.text]
                vb, tb = st[a.text]
                out.append((deal, vb, vh, (tb / vb) - (th / vh if vh else 0)))
                print(
                    deal,
                    a.text[:40],
                    "| hint:",
                    hint.text[:40],
                    vb,
                    vh,
                    round(tb / vb - (th / vh if vh else 0), 4),
                    flush=True,
                )
        state.apply(a)
    print(
        "deal", deal, "searched", n, "devs", sum(1 for o in out if o[0] == deal), "result", state.result(), flush=True
    )
