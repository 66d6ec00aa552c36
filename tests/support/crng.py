"""The C generator for tests: the built one when this build has it, else compiled here from its source.

The pure tree (the default install) has no C extension, but the twin tests must run wherever a C
compiler exists, so that a change to either twin is caught by the developer's own test run and not
first in CI. :func:`c_rng_class` returns the C ``Rng`` class or ``None`` when there is neither a
built module nor a compiler (CI always has both).
"""

from __future__ import annotations

import atexit
import importlib.util
import shutil
import sys
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

SOURCE = Path(__file__).resolve().parents[2] / "src" / "cardtable" / "engine" / "_crng.c"
NAME = "cardtable.engine._crng"


@cache
def c_rng_class() -> Any:
    """The C generator's class (built, or compiled into a temporary folder now), or None."""
    try:
        module = importlib.import_module(NAME)
        return module.Rng
    except ImportError:
        pass
    try:
        # setuptools ships no type information (types-setuptools is not a test dependency)
        from setuptools import Distribution, Extension  # type: ignore[import-untyped]
        from setuptools.command.build_ext import build_ext  # type: ignore[import-untyped]

        out = Path(tempfile.mkdtemp(prefix="cardtable-crng-"))
        atexit.register(shutil.rmtree, out, ignore_errors=True)  # every test run used to leave one behind
        dist = Distribution({"ext_modules": [Extension(NAME, [str(SOURCE)])], "script_name": "setup.py"})
        cmd = build_ext(dist)
        cmd.build_lib = str(out / "lib")
        cmd.build_temp = str(out / "temp")
        cmd.ensure_finalized()
        cmd.run()
        path = cmd.get_ext_fullpath(NAME)
    except Exception:  # no compiler, no headers: the caller skips and says why
        return None
    spec = importlib.util.spec_from_file_location(NAME, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    # Loading registered it; take it out so that nothing else picks this copy up as the built one.
    sys.modules.pop(NAME, None)
    return module.Rng
