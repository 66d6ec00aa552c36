"""Bots on the server: agents choose off the event loop, within a time budget.

An agent may think for seconds (ISMCTS), so it never runs on the event loop: :class:`BotRunner` sends
the decision to a pool of worker processes (:mod:`.workers`; threads for tests), and the table goes
on serving everyone else meanwhile. A lone legal action and the ``random`` agent need no thinking and
are answered at once, in this process. A worker gets only what a record holds (game, options, seed,
action texts), rebuilds the state (keeping the last few per process so a game is not replayed from
the start at every decision) and asks the agent through an :class:`~cardtable.agents.Observation`, so
it sees what the seat may see and nothing more.

The budget (``--bot-budget``, ``--bot-max-iterations``, ``--bot-cpu``):

- a spec that *asks* for more than the server allows (``ismcts:ms=...`` over the budget,
  ``iterations=`` over the maximum, ``workers=`` more than one process) is refused when the table is
  made (:func:`check_spec`), with an error naming the flag;
- a search agent whose *own* think time is longer than the budget (a level such as ``expert`` on a
  server with ``--bot-budget 0.5``; ``strong``, whose iteration budget has only the agent registry's
  one-minute safety stop) is *capped*: it runs with ``ms`` at the budget (:func:`server_spec`), and
  :func:`cap_note` says so in words (the lobby shows it beside the agent, the create answer per seat);
- a worker still thinking at the deadline is ended and replaced, and the decision is a legal action
  chosen by the seeded random agent instead (the table is told).

The agent's seed comes from the table's seed, the seat and the state id, so a restarted server makes
the same choices (a cap changes only when a search stops, never its seeds).
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
    budget: float | None = None,
    max_iterations: int | None = None,
) -> str:
    """The text of the action the agent ``spec`` chooses for ``seat`` (runs in a worker), within
    ``budget`` seconds and ``max_iterations`` when given (:func:`server_spec`). The budget counts from
    the call: the time spent rebuilding the state is taken off the search's (so the decision ends
    within the budget even on a busy machine, and the worker's deadline is never reached)."""
    import time

    from cardtable.agents import Observation, make_agent

    started = time.perf_counter()
    state = _state_for(game_id, options, seed, actions, table_key)
    if state.current_player != seat:
        raise ValueError(f"seat {seat} is not the one to decide")
    legal = state.legal_actions()
    if len(legal) == 1:  # a lone legal action: no thinking needed (the engine still offers it)
        return str(legal[0].text)
    if budget is not None:
        left = max(0.001, budget - (time.perf_counter() - started))
        spec = server_spec(state.game, spec, left, max_iterations)
    agent = make_agent(spec, state.game, seed=agent_seed)
    action = agent.choose(Observation(state, seat))
    return str(action.text)


def _search(game: Any, spec: str) -> Any:
    """The search agent ``spec`` builds for ``game`` (an :class:`~cardtable.agents.ismcts.Ismcts`),
    or None for an agent that does not search (``random``, ``heuristic``, ``easy``, ``normal``)."""
    from cardtable.agents import make_agent
    from cardtable.agents.ismcts import Ismcts

    agent = make_agent(spec, game, seed=0)
    return agent if isinstance(agent, Ismcts) else None


def own_ms(agent: Any) -> float:
    """How long a search agent may think per move by its own spec: its ``ms``, or (an iteration
    budget alone, as ``strong``) the registry's safety stop."""
    return float(agent.ms if agent.ms is not None else agent.ms_cap)


