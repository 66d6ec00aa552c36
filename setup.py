"""Extension modules of the compiled build (the project's metadata lives in pyproject.toml).

Without ``CARDTABLE_COMPILE=1`` this adds nothing: the package is pure Python. With it, every module
listed by ``build_backend/compiled_modules.py`` (the engine, each game package, the agents) is compiled
with mypyc from the very same source, and the seeded generator's C twin (``cardtable.engine._crng``) is
built. ``cardtable --version`` says which build runs. ``CARDTABLE_OPT`` sets the C optimisation level
(default 3; 0 builds fast, for trying things out).
"""

from __future__ import annotations

import os
import shutil
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

sys.path.insert(0, str(Path(__file__).resolve().parent / "build_backend"))

from compiled_modules import compiled_paths

ON = ("1", "true", "yes", "on")


class ParallelBuildExt(build_ext):
    """build_ext that compiles the C files of one extension in parallel (mypyc writes one per module
    group; the default compiles them one after the other)."""

    def build_extension(self, ext: Any) -> None:
        compiler = self.compiler
        serial = compiler.compile
        jobs = max(1, os.cpu_count() or 1)

        def compile_parallel(
            sources: list[str],
            output_dir: str | None = None,
            macros: Any = None,
            include_dirs: Any = None,
            debug: int = 0,
            extra_preargs: Any = None,
            extra_postargs: Any = None,
            depends: Any = None,
        ) -> list[str]:
            macros, objects, extra_postargs, pp_opts, build = compiler._setup_compile(
                output_dir, macros, include_dirs, sources, depends, extra_postargs
            )
            cc_args = compiler._get_cc_args(pp_opts, debug, extra_preargs)

            def one(obj: str) -> None:
                src, suffix = build[obj]
                compiler._compile(obj, src, suffix, cc_args, extra_postargs, pp_opts)

            with ThreadPoolExecutor(jobs) as pool:
                list(pool.map(one, [o for o in objects if o in build]))
            return list(objects)

        compiler.compile = compile_parallel
        try:
            super().build_extension(ext)
        finally:
            compiler.compile = serial


ext_modules: list[Extension] = []
cmdclass: dict[str, Any] = {}
if os.environ.get("CARDTABLE_COMPILE", "").lower() in ON:
    from mypyc.build import mypycify

    # setuptools copies whatever an earlier build left in build/lib.<platform> into the wheel: an
    # extension module of a file that is no longer compiled (say engine/errors, Python since) would
    # shadow its .py in the new wheel. Start that folder afresh.
    for stale in (Path(__file__).resolve().parent / "build").glob("lib.*"):
        shutil.rmtree(stale)
    opt = os.environ.get("CARDTABLE_OPT", "3")
    ext_modules = mypycify(compiled_paths(), opt_level=opt, debug_level="0", multi_file=True)
    ext_modules.append(
        Extension("cardtable.engine._crng", ["src/cardtable/engine/_crng.c"], extra_compile_args=[f"-O{opt}"])
    )
    cmdclass["build_ext"] = ParallelBuildExt

setup(ext_modules=ext_modules, cmdclass=cmdclass)
