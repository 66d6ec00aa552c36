"""Bots that cannot be abused (issue 23, finding 1): bounded specs, stopped runaways, a fair CPU share.

- a spec asking for more than the server allows (``ismcts:ms=inf``, ``ms=1e12``,
  ``iterations=1000000000``) is refused when the table is made, with an error naming the limit;
- a decision still thinking at its deadline is stopped: its worker process is ended and replaced
  (not left burning a core), the table plays a random legal move and says so, and the other
  tables' bots go on moving;
- the workers are the server's bot CPU share (``--bot-cpu`` of the cores), and a client with many
  bot tables waits its turn behind others, not in front of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from websockets.sync.client import connect

import cardtable
from cardtable.agents.levels import EXPERT_MS, HARD_MS
from cardtable.engine.errors import OptionError
from cardtable.web import create_app
from cardtable.web.bots import BotRunner, cap_note, check_spec, choose
from cardtable.web.limits import Limits
from cardtable.web.storage import Storage
from cardtable.web.workers import BotTimeout, WorkerPool
from tests.web import procs
from tests.web.server import Server


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("ismcts:ms=inf", "finite"),
        ("ismcts:ms=nan", "finite"),
        ("ismcts:ms=1e12", "--bot-budget"),
        ("ismcts:ms=10001", "--bot-budget"),
        ("ismcts:iterations=1000000000", "--bot-max-iterations"),
        ("ismcts:iterations=20001,rollout=heuristic", "--bot-max-iterations"),
    ],
)
def test_specs_over_the_servers_maximum_are_refused_at_create_table(client: TestClient, spec: str, says: str) -> None:
    before = client.get("/api/tables").json()["tables"]
    r = client.post("/api/tables", json={"game": "mephisto", "options": {"players": 2}, "seats": ["me", spec]})
    assert r.status_code == 400, r.text
    error = r.json()["error"]
    assert says in error and "\n" not in error, error
    assert client.get("/api/tables").json()["tables"] == before, "a refused table was made anyway"


def test_specs_within_the_maximum_are_accepted(client: TestClient) -> None:
    for spec in ("ismcts:ms=10000", "ismcts:iterations=20000", "ismcts:iterations=400,rollout=heuristic", "random"):
        r = client.post("/api/tables", json={"game": "mephisto", "options": {"players": 2}, "seats": ["me", spec]})
        assert r.status_code == 200, (spec, r.text)


def test_check_spec_applies_this_servers_limits() -> None:
    game = cardtable.load("mephisto", players=2)
    check_spec(game, "ismcts:ms=2000", budget=2, max_iterations=10)
    with pytest.raises(OptionError, match="2000 ms"):
        check_spec(game, "ismcts:ms=2001", budget=2)
    with pytest.raises(OptionError, match="finite"):
        check_spec(game, "ismcts:ms=-inf", budget=2)
    with pytest.raises(OptionError, match="more than this server allows"):
        check_spec(game, "ismcts:iterations=11", max_iterations=10)


def test_the_cpu_share_sets_how_many_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("os.cpu_count", lambda: 8)
    assert Limits(bot_cpu=0.5).bot_workers() == 4
    assert Limits(bot_cpu=0.25).bot_workers() == 2
    assert Limits(bot_cpu=0.01).bot_workers() == 1, "at least one worker"
    with pytest.raises(ValueError, match="--bot-cpu"):
        Limits(bot_cpu=1.5).check()


def _job(spec: str, seed: int = 3) -> dict[str, Any]:
    state = cardtable.load("mephisto", players=2).new(seed)
    return {
        "game": "mephisto",
        "options": {"players": 2},
        "seed": seed,
        "actions": [],
        "seat": state.current_player,
        "spec": spec,
        "agent_seed": 1,
    }


def test_a_decision_past_its_deadline_ends_its_worker_and_a_fresh_one_takes_over() -> None:
    pool = WorkerPool(1)
    pool.start()
    try:

        async def scenario() -> tuple[list[int], float, str]:
            warm = await pool.run(_job("random"), 60)  # the worker has loaded the games
            assert warm
            first = pool.pids()
            started = time.monotonic()
            with pytest.raises(BotTimeout):
                await pool.run(_job("ismcts:iterations=1000000"), 1.0)  # the registry's maximum: minutes
            took = time.monotonic() - started
            after = await pool.run(_job("heuristic"), 60)
            return first, took, after

        first, took, after = asyncio.run(scenario())
        assert took < 3, f"the runaway decision was given up on only after {took:.1f} s"
        procs.wait_until(lambda: not procs.alive(first[0]), 3, "the runaway worker process was ended")
        assert pool.pids() and pool.pids() != first, "a fresh worker replaced the ended one"
        assert after, "the fresh worker answers the next decision"
        assert pool.replaced == 1
    finally:
        pool.close()


def test_a_client_with_many_bot_tables_waits_behind_the_others() -> None:
    """One worker; owner A queues four decisions, then B one: B's comes second, not fifth."""
    pool = WorkerPool(1)
    pool.start()
    order: list[str] = []
    try:

        async def ask(owner: str, key: int) -> None:
            await pool.run(_job("ismcts:ms=150"), 30, owner=owner, key=key)
            order.append(owner)

        async def scenario() -> None:
            await pool.run(_job("random"), 60)  # warm
            tasks = [asyncio.create_task(ask("A", k)) for k in range(4)]
            await asyncio.sleep(0.05)
            tasks.append(asyncio.create_task(ask("B", 9)))
            await asyncio.gather(*tasks)

        asyncio.run(scenario())
    finally:
        pool.close()
    assert order.index("B") <= 1, f"the other client's bot waited behind every decision of the first: {order}"