def server_spec(game: Any, spec: str, budget: float, max_iterations: int | None = None) -> str:
    """The spec a worker runs for the stored seat spec ``spec``: a search agent thinks at most
    ``budget`` seconds a move (its ``ms`` capped, :func:`cardtable.agents.registry.cap_time`; an
    iteration budget stays and ends the search first when it comes first), at most
    ``max_iterations`` iterations, in this one process (``workers=1``: its ``trees`` stay, so it
    chooses what it would on helper processes). Any other spec is returned as it is."""
    from cardtable.agents.registry import cap_time, parse_spec

    agent = _search(game, spec)
    if agent is None:
        return spec
    name, opts = parse_spec(spec)
    changed = False
    if agent.workers > 1:
        opts["trees"] = str(agent.trees)
        opts.pop("workers")
        changed = True
    if max_iterations is not None and agent.iterations is not None and agent.iterations > max_iterations:
        opts["iterations"] = str(max_iterations)
        changed = True
    if changed:
        spec = name + ":" + ",".join(f"{k}={v}" for k, v in opts.items())
    return cap_time(spec, game, budget * 1000)


def cap_note(game: Any, spec: str, budget: float, seat: str | None = None) -> str | None:
    """In words, how this server's ``--bot-budget`` caps the agent ``spec`` (None when it does not):
    a level thinking longer than the budget plays at most the budget a move (a little weaker); an
    iteration budget (``strong``) is stopped at the budget if it has not finished by then."""
    agent = _search(game, spec)
    if agent is None or own_ms(agent) <= budget * 1000:
        return None
    name = spec.strip().partition(":")[0]
    who = f"{seat}: {name}" if seat else name
    if agent.ms is not None:
        return (
            f"{who} thinks up to {agent.ms / 1000:g} s a move; this server allows a bot {budget:g} s "
            f"(--bot-budget), so it thinks at most that long and may play a little weaker"
        )
    return (
        f"{who} searches {agent.iterations:,} iterations a move, stopped at this server's {budget:g} s a move "
        f"(--bot-budget) if they are not done by then"
    )


def check_spec(game: Any, spec: str, budget: float | None = None, max_iterations: int | None = None) -> None:
    """Raise :class:`OptionError` unless ``spec`` makes an agent for ``game`` within this server's
    limits: no option may be an infinite or not-a-number value, ``ms`` (any agent's time limit) at
    most ``budget`` seconds, ``iterations`` at most ``max_iterations``, and a search on one process
    (``workers=1``: the server's bot share, ``--bot-cpu``, counts one core a bot). The agent
    registry's own bounds apply too (its factory refuses what it cannot play). A level's own think
    time over the budget is not refused but capped (:func:`server_spec`, :func:`cap_note`)."""
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
        if key == "workers" and number > 1:
            raise OptionError(
                f"agent {name!r}: workers={text[:20]} is more than this server allows (each bot thinks in one "
                f"process; --bot-cpu sets how many bots think at once); leave workers out"
            )
    try:
        _search(game, spec)
    except OptionError:
        raise
    except (ValueError, KeyError, TypeError) as exc:
        raise OptionError(f"bad agent spec {spec[:60]!r}: {exc}") from exc


class BotRunner:
    """Runs agents' decisions: in a :class:`~cardtable.web.workers.WorkerPool` of processes (the
    server), or ``workers=0`` in two threads of this process (tests and quick local use: there a
    decision past its budget is only given up on, since a thread cannot be stopped; the search's own
    ``ms`` limit is what ends it)."""

    def __init__(
        self,
        workers: int | None = None,
        budget: float = 10.0,
        *,
        deadline: float | None = None,
        max_iterations: int | None = None,
    ) -> None:
        self.budget = budget
        self.max_iterations = max_iterations
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
        if self.pool is not None:
            job = {
                "game": game_id,
                "options": dict(options),
                "seed": seed,
                "actions": list(actions),
                "seat": seat,
                "spec": spec,
                "agent_seed": agent_seed,
                "budget": self.budget,
                "max_iterations": self.max_iterations,
            }
            return await self.pool.run(job, self.deadline, owner=owner, key=table_key)
        assert self.threads is not None
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(
            self.threads,
            choose,
            game_id,
            dict(options),
            seed,
            list(actions),
            seat,
            spec,
            agent_seed,
            table_key,
            self.budget,
            self.max_iterations,
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
