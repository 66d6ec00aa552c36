"""Running a plan into a folder, on local worker processes or a Ray cluster, resumably.

The main process owns the folder: workers play batches of games and return their lines as text with
the batch's aggregate (:mod:`cardtable.sim.play`); the main process appends the text (flushed as each
batch finishes) and merges the aggregates, so its work per game is a few bytes copied and it keeps up
with any number of workers. A game is finished exactly when its line is
in ``results.jsonl``; so after an interruption the same command plays only the missing games.
Its records line, if any, is written before its results line; a record whose results line never made
it is dropped on resume.
"""

from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardtable.engine.errors import CardtableError
from cardtable.sim.aggregate import RunAggregate
from cardtable.sim.plan import Plan, manifest_differences
from cardtable.sim.play import Batch, BatchResult, play_batch, run_batch
from cardtable.sim.progress import ProgressBar
from cardtable.sim.store import (
    MANIFEST,
    RECORDS,
    RESULTS,
    Done,
    filter_records,
    make_folder,
    read_manifest,
    repair_tail,
    scan_results,
    write_manifest,
)
from cardtable.sim.workers import WorkerProcesses


class ResumeRefused(CardtableError):
    """The output folder holds a different run (its parameters differ from this run's)."""


@dataclass
class RunSummary:
    """What a call to :func:`run_plan` did, and the aggregate of every game in the folder."""

    total: int
    already_done: int
    played: int
    repaired: bool
    aggregate: RunAggregate | None = None
    """The statistics of every game now in the folder (what the report is built from)."""

    @property
    def complete(self) -> bool:
        return self.already_done + self.played == self.total


def default_workers() -> int:
    return os.cpu_count() or 1


MAX_BATCH = 250
"""Most games in one batch."""
LEAD = 4
"""Guided scheduling: each batch is about 1/(LEAD x workers) of the games still to hand out."""


def make_batches(plan: Plan, done: Done | set[tuple[int, int]], workers: int, size: int | None = None) -> list[Batch]:
    """The missing games, cut into batches of whole game indices (every pending setting of an index
    in one batch, so paired games meet in one worker).

    Without ``size``, batches follow guided scheduling: each about 1/(4 x workers) of the games not
    yet handed out, at most 250, so the pool starts with large batches (little overhead) and ends with
    small ones (no worker waits long for the last). ``size`` fixes the games per batch instead.
    """
    groups: list[list[tuple[int, int]]] = []
    for i in range(plan.games):
        group = [(s, i) for s in range(len(plan.settings)) if (s, i) not in done]
        if group:
            groups.append(group)
    remaining = sum(len(g) for g in groups)
    batches: list[Batch] = []
    k = 0
    while k < len(groups):
        target = size if size is not None else max(1, min(MAX_BATCH, math.ceil(remaining / (LEAD * max(1, workers)))))
        batch: Batch = []
        while k < len(groups) and (not batch or len(batch) + len(groups[k]) <= target):
            batch += groups[k]
            k += 1
        remaining -= len(batch)
        batches.append(batch)
    return batches


def _local(plan: Plan, batches: Sequence[Batch], workers: int) -> Iterator[BatchResult]:
    """The batches' results as they finish: in this process for one worker, else on worker processes
    (:class:`~cardtable.sim.workers.WorkerProcesses`).

    The workers are started here, before the caller starts its progress bar (whose drawing thread should
    not be running while worker processes fork). Each worker gets the plan once, when it starts.
    Closing the returned iterator stops the workers.
    """
    if workers <= 1:
        return (play_batch(plan, batch) for batch in batches)
    import multiprocessing

    # fork shares the parent's imports and registered games and starts in milliseconds.
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    return WorkerProcesses(multiprocessing.get_context(method), plan, batches, min(workers, max(1, len(batches))))


