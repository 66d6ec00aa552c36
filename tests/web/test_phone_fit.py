"""The table fits a phone, and Mr. Card Game's names can all be read (issue 19), in Debian's Chromium.

- At 390x844, for every game and every player count the lobby offers (the ``players`` option's
  range, and Mephisto's 2v2 teams and Mr. Card Game's playmat), in the middle of a game: no drawn
  element reaches past either edge of the screen, no box scrolls sideways (the hand and the seat
  plates wrap instead), and no text is cut with an ellipsis (the header's game name, a plate, a
  card's type band).
- At 1280x800 and at 390x844, every name on Mr. Card Game's map, Tower and quest cards (the
  location, the monster, the item on its other side) is drawn whole: not cut by an ellipsis or a
  line clamp, not broken inside a word, and equal to the name in the view.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import cardtable
from cardtable.games import game_class
from tests.web import browser as browser_mod
from tests.web.fit import BROKEN_WORDS_JS, OVERFLOW_JS
from tests.web.pages import SETTLED, new_page, open_seat, state, wait_turn_or_end
from tests.web.server import Server
from tests.web.test_table_ui import advance, live_table

why = browser_mod.missing()
if why:
    pytest.skip(f"browser tests skipped: {why}", allow_module_level=True)

PHONE = (390, 844)
PLAYMAT: dict[str, Any] = {"players": 3, "playmat": True, "nemesis": True, "bosses": True}
DESKTOP = (1280, 800)


def player_counts(game: str) -> list[int]:
    """The player counts the lobby's form offers for ``game`` (from its ``players`` option)."""
    cls: Any = game_class(game)
    for option in cls.OPTIONS:
        if option.name == "players":
            if option.choices is not None:
                return [int(c) for c in option.choices]
            assert option.min is not None and option.max is not None
            return list(range(option.min, option.max + 1))
    return [2]


def phone_configs() -> list[tuple[str, str, dict[str, Any]]]:
    out: list[tuple[str, str, dict[str, Any]]] = []
    for game in cardtable.games.builtin():
        cls: Any = game_class(game)
        has_players = any(o.name == "players" for o in cls.OPTIONS)
        if not has_players:
            out.append((game, game, {}))
            continue
        for n in player_counts(game):
            out.append((f"{game}-{n}p", game, {"players": n}))
    out.append(("mephisto-4p-teams", "mephisto", {"players": 4, "teams": True}))
    out.append(("mr-card-game-3p-playmat", "mr-card-game", PLAYMAT))
    return out


PHONE_CONFIGS = phone_configs()

MAP_CASES: dict[str, tuple[dict[str, Any], int, int]] = {
    "map": ({"players": 3}, 7, 10),
    "map-later": ({"players": 3}, 4, 16),
    "playmat": (PLAYMAT, 7, 10),
}
"""Mr. Card Game's map looked at: its options, the seed of seat 0's decisions and how many it makes."""


def _deals() -> dict[str, tuple[str, dict[str, Any], int]]:
    """Every table the tests open, by table id: (game, options, seed of the deal). Written before the
    server starts, they are dealt the same on every run: each page is looked at in the same position,
    and a failure can be replayed."""
    out = {f"phone{i}": (game, options, 90 + i) for i, (_, game, options) in enumerate(PHONE_CONFIGS)}
    for i, (case, (options, _, _)) in enumerate(MAP_CASES.items()):
        for width, _ in (DESKTOP, PHONE):  # the same deal on both screens
            out[_map_table(case, width)] = ("mr-card-game", options, 110 + i)
    out["combat"] = ("mr-card-game", {"players": 2, "first-player": "P1"}, 120)
    return out


def _map_table(case: str, width: int) -> str:
    return f"{case.replace('-', '')}{width}"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    # A table per configuration, all left unfinished: more than one client may keep by default.
    db = f"sqlite:///{tmp_path_factory.mktemp('fit') / 'tables.db'}"
    s = Server(db, extra=["--max-tables-per-client", "100"])
    for table, (game, options, seed) in _deals().items():
        if game in cardtable.available():
            s.deal(table, cardtable.load(game, **options), seed)
    s.start()
    yield s
    s.stop()


