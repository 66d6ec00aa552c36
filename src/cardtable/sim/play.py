"""Playing the games of a plan: one game, or a batch of games (the unit of work of every backend).

Everything here is a pure function of the plan and the game index (apart from ``seconds``), which is
why one worker, K workers and a Ray cluster give identical results for the same seeds.
"""

from __future__ import annotations

import importlib
import signal
import sys
import time
from collections.abc import Mapping, Sequence
from typing import Any

import cardtable
from cardtable.agents.base import Observation
from cardtable.agents.ismcts import win_shares
from cardtable.agents.registry import make_agent
from cardtable.engine.game import JSON
from cardtable.sim.plan import Plan, agent_seed, seat_specs

GameOutcome = tuple[dict[str, JSON], dict[str, JSON] | None]
"""The results line of one game and, when records were asked for, its records line."""


def ensure_game(plan: Plan) -> None:
    """Make the plan's game loadable in this process (re-register a run-time registered game)."""
    if plan.factory is None or plan.game in cardtable.available():
        return
    module, _, qualname = plan.factory.partition(":")
    obj: Any = importlib.import_module(module)
    for part in qualname.split("."):
        obj = getattr(obj, part)
    cardtable.register(plan.game, obj)


def card_names(state: cardtable.State) -> dict[int, str]:
    """Names of the cards visible in the spectator view and the snapshot (``{"id", "name"}`` dicts)."""
    names: dict[int, str] = {}
    stack: list[Any] = [state.view(None), state.snapshot()]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            cid, name = item.get("id"), item.get("name")
            if isinstance(cid, int) and not isinstance(cid, bool) and isinstance(name, str):
                names.setdefault(cid, name)
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return names


def play_game(plan: Plan, setting_index: int, index: int) -> GameOutcome:
    """Play game ``index`` of setting ``setting_index`` and return its results (and records) line."""
    setting = plan.settings[setting_index]
    game = cardtable.load(plan.game, **setting.options)
    players = game.players
    seed = plan.seed + index
    specs, agent_at = seat_specs(setting, players, index)
    agents = [make_agent(spec, game, agent_seed(plan.seed, index, seat)) for seat, spec in enumerate(specs)]
    start = time.perf_counter()
    state = game.new(seed, log=False)
    first = state.current_player
    actors: list[int] | None = [] if plan.records else None
    decisions = 0
    limit = plan.max_decisions
    while not state.is_over and decisions < limit:
        seat = state.current_player
        assert seat is not None
        action = agents[seat].choose(Observation(state, seat))
        if actors is not None:
            actors.append(seat)
        state.apply(action, seat)
        decisions += 1
    seconds = time.perf_counter() - start
    line: dict[str, JSON] = {
        "setting": setting_index,
        "index": index,
        "seed": seed,
        "options": dict(setting.options),
        "seats": specs,
        "agents": agent_at,
        "first": first,
        "decisions": decisions,
        "seconds": round(seconds, 6),
    }
    if state.is_over:
        result = state.result()
        line.update(
            result=result.to_json(),
            reason=result.reason,
            truncated=result.truncated,
            turns=result.turns,
            wins=win_shares(result, players),
        )
    else:
        # Our own safety stop, for a game whose rules never end it: counted and flagged like a
        # game's turn limit, with no winner.
        line.update(result=None, reason="decision-limit", truncated=True, turns=state.turn, wins=[0.0] * players)
    record_line: dict[str, JSON] | None = None
    if plan.records:
        record = state.record()
        names = card_names(state)
        record_line = {
            "setting": setting_index,
            "index": index,
            "actors": actors,
            "names": {str(k): v for k, v in sorted(names.items())},
            "record": record,
        }
    return line, record_line


def run_batch(plan_json: Mapping[str, Any], setting_index: int, indices: Sequence[int]) -> list[GameOutcome]:
    """Play a batch of games (the task every backend ships to a worker)."""
    plan = Plan.from_json(plan_json)
    ensure_game(plan)
    return [play_game(plan, setting_index, i) for i in indices]


def worker_init(path: list[str]) -> None:
    """Process-pool initializer: the parent's import path, so run-time registered games import.

    Workers ignore Ctrl-C: the main process handles it (keeping every finished batch) and stops them.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for entry in reversed(path):
        if entry not in sys.path:
            sys.path.insert(0, entry)
