"""``cardtable``: the command-line entry point.

Every subcommand is a module with ``add_parser(subparsers) -> None`` (which must set
``func=run`` through :func:`argparse.ArgumentParser.set_defaults`, or leave it to :func:`build_parser`)
and ``run(args) -> int``. To add one, write the module and add its name to :data:`COMMANDS`.

Errors cardtable raises on purpose (:class:`~cardtable.engine.CardtableError`: unknown game, bad
option, unreadable or diverging record) are printed as one line on stderr with exit status 2, never
as a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import TextIO

from rich.console import Console

from cardtable import __version__
from cardtable.cli.term import Terminal
from cardtable.engine import CardtableError
from cardtable.games import canonical_id

COMMANDS: list[str] = [
    "cardtable.cli.games",
    "cardtable.cli.options",
    "cardtable.cli.cards",
    "cardtable.cli.play",
    "cardtable.cli.replay",
    "cardtable.cli.simulate",
    "cardtable.cli.tune",
    "cardtable.cli.report",
    "cardtable.cli.serve",
]
"""The subcommand modules, in the order ``--help`` lists them. Adding a command is one line here."""


def _modules() -> list[ModuleType]:
    return [importlib.import_module(name) for name in COMMANDS]


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser, one subparser per module in :data:`COMMANDS`."""
    parser = argparse.ArgumentParser(
        prog="cardtable",
        description="Play tabletop card games by their complete printed rules: play, replay, simulate.",
        epilog="Run `cardtable COMMAND --help` for a command's options.",
    )
    from cardtable.buildinfo import describe

    # Which build runs: pure Python or compiled with mypyc, and which twin of the generator.
    parser.add_argument("--version", action="version", version=f"cardtable {__version__} ({describe()})")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module in _modules():
        before = set(subparsers.choices)
        module.add_parser(subparsers)
        # Bind each new subparser to its module's run(), so modules need not do it themselves.
        for name in set(subparsers.choices) - before:
            sub = subparsers.choices[name]
            if sub.get_default("func") is None:
                sub.set_defaults(func=module.run)
    return parser


def main(argv: Sequence[str] | None = None, *, console: Console | None = None, stdin: TextIO | None = None) -> int:
    """Run the command line and return the exit status.

    ``console`` and ``stdin`` replace the terminal's output and input (tests, scripts); commands read
    them as ``args.term`` (a :class:`~cardtable.cli.term.Terminal`).
    """
    parser = build_parser()
    try:
        args = parser.parse_args(list(argv) if argv is not None else None)
    except SystemExit as exc:  # argparse exits on --help (0) and on usage errors (2)
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    args.term = Terminal(console, stdin)
    try:
        if isinstance(getattr(args, "game", None), str):
            # One spelling everywhere after this point: `Mephisto` and `mr_card_game` are accepted.
            args.game = canonical_id(args.game)
        status: int = args.func(args)
    except CardtableError as exc:
        print(f"cardtable: error: {_one_line(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("cardtable: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return _reader_gone()
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        return _reader_gone()
    return status


def _reader_gone() -> int:
    """``cardtable games | head``: the reader went away; nothing useful is left to say.

    Point stdout at /dev/null so Python's own flush at exit does not fail a second time.
    """
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 0


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


if __name__ == "__main__":
    sys.exit(main())
