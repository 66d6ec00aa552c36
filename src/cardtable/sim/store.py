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


def make_folder(folder: Path) -> None:
    """Create a run's output folder (and its parents), or raise :class:`ResultsError` naming it: a
    path that is a file, a parent that cannot be created, a folder that cannot be written to."""
    if folder.exists() and not folder.is_dir():
        raise ResultsError(f"the output folder {folder} is a file, not a folder; give --out a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / ".cardtable-write-check"
        probe.touch()
        probe.unlink()
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        where = f" ({exc.filename})" if exc.filename and str(exc.filename) != str(folder) else ""
        raise ResultsError(f"cannot use the output folder {folder}: {reason}{where}") from None


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


class Done:
    """Which (setting, game index) pairs a folder holds: one bit per planned game, so a resumed run of
    millions of games knows what is done in a few hundred kilobytes."""

    def __init__(self, settings: int, games: int) -> None:
        self.settings = settings
        self.games = games
        self._bits = bytearray((settings * games + 7) // 8)
        self.count = 0

    def add(self, setting: int, index: int) -> bool:
        """Mark a game done; False when it was already (a duplicate line)."""
        k = setting * self.games + index
        byte, bit = divmod(k, 8)
        if self._bits[byte] >> bit & 1:
            return False
        self._bits[byte] |= 1 << bit
        self.count += 1
        return True

    def __contains__(self, key: object) -> bool:
        if not isinstance(key, tuple) or len(key) != 2:
            return False
        setting, index = key
        if not (isinstance(setting, int) and isinstance(index, int)):
            return False
        if not (0 <= setting < self.settings and 0 <= index < self.games):
            return False
        byte, bit = divmod(setting * self.games + index, 8)
        return bool(self._bits[byte] >> bit & 1)


def scan_results(path: Path, settings: int, games: int) -> Iterator[tuple[int, dict[str, Any]]]:
    """Stream a results file's lines (checked as :func:`iter_lines` does), refusing a game that is not
    part of a run of ``settings`` x ``games`` and a game given twice, in memory that does not grow
    with the number of lines (beyond :class:`Done`'s bit per game). Yields ``(line number, line)``."""
    done = Done(settings, games)
    for number, obj in iter_lines(path, REQUIRED):
        s, i = obj["setting"], obj["index"]
        if not (type(s) is int and type(i) is int and 0 <= s < settings and 0 <= i < games):
            raise ResultsError(f"{path}:{number}: game {i!r} of setting {s!r} is not part of this run")
        if not done.add(s, i):
            raise ResultsError(f"{path}:{number}: game {i} of setting {s} is given twice")
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


def filter_records(path: Path, done: set[tuple[int, int]] | Done) -> int:
    """Keep only the records of finished games (a record whose results line was never written is
    dropped, so the replayed game does not appear twice). Returns how many were dropped."""
    if not path.exists():
        return 0

    # Streamed in two passes (is anything to drop? then copy what is kept), never all in memory.
    def keep() -> Iterator[tuple[bool, bytes]]:
        seen = Done(done.settings, done.games) if isinstance(done, Done) else None
        seen_set: set[tuple[int, int]] = set()
        with path.open("rb") as fh:
            for number, raw in enumerate(fh, start=1):
                try:
                    obj = json.loads(raw)
                    key = (obj["setting"], obj["index"])
                except (json.JSONDecodeError, UnicodeDecodeError, TypeError, KeyError):
                    raise ResultsError(f"{path}:{number}: corrupt line") from None
                if key not in done:
                    yield False, raw
                elif seen is not None:
                    yield seen.add(*key), raw
                else:
                    yield key not in seen_set, raw
                    seen_set.add(key)

    dropped = sum(not ok for ok, _ in keep())
    if dropped:
        tmp = path.with_suffix(".tmp")
        with tmp.open("wb") as fh:
            for ok, raw in keep():
                if ok:
                    fh.write(raw if raw.endswith(b"\n") else raw + b"\n")
        os.replace(tmp, path)
    return dropped
