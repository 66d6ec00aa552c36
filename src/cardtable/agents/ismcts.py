"""Information-set Monte Carlo tree search (single observer), usable for every game.

The searcher never sees the true state. Each iteration draws one *determinization* — a full state
consistent with the searching seat's view, from :meth:`Observation.sample` (``state.determinize``) —
and runs one MCTS iteration on it through a single tree shared by all determinizations (SO-ISMCTS,
Cowling, Powley & Whitehouse 2012):

1. *Selection*: from the root, while every action legal in this determinization already has a child,
   pick the child maximising UCB1 with **availability counts** — a child's exploration term uses the
   number of iterations in which it was *legal* (available), not the parent's visits, because hidden
   cards make different actions available in different determinizations.
2. *Expansion*: add one child for an untried legal action (chosen at random).
3. *Rollout*: play on with random (or the game's heuristic) moves, to the end or, when the game has an
   evaluation, for a few decisions only (see below).
4. *Backpropagation*: each edge is credited with the reward of the seat that took it, so every node
   maximises the reward of the seat to move there (multi-player, teams).

Tree edges are keyed by ``action.index * players + mover``: an integer (interned actions have fixed
indices), so a lookup is one dict probe, and a node never mixes the same action taken by two seats.

Rewards come from :meth:`State.result` through :func:`seat_rewards`: each seat's share of the win
(:func:`win_shares`: ties and teams share), and in solitaire half for winning, half for the score.

No cycles: an action that takes the mover back to a decision it has already seen is worth, to the
tree, the best continuation from there (the maximum of noisy estimates), so free reversible actions
(equip one item then the other, in a game that allows any number of them) would be chosen forever.
The agent therefore never repeats, within one turn, an action it chose before from the very same
view: it takes the most visited action it has not yet tried there.

Rollouts may be cut short (``depth``) and scored by the game's heuristic evaluation when the
heuristic module provides one (``rollout_rewards(state) -> per-seat rewards``). When it does, that is
the default: rollouts stop after :data:`DEFAULT_DEPTH` decisions (or the module's ``ROLLOUT_DEPTH``),
because a random playout to the end is mostly noise (random play is far from how the game is played)
and, in long games, slow; an evaluation after a few random moves is both a better and a cheaper
estimate. Games without the hook keep full random rollouts. A module may also provide
``rollout_stop(state) -> bool``: a cut rollout stops early where it is true, and so does the descent
through the tree below the root (a decision random play gets badly wrong and the tree, at a small
budget, cannot search well, which the evaluation judges instead: Mr. Card Game's March poll and
March, which its evaluation plays out greedily). The decision at the root is always searched.

A game whose heuristic is good and whose turns are long (Mr. Card Game: a turn is a dozen atomic
decisions, and random play within a turn is hopeless) may give the search a *prior*: its heuristic
module's ``search_prior(state) -> Action``, the move the heuristic would make in a full state. The
tree then selects by PUCT (Rosin 2011; as in AlphaZero) instead of UCB1: every legal move scores
``mean + c * P(move) * sqrt(N) / (1 + visits)``, where ``N`` is the node's visits, ``P`` gives
:data:`PRIOR_SHARE` to the heuristic's move plus an even share of the rest to every move (where the
heuristic's move is not legal in this determinization, its share is not given out), and a move
not yet tried scores its exploration term alone (its mean counts as 0: the lowest reward, or the
lowest seen when rewards are normalised), with ``c`` :data:`PRIOR_C` unless given. So the tree
follows and deepens the heuristic's line first, tries other moves as the visits grow, and leaves the
heuristic where the evaluation says another move is better. The prior is computed once per node,
from the determinization that first selects there (the heuristic decides from samples anyway), so
it costs one heuristic decision per node of the tree, not one per rollout step.

Budget: ``iterations`` (deterministic for a seed) or ``ms`` (wall clock; then the result depends on
the machine's speed). Determinizations are already log-free clones, so no extra copy is made.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Final, NamedTuple

from cardtable.agents.base import Agent, Observation

if TYPE_CHECKING:
    from cardtable.engine.actions import Action
    from cardtable.engine.game import Game, Result, State

DEFAULT_DEPTH: Final = 8
"""Rollout length when neither ``depth`` nor ``evaluate`` is given and the game's heuristic module
provides ``rollout_rewards`` (a module may set its own ``ROLLOUT_DEPTH``)."""

DEFAULT_C: Final = 0.7
"""The UCB exploration constant for rollouts played to the end (rewards lie in 0..1)."""

PRIOR_C: Final = 1.0
"""The PUCT constant when the tree is guided by a prior (module docstring): 1 did better than 0.5
against Mr. Card Game's heuristic, and as well as 2, at 200 iterations."""

