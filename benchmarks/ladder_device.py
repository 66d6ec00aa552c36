"""The README's ladder in one timed run on a many-core machine: every pairing gets games in priority order
until the time is up, and whatever finished is kept.

Run it through ``benchmarks/ladder_device.sh`` (which checks the imports first)::

    OUT=/some/dir bash benchmarks/ladder_device.sh                 # 16 workers, 8 minutes of games
    python benchmarks/ladder_device.py --out DIR --workers 16 --minutes 8 [--resume OLD_DIR]

The plan (:func:`plan`) is a list of pairings in tiers, each tier with a share of the machine's time
(:data:`TIERS`; ``--tiers`` sets other shares for a run, and a tier given no share is not played):

1. ``headline``: ``strong`` against the heuristic in every 2-player game (target 200 games each);
2. ``ceiling``: ``oracle`` (the same search handed the true state) against the heuristic in every
   2-player game, to learn how much of each game is luck;
3. ``random``: ``strong`` and the heuristic against random in every 2-player game;
4. ``multiplayer``: one ``strong`` against the heuristic in every other seat, in every multiplayer
   configuration of ``ladder.MULTIPLAYER`` (Mephisto 3, 4 and teams, Army of Darkness 4 and 6, Mr.
   Card Game 3-5), the target rounded down to whole rotations of the seats;
5. ``levels``: each level against the one below, every game.

A free worker takes the next game of the tier that has used the smallest part of its share (this run's
finished games' seconds plus the time the running ones have taken so far; games resumed from an earlier
run are not this run's time); within a tier, of the pairing with the fewest games for its target, so
the pairings of a tier get the same deals (or, in a tier named by ``--finish``, of the pairing nearest
its target, so that a run resumed from earlier files completes whole pairings first). A tier with
nothing left to play gives its share to the others. Games are played in index order (deal ``d`` from
both rotations of the seats, seed ``1000 + d``), exactly as ``ladder.py pair`` plays them, so the
results are the same games a ``pair`` or ``table`` run plays and any of them can resume from the files.
No game is started that its pairing's mean game length says cannot finish in time; the games still
running at the end are dropped. So the last seconds go to the pairings without search (heuristic
against random, the lower levels), which is why those end with many more games than the rest of their
tier (the run of
2026-11-26: about 150 against 14).

Every finished game is appended at once to ``DIR/<game>.jsonl`` (the format of ``ladder.py table
--out DIR``); the summary (``DIR/summary.md``: the README's tables; ``DIR/summary.json``: every
pairing's games, win share, 95% Wilson interval and time per decision) is rewritten every minute and
at the end, counting only whole deals (every rotation played), so a run cut off at any moment leaves
files that say what it measured. ``--resume OLD_DIR`` starts from an earlier run's files (its games
are not played again). Only the standard library and cardtable are needed (and cardtable's own
``typing_extensions`` and ``mypy_extensions``).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import multiprocessing
import os
import platform
import queue
import shutil
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import cardtable
import ladder
from ladder import GAMES, LEVELS, MULTIPLAYER, Match, level_spec, resolve, whole_deals

SEED = 1000
TARGET = 200

TIERS: dict[str, float] = {"headline": 0.40, "ceiling": 0.12, "random": 0.12, "multiplayer": 0.24, "levels": 0.12}
"""Each tier's share of the machine's time (``--tiers`` changes them for a run)."""

GUESS_S: dict[str, float] = {"mephisto": 9.0, "doctor-strange": 8.5, "army-of-darkness": 19.0, "mr-card-game": 16.5}
"""Seconds one core takes for a game of ``strong`` against the heuristic (measured on the development
machine), for planning until a pairing's first game has finished."""


