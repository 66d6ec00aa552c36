"""The table page as players see it (issue 19), in Debian's Chromium through Playwright.

For every game and one configuration per variant, at 1280x800 and at 390x844, on a table in the
middle of a game:

- the card faces show no raw field name (``notes EPO``, ``kind mus1``, ``count 2``: any ``key value``
  of the card objects of the view) and no card id outside the small id marks;
- headings are in sentence case, no card title spills out of its card, no prompt shows backticks;
- the page never scrolls sideways; on a desktop the page does not scroll at all, and Mr. Card Game's
  decision-relevant zones are all within the first screen;
- every legal action that names a card is made by clicking that card (and, where several actions name
  it, the item of its menu): the page's message to the server is checked on the wire.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

import cardtable
from cardtable.web.live import LiveTable, card_of
from cardtable.web.storage import Storage
from tests.web import browser as browser_mod
from tests.web.fit import OVERFLOW_JS as FIT_JS
from tests.web.pages import SETTLED, Wire, click_card_action, new_page, open_seat, state
from tests.web.server import MANY_TABLES, Server, recv_state, write_dealt_table

why = browser_mod.missing()
if why:
    pytest.skip(f"browser tests skipped: {why}", allow_module_level=True)

ALL_SUPPLEMENTS: dict[str, Any] = {
    "players": 3,
    "nemesis": True,
    "bosses": True,
    "hardcore": "all",
    "mr-store": True,
    "classes": "boards",
    "class-trainer": True,
    "playmat": True,
}
# One configuration per variant, with how many of its own decisions the seat makes (randomly, over
# the wire) before the page is looked at: the middle of a game, with cards on the table.
CONFIGS: list[tuple[str, str, dict[str, Any], int]] = [
    ("mephisto-1p", "mephisto", {"players": 1}, 10),
    ("mephisto-2p", "mephisto", {"players": 2}, 12),
    ("mephisto-2p-care-bear", "mephisto", {"players": 2, "variant": "care-bear"}, 12),
    ("mephisto-3p", "mephisto", {"players": 3}, 10),
    ("mephisto-4p", "mephisto", {"players": 4}, 10),
    ("mephisto-4p-teams", "mephisto", {"players": 4, "teams": True}, 10),
    ("doctor-strange", "doctor-strange", {}, 14),
    ("army-of-darkness-2p", "army-of-darkness", {"players": 2}, 10),
    ("army-of-darkness-4p", "army-of-darkness", {"players": 4}, 8),
    ("mr-card-game-2p", "mr-card-game", {"players": 2}, 14),
    ("mr-card-game-all-supplements", "mr-card-game", ALL_SUPPLEMENTS, 14),
]
SIZES = [(1280, 800), (390, 844)]
# Words of the issue's own examples that must never be on a card face.
RAW_EXAMPLES = ["notes EPO", "kind mus1", "empty no", "state viable", "lane lane", "Id:", "Type:"]


def live_table(server: Server, table: str) -> LiveTable:
    storage = Storage(server.db)
    try:
        row = storage.table(table)
        assert row is not None
        return LiveTable(row, storage.seats(table), storage.moves(table))
    finally:
        storage.close()


def advance(server: Server, table: str, token: str, moves: int, seed: int) -> None:
    """Play ``moves`` random decisions of seat 0 over the wire (the bots answer), and stop at a
    decision of seat 0 if the game goes on."""
    rng = random.Random(seed)
    with connect(server.ws + table) as ws:
        ws.send(json.dumps({"type": "hello", "state": None, "events": None, "token": token}))
        frame = recv_state(ws)
        made = 0
        while not frame["view"]["is_over"]:
            if frame["legal"]:
                if made >= moves:
                    return
                action = rng.choice(frame["legal"])["action"]
                ws.send(json.dumps({"type": "action", "state": frame["state"], "action": action}))
                made += 1
            frame = recv_state(ws, timeout=30)


def _config_table(index: int) -> str:
    """The table id of configuration ``index`` of :data:`CONFIGS`."""
    return f"config{index}"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The server, started with a table per configuration dealt from a fixed seed (the page is looked
    at in the same position on every run, and a failure can be replayed)."""
    db = f"sqlite:///{tmp_path_factory.mktemp('ui') / 'tables.db'}"
    s = Server(db, extra=MANY_TABLES)
    for index, (_, game, options, _) in enumerate(CONFIGS):
        if game in cardtable.available():
            s.deal(_config_table(index), cardtable.load(game, **options), 80 + index)
    s.start()
    yield s
    s.stop()


