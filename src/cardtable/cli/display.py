"""Pieces of the screen every command shares: the numbered legal actions, events, results, options."""

from __future__ import annotations

import re
import shutil
import textwrap
from collections.abc import Sequence
from typing import Literal, TextIO, overload

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cardtable.cli.render.generic import compact, label
from cardtable.engine import Action, Game, Option, Result
from cardtable.engine.options import grouped

CARD_MARK = re.compile(r" \(card (\d+)\)")


def described(game: Game, action: Action) -> str:
    """An action for the list of choices: its description, a card's ``(card 17)`` as ``#17``."""
    return CARD_MARK.sub(r" #\1", game.describe_action(action))


def action_cells(game: Game, action: Action) -> tuple[str, str]:
    """The description (``play Greataxe #17``) and, when it differs, the text form to type."""
    said = described(game, action)
    return said, ("" if said == action.text else action.text)


LONG_LIST = 16
"""More choices than this are drawn in columns, their shared words said once (a search of a deck)."""


def shared_words(texts: Sequence[str]) -> tuple[str, str]:
    """The words every text starts with and ends with (``take ``, `` from the deck``), cut at word
    boundaries and never the whole of a text."""
    if len(texts) < 2:
        return "", ""
    shortest = min(len(t) for t in texts)
    head = 0
    while head < shortest and all(t[head] == texts[0][head] for t in texts):
        head += 1
    head = texts[0].rfind(" ", 0, head) + 1
    tail = 0
    while tail < shortest - head and all(t[-1 - tail] == texts[0][-1 - tail] for t in texts):
        tail += 1
    if tail:
        end = texts[0][len(texts[0]) - tail :]
        cut = end.find(" ")
        tail = len(end) - cut if cut >= 0 else 0
    return texts[0][:head], texts[0][len(texts[0]) - tail :] if tail else ""


@overload
def actions_table(
    game: Game, actions: Sequence[Action], width: int = ..., max_rows: int | None = ..., compact: bool = ...
) -> RenderableType: ...


@overload
def actions_table(
    game: Game, actions: Sequence[Action], width: int, max_rows: int | None, compact: bool, *, count: Literal[True]
) -> tuple[RenderableType, int]: ...


