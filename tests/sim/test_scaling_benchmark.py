"""The simulation scaling benchmark runs and reports efficiency and streamed memory (speed is measured
there, never asserted here)."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "sim_scaling.py"


def test_the_scaling_benchmark_reports_efficiency(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("cardtable_sim_scaling", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    out = tmp_path / "rows.json"
    argv = ["--workers", "1,2", "--games-per-worker", "15", "--stream", "400", "--json", str(out)]
    assert module.main(argv) == 0
    text = capsys.readouterr().out
    rows = json.loads(out.read_text())
    assert [(r["workers"], r["games"]) for r in rows] == [(1, 15), (2, 30)]
    assert rows[0]["efficiency"] == 1.0 and rows[1]["efficiency"] > 0
    assert re.search(r"\| 2 \| 30 \| [\d.]+ \| [\d,]+ \| [\d.]+ \|", text)
    assert re.search(r"projected efficiency at 16 workers .*: [\d.]+", text)
    assert re.search(r"\| 400 \| [\d.]+ \| \d+ MB \|", text)
