#!/usr/bin/env python
"""Regenerate the golden playthroughs in tests/playthroughs/ (one file per game and configuration).

Run it after an intended change of behaviour and review the diff (``git diff tests/playthroughs``);
``tests/test_playthroughs.py`` fails until the files match the code. Covers every game in
``cardtable.available()`` with each of its ``Game.CONFIGURATIONS``, plus the engine's toy game.
Files of games or configurations that no longer exist are removed (unless ``--game`` is given).

    python scripts/regen_playthroughs.py              # all games
    python scripts/regen_playthroughs.py --game toy   # one game
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # for tests.engine.toy

from tests.engine.toy import Toy  # noqa: E402

import cardtable  # noqa: E402
from cardtable.testing.conformance import cases  # noqa: E402
from cardtable.testing.playthrough import file_name, write_all  # noqa: E402

DIRECTORY = ROOT / "tests" / "playthroughs"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", action="append", help="only this game id (repeatable)")
    args = parser.parse_args(argv)
    cardtable.register("toy", Toy)
    ids = args.game or list(dict.fromkeys([*cardtable.available(), "toy"]))
    todo = cases(ids)
    written = write_all(DIRECTORY, todo)
    for path in written:
        print(f"wrote {path.relative_to(ROOT)}")
    if not args.game:
        keep = {file_name(g, o) for g, o in todo}
        for stale in sorted(DIRECTORY.glob("*.txt")):
            if stale.name not in keep:
                stale.unlink()
                print(f"removed {stale.relative_to(ROOT)} (no such game or configuration)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
