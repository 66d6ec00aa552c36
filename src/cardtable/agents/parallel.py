"""Helper processes for root-parallel search, that never outlive the process that started them.

A search with ``workers=W`` grows its trees on this process and W-1 *helpers*: plain Python processes
(``python -m cardtable.agents.worker``) started on first use and kept for the next decisions, in one
pool per process shared by every agent (at most :data:`~cardtable.agents.budget.MAX_WORKERS`).

What a helper is told: the agent's spec, a *sample* of the searching seat's information set (a
determinization, never the true state, which stays in this process), the seat, the seeds of its trees
and the time and iterations it may spend. It answers with its trees' root statistics. Messages are
pickles behind a 4-byte length, on the helper's stdin and stdout; the ``Game`` a state refers to
travels as its id, options and (for a game registered at run time) import path, and is loaded again
on the other side.

No helper is left behind:

* each helper holds the read end of a *lifeline* pipe whose only write end stays in this process; a
  watchdog thread in the helper blocks on it, and when this process ends in any way — ``exit``, an
  exception, ``kill -9`` — the kernel closes the write end, the read returns, and the helper exits
  at once, mid-search if need be;
* at a normal exit the pool closes its helpers (:func:`shutdown`, registered with :mod:`atexit`);
* a helper that does not answer in time is killed rather than waited for, so a late answer can never
  be mistaken for the next decision's;
* a process forked from this one (a simulation's worker pool) forgets the pool it inherited: its
  helpers belong to the parent.
"""

from __future__ import annotations

import atexit
import io
import os
import pickle
import select
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import IO, TYPE_CHECKING, Any

from cardtable.agents.budget import MAX_WORKERS

if TYPE_CHECKING:
    from cardtable.agents.base import Observation
    from cardtable.agents.ismcts import RootStats
    from cardtable.engine.game import Game

_HEADER = struct.Struct("!I")
GRACE_S = 0.05
"""How long past the deadline the parent waits for a helper's answer before giving up on it."""


# -- messages ---------------------------------------------------------------------------------------------


def game_ref(game: Game) -> tuple[str, tuple[tuple[str, Any], ...], str | None]:
    """How a game travels: its id, its options, and the import path of a game registered at run time."""
    cls = type(game)
    module = getattr(cls, "__module__", "")
    factory = None if module.startswith("cardtable.games.") else f"{module}:{cls.__qualname__}"
    return (game.id, tuple(sorted(game.options.items())), factory)


def load_game(ref: tuple[str, tuple[tuple[str, Any], ...], str | None]) -> Game:
    """The game ``ref`` (:func:`game_ref`) names, registering it first if it was registered at run time."""
    import importlib

    import cardtable

    game_id, options, factory = ref
    if factory is not None and game_id not in cardtable.available():
        module, _, qualname = factory.partition(":")
        obj: Any = importlib.import_module(module)
        for part in qualname.split("."):
            obj = getattr(obj, part)
        cardtable.register(game_id, obj)
    return cardtable.load(game_id, **dict(options))


class _Pickler(pickle.Pickler):
    def persistent_id(self, obj: Any) -> Any:
        from cardtable.engine.game import Game

        if isinstance(obj, Game):
            return ("game", game_ref(obj))
        return None


class _Unpickler(pickle.Unpickler):
    def persistent_load(self, pid: Any) -> Any:
        kind, ref = pid
        if kind != "game":
            raise pickle.UnpicklingError(f"unknown persistent object {kind!r}")
        return load_game(ref)


def dumps(obj: Any) -> bytes:
    """``obj`` pickled, games by reference."""
    buffer = io.BytesIO()
    _Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(obj)
    return buffer.getvalue()


def loads(data: bytes) -> Any:
    return _Unpickler(io.BytesIO(data)).load()


def write_message(stream: IO[bytes], payload: bytes) -> None:
    stream.write(_HEADER.pack(len(payload)) + payload)
    stream.flush()