@pytest.fixture(scope="module")
def tables(server: Server) -> dict[str, tuple[str, str]]:
    """Tables in mid-game by configuration (id, seat 0's token), made when first asked for and kept
    for both screen sizes."""
    return {}


def table_for(server: Server, tables: dict[str, tuple[str, str]], name: str) -> tuple[str, str]:
    if name not in tables:
        index = [c[0] for c in CONFIGS].index(name)
        moves = CONFIGS[index][3]
        table = _config_table(index)
        tokens = server.dealt[table]
        advance(server, table, tokens[0], moves, seed=index)
        tables[name] = (table, tokens[0])
    return tables[name]


def _card_objects(value: Any) -> Iterator[dict[str, Any]]:
    """Every card-like record of a view (a dict with a name and a type)."""
    if isinstance(value, dict):
        if isinstance(value.get("name"), str) and "type" in value:
            yield value
        for v in value.values():
            yield from _card_objects(v)
    elif isinstance(value, list):
        for v in value:
            yield from _card_objects(v)


def _raw_chips(view: dict[str, Any]) -> set[str]:
    """``key value`` as a generic renderer would have written each scalar field of each card."""
    out: set[str] = set()
    for card in _card_objects(view):
        for key, value in card.items():
            if key in ("name", "text") or isinstance(value, (dict, list)) or value in (None, ""):
                continue
            shown = {True: "yes", False: "no"}.get(value, str(value)) if isinstance(value, bool) else str(value)
            out.add(f"{key.replace('_', ' ')} {shown}")
            out.add(f"{key.replace('_', ' ')}: {shown}")
    return out


FACES_JS = """() => [...document.querySelectorAll('#table-area .card, #aside .card')].map(card => {
  const copy = card.cloneNode(true);
  copy.querySelectorAll('.card-id, .card-text').forEach(n => n.remove());
  const text = card.querySelector(':scope > .card-text');
  return {face: copy.innerText.replace(/\\u00ad/g, ''), text: text ? text.innerText : '', id: card.dataset.card || ''};
})"""

OVERFLOW_JS = """() => [...document.querySelectorAll('#table-area .card-title')]
  .filter(t => t.getClientRects().length && t.scrollWidth > t.clientWidth + 1)
  .map(t => t.innerText)"""

MARKS_JS = """() => { const hit = (a, b) => a.width && b.width && a.left < b.right - 1 && b.left < a.right - 1 &&
    a.top < b.bottom - 1 && b.top < a.bottom - 1;
  return [...document.querySelectorAll('#table-area .card > .card-id')].flatMap((m) => {
    const r = m.getBoundingClientRect();
    const near = [...m.parentElement.querySelectorAll(
      ':scope > .card-foot .badge, :scope > .tokens > *, :scope > .card-title, :scope > .card-text, ' +
      ':scope > .card-second')];
    return near.filter((n) => hit(r, n.getBoundingClientRect()))
      .map((n) => `${m.parentElement.dataset.name}: ${m.textContent} on ${n.textContent.trim()}`); }); }"""
