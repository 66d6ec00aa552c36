"""Playing at the table page (issue 19), in Debian's Chromium through Playwright.

- forced moves (a decision with one legal action) are taken by the page after the fair pause, only
  they, and never sooner; the setting is per table and seat and can be switched off; the other seats
  get exactly the frames they get when the same moves are clicked;
- inspecting a card (hover, long press) shows it whole and never plays it;
- the last move and what changed since this seat's last decision are marked; cards move unless the
  person or the system asks for no motion;
- the rules are one click away; the log numbers every line (100 and up too); the result lists the
  ranks in order with the reason; a long card name stays on its card on a phone.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.sync.client import connect

import cardtable
from cardtable.web.live import card_of, new_token
from tests.web import browser as browser_mod
from tests.web.pages import (
    SETTLED,
    Wire,
    click_card_action,
    click_something,
    new_page,
    open_seat,
    state,
    wait_past,
    wait_turn_or_end,
)
from tests.web.server import MANY_TABLES, Server, recv_state, write_dealt_table
from tests.web.test_table_ui import live_table

why = browser_mod.missing()
if why:
    pytest.skip(f"browser tests skipped: {why}", allow_module_level=True)

PAUSE = 0.8  # seconds: autopass.js PAUSE_MS
EARLY = 0.05  # what the wire's clock may gain on the page's (the frame passes the wire first)


FINISHED = [f"finished{i}" for i in range(4)]
DEALS: dict[str, tuple[str, dict[str, Any], int, list[str]]] = {
    "forced": ("doctor-strange", {"victory-from": 4}, 51, ["me", "random"]),
    "forcedoff": ("doctor-strange", {}, 52, ["me", "random"]),
    "inspect": ("mephisto", {"players": 2}, 53, ["me", "random"]),
    "lastmove": ("mephisto", {"players": 2}, 54, ["me", "random"]),
    **{f"motion{i}": ("mephisto", {"players": 2}, 55 + i, ["me", "random"]) for i in range(3)},
    # Bot-only tables of three, played from the server's start (the log and the result).
    **{table: ("mephisto", {"players": 3}, 60 + i, ["random"] * 3) for i, table in enumerate(FINISHED)},
}
"""The tables the tests play, by table id: (game, options, seed, seats), written before the server
starts: each test's path (the cards and actions that come up, when the game ends and how) is the
same on every run, and a failure can be replayed."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    db = f"sqlite:///{tmp_path_factory.mktemp('play') / 'tables.db'}"
    s = Server(db, extra=MANY_TABLES)
    for table, (game, options, seed, seats) in DEALS.items():
        s.deal(table, cardtable.load(game, **options), seed, seats)
    s.start()
    yield s
    s.stop()


# -- forced moves ------------------------------------------------------------------------------------
def _frame_before(wire: Wire, when: float) -> tuple[float, dict[str, Any]]:
    frames = [(t, f) for t, f in wire.frames() if t <= when]
    assert frames, "an action before any frame"
    return frames[-1]


def test_forced_moves_are_taken_after_the_pause_and_only_they(server: Server, browser: Any) -> None:
    """Doctor Strange against a bot: every decision of one legal action is taken by the page without
    a click, PAUSE after its frame arrived; no decision with a choice is ever taken without a click;
    and a move clicked at once also leaves only PAUSE after its frame (so a pass at the pause may have
    been forced or quick)."""
    table = "forced"
    tokens = server.dealt[table]
    page = new_page(browser)
    wire = Wire(page)
    open_seat(page, server, table, 0, tokens[0], autopass=True)
    rng = random.Random(11)
    clicked: set[int] = set()
    for _ in range(24):
        if wait_turn_or_end(page) == "over":
            break
        # One look at the page: the state drawn and whether the page is taking it by itself.
        now = page.evaluate("[Number(document.body.dataset.state), document.body.dataset.autopass]")
        if now[1] in ("counting", "taken"):
            wait_past(page, now[0])
            continue
        clicked.add(now[0])
        click_something(page, rng)
    timed = wire.to_server
    sent = [(t, m) for t, m in timed if m.get("type") == "action"]
    assert len(sent) >= 10
    forced = 0
    for t, message in sent:
        arrived, frame = _frame_before(wire, t)
        assert frame["state"] == message["state"], "each action answers the frame just before it"
        assert t - arrived >= PAUSE - EARLY, f"{message['action']!r} left {t - arrived:.3f} s after its frame"
        if len(frame["legal"]) == 1:
            forced += 1
            assert message["state"] not in clicked, "a forced move was waited for, not clicked"
            assert message["action"] == frame["legal"][0]["action"]
        else:
            assert message["state"] in clicked, f"a decision with a choice was taken without a click: {message}"
    assert forced >= 3, "Doctor Strange offers forced passes"
    # Every forced decision of this seat was taken (none left waiting for a click).
    for _, frame in wire.frames():
        if len(frame["legal"]) == 1 and frame["state"] < state(page):
            assert any(m["state"] == frame["state"] for _, m in sent)
    assert page.errors == []
    page.context.close()


