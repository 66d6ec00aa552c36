"""docs/rules/mr-card-game.md covers every clause group of the core rulebook (that it cites only tests
that exist, and every test of the game, is tests/test_rules_docs.py's check)."""

from __future__ import annotations

from pathlib import Path

DOC = Path(__file__).parents[2] / "docs" / "rules" / "mr-card-game.md"


def test_every_core_clause_group_is_in_the_doc() -> None:
    doc = DOC.read_text()
    for group in [f"K{i}" for i in range(1, 16)] + ["O4", "O7", "O8"]:
        assert f"### {group} " in doc or f"/ {group}" in doc or f", {group}" in doc, group
