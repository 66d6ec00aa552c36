"""The rules for players (cardtable.rulebook): every game's docs/rules/<game>.md, shipped with the package,
clause by clause and without the developers' test citations."""

from __future__ import annotations

import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from cardtable import rulebook as rb
from cardtable.engine.errors import OptionError
from cardtable.games import builtin

ROOT = Path(__file__).resolve().parents[1]


def test_every_builtin_game_ships_its_rules_document() -> None:
    assert sorted(builtin()) == rb.games()
    for game in builtin():
        assert rb.text(game) == (ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("game", sorted(builtin()))
def test_clauses_are_numbered_and_free_of_test_citations(game: str) -> None:
    book = rb.rulebook(game)
    clauses = [c for s in book.sections for c in s.clauses]
    assert len(clauses) >= 25, "every rules document numbers its clauses"
    for clause in clauses:
        assert clause.text, clause.id
        assert not re.search(r"test_\w+\.py", clause.text), (clause.id, clause.text)
        assert not clause.text.rstrip().endswith(("—", ",")), (clause.id, clause.text)
    for section in book.sections:
        assert "::test_" not in section.text


def test_a_clause_is_found_by_its_number_in_any_case_and_a_section_by_its_title() -> None:
    book = rb.rulebook("mephisto")
    clause = book.find("m8.2")
    assert isinstance(clause, rb.Clause) and clause.id == "M8.2" and "lane" in clause.text
    assert clause.section == "M8 Action step"
    section = book.find("M8")
    assert isinstance(section, rb.Section) and section.id == "M8"
    assert [c.id for c in section.clauses][:3] == ["M8.1", "M8.2", "M8.2.1"]
    titled = book.find("solitaire")
    assert isinstance(titled, rb.Section) and titled.id == "M12"
    assert book.find("no such words anywhere") is None
    assert book.find("") is None


def test_citations_are_dropped_but_the_rule_is_kept() -> None:
    words = "Favor never goes above 10. —\n  test_turn.py::test_m5_2_favor; property\n  test_properties.py::test_x"
    assert rb._clause_words(words) == "Favor never goes above 10."
    ds = "Attacks resolve in order.\n  Tests: `test_attack.py::test_ds6_2_all[a-b]`."
    assert rb._clause_words(ds) == "Attacks resolve in order."


def test_an_unknown_game_is_refused_naming_the_known_ones() -> None:
    with pytest.raises(OptionError, match=r"no rules document for game 'chess'.*mephisto"):
        rb.text("chess")


def test_a_built_wheel_carries_the_rules_as_files(tmp_path: Path) -> None:
    """The package holds links to docs/rules; a wheel must hold their text (a user installs no repo)."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(tmp_path),
            str(ROOT),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    (wheel,) = tmp_path.glob("cardtable-*.whl")
    with zipfile.ZipFile(wheel) as zf:
        for game in builtin():
            info = zf.getinfo(f"cardtable/rulebook/{game}.md")
            assert zf.read(info).decode() == rb.text(game)


def test_the_players_edition_leaves_out_the_sections_about_the_software() -> None:
    for game in builtin():
        titles = [s.title for s in rb.rulebook(game).sections]
        assert not [t for t in titles if t.startswith(("Speed", "Heuristic agent", "Terminal", "Agents"))], titles
        assert not [t for t in titles if "protocol" in t.lower()], titles
    assert "## Speed" in rb.text("doctor-strange")  # the whole document keeps them
    assert rb.rulebook("mephisto").find("M8") is not None
    assert rb.rulebook("mephisto").clause("P6") is None  # a clause of "P Protocol (project)"
