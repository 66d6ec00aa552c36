"""docs/rules/mr-card-game.md stays in step with the tests it cites: every test of the game is
named there (that every cited test exists is tests/test_rules_docs.py's check, for every game)."""

from __future__ import annotations

import re
from pathlib import Path

HERE = Path(__file__).parent
DOC = HERE.parents[1] / "docs" / "rules" / "mr-card-game.md"


def test_every_test_of_the_game_is_listed() -> None:
    doc = DOC.read_text()
    cited = set(re.findall(r"(test_\w+\.py)::(test_\w+)", doc))
    present = {
        (f.name, name) for f in HERE.glob("test_*.py") for name in re.findall(r"^def (test_\w+)", f.read_text(), re.M)
    }
    own = {(f.name, n) for f in (Path(__file__),) for n in re.findall(r"^def (test_\w+)", f.read_text(), re.M)}
    assert present - cited - own == set(), "tests missing from the rules doc"
    assert "stand-in" in doc


def test_every_core_clause_group_is_in_the_doc() -> None:
    doc = DOC.read_text()
    for group in [f"K{i}" for i in range(1, 16)] + ["O4", "O7", "O8"]:
        assert f"### {group} " in doc or f"/ {group}" in doc or f", {group}" in doc, group
