"""What a game's heuristic module offers the search, found by name (``cardtable.agents.heuristics.<game>``).

A heuristic module may define, besides its ``Heuristic`` agent:

* ``rollout_rewards(state) -> per-seat rewards in 0..1``: the evaluation that scores cut rollouts
  (the contract is in :func:`cardtable.agents.registry.heuristic_evaluation`);
* ``ROLLOUT_DEPTH``: how many random decisions a rollout plays before it is scored;
* ``rollout_stop(state) -> bool``: a cut rollout, and the descent below the root, stop and are scored
  where it is true (a decision random play gets badly wrong and the evaluation judges better);
* ``ROLLOUT_C``: the exploration constant suited to its evaluation's spread;
* ``ROLLOUT_NORMALISE``: rescale mean rewards to the range seen in each decision;
* ``search_prior(state) -> Action``: the move its heuristic makes in a full state, fast (no view);
* ``search_defers(view, seat) -> bool``: the seat's decision is handed to ``search_prior`` without a
  search (decided on the seat's own view, so on what it may know), where the game's evaluation has
  nothing to weigh and the heuristic is known to play it out;
* ``ADVISORS``: named option sets of its ``Heuristic`` for a search's prior (``advisor=NAME``): a
  better-judging prior where the heuristic the ladder measures against stays as shipped.

Where a module has no ``search_prior``, :func:`heuristic_policy` makes one from the ``Heuristic`` agent
itself, asked through an :class:`~cardtable.agents.base.Observation` of the full state it is handed
(a determinization, in search): slower, since the agent reads views, but available for every game.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from cardtable.agents.base import Observation

if TYPE_CHECKING:
    from cardtable.engine.actions import Action
    from cardtable.engine.game import Game, State

DEFAULT_DEPTH: Final = 8
"""Rollout length when the game's heuristic module provides ``rollout_rewards`` but no ``ROLLOUT_DEPTH``."""

Policy = Callable[["State"], "Action"]
Evaluation = Callable[["State"], Sequence[float]]


class Hooks(NamedTuple):
    """What a game's heuristic module offers the search."""

    evaluate: Evaluation
    depth: int
    stop: Callable[[State], bool] | None
    c: float | None
    normalise: bool
    prior: Policy | None
    defer: Callable[[Mapping[str, Any], int], bool] | None = None


def heuristic_module(game_id: str) -> ModuleType | None:
    """The game's heuristic module, or None if it has none."""
    name = f"cardtable.agents.heuristics.{game_id.replace('-', '_')}"
    module = sys.modules.get(name)
    if module is not None:
        return module
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError:
        return None


def game_hooks(game: Game) -> Hooks | None:
    """The game's hooks, or None when its heuristic module has no ``rollout_rewards``.

    Not cached: after the first import it is a dictionary lookup, and tests may add a module later.
    """
    module = heuristic_module(game.id)
    evaluate: Evaluation | None = getattr(module, "rollout_rewards", None)
    if evaluate is None:
        return None
    c = getattr(module, "ROLLOUT_C", None)
    return Hooks(
        evaluate,
        int(getattr(module, "ROLLOUT_DEPTH", DEFAULT_DEPTH)),
        getattr(module, "rollout_stop", None),
        None if c is None else float(c),
        bool(getattr(module, "ROLLOUT_NORMALISE", False)),
        getattr(module, "search_prior", None),
        getattr(module, "search_defers", None),
    )


def heuristic_policy(game: Game, seed: int, lookahead: int = 0, advisor: str | None = None) -> Policy | None:
    """The game's heuristic as a full-state policy ``policy(state) -> Action`` for the seat to move:
    the module's ``search_prior`` if it has one, else its ``Heuristic`` agent (seeded with ``seed``;
    with ``lookahead`` > 0, given that as its ``depth`` option; with ``advisor``, given the options the
    module's ``ADVISORS`` name so) asked through an observation of that state. None when the game has
    no heuristic module."""
    module = heuristic_module(game.id)
    if module is None:
        return None
    fast: Policy | None = getattr(module, "search_prior", None)
    if fast is not None and advisor is None:
        return fast
    cls = getattr(module, "Heuristic", None)
    if cls is None:
        return None
    options: dict[str, object] = dict(advisors(game.id)[advisor]) if advisor is not None else {}
    if lookahead > 0:
        options["depth"] = lookahead
    agent = cls(seed, **options)

    def policy(state: State) -> Action:
        seat = state.current_player
        assert seat is not None
        return agent.choose(Observation(state, seat))  # type: ignore[no-any-return]

    return policy


def advisors(game_id: str) -> dict[str, dict[str, str]]:
    """The named settings of the game's ``Heuristic`` a search may take as its prior (the module's
    ``ADVISORS``; the search option ``advisor=NAME``), by name: empty where there are none."""
    module = heuristic_module(game_id)
    found: dict[str, dict[str, str]] = getattr(module, "ADVISORS", {}) if module is not None else {}
    return found
