"""Fixtures for the command-line tests: the toy games registered, and a way to run ``main`` scripted."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import pytest
from rich.console import Console

import cardtable
from cardtable.cli.main import main
from tests.cli.named_toy import NamedToy
from tests.engine.toy import Toy


@pytest.fixture(autouse=True)
def test_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy games, registered for each test and removed after it.

    Not at import: other test modules list ``cardtable.available()`` when they are collected (golden
    playthroughs, conformance) and must not find games that only these tests define. The registry
    has no public way to unregister, so the test patches its table directly.
    """
    monkeypatch.setitem(cardtable.games._EXTRA, "toy", Toy)
    monkeypatch.setitem(cardtable.games._EXTRA, "named-toy", NamedToy)


@dataclass
class Run:
    """What one ``main([...])`` call did."""

    code: int
    out: str
    err: str


Runner = Callable[..., Run]


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Runner:
    """``cli("play", "toy", input=["1", "2"])``: run main with scripted input lines, in a temp dir."""
    monkeypatch.chdir(tmp_path)

    def run(*argv: str, input: Iterable[str] | io.TextIOBase = ()) -> Run:
        out = io.StringIO()
        console = Console(file=out, force_terminal=False, width=100, highlight=False)
        stdin = input if isinstance(input, io.TextIOBase) else io.StringIO("".join(line + "\n" for line in input))
        capsys.readouterr()
        code = main(list(argv), console=console, stdin=stdin)  # type: ignore[arg-type]  # a text stream, if not a TextIO
        captured = capsys.readouterr()
        return Run(code, out.getvalue() + captured.out, captured.err)

    return run
