"""Running a plan into a folder, on the local process pool or a Ray cluster, resumably.

The main process owns the folder: workers only play batches of games and return their lines, which
are appended (and flushed to disk) as each batch finishes. A game is finished exactly when its line is
in ``results.jsonl``; so after an interruption the same command plays only the missing games.
Its records line, if any, is written before its results line; a record whose results line never made
it is dropped on resume.
"""

from __future__ import annotations

import json
import math
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from cardtable.engine.errors import CardtableError
from cardtable.sim.plan import Plan, manifest_differences
from cardtable.sim.play import GameOutcome, run_batch, worker_init
from cardtable.sim.progress import ProgressBar
from cardtable.sim.store import (
    MANIFEST,
    RECORDS,
    RESULTS,
    ResultsError,
    filter_records,
    read_manifest,
    read_results,
    repair_tail,
    write_manifest,
)

Batch = tuple[int, list[int]]


class ResumeRefused(CardtableError):
    """The output folder holds a different run (its parameters differ from this run's)."""


@dataclass
class RunSummary:
    """What a call to :func:`run_plan` did."""

    total: int
    already_done: int
    played: int
    repaired: bool

    @property
    def complete(self) -> bool:
        return self.already_done + self.played == self.total


def default_workers() -> int:
    return os.cpu_count() or 1


def make_batches(plan: Plan, done: set[tuple[int, int]], workers: int, size: int | None = None) -> list[Batch]:
    """The missing games, cut into batches: about 8 per worker (so the pool stays busy to the end)
    but at most 250 games each, and never fewer than one game."""
    pending = [(s, i) for s in range(len(plan.settings)) for i in range(plan.games) if (s, i) not in done]
    if size is None:
        size = max(1, min(250, math.ceil(len(pending) / (max(1, workers) * 8))))
    batches: list[Batch] = []
    for s in range(len(plan.settings)):
        mine = [i for (t, i) in pending if t == s]
        for k in range(0, len(mine), size):
            batches.append((s, mine[k : k + size]))
    return batches


def _local(plan_json: dict[str, Any], batches: Sequence[Batch], workers: int) -> Iterator[list[GameOutcome]]:
    """The batches' outcomes as they finish: in this process for one worker, else on a process pool.

    The pool is started here, before the caller starts its progress bar (whose drawing thread should
    not be running while worker processes fork). Closing the returned iterator stops the workers.
    """
    if workers <= 1:
        return (run_batch(plan_json, setting, indices) for setting, indices in batches)
    import multiprocessing

    # fork shares the parent's imports and registered games and starts in milliseconds.
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    ctx = multiprocessing.get_context(method)
    pool = ctx.Pool(min(workers, max(1, len(batches))), initializer=worker_init, initargs=(sys.path,))
    return _PoolStream(pool, pool.imap_unordered(_run_task, [(plan_json, s, idx) for s, idx in batches], chunksize=1))


class _PoolStream:
    """A process pool's results; ``close()`` (always called) stops the workers now, mid-batch if need be."""

    def __init__(self, pool: Any, results: Iterator[list[GameOutcome]]) -> None:
        self._pool = pool
        self._results = results

    def __iter__(self) -> Iterator[list[GameOutcome]]:
        return self

    def __next__(self) -> list[GameOutcome]:
        return next(self._results)

    def close(self) -> None:
        # On an interruption or an error: stop the workers now rather than after their batches.
        self._pool.terminate()
        self._pool.join()


def _run_task(task: tuple[dict[str, Any], int, list[int]]) -> list[GameOutcome]:
    return run_batch(*task)