HEADINGS_JS = """() => [...document.querySelectorAll(
    '#table-area .zone-title, #table-area .plate-name, #table-area .cell-caption')]
  .map(h => ({text: h.innerText, transform: getComputedStyle(h).textTransform}))"""


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("config", [c[0] for c in CONFIGS])
def test_a_table_in_the_middle_of_a_game_reads_like_a_card_table(
    server: Server, browser: Any, tables: dict[str, tuple[str, str]], config: str, size: tuple[int, int]
) -> None:
    table, token = table_for(server, tables, config)
    width, height = size
    page = new_page(browser, width, height)
    wire = Wire(page)
    open_seat(page, server, table, 0, token)
    live = live_table(server, table)
    page.wait_for_function(f"Number(document.body.dataset.state) === {live.version} && {SETTLED}")
    view = live.state.view(0)

    # Card faces: words and numbers for people, no field names, no ids but the small marks.
    faces = page.evaluate(FACES_JS)
    assert faces, "the table shows cards"
    raw = _raw_chips(view)
    for face in faces:
        text = face["face"]
        assert not re.search(r"\bcard \d+", text + " " + face["text"]), f"an id on a card face: {text!r}"
        assert not re.search(r"#\d+", text), f"an id outside the id mark: {text!r}"
        for chip in raw:
            assert chip not in text, f"the raw field {chip!r} on the card {text!r}"
        for example in RAW_EXAMPLES:
            assert example not in text
    assert not page.evaluate(OVERFLOW_JS), "a card title spills out of its card"
    # A card's id mark never lies on its numbers, its tokens, its name or its words.
    assert page.evaluate(MARKS_JS) == [], "an id mark on a card's numbers, tokens, name or words"
    for heading in page.evaluate(HEADINGS_JS):
        assert heading["transform"] == "none", heading
        assert "'S " not in heading["text"], heading
    prompt = page.locator("#prompt").inner_text()
    assert "`" not in prompt
    assert not re.search(r"\(card \d+", prompt), f"an id in words in the prompt: {prompt!r}"  # a small #N mark

    # The page never scrolls sideways; on a desktop it does not scroll at all.
    fits = page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    assert fits, (
        f"the page scrolls sideways (table {table}, seed {live.seed}, state {live.version}; a new deal each run):\n"
        + "\n".join(p for p in page.evaluate(FIT_JS) if p.startswith("past the edge"))
    )
    if width >= 1000:
        assert page.evaluate("document.documentElement.scrollHeight <= window.innerHeight + 1")
    if width >= 1000 and view["game"] == "mr-card-game":
        _mr_card_game_on_one_screen(page, view)

    # Every legal action naming a card: clicking the card (and its menu item) sends exactly it.
    actions = [(a.text, card_of(a)) for a in live.state.legal_actions()]
    wire.hold = True
    for text, card in actions:
        if card is None:
            continue
        node = page.locator(f"#table-area .playable[data-card='{card}']").first
        assert node.count(), f"{text}: card {card} is not clickable on the table"
        before = len(wire.actions())
        chosen = click_card_action(page, node, text)
        assert chosen in (None, text)
        page.wait_for_function(f"{SETTLED} && document.body.dataset.mine === 'true'")
        page.wait_for_timeout(50)
        sent = wire.actions()[before:]
        assert [m["action"] for m in sent] == [text], f"clicking card {card} sent {sent}, not {text!r}"
    assert state(page) == live.version, "nothing was played"
    assert page.errors == [] and page.console_errors == []
    page.context.close()


def _mr_card_game_on_one_screen(page: Any, view: dict[str, Any]) -> None:
    """The zones a Mr. Card Game decision is about are all in sight at once, without scrolling."""
    zones = [
        "[data-zone='map']",
        "[data-zone='trainer']",
        "[data-zone='heap']",
        "[data-zone='tower']",
        "[data-zone='hand']",
    ]
    if view.get("quests") is not None:
        zones.append("[data-zone='quests']")
    if view.get("nemesis") is not None and not view.get("layout"):
        zones.append("[data-zone='nemesis']")
    zones.append(".mcg-dock .display, .mcg-dock .plate")
    for selector in zones:
        box = page.locator(selector).first.bounding_box()
        assert box is not None, f"{selector} is not drawn"
        assert box["y"] >= 0 and box["y"] + box["height"] <= 800 + 1, (
            f"{selector} is not within the first screen: {box}"
        )
        assert box["x"] >= 0 and box["x"] + box["width"] <= 1280 + 1, f"{selector} is not within the screen: {box}"
    # Nothing inside the table's own box is scrolled out of sight either (a deal taller than the box
    # tightens first: test_a_table_taller_than_its_box...), once its layout has settled (on a loaded
    # machine the first measure can catch the board mid-layout: waited for, up to 3 s).
    sizes = BOARD_SIZES
    try:
        page.wait_for_function(f"(() => {{ const [h, box] = {sizes}; return h <= box + 2; }})()", timeout=3000)
    except Exception as exc:  # Playwright's timeout: say what was measured
        height, box = page.evaluate(sizes)
        raise AssertionError(f"the board scrolls inside its box: content {height} px, box {box} px") from exc


