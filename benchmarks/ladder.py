"""Strength ladder: agents against each other on paired deals with rotated seats, with 95% Wilson intervals.

Every pairing plays the same deals. Deal ``d`` (seed ``seed + d``) is played once from every rotation of
the seats, so in a 2-player match both agents play both sides of every deal and the luck of the deal
cancels out; in an n-player match with one hero, the hero sits at every seat of every deal. Agents are
seeded from the deal and the seat, never from the clock, so a pairing at a fixed iteration budget gives
the same games on any machine, whatever its load: **strength is measured at fixed iteration budgets**,
and time per decision is measured separately and converted. Times are the searching process's CPU time
(``time.process_time``), which on a shared machine is what one core would take; on an idle machine it
equals the wall-clock time.

Subcommands::

    python benchmarks/ladder.py pair mephisto strong heuristic --games 40       # one pairing
    python benchmarks/ladder.py pair mephisto strong heuristic -o players=3 --games 60
    python benchmarks/ladder.py pair doctor-strange oracle:iterations=2000 heuristic --games 200 --out ds.jsonl
    python benchmarks/ladder.py speed mephisto strong                              # it/s, s/decision
    python benchmarks/ladder.py table --games 200 --out ladder-results/           # the README's tables
    python benchmarks/ladder.py throughput                                         # simulate's games/s

``--out FILE.jsonl`` (``pair``) or ``--out DIR`` (``table``) keeps every finished game, one line each, and
a later run with the same arguments plays only the games still missing: long runs can be stopped and
resumed, and grown from 40 games to 200.

``oracle:...`` is the *perfect-information* reference (:mod:`oracle`): the same search handed the true
state (hidden cards known; dice and shuffles still unknown). It exists only here, for measuring how much
of a game is luck, and is never an agent players can choose.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import cardtable
import oracle
from cardtable.agents import Observation, make_agent, seat_rewards
from cardtable.sim.stats import Interval, wilson

oracle.register()

GAMES = ("mephisto", "doctor-strange", "army-of-darkness", "mr-card-game")


# -- one game ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Match:
    """A pairing: ``specs[0]`` (the hero) against the others, listed around the table as in
    ``cardtable simulate`` (``strong,heuristic`` at 4 players is strong, heuristic, strong, heuristic).
    ``hero_only``: only the first seat of the list is the hero; every other seat plays ``specs[1]``."""

    game: str
    options: tuple[tuple[str, Any], ...]
    specs: tuple[str, ...]
    hero_only: bool = True

    def load(self) -> cardtable.Game:
        return cardtable.load(self.game, **dict(self.options))

    def listed(self, players: int) -> list[str]:
        """The spec of every listed position, hero first."""
        if self.hero_only:
            return [self.specs[0]] + [self.specs[1 % len(self.specs)]] * (players - 1)
        return [self.specs[i % len(self.specs)] for i in range(players)]

    def key(self) -> str:
        opts = ",".join(f"{k}={v}" for k, v in self.options)
        return canonical_key(f"{self.game}[{opts}] {' vs '.join(self.specs)}{'' if self.hero_only else ' (listed)'}")


@functools.cache
def canonical_key(key: str) -> str:
    """``key`` (a pairing's key, as stored in a results file) with each option's value as the game reads
    it, so that one pairing has one key however its options were spelled: ``-o teams=true`` on the
    command line and ``teams=True`` in a script's table are the same pairing, to resume and to pair
    with. A key that does not name a game and valid options is returned as it is."""
    game, bracket, rest = key.partition("[")
    text, close, agents = rest.partition("] ")
    if not bracket or not close:
        return key
    try:
        given = dict(item.split("=", 1) for item in text.split(",") if item)
        read = cardtable.load(game, **given).options
    except (ValueError, KeyError):  # not a game, or options it refuses (OptionError is a ValueError)
        return key
    return f"{game}[{','.join(f'{k}={read[k]}' for k in given)}] {agents}"


def agent_seed(deal: int, seat: int) -> int:
    return (deal * 1_000_003 + seat * 7919 + 17) % (1 << 62)


def play(match: Match, seed: int, index: int) -> dict[str, Any]:
    """Game ``index`` of ``match``: deal ``index // players`` (seed ``seed + deal``), seats rotated by
    ``index % players``. Returns the hero side's win share and what the searchers spent."""
    game = match.load()
    n = game.players
    deal, rotation = divmod(index, n)
    listed = match.listed(n)
    at = [(s - rotation) % n for s in range(n)]  # listed position sitting at each seat
    agents = [make_agent(listed[at[s]], game, agent_seed(deal, s)) for s in range(n)]
    state = game.new(seed + deal, log=False)
    spent = [0.0] * n
    searched = [0] * n
    iterations = [0] * n
    decisions = 0
    start = time.perf_counter()
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        legal = state.legal_actions()
        if len(legal) == 1:
            action = legal[0]
        else:
            t = time.process_time()
            action = agents[seat].choose(Observation(state, seat))
            spent[seat] += time.process_time() - t
            searched[seat] += 1
            iterations[seat] += int(getattr(agents[seat], "last_iterations", 0) or 0)
        state.apply(action)
        decisions += 1
    result = state.result()
    rewards = seat_rewards(result, n)
    hero_seats = (
        [s for s in range(n) if at[s] == 0]
        if match.hero_only
        else [s for s in range(n) if at[s] % len(match.specs) == 0]
    )
    # A team's share is every member's reward; the hero side wins what its best seat wins.
    hero = max(rewards[s] for s in hero_seats)
    return {
        "index": index,
        "deal": deal,
        "rotation": rotation,
        "hero": hero,
        "decisions": decisions,
        # How the game ended (a win, or a limit nobody won at): a loss to the turn limit is not a loss
        # to the other side.
        "reason": result.reason,
        "turns": result.turns,
        "seconds": round(time.perf_counter() - start, 3),
        "hero_search_s": round(sum(spent[s] for s in hero_seats), 4),
        "hero_searched": sum(searched[s] for s in hero_seats),
        "hero_iterations": sum(iterations[s] for s in hero_seats),
    }


def _play_task(task: tuple[Match, int, int]) -> dict[str, Any]:
    return play(*task)


def run_match(
    match: Match,
    games: int,
    seed: int,
    workers: int = 1,
    out: Path | None = None,
    progress: bool = False,
    first: int = 0,
) -> list[dict[str, Any]]:
    """Play the match's ``games`` games from game ``first`` on (whole deals: ``games`` rounded up to a
    multiple of the players; ``first`` must be one), reusing and extending the lines already in ``out``.

    A run from ``first`` plays exactly the games a run from 0 plays at those indices (the same deals,
    the same agent seeds): a tuning run can leave out the deals earlier settings were picked on and
    still pair game for game with a longer run of another pairing (``summary --base``)."""
    n = match.load().players
    if first < 0 or first % n:
        raise ValueError(f"--first must be a whole number of deals (a multiple of {n} here), got {first}")
    games = -(-games // n) * n
    done: dict[int, dict[str, Any]] = {}
    if out is not None and out.exists():
        for line in out.read_text().splitlines():
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue  # the last line of a run that was killed while writing it
            if canonical_key(str(row.get("key"))) == match.key() and row.get("seed") == seed:
                done[row["index"]] = row
    todo = [i for i in range(first, first + games) if i not in done]
    fh = out.open("a") if out is not None else None
    pool: Any = None
    try:
        results: Iterator[dict[str, Any]]
        if workers <= 1 or len(todo) <= 1:
            results = (play(match, seed, i) for i in todo)
        else:
            import multiprocessing

            pool = multiprocessing.get_context("fork").Pool(min(workers, len(todo)))
            results = pool.imap_unordered(_play_task, [(match, seed, i) for i in todo])
        for k, row in enumerate(results, 1):
            row.update(key=match.key(), seed=seed)
            done[row["index"]] = row
            if fh is not None:
                fh.write(json.dumps(row) + "\n")
                fh.flush()
            if progress:
                share = sum(r["hero"] for r in done.values()) / len(done)
                print(f"\r{match.key()}: {k}/{len(todo)} played, hero {100 * share:.0f}%", end="", file=sys.stderr)
        if progress:
            print(file=sys.stderr)
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
        if fh is not None:
            fh.close()
    return [done[i] for i in range(first, first + games)]


def whole_deals(rows: Mapping[int, dict[str, Any]], players: int) -> list[dict[str, Any]]:
    """The games of the deals whose every rotation finished, in game order (a run cut off in the middle
    of a deal leaves its other rotations out: each agent must have played every side of a deal)."""
    return [rows[i] for i in sorted(rows) if all((i // players) * players + r in rows for r in range(players))]


def share(rows: Sequence[Mapping[str, Any]]) -> Interval:
    """The hero's win share with its 95% Wilson interval (a shared win counts its share)."""
    return wilson(sum(r["hero"] for r in rows), len(rows))


def pct(i: Interval) -> str:
    return f"{100 * i.estimate:.0f}% [{100 * i.low:.0f}-{100 * i.high:.0f}]"


def per_decision(rows: Sequence[Mapping[str, Any]]) -> tuple[float, float]:
    """The hero's seconds per searched decision and iterations per searched decision."""
    searched = sum(r["hero_searched"] for r in rows)
    if not searched:
        return float("nan"), float("nan")
    return sum(r["hero_search_s"] for r in rows) / searched, sum(r["hero_iterations"] for r in rows) / searched


# -- subcommands ---------------------------------------------------------------------------------------


def options_of(items: Sequence[str], game: str) -> tuple[tuple[str, Any], ...]:
    from cardtable.cli.common import parse_options  # (rich, through the CLI: only where options are given)

    options: dict[str, Any] = dict(parse_options(list(items)))
    options.setdefault("players", 2)
    cardtable.load(game, **options)  # validates
    return tuple(sorted(options.items()))


def even_share(game: cardtable.Game) -> float:
    """The hero's share of the wins if every seat played alike: one in the players, or in the teams (two
    teams of two in Mephisto's 2 against 2, where the hero's share is its team's)."""
    return 1 / (game.players // 2 if game.options.get("teams") else game.players)


def cmd_pair(args: argparse.Namespace) -> None:
    match = Match(args.game, options_of(args.option, args.game), (args.hero, *args.others), not args.listed)
    try:
        rows = run_match(match, args.games, args.seed, args.workers, args.out, not args.quiet, args.first)
    except ValueError as e:
        raise SystemExit(f"ladder.py pair: {e}") from None
    s, it = per_decision(rows)
    even = even_share(match.load())
    print(
        f"{match.key()}: hero {pct(share(rows))} over {len(rows)} games (even share {100 * even:.0f}%), "
        f"{s:.3f} s and {it:,.0f} iterations per searched decision"
    )


def speed(
    game: str, spec: str, options: Mapping[str, Any], seconds: float, opponent: str = "heuristic"
) -> tuple[float, float]:
    """Iterations per second and seconds per searched decision of ``spec`` (one core, this process),
    over whole games against ``opponent``, for about ``seconds`` of search."""
    g = cardtable.load(game, **options)
    spent = 0.0
    iterations = searched = 0
    deal = 0
    while spent < seconds:
        hero = deal % g.players
        agents = [make_agent(spec if s == hero else opponent, g, agent_seed(deal, s)) for s in range(g.players)]
        state = g.new(10_000 + deal, log=False)
        while not state.is_over and spent < seconds:
            seat = state.current_player
            assert seat is not None
            legal = state.legal_actions()
            if len(legal) == 1:
                state.apply(legal[0])
                continue
            t = time.process_time()
            action = agents[seat].choose(Observation(state, seat))
            if seat == hero:
                spent += time.process_time() - t
                iterations += int(getattr(agents[seat], "last_iterations", 0) or 0)
                searched += 1
            state.apply(action)
        deal += 1
    return iterations / spent, spent / max(1, searched)


def cmd_speed(args: argparse.Namespace) -> None:
    options = dict(options_of(args.option, args.game))
    its, s = speed(args.game, args.spec, options, args.seconds)
    print(
        f"{args.game} {args.spec}: {its:,.0f} iterations/s, {s:.3f} s per searched decision "
        f"(one core; load {os.getloadavg()[0]:.1f})"
    )


def read_rows(path: Path) -> dict[str, dict[int, dict[str, Any]]]:
    """Every finished game in a results file, by pairing key and game index."""
    out: dict[str, dict[int, dict[str, Any]]] = {}
    for line in path.read_text().splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue  # the last line of a run that was killed while writing it
        out.setdefault(f"{canonical_key(row['key'])} seed={row['seed']}", {})[row["index"]] = row
    return out


def cmd_summary(args: argparse.Namespace) -> None:
    """Every pairing in the files: the hero's share, its interval, games, time per decision; and, with
    ``--base``, each pairing's paired difference from the base pairing on the games both played."""
    from cardtable.sim.stats import paired_difference

    rows: dict[str, dict[int, dict[str, Any]]] = {}
    for path in args.files:
        if not path.exists():
            continue
        for key, games in read_rows(path).items():
            rows.setdefault(key, {}).update(games)
    base = None
    if args.base:
        matches = [k for k in rows if args.base in k]
        if len(matches) != 1:
            raise SystemExit(f"--base {args.base!r} matches {len(matches)} pairings: {matches}")
        base = rows[matches[0]]
    for key, games in rows.items():
        ordered = [games[i] for i in sorted(games)]
        s, it = per_decision(ordered)
        line = f"{pct(share(ordered))} n={len(ordered):<4} {s:6.3f}s {it:8,.0f}it  {key}"
        if base is not None and games is not base:
            both = sorted(set(games) & set(base))
            if len(both) > 1:
                d = paired_difference([base[i]["hero"] for i in both], [games[i]["hero"] for i in both])
                line += (
                    f"   vs base: {100 * d.estimate:+.0f} points [{100 * d.low:+.0f}, {100 * d.high:+.0f}] (n={d.n})"
                )
        print(line)
        ends = endings(ordered)
        if ends:
            print(f"      ended by: {ends}")


def endings(rows: Sequence[Mapping[str, Any]]) -> str:
    """How the games ended, most common first (``sorceress-defeated 18, turn-limit 2``); games recorded
    before the rows said so are counted as ``unrecorded``; "" if none says."""
    counts: dict[str, int] = {}
    for row in rows:
        reason = str(row.get("reason") or "unrecorded")
        counts[reason] = counts.get(reason, 0) + 1
    if set(counts) == {"unrecorded"}:
        return ""
    return ", ".join(f"{reason} {n}" for reason, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


TWO_PLAYER = (("strong", "heuristic"), ("strong", "random"), ("oracle", "heuristic"), ("heuristic", "random"))
"""The 2-player table's pairings, for every game (``oracle`` is the strong search given the true state)."""

MULTIPLAYER: tuple[tuple[str, dict[str, Any]], ...] = (
    ("mephisto", {"players": 3}),
    ("mephisto", {"players": 4}),
    ("mephisto", {"players": 4, "teams": True}),
    ("army-of-darkness", {"players": 4}),
    ("army-of-darkness", {"players": 6}),
    ("mr-card-game", {"players": 3}),
    ("mr-card-game", {"players": 4}),
    ("mr-card-game", {"players": 5}),
)
"""The multiplayer table: one ``strong`` against the heuristic in every other seat."""


def level_spec(level: str) -> str:
    """A level as the ladder plays it: its own iteration budget, its time cap lifted to the maximum (so the
    machine's load cannot change the games; on an idle core the cap is never reached anyway)."""
    from cardtable.agents.budget import MAX_MS

    return f"{level}:ms={MAX_MS:g},iterations=@{level}" if level in ("hard", "expert") else level


def resolve(spec: str, game: cardtable.Game) -> str:
    """``hard:...,iterations=@hard`` -> the level's iteration budget for this game."""
    if "=@" not in spec:
        return spec
    from cardtable.agents.ismcts import Ismcts

    name, _, _ = spec.partition(":")
    agent = make_agent(name, game)
    assert isinstance(agent, Ismcts) and agent.iterations is not None
    return spec.replace(f"@{name}", str(agent.iterations))


LEVELS = (("easy", "random"), ("normal", "easy"), ("hard", "normal"), ("expert", "hard"))
"""The levels table: each level against the one below."""


def _cell(rows: Sequence[Mapping[str, Any]]) -> str:
    return f"{pct(share(rows))} ({len(rows)})" if rows else "-"


def cmd_table(args: argparse.Namespace) -> None:
    """The README's tables, from the games in ``--out`` (playing the missing ones unless ``--no-play``)."""
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    games = args.only or list(GAMES)

    def run(match: Match) -> list[dict[str, Any]]:
        path = out / f"{match.game}.jsonl"
        if args.no_play:
            found = read_rows(path).get(f"{match.key()} seed={args.seed}", {}) if path.exists() else {}
            return whole_deals(found, match.load().players)
        return run_match(match, args.games, args.seed, args.workers, path, progress=not args.quiet)

    parts = set(args.part or ["two", "multi", "levels"])
    if "two" in parts:
        print(
            f"\n2 players, {args.games} games per pairing (paired deals, seats rotated); win share of the first agent "
            "with its 95% Wilson interval (games):\n"
        )
        print(
            "| game | strong: iterations | it/s (1 core) | s/decision | strong vs heuristic | strong vs random "
            "| ceiling: oracle vs heuristic | heuristic vs random |"
        )
        print("|---|---:|---:|---:|---|---|---|---|")
        for game_id in games:
            game = cardtable.load(game_id, players=2)
            cells = []
            speed_rows: list[dict[str, Any]] = []
            for hero, other in TWO_PLAYER:
                rows = run(Match(game_id, (("players", 2),), (hero, other)))
                if hero == "strong" and other == "heuristic":
                    speed_rows = rows
                cells.append(_cell(rows))
            strong = make_agent("strong", game)
            seconds, iterations = per_decision(speed_rows)
            rate = iterations / seconds if seconds == seconds and seconds else float("nan")
            print(
                f"| {game_id} | {getattr(strong, 'iterations', 0):,} | {rate:,.0f} | {seconds:.2f} | "
                + " | ".join(cells)
                + " |",
                flush=True,
            )
    if "multi" in parts:
        print(f"\nOne strong agent against the heuristic in every other seat, {args.games} games:\n")
        print("| configuration | strong's win share | even share | ratio to the even share |")
        print("|---|---|---:|---:|")
        for game_id, options in MULTIPLAYER:
            if game_id not in games:
                continue
            rows = run(Match(game_id, tuple(sorted(options.items())), ("strong", "heuristic")))
            even = even_share(cardtable.load(game_id, **options))
            ratio = share(rows).estimate / even if rows else float("nan")
            shown = ", ".join(f"{k}={v}" for k, v in options.items())
            print(f"| {game_id} {shown} | {_cell(rows)} | {100 * even:.0f}% | {ratio:.2f}x |", flush=True)
    if "levels" in parts:
        print(f"\nEach level against the one below, 2 players, {args.games} games:\n")
        print("| game | " + " | ".join(f"{a} vs {b}" for a, b in LEVELS) + " |")
        print("|---|" + "---|" * len(LEVELS))
        for game_id in games:
            game = cardtable.load(game_id, players=2)
            cells = []
            for a, b in LEVELS:
                specs = (resolve(level_spec(a), game), resolve(level_spec(b), game))
                cells.append(_cell(run(Match(game_id, (("players", 2),), specs))))
            print(f"| {game_id} | " + " | ".join(cells) + " |", flush=True)


def cmd_timing(args: argparse.Namespace) -> None:
    """How well ``ms=`` is kept: every searched decision of ``SPEC:ms=T`` against the heuristic, in
    every game, timed from the call to the return (wall clock), as a ratio to T."""
    from cardtable.sim.stats import percentile

    print("| game | spec | decisions | mean / T | 95th percentile / T | max / T | within 10% |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for game_id in args.only or GAMES:
        spec = f"{args.spec}:ms={args.ms:g}" if ":" not in args.spec else f"{args.spec},ms={args.ms:g}"
        game = cardtable.load(game_id, players=2)
        ratios: list[float] = []
        deal = 0
        while len(ratios) < args.decisions:
            agents = [make_agent(spec if s == deal % 2 else "heuristic", game, agent_seed(deal, s)) for s in range(2)]
            state = game.new(20_000 + deal, log=False)
            while not state.is_over and len(ratios) < args.decisions:
                seat = state.current_player
                assert seat is not None
                legal = state.legal_actions()
                if len(legal) == 1:
                    state.apply(legal[0])
                    continue
                start = time.perf_counter()
                action = agents[seat].choose(Observation(state, seat))
                if seat == deal % 2:
                    ratios.append((time.perf_counter() - start) * 1000 / args.ms)
                state.apply(action)
            deal += 1
        within = sum(r <= 1.1 for r in ratios) / len(ratios)
        print(
            f"| {game_id} | {spec} | {len(ratios)} | {sum(ratios) / len(ratios):.3f} | {percentile(ratios, 95):.3f} "
            f"| {max(ratios):.3f} | {100 * within:.0f}% |",
            flush=True,
        )
    print(f"\n(wall clock, machine load {os.getloadavg()[0]:.1f} when done)")


def cmd_throughput(args: argparse.Namespace) -> None:
    """The same random-vs-random Mephisto run on 1 worker (in process) and on 2 worker processes."""
    from cardtable.sim.plan import make_plan
    from cardtable.sim.run import run_plan

    print("| simulation | games | workers | seconds | games/s |")
    print("|---|---|---|---|---|")
    plan = make_plan("mephisto", options={"players": 2}, seats="random", games=args.sim_games, seed=1)
    rates = {}
    for workers in (1, 2):
        with tempfile.TemporaryDirectory() as tmp:
            start = time.perf_counter()
            run_plan(plan, Path(tmp), workers=workers, progress=False)
            seconds = time.perf_counter() - start
        rates[workers] = plan.games / seconds
        print(f"| mephisto 2p random vs random | {plan.games:,} | {workers} | {seconds:.1f} | {rates[workers]:,.0f} |")
    print(f"\nscaling 1 -> 2 workers: {rates[2] / rates[1]:.2f}x (meaningful only on an otherwise idle machine)")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("pair", help="one pairing: HERO against OTHERS on paired deals, seats rotated")
    p.add_argument("game")
    p.add_argument("hero")
    p.add_argument("others", nargs="+")
    p.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--first", type=int, default=0, help="the first game's index (whole deals; default 0)")
    p.add_argument("--seed", type=int, default=1000)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--out", type=Path, default=None)
    p.add_argument("--listed", action="store_true", help="agents repeat around the table (teams: strong,heuristic)")
    p.add_argument("--quiet", action="store_true")
    p.set_defaults(run=cmd_pair)
    p = sub.add_parser("speed", help="iterations per second of a search spec (one core)")
    p.add_argument("game")
    p.add_argument("spec")
    p.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--seconds", type=float, default=20.0)
    p.set_defaults(run=cmd_speed)
    p = sub.add_parser("table", help="the README's ladder tables (resumable: --out keeps every game)")
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=1000)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--out", type=Path, default=Path("ladder-results"))
    p.add_argument("--only", action="append", help="only this game (repeatable)")
    p.add_argument("--part", action="append", choices=("two", "multi", "levels"), help="only this table (repeatable)")
    p.add_argument("--no-play", action="store_true", help="print what is in --out, play nothing")
    p.add_argument("--quiet", action="store_true")
    p.set_defaults(run=cmd_table)
    p = sub.add_parser("summary", help="the pairings in result files, with paired differences from a base")
    p.add_argument("files", nargs="+", type=Path)
    p.add_argument("--base", default=None, help="a substring naming the base pairing")
    p.set_defaults(run=cmd_summary)
    p = sub.add_parser("timing", help="how well ms= is kept, in every game")
    p.add_argument("--spec", default="strong")
    p.add_argument("--ms", type=float, default=250.0)
    p.add_argument("--decisions", type=int, default=40)
    p.add_argument("--only", action="append", help="only this game (repeatable)")
    p.set_defaults(run=cmd_timing)
    p = sub.add_parser("throughput", help="simulation games/s on 1 and 2 workers")
    p.add_argument("--sim-games", type=int, default=10_000)
    p.set_defaults(run=cmd_throughput)
    args = parser.parse_args(argv)
    args.run(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
