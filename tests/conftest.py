"""Shared test setup: hypothesis profiles (CI runs the same profile as a developer), and a closing
line for every group of tests skipped for want of a system package, saying what to install."""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.register_profile("thorough", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("CARDTABLE_HYPOTHESIS", "default"))


NEEDS_A_PACKAGE = ("browser tests skipped", "PostgreSQL tests skipped")
"""How the skip reasons of the tests that need a system package begin (tests/web: Chromium, PostgreSQL)."""


def skipped_for_packages(reports: list[Any]) -> list[str]:
    """The distinct skip reasons among ``reports`` that name a missing package, in order."""
    reasons: list[str] = []
    for report in reports:
        longrepr = getattr(report, "longrepr", None)
        reason = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else str(longrepr or "")
        reason = reason.removeprefix("Skipped: ")
        if reason.startswith(NEEDS_A_PACKAGE) and reason not in reasons:
            reasons.append(reason)
    return reasons


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """The last words of a run: which tests did not run for want of Chromium or PostgreSQL, and the
    command that installs them (a fresh machine runs the README's test command without them)."""
    reasons = skipped_for_packages(terminalreporter.stats.get("skipped", []))
    if reasons:
        terminalreporter.section("tests skipped for want of a system package", sep="-", yellow=True)
        for reason in reasons:
            terminalreporter.line(reason, yellow=True)


def pytest_sessionstart(session: object) -> None:
    """``CARDTABLE_EXPECT_BUILD=compiled`` (CI's compiled stage): refuse to run unless the compiled build
    is the one imported, so that a wrong ``PYTHONPATH`` can never pass the pure tree off as compiled."""
    expected = os.environ.get("CARDTABLE_EXPECT_BUILD")
    if expected:
        from cardtable.buildinfo import build_info, describe

        info = build_info()
        if info["build"] != expected:
            raise RuntimeError(f"expected the {expected} build, but this is {describe()} ({info})")
