"""docs/rules/mephisto.md stays in step with the tests it cites: every test of the game is
named there (that every cited test exists is tests/test_rules_docs.py's check, for every game)."""

from __future__ import annotations

import re
from pathlib import Path

HERE = Path(__file__).parent
DOC = HERE.parents[1] / "docs" / "rules" / "mephisto.md"


def test_every_test_of_the_game_is_listed() -> None:
    doc = DOC.read_text()
    cited = set(re.findall(r"(test_\w+\.py)::(test_\w+)", doc))
    present = {
        (f.name, name) for f in HERE.glob("test_*.py") for name in re.findall(r"^def (test_\w+)", f.read_text(), re.M)
    }
    assert present - cited == set(), "tests missing from the rules doc"
    assert "stand-in" in doc
