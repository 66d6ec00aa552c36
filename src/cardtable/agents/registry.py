"""Agents by name, with options: ``random``, ``heuristic``, ``ismcts:iterations=400,rollout=heuristic``."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from cardtable.agents.base import Agent
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


def _number(agent: str, key: str, text: str, kind: type[int] | type[float]) -> float:
    try:
        return kind(text)
    except ValueError:
        what = "a whole number" if kind is int else "a number"
        raise OptionError(f"agent {agent!r}: option {key!r} must be {what}, got {text!r}") from None


def _ismcts(game: Game, seed: int, **opts: Any) -> Agent:
    """``ismcts:iterations=N,ms=T,c=X,rollout=random|heuristic,depth=D|full,prior=heuristic|none`` (see
    :class:`.ismcts.Ismcts`).

    ``depth=full`` plays every rollout to the end even when the game has an evaluation."""
    from cardtable.agents.ismcts import Ismcts

    known = ("iterations", "ms", "c", "rollout", "depth", "prior")
    unknown = [k for k in opts if k not in known]
    if unknown:
        hint = did_you_mean(unknown[0], known) if len(unknown) == 1 else ""
        raise OptionError(f"agent 'ismcts': unknown option(s) {', '.join(unknown)}{hint}; it takes {', '.join(known)}")
    iterations = int(_number("ismcts", "iterations", str(opts.get("iterations", 1000)), int))
    if iterations < 1:
        raise OptionError(f"agent 'ismcts': iterations must be at least 1, got {iterations}")
    ms = None
    if "ms" in opts:
        ms = _number("ismcts", "ms", str(opts["ms"]), float)
        if not ms > 0:
            raise OptionError(f"agent 'ismcts': ms must be positive, got {opts['ms']!r}")
    c = _number("ismcts", "c", str(opts["c"]), float) if "c" in opts else None
    if c is not None and not c >= 0:
        raise OptionError(f"agent 'ismcts': c must be at least 0, got {opts['c']!r}")
    rollout_name = str(opts.get("rollout", "random"))
    rollout: Agent | None
    if rollout_name == "random":
        rollout = None
    elif rollout_name == "heuristic":
        # Its own generator, derived from the seed, so rollouts never disturb the search's draws.
        rollout = _heuristic(game, seed ^ 0x5EED)
    else:
        raise OptionError(f"agent 'ismcts': rollout must be 'random' or 'heuristic', got {rollout_name!r}")
    depth = None
    evaluate = None
    full = opts.get("depth") == "full"
    if "depth" in opts and not full:
        depth = int(_number("ismcts", "depth", str(opts["depth"]), int))
        if depth < 0:
            raise OptionError(f"agent 'ismcts': depth must be at least 0, got {depth}")
        evaluate = heuristic_evaluation(game.id)
        if evaluate is None:
            raise OptionError(
                f"agent 'ismcts': depth needs the game's rollout evaluation, and the heuristic module "
                f"of {game.id!r} defines no rollout_rewards(state); leave depth out to play rollouts to the end"
            )
    prior_name = str(opts.get("prior", "heuristic"))
    if prior_name not in ("heuristic", "none"):
        raise OptionError(f"agent 'ismcts': prior must be 'heuristic' or 'none', got {prior_name!r}")
    return Ismcts(
        seed,
        iterations=iterations,
        ms=ms,
        c=c,
        rollout=rollout,
        depth=depth,
        evaluate=evaluate,
        full_rollouts=full,
        game_prior=prior_name == "heuristic",
    )


def heuristic_evaluation(game_id: str) -> Callable[[State], Sequence[float]] | None:
    """``rollout_rewards(state) -> per-seat expected rewards in 0..1`` from the game's heuristic module.

    The contract (for the authors of heuristic modules): given any state, full information, return one
    number per seat in 0..1 estimating that seat's reward as :func:`~cardtable.agents.ismcts.seat_rewards`
    would give it at the end; it must not change the state and should take microseconds.
    """
    import importlib

    try:
        module = importlib.import_module(f"cardtable.agents.heuristics.{game_id.replace('-', '_')}")
    except ModuleNotFoundError:
        return None
    evaluate: Callable[[State], Sequence[float]] | None = getattr(module, "rollout_rewards", None)
    return evaluate


AGENTS: dict[str, Callable[..., Agent]] = {"random": _random, "heuristic": _heuristic, "ismcts": _ismcts}


def register_agent(name: str, factory: Callable[..., Agent]) -> None:
    """Add an agent factory ``factory(game, seed, **options) -> Agent`` under ``name``."""
    AGENTS[name] = factory


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
            opts[key.strip()] = value.strip()
    return name, opts


def make_agent(spec: str, game: Game, seed: int = 0) -> Agent:
    """Build the agent a spec names, for ``game``, seeded with ``seed``."""
    name, opts = parse_spec(spec)
    factory = AGENTS.get(name)
    if factory is None:
        hint = did_you_mean(name, AGENTS)
        raise OptionError(f"unknown agent {name!r}{hint}; known agents: {', '.join(sorted(AGENTS))}")
    return factory(game, seed, **opts)