def _ray(
    plan_json: dict[str, Any], batches: Sequence[Batch], workers: int, address: str | None
) -> Iterator[list[GameOutcome]]:
    try:
        import ray
    except ImportError:
        raise CardtableError("the ray backend needs ray: pip install 'cardtable[ray]'") from None
    if not ray.is_initialized():
        if address is None:
            # A local cluster: its workers get this process's import path (run-time registered games).
            ray.init(
                num_cpus=workers,
                include_dashboard=False,
                log_to_driver=False,
                runtime_env={"env_vars": {"PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}},
            )
        else:
            ray.init(address=address, log_to_driver=False)
    remote: Any = ray.remote(run_batch)
    plan_ref = ray.put(plan_json)
    refs = [remote.remote(plan_ref, s, idx) for s, idx in batches]
    try:
        while refs:
            ready, refs = ray.wait(refs, num_returns=1)
            for ref in ready:
                out: list[GameOutcome] = ray.get(ref)
                yield out
    finally:
        for ref in refs:
            ray.cancel(ref)


def _write(fh: IO[str], objs: Sequence[dict[str, Any]]) -> None:
    fh.write("".join(json.dumps(o, separators=(",", ":")) + "\n" for o in objs))
    fh.flush()
    os.fsync(fh.fileno())


def prepare_folder(plan: Plan, out: Path) -> tuple[set[tuple[int, int]], bool]:
    """Create or check the folder; return the finished games and whether a torn line was cut off.

    Raises :class:`ResumeRefused` when the folder holds a run with different parameters, and
    :class:`~cardtable.sim.store.ResultsError` when its results file is damaged mid-file.
    """
    out.mkdir(parents=True, exist_ok=True)
    manifest = plan.manifest()
    old = read_manifest(out)
    results = out / RESULTS
    if old is None:
        if results.exists() and results.stat().st_size > 0:
            raise ResumeRefused(f"{out} has a {RESULTS} but no {MANIFEST}; use an empty folder")
        write_manifest(out, manifest)
        return set(), False
    if old.get("format") != manifest["format"]:
        raise ResumeRefused(
            f"{out} holds a run written by another version of cardtable (results format {old.get('format')}, "
            f"this one writes {manifest['format']}); use a new folder (`cardtable report {out}` still reads it)"
        )
    diffs = manifest_differences(old, manifest)
    if diffs:
        raise ResumeRefused(
            f"{out} holds a different run; refusing to resume into it. Differences:\n  " + "\n  ".join(diffs)
        )
    repaired = repair_tail(results)
    done = {(o["setting"], o["index"]) for o in read_results(results)} if results.exists() else set()
    for key in done:
        if not (0 <= key[0] < len(plan.settings) and 0 <= key[1] < plan.games):
            raise ResultsError(f"{results}: game {key[1]} of setting {key[0]} is not part of this run")
    records = out / RECORDS
    if plan.records:
        repair_tail(records)
        filter_records(records, done)
    return done, repaired


def run_plan(
    plan: Plan,
    out: Path,
    *,
    workers: int | None = None,
    backend: str = "local",
    address: str | None = None,
    progress: bool = True,
    batch_size: int | None = None,
    on_batch: Callable[[int], None] | None = None,
) -> RunSummary:
    """Play every game of ``plan`` not yet in ``out``, appending their lines as batches finish.

    ``on_batch(games_written_so_far)`` is called after each batch is on disk (tests use it to
    interrupt a run). Interrupting (Ctrl-C) keeps every finished batch; run again to resume.
    """
    if backend not in ("local", "ray"):
        raise CardtableError(f"unknown backend {backend!r}; use 'local' or 'ray'")
    k = workers if workers is not None else default_workers()
    if k < 1:
        raise CardtableError(f"--workers must be at least 1, got {k}")
    done, repaired = prepare_folder(plan, out)
    batches = make_batches(plan, done, k, batch_size)
    plan_json = plan.to_json()
    played = 0
    with ExitStack() as stack:
        stream = _local(plan_json, batches, k) if backend == "local" else _ray(plan_json, batches, k, address)
        close = getattr(stream, "close", None)
        if close is not None:
            stack.callback(close)
        results_fh = stack.enter_context((out / RESULTS).open("a"))
        records_fh = stack.enter_context((out / RECORDS).open("a")) if plan.records else None
        bar = ProgressBar(plan.game, plan.total, len(done), enabled=progress)
        stack.callback(bar.close)
        for outcomes in stream:
            if records_fh is not None:
                _write(records_fh, [rec for _, rec in outcomes if rec is not None])
            _write(results_fh, [line for line, _ in outcomes])
            played += len(outcomes)
            bar.advance(len(outcomes))
            if on_batch is not None:
                on_batch(played)
    return RunSummary(plan.total, len(done), played, repaired)
