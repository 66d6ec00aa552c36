"""A clean process lifecycle (issue 23, findings 7 and 12): nothing outlives the server, and it stops cleanly.

- ``kill -9`` of the server, while its bots think: every bot worker (and any other child process,
  such as multiprocessing's resource tracker) is gone within a few seconds;
- SIGTERM and SIGINT both stop the server: status 0, "stopped (every table is saved …)", no
  traceback, no worker left;
- the number of workers is the bot CPU share of the cores (``--bot-cpu``).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.web import procs
from tests.web.server import ROOT, Server


def test_kill9_leaves_no_bot_worker_or_other_child_behind(tmp_path: Path) -> None:
    server = Server(f"sqlite:///{tmp_path / 't.db'}", extra=["--bot-workers", "2"]).start()
    with contextlib.ExitStack() as stack:
        stack.callback(server.stop)
        # Both workers busy with a search when the server dies.
        for _ in range(2):
            server.create("mephisto", ["ismcts:ms=5000", "ismcts:ms=5000"], players=2)
        kids = procs.wait_until(
            lambda: len(procs.children(server.pid)) >= 2 and procs.children(server.pid), 15, "the bots' processes"
        )
        time.sleep(1.0)  # thinking
        kids = procs.children(server.pid)
        server.kill9()
        procs.wait_until(
            lambda: not any(procs.alive(pid) for pid in kids),
            5,
            f"a child of the killed server outlived it: {[(p, procs.cmdline(p)) for p in kids if procs.alive(p)]}",
        )


def _serve(tmp_path: Path) -> subprocess.Popen[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
    cmd = [sys.executable, "-m", "cardtable.cli.main", "serve", "--no-browser", "--port", "0", "--bot-workers", "2"]
    cmd += ["--db", f"sqlite:///{tmp_path / 't.db'}"]
    return subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_sigterm_and_sigint_stop_cleanly(tmp_path: Path, sig: signal.Signals) -> None:
    proc = _serve(tmp_path)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        found = re.search(r"open (http://127\.0\.0\.1:\d+/)", line)
        assert found, line
        body = {"game": "mephisto", "options": {"players": 2}, "seats": ["ismcts:ms=5000", "ismcts:ms=5000"]}
        request = urllib.request.Request(
            found.group(1) + "api/tables", json.dumps(body).encode(), {"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=30) as answer:
            assert answer.status == 200

        def two_or_more() -> list[int]:
            kids = procs.children(proc.pid)
            return kids if len(kids) >= 2 else []

        workers = procs.wait_until(two_or_more, 15, "the bots' processes")
        time.sleep(1.0)  # a bot is thinking
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, (proc.returncode, err[-2000:])
    assert "stopped (every table is saved" in out, out
    assert "Traceback" not in err, err[-2000:]
    procs.wait_until(lambda: not any(procs.alive(p) for p in workers), 5, "the bots' processes ended with the server")


def test_the_workers_are_the_bot_cpu_share(tmp_path: Path) -> None:
    cores = os.cpu_count() or 1
    server = Server(f"sqlite:///{tmp_path / 't.db'}", extra=["--bot-cpu", "1"]).start()
    try:
        procs.wait_until(lambda: len(procs.bot_workers(server.pid)) == cores, 15, f"{cores} workers for --bot-cpu 1")
    finally:
        server.stop()
