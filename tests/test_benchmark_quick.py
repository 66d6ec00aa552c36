"""The benchmark's quick mode runs and produces well-formed numbers (speed is measured, never asserted)."""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path
from types import ModuleType

import pytest

import cardtable
import cardtable.games
from tests.engine.toy import Toy

cardtable.register("toy", Toy)

BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "bench.py"
NUMBERS = (
    "games_per_s",
    "decisions_per_s",
    "decisions_per_game",
    "forced_share",
    "legal_actions_us",
    "apply_us",
    "clone_us",
    "determinize_us",
)


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("cardtable_bench", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_quick_benchmark_on_the_toy_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bench = _bench()
    out = tmp_path / "bench.json"
    assert bench.main(["--quick", "--game", "toy", "--json", str(out), "--markdown"]) == 0
    data = json.loads(out.read_text())
    assert data["meta"]["seconds_per_measurement"] == 0.1
    (row,) = data["results"]
    assert row["game"] == "toy" and row["config"] == "players-2" and row["options"] == {"players": 2}
    for key in NUMBERS:
        value = row[key]
        assert isinstance(value, float) and math.isfinite(value) and value > 0, (key, value)
    # Not speed but the toy's rules: at least the 4 dealt cards are played (play + pass each), at
    # most all 10 cards are, after the 6 others were drawn (one decision each).
    assert 8 <= row["decisions_per_game"] <= 26
    assert row["decisions_per_s"] == pytest.approx(row["games_per_s"] * row["decisions_per_game"])
    printed = capsys.readouterr().out
    lines = [line for line in printed.splitlines() if line.startswith("|")]
    assert lines[0].startswith("| game | configuration | games/s")
    assert len(lines) == 3 and lines[2].startswith("| toy | players-2 |")


def test_markdown_table_shape() -> None:
    bench = _bench()
    row = {k: 1.5 for k in NUMBERS} | {"game": "g", "config": "c"}
    table = bench.markdown([row, row]).splitlines()
    assert len(table) == 4
    assert all(line.count("|") == len(bench.COLUMNS) + 1 for line in table)


def test_bad_seconds_are_refused() -> None:
    bench = _bench()
    with pytest.raises(SystemExit):
        bench.main(["--quick", "--game", "toy", "--seconds", "0"])


def test_one_option_set_of_your_own(tmp_path: Path) -> None:
    """``-o KEY=VALUE`` measures that option set (converted by the game) instead of the configurations."""
    bench = _bench()
    out = tmp_path / "bench.json"
    assert bench.main(["--quick", "--game", "mephisto", "-o", "players=3", "--json", str(out)]) == 0
    (row,) = json.loads(out.read_text())["results"]
    assert row["options"] == {"players": 3} and row["config"] == "players-3"
    assert row["decisions_per_s"] > 0


@pytest.mark.parametrize("bad", ["players=9", "players", "colour=red"])
def test_a_bad_option_is_refused_naming_it(bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    bench = _bench()
    with pytest.raises(SystemExit):
        bench.main(["--quick", "--game", "mephisto", "-o", bad])
    assert bad.split("=")[0] in capsys.readouterr().err


@pytest.mark.parametrize("game_id", cardtable.games.builtin())
def test_quick_benchmark_covers_every_configuration_of_every_game(game_id: str, tmp_path: Path) -> None:
    """CI runs the benchmark's quick mode over every real game and variant (numbers well formed only)."""
    bench = _bench()
    out = tmp_path / "bench.json"
    assert bench.main(["--quick", "--game", game_id, "--json", str(out)]) == 0
    rows = json.loads(out.read_text())["results"]
    configurations = type(cardtable.load(game_id)).CONFIGURATIONS
    assert [row["options"] for row in rows] == [dict(c) for c in configurations]
    for row in rows:
        for key in NUMBERS:
            value = row[key]
            low_ok = value >= 0 if key == "forced_share" else value > 0  # a game may have no forced decision
            assert isinstance(value, float) and math.isfinite(value) and low_ok, (row["config"], key, value)
        assert row["forced_share"] <= 100


def test_vs_openspiel_ratios(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--vs-openspiel`` measures a build in a process of its own against OpenSpiel's hearts and
    crazy_eights and reports well-formed median ratios (numbers only; speed is never asserted)."""
    pytest.importorskip("pyspiel")
    bench = _bench()
    out = tmp_path / "vs.json"
    src = str(BENCH.parent.parent / "src")
    argv = ["--vs-openspiel", "--game", "doctor-strange", "-o", "players=2", "--rounds", "2", "--seconds", "0.02"]
    assert bench.main([*argv, "--build", f"pure={src}", "--search", "--json", str(out), "--markdown"]) == 0
    summary = json.loads(out.read_text())["summary"]
    (row,) = summary["pure"]["rows"]
    assert summary["pure"]["rounds"] == 2 and summary["pure"]["build"]["build"] == "pure"
    for key in ("on_vs_hearts", "off_vs_hearts", "on_vs_crazy_eights", "off_vs_crazy_eights", "log_cost"):
        assert math.isfinite(row[key]) and row[key] > 0, key
    for key in ("clone_us", "determinize_us", "ismcts_it_per_s"):
        assert math.isfinite(row[key]) and row[key] > 0, key
    printed = capsys.readouterr().out
    assert "pure: pure Python, Python generator" in printed
    assert "| doctor-strange | players-2 |" in printed


def test_search_states_mode_samples_along_whole_games(tmp_path: Path) -> None:
    bench = _bench()
    out = tmp_path / "search.json"
    args = ["--search-states", "--game", "doctor-strange", "--states", "30", "--passes", "3"]
    assert bench.main([*args, "-o", "players=2", "--json", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["meta"]["build"]["build"] in ("pure", "compiled", "mixed")
    (row,) = data["results"]
    assert row["game"] == "doctor-strange" and row["states"] == 30 and row["passes"] == 3
    for key in ("clone_best_us", "clone_median_us", "determinize_best_us", "determinize_median_us"):
        assert math.isfinite(row[key]) and row[key] > 0, (key, row[key])
    assert row["clone_best_us"] <= row["clone_median_us"]
    assert row["determinize_best_us"] <= row["determinize_median_us"]
    # The same seeds give the same states: the sample is reproducible (and reaches deep positions).
    game = cardtable.load("doctor-strange")
    first = [s.fingerprint() for s in bench.sample_along_games(game, 30, 7)]
    assert first == [s.fingerprint() for s in bench.sample_along_games(game, 30, 7)]
    assert len(first) == 30 and row["mean_history"] > 20


def test_search_states_mode_defaults_to_every_two_player_configuration() -> None:
    bench = _bench()
    rows = bench.run_search_states(["mephisto"], 5, 1)
    assert [r["config"] for r in rows] == ["players-2", "players-2_variant-care-bear", "lane-view-shared_players-2"]
    assert all(r["options"]["players"] == 2 for r in rows)
