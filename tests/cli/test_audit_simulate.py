"""`cardtable simulate` and `cardtable report` as a designer uses them: found by an audit of the
playtesting tools (bad output paths, refused resumes, seat names across settings, the summary's words
and numbers)."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest

from cardtable.sim.summary import whole
from tests.cli.conftest import Runner

QUIET = ("--no-progress", "--no-plots", "-j", "1")


def _one_line_error(err: str, *needles: str) -> None:
    assert "Traceback" not in err
    lines = [x for x in err.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].startswith("cardtable: error: "), err
    for needle in needles:
        assert needle in lines[0], (needle, err)


@pytest.mark.parametrize("command", ["simulate", "tune"])
def test_an_output_folder_that_cannot_be_made_is_one_line_naming_it(cli: Runner, tmp_path: Path, command: str) -> None:
    afile = tmp_path / "notes.txt"
    afile.write_text("mine\n")
    extra = (
        ("--vary", "Greataxe.cost=0..1", "--target", "first-player-edge=0", "--budget", "4")
        if command == "tune"
        else ("--games", "2")
    )
    for out, says in ((afile, "is a file, not a folder"), (afile / "sub", "Not a directory")):
        r = cli(command, "mephisto", *extra, "--out", str(out), *QUIET)
        assert r.code == 2
        _one_line_error(r.err, str(out), says)
    assert afile.read_text() == "mine\n"


def test_a_report_that_cannot_be_written_is_one_line(cli: Runner, tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert cli("simulate", "mephisto", "--games", "2", "--out", str(out), "--no-report", *QUIET).code == 0
    (out / "report.html").mkdir()
    r = cli("report", str(out), "--no-plots")
    assert r.code == 2
    _one_line_error(r.err, "cannot write the report", "report.html")


def test_a_refused_resume_says_what_differs_in_the_words_typed(cli: Runner, tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert (
        cli("simulate", "mephisto", "--games", "2", "--seats", "heuristic,random", "--out", str(out), *QUIET).code == 0
    )
    r = cli(
        "simulate", "mephisto", "--games", "3", "--seats", "random", "--card", "Imp.attack=3", "--out", str(out), *QUIET
    )
    assert r.code == 2
    _one_line_error(
        r.err,
        "holds a different run",
        "games: folder has 2, this run has 3",
        "seats: folder has heuristic,random, this run has random",
        "card edits: folder has (none), this run has Imp.attack=3",
    )
    assert "{'" not in r.err and r.err.count("card edits") == 1  # no manifest dumped, each change said once
    r = cli("simulate", "mephisto", "--games", "2", "--grid", "players=2,3", "--out", str(out), *QUIET)
    _one_line_error(r.err, "--grid: folder has (none), this run has players=2,3")


def test_seats_whose_names_differ_between_settings_are_compared_by_position_and_say_so(
    cli: Runner, tmp_path: Path
) -> None:
    # Doctor Strange names its seats Good and Evil; good-seat=P1 and good-seat=P2 swap them, so seat 1
    # is Good in the baseline and Evil in the other setting: "win share of Evil" was half wrong.
    out = tmp_path / "ds"
    argv = ("simulate", "doctor-strange", "--grid", "good-seat=P1,P2", "--games", "4", "--out", str(out), *QUIET)
    r = cli(*argv)
    assert r.code == 0, r.err
    report = json.loads((out / "report.json").read_text())
    assert [s["seat_names"] for s in report["settings"]] == [["Good", "Evil"], ["Evil", "Good"]]
    labels = [row["label"] for row in report["comparisons"][0]["rows"] if row["metric"].startswith("seat:")]
    assert labels == ["win share of P1 (Evil vs Good)", "win share of P2 (Good vs Evil)"]
    assert "win share of P1 (Evil vs Good): " in r.out


def test_one_seat_and_one_game_are_singular(cli: Runner, tmp_path: Path) -> None:
    out = tmp_path / "solo"
    r = cli("simulate", "mephisto", "--players", "1", "--games", "1", "--seats", "random", "--out", str(out), *QUIET)
    assert r.code == 0, r.err
    assert "[default] 1 game, 1 seat" in r.out
    assert "rotate" not in r.out  # one seat: nothing rotates


def test_a_median_halfway_between_two_counts_is_not_rounded_away(cli: Runner, tmp_path: Path) -> None:
    assert [whole(x) for x in (28.5, 29.5, 94.95, 122.25, 2.5, 30.0)] == ["28.5", "29.5", "95", "122", "2.5", "30"]
    out = tmp_path / "run"
    r = cli("simulate", "mephisto", "--games", "4", "--seats", "heuristic,random", "--out", str(out), *QUIET)
    assert r.code == 0, r.err
    lines = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]
    median = statistics.median(x["decisions"] for x in lines)
    assert f"median {whole(median)} decisions" in r.out
    if not float(median).is_integer():
        assert f"median {median:.1f} decisions" in r.out


def test_first_player_is_not_judged_when_no_game_had_a_winner(cli: Runner, tmp_path: Path) -> None:
    # Every game stopped by the decision limit: no winner, a fair share of 0. The verdict read "no clear
    # advantage: the player who decides first wins 0.0% [...] of games against a fair share of 0.0%".
    out = tmp_path / "run"
    r = cli("simulate", "mephisto", "--games", "3", "--max-decisions", "5", "--out", str(out), *QUIET)
    assert r.code == 0, r.err
    line = next(x for x in r.out.splitlines() if x.strip().startswith("First player:"))
    assert "cannot be judged: none of the 3 games had a winner" in line
    assert "fair share of 0.0%" not in r.out and "fair share of 0.0%" not in (out / "report.html").read_text()


def test_figures_keep_their_legends_off_the_axis_labels_and_count_whole_games(cli: Runner, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from cardtable.sim.report import build_report

    out = tmp_path / "run"
    argv = ("simulate", "mephisto", "--games", "4", "--seats", "heuristic,random", "--compare", "Imp.attack=2,30")
    assert cli(*argv, "--out", str(out), "--no-report", "--no-progress", "-j", "1").code == 0
    figs = {f.name: f.figure for f in build_report(out).plots}
    grid = figs["grid.png"]
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(grid)
    # matplotlib leaves these two methods unannotated
    canvas.draw()  # type: ignore[no-untyped-call]
    renderer = canvas.get_renderer()  # type: ignore[no-untyped-call]
    for ax in grid.axes:
        # The slanted setting names pushed the axis label ("setting") down onto the legend.
        label = ax.xaxis.label.get_window_extent(renderer)
        legend = ax.get_legend().get_window_extent(renderer)
        assert legend.y1 <= label.y0, (ax.get_title(), legend, label)
    (scores,) = figs["setting1-scores.png"].axes
    assert all(float(t).is_integer() for t in scores.get_yticks())  # no "2.5 games"
