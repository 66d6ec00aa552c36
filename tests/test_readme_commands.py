"""The README's quick start and tour, run as a newcomer would type them.

Every command line in the ``sh`` blocks of "Quick start" and "A short tour" runs, in order, in one
scratch folder (so ``--save game.json`` feeds the ``replay game.json`` that follows it), with no
input (a person who walks away: ``Input ended``), and must exit 0. ``pip install ...`` steps are what
this test environment already did; the command after ``&&`` runs as written. The test command of the
quick start is the one CI runs (``tests/test_readme.py``), so it is not run again here.

The one file a newcomer would make by hand, a transcription of the Mephisto cards, is made here as a
copy of the bundled stand-in set (the README says a transcription has the same format).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
SECTIONS = ("Quick start", "A short tour")


def readme_commands() -> list[str]:
    """The command lines of the sections, in order, comments and ``pip install ... &&`` removed."""
    text = README.read_text(encoding="utf-8")
    out: list[str] = []
    for title in SECTIONS:
        body = text.split(f"## {title}", 1)[1].split("\n## ", 1)[0]
        for block in re.findall(r"```sh\n(.*?)\n```", body, flags=re.S):
            for raw in block.splitlines():
                line = raw.split("  #", 1)[0].strip()
                if not line:
                    continue
                if line.startswith("pip install"):
                    _, _, line = line.partition("&&")
                    line = line.strip()
                if line and not line.startswith("python -m pytest"):
                    out.append(line)
    return out


COMMANDS = readme_commands()


def test_the_tour_has_commands() -> None:
    assert len(COMMANDS) >= 8
    assert all(c.startswith("cardtable ") for c in COMMANDS), [c for c in COMMANDS if not c.startswith("cardtable ")]


def test_readme_commands_run_as_written(tmp_path: Path) -> None:
    """In order, in one folder: later commands use what earlier ones wrote (one test, so that no
    parallel runner splits the sequence)."""
    shutil.copy(ROOT / "src" / "cardtable" / "games" / "mephisto" / "cards.toml", tmp_path / "my-mephisto-cards.toml")
    env = {**os.environ, "COLUMNS": "120", "PYTHONPATH": str(ROOT / "src")}
    for command in COMMANDS:
        argv = shlex.split(command)
        done = subprocess.run(
            [sys.executable, "-m", "cardtable.cli.main", *argv[1:]],
            cwd=tmp_path,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=300,
            env=env,
            check=False,
        )
        assert done.returncode == 0, f"`{command}` exited {done.returncode}:\n{done.stderr[-2000:]}"
        assert "Traceback" not in done.stderr, command