@dataclass
class Line:
    """One pairing of the plan and how far it has got."""

    tier: str
    match: Match
    guess_s: float
    target: int = TARGET
    players: int = 2
    done: dict[int, float] = field(default_factory=dict)
    """Finished game index -> its seconds."""
    running: dict[int, float] = field(default_factory=dict)
    """Game index -> when it started (monotonic clock)."""
    failed: set[int] = field(default_factory=set)
    earlier_s: float = 0.0
    """The seconds of the games an earlier run played (``--resume``): they are not this run's time."""

    def next_index(self) -> int | None:
        for i in range(self.target):
            if i not in self.done and i not in self.running and i not in self.failed:
                return i
        return None

    def mean_s(self) -> float:
        return sum(self.done.values()) / len(self.done) if self.done else self.guess_s

    def count(self) -> int:
        return len(self.done) + len(self.running)


def two(game_id: str, hero: str, other: str) -> Match:
    return Match(game_id, (("players", 2),), (hero, other))


def plan(games: Sequence[str], target: int, iterations: int | None = None) -> list[Line]:
    """The pairings, highest priority first. ``iterations`` replaces every search's budget (for a dry
    run of the plumbing: the pairings are then not the README's)."""
    lines = _plan(games, target)
    if iterations is not None:
        for line in lines:
            specs = tuple(_budget(spec, iterations) for spec in line.match.specs)
            line.match = Match(line.match.game, line.match.options, specs, line.match.hero_only)
            line.guess_s = min(line.guess_s, 0.5)
    return lines


def _budget(spec: str, iterations: int) -> str:
    name, _, opts = spec.partition(":")
    if name not in ("strong", "oracle", "hard", "expert"):
        return spec
    kept = [o for o in opts.split(",") if o and not o.startswith("iterations=")]
    return f"{name}:" + ",".join([*kept, f"iterations={iterations}"])


def _plan(games: Sequence[str], target: int) -> list[Line]:
    lines: list[Line] = []
    for g in games:
        lines.append(Line("headline", two(g, "strong", "heuristic"), GUESS_S[g], target))
    for g in games:
        # The same search handed the true state: about the time of ``strong`` (5.1 s a game against 4.7 in
        # Doctor Strange on the 16-core machine).
        lines.append(Line("ceiling", two(g, "oracle", "heuristic"), 1.2 * GUESS_S[g], target))
    for g in games:
        lines.append(Line("random", two(g, "strong", "random"), GUESS_S[g], target))
        lines.append(Line("random", two(g, "heuristic", "random"), 0.1, target))
    for g, options in MULTIPLAYER:
        if g in games:
            players = int(options["players"])
            match = Match(g, tuple(sorted(options.items())), ("strong", "heuristic"))
            guess = GUESS_S[g] * max(1.0, players / 3)
            lines.append(Line("multiplayer", match, guess, target - target % players, players=players))
    for g in games:
        game = cardtable.load(g, players=2)
        cost = {"easy": 0.1, "normal": 0.1, "hard": 0.25 * GUESS_S[g], "expert": 1.25 * GUESS_S[g]}
        for a, b in LEVELS:
            match = two(g, resolve(level_spec(a), game), resolve(level_spec(b), game))
            lines.append(Line("levels", match, cost[a], target))
    return lines


def parse_tiers(text: str) -> dict[str, float]:
    """``headline=0.3,random=0.2,...`` -> the tiers' shares: the named tiers get their numbers and every
    tier left out gets 0 (its pairings are not played). Shares are relative (they need not sum to 1)."""
    shares = dict.fromkeys(TIERS, 0.0)
    for part in text.split(","):
        name, sep, value = part.strip().partition("=")
        if name not in TIERS or not sep:
            raise argparse.ArgumentTypeError(f"--tiers: {part!r} is not TIER=SHARE with a tier of {', '.join(TIERS)}")
        try:
            shares[name] = float(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"--tiers: the share of {name} is not a number: {value!r}") from None
        if not shares[name] >= 0:
            raise argparse.ArgumentTypeError(f"--tiers: the share of {name} must be 0 or more, not {value}")
    if not any(shares.values()):
        raise argparse.ArgumentTypeError("--tiers: every share is 0, so nothing would be played")
    return shares


