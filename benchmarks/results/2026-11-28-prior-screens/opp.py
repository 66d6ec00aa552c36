"""Variant: my turn completed greedily, then the opponents' turns played by a greedy depth-1 policy,
then evaluated."""

import sys

import screen

import cardtable
from cardtable.agents.heuristics import army_of_darkness as H
from cardtable.games.army_of_darkness.codes import P_HIT

LOOKAHEAD = H.Heuristic()
"""The shipped heuristic's lookahead (``_value``: its own decisions, greedily, scored by ``evaluate``)."""


def greedy_step(st, who, depth):
    """``st`` after ``who``'s greedy choice, looking ``depth`` of its decisions ahead."""
    best = None
    bv = -float("inf")
    for a in st.legal_actions():
        ch = st.clone()
        ch.apply(a)
        v = LOOKAHEAD._value(ch, who, depth - 1)
        if v > bv:
            best, bv = ch, v
    return best


class Opp(H.Heuristic):
    odepth = 1

    def _value(self, st, me, depth):
        """What ``Heuristic.choose`` asks of each legal move's result (``depth`` unused): the rest of
        the turn and the opponents' turns played greedily, then the position scored."""
        # finish my turn greedily
        guard = 0
        while not st.is_over and st.current_player == me and guard < 30:
            st = greedy_step(st, me, self.depth)
            guard += 1
        # the others' turns (and hits I take on their turns: me decides greedily with depth 1)
        guard = 0
        while not st.is_over and guard < 60:
            p = st.current_player
            if p == me and st.phase != P_HIT:
                break
            st = greedy_step(st, p, self.odepth if p != me else 1)
            guard += 1
        return H.evaluate(st, me)


def play(args):
    deal, rot, players, odepth = args

    def candidate(seed):
        a = Opp(seed)
        a.odepth = odepth
        return a

    st, hero = screen.play(cardtable.load("army-of-darkness", players=players), candidate, deal, rot, 5000)
    w = st.winner
    return (deal, rot, 1.0 if w == hero else (0.0 if w is not None and w >= 0 else 1.0 / players))


if __name__ == "__main__":
    deals = int(sys.argv[1])
    players = int(sys.argv[2])
    odepth = int(sys.argv[3])
    first = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    tasks = [(d, r, players, odepth) for d in range(first, first + deals) for r in range(players)]
    screen.run(play, tasks, odepth=odepth, players=players)
