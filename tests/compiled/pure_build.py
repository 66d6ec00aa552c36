"""Running the pure source tree beside the compiled build, for the tests that compare the two.

The compiled stage of CI imports the compiled build first on ``PYTHONPATH``; each comparison runs
the same code again in a subprocess on the pure source tree (the Python generator forced with
``CARDTABLE_PURE_RNG``) and compares what both wrote.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cardtable.buildinfo import build_info

ROOT = Path(__file__).resolve().parents[2]
COMPILED = build_info()["build"] == "compiled"

compiled_only = pytest.mark.skipif(
    not COMPILED, reason="compares the compiled build with the pure one: run against the compiled build"
)


def run_pure(*args: str) -> None:
    """Run ``python ARGS`` on the pure source tree (with this repository's ``tests`` importable)."""
    env = dict(os.environ, PYTHONPATH=f"{ROOT / 'src'}{os.pathsep}{ROOT}", CARDTABLE_PURE_RNG="1")
    subprocess.run([sys.executable, *args], env=env, check=True, cwd=ROOT)


def pure_result(module: str, function: str, game_id: str, folder: Path) -> Any:
    """What ``module.function(game_id)`` returns on the pure source tree (a JSON value)."""
    out = folder / "pure.json"
    code = (
        f"import json, sys; from {module} import {function}; "
        f"open(sys.argv[1], 'w').write(json.dumps({function}({game_id!r})))"
    )
    run_pure("-c", code, str(out))
    return json.loads(out.read_text(encoding="utf-8"))
