"""`cardtable simulate` as a plain install runs it: in a subprocess where optional libraries cannot be
imported (a meta-path blocker, installed by a ``sitecustomize`` on ``PYTHONPATH``, makes their real
import fail), and where matplotlib is missing too (a broken install): then it fails before any work
with one line naming the install command, or works without figures when told ``--no-plots``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import cardtable

SRC = Path(cardtable.__file__).resolve().parents[1]

BLOCKER = """
import importlib.abc
import os
import sys

_BLOCKED = set(filter(None, os.environ.get("CARDTABLE_TEST_BLOCK", "").split(",")))


class _Blocker(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in _BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, _Blocker())
"""


def _run(tmp_path: Path, blocked: str, *args: str) -> subprocess.CompletedProcess[str]:
    site = tmp_path / "site"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(BLOCKER)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), str(SRC)]), CARDTABLE_TEST_BLOCK=blocked)
    return subprocess.run(
        [sys.executable, *args], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300, check=False
    )


def _cli(tmp_path: Path, blocked: str, *args: str) -> subprocess.CompletedProcess[str]:
    return _run(tmp_path, blocked, "-m", "cardtable.cli.main", *args)


def test_the_blocker_makes_the_real_import_fail(tmp_path: Path) -> None:
    probe = _run(tmp_path, "matplotlib,tqdm", "-c", "import cardtable.sim.run, cardtable.sim.report; import matplotlib")
    assert probe.returncode == 1 and "ModuleNotFoundError: No module named 'matplotlib'" in probe.stderr
    free = _run(tmp_path, "", "-c", "import matplotlib")
    assert free.returncode == 0, free.stderr


def test_simulate_works_without_optional_extras(tmp_path: Path) -> None:
    """No tqdm, no ray (neither is a dependency): the documented command works, figures included."""
    done = _cli(tmp_path, "tqdm,ray", "simulate", "mephisto", "-n", "3", "--seats", "random", "-j", "1", "-O", "run")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "3/3" in done.stderr  # rich's progress bar, ending at 3 of 3
    assert "Mephisto: 3 of 3 games, run seed 0\nComplete: all 3 planned games." in done.stdout
    assert len((tmp_path / "run" / "results.jsonl").read_text().splitlines()) == 3
    assert "data:image/png;base64," in (tmp_path / "run" / "report.html").read_text()


def test_without_matplotlib_simulate_stops_before_any_work_with_one_line(tmp_path: Path) -> None:
    args = ("simulate", "mephisto", "-n", "3", "--seats", "random", "-j", "1", "-O", "run")
    failed = _cli(tmp_path, "matplotlib,tqdm,ray", *args)
    assert failed.returncode == 2 and failed.stdout == ""
    assert failed.stderr.count("\n") == 1 and "Traceback" not in failed.stderr
    assert failed.stderr.startswith("cardtable: error: the report's plots need matplotlib, which cannot be imported")
    assert "pip install 'matplotlib>=3.8,<4'" in failed.stderr and "--no-plots" in failed.stderr
    assert not (tmp_path / "run").exists(), "a failed start must leave no folder behind"
    # Told to draw no figures, the same install plays the games and writes the report's text and tables.
    done = _cli(tmp_path, "matplotlib,tqdm,ray", *args, "--no-plots")
    assert done.returncode == 0, done.stderr
    assert "Complete: all 3 planned games." in done.stdout
    page = (tmp_path / "run" / "report.html").read_text()
    assert "<img" not in page and "Win share per seat" in page
    assert json.loads((tmp_path / "run" / "report.json").read_text())["games_played"] == 3
    # `report` asked for figures fails the same way, leaving the report as it was.
    again = _cli(tmp_path, "matplotlib", "report", "run")
    assert again.returncode == 2 and again.stderr.count("\n") == 1 and "--no-plots" in again.stderr
    assert (tmp_path / "run" / "report.html").read_text() == page


@pytest.mark.parametrize("games", [0, 2])
def test_report_on_a_folder_a_failed_run_left(tmp_path: Path, games: int) -> None:
    """A run that died after starting its folder: the report says exactly how many games are there."""
    args = ("simulate", "mephisto", "-n", "5", "--seats", "random", "-j", "1", "-O", "run", "--no-report")
    assert _cli(tmp_path, "", *args).returncode == 0
    results = tmp_path / "run" / "results.jsonl"
    results.write_text("".join(results.read_text().splitlines(keepends=True)[:games]))
    shown = _cli(tmp_path, "", "report", "run", "--no-plots")
    assert shown.returncode == 0, shown.stderr
    if games == 0:
        assert "No game has finished in this folder yet (0 of 5 planned)" in shown.stdout
    else:
        assert "Incomplete run: 2 of 5 planned games are in this folder" in shown.stdout
    assert "run the same `cardtable simulate` command again" in shown.stdout
