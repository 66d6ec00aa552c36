"""The bot worker processes: a bounded, fair pool whose every job is held to a deadline.

:class:`WorkerPool` keeps ``size`` processes running :mod:`cardtable.web.botworker` (plain
subprocesses: no :mod:`multiprocessing`, so no resource-tracker process to outlive the server). It
is the server-wide bot CPU share: at most ``size`` decisions think at once, each in a process of
lower priority (``nice``) than the server, each on at most one core.

- **Deadlines.** :meth:`WorkerPool.run` gives a job ``deadline`` seconds. A worker still thinking
  then is ended (``SIGKILL``) and replaced by a fresh one; the job raises :class:`BotTimeout`. A
  runaway search is stopped, never left burning a core.
- **Fairness.** When every worker is busy, jobs wait in one queue per *owner* (the client that made
  the table) and a freed worker goes to the owner served longest ago, so one client's many bot
  tables cannot starve another's.
- **Affinity.** A worker keeps the states of the tables it served (it then applies only the new
  actions), so a table's job goes to the idle worker that served it last when there is one.
- **Lifecycle.** Workers die with the server, ``kill -9`` included (see :mod:`.botworker`);
  :meth:`WorkerPool.close` ends them at once.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import itertools
import json
import logging
import os
import subprocess
import sys
import time
from collections import deque
from typing import Any

log = logging.getLogger("cardtable.web")


STARTUP = 60.0
"""Seconds a fresh worker may take to load the games before it is taken for dead."""


class BotTimeout(TimeoutError):
    """A bot decision ran past its deadline; its worker was ended and replaced."""


class BotFailed(RuntimeError):
    """The agent raised, or its worker died: the message says which and why."""


class Worker:
    """One worker process and the pipes to it."""

    def __init__(self, nice: int) -> None:
        read_end, self.watchdog = os.pipe()  # the server holds the write end for the worker's life
        env = dict(os.environ)
        env["PYTHONUNBUFFERED"] = "1"
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "cardtable.web.botworker", str(os.getpid()), str(read_end), str(nice)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=None,
                pass_fds=(read_end,),
                env=env,
                start_new_session=True,  # a Ctrl+C at the terminal reaches the server, which ends it
            )
        finally:
            os.close(read_end)
        self.ready = False
        self.last_key: int | None = None
        self.busy = False

    @property
    def pid(self) -> int:
        return self.proc.pid

    def wait_ready(self) -> bool:
        """Block until the worker has loaded the games (its first line); False if it died first."""
        if not self.ready:
            try:
                self.ready = bool(self.proc.stdout is not None and self.proc.stdout.readline())
            except (OSError, ValueError):
                return False
        return self.ready

    def call(self, job: bytes) -> bytes:
        """Send one job line and read the answer line (blocking: runs in the pool's I/O threads).
        Returns b"" when the worker died (or was ended for its deadline)."""
        stdin, stdout = self.proc.stdin, self.proc.stdout
        assert stdin is not None and stdout is not None
        try:
            stdin.write(job)
            stdin.flush()
            return stdout.readline()
        except (OSError, ValueError):  # the pipes closed under us: the worker was ended
            return b""

    def kill(self) -> None:
        with contextlib.suppress(OSError):
            self.proc.kill()
        with contextlib.suppress(OSError):
            os.close(self.watchdog)
        for stream in (self.proc.stdin, self.proc.stdout):
            with contextlib.suppress(OSError, ValueError):
                if stream is not None:
                    stream.close()
        with contextlib.suppress(subprocess.TimeoutExpired, OSError):
            self.proc.wait(2)


class WorkerPool:
    """``size`` worker processes, shared fairly by owners, each job within its deadline."""

    def __init__(self, size: int, nice: int = 10) -> None:
        if size < 1:
            raise ValueError("a worker pool needs at least one worker")
        self.size = size
        self.nice = nice
        self.workers: list[Worker] = []
        self._idle: list[Worker] = []
        self._waiting: dict[str, deque[tuple[asyncio.Future[Worker], int]]] = {}
        self._served: dict[str, float] = {}
        self._ids = itertools.count()
        self._io = concurrent.futures.ThreadPoolExecutor(max_workers=size + 1, thread_name_prefix="cardtable-bot-io")
        self.replaced = 0
        """Workers ended for a deadline (or found dead) and replaced since the start."""
        self.closed = False

    def start(self) -> None:
        """Start the workers (call from the server's main thread: on Linux a worker's parent-death
        signal follows the thread that started it)."""
        while len(self.workers) < self.size:
            worker = Worker(self.nice)
            self.workers.append(worker)
            self._idle.append(worker)

    def pids(self) -> list[int]:
        return [w.pid for w in self.workers]

    # -- fair acquisition -------------------------------------------------------------------------------
    async def _acquire(self, owner: str, key: int) -> Worker:
        if self.closed:
            raise BotFailed("the server is stopping")
        if self._idle and not any(self._waiting.values()):
            return self._take(owner, key)
        future: asyncio.Future[Worker] = asyncio.get_running_loop().create_future()
        entry = (future, key)
        self._waiting.setdefault(owner, deque()).append(entry)
        try:
            return await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self._release(future.result())  # handed a worker just as the caller gave up
            else:
                queue = self._waiting.get(owner)
                if queue is not None and entry in queue:
                    queue.remove(entry)
            raise

    def _take(self, owner: str, key: int) -> Worker:
        worker = next((w for w in self._idle if w.last_key == key), self._idle[0])
        self._idle.remove(worker)
        worker.busy = True
        worker.last_key = key
        self._served[owner] = time.monotonic()
        return worker

    def _release(self, worker: Worker) -> None:
        worker.busy = False
        if self.closed or worker not in self.workers:
            return
        self._idle.append(worker)
        self._hand_over()

    def _hand_over(self) -> None:
        while self._idle:
            owners = [o for o, q in self._waiting.items() if q]
            if not owners:
                return
            owner = min(owners, key=lambda o: self._served.get(o, 0.0))
            future, key = self._waiting[owner].popleft()
            if not self._waiting[owner]:
                del self._waiting[owner]
            if future.done():
                continue
            future.set_result(self._take(owner, key))

    def _replace(self, worker: Worker) -> None:
        worker.kill()
        if worker in self.workers:
            self.workers.remove(worker)
        if worker in self._idle:
            self._idle.remove(worker)
        self.replaced += 1
        if not self.closed:
            fresh = Worker(self.nice)
            self.workers.append(fresh)
            self._idle.append(fresh)
            self._hand_over()

    # -- jobs -----------------------------------------------------------------------------------------------
    async def run(self, job: dict[str, Any], deadline: float, owner: str = "", key: int = 0) -> str:
        """The action text the job's agent chose. Raises :class:`BotTimeout` (the worker was ended and
        replaced) or :class:`BotFailed`."""
        worker = await self._acquire(owner, key)
        job = {**job, "id": next(self._ids), "key": key}
        data = json.dumps(job, separators=(",", ":")).encode() + b"\n"
        loop = asyncio.get_running_loop()
        if not worker.ready:
            # A fresh worker first loads the games (a second or two): that is not thinking time.
            try:
                ready = await asyncio.wait_for(loop.run_in_executor(self._io, worker.wait_ready), timeout=STARTUP)
            except (TimeoutError, asyncio.CancelledError):
                self._replace(worker)
                raise
            if not ready:
                self._replace(worker)
                raise BotFailed("the bot's worker process did not start")
        call = loop.run_in_executor(self._io, worker.call, data)
        started = time.monotonic()
        try:
            line = await asyncio.wait_for(asyncio.shield(call), timeout=deadline)
        except TimeoutError:
            log.warning(
                "a bot (%s) thought past its %.3g s deadline: its worker (pid %d) was ended and replaced",
                job.get("spec"),
                deadline,
                worker.pid,
            )
            self._replace(worker)
            with contextlib.suppress(Exception):
                await call
            raise BotTimeout(f"no decision in {time.monotonic() - started:.3g} s") from None
        except asyncio.CancelledError:
            # The caller gave up (the server stops, or the table moved on): the worker may be mid-search.
            self._replace(worker)
            raise
        if not line:
            self._replace(worker)
            raise BotFailed("the bot's worker process died")
        self._release(worker)
        answer = json.loads(line)
        if "ok" in answer:
            return str(answer["ok"])
        raise BotFailed(str(answer.get("error", "the agent failed")))

    def stopping(self) -> None:
        """The server begins to stop: a worker ended from now on (a decision given up on) is not
        replaced."""
        self.closed = True

    def close(self) -> None:
        """End every worker now (the server is stopping)."""
        self.closed = True
        for queue in self._waiting.values():
            for future, _ in queue:
                if not future.done():
                    future.cancel()
        self._waiting.clear()
        for worker in list(self.workers):
            worker.kill()
        self.workers.clear()
        self._idle.clear()
        self._io.shutdown(wait=False, cancel_futures=True)
