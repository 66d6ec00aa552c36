"""The simulate and report subcommands, through a small argparse harness of their own."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from cardtable.cli import report, simulate
from cardtable.sim.store import ResultsError
from tests.agents.games import playable


def _cli(*argv: str) -> int:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    simulate.add_parser(sub)
    report.add_parser(sub)
    args = parser.parse_args(argv)
    status: int = {"simulate": simulate.run, "report": report.run}[args.command](args)
    return status


def test_simulate_writes_results_and_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    argv = ["simulate", "toy", "--games", "6", "--seats", "ismcts:iterations=8,random", "--seed", "3"]
    assert _cli(*argv, "--out", str(out), "-j", "1", "--records", "--no-progress") == 0
    text = capsys.readouterr().out
    assert "Draw or Play: 6 of 6 games" in text and "First player: " in text
    lines = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]
    assert len(lines) == 6
    keys = {"seed", "options", "seats", "result", "reason", "turns", "decisions", "forced", "cards", "seconds"}
    assert keys <= set(lines[0])
    page = (out / "report.html").read_text()
    assert "data:image/png;base64," in page and "<table>" in page
    assert (out / "setting1-wins.png").read_bytes().startswith(b"\x89PNG")
    report_json = json.loads((out / "report.json").read_text())
    assert report_json["settings"][0]["cards"]  # toy's `play card=N` actions are counted
    # Running it again resumes: nothing is played twice.
    assert _cli(*argv, "--out", str(out), "-j", "1", "--no-progress", "--records", "--no-report") == 0
    assert "6 games were already played, 0 played now" in capsys.readouterr().out


def test_report_command_and_corrupt_results(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    _cli("simulate", "toy", "--games", "4", "--out", str(out), "-j", "1", "--no-progress", "--no-report")
    capsys.readouterr()
    assert _cli("report", str(out), "--no-plots") == 0
    assert "Draw or Play: 4 of 4 games" in capsys.readouterr().out
    assert not list(out.glob("*.png")) and "<img" not in (out / "report.html").read_text()
    with (out / "results.jsonl").open("a") as fh:
        fh.write("not json\n")
    with pytest.raises(ResultsError, match=r"results.jsonl:5: corrupt line"):
        _cli("report", str(out))


def test_grid_over_seats_compares_settings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "grid"
    grid = "seats=ismcts:iterations=8,random;random"
    argv = ["simulate", "toy", "-n", "6", "--grid", grid, "--out", str(out), "-j", "2", "--no-progress", "--no-plots"]
    assert _cli(*argv) == 0
    text = capsys.readouterr().out
    assert "seats=random vs seats=ismcts:iterations=8,random (the same 6 deals, paired" in text
    assert "win share of the 1st listed agent (random vs ismcts:iterations=8)" in text
    # The figures are tested in test_report.py; here the page has the comparison table without them.
    assert "seats=random vs seats=ismcts:iterations=8,random (6 paired games)" in (out / "report.html").read_text()


def test_player_count_sweep_on_a_real_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The issue's example: how long Army of Darkness lasts as players are added (paired seeds)."""
    if playable("army-of-darkness", players=2) is None:
        pytest.skip("army-of-darkness is not playable in this build yet")
    out = tmp_path / "aod"
    argv = ["simulate", "army-of-darkness", "-n", "4", "--grid", "players=2,3", "--out", str(out), "-j", "1"]
    assert _cli(*argv, "--no-plots") == 0
    text = capsys.readouterr().out
    assert "players=3 vs players=2 (the same 4 deals, paired; difference [95% interval]):" in text
    report_json = json.loads((out / "report.json").read_text())
    assert [s["players"] for s in report_json["settings"]] == [2, 3]
    turns = next(r for r in report_json["comparisons"][0]["rows"] if r["metric"] == "turns")
    assert turns["difference"]["n"] == 4