def read_message(stream: IO[bytes]) -> bytes | None:
    """The next message, or None at the end of the stream."""
    head = stream.read(_HEADER.size)
    if len(head) < _HEADER.size:
        return None
    (size,) = _HEADER.unpack(head)
    data = stream.read(size)
    return data if len(data) == size else None


def _read_until(fd: int, deadline: float) -> bytes | None:
    """One message from ``fd``, or None if it is not all there by ``deadline`` (or the helper died)."""
    buffer = b""
    need = _HEADER.size
    header_done = False
    while True:
        while len(buffer) < need:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                return None
            chunk = os.read(fd, max(65536, need - len(buffer)))
            if not chunk:
                return None
            buffer += chunk
        if header_done:
            return buffer[_HEADER.size : need]
        (size,) = _HEADER.unpack(buffer[: _HEADER.size])
        need = _HEADER.size + size
        header_done = True


# -- helpers ---------------------------------------------------------------------------------------------


class Helper:
    """One helper process and its pipes."""

    def __init__(self) -> None:
        read_end, self._lifeline = os.pipe()  # both non-inheritable: only pass_fds crosses exec
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "cardtable.agents.worker", str(read_end)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                pass_fds=(read_end,),
                env=env,
            )
        finally:
            os.close(read_end)
        self.task = 0

    @property
    def pid(self) -> int:
        return self.process.pid

    def alive(self) -> bool:
        return self.process.poll() is None

    def send(self, message: tuple[Any, ...]) -> None:
        assert self.process.stdin is not None
        write_message(self.process.stdin, dumps(message))

    def receive(self, deadline: float) -> Any:
        """The helper's next answer, or None if it has none by ``deadline`` (time.monotonic)."""
        assert self.process.stdout is not None
        data = _read_until(self.process.stdout.fileno(), deadline)
        return None if data is None else loads(data)

    def close(self, kill: bool = False) -> None:
        """Stop the helper (at once with ``kill``) and wait for it."""
        if self._lifeline >= 0:
            with suppress(OSError):
                os.close(self._lifeline)
            self._lifeline = -1
        if kill:
            self.process.kill()
        for stream in (self.process.stdin, self.process.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        try:
            self.process.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


_LOCK = threading.Lock()
_IDLE: list[Helper] = []
_BUSY: set[Helper] = set()
_OWNER = os.getpid()


def helper_pids() -> list[int]:
    """The process ids of this process's helpers (idle and busy), for tests and monitoring."""
    with _LOCK:
        return [h.pid for h in [*_IDLE, *_BUSY]]


def shutdown() -> None:
    """Stop every idle helper of this process (busy ones stop when their search returns them)."""
    with _LOCK:
        idle = list(_IDLE)
        _IDLE.clear()
    for helper in idle:
        helper.close()


_ORPHANS: list[Helper] = []
"""In a forked child, the parent's helpers: kept referenced (never used, never closed) so that no
garbage collection closes pipe numbers the child may reuse."""


def _forget_after_fork() -> None:
    """In a forked child: the helpers are the parent's. Close the child's copy of each lifeline (so
    the parent's alone keeps them alive, and they end with it) and never use them."""
    global _LOCK, _OWNER
    _LOCK = threading.Lock()
    for helper in [*_IDLE, *_BUSY]:
        if helper._lifeline >= 0:
            with suppress(OSError):
                os.close(helper._lifeline)
            helper._lifeline = -1
        _ORPHANS.append(helper)
    _IDLE.clear()
    _BUSY.clear()
    _OWNER = os.getpid()


atexit.register(shutdown)
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_after_fork)


