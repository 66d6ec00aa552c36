"""Root-parallel search: it uses the helper processes it is given, chooses as one process would (with
an iteration budget), and leaves no helper behind, even when the caller is killed with SIGKILL."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import cardtable
from cardtable.agents import Ismcts, Observation, make_agent
from cardtable.agents.parallel import dumps, helper_pids, loads, shutdown
from cardtable.engine import Rng, State
from tests.agents.games import search_agent

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX process handling")


def _decision(game_id: str, seed: int = 3) -> State:
    state = cardtable.load(game_id, players=2).new(seed, log=False)
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    return state


def _running(pid: int) -> bool:
    """True while ``pid`` is a live process (a zombie, dead but not yet reaped, counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True


def _gone(pids: list[int], seconds: float = 10.0) -> bool:
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        if not any(_running(p) for p in pids):
            return True
        time.sleep(0.05)
    return False


@pytest.mark.parametrize("game_id", ["mephisto", "doctor-strange", "army-of-darkness", "mr-card-game"])
def test_a_sample_travels_to_a_helper_and_back_unchanged(game_id: str) -> None:
    state = _decision(game_id)
    seat = state.current_player
    assert seat is not None
    sample = state.determinize(seat, Rng(5))
    sample._legal = None
    copy = loads(dumps(sample))
    assert copy.game is sample.game
    assert copy.snapshot() == sample.snapshot()
    assert copy.view(seat) == state.view(seat)


@pytest.mark.parametrize("game_id", ["mephisto", "doctor-strange"])
def test_workers_choose_exactly_as_one_process_does_with_an_iteration_budget(game_id: str) -> None:
    """The trees and their seeds do not depend on the workers, so neither does the choice."""
    state = _decision(game_id)
    seat = state.current_player
    assert seat is not None
    try:
        one = make_agent("strong:iterations=240,trees=3", state.game, 9)
        three = make_agent("strong:iterations=240,trees=3,workers=3", state.game, 9)
        assert isinstance(one, Ismcts) and isinstance(three, Ismcts)
        a = one.choose(Observation(state, seat))
        b = three.choose(Observation(state, seat))
        assert a == b
        assert one.last_iterations == three.last_iterations == 240
        assert {k: v[0] for k, v in one.last_stats.items()} == {k: v[0] for k, v in three.last_stats.items()}
        # Two helpers did two of the three trees.
        pids = helper_pids()
        assert len(pids) == 2 and all(_running(p) for p in pids)
    finally:
        shutdown()
    assert _gone(pids)
    assert helper_pids() == []


def test_helpers_are_reused_across_decisions_and_agents() -> None:
    state = _decision("mephisto")
    seat = state.current_player
    assert seat is not None
    try:
        make_agent("strong:iterations=60,workers=2", state.game, 1).choose(Observation(state, seat))
        first = helper_pids()
        make_agent("expert:iterations=60,workers=2", state.game, 2).choose(Observation(state, seat))
        assert helper_pids() == first and len(first) == 1
    finally:
        shutdown()
    assert _gone(first)


def test_a_time_budget_with_workers_is_kept() -> None:
    state = _decision("doctor-strange")
    seat = state.current_player
    assert seat is not None
    agent = search_agent("strong:ms=200,workers=2", state.game, 4)
    try:
        agent.choose(Observation(state, seat))  # the first decision starts the helper
        start = time.perf_counter()
        agent.choose(Observation(state, seat))
        assert time.perf_counter() - start < 1.5  # loose: the machine may be busy
        assert agent.last_iterations > 0
    finally:
        shutdown()


CALLER = textwrap.dedent(
    """
    import sys, time
    import cardtable
    from cardtable.agents import Observation, make_agent
    from cardtable.agents.parallel import helper_pids

    state = cardtable.load("mephisto", players=2).new(3, log=False)
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    # Time enough for the helpers to start on a loaded machine (one that misses the deadline is
    # killed, and then there would be no helper to watch).
    agent = make_agent("strong:ms=4000,workers=3", state.game, 1)
    agent.choose(Observation(state, state.current_player))
    print(" ".join(map(str, helper_pids())), flush=True)
    mode = sys.argv[1]
    assert all(__import__("os").path.exists(f"/proc/{p}") for p in helper_pids())
    if mode == "exit":
        sys.exit(0)
    if mode == "searching":
        print("searching", flush=True)
        agent = make_agent("strong:ms=60000,workers=3", state.game, 2)
        agent.choose(Observation(state, state.current_player))
    time.sleep(600)
    """
)


@pytest.mark.parametrize("mode", ["idle", "searching", "exit"])
def test_no_helper_outlives_its_caller_even_killed_with_sigkill(mode: str, tmp_path: Path) -> None:
    script = tmp_path / "caller.py"
    script.write_text(CALLER)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    caller = subprocess.Popen(
        [sys.executable, str(script), mode], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    try:
        assert caller.stdout is not None
        line = caller.stdout.readline()
        pids = [int(p) for p in line.split()]
        assert len(pids) == 2, (line, caller.stderr.read() if caller.stderr else "")
        if mode == "searching":
            assert caller.stdout.readline().strip() == "searching"
            time.sleep(0.5)  # the helpers are mid-search now
            assert all(_running(p) for p in pids)
        if mode != "exit":
            os.kill(caller.pid, signal.SIGKILL)
        caller.wait(timeout=30)
        assert _gone(pids), f"helpers {pids} outlived their caller ({mode})"
    finally:
        if caller.poll() is None:
            caller.kill()
            caller.wait()
