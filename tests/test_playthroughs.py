"""Golden playthroughs: each game and configuration replays, step by step, exactly as recorded.

The files in tests/playthroughs/ are written by ``scripts/regen_playthroughs.py``. A failure here
means behaviour changed (rules, views, action texts or randomness): if the change is intended,
regenerate the files and review the diff; if not, the diff shows the first step that changed.
"""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any

import pytest

import cardtable
from cardtable.engine.options import OptionValue
from cardtable.testing.conformance import cases
from cardtable.testing.playthrough import REGENERATE, file_name, playthrough, view_lines
from tests.engine.toy import Toy

cardtable.register("toy", Toy)

DIRECTORY = Path(__file__).parent / "playthroughs"
MAX_DIFF_LINES = 80


def _cases() -> list[Any]:
    out: list[Any] = []
    for game_id in dict.fromkeys([*cardtable.available(), "toy"]):
        try:
            configs = cases([game_id])
        except Exception as exc:  # a game that cannot be imported still shows up, as a failure
            out.append(pytest.param(game_id, None, exc, id=f"{game_id}-unloadable"))
            continue
        out += [pytest.param(g, o, None, id=file_name(g, o)[: -len(".txt")]) for g, o in configs]
    return out


CASES = _cases()


@pytest.mark.parametrize(("game_id", "options", "error"), CASES)
def test_playthrough_matches_golden_file(
    game_id: str, options: dict[str, OptionValue] | None, error: Exception | None
) -> None:
    if error is not None:
        raise error
    assert options is not None
    path = DIRECTORY / file_name(game_id, options)
    assert path.exists(), f"no golden playthrough {path.name}; create it with: {REGENERATE}"
    expected = path.read_text(encoding="utf-8")
    actual = playthrough(game_id, options)
    if actual != expected:
        diff = list(
            difflib.unified_diff(
                expected.splitlines(), actual.splitlines(), f"{path.name} (golden)", f"{path.name} (now)", lineterm=""
            )
        )
        shown = "\n".join(diff[:MAX_DIFF_LINES])
        more = f"\n... {len(diff) - MAX_DIFF_LINES} more diff lines" if len(diff) > MAX_DIFF_LINES else ""
        pytest.fail(
            f"the playthrough of {game_id} {options} changed.\n{shown}{more}\n"
            f"If the change is intended, regenerate with: {REGENERATE} (and review git diff tests/playthroughs)",
            pytrace=False,
        )


def test_no_stale_golden_files() -> None:
    """Every golden file belongs to a game and configuration that exists."""
    known = {file_name(g, o) for g, o, e in (c.values for c in CASES) if e is None}
    stale = sorted(p.name for p in DIRECTORY.glob("*.txt") if p.name not in known)
    assert not stale, f"golden playthroughs without a game or configuration: {stale}; run {REGENERATE}"


def test_playthrough_is_deterministic_and_capped() -> None:
    """The same seeds give the same text; the cap cuts the game and says so."""
    first = playthrough("toy", {"players": 2}, seed=5, agent_seed=9)
    assert first == playthrough("toy", {"players": 2}, seed=5, agent_seed=9)
    assert first != playthrough("toy", {"players": 2}, seed=5, agent_seed=10)
    short = playthrough("toy", {"players": 2}, seed=5, agent_seed=9, cap=3)
    assert short.count("== step ") == 3
    assert "cut after 3 decisions" in short
    assert "== end after" in first and "result: " in first


def test_view_lines_flatten_to_leaves() -> None:
    view = {"a": {"b": [1, 2], "c": [{"id": 3, "name": "X", "cost": 1}, {"k": [5]}]}, "d": None}
    assert view_lines(view) == {
        "a.b": "[1,2]",
        "a.c[0]": '{"cost":1,"id":3,"name":"X"}',
        "a.c[1].k": "[5]",
        "d": "null",
    }
