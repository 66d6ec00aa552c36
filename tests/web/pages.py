"""Helpers that drive the table page the way a person does (clicks only), reliably.

The page marks its state on ``<body>``: ``data-state`` (the state id drawn), ``data-settled`` ("true"
once the latest frame is drawn and its cards have stopped moving), ``data-mine`` ("true" while this
seat has a decision to make), ``data-over``. A helper clicks only a settled page, so no click lands
on a node being replaced (the "element is not stable" flake).
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Callable
from typing import Any

from tests.web.server import Server

SETTLED = "document.body.dataset.settled === 'true'"
MINE_OR_OVER = (
    "document.body.dataset.settled === 'true' && "
    "(document.body.dataset.mine === 'true' || document.body.dataset.over === 'true')"
)
# Every playable thing a person can click: buttons that name no card, and highlighted cards, seats
# and lanes on the table (the hand is docked under the table).
CLICKABLE = "#actions button.act:not([disabled]), #table-area .playable"


def new_page(browser: Any, width: int = 1280, height: int = 800, **context: Any) -> Any:
    ctx = browser.new_context(viewport={"width": width, "height": height}, **context)
    page = ctx.new_page()
    errors: list[str] = []
    console: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    # The server's content security policy must let the page do all it does: a refusal is an error.
    page.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None)
    page.errors = errors  # the page's own exceptions
    page.console_errors = console  # also failed loads, refused sockets
    return page


def state(page: Any) -> int:
    return int(page.evaluate("document.body.dataset.state ?? '-1'"))


def open_seat(
    page: Any, server: Server, table: str, seat: int, token: str, autopass: bool = False, motion: bool = False
) -> None:
    """Open a seat's link with the settings as asked (a person's saved choices): forced moves taken by
    themselves or not, cards moving or not (off by default here: nothing to wait for)."""
    page.goto(f"{server.base}/")  # the lobby: localStorage is per origin
    page.evaluate(
        "([k, v, m]) => { localStorage.setItem(k, v); localStorage.setItem('cardtable:motion', m); }",
        [f"cardtable:autopass:{table}:{seat}", "on" if autopass else "off", "on" if motion else "off"],
    )
    page.goto(f"{server.base}/table/{table}#seat={seat}&token={token}")
    page.wait_for_function("document.body.dataset.state !== undefined && document.body.dataset.settled === 'true'")


def wait_turn_or_end(page: Any, timeout: float = 20.0) -> str:
    page.wait_for_function(MINE_OR_OVER, timeout=timeout * 1000)
    return "over" if page.evaluate("document.body.dataset.over") == "true" else "turn"


def wait_past(page: Any, before: int, timeout: float = 20.0) -> None:
    page.wait_for_function(f"Number(document.body.dataset.state) > {before}", timeout=timeout * 1000)


def click_card_action(page: Any, node: Any, action: str | None, rng: random.Random | None = None) -> str | None:
    """Click a playable card (or seat, lane); in its menu pick ``action`` (or a random item).

    Returns the action chosen in a menu (None when the click itself played the card's one action)."""
    node.evaluate("e => e.scrollIntoView({block: 'center', inline: 'center'})")
    node.click()
    menu = page.locator(".card-menu button")
    if not menu.count():
        return None
    if action is None:
        assert rng is not None
        choice = menu.nth(rng.randrange(menu.count()))
    else:
        choice = page.locator(f".card-menu button[data-action='{action}']")
    chosen: str | None = choice.get_attribute("data-action")
    choice.click()
    return chosen


def click_something(page: Any, rng: random.Random, card_share: float = 0.5) -> None:
    """Take a legal action the way a person would: a highlighted card (seat, lane) or a button."""
    page.wait_for_function(SETTLED)
    before = state(page)
    cards = page.locator("#table-area .playable")
    buttons = page.locator("#actions button.act:not([disabled])")
    if cards.count() and (not buttons.count() or rng.random() < card_share):
        click_card_action(page, cards.nth(rng.randrange(cards.count())), None, rng)
    else:
        buttons.nth(rng.randrange(buttons.count())).click()
    wait_past(page, before)


class Wire:
    """The page's WebSocket, routed through the test (Playwright's ``route_web_socket``): every message
    both ways is recorded with the time it passed; with ``hold`` set, the page's actions are kept
    from the server (recorded only), and the server is asked to send the table again, so the page
    returns to the same decision: the test hands the page the table's last frame again (the page
    redraws it, as after a reconnect)."""

    def __init__(self, page: Any) -> None:
        self.to_server: list[tuple[float, dict[str, Any]]] = []
        self.to_page: list[tuple[float, dict[str, Any]]] = []
        self.hold = False
        self.last_state: str | None = None
        self.lock = threading.Lock()
        page.route_web_socket("**/ws/**", self._route)

    def _route(self, ws: Any) -> None:
        server = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            data = json.loads(message)
            with self.lock:
                self.to_server.append((time.monotonic(), data))
            if self.hold and data.get("type") == "action" and self.last_state is not None:
                ws.send(self.last_state)
                return
            server.send(message)

        def from_server(message: str | bytes) -> None:
            data = json.loads(message)
            with self.lock:
                self.to_page.append((time.monotonic(), data))
                if data.get("type") == "state":
                    self.last_state = message if isinstance(message, str) else message.decode()
            ws.send(message)

        ws.on_message(from_page)
        server.on_message(from_server)

    def actions(self) -> list[dict[str, Any]]:
        with self.lock:
            return [m for _, m in self.to_server if m.get("type") == "action"]

    def frames(self) -> list[tuple[float, dict[str, Any]]]:
        with self.lock:
            return [(t, m) for t, m in self.to_page if m.get("type") == "state"]

    def sent_after(self, count: int, predicate: Callable[[dict[str, Any]], bool] | None = None) -> list[dict[str, Any]]:
        return [m for m in self.actions()[count:] if predicate is None or predicate(m)]
