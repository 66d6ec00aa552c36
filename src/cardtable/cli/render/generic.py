"""A renderer that lays out any game's view, including games written after it.

It reads the view's shape, not its meaning:

* top-level scalars (``deck_size: 12``) go into one "Status" panel of facts (unset ``None`` ones left out);
* lists that give one value per seat (``scores``, ``hand_sizes``, keys ending in ``_by_seat``/
  ``_per_seat``/``_sizes``/``_counts``) and the short fields of a ``players``/``seats`` list of dicts
  become a "Seats" table, one row per seat; each seat's longer fields (cards in play, souls, ...)
  get a panel of their own;
* a card is a dict with a ``name`` (and usually an ``id``); a list of cards becomes a table with the
  id first (action texts name cards by id: ``play card=17``), then a column per stat when the stats
  are few and short, else one details line per card; a long public pile becomes a paragraph of names;
* any other dict or list becomes a panel, nested as deep as the view goes; empty zones share one line;
* the viewing seat's own hand comes last, nearest the prompt.

Hidden zones appear as the view gives them: counts. Nothing here reads the state.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cardtable.cli.render import RenderContext
from cardtable.cli.render.faces import Face, Number
from cardtable.cli.screen import Block, block
from cardtable.engine.game import JSON

BASE_KEYS = ("game", "seat", "seat_names", "turn", "current_player", "is_over", "prompt")
_PER_SEAT_SUFFIXES = ("_by_seat", "_per_seat", "_sizes", "_counts", "scores")
_SEAT_LISTS = ("players", "seats")


def is_scalar(value: JSON) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def is_card(value: JSON) -> bool:
    """A visible card (or card-like thing) in a view: a dict with a text ``name``."""
    return isinstance(value, Mapping) and isinstance(value.get("name"), str)


def is_card_list(value: JSON) -> bool:
    return isinstance(value, list) and bool(value) and all(is_card(v) for v in value)


def label(key: str) -> str:
    """``hand_sizes`` -> ``hand sizes``."""
    return key.replace("_", " ").replace("-", " ")


def scalar_text(value: JSON) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else f"{value:.4g}"
    return str(value)


def card_name(card: Mapping[str, JSON]) -> str:
    """``Greataxe #17``: the name, and the id that action texts use."""
    cid = card.get("id")
    return f"{card['name']} #{cid}" if isinstance(cid, int) else str(card["name"])


def compact(value: JSON, limit: int = 60) -> str:
    """A one-line form of any view value, for table cells."""
    if is_scalar(value):
        text = scalar_text(value)
    elif is_card(value):
        assert isinstance(value, Mapping)
        details = card_details(value)
        text = card_name(value) + (f" ({details})" if details else "")
    elif isinstance(value, list):
        if not value:
            return "(none)"
        text = ", ".join(compact(v, limit) for v in value)
    elif isinstance(value, Mapping):
        text = " ".join(f"{k}={compact(v, limit)}" for k, v in value.items())
    else:
        text = json.dumps(value, default=str)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def is_blank(value: JSON) -> bool:
    """Nothing worth showing: ``None``, ``False``, or an empty list or dict."""
    return value is None or value is False or (isinstance(value, list | dict) and not value)


def card_details(card: Mapping[str, JSON]) -> str:
    """A card's public stats in one line: ``monster · attack 7 · souls 3 · ability: turn_start: ...``.

    ``type`` (or ``kind``) goes first as a bare word; a true flag is its name alone; blank stats are
    left out, so a card shows what it has, not what other cards have.
    """
    parts: list[str] = []
    for key in ("type", "kind"):
        if is_scalar(card.get(key)) and not is_blank(card.get(key)):
            parts.append(scalar_text(card[key]))
    for key, value in card.items():
        if key in ("id", "name", "type", "kind") or is_blank(value):
            continue
        if value is True:
            parts.append(label(key))
        elif isinstance(value, list) and all(isinstance(v, str) for v in value):
            parts.append(f"{label(key)}: " + "; ".join(str(v) for v in value))
        elif isinstance(value, str) and (" " in value or ":" in value):
            parts.append(f"{label(key)}: {value}")
        else:
            parts.append(f"{label(key)} {compact(value, 120)}")
    return " · ".join(parts)


LONG_PILE = 12
"""Card lists longer than this (other than the viewer's own) are drawn as a paragraph of names."""


def card_names(cards: Sequence[Mapping[str, JSON]]) -> Text:
    """``Banish #61 · Catch Unawares #32 · ...``: many cards in little room."""
    text = Text()
    for i, card in enumerate(cards):
        if i:
            text.append(" · ", style="dim")
        text.append(str(card["name"]))
        if isinstance(card.get("id"), int):
            text.append(f" #{card['id']}", style="dim")
    return text