PRIOR_SHARE: Final = 0.5
"""With a game prior (``search_prior``): the share of the prior probability on the heuristic's move;
the rest is spread evenly over every legal move, that one included."""

EVALUATED_C: Final = 0.25
"""The exploration constant when rollouts are cut and scored by the game's evaluation: those rewards
spread much less than 0-or-1 results (0.25 did as well or better than 0.7 in Mephisto and Doctor
Strange against the heuristic)."""


class _Hooks(NamedTuple):
    """What a game's heuristic module offers the search (see :func:`_game_hooks`)."""

    evaluate: Callable[[State], Sequence[float]]
    depth: int
    stop: Callable[[State], bool] | None
    c: float | None
    normalise: bool
    prior: Callable[[State], Action] | None


def game_evaluation(game: Game) -> tuple[Callable[[State], Sequence[float]], int] | None:
    """The game's rollout evaluation and its default rollout depth, or None if it has none.

    Found through the agent registry's :func:`~cardtable.agents.registry.heuristic_evaluation` (the
    heuristic module's ``rollout_rewards``; its ``ROLLOUT_DEPTH``, else :data:`DEFAULT_DEPTH`). Not
    cached: after the first import it is a dictionary lookup, and tests may add a module later.
    """
    found = _game_hooks(game)
    return None if found is None else (found.evaluate, found.depth)


def _game_hooks(game: Game) -> _Hooks | None:
    """:func:`game_evaluation` plus the module's optional

    * ``rollout_stop(state) -> bool``: a cut rollout also stops, and is scored, at a position where
      it is true (e.g. before a decision that random play gets badly wrong and the evaluation judges
      better, Mr. Card Game's March poll);
    * ``ROLLOUT_C``: the exploration constant suited to its evaluation's spread;
    * ``ROLLOUT_NORMALISE``: True when the search should rescale mean rewards to the range seen in
      the decision (an evaluation whose values differ by hundredths between moves);
    * ``search_prior(state) -> Action``: the move the game's heuristic would make in a full state (a
      determinization); the tree then selects by PUCT with that move as its prior (module docstring).
    """
    import sys

    from cardtable.agents.registry import heuristic_evaluation

    evaluate = heuristic_evaluation(game.id)
    if evaluate is None:
        return None
    module = sys.modules.get(getattr(evaluate, "__module__", ""))
    c = getattr(module, "ROLLOUT_C", None)
    return _Hooks(
        evaluate,
        int(getattr(module, "ROLLOUT_DEPTH", DEFAULT_DEPTH)),
        getattr(module, "rollout_stop", None),
        None if c is None else float(c),
        bool(getattr(module, "ROLLOUT_NORMALISE", False)),
        getattr(module, "search_prior", None),
    )


