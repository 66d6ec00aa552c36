"""A simulation's text report printed to a terminal breaks its prose between words, under a hanging
indent, at the terminal's width; its tables and everything sent to a file or a pipe stay whole lines."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from cardtable.cli.display import report_for, wrap_report
from cardtable.sim.plan import make_plan
from cardtable.sim.report import build_report
from cardtable.sim.run import run_plan

PROSE = (
    "  First player: no clear advantage: the player who decides first wins 70.0% [48.1, 85.5] of games "
    "against a fair share of 50.0%; with 20 games, a difference smaller than about 21.9 points either way "
    "cannot be told apart from none."
)
TABLE = "  Witch.attack=10 | 20    | +20.0 points (+0.0 points [+0.0, +0.0]) | 34.4 (-0.1 [-0.309, +0.109]) | 50.0%"


def test_prose_breaks_between_words_under_a_hanging_indent() -> None:
    lines = wrap_report(PROSE, 80).split("\n")
    assert len(lines) == 4
    assert all(len(line) <= 80 for line in lines)
    assert lines[0].startswith("  First player: ")
    assert all(line.startswith("    ") and not line.startswith("     ") for line in lines[1:])
    assert " ".join(line.strip() for line in lines) == PROSE.strip()  # every word, none cut
    # A word is never broken, a number with its sign and brackets stays together.
    assert "[48.1, 85.5]" in wrap_report(PROSE, 80).replace("\n    ", " ")


def test_tables_short_lines_and_files_are_left_whole() -> None:
    assert wrap_report(TABLE, 80) == TABLE
    assert wrap_report("  ----------------+-------+------", 10) == "  ----------------+-------+------"
    assert wrap_report("short\n\n  also short", 80) == "short\n\n  also short"
    # A file or a pipe gets the report as written (whole lines, for grep and diff).
    assert report_for(io.StringIO(), PROSE) == PROSE


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_terminal_gets_the_report_wrapped_to_its_width(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("COLUMNS", "72")
    monkeypatch.setenv("LINES", "24")
    plan = make_plan("mephisto", seats="random", games=6, seed=3)
    run_plan(plan, tmp_path, workers=1, progress=False)
    text = build_report(tmp_path, plots=False).text
    assert max(len(line) for line in text.split("\n")) > 72  # the report itself has long lines
    shown = report_for(_Tty(), text)
    assert max(len(line) for line in shown.split("\n") if " | " not in line) <= 72
    assert shown.split() == text.split()  # the same words in the same order