def _ray(plan: Plan, batches: Sequence[Batch], workers: int, address: str | None) -> Iterator[BatchResult]:
    try:
        import ray
    except ImportError:
        raise CardtableError("the ray backend needs ray: pip install 'cardtable[ray]'") from None
    if not ray.is_initialized():
        options: dict[str, Any] = {"log_to_driver": False}
        if address is None or plan.factory is not None:
            # A game registered at run time (a plug-in, a test's game) imports in the workers from this
            # process's import path: on this machine, or where the cluster's nodes share its paths.
            options["runtime_env"] = {"env_vars": {"PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}}
        if address is None:
            ray.init(num_cpus=workers, include_dashboard=False, **options)
        else:
            ray.init(address=address, **options)
    remote: Any = ray.remote(run_batch)
    plan_ref = ray.put(plan.to_json())
    refs = [remote.remote(plan_ref, batch) for batch in batches]
    try:
        while refs:
            ready, refs = ray.wait(refs, num_returns=1)
            for ref in ready:
                out: BatchResult = ray.get(ref)
                yield out
    finally:
        for ref in refs:
            ray.cancel(ref)


class Appender:
    """A results (or records) file opened for appending: each batch's text is written and flushed at
    once (so an interrupted run keeps every finished batch), and forced to disk at most once a second
    and at the end (so a run of many small batches does not wait on the disk)."""

    SYNC_EVERY = 1.0

    def __init__(self, path: Path) -> None:
        self._fh = path.open("a", encoding="utf-8")
        self._synced = time.monotonic()

    def write(self, text: str) -> None:
        if not text:
            return
        self._fh.write(text)
        self._fh.flush()
        now = time.monotonic()
        if now - self._synced >= self.SYNC_EVERY:
            os.fsync(self._fh.fileno())
            self._synced = now

    def close(self) -> None:
        self._fh.flush()
        os.fsync(self._fh.fileno())
        self._fh.close()


def prepare_folder(plan: Plan, out: Path) -> tuple[Done, bool, RunAggregate]:
    """Create or check the folder; return the finished games, whether a torn line was cut off, and
    the aggregate of the games already there (streamed: the file is never held in memory).

    Raises :class:`ResumeRefused` when the folder holds a run with different parameters, and
    :class:`~cardtable.sim.store.ResultsError` when its results file is damaged mid-file.
    """
    make_folder(out)
    manifest = plan.manifest()
    old = read_manifest(out)
    results = out / RESULTS
    done = Done(len(plan.settings), plan.games)
    aggregate = RunAggregate(manifest["settings"])
    if old is None:
        if results.exists() and results.stat().st_size > 0:
            raise ResumeRefused(f"{out} has a {RESULTS} but no {MANIFEST}; use an empty folder")
        write_manifest(out, manifest)
        return done, False, aggregate
    if old.get("format") != manifest["format"]:
        raise ResumeRefused(
            f"{out} holds a run written by another version of cardtable (results format {old.get('format')}, "
            f"this one writes {manifest['format']}); use a new folder (`cardtable report {out}` still reads it)"
        )
    diffs = manifest_differences(old, manifest)
    if diffs:
        raise ResumeRefused(
            f"{out} holds a different run; refusing to resume into it ({'; '.join(diffs)}). Use another --out, "
            "or run the folder's own command again to finish it"
        )
    repaired = repair_tail(results)
    if results.exists():
        for _, line in scan_results(results, len(plan.settings), plan.games):
            done.add(line["setting"], line["index"])
            aggregate.add(line)
    records = out / RECORDS
    if plan.records:
        repair_tail(records)
        filter_records(records, done)
    return done, repaired, aggregate


@contextmanager
def execute(
    plan: Plan, batches: Sequence[Batch], workers: int, backend: str = "local", address: str | None = None
) -> Iterator[Iterator[BatchResult]]:
    """The batches' results as they finish, on ``backend`` (``"local"``: this process for one worker,
    else worker processes; ``"ray"``: a Ray cluster, local or at ``address``). Leaving the block stops
    the workers, mid-batch if need be."""
    if backend not in ("local", "ray"):
        raise CardtableError(f"unknown backend {backend!r}; use 'local' or 'ray'")
    if workers < 1:
        raise CardtableError(f"--workers must be at least 1, got {workers}")
    stream = _local(plan, batches, workers) if backend == "local" else _ray(plan, batches, workers, address)
    try:
        yield stream
    finally:
        close = getattr(stream, "close", None)
        if close is not None:
            close()


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
    interrupt a run). Interrupting (Ctrl-C) keeps every finished batch; run again to resume. The
    summary carries the aggregate of every game in the folder, for the report.
    """
    if backend not in ("local", "ray"):
        raise CardtableError(f"unknown backend {backend!r}; use 'local' or 'ray'")
    k = workers if workers is not None else default_workers()
    if k < 1:
        raise CardtableError(f"--workers must be at least 1, got {k}")
    done, repaired, aggregate = prepare_folder(plan, out)
    batches = make_batches(plan, done, k, batch_size)
    played = 0
    with ExitStack() as stack:
        stream = stack.enter_context(execute(plan, batches, k, backend, address))
        results_fh = Appender(out / RESULTS)
        stack.callback(results_fh.close)
        records_fh = Appender(out / RECORDS) if plan.records else None
        if records_fh is not None:
            stack.callback(records_fh.close)
        bar = ProgressBar(plan.game, plan.total, done.count, enabled=progress)
        stack.callback(bar.close)
        for batch in stream:
            # A game's record goes to disk before its results line, which is what marks it done.
            if records_fh is not None:
                records_fh.write(batch.records)
            results_fh.write(batch.results)
            aggregate.merge(batch.aggregate)
            played += batch.games
            bar.advance(batch.games)
            if on_batch is not None:
                on_batch(played)
    return RunSummary(plan.total, done.count, played, repaired, aggregate)