def _play_keyed(task: tuple[Match, int, int]) -> tuple[str, int, dict[str, Any] | str]:
    match, seed, index = task
    try:
        return match.key(), index, ladder.play(match, seed, index)
    except Exception as exc:  # reported, and the game left out: one broken game must not stop the run
        return match.key(), index, f"{type(exc).__name__}: {exc}"


class Run:
    def __init__(
        self,
        out: Path,
        lines: list[Line],
        workers: int,
        seconds: float,
        seed: int,
        tiers: dict[str, float] | None = None,
        finish: Sequence[str] = (),
    ) -> None:
        self.out = out
        self.finish = frozenset(finish)
        self.tiers = dict(TIERS) if tiers is None else {name: tiers.get(name, 0.0) for name in TIERS}
        self.lines = [line for line in lines if self.tiers[line.tier] > 0]
        self.by_key = {line.match.key(): line for line in lines}
        self.workers = workers
        self.seed = seed
        self.start = time.monotonic()
        self.end = self.start + seconds
        self.started_at = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())

    # -- files -------------------------------------------------------------------------------------
    def path(self, game_id: str) -> Path:
        return self.out / f"{game_id}.jsonl"

    def load_done(self) -> None:
        for path in self.out.glob("*.jsonl"):
            for line in path.read_text().splitlines():
                try:
                    row = json.loads(line)
                except json.JSONDecodeError:
                    continue  # a line cut off by an earlier run's end
                pairing = self.by_key.get(row.get("key", ""))
                if pairing is not None and row.get("seed") == self.seed:
                    pairing.done[row["index"]] = float(row["seconds"])
        for pairing in self.lines:
            pairing.earlier_s = sum(pairing.done.values())

    def record(self, key: str, row: dict[str, Any]) -> None:
        row.update(key=key, seed=self.seed)
        with self.path(row["key"].split("[", 1)[0]).open("a") as fh:
            fh.write(json.dumps(row) + "\n")

    def summary(self, final: bool) -> None:
        rows = ladder_rows(self.out, self.seed)
        pairings = {}
        for line in self.lines:
            found = rows.get(line.match.key(), {})
            kept = whole_deals(found, line.players)
            cell: dict[str, Any] = {"tier": line.tier, "games": len(kept), "finished": len(found)}
            if kept:
                i = ladder.share(kept)
                s, it = ladder.per_decision(kept)
                cell.update(share=round(i.estimate, 4), low=round(i.low, 4), high=round(i.high, 4))
                cell.update(
                    s_per_decision=round(s, 4) if s == s else None,
                    iterations_per_decision=round(it) if it == it else None,
                )
            pairings[line.match.key()] = cell
        info = {
            "started": self.started_at,
            "elapsed_s": round(time.monotonic() - self.start, 1),
            "final": final,
            "workers": self.workers,
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "machine": platform.platform(),
            "load": os.getloadavg()[0],
            "seed": self.seed,
        }
        tmp = self.out / "summary.json.tmp"
        tmp.write_text(json.dumps({"run": info, "pairings": pairings}, indent=1))
        tmp.replace(self.out / "summary.json")
        text = io.StringIO()
        with contextlib.redirect_stdout(text):
            ladder.main(
                ["table", "--out", str(self.out), "--seed", str(self.seed), "--no-play", "--games", str(TARGET)]
            )
        head = (
            f"Ladder run of {self.started_at}, {'final' if final else 'in progress'} after {info['elapsed_s']} s on "
            f"{self.workers} workers ({info['cpus']} CPUs, Python {info['python']}). Only whole deals are counted; the "
            "number in brackets after each interval is the games played.\n"
        )
        tmp = self.out / "summary.md.tmp"
        tmp.write_text(head + text.getvalue())
        tmp.replace(self.out / "summary.md")

    # -- scheduling --------------------------------------------------------------------------------
    def pick(self, now: float) -> Line | None:
        left = self.end - now
        used: dict[str, float] = dict.fromkeys(self.tiers, 0.0)
        for line in self.lines:
            # A running game counts what it is expected to take (so the first games spread over
            # the tiers), or what it has taken when that is more.
            mean = line.mean_s()
            played = sum(line.done.values()) - line.earlier_s
            used[line.tier] += played + sum(max(mean, now - t) for t in line.running.values())
        best: tuple[float, float, int] | None = None
        chosen = None
        for order, line in enumerate(self.lines):
            if line.next_index() is None or 1.3 * line.mean_s() + 2 > left:
                continue
            # Within a tier the pairings share its time evenly (the fewest games for their target first), or
            # in a ``finish`` tier the one nearest its target goes first, so whole pairings are finished.
            filled = line.count() / line.target
            rank = (used[line.tier] / self.tiers[line.tier], -filled if line.tier in self.finish else filled, order)
            if best is None or rank < best:
                best, chosen = rank, line
        return chosen

    def go(self) -> None:
        results: queue.Queue[tuple[str, int, dict[str, Any] | str]] = queue.Queue()
        pool = multiprocessing.get_context("fork").Pool(self.workers)
        busy = 0
        last_summary = time.monotonic()
        try:
            while True:
                now = time.monotonic()
                if now >= self.end:
                    break
                while busy < self.workers:
                    line = self.pick(now)
                    if line is None:
                        break
                    start = line.next_index()
                    assert start is not None
                    line.running[start] = now
                    pool.apply_async(_play_keyed, ((line.match, self.seed, start),), callback=results.put)
                    busy += 1
                if busy == 0:
                    break  # everything played, or nothing left that fits in the time
                try:
                    key, index, row = results.get(timeout=min(1.0, max(0.01, self.end - now)))
                except queue.Empty:
                    row = None
                if row is not None:
                    busy -= 1
                    line = self.by_key[key]
                    line.running.pop(index, None)
                    if isinstance(row, str):
                        line.failed.add(index)
                        with (self.out / "errors.txt").open("a") as fh:
                            fh.write(f"{key} game {index}: {row}\n")
                    else:
                        line.done[index] = float(row["seconds"])
                        self.record(key, row)
                if time.monotonic() - last_summary > 60:
                    self.summary(final=False)
                    last_summary = time.monotonic()
        finally:
            pool.terminate()
            pool.join()
            self.summary(final=True)


