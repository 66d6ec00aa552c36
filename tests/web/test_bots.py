"""Bots on the server: thinking shown, off the event loop, held to their time budget."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest

from cardtable.agents import Agent, Observation
from cardtable.agents.registry import AGENTS
from cardtable.engine.actions import Action
from cardtable.web.bots import BotRunner, choose, server_spec
from cardtable.web.hub import Hub
from cardtable.web.storage import Storage


class Sleepy(Agent):
    """Thinks for ``seconds`` (blocking, as a real search does), then takes the first legal action."""

    name = "sleepy"

    def __init__(self, seed: int = 0, seconds: float = 1.0) -> None:
        super().__init__(seed)
        self.seconds = seconds

    def choose(self, obs: Observation) -> Action:
        time.sleep(self.seconds)
        return obs.legal_actions()[0]


@pytest.fixture
def sleepy(monkeypatch: pytest.MonkeyPatch) -> None:
    # Registered for this test only (register_agent has no undo; the fixture patches the table).
    monkeypatch.setitem(AGENTS, "sleepy", lambda game, seed, **o: Sleepy(seed, float(o.get("s", 1.0))))


def test_server_spec_caps_a_search_at_the_budget_and_keeps_the_rest() -> None:
    import cardtable
    from cardtable.agents import Ismcts, make_agent

    game = cardtable.load("mephisto", players=2)
    tuned = make_agent("strong", game)
    assert isinstance(tuned, Ismcts)
    it = tuned.iterations  # strong's tuned budget for this game (agents/strong.py)
    # A search without a time limit of its own gets the budget (its iteration budget stays).
    assert server_spec(game, "ismcts:iterations=50", 10) == "ismcts:iterations=50,ms=10000"
    assert server_spec(game, "strong", 2) == f"strong:iterations={it},ms=2000"
    # A time limit within the budget, and agents that do not search, are left alone.
    assert server_spec(game, "ismcts:ms=300", 10) == "ismcts:ms=300"
    assert server_spec(game, "hard", 10) == "hard"
    for spec in ("random", "heuristic", "easy", "normal"):
        assert server_spec(game, spec, 0.1) == spec
    # A level thinking longer than the budget thinks for the budget.
    assert server_spec(game, "expert", 0.5) == f"expert:iterations={it},ms=500"
    # One process per bot: the trees stay (the same choice), the helper processes go.
    assert server_spec(game, "strong:workers=4", 10) == f"strong:trees=4,iterations={it},ms=10000"
    # The server's iteration maximum applies to a level's own iteration budget too.
    assert server_spec(game, "expert", 10, max_iterations=100) == "expert:iterations=100"


def test_choose_replays_and_reuses_state() -> None:
    import cardtable

    game = cardtable.load("mephisto", players=2)
    state = game.new(3)
    texts: list[str] = []
    for _ in range(5):
        seat = state.current_player
        assert seat is not None
        text = choose("mephisto", {"players": 2}, 3, texts, seat, "random", 1)
        assert text in [a.text for a in state.legal_actions()]
        state.apply(text)
        texts.append(text)


async def _bot_table(tmp_path: Path, spec: str, budget: float) -> tuple[list[dict[str, Any]], Any]:
    frames: list[dict[str, Any]] = []
    storage = Storage(f"sqlite:///{tmp_path / 'b.db'}")
    hub = Hub(storage, BotRunner(0, budget=budget), tap=lambda c, f: frames.append(json.loads(json.dumps(f))))
    await hub.start()
    table, _ = hub.create("mephisto", {"players": 2}, [spec, spec], seed=5)
    spectator = hub.attach(table.id)
    await hub.handle(spectator, json.dumps({"type": "hello", "state": None, "events": None, "token": None}))
    # The event loop stays free while the bot thinks: this loop ticks every 10 ms.
    ticks = 0
    deadline = time.monotonic() + 5
    while table.version < 2 and time.monotonic() < deadline:
        await asyncio.sleep(0.01)
        ticks += 1
    await hub.stop()
    hub.bots.close()
    storage.close()
    return frames, (table, ticks)


def test_a_slow_bot_is_replaced_by_a_random_action_when_its_budget_runs_out(tmp_path: Path, sleepy: None) -> None:
    frames, (table, ticks) = asyncio.run(_bot_table(tmp_path, "sleepy:s=0.6", budget=0.15))
    assert table.version >= 2
    kinds = [f["type"] for f in frames]
    assert "thinking" in kinds
    notices = [f for f in frames if f["type"] == "notice"]
    assert notices and "ran out of its 0.15 s" in notices[0]["message"]
    assert ticks >= 20, "the event loop was blocked while the bot thought"


def test_a_bot_within_its_budget_plays_its_own_choice(tmp_path: Path, sleepy: None) -> None:
    frames, (table, _) = asyncio.run(_bot_table(tmp_path, "sleepy:s=0.05", budget=2))
    assert table.version >= 2
    assert not [f for f in frames if f["type"] == "notice"]
    thinking = [f for f in frames if f["type"] == "thinking"]
    assert [f["state"] for f in thinking[:2]] == [0, 1]


def test_bots_run_in_worker_processes_by_default() -> None:
    """The server's default: worker processes, so a searching bot never holds this process."""
    import os

    runner = BotRunner(workers=1, budget=60)
    try:
        import cardtable

        state = cardtable.load("mephisto", players=2).new(3)
        seat = state.current_player
        assert seat is not None

        async def ask() -> str:
            return await runner.choose("mephisto", {"players": 2}, 3, [], seat, "heuristic", 1)

        text = asyncio.run(ask())
        assert text in [a.text for a in state.legal_actions()]
        pids = runner.pids()
        assert pids and os.getpid() not in pids
    finally:
        runner.close()
