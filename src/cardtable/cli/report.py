"""``cardtable report FOLDER``: the statistics of a simulation folder (also written after a run)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from cardtable.cli.display import report_for
from cardtable.sim.report import build_report


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "report",
        help="write and summarise the report of a `cardtable simulate` folder",
        description="Read a simulation folder's results (a corrupt line is an error naming its line number), "
        "write report.html (figures embedded), PNG figures, report.json and summary.txt, and print the summary. "
        "A folder holding part of a run, or none of it yet, is reported as exactly that.",
    )
    parser.add_argument("folder", type=Path, help="the folder given to `cardtable simulate --out`")
    parser.add_argument(
        "--no-plots", action="store_true", help="skip the figures (faster; text and tables; no matplotlib)"
    )


def run(args: argparse.Namespace) -> int:
    print(report_for(sys.stdout, build_report(args.folder, plots=not args.no_plots).text))
    print(f"\nreport: {args.folder / 'report.html'}")
    return 0
