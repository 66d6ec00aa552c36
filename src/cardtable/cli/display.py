"""Pieces of the screen every command shares: the numbered legal actions, events, results, options."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cardtable.cli.render.generic import compact, label
from cardtable.engine import Action, Game, Option, Result


def action_cells(game: Game, action: Action) -> tuple[str, str]:
    """The description (``play Greataxe (card 17)``) and, when it differs, the text form to type."""
    described = game.describe_action(action)
    return described, ("" if described == action.text else action.text)


def actions_table(game: Game, actions: Sequence[Action]) -> Table:
    """The legal actions numbered from 1 (the numbers a person types), with their text forms."""
    table = Table.grid(padding=(0, 2))
    table.add_column(justify="right", style="bold cyan", no_wrap=True)
    table.add_column(overflow="fold")
    table.add_column(style="dim", no_wrap=True)
    for number, action in enumerate(actions, 1):
        table.add_row(f"{number}.", *(Text(c) for c in action_cells(game, action)))
    return table


def events_panel(lines: Sequence[str], title: str, first: int = 1, empty: str = "nothing new") -> RenderableType:
    """Event lines, numbered from ``first`` (their place in the seat's whole log)."""
    if not lines:
        return Text(f"{title}: {empty}.", style="dim")
    table = Table.grid(padding=(0, 1))
    table.add_column(justify="right", style="dim")
    table.add_column()
    for number, line in enumerate(lines, first):
        table.add_row(f"{number}", Text(line))
    return Panel(table, title=Text(title), title_align="left", border_style="magenta")


def result_table(game: Game, result: Result, seat_labels: Sequence[str] | None = None) -> RenderableType:
    """Scores, ranks and winners of a finished game, with the reason it ended."""
    table = Table(title="Result", title_justify="left")
    table.add_column("seat", style="bold")
    if seat_labels is not None:
        table.add_column("player")
    table.add_column("score", justify="right")
    table.add_column("rank", justify="right")
    table.add_column("")
    for seat in range(len(result.scores)):
        score = result.scores[seat]
        row = [game.seat_name(seat)]
        if seat_labels is not None:
            row.append(seat_labels[seat])
        row += [f"{score:g}", str(result.ranks[seat]), "winner" if seat in result.winners else ""]
        table.add_row(*(Text(c) for c in row), style="bold green" if seat in result.winners else None)
    notes = [f"ended: {result.reason}", f"turns: {result.turns}"]
    if result.draw:
        notes.append("a draw")
    elif not result.winners:
        notes.append("nobody won")
    if result.truncated:
        notes.append("stopped by a limit, not by the rules")
    if result.teams:
        notes.append("teams: " + "; ".join("+".join(game.seat_name(s) for s in team) for team in result.teams))
    for key, value in result.details.items():
        notes.append(f"{label(key)}: {compact(value, 200)}")
    caption = Text("\n".join(notes))
    grid = Table.grid()
    grid.add_row(table)
    grid.add_row(caption)
    return grid


def option_allowed(option: Option) -> str:
    """What values an option takes, in words."""
    if option.choices is not None:
        return " | ".join(str(c) for c in option.choices)
    if option.kind is bool:
        return "true | false"
    if option.min is not None or option.max is not None:
        low = "" if option.min is None else str(option.min)
        high = "" if option.max is None else str(option.max)
        return f"{low}..{high}"
    return {int: "integer", str: "text"}.get(option.kind, "")


def options_table(options: Sequence[Option]) -> RenderableType:
    if not options:
        return Text("(no options)", style="dim")
    table = Table(box=None, pad_edge=False, show_edge=False, header_style="bold")
    table.add_column("option", style="cyan", no_wrap=True)
    table.add_column("default")
    table.add_column("allowed")
    table.add_column("what it does", overflow="fold")
    for option in options:
        default = str(option.default).lower() if isinstance(option.default, bool) else str(option.default)
        default = default if default != "" else '""'
        table.add_row(*(Text(c) for c in (option.name, default, option_allowed(option), option.doc)))
    return table


def configuration_text(config: dict[str, object]) -> str:
    """``players=2 variant=care-bear``."""
    return " ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in config.items()) or "(defaults)"
