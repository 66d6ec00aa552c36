"""The named levels people choose from: ``easy``, ``normal``, ``hard``, ``expert``.

Each level is an agent spec with a sensible think time, listed with words in the lobby and accepted
wherever a spec is (``--seats expert,normal``, ``cardtable simulate``). A level may take the options of
the agent it maps to (``expert:workers=4``).

=========  ===========================================================================================
easy       :class:`Casual`: the heuristic's move half the time, a random legal move otherwise
normal     ``heuristic``: greedy play a casual player would recognise, instant
hard       ``strong`` with a quarter of its iterations, at most half a second per move
expert     ``strong``, at most a second per move
=========  ===========================================================================================

``hard`` and ``expert`` have an iteration budget and a time cap: on a fast machine they play the same
game every time from the same seeds; on a slow or busy one the cap keeps their moves quick (and then
they play a little weaker). ``docs/agents.md`` gives each level's win share against the one below.
"""

from __future__ import annotations

from typing import Any, Final

from cardtable.agents.base import Agent, Observation
from cardtable.engine.actions import Action
from cardtable.engine.errors import OptionError
from cardtable.engine.game import Game

LEVELS: Final = ("easy", "normal", "hard", "expert")
"""Easiest first."""

CASUAL_SHARE: Final = 0.5
"""How often ``easy`` plays the heuristic's move (a random legal move otherwise)."""

HARD_SHARE: Final = 4
"""``hard`` searches a 1/HARD_SHARE of ``strong``'s iterations."""

HARD_MS: Final = 500
EXPERT_MS: Final = 1000


class Casual(Agent):
    """Plays like a beginner: the heuristic's move with probability ``share``, else a random one."""

    name = "easy"

    def __init__(self, seed: int, heuristic: Agent, share: float = CASUAL_SHARE) -> None:
        super().__init__(seed)
        self.heuristic = heuristic
        self.threshold = int(share * 1024)

    def choose(self, obs: Observation) -> Action:
        legal = obs.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if self.rng.below(1024) < self.threshold:
            return self.heuristic.choose(obs)
        return legal[self.rng.below(len(legal))]


def _easy(game: Game, seed: int, **opts: Any) -> Agent:
    from cardtable.agents.hooks import heuristic_module
    from cardtable.agents.random_agent import RandomAgent
    from cardtable.agents.registry import make_agent

    if opts:
        raise OptionError(f"agent 'easy' takes no options, got {', '.join(opts)}")
    if heuristic_module(game.id) is None:
        return RandomAgent(seed)
    return Casual(seed, make_agent("heuristic", game, seed ^ 0xEA5E))


def _normal(game: Game, seed: int, **opts: Any) -> Agent:
    from cardtable.agents.registry import make_agent

    if opts:
        raise OptionError(f"agent 'normal' takes no options, got {', '.join(opts)}")
    agent = make_agent("heuristic", game, seed)
    return agent


def _search_level(name: str, share: int, ms: int) -> Any:
    def factory(game: Game, seed: int, **opts: Any) -> Agent:
        from cardtable.agents.strong import make_strong, strong_options

        tuned = int(strong_options(game)["iterations"])
        options: dict[str, Any] = {"iterations": str(max(1, tuned // share)), "ms": str(ms)}
        if "ms" in opts and "iterations" not in opts:
            options.pop("iterations")
        options.update(opts)
        return make_strong(game, seed, options, name)

    return factory


def register() -> None:
    """Add the levels to the agent registry (with their words for the lobby)."""
    from cardtable.agents.registry import AGENT_INFO, AGENTS, AgentInfo

    entries = (
        ("easy", _easy, "Easy", "a beginner: often the sensible move, often not"),
        ("normal", _normal, "Normal", "plays sensibly and at once (the heuristic)"),
        ("hard", _search_level("hard", HARD_SHARE, HARD_MS), "Hard", "searches ahead, up to half a second a move"),
        ("expert", _search_level("expert", 1, EXPERT_MS), "Expert", "the strongest search, up to a second a move"),
    )
    for name, factory, label, about in entries:
        AGENTS[name] = factory
        AGENT_INFO[name] = AgentInfo(name, label, about, level=True)
