"""Screenshots of the web table for the README: ``python scripts/screenshots.py`` -> ``docs/screenshots/``.

Starts ``cardtable serve`` on a temporary database, sits at P1 of each game against random bots,
plays seeded random decisions over the wire until the table is in the middle of a game, opens it in
Debian's Chromium (through Playwright, never a downloaded browser) and saves it on a desktop
(1280x800, ``<name>.png``) and on a phone (390x844, ``<name>-phone.png``), plus the lobby.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.web.browser import chromium, missing  # noqa: E402
from tests.web.pages import open_seat  # noqa: E402
from tests.web.server import Server  # noqa: E402
from tests.web.test_table_ui import advance  # noqa: E402

import cardtable  # noqa: E402

# (file name, game, options, own decisions made before the picture, seed of those decisions)
SHOTS: list[tuple[str, str, dict[str, Any], int, int]] = [
    ("mephisto", "mephisto", {"players": 2}, 14, 4),
    ("mephisto-4-teams", "mephisto", {"players": 4, "teams": True}, 10, 4),
    ("doctor-strange", "doctor-strange", {}, 16, 4),
    ("army-of-darkness", "army-of-darkness", {"players": 4}, 10, 4),
    ("mr-card-game", "mr-card-game", {"players": 3}, 16, 4),
]
DESKTOP = (1280, 800)
PHONE = (390, 844)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshots"), help="folder for the PNG files")
    parser.add_argument("--only", default="", help="comma-separated file names to make (default: all)")
    args = parser.parse_args()
    why = missing()
    if why:
        print(f"screenshots: {why}", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    only = {n for n in args.only.split(",") if n}
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(f"sqlite:///{Path(tmp) / 'shots.db'}").start()
        try:
            with chromium() as browser:
                for name, game, options, moves, seed in SHOTS:
                    if only and name not in only:
                        continue
                    if game not in cardtable.available():
                        print(f"skipped {name}: {game} is not in this build")
                        continue
                    players = cardtable.load(game, **options).players
                    table, tokens = server.create(game, ["me"] + ["random"] * (players - 1), **options)
                    advance(server, table, tokens[0], moves, seed)
                    for suffix, (width, height) in (("", DESKTOP), ("-phone", PHONE)):
                        context = browser.new_context(viewport={"width": width, "height": height})
                        page = context.new_page()
                        open_seat(page, server, table, 0, tokens[0])
                        page.mouse.move(0, 0)
                        page.wait_for_timeout(200)
                        path = out / f"{name}{suffix}.png"
                        page.screenshot(path=str(path))
                        print(f"wrote {path}")
                        context.close()
                if not only or "lobby" in only:
                    page = browser.new_page(viewport={"width": DESKTOP[0], "height": DESKTOP[1]})
                    page.goto(server.base + "/")
                    page.wait_for_selector("#seats .seat")
                    page.wait_for_selector("#table-list tr")
                    page.screenshot(path=str(out / "lobby.png"))
                    print(f"wrote {out / 'lobby.png'}")
                    page.close()
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
