"""Which build runs is reported truthfully (``cardtable --version``, the benchmark, ``buildinfo``)."""

from __future__ import annotations

import importlib
import importlib.machinery
import os

import pytest

from cardtable import buildinfo
from cardtable.cli.main import main
from cardtable.engine import Rng, rng


def _is_extension(module: str) -> bool:
    origin = importlib.import_module(module).__file__ or ""
    return origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def test_build_info_matches_the_imported_modules() -> None:
    info = buildinfo.build_info()
    compiled = [m for m in buildinfo.PROBES if _is_extension(m)]
    assert info["compiled"] == compiled
    assert info["build"] == ("compiled" if compiled == list(buildinfo.PROBES) else "mixed" if compiled else "pure")
    assert info["generator"] == ("C" if Rng is not rng.PyRng else "Python") == ("C" if rng.C_GENERATOR else "Python")
    if os.environ.get("CARDTABLE_EXPECT_BUILD") == "compiled":
        assert info == {**info, "build": "compiled", "generator": "C"}


def test_version_says_which_build(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    printed = capsys.readouterr().out.strip()
    assert printed.startswith("cardtable ") and printed.endswith(f"({buildinfo.describe()})")
    assert ("compiled (mypyc), C generator" in printed) == (buildinfo.build_info()["build"] == "compiled")
