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
3. *Rollout*: play on with random moves (or the game's heuristic: ``rollout=heuristic``), to the end
   or, when the game has an evaluation, for a few decisions only (see below).
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
heuristic module provides one (``rollout_rewards(state) -> per-seat rewards``; see
:mod:`cardtable.agents.hooks`). When it does, that is the default: rollouts stop after a few decisions
(the module's ``ROLLOUT_DEPTH``), because a random playout to the end is mostly noise (random play is
far from how the game is played) and, in long games, slow; an evaluation after a few random moves is
both a better and a cheaper estimate. Games without the hook keep full random rollouts. A module may
also provide ``rollout_stop(state) -> bool``: a cut rollout stops early where it is true, and so does
the descent through the tree below the root. The decision at the root is always searched.

**Priors.** The game's heuristic may guide the tree: its move in a full state (the heuristic module's
fast ``search_prior``, or with ``prior=always`` the ``Heuristic`` agent itself, asked about the
determinization) is the prior of PUCT (Rosin 2011; as in AlphaZero) instead of UCB1: every legal move
scores ``mean + c * P(move) * sqrt(N) / (1 + visits)``, where ``N`` is the node's visits, ``P`` gives
``prior_share`` to the heuristic's move plus an even share of the rest to every move (where the
heuristic's move is not legal in this determinization, its share is not given out), and a move not
yet tried scores its exploration term alone (its mean counts as 0: the lowest reward, or the lowest
seen when rewards are normalised). So the tree follows and deepens the heuristic's line first, tries
other moves as the visits grow, and leaves the heuristic where the evaluation says another move is
better. The prior is computed once per node, from the determinization that first selects there.

**Trees and workers.** ``trees=K`` grows K independent trees (each from its own seed, each with its
share of the budget) and adds up their root statistics before choosing: more determinizations seen
from the root, shallower trees. ``workers=W`` grows them on W processes at once (this one and W-1
helpers, :mod:`cardtable.agents.parallel`), which is root-parallel search: with an iteration budget
the choice is the same as with one worker (the trees and their seeds do not depend on W), only
sooner; with a time budget every process searches for the whole time.

