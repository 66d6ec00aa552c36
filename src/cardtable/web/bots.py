"""Bots on the server: agents choose off the event loop, within a time budget.

An agent may think for seconds (ISMCTS), so it never runs on the event loop: :class:`BotRunner` sends
the decision to a pool of worker processes (or threads, for tests and quick bots), and the table goes
on serving everyone else meanwhile. A worker gets only what a record holds (game, options, seed,
action texts), rebuilds the state (keeping the last few per process so a game is not replayed from
the start at every decision) and asks the agent through an :class:`~cardtable.agents.Observation`, so
it sees what the seat may see and nothing more.

The budget: ``ismcts`` without ``ms`` is given ``ms`` within the budget, and a decision that is still
not made when the budget runs out is replaced by a legal action chosen by the seeded random agent
(the event log says so). The agent's seed comes from the table's seed, the seat and the state id, so
a restarted server makes the same choices.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
import os
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from cardtable.engine.errors import OptionError

_CACHE: OrderedDict[tuple[str, str, int, int], Any] = OrderedDict()
_CACHE_SIZE = 32


def _state_for(game_id: str, options: dict[str, Any], seed: int, actions: Sequence[str], table_key: int) -> Any:
    """The state after ``actions``, reusing this process's last state of the same game when the
    history only grew since."""
    import json

    import cardtable

    key = (game_id, json.dumps(options, sort_keys=True), seed, table_key)
    state = _CACHE.pop(key, None)
    game = cardtable.load(game_id, **options)
    if state is not None:
        done = state.actions_taken()
        if len(done) > len(actions) or list(actions[: len(done)]) != done:
            state = None
    if state is None:
        state = game.new(seed, log=False)
        done = []
    for text in actions[len(done) :]:
        state.apply(text)
    _CACHE[key] = state
    while len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return state


def choose(
    game_id: str,
    options: dict[str, Any],
    seed: int,
    actions: Sequence[str],
    seat: int,
    spec: str,
    agent_seed: int,
    table_key: int = 0,
) -> str:
    """The text of the action the agent ``spec`` chooses for ``seat`` (runs in a worker)."""
    from cardtable.agents import Observation, make_agent

    state = _state_for(game_id, options, seed, actions, table_key)
    if state.current_player != seat:
        raise ValueError(f"seat {seat} is not the one to decide")
    legal = state.legal_actions()
    if len(legal) == 1:  # a lone legal action: no thinking needed (the engine still offers it)
        return str(legal[0].text)
    agent = make_agent(spec, state.game, seed=agent_seed)
    action = agent.choose(Observation(state, seat))
    return str(action.text)


def budgeted_spec(spec: str, budget: float) -> str:
    """``spec`` with a time limit for search agents that have none (``ismcts`` gets ``ms``)."""
    name, _, rest = spec.partition(":")
    if name.strip() != "ismcts" or "ms=" in rest:
        return spec
    ms = max(1, int(budget * 1000 * 0.8))
    if "iterations=" in rest:
        return spec  # deterministic iteration count: the wall-clock budget still applies
    return f"ismcts:{rest},ms={ms}" if rest else f"ismcts:ms={ms}"


def check_spec(game: Any, spec: str) -> None:
    """Raise :class:`OptionError` unless ``spec`` makes an agent for ``game``."""
    from cardtable.agents import make_agent

    try:
        make_agent(spec, game, seed=0)
    except OptionError:
        raise
    except (ValueError, KeyError, TypeError) as exc:
        raise OptionError(f"bad agent spec {spec[:60]!r}: {exc}") from exc


class BotRunner:
    """Runs agents' decisions in a worker pool. ``workers=0``: a thread pool of two (no processes)."""

    def __init__(self, workers: int | None = None, budget: float = 10.0) -> None:
        self.budget = budget
        self.pool: concurrent.futures.Executor
        if workers == 0:
            self.pool = concurrent.futures.ThreadPoolExecutor(max_workers=2, thread_name_prefix="cardtable-bot")
        else:
            count = workers if workers is not None else max(1, (os.cpu_count() or 2) - 1)
            # spawn: the server has threads (and maybe uvloop); forking them is not safe.
            self.pool = concurrent.futures.ProcessPoolExecutor(
                max_workers=count, mp_context=multiprocessing.get_context("spawn")
            )

    async def choose(
        self,
        game_id: str,
        options: dict[str, Any],
        seed: int,
        actions: Sequence[str],
        seat: int,
        spec: str,
        agent_seed: int,
        table_key: int = 0,
    ) -> str:
        """The bot's action text; raises :class:`TimeoutError` when the budget runs out."""
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(
            self.pool,
            choose,
            game_id,
            dict(options),
            seed,
            list(actions),
            seat,
            budgeted_spec(spec, self.budget),
            agent_seed,
            table_key,
        )
        return await asyncio.wait_for(future, timeout=self.budget)

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
