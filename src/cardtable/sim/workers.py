"""The local backend's worker processes: a pipe each, so that stopping them can never hang.

:class:`WorkerProcesses` starts ``n`` processes, hands each a batch at a time through its own pipe
and yields the results as they finish. Not :class:`multiprocessing.pool.Pool`, for two faults found
in it by stressing interrupted runs:

* its workers share one result queue guarded by one lock, and ``Pool.terminate()`` may kill a worker
  while it holds that lock mid-send; the pool's own shutdown then puts a sentinel on that queue and
  waits for the lock forever (an interrupted ``cardtable simulate --workers N`` hung this way, about
  once in a few hundred interruptions);
* a worker that dies (killed, out of memory) is replaced, but its batch is lost and the results
  iterator waits for it forever.

Here nothing is shared between workers, so :meth:`WorkerProcesses.close` kills them at any moment and
returns, and a worker that dies is reported at once as a :class:`WorkerDied` error.

A worker never outlives the run: it exits when its pipe reads end-of-file (every copy of the main
process's end is closed, in the main process and in the workers forked after it), and on Linux the
kernel kills it the moment the main process dies (``PR_SET_PDEATHSIG``), mid-batch if need be.
"""

from __future__ import annotations

import os
import signal
import sys
import traceback
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from multiprocessing.connection import Connection, wait
from multiprocessing.context import BaseContext
from typing import Any, NoReturn

from cardtable.engine.errors import CardtableError
from cardtable.lifetime import die_with_parent
from cardtable.sim.plan import Plan
from cardtable.sim.play import Batch, BatchResult, play_batch

JOIN_SECONDS = 5.0
"""How long :meth:`WorkerProcesses.close` waits for a killed worker to be reaped."""


class WorkerDied(CardtableError):
    """A simulation worker process ended without answering (killed, out of memory, a crash)."""


class WorkerTraceback(Exception):
    """The traceback, as text, of an error raised in a worker (the ``__cause__`` of the error)."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text

    def __str__(self) -> str:
        return "\n" + self.text


def worker_main(
    conn: Connection, parent: int, path: list[str], plan_json: Mapping[str, Any], inherited: Sequence[Connection]
) -> None:
    """A worker process: play each batch received on ``conn`` and answer ``(result, None, "")`` or
    ``(None, error, traceback text)``; end at ``None`` or end of file.

    ``inherited`` are the main process's ends of the earlier workers' pipes, copied into this one by
    ``fork``: closed here, so that the main process's death reads as end of file in every worker.
    Workers ignore Ctrl-C: the main process handles it (keeping every finished batch) and stops them.
    """
    die_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for other in inherited:
        other.close()
    for entry in reversed(path):
        if entry not in sys.path:
            sys.path.insert(0, entry)
    plan = Plan.from_json(plan_json)
    while True:
        try:
            batch = conn.recv()
        except (EOFError, OSError):
            return
        if batch is None:
            return
        try:
            reply: tuple[BatchResult | None, BaseException | None, str] = (play_batch(plan, batch), None, "")
        except Exception as exc:
            reply = (None, exc, traceback.format_exc())
        try:
            conn.send(reply)
        except (BrokenPipeError, EOFError):
            return
        except Exception as exc:  # the error does not pickle: send its text instead
            shown = f"{type(reply[1]).__name__}: {reply[1]}"
            error = CardtableError(f"{shown} (raised in a worker; it does not pickle: {exc})")
            conn.send((None, error, reply[2]))


class WorkerProcesses:
    """``batches`` played on ``workers`` processes of ``ctx``; iterate for the results as they finish.

    Always call :meth:`close` (after the last result too): it stops the workers at once, mid-batch if
    need be, and returns within about :data:`JOIN_SECONDS` whatever state they are in. An error raised
    by a batch is raised again here, with the worker's traceback as its cause.
    """

    def __init__(self, ctx: BaseContext, plan: Plan, batches: Sequence[Batch], workers: int) -> None:
        self._todo: deque[Batch] = deque(batches)
        self._procs: dict[Connection, Any] = {}
        self._busy: set[Connection] = set()
        self._closed = False
        fork = ctx.get_start_method() == "fork"
        plan_json = plan.to_json()
        try:
            for _ in range(workers):
                ours, theirs = ctx.Pipe()
                inherited = [*self._procs, ours] if fork else []
                proc = ctx.Process(  # type: ignore[attr-defined]
                    target=worker_main,
                    args=(theirs, os.getpid(), list(sys.path), plan_json, inherited),
                    name="cardtable-sim-worker",
                    daemon=True,
                )
                proc.start()
                theirs.close()
                self._procs[ours] = proc
            for conn in self._procs:
                self._hand_out(conn)
        except BaseException:
            self.close()
            raise

    def pids(self) -> list[int]:
        return [proc.pid for proc in self._procs.values()]

    def _hand_out(self, conn: Connection) -> None:
        if self._todo:
            self._busy.add(conn)
            try:
                conn.send(self._todo.popleft())
            except OSError:  # its pipe is broken: the worker is gone
                self._died(conn)

    def __iter__(self) -> Iterator[BatchResult]:
        return self

    def __next__(self) -> BatchResult:
        if self._closed or not self._busy:
            raise StopIteration
        sentinels = {self._procs[conn].sentinel: conn for conn in self._busy}
        ready = wait([*self._busy, *sentinels])
        # A worker's answer wins over its exit, should both be ready: the answer was sent first.
        answered = [c for c in ready if isinstance(c, Connection)]
        if not answered:
            self._died(sentinels[ready[0]])
        conn = answered[0]
        try:
            answer: tuple[BatchResult | None, BaseException | None, str] = conn.recv()
        except EOFError:
            self._died(conn)
        self._busy.discard(conn)
        result, error, text = answer
        if error is not None:
            raise error from WorkerTraceback(text)
        assert result is not None
        self._hand_out(conn)
        return result

    def _died(self, conn: Connection) -> NoReturn:
        proc = self._procs[conn]
        proc.join(JOIN_SECONDS)
        raise WorkerDied(f"a simulation worker (pid {proc.pid}) died mid-batch, exit code {proc.exitcode}")

    def close(self) -> None:
        """Stop every worker now (idempotent)."""
        if self._closed:
            return
        self._closed = True
        for proc in self._procs.values():
            if proc.is_alive():
                proc.kill()
        for conn, proc in self._procs.items():
            proc.join(JOIN_SECONDS)
            conn.close()