# A deal whose map and plates are taller than a 1280x800 table's box before it tightens (CI found it:
# the board scrolled by 3 px): the table seed, then seat 0's decisions (random.Random(20), 9 of them),
# the random bots answering from the table seed.
TALL_DEAL = (1182041647231036754, 20, 9)
TIGHT_HEIGHT = 780
"""A screen 20 px shorter than CI's: this deal needs tightening there whatever the browser's fonts (at
1280x800 it ran over by only 3 px, so another browser may fit it untightened)."""
FIT_STEPS = 4  # render/cards.js FIT_STEPS
CAPTIONS_JS = """() => [...document.querySelectorAll('.map-cell[data-location]')].filter((c) => c.dataset.location)
  .map((c) => { const n = c.querySelector('.cell-caption');
    return {location: c.dataset.location, text: n.textContent,
            cut: n.scrollWidth > n.clientWidth + 1 || n.scrollHeight > n.clientHeight + 1}; })"""
TRAINER_TITLES_JS = """() => [...document.querySelectorAll("[data-zone='trainer'] .card-title")]
  .map((t) => ({text: t.textContent, cut: t.scrollHeight > t.clientHeight + 1 || t.scrollWidth > t.clientWidth + 1}))"""
BOARD_SIZES = "(() => { const b = document.getElementById('board'); return [b.scrollHeight, b.clientHeight]; })()"


def test_a_table_taller_than_its_box_tightens_before_it_scrolls_and_loosens_when_there_is_room(
    browser: Any, tmp_path: Path
) -> None:
    """On a desktop the table gives up the least first (the map's heading; the gaps around the map's
    spaces and a little of its names' line height; the trainer's cards' cut-short rules text), never a
    name, until it fits its box; with room to spare it gives up nothing, and a window made smaller or
    larger tightens or loosens it again. (The table is written to the database before its server
    starts, as a restart finds it: the bots' seats are driven from the start.)"""
    with _tall_deal_page(browser, tmp_path) as page:
        _tightens_and_loosens(page)


@contextmanager
def _tall_deal_page(browser: Any, tmp_path: Path) -> Iterator[Any]:
    """A 1280x800 page of seat 0 at :data:`TALL_DEAL` (every supplement in play), its server stopped after."""
    seed, decisions_seed, decisions = TALL_DEAL
    db = f"sqlite:///{tmp_path / 'tables.db'}"
    write_dealt_table(db, "talldeal01", cardtable.load("mr-card-game", **ALL_SUPPLEMENTS), seed, "tall-deal-seat-0")
    server = Server(db).start()
    try:
        advance(server, "talldeal01", "tall-deal-seat-0", decisions, seed=decisions_seed)
        page = new_page(browser, 1280, 800)
        open_seat(page, server, "talldeal01", 0, "tall-deal-seat-0")
        yield page
    finally:
        server.stop()


OWN_ROW_JS = """(() => {
  const row = document.querySelector('.mcg-dock .own-cards');
  const box = row.getBoundingClientRect();
  const cards = [...row.querySelectorAll('.card')].map((c) => c.getBoundingClientRect());
  return {strips: row.classList.contains('as-strips'), cards: cards.length,
    sideways: row.scrollWidth > row.clientWidth + 1,
    outside: cards.filter((r) => r.left < box.left - 1 || r.right > box.right + 1 || r.bottom > box.bottom + 1).length};
})()"""


