"""``cardtable serve``: its options, its one-line errors, and a real run as a newcomer starts it
(the server itself: test_kill9, test_browser)."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from cardtable.cli.main import build_parser, main
from tests.web.server import ROOT


def test_serve_is_a_command() -> None:
    parser = build_parser()
    args = parser.parse_args(["serve", "--port", "0", "--no-browser"])
    assert args.command == "serve" and args.port == 0 and args.no_browser and args.host == "127.0.0.1"


def test_bad_database_url_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--no-browser", "--db", "nosuchdb://x/y"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cardtable: error:") and err.count("\n") == 1


def test_port_in_use_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: object) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert main(["serve", "--no-browser", "--port", str(port), "--db", f"sqlite:///{tmp_path}/x.db"]) == 2
    err = capsys.readouterr().err
    assert "cannot listen" in err and err.count("\n") == 1


def test_bad_port(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--no-browser", "--port", "70000"]) == 2
    assert "--port" in capsys.readouterr().err


def _serve(args: list[str], data: Path) -> subprocess.Popen[str]:
    """``cardtable serve`` as a fresh install runs it: no display (so no browser), an empty data dir."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "BROWSER")}
    env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
    env["XDG_DATA_HOME"] = str(data)  # where platformdirs puts the user data dir on Linux
    cmd = [sys.executable, "-m", "cardtable.cli.main", "serve", *args]
    return subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.mark.skipif(sys.platform == "win32", reason="Ctrl+C is SIGINT on POSIX")
def test_serve_prints_one_address_uses_the_data_dir_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    proc = _serve(["--port", "0"], tmp_path)  # no --no-browser: without a display it opens none, and goes on
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        found = re.search(r"open (http://127\.0\.0\.1:(\d+)/) ", line)
        assert found, f"no address to open in {line!r}"
        assert int(found.group(2)) != 0, "--port 0 prints the port it picked"
        db = tmp_path / "cardtable" / "tables.db"
        assert f"database {db}" in line, "the default database lives in the user data dir, and its path is shown"
        with urllib.request.urlopen(found.group(1), timeout=10) as page:
            assert page.status == 200 and b"<html" in page.read().lower()
        assert db.exists()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err
    assert out.strip().count("\n") == 0 and "stopped" in out, f"one line on Ctrl+C, got {out!r}"
    assert "Traceback" not in err


def test_serve_on_a_busy_port_says_so_in_one_line(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        proc = _serve(["--no-browser", "--port", str(busy.getsockname()[1])], tmp_path)
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 2 and out == ""
    assert err.startswith("cardtable: error: cannot listen on 127.0.0.1:") and err.count("\n") == 1, err


def test_every_limit_has_a_flag_and_a_row_in_the_docs() -> None:
    """Each field of ``Limits`` is a ``cardtable serve`` flag with the same default, listed (with
    that default) in docs/web.md's table of limits."""
    from dataclasses import fields

    from cardtable.web.limits import Limits

    parser = build_parser()
    args = parser.parse_args(["serve"])
    docs = (ROOT / "docs" / "web.md").read_text()
    table = docs[docs.index("## Limits") : docs.index("## Browser-facing hardening")]
    rows = {
        line.split("|")[1].strip().split(" ")[0]: line.split("|")[2].strip()
        for line in table.splitlines()
        if line.startswith("| `--")
    }
    defaults = Limits()
    for f in fields(Limits):
        flag = Limits.flag(f.name)
        assert getattr(args, f.name) == getattr(defaults, f.name), flag
        assert f"`{flag}" in rows, f"{flag} is missing from docs/web.md's table of limits"
        shown = rows[f"`{flag}"]
        value = getattr(defaults, f.name)
        if f.name != "max_connections":  # its default depends on the machine's open-files limit
            assert shown == f"{value:g}" if isinstance(value, float) else shown == str(value), (flag, shown)
    assert len(rows) == len(fields(Limits)), "a row in the docs names no limit"


def test_bad_limits_are_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for bad in (["--message-rate", "0"], ["--bot-cpu", "2"], ["--bot-budget", "inf"], ["--allow-origin", "nope"]):
        assert main(["serve", "--no-browser", "--db", f"sqlite:///{tmp_path}/x.db", *bad]) == 2
        err = capsys.readouterr().err
        assert err.startswith("cardtable: error:") and err.count("\n") == 1, (bad, err)
