"""Army of Darkness, 2 players: the heuristic with one of its choices fixed by a rule, against the
shipped heuristic (paired deals, seats rotated; ``../2026-11-28-prior-screens/screen.py`` plays them).

``python structural.py MODE DEALS`` from this folder, with ``../2026-11-28-prior-screens`` on the path:
``none`` (the control: the shipped heuristic, exactly the even share), ``draw`` (at step 3 always draw
when a draw is allowed), ``attack`` (at step 3 attack whenever a draw is the alternative: the heuristic
picks whom), ``one`` (never a second card in step 1), ``two`` (always a second card: the heuristic
picks which)."""

import sys

import screen

import cardtable
from cardtable.agents.base import Observation
from cardtable.agents.heuristics import army_of_darkness as H
from cardtable.engine import Action
from cardtable.games.army_of_darkness.codes import A_ATTACK, A_DONE, A_DRAW, A_PASS, A_PLAY


class Fixed(H.Heuristic):
    mode = "none"

    def choose(self, obs: Observation) -> Action:
        legal = obs.legal_actions()
        if len(legal) > 1:
            kinds = [obs.game.CODE[a.index] for a in legal]
            m = self.mode
            if m == "draw" and A_DRAW in kinds and (A_ATTACK in kinds or A_PASS in kinds):
                return legal[kinds.index(A_DRAW)]
            if m == "attack" and A_ATTACK in kinds and A_DRAW in kinds:
                return self.choose_among(obs, [a for a, k in zip(legal, kinds, strict=True) if k == A_ATTACK])
            if m == "one" and A_DONE in kinds and A_PLAY in kinds:
                return legal[kinds.index(A_DONE)]
            if m == "two" and A_DONE in kinds and A_PLAY in kinds:
                return self.choose_among(obs, [a for a, k in zip(legal, kinds, strict=True) if k == A_PLAY])
        return super().choose(obs)


def play(args: tuple[str, int, int]) -> tuple[int, int, float]:
    mode, deal, rot = args

    def candidate(seed: int) -> Fixed:
        agent = Fixed(seed)
        agent.mode = mode
        return agent

    st, hero = screen.play(cardtable.load("army-of-darkness", players=2), candidate, deal, rot, 5000)
    w = st.winner
    return (deal, rot, 1.0 if w == hero else (0.0 if w is not None and w >= 0 else 0.5))


if __name__ == "__main__":
    mode, deals = sys.argv[1], int(sys.argv[2])
    screen.run(play, [(mode, d, r) for d in range(deals) for r in range(2)], 2, name=mode)
