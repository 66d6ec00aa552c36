"""Defects found by playing whole games in Chromium as people do (a play-through audit), each with the
test that showed it: desktop and phone, bots and two people, and the hostile clicks (double clicks,
stale buttons, reloads, two tabs on one seat, malformed messages).
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from websockets.sync.client import connect

import cardtable
from tests.web import browser as browser_mod
from tests.web.pages import click_card_action, click_something, new_page, open_seat
from tests.web.server import MANY_TABLES, Server, recv_state

why = browser_mod.missing()
if why:
    pytest.skip(f"browser tests skipped: {why}", allow_module_level=True)

PHONE = (390, 844)
MINE = "document.body.dataset.settled === 'true' && document.body.dataset.mine === 'true'"

DEALS: dict[str, tuple[str, dict[str, Any], int, list[str]]] = {
    "resultinsight": ("doctor-strange", {"victory-from": 1}, 31, ["me", "random"]),
    "escrowrow": ("mr-card-game", {"players": 4}, 32, ["me"] * 4),
    "hellotoken": ("mephisto", {"players": 2}, 33, ["me", "random"]),
    "hellonone": ("mephisto", {"players": 2}, 34, ["me", "random"]),
    "stale": ("mephisto", {"players": 2}, 35, ["me", "random"]),
    "nobodywins": ("mr-card-game", {"turn-limit": 1}, 36, ["random", "random"]),
    "somebodywins": ("doctor-strange", {"victory-from": 1}, 37, ["random", "random"]),
}
"""The tables the tests play, by table id: (game, options, seed, seats), written before the server
starts: each test's path (the cards and actions that come up, when the game ends and how) is the
same on every run, and a failure can be replayed."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = f"sqlite:///{tmp_path_factory.mktemp('audit') / 'tables.db'}"
    s = Server(db, extra=MANY_TABLES)
    for table, (game, options, seed, seats) in DEALS.items():
        if game in cardtable.available():
            s.deal(table, cardtable.load(game, **options), seed, seats)
    s.start()
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
    table = "resultinsight"
    tokens = server.dealt[table]
    page = new_page(browser, *PHONE)
    open_seat(page, server, table, 0, tokens[0])  # forced moves off: the page never acts by itself
    rng = random.Random(5)
    bottom = "() => window.scrollTo(0, document.documentElement.scrollHeight)"
    # The seat's moves come from its other tab (the same token); this page only watches them arrive.
    with connect(server.ws + table) as ws:
        ws.send(json.dumps({"type": "hello", "state": None, "events": None, "token": tokens[0]}))
        frame = recv_state(ws)
        # Frames until the game ends: a deal may take more than a few hundred (400 fell short about once
        # in ten random deals); the game's own turn limit bounds it well inside this.
        for _ in range(10_000):
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
    table = "escrowrow"
    tokens = server.dealt[table]
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


class Socket:
    """The page's WebSocket routed through the test: ``inject`` sends the server a message as if the
    page had sent it (what a person typing into the console of the page can do); every message to
    the page is recorded."""

    def __init__(self, page: Any) -> None:
        self.server: Any = None
        self.to_page: list[dict[str, Any]] = []
        page.route_web_socket("**/ws/**", self._route)

    def _route(self, ws: Any) -> None:
        server = ws.connect_to_server()
        self.server = server

        def from_server(message: str | bytes) -> None:
            self.to_page.append(json.loads(message))
            ws.send(message)

        ws.on_message(lambda message: server.send(message))
        server.on_message(from_server)

    def inject(self, text: str) -> None:
        self.server.send(text)


@pytest.mark.parametrize("token", ["not-a-token-of-this-table", None])
def test_a_hello_sent_from_the_console_does_not_unseat_the_page(
    server: Server, browser: Any, token: str | None
) -> None:
    """A hello with another token (refused) or with none (a spectator's) sent down the page's socket
    from outside the page: the page gave up its own good token and watched, its decision gone, until
    reloaded. It must stay seated, able to act."""
    table = "hellotoken" if token else "hellonone"
    tokens = server.dealt[table]
    page = new_page(browser)
    sock = Socket(page)
    open_seat(page, server, table, 0, tokens[0])
    page.wait_for_function(MINE)
    before = int(page.evaluate("document.body.dataset.state"))
    sock.inject(json.dumps({"type": "hello", "state": None, "events": None, "token": token}))
    page.wait_for_timeout(1500)  # the answers to the injected hello, and to the page's own check
    assert page.locator("#who").inner_text() == "you are P1"
    page.wait_for_function(MINE)
    assert page.locator("#watching").count() == 0 or not page.locator("#watching").is_visible()
    click_something(page, random.Random(1))
    assert int(page.evaluate("document.body.dataset.state")) > before, "the page's move was played"
    assert page.errors == []


