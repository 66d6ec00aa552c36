"""A greedy player for Army of Darkness (Rules of Kalle).

It samples one state consistent with its view (``obs.sample``), tries each legal action there and
follows its own further decisions greedily up to ``depth`` levels (a card and its target, a second
card, the attack, its own hit), and scores the position it reaches with :func:`evaluate`: progress
towards its own Necronomicon victory for its current side, minus the best opponent's progress. It
never reads hidden cards: everything it sees comes from the observation.
"""

from __future__ import annotations

import math
from typing import Any, Final

from cardtable.agents.base import Agent, Observation
from cardtable.engine import Action, OptionError, State
from cardtable.games.army_of_darkness.cards import NECRONOMICON
from cardtable.games.army_of_darkness.codes import GOOD
from cardtable.games.army_of_darkness.state import AodState

WIN: Final = 10_000.0

HAND_CAP: Final = 6
"""The hand cards :func:`progress` counts by default (the heuristic's option ``hands=capped``)."""

ALL_CARDS: Final = 1 << 20
"""A hand cap no hand reaches (the heuristic's option ``hands=all``)."""

ADVISORS: Final[dict[str, dict[str, str]]] = {"all-hands": {"hands": "all"}}
"""Named settings of :class:`Heuristic` for a search's prior (the search option ``advisor=NAME``):
``all-hands`` counts every hand card, so a draw at step 3 is worth a card however full the hand is
(the shipped heuristic, the opponent the ladder measures against, stops counting at six)."""


def progress(st: AodState, s: int, hand_cap: int = HAND_CAP) -> float:
    """How close seat ``s`` is to the Necronomicon victory of her current side (larger is closer);
    at most ``hand_cap`` of her hand cards count."""
    types = st.game.TYPE
    necro = any(types[c] == NECRONOMICON for c in st.item[s])
    score = 12.0 if necro else 0.0
    if st.side[s] == GOOD:
        score += 4.0 * min(len(st.ally[s]), 3) + 0.5 * max(0, len(st.ally[s]) - 3)
        score -= 5.0 * len(st.mon[s])
    else:
        names = st.game.NAME_ID
        distinct = len({names[c] for c in st.mon[s]})
        score += 3.0 * min(distinct, 5) + 0.3 * (len(st.mon[s]) - distinct)
        score -= 5.0 * len(st.ally[s])
    # Items absorb hits; hand cards keep her able to win and to play.
    score += 1.0 * len(st.item[s]) + 0.8 * min(len(st.hands[s]), hand_cap)
    return score


def evaluate(st: AodState, me: int, hand_cap: int = HAND_CAP) -> float:
    """The value of ``st`` for seat ``me`` (``hand_cap`` as :func:`progress` takes it)."""
    if st.is_over:
        if st.winner == me:
            return WIN
        if st.winner >= 0:
            return -WIN
        return 0.0
    others = [progress(st, s, hand_cap) for s in range(st.game.players) if s != me]
    return progress(st, me, hand_cap) - 0.6 * max(others)


