"""The perfect-information ceiling: the strong search handed the true state. For measurement only.

``oracle:<options>`` builds the ``strong`` agent with those options (``oracle:iterations=2000``) and lets
it search from the *true* state instead of samples of what its seat may know: every hand and the order of
every deck are known to it, while the generator is reseeded for every sample, so future dice and
shuffles stay unknown (the deck's present order is known, though: see below). Its win share against the
heuristic at the strong agent's budget says how much of a game is luck, and roughly what a searcher that
must guess hidden cards can reach (roughly: in Army of Darkness it falls a little below ``strong``, the
hand being worth nothing to that search; docs/agents.md). Knowing a face-down deck's order is knowing
the coming draws, which no player can learn; ``handsoracle:<options>`` (games listed in
:data:`UNSEEN_ZONES`) separates the two: every hand as it is, the cards nobody sees redealt for each
sample, so its distance to ``strong`` is what a perfect reading of the other hands could buy, and its
distance to ``oracle`` what the draws' order is worth.

Both are registered as agent specs only by :func:`register` (``benchmarks/ladder.py`` calls it), so
neither is ever among the agents a player can choose.
"""

from __future__ import annotations

from typing import Any

from cardtable.agents import Agent, Observation, make_agent, register_agent
from cardtable.engine import Action, Game, Rng, State
from cardtable.engine.zones import resample_hidden


class TrueObservation(Observation):
    """An observation whose samples are the true state (generator reseeded: the future stays unknown)."""

    def sample(self, rng: Rng | int) -> State:
        other, _ = self._state._reseeded_clone(rng)
        return other


class HandsObservation(Observation):
    """A diagnostic between the seat's knowledge and the oracle's: every hand as it truly is, while the
    cards no seat can see (the deck's order, and what else the game hides from everyone) are redealt
    as a determinization would. Only for games whose state names those zones (``UNSEEN_ZONES``)."""

    def sample(self, rng: Rng | int) -> State:
        other, r = self._state._reseeded_clone(rng)
        zones: list[list[int]] = [getattr(other, name) for name in UNSEEN_ZONES[other.game.id]]
        resample_hidden(zones, lambda _card: False, r)
        return other


UNSEEN_ZONES: dict[str, tuple[str, ...]] = {"mephisto": ("deck", "corners")}
"""Per game, the state's fields that hold the cards no seat sees (for ``handsoracle``)."""


class Oracle(Agent):
    """Plays as ``inner`` would, but every sample it draws is the true state (``hands_only``: the true
    hands, the unseen cards redealt)."""

    name = "oracle"

    def __init__(self, inner: Agent, hands_only: bool = False) -> None:
        super().__init__(0)
        self.inner = inner
        self.hands_only = hands_only

    @property
    def last_iterations(self) -> int:
        return int(getattr(self.inner, "last_iterations", 0) or 0)

    def choose(self, obs: Observation) -> Action:
        kind = HandsObservation if self.hands_only else TrueObservation
        return self.inner.choose(kind(obs._state, obs.seat))


def _inner(game: Game, seed: int, opts: dict[str, Any]) -> Agent:
    from cardtable.agents.registry import AGENTS

    base = "strong" if "strong" in AGENTS else "ismcts"
    spec = base + (":" + ",".join(f"{k}={v}" for k, v in opts.items()) if opts else "")
    return make_agent(spec, game, seed)


def _oracle(game: Game, seed: int, **opts: Any) -> Agent:
    return Oracle(_inner(game, seed, opts))


def _hands_oracle(game: Game, seed: int, **opts: Any) -> Agent:
    if game.id not in UNSEEN_ZONES:
        raise ValueError(f"handsoracle: no unseen zones listed for {game.id!r} (benchmarks/oracle.py)")
    return Oracle(_inner(game, seed, opts), hands_only=True)


def register() -> None:
    """Make ``oracle`` an agent spec in this process (and in processes forked from it)."""
    register_agent("oracle", _oracle, "oracle", "perfect-information reference (benchmarks only)")
    register_agent("handsoracle", _hands_oracle, "handsoracle", "every hand known, the unseen cards not (benchmarks)")
