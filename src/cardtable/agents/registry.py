"""Agents by name, with options: ``random``, ``heuristic``, ``strong``, ``ismcts:iterations=400,rollout=heuristic``,
and the levels for people, ``easy``, ``normal``, ``hard``, ``expert``.

Every spec is built, and so validated, here (:func:`make_agent`): the command line's ``--seats``,
``cardtable simulate`` and the web lobby all go through it, so they accept and refuse the same specs
with the same words, budgets over the documented maxima included (:mod:`cardtable.agents.budget`).
:func:`catalogue` lists the agents for people: the levels first, each with a line of words.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.agents.base import Agent
from cardtable.agents.budget import (
    parse_float,
    parse_int,
    parse_iterations,
    parse_ms,
    parse_trees,
    parse_workers,
)
from cardtable.engine.errors import OptionError, did_you_mean
from cardtable.engine.game import Game, State


def _random(game: Game, seed: int, **opts: Any) -> Agent:
    from cardtable.agents.random_agent import RandomAgent

    if opts:
        raise OptionError(f"agent 'random' takes no options, got {', '.join(opts)}")
    return RandomAgent(seed)


def _heuristic(game: Game, seed: int, **opts: Any) -> Agent:
    from cardtable.agents.heuristics import heuristic_class

    return heuristic_class(game.id)(seed, **opts)


SEARCH_OPTIONS = (
    "iterations",
    "ms",
    "c",
    "rollout",
    "epsilon",
    "depth",
    "eval",
    "prior",
    "share",
    "lazy",
    "widen",
    "reuse",
    "normalise",
    "gate",
    "vote",
    "look",
    "advisor",
    "trees",
    "workers",
)
"""The options of every search spec (``ismcts``, ``strong``), as :func:`search_settings` reads them."""


def search_settings(agent: str, game: Game, opts: Mapping[str, Any]) -> dict[str, Any]:
    """Keyword arguments of :class:`~cardtable.agents.ismcts.Ismcts` from a search spec's options:

    ``iterations=N`` and ``ms=T`` (budget: with both, whichever ends first; each at most its
    documented maximum), ``c=X``, ``rollout=random|heuristic`` with ``epsilon=P`` (a random move's
    chance in heuristic rollouts), ``depth=D|full``, ``eval=hand|learned`` (the cut-off evaluation),
    ``prior=heuristic|always|none`` with ``share=S`` and ``lazy=N`` (visits before a node's prior),
    ``widen=K`` (progressive widening without a prior), ``reuse=yes|no`` (tree reuse),
    ``normalise=yes|no`` (min-max normalised rewards), ``gate=D`` (the prior's root move unless another
    beats its mean by D), ``vote=K`` (the root's prior by K determinizations), ``look=N`` (the
    lookahead of the heuristic playing ``rollout=heuristic``), ``advisor=NAME`` (the heuristic's named
    settings, its module's ``ADVISORS``, for the prior of ``prior=always``), ``trees=K``, ``workers=W``. Raises
    :class:`OptionError` naming the first bad option.
    """
    unknown = [k for k in opts if k not in SEARCH_OPTIONS]
    if unknown:
        hint = did_you_mean(unknown[0], SEARCH_OPTIONS) if len(unknown) == 1 else ""
        raise OptionError(
            f"agent {agent!r}: unknown option(s) {', '.join(unknown)}{hint}; it takes {', '.join(SEARCH_OPTIONS)}"
        )
    out: dict[str, Any] = {}
    if "iterations" in opts:
        out["iterations"] = parse_iterations(agent, opts["iterations"])
    if "ms" in opts:
        out["ms"] = parse_ms(agent, opts["ms"])
    if "c" in opts:
        out["c"] = parse_float(agent, "c", opts["c"], 0.0, 100.0)
    if "rollout" in opts:
        rollout = str(opts["rollout"])
        if rollout not in ("random", "heuristic"):
            raise OptionError(f"agent {agent!r}: rollout must be 'random' or 'heuristic', got {rollout!r}")
        if rollout == "heuristic":
            from cardtable.agents.hooks import heuristic_module

            if heuristic_module(game.id) is None:
                raise OptionError(f"agent {agent!r}: rollout=heuristic needs a heuristic agent for {game.id!r}")
        out["policy_rollouts"] = rollout == "heuristic"
    if "epsilon" in opts:
        out["epsilon"] = parse_float(agent, "epsilon", opts["epsilon"], 0.0, 1.0)
    if "depth" in opts:
        if opts["depth"] == "full":
            out["full_rollouts"] = True
            out["depth"] = None
        else:
            depth = parse_int(agent, "depth", opts["depth"], 0, 10_000)
            evaluate = heuristic_evaluation(game.id)
            if evaluate is None:
                raise OptionError(
                    f"agent {agent!r}: depth needs the game's rollout evaluation, and the heuristic module "
                    f"of {game.id!r} defines no rollout_rewards(state); leave depth out to play rollouts to the end"
                )
            out["depth"] = depth
            out["evaluate"] = evaluate
    if "eval" in opts:
        kind = str(opts["eval"])
        if kind not in ("hand", "learned"):
            raise OptionError(f"agent {agent!r}: eval must be 'hand' or 'learned', got {kind!r}")
        if kind == "learned":
            from cardtable.agents.values import learned_value

            if learned_value(game) is None:
                raise OptionError(
                    f"agent {agent!r}: eval=learned: {game.id!r} at {game.players} players has no learned value "
                    "(scripts/train_values.py makes one)"
                )
        out["learned"] = kind == "learned"
    if "prior" in opts:
        prior = str(opts["prior"])
        if prior not in ("heuristic", "always", "none"):
            raise OptionError(f"agent {agent!r}: prior must be 'heuristic', 'always' or 'none', got {prior!r}")
        out["game_prior"] = prior != "none"
        out["agent_prior"] = prior == "always"
    if "share" in opts:
        out["prior_share"] = parse_float(agent, "share", opts["share"], 0.0, 1.0)
    if "lazy" in opts:
        out["lazy"] = parse_int(agent, "lazy", opts["lazy"], 1, 1_000_000)
    if "widen" in opts:
        out["widen"] = parse_float(agent, "widen", opts["widen"], 0.0, 100.0)
    if "reuse" in opts:
        flag = str(opts["reuse"])
        if flag not in ("yes", "no"):
            raise OptionError(f"agent {agent!r}: reuse must be 'yes' or 'no', got {flag!r}")
        out["reuse"] = flag == "yes"
    if "normalise" in opts:
        flag = str(opts["normalise"])
        if flag not in ("yes", "no"):
            raise OptionError(f"agent {agent!r}: normalise must be 'yes' or 'no', got {flag!r}")
        out["normalise"] = flag == "yes"
    if "gate" in opts:
        out["gate"] = parse_float(agent, "gate", opts["gate"], 0.0, 1.0)
    if "vote" in opts:
        from cardtable.agents.ismcts import MAX_VOTE

        out["vote"] = parse_int(agent, "vote", opts["vote"], 1, MAX_VOTE)
    if "look" in opts:
        out["look"] = _rollout_lookahead(agent, game, opts)
    if "advisor" in opts:
        out["advisor"] = _advisor(agent, game, opts)
    if "trees" in opts:
        out["trees"] = parse_trees(agent, opts["trees"])
    if "workers" in opts:
        out["workers"] = parse_workers(agent, opts["workers"])
        out.setdefault("trees", out["workers"])
        if out["trees"] < out["workers"]:
            raise OptionError(
                f"agent {agent!r}: workers={out['workers']} need at least as many trees (trees={out['trees']})"
            )
    return out


def _rollout_lookahead(agent: str, game: Game, opts: Mapping[str, Any]) -> int:
    """``look=N``: the lookahead of the heuristic agent that plays the rollouts, checked: it needs
    ``rollout=heuristic``, a heuristic played by its agent (not a module's fast ``search_prior``, which
    takes no options) and one that takes a ``depth`` option of that value."""
    from cardtable.agents.heuristics import heuristic_class
    from cardtable.agents.hooks import heuristic_module

    look = parse_int(agent, "look", opts["look"], 1, 4)
    if str(opts.get("rollout", "random")) != "heuristic":
        raise OptionError(f"agent {agent!r}: look={look} is the lookahead of heuristic rollouts; add rollout=heuristic")
    if getattr(heuristic_module(game.id), "search_prior", None) is not None:
        raise OptionError(
            f"agent {agent!r}: look: {game.id!r} plays heuristic rollouts by its fast search_prior (no lookahead)"
        )
    options: dict[str, Any] = {"depth": look}
    try:
        heuristic_class(game.id)(0, **options)
    except OptionError as err:
        raise OptionError(f"agent {agent!r}: look={look}: the heuristic of {game.id!r} refuses it ({err})") from None
    return look


def _advisor(agent: str, game: Game, opts: Mapping[str, Any]) -> str:
    """``advisor=NAME``: one of the game's named heuristic settings, for the prior the heuristic agent
    plays (``prior=always``)."""
    from cardtable.agents.hooks import advisors

    name = str(opts["advisor"])
    names = advisors(game.id)
    if name not in names:
        offered = f"it has {', '.join(sorted(names))}" if names else "it has none"
        raise OptionError(
            f"agent {agent!r}: advisor={name!r}: the heuristic of {game.id!r} has no such advisor ({offered})"
        )
    if str(opts.get("prior", "")) != "always":
        raise OptionError(f"agent {agent!r}: advisor={name} sets the heuristic that plays the prior; add prior=always")
    return name


def _ismcts(game: Game, seed: int, **opts: Any) -> Agent:
    """``ismcts:iterations=N,ms=T,c=X,rollout=random|heuristic,depth=D|full,prior=heuristic|always|none,
    trees=K,workers=W`` (see :class:`.ismcts.Ismcts` and :func:`search_settings`).

    ``depth=full`` plays every rollout to the end even when the game has an evaluation."""
    from cardtable.agents.ismcts import Ismcts

    return Ismcts(seed, **search_settings("ismcts", game, opts))


def _strong(game: Game, seed: int, **opts: Any) -> Agent:
    from cardtable.agents.strong import make_strong

    return make_strong(game, seed, opts)


def heuristic_evaluation(game_id: str) -> Callable[[State], Sequence[float]] | None:
    """``rollout_rewards(state) -> per-seat expected rewards in 0..1`` from the game's heuristic module.

    The contract (for the authors of heuristic modules): given any state, full information, return one
    number per seat in 0..1 estimating that seat's reward as :func:`~cardtable.agents.rewards.seat_rewards`
    would give it at the end; it must not change the state and should take microseconds.
    """
    from cardtable.agents.hooks import heuristic_module

    module = heuristic_module(game_id)
    evaluate: Callable[[State], Sequence[float]] | None = getattr(module, "rollout_rewards", None)
    return evaluate


@dataclass(frozen=True)
class AgentInfo:
    """What people are told about an agent: a short label and a sentence."""

    name: str
    label: str
    about: str
    level: bool = False
    """One of the named levels (easy, normal, hard, expert)."""


AGENTS: dict[str, Callable[..., Agent]] = {
    "random": _random,
    "heuristic": _heuristic,
    "strong": _strong,
    "ismcts": _ismcts,
}

AGENT_INFO: dict[str, AgentInfo] = {
    "random": AgentInfo("random", "random", "picks any legal move at random"),
    "heuristic": AgentInfo("heuristic", "heuristic", "greedy play a casual player would recognise; instant"),
    "strong": AgentInfo(
        "strong",
        "strong",
        "the strongest search, tuned for each game; a fixed number of iterations, so its games are reproducible",
    ),
    "ismcts": AgentInfo(
        "ismcts", "ISMCTS", "information-set Monte Carlo tree search with every option at hand (ismcts:ms=1000)"
    ),
}


def register_agent(name: str, factory: Callable[..., Agent], label: str | None = None, about: str = "") -> None:
    """Add an agent factory ``factory(game, seed, **options) -> Agent`` under ``name``."""
    AGENTS[name] = factory
    AGENT_INFO[name] = AgentInfo(name, label or name, about)


def catalogue() -> list[AgentInfo]:
    """Every agent for people to choose from: the levels first (easiest first), then the others by name."""
    from cardtable.agents.levels import LEVELS

    levels = [AGENT_INFO[name] for name in LEVELS if name in AGENT_INFO]
    return levels + [AGENT_INFO[n] for n in sorted(AGENTS) if n in AGENT_INFO and not AGENT_INFO[n].level]


def split_specs(text: str) -> list[str]:
    """Split a comma-separated list of agent specs, keeping each spec's own ``key=value`` options.

    A comma-separated part that contains ``=`` but no ``:`` continues the previous spec's options, so
    ``ismcts:iterations=400,rollout=heuristic,random`` is the two specs
    ``ismcts:iterations=400,rollout=heuristic`` and ``random``.
    """
    specs: list[str] = []
    for raw in text.split(","):
        part = raw.strip()
        if not part:
            raise OptionError(f"empty agent spec in {text!r}")
        if "=" in part and ":" not in part:
            if not specs or ":" not in specs[-1]:
                raise OptionError(f"in {text!r}: option {part!r} does not follow an agent spec with options")
            specs[-1] += "," + part
        else:
            specs.append(part)
    return specs


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``name:key=value,key=value`` into the name and its options (values as text)."""
    name, _, rest = spec.strip().partition(":")
    opts: dict[str, str] = {}
    if rest:
        for part in rest.split(","):
            key, eq, value = part.partition("=")
            if not eq or not key.strip():
                raise OptionError(f"agent spec {spec!r}: expected key=value, got {part!r}")
            if key.strip() in opts:
                raise OptionError(f"agent spec {spec!r}: option {key.strip()!r} given twice")
            opts[key.strip()] = value.strip()
    return name.strip(), opts


def make_agent(spec: str, game: Game, seed: int = 0) -> Agent:
    """Build the agent a spec names, for ``game``, seeded with ``seed``.

    Raises :class:`OptionError` for an unknown agent, a bad option, or a budget over its maximum.
    """
    name, opts = parse_spec(spec)
    factory = AGENTS.get(name)
    if factory is None:
        hint = did_you_mean(name, AGENTS)
        raise OptionError(f"unknown agent {name!r}{hint}; known agents: {', '.join(a.name for a in catalogue())}")
    agent = factory(game, seed, **opts)
    if getattr(agent, "spec", "") is None:
        agent.spec = spec.strip()  # type: ignore[attr-defined]  # helper processes rebuild it from this
    return agent


def is_search(spec: str, game: Game) -> bool:
    """True when ``spec`` builds a search agent (one with a time budget: ``ismcts``, ``strong``, ``hard``...)."""
    from cardtable.agents.ismcts import Ismcts

    return isinstance(make_agent(spec, game), Ismcts)


def cap_time(spec: str, game: Game, ms: float) -> str:
    """``spec`` with its time budget capped at ``ms`` milliseconds (for a server's own per-move cap).

    A search agent gets ``ms=`` (the smaller of its own and ``ms``; an iteration budget stays and
    stops the search first if it comes first); any other spec is returned as it is. Raises
    :class:`OptionError` if ``spec`` is not a valid spec for ``game``.
    """
    from cardtable.agents.ismcts import Ismcts

    agent = make_agent(spec, game)
    if not isinstance(agent, Ismcts):
        return spec
    name, opts = parse_spec(spec)
    if agent.ms is not None and agent.ms <= ms:
        return spec
    if agent.iterations is not None:
        opts["iterations"] = str(agent.iterations)  # a cap, not a switch to a time budget
    opts["ms"] = f"{ms:g}"
    capped = name + ":" + ",".join(f"{k}={v}" for k, v in opts.items())
    make_agent(capped, game)  # still valid (e.g. ms within the maximum)
    return capped


# The levels register themselves (they build on the agents above).
from cardtable.agents import levels as _levels  # noqa: E402

_levels.register()