class Heuristic(Agent):
    """Greedy one-turn lookahead on a sampled state. Options ``depth`` (1..4, default 3) and ``hands``
    (``capped``, the default: at most six hand cards count; ``all``: every one does)."""

    name = "heuristic"

    def __init__(self, seed: int = 0, **options: Any) -> None:
        super().__init__(seed)
        unknown = set(options) - {"depth", "hands"}
        if unknown:
            raise OptionError(f"heuristic agent for army-of-darkness: unknown option(s) {', '.join(sorted(unknown))}")
        try:
            depth = int(options.get("depth", 3))
        except (TypeError, ValueError):
            raise OptionError(f"heuristic agent: depth must be an integer, got {options['depth']!r}") from None
        if not 1 <= depth <= 4:
            raise OptionError(f"heuristic agent: depth must be 1..4, got {depth}")
        hands = str(options.get("hands", "capped"))
        if hands not in ("capped", "all"):
            raise OptionError(f"heuristic agent: hands must be 'capped' or 'all', got {hands!r}")
        self.depth = depth
        self.hand_cap = HAND_CAP if hands == "capped" else ALL_CARDS

    def _value(self, st: State, me: int, depth: int) -> float:
        assert isinstance(st, AodState)
        if depth <= 0 or st.is_over or st.current_player != me:
            return evaluate(st, me, self.hand_cap)
        best = -float("inf")
        for a in st.legal_actions():
            child = st.clone()
            child.apply(a)
            best = max(best, self._value(child, me, depth - 1))
        return best

    def choose(self, obs: Observation) -> Action:
        legal = obs.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return self.choose_among(obs, legal)

    def choose_among(self, obs: Observation, legal: list[Action]) -> Action:
        """The best of ``legal`` (some of the seat's legal actions) by this agent's lookahead on one
        sample of the observation, ties broken at random; draws from the agent's generator even where
        ``legal`` has one action."""
        me = obs.seat
        sample = obs.sample(self.rng)
        best: list[Action] = []
        best_value = -float("inf")
        for a in legal:
            child = sample.clone()
            child.apply(a)
            v = self._value(child, me, self.depth - 1)
            if v > best_value + 1e-9:
                best, best_value = [a], v
            elif v > best_value - 1e-9:
                best.append(a)
        return best[self.rng.below(len(best))]


# The progress difference that makes a seat ~73% likely to win (logistic scale of :func:`progress`).
_SCALE: Final = 6.0


def rollout_rewards(state: AodState) -> list[float]:
    """Search evaluation of an Army of Darkness position (full information, e.g. a determinization).

    One value per seat in 0..1 estimating :func:`~cardtable.agents.ismcts.seat_rewards` at the end:
    the seats' win chances are a softmax of their :func:`progress` towards the Necronomicon victory of
    their current side. Reads the state's fields only (never mutates it) and takes a few microseconds.
    """
    n = state.game.players
    scores = [progress(state, s) for s in range(n)]
    top = max(scores)
    weights = [math.exp((v - top) / _SCALE) for v in scores]
    total = sum(weights)
    return [w / total for w in weights]


# -- learned evaluation (cardtable.agents.values) ---------------------------------------------------------
VALUE_FEATURES = (
    "progress",
    "necronomicon",
    "good_allies",
    "good_extra_allies",
    "good_monsters",
    "evil_distinct",
    "evil_extra_monsters",
    "evil_allies",
    "ready",
    "items",
    "hand",
    "hand_3plus",
    "switches",
    "no_cards",
    "to_move",
)
"""What :func:`value_features` measures for each seat (``scripts/train_values.py`` fits the weights)."""


def value_features(state: AodState) -> list[list[float]]:
    """Per seat: the hand-made :func:`progress`, then its parts by side (allies, monsters and distinct
    monster names count for or against a seat depending on whether it is Good or Evil), whether it
    holds the Necronomicon and already meets the rest of its side's victory condition, items, hand
    size, how often it has switched sides, whether it has no cards left, and whether it moves now."""
    g = state.game
    types = g.TYPE
    names = g.NAME_ID
    out: list[list[float]] = []
    for s in range(g.players):
        allies = len(state.ally[s])
        monsters = len(state.mon[s])
        distinct = len({names[c] for c in state.mon[s]})
        necro = any(types[c] == NECRONOMICON for c in state.item[s])
        good = state.side[s] == GOOD
        ready = necro and (allies >= 3 and monsters == 0 if good else distinct >= 5 and allies == 0)
        hand = len(state.hands[s])
        out.append(
            [
                progress(state, s),
                1.0 if necro else 0.0,
                float(min(allies, 3)) if good else 0.0,
                float(max(0, allies - 3)) if good else 0.0,
                float(monsters) if good else 0.0,
                float(min(distinct, 5)) if not good else 0.0,
                float(monsters - distinct) if not good else 0.0,
                float(allies) if not good else 0.0,
                1.0 if ready else 0.0,
                float(len(state.item[s])),
                float(min(hand, 6)),
                1.0 if hand >= 3 else 0.0,
                float(state.switches[s]),
                1.0 if hand == 0 else 0.0,
                1.0 if state.active == s else 0.0,
            ]
        )
    return out