def test_thread_mode_still_answers_within_the_budget() -> None:
    """``bot_workers=0`` (tests): the search's own time limit ends it; the answer is legal."""
    runner = BotRunner(0, budget=2)
    try:
        job = _job("ismcts")
        text = asyncio.run(
            runner.choose("mephisto", {"players": 2}, 3, [], job["seat"], "ismcts", 1)  # given ms within the budget
        )
        assert text in [a.text for a in cardtable.load("mephisto", players=2).new(3).legal_actions()]
    finally:
        runner.close()


def _states(server: Server, table: str) -> int:
    return int(server.get(f"/api/tables/{table}")["state"])


SLOWBOT = Path(__file__).parent / "slowbot"


def test_a_runaway_bot_cannot_pin_the_server(tmp_path: Path) -> None:
    """A table whose bot ignores its time budget (``sleepy``, tests/web/slowbot: it blocks 60 s a
    move) and a table of quick bots share one worker, with a budget of 1 s: each runaway decision is
    stopped at its deadline (the worker ended and replaced each time, a random move played and
    announced), and the quick table keeps moving."""
    server = Server(
        f"sqlite:///{tmp_path / 't.db'}",
        extra=["--bot-workers", "1", "--bot-budget", "1"],
        pythonpath=[SLOWBOT],
    ).start()
    with contextlib.ExitStack() as stack:
        stack.callback(server.stop)
        first = procs.wait_until(lambda: procs.bot_workers(server.pid), 10, "the server started its worker")
        runaway, _ = server.create("mephisto", ["sleepy:s=60", "sleepy:s=60"])
        watch = stack.enter_context(connect(server.ws + runaway))
        watch.send(json.dumps({"type": "hello", "state": None, "events": None, "token": None}))
        quick, _ = server.create("mephisto", ["heuristic", "heuristic"], players=2)
        notices: list[str] = []
        deadline = time.monotonic() + 90  # a fresh worker loads the games after each stop: seconds on a loaded machine
        while time.monotonic() < deadline and not (len(notices) >= 2 and _states(server, quick) >= 3):
            with contextlib.suppress(TimeoutError):
                msg = json.loads(watch.recv(timeout=0.5))
                if msg["type"] == "notice":
                    notices.append(msg["message"])
        assert len(notices) >= 2, "the runaway bot's decisions were not stopped at their deadline"
        assert "ran out of its 1 s" in notices[0] and "stopped" in notices[0], notices[0]
        assert _states(server, runaway) >= 2, "the runaway table still moves (random moves for the stopped decisions)"
        assert _states(server, quick) >= 3, "the other table's bots were held up by the runaway"
        assert not procs.alive(first[0]), "the worker that ran past its deadline is still running"
        assert procs.bot_workers(server.pid), "a fresh worker took its place"
        assert "was ended and replaced" in server.log()


