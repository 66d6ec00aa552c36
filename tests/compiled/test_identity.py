"""The pure and the compiled build play identical games (DESIGN.md, "Speed").

Run against the compiled build (CI: ``PYTHONPATH=<compiled> pytest tests/compiled``), this traces
every configuration of every game for 20 seeds in this process and again in a subprocess running the
pure source tree, and the traces must match line for line: histories, state fingerprints (the
generator's state included), every seat's and the spectator's views and events, the events ``apply``
returns, determinizations of every seat and the decisions of the heuristic, ISMCTS, the strong agent,
the levels, root-parallel search and the learned evaluation (:mod:`cardtable.testing.identity`), one
test per game. In the pure suite there is no second build to compare with, so the test says so and
skips; CI's compiled stage runs it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardtable.buildinfo import build_info
from cardtable.games import builtin
from cardtable.testing.identity import SEEDS, first_difference, traces
from tests.compiled.pure_build import compiled_only, run_pure


@compiled_only
@pytest.mark.parametrize("game_id", builtin())
def test_pure_and_compiled_builds_trace_identically(game_id: str, tmp_path: Path) -> None:
    # One test per game, so that the test workers share the games out.
    out = tmp_path / "pure.json"
    run_pure("-m", "cardtable.testing.identity", "--out", str(out), "--seeds", str(SEEDS), "--game", game_id)
    pure = json.loads(out.read_text(encoding="utf-8"))
    assert pure["build"]["build"] == "pure" and pure["build"]["generator"] == "Python"
    compiled = traces([game_id], seeds=SEEDS)
    assert compiled and compiled.keys() == pure["traces"].keys()
    assert build_info()["generator"] == "C"
    difference = first_difference(pure["traces"], compiled)
    assert difference is None, f"the builds differ: {difference}"