def test_forced_moves_can_be_switched_off_for_a_seat(server: Server, browser: Any) -> None:
    """Switched off (the box by the buttons), a forced move waits for its click; the choice is kept
    for that table and seat (a reload keeps it) and another table starts with it on."""
    table = "forcedoff"
    tokens = server.dealt[table]
    page = new_page(browser)
    open_seat(page, server, table, 0, tokens[0], autopass=True)
    assert page.locator("#autopass").is_checked(), "on by default for this seat"
    rng = random.Random(2)
    # Switch it off at a decision with a choice, then play on until a forced decision comes.
    for _ in range(40):
        assert wait_turn_or_end(page) == "turn"
        now = page.evaluate("[Number(document.body.dataset.state), document.body.dataset.autopass]")
        if now[1] in ("counting", "taken"):
            wait_past(page, now[0])
            continue
        page.locator("#autopass").click()
        break
    assert page.evaluate(f"localStorage.getItem('cardtable:autopass:{table}:0')") == "off"
    for _ in range(60):
        assert wait_turn_or_end(page) == "turn"
        if page.locator("#actions button.act").count() == 1 and page.locator("#table-area .playable").count() == 0:
            break
        click_something(page, rng)
    else:
        pytest.fail("no forced decision came")
    waiting = state(page)
    page.wait_for_timeout(int(PAUSE * 2500))
    assert state(page) == waiting, "switched off, a forced move waits for its click"
    assert page.evaluate("document.body.dataset.autopass") == "off"
    page.reload()
    page.wait_for_function(f"{SETTLED} && Number(document.body.dataset.state) === {waiting}")
    assert not page.locator("#autopass").is_checked()
    page.wait_for_timeout(int(PAUSE * 1500))
    assert state(page) == waiting
    page.locator("#actions button.act").click()
    wait_past(page, waiting)
    other, other_tokens = server.create("doctor-strange", ["me", "random"])
    page.goto(f"{server.base}/table/{other}#seat=0&token={other_tokens[0]}")
    page.wait_for_function(SETTLED)
    assert page.locator("#autopass").is_checked(), "another table starts with it on"
    assert page.errors == []
    page.context.close()


def _play_both_seats(
    server: Server, browser: Any, table: str, tokens: dict[int, str], autopass: bool, decisions: int
) -> tuple[list[dict[str, Any]], int]:
    """P1 in the page (the first legal action in text order, clicked; forced ones left to the page
    when ``autopass``), P2 over the wire (always its first legal action). Returns P2's frames and how
    many moves the page took by itself."""
    page = new_page(browser)
    open_seat(page, server, table, 0, tokens[0], autopass=autopass)
    frames: list[dict[str, Any]] = []
    auto = 0
    with connect(server.ws + table) as ws:
        ws.send(json.dumps({"type": "hello", "state": None, "events": None, "token": tokens[1]}))
        frame = recv_state(ws)
        frames.append(frame)
        mine = 0
        while mine < decisions and not frame["view"]["is_over"]:
            if frame["legal"]:
                ws.send(json.dumps({"type": "action", "state": frame["state"], "action": frame["legal"][0]["action"]}))
                frame = recv_state(ws)
                frames.append(frame)
                continue
            live = live_table(server, table)
            page.wait_for_function(f"{SETTLED} && Number(document.body.dataset.state) === {live.version}")
            legal = live.state.legal_actions()
            if autopass and len(legal) == 1:
                auto += 1
            else:
                first = min(legal, key=lambda a: a.text)
                card = card_of(first)
                if card is None:
                    page.locator(f"#actions button.act[data-action='{first.text}']").click()
                else:
                    click_card_action(
                        page, page.locator(f"#table-area .playable[data-card='{card}']").first, first.text
                    )
            mine += 1
            frame = recv_state(ws)
            frames.append(frame)
    page.context.close()
    return frames, auto


