"""Defects found by playing whole games in Chromium as people do (a play-through audit), each with the
test that showed it: desktop and phone, bots and two people, and the hostile clicks (double clicks,
stale buttons, reloads, two tabs on one seat, malformed messages).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from websockets.sync.client import connect

from tests.web import browser as browser_mod
from tests.web.pages import new_page, open_seat
from tests.web.server import MANY_TABLES, Server, recv_state

why = browser_mod.missing()
if why:
    pytest.skip(f"browser tests skipped: {why}", allow_module_level=True)

PHONE = (390, 844)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = f"sqlite:///{tmp_path_factory.mktemp('audit') / 'tables.db'}"
    s = Server(db, extra=MANY_TABLES).start()
    yield s
    s.stop()
    assert "Traceback" not in s.log(), s.log()[-3000:]


def _visible_unhidden(page: Any, selector: str) -> bool:
    """Whether the middle of ``selector`` is on the screen and is that element (not under another)."""
    return bool(
        page.evaluate(
            """(sel) => {
              const n = document.querySelector(sel);
              if (!n) return false;
              const r = n.getBoundingClientRect();
              const x = r.left + r.width / 2, y = r.top + r.height / 2;
              if (y < 0 || y > innerHeight || x < 0 || x > innerWidth) return false;
              const top = document.elementFromPoint(x, y);
              return top !== null && (top === n || n.contains(top));
            }""",
            selector,
        )
    )


def test_the_result_comes_into_sight_when_the_game_ends_on_a_phone_scrolled_down(server: Server, browser: Any) -> None:
    """On a phone a person scrolls down to the hand; when the last move comes the result (with the
    rematch and the lobby) must not stay above the screen, behind the decision panel stuck on top."""
    table, tokens = server.create("doctor-strange", ["me", "random"], **{"victory-from": 1})
    page = new_page(browser, *PHONE)
    open_seat(page, server, table, 0, tokens[0])  # forced moves off: the page never acts by itself
    rng = random.Random(5)
    bottom = "() => window.scrollTo(0, document.documentElement.scrollHeight)"
    # The seat's moves come from its other tab (the same token); this page only watches them arrive.
    with connect(server.ws + table) as ws:
        ws.send(json.dumps({"type": "hello", "state": None, "events": None, "token": tokens[0]}))
        frame = recv_state(ws)
        for _ in range(400):
            if frame["view"]["is_over"]:
                break
            if frame["legal"]:
                page.wait_for_function(f"Number(document.body.dataset.state) === {frame['state']}")
                page.evaluate(bottom)
                action = rng.choice(frame["legal"])["action"]
                ws.send(json.dumps({"type": "action", "state": frame["state"], "action": action}))
            frame = recv_state(ws, timeout=30)
        assert frame["view"]["is_over"]
    page.wait_for_function("document.body.dataset.over === 'true' && document.body.dataset.settled === 'true'")
    assert _visible_unhidden(page, "#result .headline"), "the winner is out of sight"
    assert _visible_unhidden(page, "#rematch"), "the rematch button is out of sight"
    assert page.errors == []
    page.context.close()


def test_another_players_long_escrow_row_is_drawn_whole_in_its_column(server: Server, browser: Any) -> None:
    """Mr. Card Game with four players on a desktop: each other player's column is a quarter of the
    table, and a row of three items (their display case, or the escrow after AutoSelling all three)
    ran past its edge, the last items cut off in a strip that scrolled sideways."""
    table, tokens = server.create("mr-card-game", ["me"] * 4, players=4)
    frames: dict[int, dict[str, Any]] = {}
    with ExitStack() as stack:
        socks = {seat: stack.enter_context(connect(server.ws + table)) for seat in range(4)}
        for seat, ws in socks.items():
            ws.send(json.dumps({"type": "hello", "state": None, "events": None, "token": tokens[seat]}))
            frames[seat] = recv_state(ws)
        seat = next(s for s, f in frames.items() if f["legal"])
        frame = frames[seat]
        while sells := [i["action"] for i in frame["legal"] if i["action"].startswith("autosell")]:
            socks[seat].send(json.dumps({"type": "action", "state": frame["state"], "action": sells[0]}))
            frame = recv_state(socks[seat])
        assert len(frame["view"]["players"][seat]["escrow"]) == 3
    watcher = (seat + 1) % 4
    page = new_page(browser, 1280, 800)
    open_seat(page, server, table, watcher, tokens[watcher])
    page.wait_for_function(f"Number(document.body.dataset.state) === {frame['state']}")
    cut = page.evaluate(
        """() => [...document.querySelectorAll('.mcg-other')].flatMap((column) => {
          const edge = column.getBoundingClientRect();
          const out = [...column.querySelectorAll('*')].filter((e) => e.scrollWidth > e.clientWidth + 1
            && ['auto', 'scroll', 'hidden'].includes(getComputedStyle(e).overflowX))
            .map((e) => `scrolls sideways: ${e.className}`);
          for (const card of column.querySelectorAll('.card')) {
            const r = card.getBoundingClientRect();
            if (r.right > edge.right + 1) out.push(`past its column: ${card.innerText.replace(/\\s+/g, ' ')}`);
          }
          return out;
        })"""
    )
    assert cut == []
    assert page.locator(".mcg-other .escrow .card").count() == 3
    page.context.close()
