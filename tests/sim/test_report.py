"""The report a designer reads: summary in words, named comparisons, figures, the HTML page."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from cardtable.sim import plots
from cardtable.sim.analysis import analyze, setting_stats
from cardtable.sim.page import render_html
from cardtable.sim.plan import make_plan, parse_grid
from cardtable.sim.report import Report, build_report
from cardtable.sim.run import run_plan
from cardtable.sim.summary import GameInfo, first_player_sentence, game_info, num, options_text, summary_text


def _line(index: int, wins: list[float], first: int = 0, **kw: Any) -> dict[str, Any]:
    line = {
        "setting": 0,
        "index": index,
        "seed": index,
        "seats": ["A", "B"],
        "agents": [0, 1],
        "first": first,
        "decisions": 10,
        "forced": 1,
        "turns": 5,
        "reason": "deck-exhausted",
        "wins": wins,
        "result": {"scores": wins, "details": {}},
        "cards": [{}, {}],
    }
    line.update(kw)
    return line


@pytest.fixture(scope="module")
def grid_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Report]:
    """A small real run: Mephisto at 2 and 4 players, heuristic against random, without --records."""
    folder = tmp_path_factory.mktemp("grid")
    plan = make_plan("mephisto", seats="heuristic,random", games=6, seed=3, grid=parse_grid(["players=2,4"]))
    run_plan(plan, folder, workers=1, progress=False)
    return folder, build_report(folder)


def test_first_player_verdict_in_plain_words() -> None:
    # The first player wins 80 of 100 two-player games: a clear advantage of 30 points over a fair 50%.
    strong = setting_stats([_line(i, [1.0, 0.0] if i < 80 else [0.0, 1.0]) for i in range(100)])
    text = first_player_sentence(strong)
    assert text is not None and text.startswith("an advantage")
    assert "wins 80.0% [71.1, 86.7] of games against a fair share of 50.0%" in text
    assert "30.0 percentage points more often" in text
    # 52 of 100: no clear advantage, and how small a difference could hide in the noise.
    even = setting_stats([_line(i, [1.0, 0.0] if i < 52 else [0.0, 1.0]) for i in range(100)])
    text = first_player_sentence(even)
    assert text is not None and text.startswith("no clear advantage") and "cannot be told apart" in text
    weak = setting_stats([_line(i, [1.0, 0.0] if i < 20 else [0.0, 1.0]) for i in range(100)])
    assert (first_player_sentence(weak) or "").startswith("a disadvantage")
    # One seat always decided first: the sentence says which.
    assert "(P1 in every game)" in (first_player_sentence(even) or "")


def test_options_read_as_a_list_of_what_changed() -> None:
    info = GameInfo("Game", {"players": ("number of players", 2), "teams": ("team play", False)})
    assert options_text({"players": 4, "teams": False}, info) == "players 4; every other option at its default"
    assert options_text({"players": 2, "teams": False}, info) == "all at their defaults"
    assert options_text({"players": 2, "teams": True}, info) == "teams yes; every other option at its default"
    assert game_info("mephisto").options["players"][0].startswith("number of players")


def test_numbers_carry_the_precision_their_interval_allows() -> None:
    assert num({"estimate": 10.1, "low": -0.209, "high": 20.5, "n": 4}, sign=True) == "+10.1 [-0.2, +20.5]"
    assert num({"estimate": 0.12, "low": 0.0631, "high": 0.177, "n": 4}) == "0.120 [0.063, 0.177]"
    assert num({"estimate": 3.0, "low": None, "high": None, "n": 1}) == "3 [-inf, inf]"


def test_a_chart_of_one_thing_is_not_drawn() -> None:
    """A single bar (one seat, one end reason, one card, one game length) is left to the text."""
    solo = setting_stats([_line(i, [1.0], seats=["A"], agents=[0], first=0) for i in range(5)])
    assert plots.wins_plot(solo, "s", "s") is None
    assert plots.outcomes_plot(solo, "s", "s") is None  # a single end reason, no details
    assert plots.length_plot(solo, "s", "s") is None  # every game 5 turns, 10 decisions
    assert plots.scores_plot(solo, "s", "s") is None
    one_card = setting_stats(
        [_line(i, [1.0, 0.0] if i % 2 else [0.0, 1.0], cards=[{"played": {"Imp": 1}}, {}]) for i in range(6)]
    )
    assert plots.cards_plot(one_card, "A", "s", "s") is None


def test_every_figure_has_labelled_axes_a_legend_and_a_caption(grid_run: tuple[Path, Report]) -> None:
    folder, report = grid_run
    figs = report.plots
    names = {f.name for f in figs}
    assert {"grid.png", "setting1-wins.png", "setting1-length.png", "setting2-wins.png"} <= names
    # Per-card figures need no --records. At 2 players the heuristic wins every game against random, so
    # no card can make a difference and none is drawn; at 4 players the two heuristics share the wins.
    assert "setting2-cards-heuristic.png" in names and not any(n.startswith("setting1-cards-") for n in names)
    for fig in figs:
        assert fig.caption and fig.title and fig.png.startswith(b"\x89PNG")
        assert (folder / fig.name).read_bytes().startswith(b"\x89PNG")
        for ax in fig.figure.axes:
            assert ax.get_xlabel(), f"{fig.name}: an axis without a label"
            assert ax.get_ylabel() or [t.get_text() for t in ax.get_yticklabels() if t.get_text()], fig.name
            assert ax.get_legend() is not None, f"{fig.name}: a plot without a legend"
            assert ax.get_title(), fig.name


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.links: list[str] = []
        self.tags: list[str] = []
        self.srcs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        d = dict(attrs)
        if d.get("id"):
            self.ids.append(str(d["id"]))
        if tag == "a" and d.get("href"):
            self.links.append(str(d["href"]))
        if d.get("src"):
            self.srcs.append(str(d["src"]))


def test_the_page_is_a_self_contained_report(grid_run: tuple[Path, Report]) -> None:
    folder, report = grid_run
    page = (folder / "report.html").read_text()
    parsed = _Page()
    parsed.feed(page)
    # A table of contents whose every link lands on a section of the page.
    assert "Contents" in page and parsed.links
    assert all(link.startswith("#") and link[1:] in parsed.ids for link in parsed.links)
    # The summary in words comes first, then the comparison, then each setting.
    order = [page.index(x) for x in ('id="summary"', 'id="grid"', 'id="setting1"', 'id="setting2"', 'id="method"')]
    assert order == sorted(order)
    # Every figure is embedded with a numbered caption; nothing is fetched from elsewhere.
    pngs = list(folder.glob("*.png"))
    assert parsed.tags.count("img") == parsed.tags.count("figcaption") == len(pngs) == len(report.plots)
    assert all(src.startswith("data:image/png;base64,") for src in parsed.srcs)
    assert re.findall(r"Figure (\d+)\.", page) == [str(k) for k in range(1, len(pngs) + 1)]
    # Styled tables with header rows; options as rows of a table, never a dict dump.
    assert "<style>" in page and parsed.tags.count("thead") == parsed.tags.count("table")
    assert re.search(r"<td>players</td><td[^>]*>4</td><td[^>]*>2</td>", page)
    assert '{"players"' not in page and "{&quot;" not in page
    # Comparisons are named by their settings; seats by P1..Pn.
    assert "players=4 vs players=2 (6 paired games)" in page
    assert "<td>P4</td>" in page and "seat 1" not in page
    # Per-card statistics without --records, per agent.
    assert "Cards heuristic played" in page and "Cards random played" in page
    assert "heuristic won every game it played, so no card can show a difference" in page


def test_seats_are_named_as_the_game_names_them(tmp_path: Path) -> None:
    plan = make_plan("doctor-strange", seats="random", games=4, seed=1)
    run_plan(plan, tmp_path, workers=1, progress=False)
    report = build_report(tmp_path, plots=False)
    a, text = report.analysis, report.text
    assert a["settings"][0]["seat_names"] == ["Evil", "Good"]
    assert "Win share per seat: Evil " in text and ", Good " in text
    page = (tmp_path / "report.html").read_text()
    assert "<td>Evil</td>" in page and "<td>P1</td>" not in page


def test_summary_text_of_a_grid(grid_run: tuple[Path, Report]) -> None:
    folder, report = grid_run
    text = (folder / "summary.txt").read_text()
    assert text.startswith("Mephisto: 12 of 12 games, run seed 3\nComplete: all 12 planned games.")
    assert "players=4 vs players=2 (the same 6 deals, paired; difference [95% interval]):" in text
    assert "  turns per game: " in text and "win share of heuristic" in text
    assert "First player: " in text and "Length: median " in text and "How games end: deck exhausted" in text
    assert summary_text(report.analysis, game_info("mephisto")) + "\n" == text == report.text + "\n"


def test_an_empty_or_partial_folder_is_described_as_it_is() -> None:
    manifest = {"game": "toy", "games": 4, "seed": 0, "settings": [{"label": "default", "options": {}, "seats": ["A"]}]}
    empty = analyze(manifest, [])
    text = summary_text(empty)
    assert "0 of 4 games" in text and "No game has finished in this folder yet" in text
    assert "run the same `cardtable simulate` command again" in text
    assert "No game has finished" in render_html(empty, [])
    part = analyze(manifest, [_line(i, [1.0, 0.0], seats=["A", "A"]) for i in range(3)])
    text = summary_text(part)
    assert "Incomplete run: 3 of 4 planned games are in this folder" in text
    assert "The statistics cover these games only" in render_html(part, [])


def test_scores_that_only_repeat_the_win_shares_are_not_drawn() -> None:
    """Doctor Strange scores a game 1 for the winner and 0 for the loser: a histogram of that is the win share."""
    lines = [_line(i, [1.0, 0.0] if i % 3 else [0.0, 1.0]) for i in range(9)]
    assert plots.scores_plot(setting_stats(lines), "s", "s") is None
    spread = [_line(i, [1.0, 0.0], result={"scores": [float(i), float(9 - i)], "details": {}}) for i in range(9)]
    assert plots.scores_plot(setting_stats(spread), "s", "s") is not None
