"""Opponents of a learner: cardtable agents, or policies (callables), for self-play.

An opponent is given as

* a **spec string** for :func:`cardtable.agents.registry.make_agent`: ``"random"``, ``"heuristic"``,
  ``"ismcts:iterations=200"``; a new agent is made for every game, seeded from the game's seed, so a
  seeded game replays;
* a cardtable **agent** (:class:`cardtable.agents.base.Agent`), used as it is in every game (its own
  generator goes on from game to game);
* a **policy**: any callable ``policy(observation, action_mask) -> action index``, given the
  opponent seat's own observation vector and mask (the same arrays a learner gets, from the
  observer: never anything the seat cannot see). A trained model is one line away:
  ``lambda obs, mask: int(model.predict({"observation": obs, "action_mask": mask},
  action_masks=mask.astype(bool), deterministic=True)[0])``. A policy that returns an illegal index
  raises ``IllegalAction``.

A seat with a single legal action takes it without asking anyone (the engine still offers it, for
fairness; no opponent needs to be asked), as bots and the simulator do.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Union

import numpy as np

from cardtable.agents.base import Agent, Observation
from cardtable.agents.random_agent import RandomAgent
from cardtable.agents.registry import make_agent
from cardtable.engine.actions import Action
from cardtable.engine.errors import IllegalAction
from cardtable.engine.game import Game
from cardtable.engine.rng import Rng
from cardtable.rl.episode import Episode

Policy = Callable[[np.ndarray, np.ndarray], Any]
OpponentSpec = Union[str, Agent, Policy]  # noqa: UP007 - a runtime alias


def check_specs(specs: OpponentSpec | Sequence[OpponentSpec], game: Game) -> list[OpponentSpec]:
    """One opponent spec per other seat, each checked now (not at the first reset)."""
    others = game.players - 1
    if isinstance(specs, str | Agent) or callable(specs):
        out: list[OpponentSpec] = [specs] * others
    elif isinstance(specs, Sequence):
        out = list(specs)
    else:
        raise TypeError(
            "opponents is an agent spec string ('random', 'heuristic', 'ismcts:...'), a cardtable Agent, a "
            f"callable policy(observation, action_mask) -> action index, or a list of them, not {type(specs).__name__}"
        )
    if len(out) != others:
        raise ValueError(f"opponents: {others} opponent(s) needed (one per other seat), got {len(out)}")
    for spec in out:
        if isinstance(spec, str):
            make_agent(spec, game, seed=0)
        elif not isinstance(spec, Agent) and not callable(spec):
            raise TypeError(
                "an opponent is an agent spec string ('random', 'heuristic', 'ismcts:...'), a cardtable "
                f"Agent or a callable policy(observation, action_mask) -> action index, not {type(spec).__name__}"
            )
    return out


class Opponent:
    """Chooses for one seat of an episode."""

    __slots__ = ("agent", "policy", "rng", "seat")

    def __init__(self, spec: OpponentSpec, game: Game | None, seat: int, seed: int) -> None:
        # ``game`` is needed only to make an agent from a spec string.
        self.seat = seat
        self.agent: Agent | None = None
        self.policy: Policy | None = None
        if isinstance(spec, str):
            if game is None:
                raise ValueError(f"the opponent spec {spec!r} needs the game to make its agent")
            self.agent = make_agent(spec, game, seed=seed)
        elif isinstance(spec, Agent):
            self.agent = spec
        else:
            self.policy = spec
        # The random agent's own choice, without building its Observation (the same draw).
        self.rng: Rng | None = self.agent.rng if type(self.agent) is RandomAgent else None

    def choose(self, episode: Episode, legal: list[Action]) -> int:
        """The index of the action the seat takes now (one of ``legal``)."""
        rng = self.rng
        if rng is not None:
            return legal[rng.below(len(legal))].index
        if self.agent is not None:
            return self.agent.choose(Observation(episode.state, self.seat)).index
        assert self.policy is not None
        seat = self.seat
        # A new array, as a learner gets: the seat's buffer is updated in place at its next decision,
        # so a policy that kept (or changed) the buffer itself would see (or cause) wrong observations.
        choice = self.policy(episode.observation(seat), episode.mask(seat))
        try:
            index = int(choice)
        except (TypeError, ValueError):
            raise TypeError(f"an opponent policy must return an action index, got {choice!r}") from None
        if not any(a.index == index for a in legal):
            text = episode.codec.action(index).text if 0 <= index < episode.codec.size else str(index)
            raise IllegalAction(f"the opponent policy of seat {seat} chose {text!r}, which is not legal now")
        return index

    # An opponent is made again from its agent (its generator's state included) or policy.
    # ``__reduce__``, not ``__getstate__``: unpickling a compiled (mypyc) class calls its ``__init__``.
    def __reduce__(self) -> tuple[Any, ...]:
        return (_restore_opponent, (self.agent if self.agent is not None else self.policy, self.seat))


def _restore_opponent(spec: Agent | Policy, seat: int) -> Opponent:
    # An agent or a policy needs no game to be taken as it is (only a spec string does).
    return Opponent(spec, None, seat, 0)


def opponent_seed(game_seed: int, seat: int) -> int:
    """The seed of the agent made for ``seat`` in the game dealt from ``game_seed``."""
    return (game_seed * 31 + 7 * seat + 1) % 2**62