def actions_table(
    game: Game,
    actions: Sequence[Action],
    width: int = 80,
    max_rows: int | None = None,
    compact: bool = False,
    *,
    count: bool = False,
) -> RenderableType | tuple[RenderableType, int]:
    """The legal actions numbered from 1 (the numbers a person types), with their text forms.

    A long list (a search through a deck, any list taller than ``max_rows``, or any list at all when
    ``compact``) is drawn in columns fitting ``width``, numbers and what differs only, the words all
    choices share said once above them (for a long list). With ``max_rows``, a list still taller
    than that shows its first choices and says how to see or narrow the rest; the numbers never
    change, so any number of the whole list may be typed. With ``count``, also how many of the
    choices (the first ones) the drawing shows."""
    if compact or len(actions) > LONG_LIST or (max_rows is not None and len(actions) > max_rows):
        said = [described(game, a) for a in actions]
        # A short list keeps every choice's words whole; a long one (a search through a deck) says
        # the words all its choices share once, above them.
        head, tail = shared_words(said) if len(actions) > LONG_LIST else ("", "")
        digits = len(str(len(actions)))
        cells = [f"{n:>{digits}}. {d[len(head) : len(d) - len(tail)]}" for n, d in enumerate(said, 1)]
        gap = 3
        columns = max(1, (width + gap) // (max(len(c) for c in cells) + gap))
        rows = -(-len(cells) // columns)
        shown = cells
        if max_rows is not None and rows > max(1, max_rows):
            rows = max(1, max_rows)
            shown = cells[: rows * columns]
        shared = f"{head.strip()} … {tail.strip()}".strip(" …") if head or tail else "choose"
        lines: list[RenderableType] = [
            Columns([Text(c) for c in shown], column_first=True, padding=(0, gap), width=None),
        ]
        if head or tail:
            note = f"{shared}: {len(actions)} choices; type a number or a few letters of a name"
            lines.insert(0, Text(note, style="italic"))
        if len(shown) < len(cells):
            lines.append(
                Text(
                    f"… and {len(cells) - len(shown)} more ({len(shown) + 1}-{len(cells)}): `choices` lists them all",
                    style="italic",
                )
            )
        return (Group(*lines), len(shown)) if count else Group(*lines)
    table = Table.grid(padding=(0, 2))
    table.add_column(justify="right", style="bold cyan", no_wrap=True)
    table.add_column(overflow="fold")
    table.add_column(style="dim", no_wrap=True)
    for number, action in enumerate(actions, 1):
        table.add_row(f"{number}.", *(Text(c) for c in action_cells(game, action)))
    return (table, len(actions)) if count else table


def grouped_actions(game: Game, actions: Sequence[Action]) -> RenderableType:
    """The choices in fewer rows, numbers unchanged: consecutive choices that start with the same word
    share one wrapped line headed by it (``unequip: 1. Sweet Ninja Sword #102 · 2. Derby #103``)."""
    from cardtable.cli.render.faces import Flow

    said = [described(game, a) for a in actions]
    lines: list[RenderableType] = []
    i = 0
    while i < len(said):
        verb = said[i].split()[0]
        j = i
        while j < len(said) and said[j].split()[0] == verb and " " in said[j]:
            j += 1
        if j - i >= 2:
            items = [Text.assemble((f"{n + 1}.", "bold cyan"), " ", said[n].split(" ", 1)[1]) for n in range(i, j)]
            lines.append(Flow(items, sep="  ", head=Text(f"{verb}: ", style="bold"), indent=4))
            i = j
        else:
            lines.append(Text.assemble((f"{i + 1}.", "bold cyan"), " ", said[i]))
            i += 1
    return Group(*lines)


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


def _default_words(option: Option) -> str:
    """The default as typed (``true``, ``400``, ``""`` for empty text)."""
    if isinstance(option.default, bool):
        return str(option.default).lower()
    return str(option.default) if option.default != "" else '""'


def _values_words(option: Option) -> str:
    """What values an option takes and its default, in a line (choices with labels are listed apart)."""
    default = _default_words(option)
    if option.choices is not None and option.choice_labels is not None:
        return f"default {default}; one of:"
    if option.choices is not None:
        return f"default {default}; values " + " | ".join(str(c) for c in option.choices)
    if option.kind is bool:
        return f"default {default}; values true | false"
    if option.min is not None and option.max is not None and option.min == option.max:
        return f"always {option.min}"
    if option.min is not None and option.max is not None:
        return f"default {default}; values {option.min}..{option.max} (a whole number)"
    return f"default {default}; values text"


def _option_body(option: Option) -> RenderableType:
    """One option for a person: its label, default and values (each labelled choice in words), what it
    does."""
    head = Text(option.label, style="bold")
    lines: list[RenderableType] = [head, Text(_values_words(option))]
    if option.choices is not None and option.choice_labels is not None:
        choices = Table.grid(padding=(0, 1))
        choices.add_column(no_wrap=True, style="cyan")
        choices.add_column(overflow="fold")
        for choice, words in zip(option.choices, option.choice_labels, strict=True):
            mark = " (default)" if choice == option.default else ""
            # A label that only repeats its value ("P1") is not said twice.
            said = "" if words == str(choice) else words
            choices.add_row(Text("  " + str(choice)), Text((said + mark).strip()))
        lines.append(choices)
    lines.append(Text(option.doc, style="dim"))
    return Group(*lines)


ID_WIDTH = 22
"""The widest column of option ids (longer ids fold): at 80 columns, 56 are left for the words."""


def options_by_group(options: Sequence[Option]) -> RenderableType:
    """The options as the lobby groups them: under each group's heading (players, rules variants,
    supplemental rules, readings of unclear rules, house rules, card file, in that order), the
    options a first game may want, then the advanced ones (folded away in the lobby) under their own
    sub-heading. Each option: its id (what ``-o`` takes), its label in the rulebook's words, its
    default and values (labelled choices one a line, with their words), and what it does."""
    if not options:
        return Text("(no options)", style="dim")
    width = min(ID_WIDTH, max(len(o.name) for o in options) + 2)
    parts: list[RenderableType] = []
    for group, members in grouped(options):
        parts.append(Text(group, style="bold magenta"))
        plain = [o for o in members if not o.advanced]
        advanced = [o for o in members if o.advanced]
        for subset, note in ((plain, ""), (advanced, "advanced (folded in the lobby; a first game never needs them)")):
            if not subset:
                continue
            if note:
                parts.append(Text("  " + note, style="italic"))
            table = Table.grid(padding=(0, 1))
            table.add_column(no_wrap=False, width=width, overflow="fold")
            table.add_column(overflow="fold", ratio=1)
            for option in subset:
                table.add_row(Text("  " + option.name, style="cyan"), _option_body(option))
            parts.append(table)
    return Group(*parts)


def configuration_text(config: dict[str, object]) -> str:
    """``players=2 variant=care-bear``."""
    return " ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in config.items()) or "(defaults)"


def wrap_report(text: str, width: int) -> str:
    """A plain-text report wrapped for a terminal ``width`` columns wide: a line of prose longer than
    that breaks between words, its continuation indented two spaces past the line's own indent (a
    terminal would break it mid-word at column ``width`` and start again at column 0). Table rows (with
    ``" | "`` or ``"-+-"``) and lines that fit are left as they are."""
    out: list[str] = []
    for line in text.split("\n"):
        if len(line) <= width or " | " in line or "-+-" in line:
            out.append(line)
            continue
        lead = line[: len(line) - len(line.lstrip(" "))]
        out.append(
            textwrap.fill(
                line.strip(),
                width=max(width, len(lead) + 20),
                initial_indent=lead,
                subsequent_indent=lead + "  ",
                break_long_words=False,
                break_on_hyphens=False,
            )
        )
    return "\n".join(out)


def report_for(stream: TextIO, text: str) -> str:
    """``text`` as it should be printed to ``stream``: wrapped to the terminal's width on a terminal,
    unchanged when written to a file or a pipe (whole lines there, for grep and diff)."""
    if not stream.isatty():
        return text
    return wrap_report(text, shutil.get_terminal_size().columns)
