"""A run's folder: ``manifest.json``, ``results.jsonl`` (one line per game), ``records.jsonl``.

Reading is strict: a line that is not a JSON object with the expected keys raises
:class:`ResultsError` naming the file and the line number, so a damaged file is never silently
half-read. The one exception is an *unterminated last line* — what an interrupted write leaves —
which :func:`repair_tail` cuts off when a run resumes (that game is then played again).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from cardtable.engine.errors import CardtableError

MANIFEST = "manifest.json"
RESULTS = "results.jsonl"
RECORDS = "records.jsonl"
REQUIRED = ("setting", "index", "seed", "seats", "agents", "decisions", "reason", "turns", "wins")


class ResultsError(CardtableError):
    """A results or records file (or manifest) that cannot be read as written by a run."""


def read_manifest(folder: Path) -> dict[str, Any] | None:
    """The folder's manifest, or None when there is none."""
    path = folder / MANIFEST
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise ResultsError(f"{path}: not a readable manifest ({exc})") from exc
    if not isinstance(data, dict) or "settings" not in data:
        raise ResultsError(f"{path}: not a cardtable simulation manifest")
    return data


def write_manifest(folder: Path, manifest: dict[str, Any]) -> None:
    tmp = folder / (MANIFEST + ".tmp")
    tmp.write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    os.replace(tmp, folder / MANIFEST)


def iter_lines(path: Path, required: tuple[str, ...] = ()) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield ``(line number, object)`` for each line; raise :class:`ResultsError` on a bad line."""
    with path.open("rb") as fh:
        for number, raw in enumerate(fh, start=1):
            if not raw.endswith(b"\n"):
                raise ResultsError(
                    f"{path}:{number}: incomplete last line (an interrupted write?); resume the run to replay that game"
                )
            try:
                obj = json.loads(raw)
            except (json.JSONDecodeError, UnicodeDecodeError) as exc:
                raise ResultsError(f"{path}:{number}: corrupt line ({exc})") from None
            if not isinstance(obj, dict):
                raise ResultsError(f"{path}:{number}: corrupt line (not a JSON object)")
            missing = [k for k in required if k not in obj]
            if missing:
                raise ResultsError(f"{path}:{number}: corrupt line (missing {', '.join(missing)})")
            yield number, obj


def read_results(path: Path) -> list[dict[str, Any]]:
    """Every game line of a results file, checked (see :func:`iter_lines`), with no game twice."""
    out = []
    seen: dict[tuple[int, int], int] = {}
    for number, obj in iter_lines(path, REQUIRED):
        key = (obj["setting"], obj["index"])
        if key in seen:
            raise ResultsError(f"{path}:{number}: game {key[1]} of setting {key[0]} already on line {seen[key]}")
        seen[key] = number
        out.append(obj)
    return out


def repair_tail(path: Path) -> bool:
    """Cut an unterminated last line off ``path`` (left by an interrupted write). True if it did."""
    if not path.exists():
        return False
    with path.open("rb+") as fh:
        fh.seek(0, os.SEEK_END)
        size = fh.tell()
        if size == 0:
            return False
        fh.seek(size - 1)
        if fh.read(1) == b"\n":
            return False
        # Find the last newline and cut after it.
        pos = size - 1
        chunk = 4096
        keep = 0
        while pos > 0:
            start = max(0, pos - chunk)
            fh.seek(start)
            data = fh.read(pos - start)
            nl = data.rfind(b"\n")
            if nl >= 0:
                keep = start + nl + 1
                break
            pos = start
        fh.truncate(keep)
    return True


def filter_records(path: Path, done: set[tuple[int, int]]) -> int:
    """Keep only the records of finished games (a record whose results line was never written is
    dropped, so the replayed game does not appear twice). Returns how many were dropped."""
    if not path.exists():
        return 0
    kept = []
    dropped = 0
    seen: set[tuple[int, int]] = set()
    for _, obj in iter_lines(path, ("setting", "index", "record")):
        key = (obj["setting"], obj["index"])
        if key in done and key not in seen:
            seen.add(key)
            kept.append(obj)
        else:
            dropped += 1
    if dropped:
        tmp = path.with_suffix(".tmp")
        with tmp.open("w") as fh:
            for obj in kept:
                fh.write(json.dumps(obj, separators=(",", ":")) + "\n")
        os.replace(tmp, path)
    return dropped
