#!/usr/bin/env python
"""Build the compiled cardtable (mypyc + the C generator) and install it into a folder of its own.

    python scripts/build_compiled.py                  # -> build/compiled (and the wheel in build/wheels)
    PYTHONPATH=build/compiled python -m pytest tests/engine ...   # run against it
    PYTHONPATH=build/compiled cardtable --version                 # "... (compiled: mypyc, C generator)"

The wheel is what a user who wants speed installs (``pip install build/wheels/cardtable-*.whl``, or
straight from the source: ``CARDTABLE_COMPILE=1 pip install .``). The folder holds that wheel's
package alone, so putting it first on ``PYTHONPATH`` runs the compiled build while the checkout (and
an editable install of it) stays pure: the pure suite can never pick up a compiled module by
accident. By default the build uses the mypy and setuptools already installed (``--isolated`` lets
pip fetch them into a clean build environment instead).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--target", default=str(ROOT / "build" / "compiled"), help="where to install it")
    parser.add_argument("--wheels", default=str(ROOT / "build" / "wheels"), help="where to put the wheel")
    parser.add_argument("--isolated", action="store_true", help="build in a clean environment (pip fetches mypy)")
    args = parser.parse_args(argv)
    target, wheels = Path(args.target), Path(args.wheels)
    start = time.monotonic()
    env = dict(os.environ, CARDTABLE_COMPILE="1")
    shutil.rmtree(wheels, ignore_errors=True)
    build = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(wheels), str(ROOT)]
    if not args.isolated:
        build.insert(4, "--no-build-isolation")
    subprocess.run(build, check=True, env=env)
    [wheel] = sorted(wheels.glob("cardtable-*.whl"))
    shutil.rmtree(target, ignore_errors=True)
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), str(wheel)], check=True
    )
    probe = subprocess.run(
        [sys.executable, "-c", "import cardtable.buildinfo as b; print(b.describe())"],
        env=dict(os.environ, PYTHONPATH=str(target)),
        check=True,
        capture_output=True,
        text=True,
    )
    print(f"built {wheel.name} in {time.monotonic() - start:.0f} s; {target}: {probe.stdout.strip()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