def test_a_huge_iteration_count_is_stopped_by_the_search_at_the_budget(tmp_path: Path) -> None:
    """A server that allows a million iterations still gives a search only ``--bot-budget`` seconds:
    the worker runs the spec with ``ms`` at the budget (bots.server_spec), so each decision ends by
    itself, no worker is ended and no move is a random stand-in."""
    server = Server(
        f"sqlite:///{tmp_path / 't.db'}",
        extra=["--bot-workers", "1", "--bot-budget", "2", "--bot-max-iterations", "1000000"],
    ).start()
    with contextlib.ExitStack() as stack:
        stack.callback(server.stop)
        first = procs.wait_until(lambda: procs.bot_workers(server.pid), 10, "the server started its worker")
        table, _ = server.create("mephisto", ["ismcts:iterations=1000000", "ismcts:iterations=1000000"], players=2)
        procs.wait_until(lambda: _states(server, table) >= 3, 40, "the searching bots made three moves")
        assert procs.bot_workers(server.pid) == first, "a worker was ended: the search ran past its budget"
        assert "was ended and replaced" not in server.log()


# -- the levels (easy, normal, hard, expert) and strong under the server's limits -----------------------


@pytest.mark.parametrize("spec", ["strong:workers=4", "expert:workers=2", "hard:workers=2", "ismcts:workers=3,trees=3"])
def test_a_bot_on_several_processes_is_refused_at_create_table(client: TestClient, spec: str) -> None:
    """The bot CPU share (``--bot-cpu``) counts one core per thinking bot: ``workers=`` would let one
    seat start helper processes of its own, so it is refused, naming the flag."""
    r = client.post("/api/tables", json={"game": "mephisto", "options": {"players": 2}, "seats": ["me", spec]})
    assert r.status_code == 400, r.text
    out = r.json()
    assert "workers" in out["error"] and "--bot-cpu" in out["error"] and out["seat"] == 1, out


def test_the_levels_and_strong_are_accepted_and_fit_the_default_budget(client: TestClient) -> None:
    """The levels' own think times (hard 0.5 s, expert 1 s) fit the default --bot-budget (10 s): no
    note for them; strong's iteration budget is stopped at the budget if not done, and says so."""
    budget = Limits().bot_budget
    for ms in (HARD_MS, EXPERT_MS):
        assert ms <= budget * 1000 < Limits().bot_deadline() * 1000
    for spec in ("easy", "normal", "hard", "expert", "strong"):
        r = client.post("/api/tables", json={"game": "mephisto", "options": {"players": 2}, "seats": ["me", spec]})
        assert r.status_code == 200, (spec, r.text)
        notes = r.json()["notes"]
        if spec == "strong":
            assert len(notes) == 1 and notes[0].startswith("P2: strong") and "--bot-budget" in notes[0], notes
        else:
            assert notes == [], (spec, notes)
    info = {a["name"]: a for a in client.get("/api/games").json()["agent_info"]}
    assert [info[n]["capped_s"] for n in ("easy", "normal", "hard", "expert")] == [None] * 4
    assert info["strong"]["capped_s"] == budget and f"at most {budget:g} s a move" in info["strong"]["about"]


def test_a_level_thinking_longer_than_the_budget_is_capped_with_a_clear_message(db_url: str) -> None:
    """``--bot-budget 0.5``: ``expert`` (1 s) is not refused but capped, and both the lobby's seat menu
    (/api/games) and the create answer say so in words; ``hard`` (0.5 s) fits and says nothing."""
    app = create_app(db_url, bot_workers=0, bot_delay=0, bot_budget=0.5)
    with TestClient(app) as c:
        games = c.get("/api/games").json()
        assert games["bot_budget"] == 0.5
        info = {a["name"]: a for a in games["agent_info"]}
        assert info["expert"]["capped_s"] == 0.5 and "on this server at most 0.5 s a move" in info["expert"]["about"]
        assert info["hard"]["capped_s"] is None and info["normal"]["capped_s"] is None
        r = c.post("/api/tables", json={"game": "mephisto", "options": {"players": 2}, "seats": ["expert", "me"]})
        assert r.status_code == 200, r.text
        (note,) = r.json()["notes"]
        assert note.startswith("P1: expert thinks up to 1 s a move") and "0.5 s (--bot-budget)" in note, note
        # An explicit time over the budget is still refused: the spec asked for it.
        body = {"game": "mephisto", "options": {"players": 2}, "seats": ["strong:ms=501", "me"]}
        r = c.post("/api/tables", json=body)
        assert r.status_code == 400 and "--bot-budget" in r.json()["error"], r.text