def win_shares(result: Result, players: int) -> list[float]:
    """Each seat's share of the win: a sole winner 1; winners who are not one team share 1 equally;
    every member of a winning team gets the team's share; a draw without winners shares 1 among the
    top-ranked seats; a game nobody won (or a limit stop without winners) gives 0 to everyone."""
    out = [0.0] * players
    winners = result.winners
    if winners:
        teams = result.teams
        if teams:
            team_of = {seat: i for i, team in enumerate(teams) for seat in team}
            winning_teams = {team_of.get(seat, -1 - seat) for seat in winners}
            share = 1.0 / len(winning_teams)
        else:
            share = 1.0 / len(winners)
        for seat in winners:
            out[seat] = share
        return out
    if result.draw:
        top = [seat for seat, rank in enumerate(result.ranks) if rank == 1] or list(range(players))
        for seat in top:
            out[seat] = 1.0 / len(top)
    return out


def seat_rewards(result: Result, players: int) -> list[float]:
    """The reward the search maximises for every seat: its :func:`win_shares`, except in solitaire.

    Solitaire: a "win" may be the only outcome (a ranking says how well), so the score counts too,
    squashed monotonically into 0..1: half for winning, half for the score.
    """
    if players == 1:
        score = result.scores[0] if result.scores else 0.0
        return [0.5 * (0 in result.winners) + 0.25 + 0.25 * score / (1.0 + abs(score))]
    return win_shares(result, players)


def _random_playout(
    state: State, below: Callable[[int], int], limit: int = -1, stop: Callable[[State], bool] | None = None
) -> None:
    """Play ``state`` to the end (or for ``limit`` decisions, if not negative, or until ``stop(state)``
    if given) with uniformly random legal actions.

    This is the hot loop of the search, so it does what ``State.apply`` does for a log-free state
    without re-checking legality (the action is taken from ``legal_actions()`` itself): clear the
    legal-action cache, extend the history, call the game's ``_do``. Same result, ~15% faster.
    """
    history = state.history
    do = state._do
    while not state.is_over and limit != 0:
        if stop is not None and stop(state):
            return
        limit -= 1
        moves = state._legal
        if moves is None:
            moves = state._legal_actions()
        action = moves[below(len(moves))]
        state._legal = None
        history.append(action.index)
        do(action)


