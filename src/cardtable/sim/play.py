"""Playing the games of a plan: one game, or a batch of games (the unit of work of every backend).

Everything here is a pure function of the plan and the game index (apart from ``seconds``), which is
why one worker, K workers and a Ray cluster give identical results for the same seeds.

A worker does all the per-game work of a batch, so that the main process's share does not grow with
the number of workers: it plays the games, writes their results lines as JSON text, and folds them
into an exact :class:`~cardtable.sim.aggregate.RunAggregate`. The main process only appends the text
and merges the aggregates.
"""

from __future__ import annotations

import importlib
import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

import cardtable
from cardtable.agents.base import Observation
from cardtable.agents.ismcts import win_shares
from cardtable.agents.registry import make_agent
from cardtable.engine.game import JSON, Game
from cardtable.sim.aggregate import RunAggregate
from cardtable.sim.plan import Plan, agent_seed, seat_specs

GameOutcome = tuple[dict[str, JSON], dict[str, JSON] | None]
"""The results line of one game and, when records were asked for, its records line."""

Batch = list[tuple[int, int]]
"""(setting, game index) pairs: every backend's unit of work."""


@dataclass
class BatchResult:
    """What a worker returns for a batch: the results lines as JSONL text, the records lines (empty
    without records), the batch's aggregate and how many games it holds."""

    results: str
    records: str
    aggregate: RunAggregate
    games: int


def ensure_game(plan: Plan) -> None:
    """Make the plan's game loadable in this process (re-register a run-time registered game)."""
    if plan.factory is None or plan.game in cardtable.available():
        return
    module, _, qualname = plan.factory.partition(":")
    obj: Any = importlib.import_module(module)
    for part in qualname.split("."):
        obj = getattr(obj, part)
    cardtable.register(plan.game, obj)


CardUse = tuple[str, str] | None
"""How an action puts a card to use and the card's name (``("played", "Greataxe")``), or None."""


def plain_card_name(game: Game, card: int) -> str:
    """A card's name with the id that ``game.card_name`` adds to tell copies apart taken off
    (``"Greataxe (card 25)"`` -> ``"Greataxe"``), so that the copies of a card count together."""
    name = game.card_name(card)
    suffix = f" (card {card})"
    return name[: -len(suffix)] if name.endswith(suffix) and len(name) > len(suffix) else name


def card_uses(game: Game) -> list[CardUse]:
    """For every action of ``game``'s action space, by index: how it puts a card to use and the card's
    name, or None. The kinds are the game's ``CARD_USES`` (play, summon, loot, ...: not, say, paying a
    cost with a card); a game that declares none counts every action with a ``card`` parameter as
    "used". Computed once per loaded game, so counting costs one list lookup per decision.
    """
    table = cast("list[CardUse] | None", game.memo.get(card_uses))
    if table is not None and len(table) == len(game.actions):
        return table
    kinds: Mapping[str, str] = game.CARD_USES or {
        kind: "used" for kind, params in game.actions.params.items() if "card" in params
    }
    table = []
    for action in game.actions:
        how = kinds.get(action.kind)
        card = action.arg("card") if how is not None and "card" in game.actions.params[action.kind] else None
        table.append((how, plain_card_name(game, card)) if how is not None and isinstance(card, int) else None)
    game.memo[card_uses] = table
    return table


def play_game(plan: Plan, setting_index: int, index: int) -> GameOutcome:
    """Play game ``index`` of setting ``setting_index`` and return its results (and records) line.

    A decision with a single legal action is applied without asking the agent (it has no choice;
    this saves a search) and counted as ``forced``. Every action that puts a card to use is counted
    per seat, by how and by card name (copies together), in ``cards``: ``[{"played": {"Greataxe": 2},
    ...}, ...]``, the data of the report's per-card statistics, kept without ``--records``.
    """
    setting = plan.settings[setting_index]
    game = setting.load(plan.game)
    players = game.players
    seed = plan.seed + index
    specs, agent_at = seat_specs(setting, players, index)
    agents = [make_agent(spec, game, agent_seed(plan.seed, index, seat)) for seat, spec in enumerate(specs)]
    uses = card_uses(game)
    cards: list[dict[str, dict[str, int]]] = [{} for _ in range(players)]
    start = time.perf_counter()
    state = game.new(seed, log=False)
    first = state.current_player
    actors: list[int] | None = [] if plan.records else None
    decisions = forced = 0
    limit = plan.max_decisions
    while not state.is_over and decisions < limit:
        seat = state.current_player
        assert seat is not None
        legal = state.legal_actions()
        if len(legal) == 1:
            action = legal[0]
            forced += 1
        else:
            action = agents[seat].choose(Observation(state, seat))
        if actors is not None:
            actors.append(seat)
        state.apply(action, seat)
        decisions += 1
        use = uses[action.index]
        if use is not None:
            by_name = cards[seat].setdefault(use[0], {})
            by_name[use[1]] = by_name.get(use[1], 0) + 1
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
        "forced": forced,
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
    line["cards"] = cast(JSON, cards)
    record_line: dict[str, JSON] | None = None
    if plan.records:
        record_line = {"setting": setting_index, "index": index, "actors": actors, "record": state.record()}
    return line, record_line


def _line_text(obj: Mapping[str, Any]) -> str:
    return json.dumps(obj, separators=(",", ":")) + "\n"


def play_batch(plan: Plan, batch: Sequence[tuple[int, int]]) -> BatchResult:
    """Play a batch of (setting, index) games: their lines as text, and their aggregate."""
    ensure_game(plan)
    aggregate = RunAggregate([s.to_json() for s in plan.settings])
    results: list[str] = []
    records: list[str] = []
    for setting, index in batch:
        line, record = play_game(plan, setting, index)
        aggregate.add(line)
        results.append(_line_text(line))
        if record is not None:
            records.append(_line_text(record))
    return BatchResult("".join(results), "".join(records), aggregate, len(batch))


def run_batch(plan_json: Mapping[str, Any], batch: Sequence[tuple[int, int]]) -> BatchResult:
    """Play a batch of games from a plan in its JSON form (the task a Ray worker runs)."""
    return play_batch(_plan(plan_json), batch)


_PLANS: dict[str, Plan] = {}


def _plan(plan_json: Mapping[str, Any]) -> Plan:
    """The plan of ``plan_json``, parsed once per process (a worker runs many batches of one plan)."""
    key = json.dumps(plan_json, sort_keys=True)
    plan = _PLANS.get(key)
    if plan is None:
        _PLANS.clear()
        plan = _PLANS[key] = Plan.from_json(plan_json)
    return plan
