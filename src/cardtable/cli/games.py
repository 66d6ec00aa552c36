"""``cardtable games``: every game this build can load, with its options and configurations.

Options are listed by group (players, rules variants, supplemental rules, readings of unclear rules,
house rules, card file), each with its label in the rulebook's words, what it does, its default and
the values it takes (a whole number's minimum and maximum).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

import cardtable
from cardtable.cli.display import configuration_text
from cardtable.engine import CardtableError, Option
from cardtable.engine.options import grouped
from cardtable.games import canonical_id, game_class


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "games",
        help="list the games, their options, variants and configurations",
        description="List every game this build can load, with its options grouped as a player looks for "
        "them (what each does, its default and the values it takes) and the configurations (option sets) "
        "that cover all its variants and player counts.",
    )
    parser.add_argument("game", metavar="GAME", nargs="?", help="list this game only (default: every game)")
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


def allowed_text(option: Option) -> str:
    """The values an option takes, as typed: ``a | b``, ``true | false``, ``2..2000`` or ``text``."""
    if option.choices is not None:
        return " | ".join(str(c) for c in option.choices)
    if option.kind is bool:
        return "true | false"
    if option.min is not None and option.max is not None:
        return f"{option.min}..{option.max}"
    return "text"


def default_text(option: Option) -> str:
    """The default as typed (``true``, ``400``, ``""`` for empty text)."""
    if isinstance(option.default, bool):
        return str(option.default).lower()
    return str(option.default) if option.default != "" else '""'


def grouped_options_table(options: Sequence[Option]) -> RenderableType:
    """The options under their group headings: each option's id, then its label, its default and the
    values it takes, and what it does."""
    if not options:
        return Text("(no options)", style="dim")
    width = max(len(o.name) for o in options) + 4
    parts: list[RenderableType] = []
    for group, members in grouped(options):
        parts.append(Text(group, style="bold magenta"))
        table = Table.grid(padding=(0, 1))
        table.add_column(no_wrap=True, width=width)
        table.add_column(overflow="fold", ratio=1)
        for option in members:
            what = Text(option.label, style="bold")
            what.append(f"\ndefault {default_text(option)}; values {allowed_text(option)}")
            what.append("\n" + option.doc, style="dim")
            table.add_row(Text("  " + option.name, style="cyan"), what)
        parts.append(table)
    return Group(*parts)


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
    parts: list[RenderableType] = [grouped_options_table(options)]
    if configs:
        parts.append(Text("configurations:", style="bold"))
        parts.extend(Text("  " + configuration_text(c)) for c in configs)
    return Panel(Group(*parts), title=head, title_align="left")


def run(args: argparse.Namespace) -> int:
    console = args.term.console
    if args.game is not None:
        game_class(args.game)  # an unknown id is refused here, naming the known ones
        ids = [canonical_id(args.game)]
    else:
        ids = cardtable.available()
    if not ids:
        console.print("No games are installed in this build.")
        return 0
    for game_id in ids:
        console.print(game_block(game_id, args.brief))
    if not args.brief:
        console.print(Text("Set options with `cardtable play GAME -o KEY=VALUE`.", style="dim"))
    return 0