def test_the_worker_runs_the_capped_spec(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a worker builds for a seat is the spec capped at the budget and the iteration maximum."""
    import cardtable.agents as agents

    built: list[str] = []
    real = agents.make_agent

    def spy(spec: str, game: Any, seed: int = 0) -> Any:
        built.append(spec)
        return real(spec, game, seed)

    monkeypatch.setattr(agents, "make_agent", spy)
    state = cardtable.load("mephisto", players=2).new(3)
    while len(state.legal_actions()) == 1:
        state.apply(state.legal_actions()[0].text)
    actions = state.actions_taken()
    seat = state.current_player
    assert seat is not None
    text = choose("mephisto", {"players": 2}, 3, actions, seat, "expert", 1, budget=0.05, max_iterations=20)
    assert text in [a.text for a in state.legal_actions()]
    # The time spent rebuilding the state comes off the budget: at most 50 ms are left for the search.
    name, _, options = built[-1].partition(":")
    settings = dict(part.split("=") for part in options.split(","))
    assert name == "expert" and settings["iterations"] == "20" and 0 < float(settings["ms"]) <= 50, built


def test_check_spec_judges_the_agent_the_spec_builds() -> None:
    game = cardtable.load("mephisto", players=2)
    for spec in ("easy", "normal", "hard", "expert", "strong", "strong:trees=4"):
        check_spec(game, spec, budget=0.1, max_iterations=10)  # capped at run time, never refused
    assert cap_note(game, "hard", 10) is None and cap_note(game, "normal", 0.01) is None
    note = cap_note(game, "expert", 0.25, "P3")
    assert note is not None and note.startswith("P3: expert thinks up to 1 s") and "0.25 s" in note
    with pytest.raises(OptionError, match="over the maximum"):
        check_spec(game, "strong:iterations=2000000", budget=10, max_iterations=10**9)  # the registry's own bound


def test_a_stored_runaway_spec_cannot_pin_the_worker_after_a_restart(tmp_path: Path) -> None:
    """Finding 1: a table stored with a runaway bot pinned the worker again at every restart. Two seats
    written straight into the database (as an older server may have left them, past today's checks):
    a search asking a million iterations (over --bot-max-iterations) and an agent that sleeps through
    its budget. Each start of the server restores the table and its bots move on: the search capped at
    the budget by itself, the sleeper stopped at the deadline (its worker ended and replaced)."""
    url = f"sqlite:///{tmp_path / 't.db'}"
    storage = Storage(url)
    seed = 11
    storage.create_table(
        "runaway01", "mephisto", {"players": 2}, seed, [("ismcts:iterations=1000000", None), ("sleepy:s=60", None)]
    )
    storage.close()
    moved = 0
    for start in range(2):
        server = Server(url, extra=["--bot-workers", "1", "--bot-budget", "1"], pythonpath=[SLOWBOT]).start()
        try:
            # wait_until calls its check before the loop goes on, so it always sees this start's server.
            procs.wait_until(
                lambda: _states(server, "runaway01") >= moved + 3,  # noqa: B023
                60,
                f"the restored table moved (start {start + 1})",
            )
            moved = _states(server, "runaway01")
            workers = procs.bot_workers(server.pid)
        finally:
            server.stop()
        assert "a bot (sleepy:s=60) thought past" in server.log(), "the sleeper was not stopped at its deadline"
        procs.wait_until(lambda: not any(procs.alive(p) for p in workers), 5, "the workers ended with the server")  # noqa: B023