def test_your_own_cards_too_many_for_their_row_are_drawn_as_strips_in_sight(browser: Any, tmp_path: Path) -> None:
    """Every supplement in play puts a class board, a display case, skills and Mr. Store items under
    your hand: on a 1280-pixel desktop they do not fit one row of tiles, whose right end used to scroll
    out of sight. They are drawn as one-line strips that wrap in place (as the other players' cards
    are), every one inside the row; on a screen wide enough for the tiles they stay tiles, on one too
    short for the strips too they go back to tiles, and a window resized switches between them."""
    with _tall_deal_page(browser, tmp_path) as page:
        narrow = page.evaluate(OWN_ROW_JS)
        assert narrow["cards"] >= 6, narrow  # class, display case, skills, the Mr. Store items
        assert narrow["strips"] and not narrow["sideways"] and narrow["outside"] == 0, narrow
        _board_fits(page, "1280x800 with strips")
        page.set_viewport_size({"width": 2400, "height": 1000})
        page.wait_for_function("!document.querySelector('.mcg-dock .own-cards').classList.contains('as-strips')")
        wide = page.evaluate(OWN_ROW_JS)
        assert not wide["sideways"] and wide["outside"] == 0 and wide["cards"] == narrow["cards"], wide
        page.set_viewport_size({"width": 1280, "height": 800})
        page.wait_for_function("document.querySelector('.mcg-dock .own-cards').classList.contains('as-strips')")
        # Strips cost height: only a table that still fits its box keeps them. Shorter and shorter, the
        # row stays strips while the board fits, and goes back to its one line of tiles where strips
        # would leave the board running past its box (here at 700 px, tightened or not).
        for height in (780, 740, 700):
            page.set_viewport_size({"width": 1280, "height": height})
            page.wait_for_timeout(300)  # the resize's refit waits 100 ms
            row = page.evaluate(OWN_ROW_JS)
            if row["strips"]:
                _board_fits(page, f"1280x{height} with strips")
        assert not row["strips"], "strips kept on a table they push past its box"


def _tightens_and_loosens(page: Any) -> None:
    fit = "document.getElementById('board').dataset.fit ?? null"
    fits = f"(() => {{ const [h, box] = {BOARD_SIZES}; return h <= box + 1; }})()"
    # At 1280x800, where CI saw this deal scroll by 3 px, it does not: tightened as far as it must be (or
    # not at all, where a browser's fonts leave it the room).
    _board_fits(page, "1280x800")
    # 20 px less: untightened this deal runs past its box by about 23 px, whatever the fonts, so the
    # table must tighten, and it fits again (here at the second step, with 20 px to spare).
    page.set_viewport_size({"width": 1280, "height": TIGHT_HEIGHT})
    page.wait_for_function(f"({fit}) !== null && {fits}", timeout=5000)
    assert page.locator(".mr-card-game [data-zone='map'] > .zone-title").is_hidden()
    # Nothing a decision needs went: every location's name is on its space, whole, at the step taken and
    # at the last one (set by hand here: this deal needs fewer).
    for steps in (page.evaluate(fit), " ".join(str(i + 1) for i in range(FIT_STEPS))):
        page.evaluate(f"document.getElementById('board').dataset.fit = '{steps}'")
        names = page.evaluate(CAPTIONS_JS)
        assert names, "no location names drawn"
        for name in names:
            assert name["text"] == name["location"] and not name["cut"], (steps, name)
        titles = page.evaluate(TRAINER_TITLES_JS)
        assert titles, "no trainer's cards drawn"
        assert [t for t in titles if t["cut"]] == [], (steps, "a trainer's card name is cut", titles)
    # Room to spare: nothing is given up.
    page.set_viewport_size({"width": 1280, "height": 1000})
    page.wait_for_function(f"({fit}) === null", timeout=5000)
    assert page.locator(".mr-card-game [data-zone='map'] > .zone-title").is_visible()
    _board_fits(page, "1280x1000")
    # Smaller again: tightened again.
    page.set_viewport_size({"width": 1280, "height": TIGHT_HEIGHT})
    page.wait_for_function(f"({fit}) !== null", timeout=5000)
    _board_fits(page, f"1280x{TIGHT_HEIGHT} again")
    page.context.close()


def _board_fits(page: Any, where: str) -> None:
    height, box = page.evaluate(BOARD_SIZES)
    assert height <= box + 1, f"{where}: the board scrolls inside its box: content {height} px, box {box} px"
