"""The RL benchmark runs (its numbers are measured there, never asserted here): one configuration,
every mode, a moment each; the JSON holds a rate per mode and the ratios the targets are read from."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "rl_bench.py"


def test_the_rl_benchmark_runs_every_mode(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pyspiel", reason="the rl extra (open-spiel) is not installed")
    spec = importlib.util.spec_from_file_location("rl_bench", BENCH)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    modes = [m for m in bench.MODES if m != "rlcard_uno" or importlib.util.find_spec("rlcard")]
    out = tmp_path / "rl.json"
    args = ["--game", "mephisto", "--first", "--seconds", "0.02", "--rounds", "1", "--modes", ",".join(modes)]
    assert bench.main([*args, "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "| mephisto | players-1 |" in printed and "met in" in printed and "build:" in printed
    data = json.loads(out.read_text())
    (row,) = data["rows"]
    assert set(row["decisions_per_s"]) == set(modes) and all(r > 0 for r in row["decisions_per_s"].values())
    assert set(row["overhead"]) == set(modes) - {"engine", "rlcard_uno"}
    assert data["meta"]["build"]
