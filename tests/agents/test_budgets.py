"""Budgets: every search agent has a time budget, a budget over a documented maximum is refused with
a clear error at every entry point (the registry, ``cardtable play``, ``cardtable simulate``, the web
lobby), and a search stops within its time budget."""

from __future__ import annotations

import time
import warnings
from pathlib import Path

import pytest

import cardtable
from cardtable.agents import Ismcts, Observation, make_agent
from cardtable.agents.budget import DEFAULT_MS_CAP, MAX_ITERATIONS, MAX_MS, MAX_TREES, MAX_WORKERS
from cardtable.cli.main import main
from cardtable.engine import OptionError, State
from tests.agents.games import search_agent

SEARCHERS = ("ismcts", "strong", "hard", "expert")
OVER = (
    (f"ms={MAX_MS + 1:g}", "ms", f"{MAX_MS:,.0f} ms"),
    (f"iterations={MAX_ITERATIONS + 1}", "iterations", f"{MAX_ITERATIONS:,}"),
    (f"workers={MAX_WORKERS + 1}", "workers", str(MAX_WORKERS)),
    (f"trees={MAX_TREES + 1}", "trees", str(MAX_TREES)),
)


@pytest.mark.parametrize("agent", SEARCHERS)
@pytest.mark.parametrize(("option", "key", "limit"), OVER)
def test_the_registry_refuses_a_budget_over_its_maximum(agent: str, option: str, key: str, limit: str) -> None:
    with pytest.raises(OptionError) as err:
        make_agent(f"{agent}:{option}", cardtable.load("mephisto", players=2))
    message = str(err.value)
    assert key in message and limit in message and repr(agent) in message, message


@pytest.mark.parametrize("agent", SEARCHERS)
def test_the_maximum_itself_is_accepted(agent: str) -> None:
    game = cardtable.load("mephisto", players=2)
    spec = f"{agent}:ms={MAX_MS:g},iterations={MAX_ITERATIONS},workers={MAX_WORKERS},trees={MAX_TREES}"
    searcher = make_agent(spec, game)
    assert isinstance(searcher, Ismcts)
    assert (searcher.ms, searcher.iterations, searcher.workers, searcher.trees) == (
        MAX_MS,
        MAX_ITERATIONS,
        MAX_WORKERS,
        MAX_TREES,
    )


@pytest.mark.parametrize(
    "spec", ["strong:ms=0", "strong:ms=nan", "strong:ms=inf", "expert:workers=0", "hard:iterations=x"]
)
def test_nonsense_budgets_are_refused(spec: str) -> None:
    with pytest.raises(OptionError, match=r"ms|workers|iterations"):
        make_agent(spec, cardtable.load("mephisto", players=2))


@pytest.mark.parametrize("spec", ["ismcts", "strong", "hard", "expert", "ismcts:iterations=10", "strong:ms=300"])
def test_every_search_agent_has_a_time_budget(spec: str) -> None:
    agent = make_agent(spec, cardtable.load("mephisto", players=2))
    assert isinstance(agent, Ismcts)
    assert 0 < agent.budget_ms() <= MAX_MS
    if "ms=" not in spec and spec not in ("hard", "expert"):
        assert agent.budget_ms() == DEFAULT_MS_CAP  # an iteration budget still has its safety stop


def test_levels_think_for_a_sensible_time() -> None:
    game = cardtable.load("mephisto", players=2)
    hard, expert = make_agent("hard", game), make_agent("expert", game)
    assert isinstance(hard, Ismcts) and isinstance(expert, Ismcts)
    assert hard.budget_ms() <= expert.budget_ms() <= 1000
    assert hard.iterations is not None and expert.iterations is not None and hard.iterations < expert.iterations


# -- the entry points ------------------------------------------------------------------------------------


def test_cardtable_play_refuses_a_budget_over_the_maximum(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["play", "mephisto", "--seats", f"random,expert:ms={MAX_MS * 2:g}", "--seed", "1"])
    err = capsys.readouterr().err
    assert code == 2
    assert "expert" in err and "maximum time budget" in err, err


