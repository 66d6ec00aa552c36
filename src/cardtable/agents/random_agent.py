"""The uniform random agent."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardtable.agents.base import Agent, Observation

if TYPE_CHECKING:
    from cardtable.engine.actions import Action


class RandomAgent(Agent):
    """Chooses uniformly among the legal actions, from its own seeded generator."""

    name = "random"

    def choose(self, obs: Observation) -> Action:
        legal = obs.legal_actions()
        return legal[self.rng.below(len(legal))]
