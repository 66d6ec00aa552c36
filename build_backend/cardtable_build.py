"""The build backend of cardtable: setuptools, plus mypy when the compiled build is asked for.

``pip install .`` builds the pure-Python package: quick, no compiler needed. With the environment
variable ``CARDTABLE_COMPILE=1`` (or ``--config-settings compile=1``) the same source is compiled with
mypyc and the seeded generator's C twin is built (see ``setup.py`` and docs/engine.md, "Two builds");
only then does the build need mypy (which brings mypyc) and a C compiler.
"""

from __future__ import annotations

import os
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import (  # noqa: F401  (the rest of the PEP 517 / 660 hooks, unchanged)
    build_editable,
    build_sdist,
    get_requires_for_build_editable,
    get_requires_for_build_sdist,
    prepare_metadata_for_build_editable,
    prepare_metadata_for_build_wheel,
)

MYPY = "mypy>=1.18,<2"
"""What compiling needs besides setuptools (mypyc ships with mypy)."""

ON = ("1", "true", "yes", "on")


def compiling(config_settings: dict[str, Any] | None = None) -> bool:
    """Whether this build compiles: ``CARDTABLE_COMPILE`` or the ``compile`` config setting."""
    setting = (config_settings or {}).get("compile")
    if setting is not None:
        return str(setting).lower() in ON
    return os.environ.get("CARDTABLE_COMPILE", "").lower() in ON


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    needs: list[str] = list(_setuptools.get_requires_for_build_wheel(config_settings))
    if compiling(config_settings):
        needs.append(MYPY)
    return needs


def build_wheel(
    wheel_directory: str, config_settings: dict[str, Any] | None = None, metadata_directory: str | None = None
) -> str:
    if compiling(config_settings):
        # setup.py reads the environment: pass the config setting on to it.
        os.environ["CARDTABLE_COMPILE"] = "1"
    return str(_setuptools.build_wheel(wheel_directory, config_settings, metadata_directory))
