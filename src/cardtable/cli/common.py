"""Helpers shared by the subcommands: game options from the command line, record files."""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cardtable
from cardtable.engine import CardtableError, Game, OptionError
from cardtable.engine.errors import quoted
from cardtable.engine.files import RECORD_LIMIT, read_regular_file
from cardtable.engine.game import JSON

CARD_HELP = (
    "what-if card edit CARD.FIELD=VALUE (repeatable): play with a number on a card changed, without editing "
    "the card file, e.g. --card 'Witch.attack=10'; CARD#N edits only the N-th copy of that name"
)


def at_least(minimum: int) -> Callable[[str], int]:
    """An argparse ``type`` for a whole number of at least ``minimum`` (``--games``, ``--rounds``): any
    other text is refused with a message that says what was typed and what is allowed."""

    def count(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a whole number, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, got {value}")
        return value

    return count


def add_game_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--players``, ``--variant`` and repeatable ``-o key=value`` to a subcommand."""
    parser.add_argument("--players", type=int, metavar="N", help="number of players (the game's 'players' option)")
    parser.add_argument("--variant", metavar="NAME", help="the game's 'variant' option (see `cardtable options GAME`)")
    parser.add_argument(
        "-o",
        "--option",
        dest="options",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="set any game option (repeatable), e.g. -o turn-limit=40",
    )


def add_card_edits(parser: argparse.ArgumentParser) -> None:
    """Add repeatable ``--card EDIT`` (what-if card edits, read with :func:`card_edits`) to a subcommand."""
    parser.add_argument("--card", dest="card_edits", action="append", default=[], metavar="EDIT", help=CARD_HELP)


def card_edits(args: argparse.Namespace) -> list[str]:
    """The what-if card edits a subcommand's ``--card`` flags name (checked when the game loads)."""
    return list(getattr(args, "card_edits", None) or [])


def parse_options(pairs: list[str]) -> dict[str, str]:
    """Turn ``["key=value", ...]`` into a dict of text values (the game validates and converts them)."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        key = key.strip()
        if not eq or not key:
            raise OptionError(f"option {pair!r}: expected KEY=VALUE")
        if key in out:
            raise OptionError(f"option {key!r} given twice")
        out[key] = value.strip()
    return out


def game_options(args: argparse.Namespace) -> dict[str, Any]:
    """The options a subcommand's ``--players``/``--variant``/``-o`` name (not yet validated)."""
    options: dict[str, Any] = parse_options(args.options)
    for name, value in (("players", args.players), ("variant", args.variant)):
        if value is None:
            continue
        if name in options and str(options[name]) != str(value):
            raise OptionError(f"option {name!r} given twice with different values ({options[name]} and {value})")
        options[name] = value
    return options


def check_backend(args: argparse.Namespace) -> None:
    """Refuse ``--address`` without ``--backend ray`` (``simulate``, ``tune``): the local backend has no
    use for an address, and ignoring it would play on this machine a run meant for a cluster."""
    if getattr(args, "address", None) is not None and getattr(args, "backend", "local") != "ray":
        raise OptionError(f"--address {args.address} names a Ray cluster: add --backend ray to play there")


def load_game(game_id: str, options: dict[str, Any], edits: list[str] | None = None) -> Game:
    """Load a game (with what-if card ``edits``), turning any failure into a :class:`CardtableError`
    with a one-line message."""
    return cardtable.load(game_id, card_edits=edits or (), **options)


def read_record(path: str) -> dict[str, JSON]:
    """Read a record JSON file. Anything but a regular file of bounded size holding UTF-8 JSON text
    whose top level is an object is a :class:`CardtableError` with a one-line message: a missing
    file, a directory or FIFO, a NUL in the path, bytes that are not UTF-8, broken or absurdly deep
    JSON, numbers of thousands of digits."""
    shown = quoted(path, 80)
    raw = read_regular_file(path, RECORD_LIMIT, "record")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CardtableError(f"{shown}: not a record: byte {exc.start} is not UTF-8 text") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CardtableError(f"{shown}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    except RecursionError:
        raise CardtableError(f"{shown}: not a record: the JSON is nested too deeply") from None
    except ValueError as exc:  # e.g. an integer of more digits than Python converts
        raise CardtableError(f"{shown}: not a record: {str(exc)[:120]}") from None
    if not isinstance(data, dict):
        raise CardtableError(f"{shown}: a record must be a JSON object")
    return data


def check_record_path(path: str) -> None:
    """Refuse, before a game starts, a ``--save`` path that could not be written at its end: a NUL in
    it, a folder that does not exist or cannot be written to, a path that is a folder or a device.
    Creates nothing (the file is written when the game is saved)."""
    name = quoted(path, 80)
    if "\x00" in path:
        raise OptionError(f"--save {name}: the path contains a NUL byte")
    target = Path(path)
    if target.exists():
        if not target.is_file():
            raise OptionError(f"--save {name}: it is a folder or not a regular file")
        if not os.access(target, os.W_OK):
            raise OptionError(f"--save {name}: the file cannot be written (permission denied)")
        return
    folder = target.parent
    if not folder.is_dir():
        raise OptionError(f"--save {name}: the folder {quoted(str(folder), 80)} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OptionError(f"--save {name}: the folder {quoted(str(folder), 80)} cannot be written to")


def write_record(path: str, record: dict[str, JSON]) -> None:
    """Write a record as indented JSON; failure to write is a :class:`CardtableError`."""
    try:
        Path(path).write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the path
        raise CardtableError(
            f"cannot write record {quoted(path, 80)}: {getattr(exc, 'strerror', None) or exc}"
        ) from None
