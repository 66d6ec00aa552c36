"""Screenshots of the web table for the README: ``python scripts/screenshots.py`` → ``docs/screenshots/``.

Starts ``cardtable serve`` on a temporary database, sits at P1 of each game against random bots,
plays a few seeded random decisions in Debian's Chromium (through Playwright, never a downloaded
browser) and saves the table at 1280x800, plus the lobby and a table on a phone-sized screen.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.web.browser import chromium, missing  # noqa: E402
from tests.web.server import Server  # noqa: E402

import cardtable  # noqa: E402

SHOTS: list[tuple[str, str, dict[str, Any], int]] = [
    ("mephisto", "mephisto", {"players": 2}, 12),
    ("mephisto-4-teams", "mephisto", {"players": 4, "teams": True}, 8),
    ("doctor-strange", "doctor-strange", {}, 14),
    ("army-of-darkness", "army-of-darkness", {"players": 4}, 10),
    ("mr-card-game", "mr-card-game", {"players": 3}, 10),
]


def play(page: Any, clicks: int, rng: random.Random) -> None:
    for _ in range(clicks):
        page.wait_for_function(
            "document.querySelector('button.act:not([disabled])') || document.body.dataset.over === 'true'",
            timeout=20000,
        )
        if page.evaluate("document.body.dataset.over") == "true":
            return
        before = int(page.evaluate("document.body.dataset.state"))
        buttons = page.locator("button.act:not([disabled])")
        buttons.nth(rng.randrange(buttons.count())).click()
        page.wait_for_function(f"Number(document.body.dataset.state) > {before}", timeout=20000)
    page.wait_for_timeout(300)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshots"), help="folder for the PNG files")
    parser.add_argument("--seed", type=int, default=4)
    args = parser.parse_args()
    why = missing()
    if why:
        print(f"screenshots: {why}", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(f"sqlite:///{Path(tmp) / 'shots.db'}").start()
        try:
            with chromium() as browser:
                for name, game, options, clicks in SHOTS:
                    if game not in cardtable.available():
                        print(f"skipped {name}: {game} is not in this build")
                        continue
                    players = cardtable.load(game, **options).players
                    table, tokens = server.create(game, ["me"] + ["random"] * (players - 1), **options)
                    page = browser.new_page(viewport={"width": 1280, "height": 800})
                    page.goto(f"{server.base}/table/{table}#seat=0&token={tokens[0]}")
                    play(page, clicks, random.Random(args.seed))
                    page.screenshot(path=str(out / f"{name}.png"))
                    print(f"wrote {out / (name + '.png')}")
                    if name == "mephisto":
                        page.set_viewport_size({"width": 390, "height": 844})
                        page.wait_for_timeout(200)
                        page.screenshot(path=str(out / "phone.png"))
                        print(f"wrote {out / 'phone.png'}")
                    page.close()
                page = browser.new_page(viewport={"width": 1280, "height": 800})
                page.goto(server.base + "/")
                page.wait_for_selector("#seats .seat")
                page.wait_for_selector("#table-list tr")
                page.screenshot(path=str(out / "lobby.png"))
                print(f"wrote {out / 'lobby.png'}")
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
