"""``cardtable serve``: its options and its one-line errors (the server itself: test_kill9, test_browser)."""

from __future__ import annotations

import socket

import pytest

from cardtable.cli.main import build_parser, main


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
