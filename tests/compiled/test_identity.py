"""The pure and the compiled build play identical games (DESIGN.md, "Speed").

Run against the compiled build (CI: ``PYTHONPATH=<compiled> pytest tests/compiled``), this traces
every configuration of every game for 20 seeds in this process and again in a subprocess running the
pure source tree, and the traces must match line for line: histories, state fingerprints (the
generator's state included), every seat's and the spectator's views and events, the events ``apply``
returns, determinizations of every seat and the heuristic's and ISMCTS's decisions
(:mod:`cardtable.testing.identity`). In the pure suite there is no second build to compare with, so
the test says so and skips; CI's compiled stage runs it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cardtable.buildinfo import build_info
from cardtable.testing.identity import SEEDS, first_difference, traces

ROOT = Path(__file__).resolve().parents[2]
COMPILED = build_info()["build"] == "compiled"


@pytest.mark.skipif(
    not COMPILED, reason="compares the compiled build with the pure one: run against the compiled build"
)
def test_pure_and_compiled_builds_trace_identically(tmp_path: Path) -> None:
    out = tmp_path / "pure.json"
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"), CARDTABLE_PURE_RNG="1")
    subprocess.run(
        [sys.executable, "-m", "cardtable.testing.identity", "--out", str(out), "--seeds", str(SEEDS)],
        env=env,
        check=True,
        cwd=ROOT,
    )
    pure = json.loads(out.read_text(encoding="utf-8"))
    assert pure["build"]["build"] == "pure" and pure["build"]["generator"] == "Python"
    compiled = traces(seeds=SEEDS)
    assert build_info()["generator"] == "C"
    difference = first_difference(pure["traces"], compiled)
    assert difference is None, f"the builds differ: {difference}"
