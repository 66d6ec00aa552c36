"""Shared test setup: hypothesis profiles (CI runs the same profile as a developer)."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.register_profile("thorough", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("CARDTABLE_HYPOTHESIS", "default"))


def pytest_sessionstart(session: object) -> None:
    """``CARDTABLE_EXPECT_BUILD=compiled`` (CI's compiled stage): refuse to run unless the compiled build
    is the one imported, so that a wrong ``PYTHONPATH`` can never pass the pure tree off as compiled."""
    expected = os.environ.get("CARDTABLE_EXPECT_BUILD")
    if expected:
        from cardtable.buildinfo import build_info, describe

        info = build_info()
        if info["build"] != expected:
            raise RuntimeError(f"expected the {expected} build, but this is {describe()} ({info})")
