"""The local backend's worker processes: stopped at any moment they stop, a worker that dies or fails
is an error here (never a wait), and none outlives its run, ``kill -9`` included."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from cardtable.engine.errors import CardtableError
from cardtable.sim.plan import Plan, make_plan
from cardtable.sim.play import BatchResult, play_batch
from cardtable.sim.run import make_batches, run_plan
from cardtable.sim.workers import WorkerDied, WorkerProcesses, WorkerTraceback

ROOT = Path(__file__).resolve().parents[2]
PLAY_BATCH = "cardtable.sim.workers.play_batch"  # what a worker calls; forked workers inherit a patch
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc and forks")


def _plan(games: int = 12, seats: str = "ismcts:iterations=10,random") -> Plan:
    return make_plan("toy", games=games, seed=3, seats=seats)


def _running(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie waiting to be reaped is not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return False
    return state not in ("Z", "X")


def _gone_within(pids: Sequence[int], seconds: float) -> bool:
    """Poll until every pid has ended; a deadline only so a failure cannot hang the suite."""
    deadline = time.monotonic() + seconds
    while any(_running(p) for p in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@linux_only
def test_a_worker_that_dies_mid_batch_is_an_error_and_the_run_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def dies_at_game_5(plan: Plan, batch: Sequence[tuple[int, int]]) -> BatchResult:
        if (0, 5) in batch:
            os._exit(3)  # as the kernel's out-of-memory killer would end it: no answer, no cleanup
        return play_batch(plan, batch)

    monkeypatch.setattr(PLAY_BATCH, dies_at_game_5)
    with pytest.raises(WorkerDied, match=r"worker \(pid \d+\) died mid-batch, exit code 3"):
        run_plan(_plan(), tmp_path, workers=2, progress=False, batch_size=1)
    monkeypatch.undo()
    summary = run_plan(_plan(), tmp_path, workers=2, progress=False, batch_size=1)
    assert summary.complete and summary.played >= 1 and summary.already_done + summary.played == 12


@linux_only
def test_an_error_in_a_batch_is_raised_here_with_the_workers_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def fails_at_game_4(plan: Plan, batch: Sequence[tuple[int, int]]) -> BatchResult:
        if (0, 4) in batch:
            raise ValueError("game 4 went wrong")
        return play_batch(plan, batch)

    monkeypatch.setattr(PLAY_BATCH, fails_at_game_4)
    with pytest.raises(ValueError, match="game 4 went wrong") as info:
        run_plan(_plan(), tmp_path, workers=2, progress=False, batch_size=1)
    cause = info.value.__cause__
    assert isinstance(cause, WorkerTraceback) and "fails_at_game_4" in cause.text


@linux_only
def test_an_error_that_does_not_pickle_still_arrives_by_its_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Unpicklable(Exception):
        def __init__(self) -> None:
            super().__init__("a lambda inside")
            self.hook = lambda: None

    def fails(plan: Plan, batch: Sequence[tuple[int, int]]) -> BatchResult:
        raise Unpicklable

    monkeypatch.setattr(PLAY_BATCH, fails)
    with pytest.raises(CardtableError, match=r"Unpicklable: a lambda inside \(raised in a worker; it does not pickle"):
        run_plan(_plan(), tmp_path, workers=2, progress=False, batch_size=1)


@linux_only
def test_closing_mid_batch_stops_every_worker_and_returns() -> None:
    plan = _plan(games=4, seats="ismcts:iterations=100000,ismcts:iterations=100000")  # batches of minutes
    pool = WorkerProcesses(multiprocessing.get_context("fork"), plan, make_batches(plan, set(), 2, size=1), 2)
    pids = pool.pids()
    assert len(pids) == 2 and all(_running(p) for p in pids)
    pool.close()  # both are mid-batch, maybe mid-send: nothing they hold can keep close() waiting
    assert not any(_running(p) for p in pids)
    assert list(pool) == []  # a closed pool yields nothing more
    pool.close()  # and closing again is harmless


@linux_only
def test_no_worker_outlives_a_main_process_killed_with_sigkill(tmp_path: Path) -> None:
    script = textwrap.dedent(
        f"""
        import multiprocessing, sys, time
        sys.path.insert(0, {str(ROOT)!r})
        import cardtable
        from tests.engine.toy import Toy
        cardtable.register("toy", Toy)
        from cardtable.sim.plan import make_plan
        from cardtable.sim.run import make_batches
        from cardtable.sim.workers import WorkerProcesses
        plan = make_plan("toy", games=4, seed=3, seats="ismcts:iterations=100000,random")
        pool = WorkerProcesses(multiprocessing.get_context("fork"), plan, make_batches(plan, set(), 2, size=1), 2)
        print(*pool.pids(), flush=True)
        time.sleep(600)
        """
    )
    main = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert main.stdout is not None
        pids = [int(p) for p in main.stdout.readline().split()]
        assert len(pids) == 2 and all(_running(p) for p in pids)
    finally:
        main.send_signal(signal.SIGKILL)
        main.wait()
    assert _gone_within(pids, 30), "a worker outlived its killed main process"


@linux_only
def test_runs_interrupted_at_random_moments_always_stop(tmp_path: Path) -> None:
    """Regression for a hang in ``multiprocessing.Pool.terminate`` (a worker killed holding the shared
    result queue's lock): many runs on several workers, each interrupted after a random number of
    games, in a child process so that a hang fails this test instead of stalling the suite."""
    script = textwrap.dedent(
        f"""
        import random, sys, tempfile
        from pathlib import Path
        sys.path.insert(0, {str(ROOT)!r})
        import cardtable
        from tests.engine.toy import Toy
        cardtable.register("toy", Toy)
        from cardtable.sim.plan import make_plan
        from cardtable.sim.run import run_plan

        class Interrupt(Exception):
            pass

        rng = random.Random(7)
        plan = make_plan("toy", games=30, seed=11, seats="ismcts:iterations=10,random", records=True)
        for _ in range(60):
            at = rng.randint(1, 28)

            def stop(written, at=at):
                if written >= at:
                    raise Interrupt

            with tempfile.TemporaryDirectory() as folder:
                try:
                    run_plan(plan, Path(folder) / "run", workers=rng.choice([2, 3, 4]), progress=False,
                             batch_size=rng.choice([1, 2, 4]), on_batch=stop)
                except Interrupt:
                    pass
        print("stopped every time")
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "stopped every time"