def ladder_rows(out: Path, seed: int) -> dict[str, dict[int, dict[str, Any]]]:
    rows: dict[str, dict[int, dict[str, Any]]] = {}
    for path in out.glob("*.jsonl"):
        for line in path.read_text().splitlines():
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue
            if row.get("seed") == seed:
                rows.setdefault(row["key"], {})[row["index"]] = row
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, required=True, help="where the results go (created)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--minutes", type=float, default=8.0, help="time for games; the summary follows")
    parser.add_argument("--games", type=int, default=TARGET, help="the target per pairing")
    parser.add_argument("--only", action="append", choices=GAMES, help="only this game (repeatable)")
    parser.add_argument("--resume", type=Path, default=None, help="an earlier run's --out: its games count")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument(
        "--finish",
        action="append",
        default=[],
        choices=list(TIERS),
        help="in this tier, the pairing nearest its target gets the next game (default: the farthest), so "
        "the time finishes whole pairings rather than spreading over all of them (repeatable)",
    )
    parser.add_argument(
        "--tiers",
        type=parse_tiers,
        default=None,
        help="the tiers' shares of the time for this run, e.g. headline=0.3,multiplayer=0.5 (a tier left out "
        f"is not played); default {','.join(f'{k}={v:g}' for k, v in TIERS.items())}",
    )
    parser.add_argument("--iterations", type=int, default=None, help="every search's budget (dry runs only)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    if args.resume is not None and args.resume.resolve() != args.out.resolve():
        for path in args.resume.glob("*.jsonl"):
            shutil.copyfile(path, args.out / path.name)
    run = Run(
        args.out,
        plan(args.only or list(GAMES), args.games, args.iterations),
        args.workers,
        60 * args.minutes,
        args.seed,
        args.tiers,
        args.finish,
    )
    run.load_done()
    run.go()
    print((args.out / "summary.md").read_text())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
