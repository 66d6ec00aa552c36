"""What a fresh machine needs for the whole suite is said where a newcomer looks: the README names
the Debian packages, and a run without them ends with a summary saying what to install."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

from tests.conftest import skipped_for_packages

ROOT = Path(__file__).resolve().parent.parent


def test_the_readme_says_what_the_whole_suite_needs() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    quick = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    assert "apt-get install chromium postgresql" in quick
    development = text.split("## Development", 1)[1]
    assert "apt-get install chromium postgresql" in development


def test_a_run_without_chromium_ends_saying_what_to_install() -> None:
    """The browser tests on a machine without Chromium (pointed elsewhere): skipped, and the run's
    summary says so and names the package, in its last lines."""
    env = {**os.environ, "CARDTABLE_CHROMIUM": "/nonexistent/chromium", "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "tests/web/test_browser.py", "-q", "-n", "0", "-p", "no:cacheprovider"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    tail = done.stdout.strip().splitlines()[-4:]
    assert done.returncode in (0, 5), done.stdout[-2000:]  # 5: pytest collected nothing to run
    assert any("tests skipped for want of a system package" in line for line in tail), tail
    assert any(
        "browser tests skipped: no Chromium at /nonexistent/chromium: install Debian's chromium "
        "(apt-get install chromium)" in line
        for line in tail
    ), tail


def test_the_summary_names_each_package_once_and_nothing_else() -> None:
    def skipped(reason: str) -> SimpleNamespace:
        return SimpleNamespace(longrepr=("tests/web/x.py", 1, f"Skipped: {reason}"))

    reports = [
        skipped("PostgreSQL tests skipped: no PostgreSQL server binaries: install Debian's postgresql"),
        skipped("PostgreSQL tests skipped: no PostgreSQL server binaries: install Debian's postgresql"),
        skipped("Ctrl+C is SIGINT on POSIX"),
        SimpleNamespace(longrepr=None),
    ]
    assert skipped_for_packages(reports) == [
        "PostgreSQL tests skipped: no PostgreSQL server binaries: install Debian's postgresql"
    ]
