"""The README's quick start and tour, run as a newcomer would type them.

Every command line in the ``sh`` blocks of "Quick start" and "A short tour" runs, in order, in one
scratch folder (so ``--save game.json`` feeds the ``replay game.json`` that follows it), with no
input (a person who walks away: ``Input ended``), and must exit 0. ``pip install ...`` steps are what
this test environment already did; the command after ``&&`` runs as written. The test command of the
quick start is the one CI runs (``tests/test_readme.py``), so it is not run again here.

``cardtable serve`` runs until stopped: it is started with ``--port 0 --no-browser`` added (a free port,
no browser on a test machine) and its data folder in the scratch folder; the test waits for the
address it prints, loads the lobby page from it, stops the server with Ctrl+C and requires a clean exit (no traceback).

The one file a newcomer would make by hand, a transcription of the Mephisto cards, is made by the
README's own command (``cardtable cards mephisto --template > my-mephisto-cards.toml``): a copy of
the bundled stand-in set, which a transcription edits. A command's ``> FILE`` writes its output there,
as the shell would.
"""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
SECTIONS = ("Quick start", "A short tour")


TRAINING = "pip install '.[rl-train]'"
"""A block that begins by installing the training extra (torch, Stable-Baselines3) is shown, not run:
its commands train for minutes with a deep-learning library the test environment does not install.
``tests/rl`` smoke-tests the example itself (``test_maskable_ppo_smoke_on_the_vector_env``)."""


def readme_commands() -> list[str]:
    """The command lines of the sections, in order, comments and ``pip install ... &&`` removed."""
    text = README.read_text(encoding="utf-8")
    out: list[str] = []
    for title in SECTIONS:
        body = text.split(f"## {title}", 1)[1].split("\n## ", 1)[0]
        for block in re.findall(r"```sh\n(.*?)\n```", body, flags=re.S):
            if block.startswith(TRAINING):
                continue  # shown, not run: see TRAINING
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


def test_the_quick_start_starts_the_web_table() -> None:
    assert COMMANDS[0] == "cardtable serve"


def run_server(argv: list[str], cwd: Path, env: dict[str, str]) -> None:
    """Start ``cardtable serve`` as written (plus a free port and no browser), load the page at the
    address it prints, stop it with Ctrl+C: it must exit cleanly."""
    # Later flags win in argparse, so a README port is overridden by the free port.
    command = [sys.executable, "-m", "cardtable.cli.main", *argv[1:], "--port", "0", "--no-browser"]
    server = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None and server.stderr is not None
        line = server.stdout.readline()
        found = re.search(r"open (http://\S+)", line)
        assert found, f"`{' '.join(argv)}` printed no address: {line!r} {server.stderr.read() if server.poll() else ''}"
        with urllib.request.urlopen(found.group(1), timeout=30) as page:
            assert page.status == 200
            assert "cardtable" in page.read().decode("utf-8").lower()
        server.send_signal(signal.SIGINT)
        code = server.wait(timeout=30)
        errors = server.stderr.read() if server.stderr else ""
        # 130 is the shell's code for a program stopped by Ctrl+C; either way, no traceback.
        assert code in (0, 130) and "Traceback" not in errors, (code, errors)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


def test_readme_commands_run_as_written(tmp_path: Path) -> None:
    """In order, in one folder: later commands use what earlier ones wrote (one test, so that no
    parallel runner splits the sequence)."""
    env = {
        **os.environ,
        "COLUMNS": "120",
        "PYTHONPATH": str(ROOT / "src"),
        "XDG_DATA_HOME": str(tmp_path / "data"),  # the web table's default database goes here
    }
    for command in COMMANDS:
        argv = shlex.split(command)
        if argv[:2] == ["cardtable", "serve"]:
            run_server(argv, tmp_path, env)
            continue
        into = None
        if ">" in argv:  # the shell's redirection: the command's output is the file
            at = argv.index(">")
            argv, into = argv[:at], tmp_path / argv[at + 1]
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
        if into is not None:
            into.write_text(done.stdout, encoding="utf-8")
    # The template the README copies is the bundled card file, unchanged.
    bundled = ROOT / "src" / "cardtable" / "games" / "mephisto" / "cards.toml"
    assert (tmp_path / "my-mephisto-cards.toml").read_text(encoding="utf-8") == bundled.read_text(encoding="utf-8")
