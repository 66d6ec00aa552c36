"""The examples run: a few hundred steps of MaskablePPO training (the real training is not a test), and
OpenSpiel's ISMCTS example on the engine's toy game."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

from tests.rl.helpers import game_ids

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_maskable_ppo_smoke(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("torch", reason="the rl-train extra (torch) is not installed: pip install '.[rl-train]'")
    pytest.importorskip("sb3_contrib", reason="the rl-train extra (sb3-contrib) is not installed")
    example = _load("train_maskable_ppo")
    assert example.main(["--smoke", "--game", "doctor-strange"]) == 0
    out = capsys.readouterr().out
    summary = json.loads(out[: out.index("\n}\n") + 2])
    assert summary["training"]["steps"] >= 128
    assert summary["evaluation"]["games"] == 2
    ev = summary["evaluation"]
    assert ev["wins"] + ev["draws"] + ev["losses"] == 2 and 0.0 <= ev["low"] <= ev["win_rate"] <= ev["high"] <= 1.0


def test_openspiel_ismcts_example(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pyspiel", reason="the rl extra (open-spiel) is not installed")
    assert "toy" in game_ids()  # registered by the helpers
    example = _load("openspiel_ismcts")
    assert example.main(["--game", "toy", "--games", "2", "--simulations", "3"]) == 0
    assert "ISMCTS (3 simulations) won" in capsys.readouterr().out
