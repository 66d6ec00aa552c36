"""The rules documents (docs/rules/<game>.md) stay traceable: every rule and every interpretation they
list cites the tests that show it (a test, or a whole test module for a part such as the terminal's
drawing), every test they cite exists, and, for the games that promise it, every test is cited."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "rules"
GAMES = ("army-of-darkness", "doctor-strange", "mephisto", "mr-card-game")

UNTESTABLE = {"mr-card-game": {"K15.9"}}
"""Bullets that state what the software does not model (nothing to run): Mr. Card Game's card dividers."""

LISTS_EVERY_TEST = ("mephisto", "mr-card-game")
"""Games whose rules document names every test of the game's own folder (the other two cite the tests
of each clause and leave property and helper tests out)."""


@cache
def _defined(path: Path) -> frozenset[str]:
    """The test functions ``path`` defines (none when it is not a file)."""
    return frozenset(re.findall(r"^def (test_\w+)", path.read_text(), re.M)) if path.is_file() else frozenset()


def _bullets(doc: str) -> list[str]:
    """Every top-level bullet: a clause or an interpretation with its bold label, or an unlabelled one
    (a summary of interpretations, a protocol method, a measurement)."""
    # A bullet ends at the next bullet, a blank line or a heading: a citation after it is not its own.
    bullets = (re.split(r"\n\s*\n|\n(?=#)", b, maxsplit=1)[0] for b in re.split(r"\n(?=- )", doc))
    return [b for b in bullets if b.startswith("- ")]


def _label(bullet: str) -> str:
    """A bullet's bold label, or its first words where it has none."""
    if bullet.startswith("- **"):
        return bullet[4:].split("**", 1)[0].strip()
    return " ".join(bullet[2:].split()[:6])


@pytest.mark.parametrize("game", GAMES)
def test_every_cited_test_exists(game: str) -> None:
    """A citation ``test_x.py::test_y`` names a test of the game's own folder; one with a path
    (``tests/engine/test_x.py::test_y``) a test of that file."""
    doc = (DOCS / f"{game}.md").read_text()
    own = ROOT / "tests" / game.replace("-", "_")
    cited = re.findall(r"((?:tests/(?:\w+/)*)?)(test_\w+\.py)::(test_\w+)", doc)
    assert cited, f"{game}.md cites no tests"
    missing = []
    for folder, module, name in cited:
        if name not in _defined((ROOT / folder if folder else own) / module):
            missing.append(f"{folder}{module}::{name}")
    assert missing == [], f"{game}.md cites tests that do not exist: {sorted(set(missing))}"
    modules = set(re.findall(r"`(tests/[\w/]+\.py)`", doc))
    assert sorted(m for m in modules if not (ROOT / m).is_file()) == [], f"{game}.md cites missing test modules"


@pytest.mark.parametrize("game", GAMES)
def test_every_rule_and_interpretation_cites_a_test(game: str) -> None:
    doc = (DOCS / f"{game}.md").read_text()
    uncited = []
    for bullet in _bullets(doc):
        label = _label(bullet)
        if "::test_" in bullet or re.search(r"`tests/[\w/]+\.py`", bullet):
            continue
        if not any(label.startswith(ok) for ok in UNTESTABLE.get(game, ())):
            uncited.append(label)
    assert uncited == [], f"{game}.md: bullets citing no test: {uncited}"


@pytest.mark.parametrize("game", LISTS_EVERY_TEST)
def test_every_test_of_the_game_is_listed(game: str) -> None:
    doc = (DOCS / f"{game}.md").read_text()
    cited = set(re.findall(r"(test_\w+\.py)::(test_\w+)", doc))
    folder = ROOT / "tests" / game.replace("-", "_")
    present = {(f.name, name) for f in folder.glob("test_*.py") for name in _defined(f)}
    assert sorted(present - cited) == [], f"tests missing from {game}.md"
    assert "stand-in" in doc
