"""The examples run: a few hundred steps of MaskablePPO training (the real training is not a test), and
OpenSpiel's ISMCTS example on the engine's toy game."""

from __future__ import annotations

import csv
import gc
import importlib.util
import json
import tempfile
import warnings
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.rl.helpers import game_ids

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_maskable_ppo_smoke_on_the_vector_env(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A few hundred steps of MaskablePPO on the vectorised environment, on two games (one with the
    shaped reward), evaluated against random and heuristic opponents; the output folder holds the
    numbers (PPO's own in ppo.csv), the checkpoint and the summary, every file it wrote is closed, and
    SB3 leaves no log folder in the temp directory."""
    pytest.importorskip("torch", reason="the rl-train extra (torch) is not installed: pip install '.[rl-train]'")
    pytest.importorskip("sb3_contrib", reason="the rl-train extra (sb3-contrib) is not installed")
    example = _load("train_maskable_ppo")
    out = tmp_path / "runs"
    temp = tmp_path / "temp"  # the system's temp directory, for this run (SB3 used to leave folders there)
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    monkeypatch.delenv("SB3_LOGDIR", raising=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ResourceWarning)
        assert example.main(["--smoke", "--games", "doctor-strange", "mr-card-game:players=2", "--out", str(out)]) == 0
        gc.collect()  # a file left open is reported when its object is collected
    unclosed = [str(w.message) for w in caught if w.category is ResourceWarning and str(out) in str(w.message)]
    assert unclosed == [], "the example left files open"
    # (torch keeps a cache folder there, torchinductor_<user>; that is torch's, on any use of it)
    assert [p.name for p in temp.iterdir() if p.name.startswith("SB3-")] == [], "SB3 wrote a log folder there"
    printed = capsys.readouterr().out
    assert "steps/s" in printed  # progress lines
    summary = json.loads(printed[printed.index('{\n  "results"') : printed.rindex("}") + 1])
    assert [r["game"] for r in summary["results"]] == ["doctor-strange", "mr-card-game"]
    assert [r["reward"] for r in summary["results"]] == ["win", "shaped"]
    for game in ("doctor-strange_players-2", "mr-card-game_players-2"):
        run = out / game / "seed-0"
        assert (run / "checkpoints" / "final.zip").exists() and (run / "progress.csv").exists()
        with (run / "ppo.csv").open() as f:
            updates = list(csv.DictReader(f))
        assert int(updates[0]["time/total_timesteps"]) == 128  # the first rollout: 4 games x 32 steps
        assert float(updates[-1]["train/value_loss"]) >= 0  # the last update's losses are written too
        data = json.loads((run / "summary.json").read_text())
        assert data["training"]["steps"] >= 128
        for opponents in ("random", "heuristic"):
            ev = data["evaluation"][opponents]
            assert ev["games"] == 2 and ev["wins"] + ev["draws"] + ev["losses"] == 2
            assert 0.0 <= ev["low"] <= ev["win_rate"] <= ev["high"] <= 1.0
    assert (
        "progress"
        in json.loads((out / "mr-card-game_players-2" / "seed-0" / "summary.json").read_text())["evaluation"]["random"]
    )
    assert (out / "results.md").read_text().count("\n") == 2 + 4


def test_imitation_fits_the_imitated_agents_moves(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--imitate`` fits the policy to the heuristic's moves before PPO: over two games of Mr. Card Game
    the loss falls, and among the decisions with a choice the policy's likeliest legal action becomes
    the heuristic's at most of them (an unfitted policy, ``--imitate-epochs 0``, at about a quarter)."""
    pytest.importorskip("torch", reason="the rl-train extra (torch) is not installed: pip install '.[rl-train]'")
    pytest.importorskip("sb3_contrib", reason="the rl-train extra (sb3-contrib) is not installed")
    example = _load("train_maskable_ppo")
    found: dict[int, dict[str, Any]] = {}
    for epochs in (0, 25):
        out = tmp_path / f"runs-{epochs}"
        argv = ["--smoke", "--seeds", "0", "--games", "mr-card-game:players=2", "--eval-against", "random"]
        assert example.main([*argv, "--out", str(out), "--imitate", "2", "--imitate-epochs", str(epochs)]) == 0
        assert "imitated heuristic over 2 games" in capsys.readouterr().out
        summary = json.loads((out / "mr-card-game_players-2" / "seed-0" / "summary.json").read_text())
        found[epochs] = summary["imitation"]
    fitted = found[25]
    assert fitted["games"] == 2 and fitted["decisions"] > 100 and fitted["agent"] == "heuristic"
    assert found[0]["loss"] == [] and fitted["loss"][-1] < fitted["loss"][0] / 2
    assert fitted["agreement"] >= 0.75 and fitted["agreement"] >= found[0]["agreement"] + 0.3


def test_openspiel_ismcts_example(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pyspiel", reason="the rl extra (open-spiel) is not installed")
    assert "toy" in game_ids()  # registered by the helpers
    example = _load("openspiel_ismcts")
    assert example.main(["--game", "toy", "--games", "2", "--simulations", "3"]) == 0
    assert "ISMCTS (3 simulations) won" in capsys.readouterr().out
