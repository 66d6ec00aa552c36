"""``cardtable tune GAME``: search card numbers (and options) for the setting closest to target figures.

``--vary CARD.FIELD=LO..HI`` (or ``=V1,V2,...``, or ``OPTION=...``) spans the settings; ``--target
METRIC=VALUE[±TOL]`` says what to aim at; ``--budget`` caps the games. The search (see
:mod:`cardtable.sim.tune`) plays every setting on the same deals, lets Optuna propose settings and
adds games to the promising ones, and writes its folder (``--out``, default ``tune-GAME``): the games,
the settings tried, and a report (``summary.txt``, ``report.html``, ``search.png``, ``report.json``)
with the best setting, its figures and intervals, and the exact ``--card`` line to try. Running the
same command again resumes it; a larger ``--budget`` continues it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from cardtable.cli.common import add_card_edits, add_game_options, card_edits, check_backend, game_options
from cardtable.cli.display import report_for
from cardtable.engine.card_edits import canonical_edits
from cardtable.sim.report import require_plotting
from cardtable.sim.run import default_workers
from cardtable.sim.tune import TuneError, Tuner, TuneSpec, parse_target, parse_vary
from cardtable.sim.tune_report import describe_metrics, write_report

INSTALL = "pip install 'optuna>=4,<6'"


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "tune",
        help="search card numbers (and options) for the setting closest to target figures",
        description="Search the settings that --vary spans for the one whose figures come closest to the --target "
        "values, within --budget games: every setting on the same deals (common random numbers), Optuna's TPE "
        "sampler proposing settings, and games added to the settings that could still be the best. The report gives "
        "the best setting with its figures and 95% intervals, a verdict per target (met only when the whole interval "
        "lies within the tolerance), the settings the games cannot tell from it, the exact --card line to try, and a "
        "plot of the search. Run the same command again to resume; raise --budget to continue. Metrics: "
        + describe_metrics()
        + ".",
        epilog="Example: cardtable tune mephisto --vary 'Greataxe.cost=0..3' --vary 'Witch.attack=8..14' "
        "--target first-player-edge=0 --budget 20000",
    )
    parser.add_argument("game", help="game id (see `cardtable games`)")
    parser.add_argument(
        "--vary",
        action="append",
        default=[],
        required=True,
        metavar="NAME=LO..HI",
        help="a card field (CARD.FIELD) or a game option, and its values: LO..HI (whole numbers) or V1,V2,... "
        "(repeat for more axes)",
    )
    parser.add_argument(
        "--target",
        action="append",
        default=[],
        required=True,
        metavar="METRIC=VALUE",
        help="a figure to aim at, with an optional tolerance: first-player-edge=0, length-turns=30±2, "
        "win-share:heuristic=50%%, end:turn-limit=0.05 (repeatable); default tolerance 2 points for shares, "
        "5%% of the target for lengths",
    )
    parser.add_argument("--budget", type=int, default=20000, metavar="GAMES", help="most games to play (default 20000)")
    parser.add_argument(
        "--seats", default="random", metavar="SPECS", help="agent specs, as for simulate (default random)"
    )
    add_game_options(parser)
    add_card_edits(parser)
    parser.add_argument("--seed", type=int, default=0, help="game i of every setting is dealt from seed+i (default 0)")
    parser.add_argument(
        "--workers", "-j", type=int, default=None, metavar="K", help="worker processes (default: all cores)"
    )
    parser.add_argument("--backend", choices=("local", "ray"), default="local", help="local processes or a Ray cluster")
    parser.add_argument("--address", default=None, help="Ray cluster address (with --backend ray)")
    parser.add_argument("--out", "-O", type=Path, default=None, metavar="DIR", help="output folder (default tune-GAME)")
    parser.add_argument(
        "--first-games",
        type=int,
        default=None,
        metavar="N",
        help="games in a new setting's first batch (default: a hundredth of the first run's budget, 20 to 200)",
    )
    parser.add_argument(
        "--max-decisions", type=int, default=1_000_000, metavar="N", help="safety stop for a game that never ends"
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--no-plots", action="store_true", help="no plot of the search (no matplotlib)")


def run(args: argparse.Namespace) -> int:
    check_backend(args)
    try:
        import optuna  # noqa: F401
    except ImportError:
        raise TuneError(f"cardtable tune needs optuna, which cannot be imported; install it with `{INSTALL}`") from None
    if not args.no_plots:
        require_plotting()
    spec = TuneSpec(
        game=args.game,
        options=game_options(args),
        seats=args.seats,
        card_edits=canonical_edits(args.game, card_edits(args)),
        axes=parse_vary(args.vary),
        targets=tuple(parse_target(t) for t in args.target),
        seed=args.seed,
        max_decisions=args.max_decisions,
        first=args.first_games,
    )
    if len({t.metric for t in spec.targets}) != len(spec.targets):
        raise TuneError("a --target metric is given twice")
    out: Path = args.out if args.out is not None else Path(f"tune-{args.game}")
    tuner = Tuner(
        spec,
        out,
        args.budget,
        workers=args.workers if args.workers is not None else default_workers(),
        backend=args.backend,
        address=args.address,
        progress=not args.no_progress,
    )
    try:
        result = tuner.run()
    except KeyboardInterrupt:
        print(f"\ninterrupted: every finished game is in {out}; run the same command again to resume")
        return 130
    print(report_for(sys.stdout, write_report(result, out, plots=not args.no_plots)))
    print(f"\nreport: {out / 'report.html'}")
    return 0