def card_table(cards: Sequence[Mapping[str, JSON]], title: str | None = None) -> Table:
    """A table of cards: id and name, then their public stats.

    Cards with a few short stats get a column per stat (easy to compare); anything wider gets one
    details column, since a column per stat would squeeze every cell to a few letters.
    """
    columns: list[str] = []
    for card in cards:
        for key in card:
            if key not in ("id", "name") and key not in columns:
                columns.append(key)
    narrow = len(columns) <= 4 and all(
        is_scalar(card.get(k)) and len(scalar_text(card.get(k))) <= 12 for card in cards for k in columns
    )
    table = Table(title=title, title_justify="left", expand=False, pad_edge=False, box=None, show_edge=False)
    table.add_column("#", justify="right", style="dim", no_wrap=True)
    table.add_column("card", style="bold", no_wrap=True)
    if narrow:
        for key in columns:
            table.add_column(label(key), no_wrap=True)
    elif columns:
        table.add_column("", overflow="fold")
    for card in cards:
        cid = card.get("id")
        row = [scalar_text(cid) if cid is not None else "", str(card["name"])]
        if narrow:
            row += [scalar_text(card.get(k)) if k in card else "" for k in columns]
        elif columns:
            row.append(card_details(card))
        table.add_row(*(Text(c) for c in row))
    return table


def _is_per_seat(key: str, value: JSON, players: int) -> bool:
    if isinstance(value, list) and len(value) == players and all(is_scalar(v) for v in value):
        return key.endswith(_PER_SEAT_SUFFIXES) or key in ("score", "points")
    return False


def _is_seat_dicts(key: str, value: JSON, players: int) -> bool:
    return (
        key in _SEAT_LISTS
        and isinstance(value, list)
        and len(value) == players
        and all(isinstance(v, Mapping) for v in value)
    )


def seats_table(view: Mapping[str, JSON], ctx: RenderContext, keys: Sequence[str], seat_dicts: str | None) -> Table:
    """One row per seat: the per-seat lists, and the scalar fields of a ``players`` list of dicts."""
    table = Table(title="Seats", title_justify="left", box=None, pad_edge=False, show_edge=False)
    table.add_column("seat", style="bold")
    dict_rows: list[Mapping[str, JSON]] = []
    dict_cols: list[str] = []
    if seat_dicts is not None:
        dict_rows = seat_rows(view, seat_dicts)
        dict_cols = seat_columns(dict_rows)
    for key in keys:
        table.add_column(label(key), justify="right")
    for key in dict_cols:
        table.add_column(label(key), overflow="fold")
    current = view.get("current_player")
    for seat in range(ctx.players):
        name = ctx.who(seat)
        if seat == current:
            name = "▶ " + name
        cells = [name]
        for key in keys:
            values = view[key]
            assert isinstance(values, list)
            cells.append(scalar_text(values[seat]))
        for key in dict_cols:
            cells.append(compact(dict_rows[seat].get(key), 80) if seat < len(dict_rows) else "")
        table.add_row(*(Text(c) for c in cells), style="green" if seat == ctx.seat else None)
    return table


def is_cell(value: JSON) -> bool:
    """Short enough for a table cell: a scalar, or a dict or list of a few scalars."""
    if is_scalar(value):
        return True
    if isinstance(value, Mapping):
        return len(value) <= 4 and all(is_scalar(v) for v in value.values())
    if isinstance(value, list):
        return len(value) <= 6 and all(is_scalar(v) for v in value)
    return False


def seat_rows(view: Mapping[str, JSON], key: str) -> list[Mapping[str, JSON]]:
    raw = view[key]
    assert isinstance(raw, list)
    return [r for r in raw if isinstance(r, Mapping)]


def seat_columns(rows: Sequence[Mapping[str, JSON]]) -> list[str]:
    """The fields of per-seat dicts that fit a table cell for every seat."""
    keys: list[str] = []
    for row in rows:
        keys += [k for k in row if k not in keys and k != "seat"]
    return [k for k in keys if all(is_cell(row.get(k)) for row in rows)]


def seat_zones(view: Mapping[str, JSON], ctx: RenderContext, key: str) -> list[RenderableType]:
    """For each seat, a panel with its zones that do not fit a cell (cards in play, souls, ...)."""
    panels: list[RenderableType] = []
    rows = seat_rows(view, key)
    columns = set(seat_columns(rows))
    for seat, row in enumerate(rows):
        parts: list[RenderableType] = []
        for k, v in row.items():
            if k in columns or k == "seat" or is_blank(v):
                continue
            parts.append(Text(label(k) + (f" ({len(v)})" if isinstance(v, list) else ""), style="bold"))
            parts.append(render_value(k, v))
        if parts:
            style = "green" if seat == ctx.seat else "white"
            panels.append(Panel(Group(*parts), title=Text(ctx.who(seat)), title_align="left", border_style=style))
    return panels


