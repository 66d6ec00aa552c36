"""Which build of cardtable is running: pure Python or compiled with mypyc, and which generator.

The engine and the games are one source with two builds (docs/engine.md, "Two builds"). Which one
was imported is read from the modules themselves (a compiled module is an extension module), so the
answer is true even when both are installed and ``PYTHONPATH`` picks one.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util

PROBES = (
    "cardtable.engine.game",
    "cardtable.games.mephisto.rules",
    "cardtable.games.doctor_strange.state",
    "cardtable.games.army_of_darkness.state",
    "cardtable.games.mr_card_game.state",
    "cardtable.agents.ismcts",
)
"""Modules the compiled build compiles, one per package that matters for speed."""


def _compiled(module: str) -> bool:
    spec = importlib.util.find_spec(module)
    origin = spec.origin if spec is not None else None
    return origin is not None and origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def build_info() -> dict[str, object]:
    """``{"build": "compiled" | "pure" | "mixed", "generator": "C" | "Python", "compiled": [...]}``:
    ``mixed`` means some of the probed modules are compiled and some not (a broken install)."""
    from cardtable.engine import rng

    compiled = [m for m in PROBES if _compiled(m)]
    build = "compiled" if len(compiled) == len(PROBES) else "mixed" if compiled else "pure"
    return {"build": build, "generator": "C" if rng.C_GENERATOR else "Python", "compiled": compiled}


def describe() -> str:
    """One line for people: ``compiled (mypyc), C generator`` or ``pure Python, Python generator``."""
    info = build_info()
    build = {"compiled": "compiled (mypyc)", "pure": "pure Python", "mixed": "partly compiled (mypyc)"}[
        str(info["build"])
    ]
    return f"{build}, {info['generator']} generator"
