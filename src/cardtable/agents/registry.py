"""Agents by name, with options: ``random``, ``heuristic``, ``ismcts:iterations=400,rollout=heuristic``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cardtable.agents.base import Agent
from cardtable.engine.errors import OptionError
from cardtable.engine.game import Game


def _random(game: Game, seed: int, **opts: Any) -> Agent:
    from cardtable.agents.random_agent import RandomAgent

    if opts:
        raise OptionError(f"agent 'random' takes no options, got {', '.join(opts)}")
    return RandomAgent(seed)


def _heuristic(game: Game, seed: int, **opts: Any) -> Agent:
    from cardtable.agents.heuristics import heuristic_class

    return heuristic_class(game.id)(seed, **opts)


AGENTS: dict[str, Callable[..., Agent]] = {"random": _random, "heuristic": _heuristic}


def register_agent(name: str, factory: Callable[..., Agent]) -> None:
    """Add an agent factory ``factory(game, seed, **options) -> Agent`` under ``name``."""
    AGENTS[name] = factory


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
        raise OptionError(f"unknown agent {name!r}; known agents: {', '.join(sorted(AGENTS))}")
    return factory(game, seed, **opts)