**Budget.** ``iterations`` (deterministic for a seed) or ``ms`` (wall clock, from the moment ``choose``
is called to the moment it returns; the result then depends on the machine's speed). An iteration
budget still stops at the time cap ``ms_cap`` (:data:`~cardtable.agents.budget.DEFAULT_MS_CAP`), so no
search runs forever. Determinizations are already log-free clones, so no extra copy is made.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Final

from cardtable.agents.base import Agent, Observation
from cardtable.agents.budget import DEFAULT_MS_CAP, MAX_MS
from cardtable.agents.hooks import DEFAULT_DEPTH, Evaluation, Policy, game_hooks, heuristic_policy
from cardtable.agents.rewards import seat_rewards, win_shares
from cardtable.engine.rng import Rng

if TYPE_CHECKING:
    from cardtable.engine.actions import Action
    from cardtable.engine.game import JSON, Game, State

__all__ = [
    "DEFAULT_C",
    "DEFAULT_DEPTH",
    "EVALUATED_C",
    "PRIOR_C",
    "PRIOR_SHARE",
    "Ismcts",
    "RootStats",
    "game_evaluation",
    "seat_rewards",
    "win_shares",
]

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

MAX_VOTE: Final = 64
"""The most determinizations the prior may be asked about at the root (``vote=K``)."""

DEFAULT_ITERATIONS: Final = 1000
"""Iterations per decision when a spec gives neither ``iterations`` nor ``ms``."""

RootStats = dict[int, tuple[int, float]]
"""Visits and total reward of each root action, by action index (what trees add up)."""

Clock = Callable[[], float]


def game_evaluation(game: Game) -> tuple[Evaluation, int] | None:
    """The game's rollout evaluation and its default rollout depth, or None if it has none."""
    found = game_hooks(game)
    return None if found is None else (found.evaluate, found.depth)


def _random_playout(
    state: State, below: Callable[[int], int], limit: int = -1, stop: Callable[[State], bool] | None = None
) -> None:
    """Play ``state`` to the end (or for ``limit`` decisions, if not negative, or until ``stop(state)``
    if given) with uniformly random legal actions.

    This is the hot loop of the search, so it does what ``State.apply`` does for a log-free state
    without re-checking legality (the action is taken from ``legal_actions()`` itself): clear the
    legal-action cache, extend the history (``add_to_history``), call the game's ``_do``. Same result, ~15% faster.
    """
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
        state.add_to_history(action.index)  # copy-on-write: it may be shared with a clone
        do(action)


def _policy_playout(
    state: State,
    policy: Policy,
    below: Callable[[int], int],
    epsilon: float,
    limit: int = -1,
    stop: Callable[[State], bool] | None = None,
) -> None:
    """As :func:`_random_playout`, but each decision with a choice is ``policy``'s move, or a random one
    with probability ``epsilon`` (chance of a random move, in 1/1024ths, drawn from ``below``)."""
    do = state._do
    threshold = int(epsilon * 1024)
    while not state.is_over and limit != 0:
        if stop is not None and stop(state):
            return
        limit -= 1
        moves = state._legal
        if moves is None:
            moves = state._legal_actions()
            state._legal = moves
        if len(moves) == 1:
            action = moves[0]
        elif threshold and below(1024) < threshold:
            action = moves[below(len(moves))]
        else:
            action = policy(state)
        state._legal = None
        state.add_to_history(action.index)  # copy-on-write: it may be shared with a clone
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


def _AGENT(state: State) -> Action:
    """Placeholder for a policy played by the game's heuristic agent, made per tree (seeded)."""
    raise AssertionError("a per-tree policy was not made")


class _Settings:
    """Everything one tree's growth needs, resolved for the game being played."""

    __slots__ = (
        "c",
        "depth",
        "epsilon",
        "evaluate",
        "lazy",
        "normalise",
        "prior",
        "prior_share",
        "rollout",
        "stop",
        "vote",
        "widen",
    )

    def __init__(
        self,
        c: float,
        depth: int,
        evaluate: Evaluation | None,
        stop: Callable[[State], bool] | None,
        normalise: bool,
        prior: Policy | None,
        prior_share: float,
        rollout: Policy | None,
        epsilon: float,
        lazy: int = 1,
        widen: float = 0.0,
        vote: int = 1,
    ) -> None:
        self.lazy = lazy
        self.widen = widen
        self.vote = vote
        self.c = c
        self.depth = depth
        self.evaluate = evaluate
        self.stop = stop
        self.normalise = normalise
        self.prior = prior
        self.prior_share = prior_share
        self.rollout = rollout
        self.epsilon = epsilon


def grow(
    obs: Observation,
    settings: _Settings,
    rng: Rng,
    iterations: int,
    deadline: float,
    clock: Clock = time.perf_counter,
    root: _Node | None = None,
) -> tuple[_Node, int]:
    """Grow one tree from ``obs`` for ``iterations`` iterations or until ``clock()`` reaches
    ``deadline`` (at least one iteration); return its root and the iterations run. ``root``: a node
    of an earlier tree to grow on (tree reuse), else a new one."""
    seat = obs.seat
    players = obs.game.players
    if root is None:
        root = _Node(seat)
    base = root.visits  # a reused root's earlier visits count towards its exploration term
    below = rng.below
    log = math.log
    sqrt = math.sqrt
    inf = math.inf
    c = settings.c
    depth = settings.depth
    evaluate = settings.evaluate
    stop = settings.stop
    normalise = settings.normalise
    prior = settings.prior
    share = settings.prior_share
    rollout = settings.rollout
    epsilon = settings.epsilon
    lazy = settings.lazy
    widen = settings.widen
    votes: dict[int, float] | None = None
    if prior is not None and settings.vote > 1:
        votes = root_votes(obs, prior, settings.vote, share, rng)
        if votes:
            root.hint = max(votes, key=votes.__getitem__)  # the first most voted (dicts keep order)
        else:
            votes = None
    lo, hi = 0.0, 0.0  # the reward range seen (normalise only); lo stays 0 otherwise
    scale = 1.0
    seen = False
    done = 0
    best: _Node | None
    best_action: Action | None
    while done < iterations and (done == 0 or clock() < deadline):
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
                # A forced move needs no advice; a node seen fewer than `lazy` times is not worth a
                # heuristic call yet (most nodes never are): until then every move gets an even share.
                if hint == _NO_HINT and len(moves) > 1 and (node.visits >= lazy or node is root):
                    hint = node.hint = prior(state).index
                # Where the hint is not legal (another determinization's move), its share is
                # simply not given out: cheaper than checking, and exploring less there is fine.
                other = (1.0 - share) / len(moves)
                favourite = share + other
                shares = votes if node is root else None
                explore = c * sqrt(node.visits if node is not root else base + done)
                best = None
                best_key = -1
                best_action = None
                best_value = -inf
                for action in moves:
                    key = action.index * players + mover
                    child = children.get(key)
                    weight = favourite if action.index == hint else other
                    if shares is not None:
                        weight = other + shares.get(action.index, 0.0)
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
                state.add_to_history(best_action.index)
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
            best_value = -inf  # normalised means of a reused tree can lie below the range seen now
            tried = 0
            for action in moves:
                key = action.index * players + mover
                child = children.get(key)
                if child is None:
                    if untried is None:
                        untried = []
                    untried.append((key, action))
                    continue
                child.avail += 1
                tried += 1
                if untried is None or widen:
                    value = (child.total / child.visits - lo) * scale + c * sqrt(log(child.avail) / child.visits)
                    if value > best_value:
                        best_value = value
                        best = child
                        best_action = action
            if (
                untried is not None
                and widen
                and tried
                and tried >= widen * sqrt(node.visits if node is not root else done)
            ):
                untried = None  # progressive widening: no new child here until the node is visited more
            # The action comes from legal_actions() itself, so it is applied as _random_playout
            # does (no legality check; a determinization keeps no log).
            if untried is not None:
                key, action = untried[below(len(untried))] if len(untried) > 1 else untried[0]
                child = _Node(mover)
                children[key] = child
                path.append(child)
                state._legal = None
                state.add_to_history(action.index)
                state._do(action)
                break
            assert best is not None and best_action is not None
            path.append(best)
            state._legal = None
            state.add_to_history(best_action.index)
            state._do(best_action)
            node = best
            if stop is not None and stop(state):
                break  # scored here by the evaluation, as a rollout would be (module docstring)
        # Rollout.
        if rollout is None:
            _random_playout(state, below, depth, stop)
        else:
            _policy_playout(state, rollout, below, epsilon, depth, stop)
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
            # A range of rounding noise (equal rewards) would scale by ~1e16: treat it as no range.
            scale = 1.0 / (hi - lo) if hi - lo > 1e-9 else 1.0
        for child in path:
            child.visits += 1
            child.total += rewards[child.mover]
    root.visits = base + done
    return root, done


def root_votes(obs: Observation, prior: Policy, count: int, share: float, rng: Rng) -> dict[int, float]:
    """The prior's share of the root split by a vote (``vote=K``): the prior (the heuristic) is
    asked about ``count`` determinizations of the root, and each move it chose gets ``share`` times
    the fraction of the votes it won, by action index, in the order first chosen. Empty where the
    root has at most one legal move."""
    if len(obs.legal_actions()) < 2:
        return {}
    counts: dict[int, int] = {}
    for _ in range(count):
        index = prior(obs.sample(rng)).index
        counts[index] = counts.get(index, 0) + 1
    return {index: share * n / count for index, n in counts.items()}


def root_stats(root: _Node, players: int) -> RootStats:
    """The root's children as ``{action index: (visits, total reward)}``."""
    return {key // players: (child.visits, child.total) for key, child in root.children.items()}


def add_stats(into: RootStats, more: RootStats) -> None:
    """Add ``more``'s visits and rewards into ``into``."""
    for index, (visits, total) in more.items():
        old = into.get(index)
        into[index] = (visits, total) if old is None else (old[0] + visits, old[1] + total)


class Ismcts(Agent):
    """Single-observer ISMCTS. Options (all from the agent spec, e.g. ``ismcts:iterations=400``):

    ``iterations``
        iterations per decision (default :data:`DEFAULT_ITERATIONS` unless ``ms`` is given).
    ``ms``
        a time budget per decision in milliseconds (not reproducible); with ``iterations`` too, the
        search stops at whichever comes first.
    ``ms_cap``
        the time cap of an iteration budget (constructor only; default
        :data:`~cardtable.agents.budget.DEFAULT_MS_CAP`).
    ``c``
        the UCB exploration constant (rewards lie in 0..1); by default the game's heuristic
        module's ``ROLLOUT_C`` if it has one and rollouts are cut by default, else
        :data:`EVALUATED_C` when rollouts are cut and scored by an evaluation, else :data:`DEFAULT_C`
        (:data:`PRIOR_C` with a prior).
    ``rollout``
        an agent (constructor) or ``random`` (default) / ``heuristic`` (spec): who plays the rollouts.
        A heuristic rollout takes a random move with probability ``epsilon`` (default 0).
    ``prior``
        a full-state policy ``prior(state) -> Action`` (constructor only) guiding the tree by PUCT
        (module docstring); by default the game's heuristic module's ``search_prior`` if it has
        one, unless ``game_prior=False`` (spec: ``prior=none``); ``agent_prior=True`` (spec:
        ``prior=always``) uses the ``Heuristic`` agent where the module has no ``search_prior``.
    ``prior_share``
        the share of the prior on the heuristic's move (default :data:`PRIOR_SHARE`).
    ``lazy``
        the visits a node needs before the prior is asked about it (default 1: at its first
        selection; the root at once). Most nodes are visited once or twice, so a few visits more
        saves most of the prior's calls where the heuristic is slow (spec: ``lazy=N``).
    ``depth``
        stop each rollout after this many decisions and score the position with ``evaluate`` (the
        game's ``rollout_rewards(state) -> per-seat rewards in 0..1``). Without ``depth`` and
        ``evaluate``: if the game's heuristic module has ``rollout_rewards``, rollouts stop after its
        ``ROLLOUT_DEPTH`` decisions and are scored by it, unless ``full_rollouts=True`` (constructor
        only); otherwise they play to the end. Shorter rollouts mean many more iterations per second.
    ``widen``
        progressive widening where the tree selects by UCB1 (no prior): a node visited N times grows
        a new child only while it has fewer than ``widen * sqrt(N)`` (default 0: off; spec ``widen=K``).
    ``normalise``
        rescale mean rewards to the range seen in each decision (min-max, as MuZero does), so that the
        exploration constant does not depend on the evaluation's spread (spec ``normalise=yes|no``;
        default: the game's ``ROLLOUT_NORMALISE``).
    ``reuse``
        tree reuse (spec ``reuse=yes``): a decision's tree starts from the node of the last decision's
        tree that the actions taken since lead to (one tree only; ``trees`` > 1 start afresh).
    ``learned``
        score cut rollouts with the game's learned value where it has one (spec: ``eval=learned``).
    ``trees``, ``workers``
        independent trees per decision (default 1) and the processes that grow them (default 1; see
        the module docstring). More than one worker needs an agent built from a spec.
    ``look``
        with heuristic rollouts, the lookahead of the heuristic agent that plays them (its ``depth``
        option, spec ``look=N``; default 0: the agent's own default). Army of Darkness's heuristic
        looks 3 of its own decisions ahead at 0.8 ms a move; at 1 it takes 0.1 ms, cheap enough for
        rollouts of several decisions.
    ``advisor``
        with the heuristic agent as the prior (``agent_prior``), the named settings of the game's
        heuristic module's ``ADVISORS`` it plays by (spec ``advisor=NAME``; default None: as shipped).
    ``gate``
        a confidence gate on leaving the prior (spec ``gate=D``, default 0: off): with a prior, the
        search plays the move the prior favoured at its root unless the most visited move's mean
        reward beats that move's by at least ``D`` (rewards lie in 0..1). Where the root's means
        differ by rounding noise of a flat evaluation, the heuristic's move is played.
    ``vote``
        the prior at the root by a vote (spec ``vote=K``, default 1: off): the prior is asked about K
        determinizations of the root instead of the first one, and its share is split among the moves
        it chose by their votes; the most voted is the root's favourite (and the gate's reference).
        A heuristic that judges one sampled state (Army of Darkness's) then judges K.
    """

    name = "ismcts"

    def __init__(
        self,
        seed: int = 0,
        *,
        iterations: int | None = None,
        ms: float | None = None,
        c: float | None = None,
        rollout: Agent | None = None,
        depth: int | None = None,
        evaluate: Evaluation | None = None,
        full_rollouts: bool = False,
        prior: Policy | None = None,
        game_prior: bool = True,
        agent_prior: bool = False,
        prior_share: float = PRIOR_SHARE,
        policy_rollouts: bool = False,
        epsilon: float = 0.0,
        trees: int = 1,
        workers: int = 1,
        ms_cap: float = DEFAULT_MS_CAP,
        learned: bool = False,
        lazy: int = 1,
        widen: float = 0.0,
        reuse: bool = False,
        normalise: bool | None = None,
        gate: float = 0.0,
        vote: int = 1,
        look: int = 0,
        advisor: str | None = None,
        spec: str | None = None,
        clock: Clock = time.perf_counter,
    ) -> None:
        super().__init__(seed)
        if iterations is not None and iterations < 1:
            raise ValueError("ismcts: iterations must be at least 1")
        if ms is not None and not 0 < ms <= MAX_MS:
            raise ValueError(f"ismcts: ms must lie in 0..{MAX_MS:g} (exclusive of 0)")
        if not 0 < ms_cap <= MAX_MS:
            raise ValueError(f"ismcts: ms_cap must lie in 0..{MAX_MS:g} (exclusive of 0)")
        if depth is not None and (depth < 0 or evaluate is None):
            raise ValueError("ismcts: depth must be at least 0 and needs an evaluation function")
        if trees < 1 or workers < 1:
            raise ValueError("ismcts: trees and workers must be at least 1")
        if not 0.0 <= prior_share <= 1.0 or not 0.0 <= epsilon <= 1.0:
            raise ValueError("ismcts: prior_share and epsilon must lie in 0..1")
        if not 0.0 <= gate <= 1.0:
            raise ValueError("ismcts: gate must lie in 0..1")
        if not 1 <= vote <= MAX_VOTE:
            raise ValueError(f"ismcts: vote must lie in 1..{MAX_VOTE}")
        self.depth = depth
        self.evaluate = evaluate
        # Use the game's own evaluation and depth when neither is given (decided per decision, from
        # the observed game: an agent is built before it knows the game it will play).
        self.game_default = depth is None and evaluate is None and not full_rollouts
        self.prior = prior
        self.game_prior = game_prior
        self.agent_prior = agent_prior
        self.prior_share = prior_share
        self.policy_rollouts = policy_rollouts
        self.epsilon = epsilon
        self.iterations = iterations if iterations is not None or ms is not None else DEFAULT_ITERATIONS
        """Iterations per decision (None: ``ms`` alone is the budget)."""
        self.ms = ms
        self.ms_cap = ms_cap
        self.c = c
        self.rollout_agent = rollout
        self.trees = trees
        self.workers = workers
        self.normalise = normalise
        """Rescale mean rewards to the range seen in the decision (None: as the game's module says)."""
        self.reuse = reuse
        """Grow each decision's tree on the part of the last one that the actions since lead to."""
        self._kept: tuple[list[int], int, _Node] | None = None
        self.last_reused = 0
        """Visits of the reused node at the last decision (0: a new tree)."""
        self.widen = widen
        """Progressive widening (UCB selection only): a node visited N times has at most
        ``widen * sqrt(N)`` children (0: off)."""
        self.look = look
        """The lookahead (``depth`` option) of the heuristic agent that plays heuristic rollouts (0: its
        default)."""
        self.advisor = advisor
        """The named settings (the heuristic module's ``ADVISORS``) of the heuristic agent that plays
        the prior with ``agent_prior`` (None: the heuristic as shipped)."""
        self.vote = vote
        """Determinizations the prior is asked about at the root (1: the first one only)."""
        self.gate = gate
        """The confidence gate (0: off): the root's prior move is played unless the chosen move's mean
        beats its mean by at least this much."""
        self.root_hint = -1
        """The action index the prior chose at the root of the last decision's first tree (-1: none)."""
        self.last_gated = False
        """Whether the gate replaced the search's choice by the prior's at the last decision."""
        self.lazy = lazy
        """The visits a node needs before the prior is asked about it (the root is asked at once)."""
        self.learned = learned
        """Score cut rollouts with the game's learned value (:mod:`cardtable.agents.values`) instead
        of its hand-made ``rollout_rewards``, where it has one."""
        self.spec = spec
        """The spec this agent was built from (helper processes rebuild it from this text)."""
        self.clock = clock
        self.last_iterations = 0
        """How many iterations the last decision ran, over all its trees (for benchmarks)."""
        self.last_stats: dict[str, tuple[int, float]] = {}
        """Visits and total reward of each root action at the last searched decision (for tests and
        for people curious why the search chose what it did)."""
        self._turn: object = None
        self._tried: dict[str, set[str]] = {}
        """The actions chosen this turn from each view (its JSON): the cycle guard (module docstring)."""
        self._settings: tuple[Game, _Settings] | None = None

    # -- settings --------------------------------------------------------------------------------------
    def settings(self, game: Game, seed: int = 0) -> _Settings:
        """The search settings for ``game`` (hooks, priors, constants), for the tree grown from
        ``seed``: a heuristic agent that plays the prior or the rollouts is seeded from it, so a tree
        is the same whichever process grows it."""
        cached = self._settings
        if cached is None or cached[0] is not game:
            cached = (game, self._resolve(game))
            self._settings = cached
        base = cached[1]
        if not (base.prior is _AGENT or base.rollout is _AGENT):
            return base
        made = _Settings(
            base.c,
            base.depth,
            base.evaluate,
            base.stop,
            base.normalise,
            base.prior,
            base.prior_share,
            base.rollout,
            base.epsilon,
            base.lazy,
            base.widen,
            base.vote,
        )
        if base.prior is _AGENT:
            made.prior = heuristic_policy(game, seed ^ 0x9E37, advisor=self.advisor)
        if base.rollout is _AGENT:
            made.rollout = heuristic_policy(game, seed ^ 0x5EED, self.look)
            if made.rollout is None:
                raise ValueError(f"ismcts: {game.id!r} has no heuristic to play rollouts")
        return made

    def _resolve(self, game: Game) -> _Settings:
        depth = -1 if self.depth is None else self.depth
        evaluate = self.evaluate
        stop: Callable[[State], bool] | None = None
        prior = self.prior
        game_c: float | None = None
        normalise = False
        found = game_hooks(game)
        if found is not None:
            if self.game_default:
                evaluate, depth, stop, game_c, normalise = (
                    found.evaluate,
                    found.depth,
                    found.stop,
                    found.c,
                    found.normalise,
                )
            elif self.depth is not None and evaluate is found.evaluate:
                # An explicit depth with the game's own evaluation changes the depth only: the game's
                # stop, exploration constant and normalisation still hold (`strong:depth=0` used to
                # drop them silently, so it also searched inside Mr. Card Game's Marches, unnormalised).
                stop, game_c, normalise = found.stop, found.c, found.normalise
            if self.game_prior and prior is None:
                prior = found.prior
            if self.learned and (self.game_default or self.depth is not None):
                # An explicit depth keeps the learned value at its cut (`strong:depth=0`).
                from cardtable.agents.values import learned_value

                value = learned_value(game)
                if value is not None:
                    evaluate = value
        if self.game_prior and prior is None and self.agent_prior and heuristic_policy(game, 0) is not None:
            prior = _AGENT  # made per tree, seeded (settings)
        rollout: Policy | None = None
        if self.rollout_agent is not None:
            agent = self.rollout_agent

            def via_agent(state: State) -> Action:
                mover = state.current_player
                assert mover is not None
                return agent.choose(Observation(state, mover))

            rollout = via_agent
            stop = None  # an agent's rollouts are not stopped early (as before policies existed)
        elif self.policy_rollouts:
            rollout = _AGENT
        if rollout is not None and self.game_default and found is None:
            depth = -1
        if self.normalise is not None:
            normalise = self.normalise
        if self.c is not None:
            c = self.c
        elif prior is not None:
            c = PRIOR_C
        elif game_c is not None:
            c = game_c
        else:
            c = EVALUATED_C if evaluate is not None else DEFAULT_C
        return _Settings(
            c,
            depth,
            evaluate,
            stop,
            normalise,
            prior,
            self.prior_share,
            rollout,
            self.epsilon,
            self.lazy,
            self.widen,
            self.vote,
        )

    # -- searching -------------------------------------------------------------------------------------
    def budget_ms(self) -> float:
        """The time budget of one decision: ``ms``, or the time cap behind an iteration budget alone."""
        return self.ms if self.ms is not None else self.ms_cap

    def grow_trees(
        self, obs: Observation, seeds: Sequence[int], iterations: int, deadline: float
    ) -> tuple[RootStats, int]:
        """Grow one tree per seed, one after the other, each for ``iterations`` iterations (or, with a
        time budget, each for its share of the time left); return their added root statistics and the
        iterations run."""
        players = obs.game.players
        stats: RootStats = {}
        done = 0
        clock = self.clock
        keep = self.reuse and len(seeds) == 1
        for k, seed in enumerate(seeds):
            settings = self.settings(obs.game, seed)
            now = clock()
            share = now + (deadline - now) / (len(seeds) - k)
            start = self._reused(obs) if keep else None
            root, ran = grow(obs, settings, Rng(seed), iterations, share, clock, start)
            if k == 0:
                self.root_hint = root.hint if root.hint >= 0 else -1
            add_stats(stats, root_stats(root, players))
            done += ran
            if keep:
                self._kept = (list(obs.history()), obs.seat, root)
        return stats, done

    def _reused(self, obs: Observation) -> _Node | None:
        """The node of the last tree where this decision is, found by following the actions taken
        since (None when they left the tree, or it is another seat's or another game's)."""
        kept = self._kept
        if kept is None:
            return None
        history, seat, node = kept
        now = obs.history()
        if seat != obs.seat or len(now) <= len(history) or list(now[: len(history)]) != history:
            return None
        players = obs.game.players
        for index in now[len(history) :]:
            found: _Node | None = None
            for mover in range(players):
                child = node.children.get(index * players + mover)
                if child is not None and (found is None or child.visits > found.visits):
                    found = child
            if found is None:
                return None
            node = found
        self.last_reused = node.visits
        return node

    def search(self, obs: Observation, start: float) -> tuple[RootStats, int]:
        """Every tree of this decision (on the helper processes too, with ``workers``)."""
        self.root_hint = -1
        deadline = start + self.budget_ms() / 1000.0
        iterations = (1 << 62) if self.iterations is None else max(1, self.iterations // self.trees)
        trees = self.trees
        seeds = [self.rng.next64() >> 2 for _ in range(trees)]
        if self.workers <= 1 or trees <= 1:
            return self.grow_trees(obs, seeds, iterations, deadline)
        from cardtable.agents.parallel import helpers

        if self.spec is None:
            raise ValueError("ismcts: more than one worker needs an agent built from a spec (make_agent)")
        shares = [seeds[k :: self.workers] for k in range(min(self.workers, trees))]
        with helpers(len(shares) - 1) as crew:
            # Each helper grows its trees from a sample of what this seat may know: the true state
            # never leaves this process.
            jobs = crew.start(self.spec, obs, shares[1 : 1 + len(crew)], iterations, deadline, self.clock)
            stats, done = self.grow_trees(
                obs, shares[0] + [s for part in shares[1 + len(crew) :] for s in part], iterations, deadline
            )
            for more, ran in jobs.results(deadline):
                add_stats(stats, more)
                done += ran
        return stats, done

    def _handed(self, obs: Observation, view: dict[str, JSON]) -> Action | None:
        """The heuristic's move, unsearched, where the game's ``search_defers`` says so for this seat's
        view (a search guided by the game's prior only); None otherwise. Its determinization comes
        from a generator of its own, seeded by the decision's place in the game, so the agent's own
        stream (and every searched decision after it) is the same as if no hook existed."""
        if not self.game_prior or self.prior is not None:
            return None
        found = game_hooks(obs.game)
        if found is None or found.defer is None or found.prior is None or not found.defer(view, obs.seat):
            return None
        move = found.prior(obs.sample(Rng(len(obs.history()) * 1_000_003 + obs.seat)))
        for action in obs.legal_actions():
            if action.index == move.index:
                return action
        return None

    def choose(self, obs: Observation) -> Action:
        start = self.clock()
        self.last_reused = 0
        self.last_gated = False
        legal = obs.legal_actions()
        if len(legal) == 1:
            # Nothing to decide: do not spend the budget (nor the generator) on a forced move.
            self.last_iterations = 0
            self.last_stats = {}
            return legal[0]
        # The cycle guard's key first, so the time budget covers it too.
        view = obs.view()
        if view.get("turn") != self._turn:
            self._turn = view.get("turn")
            self._tried = {}
        tried = self._tried.setdefault(json.dumps(view, sort_keys=True), set())
        handed = self._handed(obs, view)
        if handed is not None:
            self.last_iterations = 0
            self.last_stats = {}
            return handed
        stats, done = self.search(obs, start)
        self.last_iterations = done
        # The most visited root action not already chosen from this view this turn (a cycle);
        # ties go to the earlier legal action (deterministic).
        best_action = legal[0]
        best_rank = (False, -1)
        shown: dict[str, tuple[int, float]] = {}
        for action in legal:
            visits, total = stats.get(action.index, (0, 0.0))
            shown[action.text] = (visits, total)
            rank = (action.text not in tried, visits)
            if rank > best_rank:
                best_rank = rank
                best_action = action
        if self.gate > 0.0 and self.root_hint >= 0 and best_action.index != self.root_hint:
            gated = self._gated(legal, stats, best_action, tried)
            if gated is not None:
                best_action = gated
                self.last_gated = True
        tried.add(best_action.text)
        self.last_stats = shown
        return best_action

    def _gated(self, legal: Sequence[Action], stats: RootStats, chosen: Action, tried: set[str]) -> Action | None:
        """The confidence gate (``gate=D``): the prior's root move when ``chosen`` (another move, the
        most visited) does not beat its mean by ``D``, else None (the search's choice stands). The
        prior's move is the one the heuristic made at the root of the first tree, from the
        determinization that first reached it (the tree's own favourite). It stands unless the
        evidence against it is clear: where it was never visited, or was already chosen from this view
        this turn (the cycle guard), or is not legal here, the search's choice stands."""
        hint = self.root_hint
        favourite = next((a for a in legal if a.index == hint), None)
        if favourite is None or favourite.text in tried:
            return None
        visits, total = stats.get(hint, (0, 0.0))
        if visits == 0:
            return None
        chosen_visits, chosen_total = stats.get(chosen.index, (0, 0.0))
        if chosen_visits == 0 or chosen_total / chosen_visits - total / visits >= self.gate:
            return None
        return favourite
