"""The perfect-information ceiling: the strong search handed the true state. For measurement only.

``oracle:<options>`` builds the ``strong`` agent with those options (``oracle:iterations=2000``) and lets
it search from the *true* state instead of samples of what its seat may know: every hand and the order of
every deck are known to it, while the generator is reseeded for every sample, so future dice and
shuffles stay unknown (knowing them would be clairvoyance, not information). Its win share against the
heuristic at the strong agent's budget bounds what any searcher that must guess hidden cards can reach,
and says how much of a game is luck.

It is registered as an agent spec only by :func:`register` (``benchmarks/ladder.py`` calls it), so it is
never among the agents a player can choose.
"""

from __future__ import annotations

from typing import Any

from cardtable.agents import Agent, Observation, make_agent, register_agent
from cardtable.engine import Action, Game, Rng, State
from cardtable.engine.rng import as_rng


class TrueObservation(Observation):
    """An observation whose samples are the true state (generator reseeded: the future stays unknown)."""

    def sample(self, rng: Rng | int) -> State:
        other = self._state.clone()
        other.rng = as_rng(rng).fork()
        other.seed = -1
        other._legal = None
        return other


class Oracle(Agent):
    """Plays as ``inner`` would, but every sample it draws is the true state."""

    name = "oracle"

    def __init__(self, inner: Agent) -> None:
        super().__init__(0)
        self.inner = inner

    @property
    def last_iterations(self) -> int:
        return int(getattr(self.inner, "last_iterations", 0) or 0)

    def choose(self, obs: Observation) -> Action:
        return self.inner.choose(TrueObservation(obs._state, obs.seat))


def _oracle(game: Game, seed: int, **opts: Any) -> Agent:
    from cardtable.agents.registry import AGENTS

    base = "strong" if "strong" in AGENTS else "ismcts"
    spec = base + (":" + ",".join(f"{k}={v}" for k, v in opts.items()) if opts else "")
    return Oracle(make_agent(spec, game, seed))


def register() -> None:
    """Make ``oracle`` an agent spec in this process (and in processes forked from it)."""
    register_agent("oracle", _oracle, "oracle", "perfect-information reference (benchmarks only)")