def open_mid_game(server: Server, browser: Any, table: str, size: tuple[int, int], seed: int, moves: int = 10) -> Any:
    """A page at seat 0 of ``table`` (dealt before the server started), ``moves`` decisions into its
    game (seat 0's chosen at random from ``seed``), settled."""
    tokens = server.dealt[table]
    advance(server, table, tokens[0], moves, seed)
    page = new_page(browser, *size)
    open_seat(page, server, table, 0, tokens[0])
    live = live_table(server, table)
    page.wait_for_function(f"Number(document.body.dataset.state) === {live.version} && {SETTLED}")
    page.live = live
    return page


def test_the_phone_configurations_cover_every_player_count_the_lobby_offers() -> None:
    names = {name for name, _, _ in PHONE_CONFIGS}
    assert {"mephisto-1p", "mephisto-4p", "army-of-darkness-2p", "army-of-darkness-8p", "mr-card-game-5p"} <= names
    assert "doctor-strange" in names or "doctor-strange-2p" in names


@pytest.mark.parametrize("config", [c[0] for c in PHONE_CONFIGS])
def test_a_phone_shows_the_table_without_sideways_overflow_or_cut_text(
    server: Server, browser: Any, config: str
) -> None:
    index = [c[0] for c in PHONE_CONFIGS].index(config)
    page = open_mid_game(server, browser, f"phone{index}", PHONE, seed=index)
    problems = page.evaluate(OVERFLOW_JS)
    assert problems == [], f"{config} on a phone:\n" + "\n".join(problems[:20])
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    # The game's name in the header is whole (it once read "Mr. C…").
    title = page.locator("#title")
    assert title.inner_text() == page.evaluate("document.title").removeprefix("cardtable — ")
    assert page.errors == [] and page.console_errors == []
    page.context.close()


MAP_NAMES_JS = """() => [...document.querySelectorAll(
    '.map-zone .cell-caption, .map-zone .card-title, .map-zone .second-title, ' +
    "[data-zone='tower'] .card-title, [data-zone='quests'] .pile-stack .card-title")]
  .filter((n) => n.getClientRects().length)
  .map((n) => {
    const own = n.cloneNode(true);
    own.querySelectorAll('.second-type').forEach((t) => t.remove());
    return {
      text: own.textContent.replace(/\\u00ad/g, '').trim(),
      cut: n.scrollWidth > n.clientWidth + 1 || n.scrollHeight > n.clientHeight + 1 ||
        getComputedStyle(n).textOverflow === 'ellipsis' && n.scrollWidth > n.clientWidth,
    };
  })"""


ZONE_BOXES_JS = """() => ['map', 'tower', 'quests', 'trainer', 'heap', 'nemesis']
  .map((z) => [z, document.querySelector(`[data-zone='${z}']`)])
  .filter(([z, n]) => n && n.getClientRects().length && !(z !== 'map' && n.closest("[data-zone='map']")))
  .map(([z, n]) => { const r = n.getBoundingClientRect();
    return {zone: z, left: r.left, right: r.right, top: r.top, bottom: r.bottom}; })"""


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1280x800", "390x844"])
@pytest.mark.parametrize("case", list(MAP_CASES))
def test_every_name_on_mr_card_games_map_is_drawn_whole(
    server: Server, browser: Any, case: str, size: tuple[int, int]
) -> None:
    _, seed, moves = MAP_CASES[case]
    page = open_mid_game(server, browser, _map_table(case, size[0]), size, seed, moves)
    view = page.live.state.view(0)
    wanted: set[str] = set()
    for place in list(view["map"]) + list(view.get("nemesis") or []):
        wanted.add(place["location"])
        monster = place.get("monster")
        if isinstance(monster, dict) and monster.get("name"):
            wanted.add(monster["name"])
            if isinstance(monster.get("item_side"), dict):
                wanted.add(monster["item_side"]["name"])
    if view.get("sorceress"):
        wanted.add(view["sorceress"]["name"])
    if view.get("quests"):
        wanted.add(view["quests"][0]["name"])
    names = page.evaluate(MAP_NAMES_JS)
    drawn = {n["text"] for n in names}
    assert wanted <= drawn, f"names not drawn whole: {sorted(wanted - drawn)}"
    assert [n["text"] for n in names if n["cut"]] == [], "names cut on the map"
    # The zones beside the map never lie over it (a squeezed map once ran under the Tower).
    boxes = page.evaluate(ZONE_BOXES_JS)
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            apart = (
                a["right"] <= b["left"] + 1
                or b["right"] <= a["left"] + 1
                or a["bottom"] <= b["top"] + 1
                or b["bottom"] <= a["top"] + 1
            )
            assert apart, f"{a['zone']} and {b['zone']} overlap: {a} {b}"
    where = ".map-zone .cell-caption, .map-zone .card-title, .map-zone .second-title, [data-zone='tower'] .card-title"
    broken = page.evaluate(BROKEN_WORDS_JS, where)
    assert broken == [], f"words broken on the map: {broken}"
    page.context.close()


