"""At each position (position_deviations.py's) where SPEC leaves its root prior's move, both moves
played out R times by the heuristic for both seats from the same determinizations: the mean of the
chosen move's reward minus the prior's move's. Usage: N=80 R=60 python deviation_truth.py SPEC"""

import os
import pickle
import sys

import cardtable
from cardtable.agents import Observation, make_agent, seat_rewards
from cardtable.engine import Rng

game = cardtable.load("army-of-darkness", players=2)
with open(os.environ.get("POSITIONS", "/tmp/bots/positions.pkl"), "rb") as fh:
    pos = pickle.load(fh)[: int(os.environ.get("N", "80"))]
R = int(os.environ.get("R", "60"))


def playout(st, seat, move, k):
    s = st.determinize(seat, Rng(1000 + k))
    s.apply(move)
    hs = [make_agent("heuristic", game, 7000 + 2 * k + j) for j in range(2)]
    while not s.is_over:
        p = s.current_player
        s.apply(hs[p].choose(Observation(s, p)))
    return seat_rewards(s.result(), 2)[seat]


spec = sys.argv[1]
tot = 0.0
n = 0
for i, st in enumerate(pos):
    seat = st.current_player
    ag = make_agent(spec, game, i + 1)
    a = ag.choose(Observation(st, seat))
    hint = next((x for x in st.legal_actions() if x.index == ag.root_hint), None)
    if hint is None or a.text == hint.text:
        continue
    d = [playout(st, seat, a, k) - playout(st, seat, hint, k) for k in range(R)]
    m = sum(d) / R
    tot += m
    n += 1
    print(i, a.text, "vs hint", hint.text, "truth diff", round(m, 3), flush=True)
print(spec, "deviations", n, "mean truth diff", tot / max(n, 1))