class Jobs:
    """The searches a crew is running for one decision."""

    def __init__(self, crew: list[Helper], task: int) -> None:
        self.crew = crew
        self.task = task
        self.failed: list[Helper] = []
        self.answered: set[Helper] = set()

    def results(self, deadline: float) -> Iterator[tuple[RootStats, int]]:
        """Each helper's root statistics and iterations, as it answers; a helper that has not answered
        ``GRACE_S`` after ``deadline`` (``time.perf_counter`` time) is given up and killed."""
        until = time.monotonic() + max(0.0, deadline - time.perf_counter()) + GRACE_S
        for helper in self.crew:
            answer = helper.receive(until)
            if not isinstance(answer, tuple) or len(answer) != 3 or answer[0] != self.task or answer[1] == "error":
                self.failed.append(helper)
                continue
            self.answered.add(helper)
            _, stats, done = answer
            yield stats, done


class Crew:
    """Helpers checked out of the pool for one decision."""

    def __init__(self, members: list[Helper]) -> None:
        self.members = members
        self.jobs: Jobs | None = None

    def __len__(self) -> int:
        return len(self.members)

    def start(
        self,
        spec: str,
        obs: Observation,
        shares: Sequence[Sequence[int]],
        iterations: int,
        deadline: float,
        clock: Any = time.perf_counter,
    ) -> Jobs:
        """Send each helper its trees (``shares[i]``: the seeds of helper ``i``'s trees)."""
        global _TASK
        _TASK += 1
        task = _TASK
        from cardtable.engine.rng import Rng

        sample = obs.sample(Rng(shares[0][0] ^ 0x5A5A) if shares and shares[0] else Rng(task))
        sample._legal = None
        state = dumps(sample)
        # The deadline travels on the system-wide monotonic clock, so a helper still starting up
        # (importing) when it is sent finishes on time, with what time is left.
        until = time.monotonic() + max(0.0, deadline - clock())
        crew: list[Helper] = []
        for helper, seeds in zip(self.members, shares, strict=False):
            try:
                helper.send(("grow", task, spec, state, obs.seat, list(seeds), iterations, until))
                crew.append(helper)
            except OSError:
                self.jobs_failed(helper)
        self.jobs = Jobs(crew, task)
        return self.jobs

    def jobs_failed(self, helper: Helper) -> None:
        if self.jobs is None:
            self.jobs = Jobs([], 0)
        self.jobs.failed.append(helper)


_TASK = 0

MAX_FAILURES = 4
"""After this many helpers in a row failed to answer (and none ever did), this process stops starting
new ones: its searches run on this process alone (a helper that cannot even start, say)."""
_FAILED = 0


def _count_failures(failed: int, answered: int) -> None:
    global _FAILED
    if answered:
        _FAILED = -(1 << 30)  # helpers work here: never give up on them
    else:
        _FAILED += failed


@contextmanager
def helpers(count: int) -> Iterator[Crew]:
    """Check out up to ``count`` helpers (started as needed, at most MAX_WORKERS - 1 in all) for one
    decision, and return them to the pool afterwards; a helper that failed or ran late is stopped."""
    members: list[Helper] = []
    if os.getpid() != _OWNER:
        _forget_after_fork()
    with _LOCK:
        while _IDLE and len(members) < count:
            helper = _IDLE.pop()
            if helper.alive():
                members.append(helper)
            else:
                helper.close(kill=True)
        room = MAX_WORKERS - 1 - len(_BUSY) - len(_IDLE) - len(members)
        _BUSY.update(members)
    started: list[Helper] = []
    try:
        for _ in range(min(count - len(members), max(0, room)) if _FAILED < MAX_FAILURES else 0):
            started.append(Helper())
    except (OSError, ValueError):
        pass  # no more processes (or none on this platform): search with what there is
    with _LOCK:
        _BUSY.update(started)
    members += started
    crew = Crew(members)
    try:
        yield crew
    finally:
        # A helper that did not answer this decision (failed, late, or never asked because the
        # decision was interrupted) may still be searching: it is stopped, never reused.
        failed = {h for h in members if h not in crew.jobs.answered} if crew.jobs is not None else set()
        _count_failures(len(failed), len(members) - len(failed))
        for helper in failed:
            helper.close(kill=True)
        with _LOCK:
            for helper in members:
                _BUSY.discard(helper)
                if helper not in failed and helper.alive():
                    _IDLE.append(helper)
