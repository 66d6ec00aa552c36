"""``cardtable simulate GAME``: play many games between agents and report the statistics.

Results go to a folder (``--out``): ``manifest.json`` (the run's parameters), ``results.jsonl`` (one
line per game), ``records.jsonl`` with ``--records``, and the report (``report.html``, plots,
``report.json``, ``summary.txt``). Running the same command again resumes an interrupted run; a
folder holding a run with other parameters is refused.

``--card EDIT`` plays every game with a card changed; ``--compare CARD.FIELD=V1,V2`` plays the game as
filed and with each value on the same deals and seats, and the report opens with the shifts.

Everything that can fail without playing a game fails first, with one line: a bad option or agent
spec, and (unless ``--no-plots`` or ``--no-report``) a matplotlib that cannot be imported, so no
folder is started that the run could not finish.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from cardtable.cli.common import add_card_edits, add_game_options, card_edits, check_backend, game_options
from cardtable.cli.display import report_for
from cardtable.sim.plan import make_plan, parse_compare, parse_grid
from cardtable.sim.report import build_report, require_plotting
from cardtable.sim.run import default_workers, run_plan


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "simulate",
        help="play many games between agents and report win rates, lengths, scores",
        description="Play GAMES games between agents (seats rotated every game, deals paired across "
        "settings), in parallel, into a resumable folder, then write a report: a summary in words (who wins, "
        "whether moving first helps, how long games last, how they end), per-card statistics per agent, "
        "paired comparisons of the settings, figures and a self-contained HTML page. Agent specs: random, "
        "heuristic, strong[:iterations=N,ms=T,workers=W], ismcts[:iterations=N,ms=T,c=X,rollout=random|heuristic], "
        "and the levels easy, normal, hard, expert (docs/agents.md).",
        epilog="Examples: cardtable simulate mephisto --games 1000 --seats ismcts:iterations=200,heuristic; "
        "cardtable simulate army-of-darkness --grid players=2,4,6 --games 500; "
        "cardtable simulate mephisto --compare 'Witch.attack=8,10' --games 2000",
    )
    parser.add_argument("game", help="game id (see `cardtable games`)")
    parser.add_argument("--games", "-n", type=int, default=100, metavar="N", help="games per setting (default 100)")
    parser.add_argument(
        "--seats",
        default="random",
        metavar="SPECS",
        help="comma-separated agent specs, one per seat or one for all (default random)",
    )
    add_game_options(parser)
    add_card_edits(parser)
    parser.add_argument(
        "--compare",
        action="append",
        default=[],
        metavar="CARD.FIELD=V1,V2",
        help="what if: also play the game with this card field at each value, on the same deals and seats, "
        "and report the shift in every headline figure (repeat for a grid of edits), e.g. 'Witch.attack=10'",
    )
    parser.add_argument(
        "--grid",
        action="append",
        default=[],
        metavar="KEY=V1,V2",
        help="sweep an option (or seats=SPECS;SPECS) over values; repeat for a cross product",
    )
    parser.add_argument("--seed", type=int, default=0, help="game i is dealt from seed+i (default 0)")
    parser.add_argument(
        "--workers", "-j", type=int, default=None, metavar="K", help="worker processes (default: all cores)"
    )
    parser.add_argument("--backend", choices=("local", "ray"), default="local", help="local processes or a Ray cluster")
    parser.add_argument("--address", default=None, help="Ray cluster address (with --backend ray; default: local)")
    parser.add_argument("--out", "-O", type=Path, default=None, metavar="DIR", help="output folder (default sim-GAME)")
    parser.add_argument(
        "--records", action="store_true", help="also keep every game's record, to replay any game action by action"
    )
    parser.add_argument(
        "--max-decisions",
        type=int,
        default=1_000_000,
        metavar="N",
        help="safety stop for a game that never ends (counted as 'decision-limit', truncated)",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--no-report", action="store_true", help="do not write the report at the end")
    parser.add_argument(
        "--no-plots", action="store_true", help="write the report without figures (text and tables; no matplotlib)"
    )


def run(args: argparse.Namespace) -> int:
    check_backend(args)
    plots = not args.no_plots
    if plots and not args.no_report:
        require_plotting()
    plan = make_plan(
        args.game,
        options=game_options(args),
        seats=args.seats,
        games=args.games,
        seed=args.seed,
        grid=parse_grid(args.grid),
        records=args.records,
        max_decisions=args.max_decisions,
        card_edits=card_edits(args),
        compare=parse_compare(args.compare),
    )
    out: Path = args.out if args.out is not None else Path(f"sim-{args.game}")
    workers = args.workers if args.workers is not None else default_workers()
    try:
        summary = run_plan(
            plan,
            out,
            workers=workers,
            backend=args.backend,
            address=args.address,
            progress=not args.no_progress,
        )
    except KeyboardInterrupt:
        print(f"\ninterrupted: every finished game is in {out}; run the same command again to resume")
        return 130
    if summary.already_done:
        print(f"resumed {out}: {summary.already_done} games were already played, {summary.played} played now")
    if summary.repaired:
        print(f"an unfinished last line in {out / 'results.jsonl'} was cut off; that game was played again")
    if not args.no_report:
        print(report_for(sys.stdout, build_report(out, plots=plots, aggregate=summary.aggregate).text))
        print(f"\nreport: {out / 'report.html'}")
    return 0