TUCK_JS = """() => {
  // A weapon with a long attachment tucked under it, in a lane as narrow as a phone's.
  const box = document.createElement('div');
  box.className = 'cards lane-cards';
  box.style.width = '120px';
  box.innerHTML = '<div class="tuck"><div class="card size-mini tone-weapon"><div class="card-band"></div>' +
    '<div class="card-title">Halberd</div></div><div class="tucked"><div class="card strip tone-spell">' +
    '<span class="strip-label">attached</span><span class="card-title">Hellfire Brand of the Endless Night</span>' +
    '<span class="badge b-cost"><b>1</b></span></div></div></div>';
  document.getElementById('board').prepend(box);
  const width = (sel) => box.querySelector(sel).getBoundingClientRect().width;
  const title = box.querySelector('.strip .card-title');
  const out = {tuck: width('.tuck'), card: width('.card.size-mini'), strip: width('.card.strip'),
    cut: title.scrollWidth > title.clientWidth + 1 || title.scrollHeight > title.clientHeight + 1};
  box.remove();
  return out;
}"""


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1280x800", "390x844"])
def test_a_tucked_card_is_no_wider_than_the_card_above_it(server: Server, browser: Any, size: tuple[int, int]) -> None:
    """A long attachment under a weapon once made its lane as wide as the attachment's name and pushed
    it past a phone's edge (Mephisto, 2v2): the tucked strip is the card's width and its name wraps."""
    table, tokens = server.create("mephisto", ["me", "random"], players=2)
    page = new_page(browser, *size)
    open_seat(page, server, table, 0, tokens[0])
    drawn = page.evaluate(TUCK_JS)
    assert drawn["tuck"] <= drawn["card"] + 1, drawn
    assert drawn["strip"] <= drawn["card"] + 1, drawn
    assert not drawn["cut"], drawn
    page.context.close()


WORST_TARGET_JS = """(texts) => {
  // The widest target a combat can list, in every cell: the longest monster name of the card set, the
  // longest element, two-digit numbers and the longest counter-attack the view words.
  const body = document.querySelector("[data-zone='combat'] table[data-zone='targets'] tbody");
  const row = body.rows[0].cloneNode(true);
  [...row.cells].forEach((cell, i) => {
    cell.textContent = texts[i];
    cell.classList.remove('not-beaten');
  });
  body.prepend(row);
  return row.innerText;
}"""


def test_a_combats_targets_fit_a_phone_whatever_their_names(server: Server, browser: Any) -> None:
    """A boss's counter-attack in a sixth column once pushed Mr. Card Game's target table past a phone's
    width (it scrolled sideways): on a phone each target is a line that wraps, so the widest target
    the game can list fits, and every fact of it is still drawn."""
    from cardtable.games.mr_card_game.effects import ELEMENTS, STAT_WORDS

    game: Any = cardtable.load("mr-card-game", players=2)
    monster = max((n for n in game.cards.mname if n), key=len)
    counters = ["none (turned away by the ranged weapon)", "99 of any single type"] + [f"{w} 99" for w in STAT_WORDS]
    texts = [monster, max(ELEMENTS, key=len), "99", "99", "beaten", max(counters, key=len)]
    table = "combat"
    tokens = server.dealt[table]
    page = new_page(browser, *PHONE)
    open_seat(page, server, table, 0, tokens[0])
    wait_turn_or_end(page)
    before = state(page)
    page.locator("button.act[data-action='combat']").click()
    page.wait_for_function(f"Number(document.body.dataset.state) > {before} && {SETTLED}")
    drawn = page.evaluate(WORST_TARGET_JS, texts)
    assert all(t in drawn for t in texts), drawn
    problems = page.evaluate(OVERFLOW_JS)
    assert problems == [], "\n".join(problems[:20])
    assert page.errors == [] and page.console_errors == []
    page.context.close()
