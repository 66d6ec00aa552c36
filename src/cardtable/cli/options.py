"""``cardtable options GAME``: one game's options, configurations and action forms."""

from __future__ import annotations

import argparse
from typing import Any

from rich.padding import Padding
from rich.text import Text

from cardtable.cli.common import add_game_options, game_options, load_game
from cardtable.cli.display import configuration_text, options_by_group
from cardtable.cli.games import players_text
from cardtable.engine import Option
from cardtable.games import game_class


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "options",
        help="show one game's options and the actions it offers",
        description="Show a game's options grouped as the lobby shows them (label, default, allowed values, "
        "what each does; advanced ones apart), its configurations, "
        "and the text forms of its actions. Options given here are validated, so this also checks a set "
        "of options before playing with it.",
    )
    parser.add_argument("game", metavar="GAME", help="game id (see `cardtable games`)")
    add_game_options(parser)


def run(args: argparse.Namespace) -> int:
    console = args.term.console
    cls: Any = game_class(args.game)
    options: tuple[Option, ...] = tuple(cls.OPTIONS)
    console.print(Text.assemble((args.game, "bold cyan"), "  ", (str(cls.title or args.game), "bold")))
    console.print(players_text(options))
    console.print(options_by_group(options))
    configs = [dict(c) for c in cls.CONFIGURATIONS]
    if configs:
        console.print(Text("configurations:", style="bold"))
        for config in configs:
            console.print("  " + configuration_text(config), markup=False)
    game = load_game(args.game, game_options(args))
    # The two long lines wrap under their own indent, not back at column 0 among the headings.
    console.print(Text("with these options:", style="bold"))
    console.print(Padding(Text(configuration_text(dict(game.options))), (0, 0, 0, 2)))
    console.print(Text("actions:", style="bold"))
    console.print(Padding(Text(game.actions.kinds_text()), (0, 0, 0, 2)))
    return 0