def render_value(key: str, value: JSON, depth: int = 0) -> RenderableType:
    """Draw one (possibly nested) view value under the heading ``key``."""
    if is_card_list(value):
        assert isinstance(value, list)
        return card_table(value)
    if is_card(value):
        assert isinstance(value, Mapping)
        return card_table([value])
    if isinstance(value, list):
        if not value:
            return Text("(empty)", style="dim")
        if all(is_scalar(v) for v in value):
            return Text(", ".join(scalar_text(v) for v in value))
        if all(isinstance(v, Mapping) for v in value):
            return dict_rows_table(value)
        return Group(*(render_value(f"{key}[{i}]", v, depth + 1) for i, v in enumerate(value)))
    if isinstance(value, Mapping):
        return mapping_block(value, depth + 1)
    return Text(scalar_text(value))


def dict_rows_table(rows: Sequence[JSON]) -> Table:
    """A list of (non-card) dicts: one row each, a column per key, nested values in compact form."""
    columns: list[str] = []
    for row in rows:
        assert isinstance(row, Mapping)
        for k in row:
            if k not in columns:
                columns.append(k)
    table = Table(box=None, pad_edge=False, show_edge=False)
    for k in columns:
        table.add_column(label(k), overflow="fold")
    for row in rows:
        assert isinstance(row, Mapping)
        table.add_row(*(Text(compact(row.get(k), 240) if k in row else "") for k in columns))
    return table


def mapping_block(value: Mapping[str, JSON], depth: int) -> RenderableType:
    """A dict: its short values in a ``key value`` grid, then each longer entry under its own heading."""
    facts = [(k, v) for k, v in value.items() if is_cell(v)]
    parts: list[RenderableType] = []
    if facts:
        parts.append(facts_grid(facts))
    for k, v in value.items():
        if is_cell(v):
            continue
        if depth >= 3:
            parts.append(Text.assemble((f"{label(k)}: ", "bold"), compact(v, 200)))
            continue
        parts.append(Text(label(k), style="bold underline"))
        parts.append(render_value(k, v, depth))
    return Group(*parts) if parts else Text("(empty)", style="dim")


def facts_grid(facts: Sequence[tuple[str, JSON]]) -> Table:
    """``key value`` pairs, three to a row."""
    grid = Table.grid(padding=(0, 2))
    per_row = 3 if all(len(compact(v)) <= 16 for _, v in facts) else 1
    for _ in range(per_row):
        grid.add_column(style="dim", justify="right")
        grid.add_column()
    for i in range(0, len(facts), per_row):
        cells: list[str] = []
        for k, v in facts[i : i + per_row]:
            cells += [label(k), compact(v)]
        cells += [""] * (2 * per_row - len(cells))
        grid.add_row(*(Text(c) for c in cells))
    return grid


def header_text(view: Mapping[str, JSON], ctx: RenderContext, turn: str = "") -> Text:
    """``Draw or Play · turn 3 · P2 decides · you are P1``: one line over every table; ``turn``
    replaces ``turn N`` with a game's own words (``turn 12: P2's turn``)."""
    title = (ctx.game.title or ctx.game.id).split(" (")[0]
    if title.endswith(" Card Game") and len(title.split()) > 3:
        title = title.removesuffix(" Card Game")  # "Doctor Strange", not "Mr."
    out = Text.assemble((title, "bold"), (" · " + (turn or "turn " + scalar_text(view.get("turn"))), ""))
    current = view.get("current_player")
    if view.get("is_over"):
        out.append(" · game over", style="bold red")
    elif isinstance(current, int) and current == ctx.seat:
        out.append(" · you decide", style="bold yellow")
    elif isinstance(current, int):
        out.append(f" · {ctx.seat_name(current)} decides", style="yellow")
    if ctx.seat is None:
        out.append(" · spectator", style="cyan")
    elif current != ctx.seat or view.get("is_over"):
        out.append(f" · you are {ctx.seat_name(ctx.seat)}", style="cyan")
    return out


def header(view: Mapping[str, JSON], ctx: RenderContext) -> Text:
    """``Draw or Play · turn 3 · P2 to decide · you are P1``."""
    return header_text(view, ctx)


def is_own_zone(key: str) -> bool:
    """Keys under which a view gives the viewing seat's own cards."""
    return key in ("hand", "my_hand", "own_hand", "your_hand")


LEGEND = ""


