"""``cardtable cards GAME``: where a game's bundled card file is, and a copy of it to start from.

The bundled file is the template of a card file of one's own (a transcription of the printed cards):
``cardtable cards mephisto --template > my-cards.toml``, edit it, then play with
``cardtable play mephisto -o cards=my-cards.toml``. The file's header explains its format.
"""

from __future__ import annotations

import argparse
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from cardtable.engine import CardtableError
from cardtable.games import game_class

CARD_FILE = "cards.toml"


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "cards",
        help="show where a game's bundled card file is, or print a copy to edit",
        description="Show the path of GAME's bundled card file (the template of a card file of your own), "
        "or with --template print the file itself, to copy and edit: "
        "`cardtable cards mephisto --template > my-cards.toml`, then "
        "`cardtable play mephisto -o cards=my-cards.toml`.",
    )
    parser.add_argument("game", metavar="GAME", help="game id (see `cardtable games`)")
    parser.add_argument(
        "--template", action="store_true", help="print the bundled card file itself (redirect it into a file)"
    )


def bundled_card_file(game_id: str) -> Traversable:
    """The card file ``game_id`` plays with by default: ``cards.toml`` in the game's package.

    Raises :class:`CardtableError` for a game that ships none (a plug-in without card data)."""
    cls: Any = game_class(game_id)
    package = cls.__module__.rpartition(".")[0] or cls.__module__
    try:
        found = resources.files(package).joinpath(CARD_FILE)
    except (ModuleNotFoundError, TypeError):
        found = None
    if found is None or not found.is_file():
        raise CardtableError(f"{game_id} ships no card file ({CARD_FILE}) to copy")
    return found


def run(args: argparse.Namespace) -> int:
    found = bundled_card_file(args.game)
    if args.template:
        # The file as it is, byte for byte in text: no console markup or wrapping.
        out = args.term.console.file
        out.write(found.read_text(encoding="utf-8"))
        out.flush()
        return 0
    console = args.term.console
    console.print(f"{args.game}: the bundled card file is", markup=False)
    console.print(f"  {found}", markup=False, soft_wrap=True)
    console.print(
        "Its header explains the format. To make your own (a transcription of the printed cards):\n"
        f"  cardtable cards {args.game} --template > my-{args.game}-cards.toml\n"
        f"  (edit it, then)  cardtable play {args.game} -o cards=my-{args.game}-cards.toml",
        markup=False,
        soft_wrap=True,
    )
    return 0
