"""The RL benchmark runs (its numbers are measured there, never asserted here): one configuration,
every mode, a moment each; the JSON holds a rate per mode and the ratios the targets are read from."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "rl_bench.py"


def _script(name: str) -> ModuleType:
    """The benchmark script ``benchmarks/<name>.py``, loaded as a module."""
    spec = importlib.util.spec_from_file_location(name, BENCH.parent / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_rl_benchmark_runs_every_mode(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pyspiel", reason="the rl extra (open-spiel) is not installed")
    bench = _script("rl_bench")
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


def test_the_step_breakdown_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """``benchmarks/rl_breakdown.py`` (a step taken apart on the same decisions) runs and prints a row
    per game with every layer's column; the numbers are read there, never asserted here."""
    pytest.importorskip("pyspiel", reason="the rl extra (open-spiel) is not installed")
    breakdown = _script("rl_breakdown")
    assert breakdown.main(["--game", "army-of-darkness", "--games", "1", "--repeats", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    (row,) = [line for line in lines if line.startswith("| army-of-darkness |")]
    assert row.count("|") == lines[0].count("|") == 14
    # The vectorised environment taken apart on the same decisions: a row with every layer's ratio.
    assert breakdown.main(["--game", "army-of-darkness", "--vector", "3", "--steps", "5", "--repeats", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    (row,) = [line for line in lines if line.startswith("| army-of-darkness |")]
    assert row.count("|") == lines[0].count("|") == 7 and row.count("x |") == 3


def test_the_cells_an_observation_changes_are_counted(capsys: pytest.CaptureFixture[str]) -> None:
    """``benchmarks/observer_cells.py`` (how many cells change between a seat's observations, beside
    what an update costs) runs and prints a row; a count of games under 1 is refused by name."""
    cells = _script("observer_cells")
    assert cells.main(["--game", "army-of-darkness", "--games", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    header = next(line for line in lines if line.startswith("| game |"))
    (row,) = [line for line in lines if line.startswith("| army-of-darkness |")]
    assert row.count("|") == header.count("|") == 8
    size, mean, median = (float(x) for x in row.split("|")[2:5])
    assert size == 1255 and 0 < mean < size and 0 <= median < size  # some cells change, not all
    with pytest.raises(SystemExit):
        cells.main(["--games", "0"])
    assert "--games: must be at least 1, got 0" in capsys.readouterr().err


def test_an_observer_update_is_timed(capsys: pytest.CaptureFixture[str]) -> None:
    """``benchmarks/observer_update.py`` (an observer update alone, on recorded random games) runs
    and prints its time with the build; a count under 1 and an unknown option are refused by name."""
    timer = _script("observer_update")
    assert timer.main(["mephisto", "players=3", "--games", "1", "--rounds", "1"]) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith("mephisto players=3: ") and " µs per update (best of 1); " in line
    assert float(line.split(": ")[1].split(" ")[0]) > 0
    with pytest.raises(SystemExit):
        timer.main(["mephisto", "--rounds", "0"])
    assert "--rounds: must be at least 1, got 0" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        timer.main(["mephisto", "no-such-option=1"])
    assert "no-such-option" in capsys.readouterr().err
