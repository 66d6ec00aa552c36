"""``cardtable games``: every game this build can load, with its options and configurations."""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.text import Text

import cardtable
from cardtable.cli.display import configuration_text, options_table
from cardtable.engine import CardtableError, Option
from cardtable.games import game_class


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "games",
        help="list the games, their options, variants and configurations",
        description="List every game this build can load, with its options (and what each does) and the "
        "configurations (option sets) that cover all its variants and player counts.",
    )
    parser.add_argument("--brief", action="store_true", help="one line per game")


def players_text(options: tuple[Option, ...]) -> str:
    """``1-4 players`` from the game's ``players`` option."""
    for option in options:
        if option.name == "players":
            if option.choices is not None:
                return "/".join(str(c) for c in option.choices) + " players"
            low, high = option.min, option.max
            if low is not None and high is not None:
                return f"{low} players" if low == high else f"{low}-{high} players"
            return f"{low or 1}+ players"
    return "players fixed by the game"


def game_block(game_id: str, brief: bool) -> RenderableType:
    """One game's entry, or a line saying why it cannot be loaded (the listing itself never fails)."""
    try:
        cls: Any = game_class(game_id)
        options: tuple[Option, ...] = tuple(cls.OPTIONS)
        configs = [dict(c) for c in cls.CONFIGURATIONS]
        title = str(cls.title or game_id)
    except CardtableError as exc:
        return Text.assemble((game_id, "bold red"), f"  cannot be loaded: {exc}")
    except Exception as exc:  # a half-installed game must not hide the others from the listing
        return Text.assemble((game_id, "bold red"), f"  cannot be loaded: {type(exc).__name__}: {exc}")
    head = Text.assemble((game_id, "bold cyan"), "  ", (title, "bold"), f"  ({players_text(options)})")
    if brief:
        return head
    parts: list[RenderableType] = [options_table(options)]
    if configs:
        parts.append(Text("configurations:", style="bold"))
        parts.extend(Text("  " + configuration_text(c)) for c in configs)
    return Panel(Group(*parts), title=head, title_align="left")


def run(args: argparse.Namespace) -> int:
    console = args.term.console
    ids = cardtable.available()
    if not ids:
        console.print("No games are installed in this build.")
        return 0
    for game_id in ids:
        console.print(game_block(game_id, args.brief))
    if not args.brief:
        console.print(Text("Set options with `cardtable play GAME -o KEY=VALUE`.", style="dim"))
    return 0