def face(card: Mapping[str, JSON], ctx: RenderContext | None = None) -> Face:
    """Any game's card: its name, its type (or kind), each whole-number stat as a number, its text."""
    kind = next((scalar_text(card[k]) for k in ("type", "kind") if is_scalar(card.get(k)) and card.get(k)), "card")
    numbers = tuple(
        Number(f"{label(k)} {v}", f"{label(k)} {v}", "cyan")
        for k, v in card.items()
        if k not in ("id",) and isinstance(v, int) and not isinstance(v, bool)
    )
    flags = tuple(label(k) for k, v in card.items() if v is True)
    text = card.get("text")
    mark = card.get("id")
    return Face(
        name=str(card.get("name")),
        kind=kind,
        numbers=numbers,
        text=text if isinstance(text, str) else "",
        state=flags,
        mark=mark if isinstance(mark, int) and not isinstance(mark, bool) else None,
    )


def _card_ids(value: JSON) -> set[int]:
    out: set[int] = set()
    if isinstance(value, Mapping):
        if is_card(value) and isinstance(value.get("id"), int):
            out.add(int(value["id"]))
        for v in value.values():
            out |= _card_ids(v)
    elif isinstance(value, list):
        for v in value:
            out |= _card_ids(v)
    return out


def render_blocks(
    view: dict[str, JSON],
    ctx: RenderContext,
    *,
    skip: Collection[str] = (),
    extra: Sequence[Block] = (),
) -> list[Block]:
    """Any view as blocks: the header, the table's facts, the seats, one block per zone or section,
    ``extra`` (a per-game renderer's own), then the viewing seat's own cards, which never fold."""
    players = ctx.players
    body = {k: v for k, v in view.items() if k not in BASE_KEYS and k not in skip}
    per_seat = [k for k, v in body.items() if _is_per_seat(k, v, players)]
    seat_dicts = next((k for k, v in body.items() if _is_seat_dicts(k, v, players)), None)
    # Unset values (None) say nothing at a glance; the table shows what is, not what is not.
    facts = [(k, v) for k, v in body.items() if is_scalar(v) and v is not None]
    blocks: list[Block] = [block("header", header(view, ctx), fold=None)]
    if facts:
        blocks.append(
            block(
                "status",
                Panel(facts_grid(facts), title="Status", title_align="left", border_style="blue"),
                watch=tuple(k for k, _ in facts),
            )
        )
    if per_seat or seat_dicts is not None:
        keys = (*per_seat, *((seat_dicts,) if seat_dicts else ()))
        drawn: list[RenderableType] = [seats_table(view, ctx, per_seat, seat_dicts)]
        if seat_dicts is not None:
            drawn += seat_zones(view, ctx, seat_dicts)
        blocks.append(block("seats", Group(*drawn), watch=keys, cards=frozenset(_card_ids(body.get(seat_dicts or "")))))
    rest = [k for k in body if k not in per_seat and k != seat_dicts and not is_scalar(body[k])]
    # Empty zones in one line, not a block each.
    empty = [k for k in rest if is_blank(body[k]) and not is_own_zone(k)]
    rest = [k for k in rest if k not in empty]
    own = [k for k in rest if is_own_zone(k)]
    for key in [k for k in rest if not is_own_zone(k)]:
        value = body[key]
        title = label(key).capitalize()
        count = f" ({len(value)})" if isinstance(value, list) else ""
        # A long public pile (a discard of 40) as a paragraph of names, so the screen stays short.
        long_pile = is_card_list(value) and isinstance(value, list) and len(value) > LONG_PILE
        drawn_zone = card_names(value) if long_pile else render_value(key, value)
        panel = Panel(drawn_zone, title=Text(f"{title}{count}"), title_align="left", border_style="white")
        blocks.append(block(label(key), panel, watch=(key,), cards=frozenset(_card_ids(value))))
    blocks.extend(extra)
    if empty:
        blocks.append(block("empty zones", Text("empty: " + ", ".join(label(k) for k in empty), style="dim"), fold=2))
    for key in own:
        value = body[key]
        mine = ctx.seat is not None
        title = "Your hand" if mine else label(key).capitalize()
        count = f" ({len(value)})" if isinstance(value, list) else ""
        panel = Panel(render_value(key, value), title=Text(f"{title}{count}"), title_align="left", border_style="green")
        blocks.append(block(title.lower(), panel, fold=None if mine else 10, cards=frozenset(_card_ids(value))))
    return blocks


def render_view(
    view: dict[str, JSON],
    ctx: RenderContext,
    *,
    skip: Collection[str] = (),
    extra: Sequence[RenderableType] = (),
) -> RenderableType:
    """Lay out any view: header, table facts, seats, then one panel per zone or section, the viewing
    seat's own cards and the prompt last. ``skip`` names view keys a per-game renderer draws itself,
    and ``extra`` (its drawings) goes after the table's zones, before the viewing seat's own cards."""
    from cardtable.cli.render import full_view

    extras = [block(f"extra {i}", e, fold=None) for i, e in enumerate(extra)]
    return full_view(render_blocks(view, ctx, skip=skip, extra=extras), view)