def test_cardtable_simulate_refuses_a_budget_over_the_maximum(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "sim"
    code = main(
        [
            "simulate",
            "mephisto",
            "--seats",
            f"strong:iterations={MAX_ITERATIONS + 1},heuristic",
            "--games",
            "2",
            "--out",
            str(out),
            "--no-progress",
            "--no-plots",
        ]
    )
    err = capsys.readouterr().err
    assert code == 2
    assert "iterations" in err and f"{MAX_ITERATIONS:,}" in err, err
    assert not (out / "results.jsonl").exists()  # refused before anything was played


def test_the_web_lobby_refuses_a_budget_over_the_maximum(tmp_path: Path) -> None:
    warnings.filterwarnings("ignore", message=".*httpx2.*")
    from fastapi.testclient import TestClient

    from cardtable.web import create_app

    app = create_app(f"sqlite:///{tmp_path / 'tables.db'}", bot_workers=0, bot_delay=0)
    with TestClient(app) as client:
        for seat, word in ((f"hard:workers={MAX_WORKERS + 1}", "workers"), (f"ismcts:ms={MAX_MS * 10:g}", "ms")):
            r = client.post("/api/tables", json={"game": "mephisto", "options": {}, "seats": ["me", seat]})
            assert r.status_code == 400, r.text
            error = r.json()["error"]  # the agent's own maximum, or the server's lower --bot-budget
            assert word in error and ("maximum" in error or "server allows" in error), r.json()
        assert client.get("/api/tables").json()["tables"] == []
        # The levels are offered, with words.
        info = client.get("/api/games").json()
        assert {"easy", "normal", "hard", "expert", "strong"} <= set(info["agents"])


# -- stopping on time ------------------------------------------------------------------------------------


class FakeClock:
    """A clock that moves on by ``step`` seconds each time it is read: the search's own checks of the
    time decide when it stops, whatever the machine's load."""

    def __init__(self, step: float) -> None:
        self.now = 1000.0
        self.step = step
        self.reads = 0

    def __call__(self) -> float:
        self.now += self.step
        self.reads += 1
        return self.now


def _decision(game_id: str, seed: int = 2) -> State:
    state = cardtable.load(game_id, players=2).new(seed, log=False)
    for _ in range(200):
        if len(state.legal_actions()) > 1:
            break
        state.apply(state.legal_actions()[0])
    return state


@pytest.mark.parametrize("game_id", ["mephisto", "doctor-strange", "army-of-darkness", "mr-card-game"])
def test_a_search_stops_when_its_time_is_up(game_id: str) -> None:
    """With a clock that advances 1 ms per reading and ms=20, the search stops after about 20
    readings: it reads the clock every iteration and never runs past the deadline by more than one."""
    state = _decision(game_id)
    seat = state.current_player
    assert seat is not None
    clock = FakeClock(0.001)
    agent = Ismcts(1, ms=20, clock=clock)
    agent.choose(Observation(state, seat))
    assert 1 <= agent.last_iterations <= 20
    assert clock.now - 1000.0 <= 0.020 + 0.002


@pytest.mark.parametrize("spec", ["strong:ms=150", "expert:ms=150,iterations=1000000"])
def test_a_search_returns_close_to_its_time_budget_on_a_real_clock(spec: str) -> None:
    """A loose real-time check (the machine may be busy): ms=150 returns in well under a second."""
    state = _decision("mephisto")
    seat = state.current_player
    assert seat is not None
    agent = make_agent(spec, state.game, 3)
    start = time.perf_counter()
    agent.choose(Observation(state, seat))
    assert time.perf_counter() - start < 1.0


def test_iterations_with_a_time_budget_stop_at_whichever_comes_first() -> None:
    state = _decision("doctor-strange")
    seat = state.current_player
    assert seat is not None
    few = search_agent("strong:iterations=30,ms=60000", state.game, 1)
    few.choose(Observation(state, seat))
    assert few.last_iterations == 30
    clock = FakeClock(0.001)
    short = Ismcts(1, iterations=1_000_000, ms=10, clock=clock)
    short.choose(Observation(state, seat))
    assert short.last_iterations <= 10
