"""Bots on the server: agents choose off the event loop, within a time budget.

An agent may think for seconds (ISMCTS), so it never runs on the event loop: :class:`BotRunner` sends
the decision to a pool of worker processes (:mod:`.workers`; threads for tests), and the table goes
on serving everyone else meanwhile. A lone legal action and the ``random`` agent need no thinking and
are answered at once, in this process. A worker gets only what a record holds (game, options, seed,
action texts), rebuilds the state (keeping the last few per process so a game is not replayed from
the start at every decision) and asks the agent through an :class:`~cardtable.agents.Observation`, so
it sees what the seat may see and nothing more.

The budget: a spec asking for more than the server allows is refused when the table is made
(:func:`check_spec`); ``ismcts`` without ``ms`` is given ``ms`` within the budget; a worker still
thinking at the deadline is ended and replaced, and the decision is a legal action chosen by the
seeded random agent instead (the table is told). The agent's seed comes from the table's seed, the
seat and the state id, so a restarted server makes the same choices.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import math
import os
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from cardtable.engine.errors import OptionError
from cardtable.web.workers import WorkerPool

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


def check_spec(game: Any, spec: str, budget: float | None = None, max_iterations: int | None = None) -> None:
    """Raise :class:`OptionError` unless ``spec`` makes an agent for ``game`` within this server's
    limits: no option may be an infinite or not-a-number value, ``ms`` (any agent's time limit) at
    most ``budget`` seconds and ``iterations`` at most ``max_iterations``. The agent registry's own
    bounds apply too (its factory refuses what it cannot play)."""
    from cardtable.agents import make_agent
    from cardtable.agents.registry import parse_spec

    name, opts = parse_spec(spec)
    for key, text in opts.items():
        try:
            number = float(text)
        except ValueError:
            continue
        if not math.isfinite(number):
            raise OptionError(f"agent {name!r}: option {key!r} must be a finite number, got {text[:20]!r}")
        if key == "ms" and budget is not None and number > budget * 1000:
            raise OptionError(
                f"agent {name!r}: ms={text[:20]} is more than this server allows a bot per move "
                f"({budget * 1000:g} ms, --bot-budget {budget:g})"
            )
        if key == "iterations" and max_iterations is not None and number > max_iterations:
            raise OptionError(
                f"agent {name!r}: iterations={text[:20]} is more than this server allows "
                f"({max_iterations}, --bot-max-iterations)"
            )
    try:
        make_agent(spec, game, seed=0)
    except OptionError:
        raise
    except (ValueError, KeyError, TypeError) as exc:
        raise OptionError(f"bad agent spec {spec[:60]!r}: {exc}") from exc


class BotRunner:
    """Runs agents' decisions: in a :class:`~cardtable.web.workers.WorkerPool` of processes (the
    server), or ``workers=0`` in two threads of this process (tests and quick local use: there a
    decision past its budget is only given up on, since a thread cannot be stopped; the search's own
    ``ms`` limit is what ends it)."""

    def __init__(self, workers: int | None = None, budget: float = 10.0, *, deadline: float | None = None) -> None:
        self.budget = budget
        # A worker gets a margin to rebuild the state; a thread, which cannot be stopped, is given up
        # on at the budget itself.
        self.deadline = deadline if deadline is not None else (budget if workers == 0 else budget * 1.25 + 0.5)
        self.pool: WorkerPool | None = None
        self.threads: concurrent.futures.ThreadPoolExecutor | None = None
        if workers == 0:
            self.threads = concurrent.futures.ThreadPoolExecutor(max_workers=2, thread_name_prefix="cardtable-bot")
        else:
            self.pool = WorkerPool(workers if workers is not None else max(1, (os.cpu_count() or 2) - 1))
            self.pool.start()

    @staticmethod
    def quick(state: Any, seat: int, spec: str, agent_seed: int) -> str | None:
        """The decision, when it needs no worker: a lone legal action, or the ``random`` agent (a
        draw from its seeded generator: the same choice a worker would make). None otherwise."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return str(legal[0].text)
        if spec.strip() != "random":
            return None
        from cardtable.agents import Observation, make_agent

        return str(make_agent("random", state.game, seed=agent_seed).choose(Observation(state, seat)).text)

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
        owner: str = "",
    ) -> str:
        """The bot's action text. Raises :class:`TimeoutError` when it ran past its deadline (in a
        process: the worker was ended and replaced) and another exception when the agent failed."""
        spec = budgeted_spec(spec, self.budget)
        if self.pool is not None:
            job = {
                "game": game_id,
                "options": dict(options),
                "seed": seed,
                "actions": list(actions),
                "seat": seat,
                "spec": spec,
                "agent_seed": agent_seed,
            }
            return await self.pool.run(job, self.deadline, owner=owner, key=table_key)
        assert self.threads is not None
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(
            self.threads, choose, game_id, dict(options), seed, list(actions), seat, spec, agent_seed, table_key
        )
        return await asyncio.wait_for(future, timeout=self.deadline)

    def pids(self) -> list[int]:
        """The worker processes' ids (none with threads)."""
        return self.pool.pids() if self.pool is not None else []

    def stopping(self) -> None:
        """The server begins to stop: decisions given up on now leave no fresh worker behind."""
        if self.pool is not None:
            self.pool.stopping()

    def close(self) -> None:
        if self.pool is not None:
            self.pool.close()
        if self.threads is not None:
            self.threads.shutdown(wait=False, cancel_futures=True)