def test_the_other_seats_get_the_same_frames_whether_forced_moves_are_clicked_or_taken(
    server: Server, browser: Any
) -> None:
    """Two tables of Doctor Strange with one seed and the same moves: at one the page takes P1's
    forced moves by itself, at the other P1 clicks them. P2 receives the very same frames (views,
    legal actions, events): nothing tells P2 how P1's forced moves were made."""
    seed = 20260117
    # Written while the server runs: a table of people alone needs no bot driven from the start.
    game = cardtable.load("doctor-strange")
    a, b = (f"forced{new_token()[:8]}".replace("-", "x").replace("_", "y") for _ in range(2))
    tokens_a = write_dealt_table(server.db, a, game, seed, new_token(), seats=["me", "me"])
    tokens_b = write_dealt_table(server.db, b, game, seed, new_token(), seats=["me", "me"])
    frames_a, auto = _play_both_seats(server, browser, a, tokens_a, True, 14)
    frames_b, none = _play_both_seats(server, browser, b, tokens_b, False, 14)
    assert auto >= 2 and none == 0

    def seen(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
        keep = ("state", "seat", "view", "legal", "events_from", "events", "undoable", "result")
        return [{k: f[k] for k in keep} for f in frames]

    assert seen(frames_a) == seen(frames_b)


# -- inspecting, marks and motion ----------------------------------------------------------------------
def test_inspecting_a_card_shows_it_whole_and_never_plays_it(server: Server, browser: Any) -> None:
    table = "inspect"
    tokens = server.dealt[table]
    for width, height, touch in ((1280, 800, False), (390, 844, True)):
        page = new_page(browser, width, height, has_touch=touch)
        wire = Wire(page)
        open_seat(page, server, table, 0, tokens[0])
        assert wait_turn_or_end(page) == "turn"
        before = state(page)
        card = page.locator("#dock .card.playable").first
        name = card.get_attribute("data-name")
        if not touch:
            card.hover()
        else:
            card.evaluate("e => e.scrollIntoView({block: 'center'})")
            box = card.bounding_box()
            assert box is not None
            point = {
                "pointerType": "touch",
                "isPrimary": True,
                "clientX": box["x"] + 10,
                "clientY": box["y"] + 10,
                "bubbles": True,
            }
            card.dispatch_event("pointerdown", point)
            page.wait_for_timeout(700)
            card.dispatch_event("pointerup", point)
            card.dispatch_event("click")
        page.wait_for_selector("#inspect:not([hidden])")
        shown = page.locator("#inspect").inner_text()
        assert name in shown
        live = live_table(server, table)
        text = next(c["text"] for c in live.state.view(0)["hand"] if c["name"] == name)
        assert text in shown.replace("\n", " ") if text else True
        page.wait_for_timeout(300)
        assert state(page) == before and wire.actions() == [], "inspecting played nothing"
        assert page.errors == []
        page.context.close()


PLACES_JS = """() => [...document.querySelectorAll('#table-area [data-card]')]
  .filter(n => n.dataset.card !== '').map(n => {
    const parts = [];
    for (let p = n.parentElement; p && p.id !== 'table-area'; p = p.parentElement) {
      if (p.dataset.place) parts.push(p.dataset.place);
    }
    return [n.dataset.card, parts.join('/')];
  })"""
LAST_NAMED_JS = """() => [...document.querySelectorAll('#log li.last .idmark')].map(m => m.title.split(' ')[1])"""


def test_the_last_move_and_what_changed_are_marked(server: Server, browser: Any) -> None:
    """After this seat's decision and the others' moves: the cards that are somewhere else than when
    it decided (or new on the table) are marked as changed, exactly those; the latest move's log
    lines are marked, and so are the cards they name."""
    table = "lastmove"
    tokens = server.dealt[table]
    page = new_page(browser)
    open_seat(page, server, table, 0, tokens[0])
    rng = random.Random(4)
    marked = 0
    lines = 0
    for _ in range(10):
        assert wait_turn_or_end(page) == "turn"
        before = page.evaluate(PLACES_JS)
        click_something(page, rng)
        if wait_turn_or_end(page) == "over":
            break
        after = page.evaluate(PLACES_JS)
        places: dict[str, set[str]] = {}
        for card, place in before:
            places.setdefault(card, set()).add(place)
        # A card drawn where it was not when the seat decided (a card may show in two places).
        expected = {card for card, place in after if place not in places.get(card, set())}
        changed = set(page.eval_on_selector_all("#table-area .changed", "ns => ns.map(n => n.dataset.card)"))
        assert changed == expected
        marked += bool(changed)
        if page.locator("#log li.last").count():
            named = page.evaluate(LAST_NAMED_JS)
            lines += len(named)
            for card in named:
                for node in page.locator(f"#table-area [data-card='{card}']").all():
                    assert "last-move" in (node.get_attribute("class") or "")
    assert marked, "some card moved in ten decisions"
    assert lines, "the latest moves named cards"
    assert page.errors == []
    page.context.close()


MOTION_PROBE = """window.__moves = 0;
const _animate = Element.prototype.animate;
Element.prototype.animate = function (...a) { window.__moves++; return _animate.apply(this, a); };"""


@pytest.mark.parametrize("setting", ["on", "off", "system asks for less motion"])
def test_cards_move_unless_motion_is_off(server: Server, browser: Any, setting: str) -> None:
    table = f"motion{['on', 'off', 'system asks for less motion'].index(setting)}"
    tokens = server.dealt[table]
    page = new_page(browser, reduced_motion="reduce" if setting.startswith("system") else "no-preference")
    page.add_init_script(MOTION_PROBE)
    page.goto(f"{server.base}/")
    if setting != "system asks for less motion":
        page.evaluate(f"localStorage.setItem('cardtable:motion', '{setting}')")
    page.evaluate(f"localStorage.setItem('cardtable:autopass:{table}:0', 'off')")
    page.goto(f"{server.base}/table/{table}#seat=0&token={tokens[0]}")
    rng = random.Random(1)
    # A few moves may move no card on this screen, so motion on plays until a card has moved (or ten
    # moves), the others play five and none may move.
    for _ in range(10 if setting == "on" else 5):
        if wait_turn_or_end(page) == "over":
            break
        click_something(page, rng)
        wait_turn_or_end(page)
        if setting == "on" and page.evaluate("window.__moves"):
            break
    moves = page.evaluate("window.__moves")
    if setting == "on":
        assert moves > 0
    else:
        assert moves == 0
    page.locator("#settings-button").click()
    assert page.locator("#set-motion").is_checked() == (setting == "on")
    page.context.close()


# -- rules, log, result, names -------------------------------------------------------------------------
def test_the_rules_are_one_click_away_clause_by_clause(server: Server, browser: Any) -> None:
    table, tokens = server.create("mephisto", ["me", "random"], players=2)
    page = new_page(browser)
    open_seat(page, server, table, 0, tokens[0])
    page.locator("#rules-button").click()
    page.wait_for_selector("#rules-panel .clause")
    assert page.locator("#rules-panel [data-clause='M8.2']").count() == 1
    assert "test_" not in page.locator("#rules-panel").inner_text(), "no test citations for players"
    page.locator("#rules-panel .rules-search").fill("favor")
    shown = [c for c in page.locator("#rules-panel .clause").all() if c.is_visible()]
    assert shown and all("favor" in c.inner_text().lower() for c in shown)
    page.locator("#rules-close").click()
    assert page.locator("#rules-panel").is_hidden()
    rules = new_page(browser)
    rules.goto(f"{server.base}/rules/mr-card-game")
    rules.wait_for_selector(".clause")
    assert "Mr. Card Game" in rules.locator("h2").first.inner_text()
    assert page.errors == [] and rules.errors == []
    page.context.close()
    rules.context.close()


@pytest.fixture(scope="module")
def finished(server: Server) -> list[str]:
    """The bot-only Mephisto tables of three (:data:`FINISHED`), once played to the end (for the log
    and the result). Their deals are fixed, and at least one of them ranks its players out of seat
    order, so that the result's order is tested against ranks that differ from the seats'."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not all(server.get(f"/api/tables/{t}")["is_over"] for t in FINISHED):
        time.sleep(0.3)
    return FINISHED


def test_the_log_numbers_every_line_even_from_100_on(server: Server, browser: Any, finished: list[str]) -> None:
    page = new_page(browser, 390, 844)
    page.goto(f"{server.base}/table/{finished[0]}")
    page.wait_for_function(f"{SETTLED} && document.body.dataset.over === 'true'")
    assert page.locator("#log li").count() >= 120
    for index in (0, 9, 99, 100, page.locator("#log li").count() - 1):
        number = page.locator("#log li .n").nth(index)
        number.scroll_into_view_if_needed()
        assert number.inner_text() == str(index + 1)
        fits = number.evaluate("""n => {
            const r = n.getBoundingClientRect(), l = n.closest('ol').getBoundingClientRect();
            return n.scrollWidth <= n.clientWidth && r.left >= l.left && r.right <= l.right; }""")
        assert fits, f"line {index + 1}'s number is cut"
    page.context.close()


def test_the_result_lists_the_ranks_in_order_with_the_reason(server: Server, browser: Any, finished: list[str]) -> None:
    page = new_page(browser)
    out_of_order = 0
    for table in finished:
        result = server.get(f"/api/tables/{table}")
        page.goto(f"{server.base}/table/{table}")
        page.wait_for_function(f"{SETTLED} && document.body.dataset.over === 'true'")
        ranks = [
            int(r) for r in page.eval_on_selector_all("#result tr[data-rank]", "rs => rs.map(r => r.dataset.rank)")
        ]
        assert ranks == sorted(ranks) and ranks[0] == 1, ranks
        live = live_table(server, table)
        expected = sorted(range(3), key=lambda s: (live.state.result().ranks[s], s))
        if expected != [0, 1, 2]:
            out_of_order += 1
        names = page.eval_on_selector_all("#result tr[data-rank] td:nth-child(2)", "ts => ts.map(t => t.innerText)")
        assert names == [f"P{s + 1}" for s in expected]
        reason = page.locator("#result .reason").inner_text()
        assert "soul points" in reason, reason
        assert page.locator("#record").is_visible()
        assert result["is_over"]
    assert out_of_order, "at least one table's winner was not P1 (so the order is the ranks', not the seats')"
    page.context.close()


def test_a_long_card_name_stays_on_its_card_on_a_phone(server: Server, browser: Any) -> None:
    """'Honeysuckle' spilled out of its card on a phone: a long word breaks inside the card."""
    table, tokens = server.create("mr-card-game", ["me", "random"], players=2)
    page = new_page(browser, 390, 844)
    open_seat(page, server, table, 0, tokens[0])
    spilled = page.evaluate("""async () => {
      const cards = await import('/static/render/cards.js');
      const out = [];
      for (const size of ['', 'mini', 'tile']) {
        for (const title of ['Honeysuckle Hooch', 'Strengthliness', 'Naughty Sorceress, the Frostbound']) {
          const corners = { tl: { v: 3, k: 'meat' }, tr: { v: 1, k: 'power' } };
          const node = cards.face({ title, type: 'booze', tone: 'consumable', size, corners, text: '' }, null);
          document.getElementById('board').append(node);
          const t = node.querySelector('.card-title');
          const card = node.getBoundingClientRect(), box = t.getBoundingClientRect();
          if (t.scrollWidth > t.clientWidth + 1 || box.right > card.right + 1) out.push(size + ':' + title);
          node.remove();
        }
      }
      return out;
    }""")
    assert spilled == []
    page.context.close()