def test_a_seat_left_in_another_tab_still_turns_the_page_into_a_watcher(server: Server, browser: Any) -> None:
    """The other side of the check above: a token the server really refuses (the seat was left) makes
    the page watch and say why."""
    table, tokens = server.create("mephisto", ["me", "random"], players=2)
    page = new_page(browser)
    open_seat(page, server, table, 0, tokens[0])
    page.wait_for_function(MINE)
    server.post(f"/api/tables/{table}/leave", {"token": tokens[0]})
    page.locator("#watching").wait_for(state="visible")
    assert "no longer works" in page.locator("#watching").inner_text()
    page.wait_for_function("document.body.dataset.mine === 'false'")
    assert page.locator("#who").inner_text() == "watching"
    assert page.errors == []


def test_a_click_that_arrives_after_the_table_moved_on_says_so_in_words(server: Server, browser: Any) -> None:
    """The same seat open in two tabs: a move made in one while the other's click is on its way. The
    click changes nothing, and the page says why in words, not in state ids ("your state id is 5 but
    the table is at 6 (duplicate or stale)")."""
    table = "stale"
    tokens = server.dealt[table]
    page = new_page(browser)
    held: list[str | bytes] = []
    sent: list[str | bytes] = []
    hold = {"on": False}
    socket: dict[str, Any] = {}

    def route(ws: Any) -> None:
        server_side = ws.connect_to_server()
        socket["page"] = ws

        def to_server(message: str | bytes) -> None:
            sent.append(message)
            server_side.send(message)

        ws.on_message(to_server)
        server_side.on_message(lambda message: held.append(message) if hold["on"] else ws.send(message))

    page.route_web_socket("**/ws/**", route)
    open_seat(page, server, table, 0, tokens[0])
    page.wait_for_function(MINE)
    before = int(page.evaluate("document.body.dataset.state"))
    with connect(server.ws + table) as ws:  # the other tab
        ws.send(json.dumps({"type": "hello", "state": None, "events": None, "token": tokens[0]}))
        frame = recv_state(ws)
        assert frame["state"] == before and frame["legal"]
        hold["on"] = True  # the other tab's move has not reached this page when it is clicked
        # A card played: the decision stays with this seat (no bot moves after the refusal).
        texts = [item["action"] for item in frame["legal"]]
        action = next((t for t in texts if t.startswith("play ")), texts[0])
        ws.send(json.dumps({"type": "action", "state": before, "action": action}))
        recv_state(ws)
    buttons = page.locator("#actions button.act:not([disabled])")
    if buttons.count():
        buttons.first.click()
    else:  # every choice of this deal is a card on the table: click one, as a person would
        click_card_action(page, page.locator("#table-area .playable").first, None, random.Random(0))
    # The click leaves after the page's fair pause; only once it has left may the other tab's move
    # reach the page (which would otherwise cancel the click before it is sent).
    deadline = time.monotonic() + 20
    while not any('"action"' in str(m) for m in sent):
        assert time.monotonic() < deadline, "the click was never sent"
        page.wait_for_timeout(50)
    hold["on"] = False
    for message in held:
        socket["page"].send(message)
    page.wait_for_function(
        f"Number(document.body.dataset.state) > {before} && document.body.dataset.settled === 'true'"
    )
    toast = page.locator("#toast")
    toast.wait_for(state="visible")
    assert "moved on before your click" in toast.inner_text()
    assert "state id" not in toast.inner_text()
    assert page.errors == []


def _finished(server: Server, table: str) -> str:
    """``table`` (bots only, played since the server started), once it is over."""
    game = DEALS[table][0]
    deadline = time.monotonic() + 60
    while not server.get(f"/api/tables/{table}")["is_over"]:
        assert time.monotonic() < deadline, f"{game} did not finish"
        time.sleep(0.2)
    return table


def test_ranks_of_a_game_nobody_won_say_what_they_mean(server: Server, browser: Any) -> None:
    """Mr. Card Game stopped at its round limit: "Nobody wins", and the ranks under it (the game's
    standings) are said to be how far each got, so that "1st" does not read as a win; a game with a
    winner carries no such note, and its reason does not repeat the headline."""
    page = new_page(browser, 1280, 800)
    undecided = _finished(server, "nobodywins")
    page.goto(f"{server.base}/table/{undecided}")
    page.wait_for_function("document.body.dataset.over === 'true' && document.body.dataset.settled === 'true'")
    assert page.locator("#result .headline").inner_text() == "Nobody wins"
    assert page.locator("#result .ranks-note").inner_text() == "Nobody won: the ranks say how far each player got."
    won = _finished(server, "somebodywins")
    page.goto(f"{server.base}/table/{won}")
    page.wait_for_function("document.body.dataset.over === 'true' && document.body.dataset.settled === 'true'")
    headline = page.locator("#result .headline").inner_text()
    assert headline in ("Good wins", "Evil wins")
    assert page.locator("#result .ranks-note").count() == 0
    # The reason under the headline does not say the headline again ("...: Evil wins").
    reason = page.locator("#result .reason").inner_text()
    assert " had no viable character at 2 checks in a row" in reason and headline not in reason, reason
    page.context.close()