class _Node:
    """One edge of the tree (and the node it leads to): statistics for the seat that took it."""

    __slots__ = ("avail", "children", "hint", "mover", "total", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        self.visits = 0
        self.avail = 1
        self.total = 0.0
        self.children: dict[int, _Node] = {}
        self.hint = _NO_HINT
        """With a prior: the index of the action the game's heuristic chose at this node (from the
        determinization that first passed through it), :data:`_NO_HINT` until then."""


_NO_HINT: Final = -2


class Ismcts(Agent):
    """Single-observer ISMCTS. Options (all from the agent spec, e.g. ``ismcts:iterations=400``):

    ``iterations``
        iterations per decision (default 1000), unless ``ms`` is given.
    ``ms``
        a time budget per decision in milliseconds (overrides ``iterations``; not reproducible).
    ``c``
        the UCB exploration constant (rewards lie in 0..1); by default the game's heuristic
        module's ``ROLLOUT_C`` if it has one and rollouts are cut by default, else
        :data:`EVALUATED_C` when rollouts are cut and scored by an evaluation, else :data:`DEFAULT_C`.
    ``rollout``
        ``random`` (default) or ``heuristic`` (the game's heuristic agent plays the rollouts).
    ``prior``
        a full-state policy ``prior(state) -> Action`` (constructor only) guiding the tree by PUCT
        (module docstring); by default the game's heuristic module's ``search_prior`` if it has
        one, unless ``game_prior=False`` (spec: ``prior=none``).
    ``depth``
        stop each rollout after this many decisions and score the position with ``evaluate`` (the
        game's ``rollout_rewards(state) -> per-seat rewards in 0..1``). Without ``depth`` and
        ``evaluate``: if the game's heuristic module has ``rollout_rewards``, rollouts stop after its
        ``ROLLOUT_DEPTH`` (else :data:`DEFAULT_DEPTH`) decisions and are scored by it, unless
        ``full_rollouts=True`` (constructor only); otherwise they play to the end. Shorter rollouts
        mean many more iterations per second.
    """

    name = "ismcts"

    def __init__(
        self,
        seed: int = 0,
        *,
        iterations: int = 1000,
        ms: float | None = None,
        c: float | None = None,
        rollout: Agent | None = None,
        depth: int | None = None,
        evaluate: Callable[[State], Sequence[float]] | None = None,
        full_rollouts: bool = False,
        prior: Callable[[State], Action] | None = None,
        game_prior: bool = True,
    ) -> None:
        super().__init__(seed)
        if iterations < 1:
            raise ValueError("ismcts: iterations must be at least 1")
        if ms is not None and ms <= 0:
            raise ValueError("ismcts: ms must be positive")
        if depth is not None and (depth < 0 or evaluate is None):
            raise ValueError("ismcts: depth must be at least 0 and needs an evaluation function")
        self.depth = depth
        self.evaluate = evaluate
        # Use the game's own evaluation and depth when neither is given (decided per decision, from
        # the observed game: an agent is built before it knows the game it will play).
        self.game_default = depth is None and evaluate is None and not full_rollouts
        self.prior = prior
        self.game_prior = game_prior
        self.iterations = iterations
        self.ms = ms
        self.c = c
        self.rollout_agent = rollout
        self.last_iterations = 0
        """How many iterations the last decision ran (for benchmarks)."""
        self.last_stats: dict[str, tuple[int, float]] = {}
        """Visits and total reward of each root action at the last searched decision (for tests and
        for people curious why the search chose what it did)."""
        self._turn: object = None
        self._tried: dict[str, set[str]] = {}
        """The actions chosen this turn from each view (its JSON): the cycle guard (module docstring)."""

    def choose(self, obs: Observation) -> Action:
        legal = obs.legal_actions()
        if len(legal) == 1:
            # Nothing to decide: do not spend the budget (nor the generator) on a forced move.
            self.last_iterations = 0
            self.last_stats = {}
            return legal[0]
        seat = obs.seat
        players = obs.game.players
        root = _Node(seat)
        rng = self.rng
        below = rng.below
        log = math.log
        sqrt = math.sqrt
        rollout_agent = self.rollout_agent
        depth = -1 if self.depth is None else self.depth
        evaluate = self.evaluate
        stop: Callable[[State], bool] | None = None
        prior = self.prior
        game_c: float | None = None
        normalise = False
        lo, hi = 0.0, 0.0  # the reward range seen (normalise only); lo stays 0 otherwise
        scale = 1.0
        seen = False
        found = _game_hooks(obs.game)
        if found is not None:
            if self.game_default:
                evaluate, depth, stop, game_c, normalise, _ = found
            if self.game_prior and prior is None:
                prior = found.prior
        if rollout_agent is not None or depth < 0:
            stop = None  # only cut random rollouts stop early
        if self.c is not None:
            c = self.c
        elif prior is not None:
            c = PRIOR_C
        elif game_c is not None:
            c = game_c
        else:
            c = EVALUATED_C if evaluate is not None else DEFAULT_C
        deadline = None if self.ms is None else time.perf_counter() + self.ms / 1000.0
        budget = self.iterations
        done = 0
        best: _Node | None
        best_action: Action | None
        while True:
            if deadline is None:
                if done >= budget:
                    break
            elif done > 0 and time.perf_counter() >= deadline:
                break
            done += 1
            state: State = obs.sample(rng)
            node = root
            path: list[_Node] = []
            # Selection and expansion.
            while not state.is_over:
                moves = state.legal_actions()
                mover = state.current_player
                assert mover is not None
                children = node.children
                if prior is not None:
                    # PUCT (module docstring): the heuristic's move is the prior's favourite.
                    hint = node.hint
                    if hint == _NO_HINT and len(moves) > 1:  # a forced move needs no advice
                        hint = node.hint = prior(state).index
                    # Where the hint is not legal (another determinization's move), its share is
                    # simply not given out: cheaper than checking, and exploring less there is fine.
                    other = (1.0 - PRIOR_SHARE) / len(moves)
                    favourite = PRIOR_SHARE + other
                    explore = c * sqrt(node.visits if node is not root else done)
                    best = None
                    best_key = -1
                    best_action = None
                    best_value = -1e9
                    for action in moves:
                        key = action.index * players + mover
                        child = children.get(key)
                        weight = favourite if action.index == hint else other
                        if child is None:
                            value = explore * weight
                        else:
                            child.avail += 1
                            value = (child.total / child.visits - lo) * scale + explore * weight / (1 + child.visits)
                        if value > best_value:
                            best_value = value
                            best = child
                            best_key = key
                            best_action = action
                    assert best_action is not None
                    state._legal = None
                    state.history.append(best_action.index)
                    state._do(best_action)
                    if best is None:
                        best = _Node(mover)
                        children[best_key] = best
                        path.append(best)
                        break
                    path.append(best)
                    node = best
                    if stop is not None and stop(state):
                        break
                    continue
                untried: list[tuple[int, Action]] | None = None
                best = None
                best_action = None
                best_value = -1.0
                for action in moves:
                    key = action.index * players + mover
                    child = children.get(key)
                    if child is None:
                        if untried is None:
                            untried = []
                        untried.append((key, action))
                        continue
                    child.avail += 1
                    if untried is None:
                        value = (child.total / child.visits - lo) * scale + c * sqrt(log(child.avail) / child.visits)
                        if value > best_value:
                            best_value = value
                            best = child
                            best_action = action
                # The action comes from legal_actions() itself, so it is applied as _random_playout
                # does (no legality check; a determinization keeps no log).
                if untried is not None:
                    key, action = untried[below(len(untried))] if len(untried) > 1 else untried[0]
                    child = _Node(mover)
                    children[key] = child
                    path.append(child)
                    state._legal = None
                    state.history.append(action.index)
                    state._do(action)
                    break
                assert best is not None and best_action is not None
                path.append(best)
                state._legal = None
                state.history.append(best_action.index)
                state._do(best_action)
                node = best
                if stop is not None and stop(state):
                    break  # scored here by the evaluation, as a rollout would be (module docstring)
            # Rollout.
            if rollout_agent is None:
                _random_playout(state, below, depth, stop)
            else:
                steps = depth
                while not state.is_over and steps != 0:
                    steps -= 1
                    mover = state.current_player
                    assert mover is not None
                    state.apply(rollout_agent.choose(Observation(state, mover)))
            if state.is_over:
                rewards: Sequence[float] = seat_rewards(state.result(), players)
            else:
                assert evaluate is not None
                rewards = evaluate(state)
            if normalise:
                # Min-max normalised means (as MuZero does): the exploitation term spans 0..1 over
                # the rewards seen so far, whatever the evaluation's spread.
                if not seen:
                    lo = hi = rewards[0]
                    seen = True
                for r in rewards:
                    if r < lo:
                        lo = r
                    if r > hi:
                        hi = r
                scale = 1.0 / (hi - lo) if hi > lo else 1.0
            for child in path:
                child.visits += 1
                child.total += rewards[child.mover]
        self.last_iterations = done
        # The most visited root action not already chosen from this view this turn (a cycle);
        # ties go to the earlier legal action (deterministic).
        view = obs.view()
        if view.get("turn") != self._turn:
            self._turn = view.get("turn")
            self._tried = {}
        tried = self._tried.setdefault(json.dumps(view, sort_keys=True), set())
        best_action = legal[0]
        best_rank = (False, -1)
        children = root.children
        stats: dict[str, tuple[int, float]] = {}
        for action in legal:
            child = children.get(action.index * players + seat)
            visits = child.visits if child is not None else 0
            stats[action.text] = (visits, child.total if child is not None else 0.0)
            rank = (action.text not in tried, visits)
            if rank > best_rank:
                best_rank = rank
                best_action = action
        tried.add(best_action.text)
        self.last_stats = stats
        return best_action
