"""Mephisto's table: the dungeon drawn as the grid it is, turned so the viewing seat sits at the bottom.

Everything else comes from the generic layout. Only the view is read: the dungeon spaces with their
``x``/``y`` and lane numbers, the ``blocked`` corners and ``deck_at`` of the 3x3 dungeon, and the
seats' ``side`` in ``players``.
"""

from __future__ import annotations

from collections.abc import Mapping

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cardtable.cli.render import RenderContext
from cardtable.cli.render.generic import card_details
from cardtable.cli.render.generic import render_view as generic_view
from cardtable.engine.game import JSON

DRAWN_HERE = ("dungeon", "my_lanes", "layout", "blocked", "deck_at")


def _side(view: Mapping[str, JSON], seat: int | None) -> str:
    players = view.get("players")
    if seat is None or not isinstance(players, list) or seat >= len(players):
        return "south"
    row = players[seat]
    side = row.get("side") if isinstance(row, Mapping) else None
    return side if isinstance(side, str) else "south"


def screen_cell(side: str, x: int, y: int, width: int, height: int) -> tuple[int, int]:
    """(row, column) on screen of dungeon space (x, y), for a seat on ``side`` looking in.

    x grows to the east and y to the north; the seat's own side is drawn at the bottom.
    """
    if side == "north":
        return y, width - 1 - x
    if side == "west":  # facing east: north is on the left, east is far away
        return width - 1 - x, height - 1 - y
    if side == "east":  # facing west: south is on the left, west is far away
        return x, y
    return height - 1 - y, x


def _cell(space: Mapping[str, JSON]) -> RenderableType:
    card = space.get("card")
    lane = space.get("lane")
    title = f"lane {lane}" if isinstance(lane, int) else f"space {space.get('space')}"
    if isinstance(card, Mapping) and isinstance(card.get("name"), str):
        body = Text.assemble((str(card["name"]), "bold"), (f" #{card.get('id')}", "dim"), "\n", card_details(card))
    else:
        body = Text("(empty)", style="dim")
    return Panel(body, title=title, title_align="left")


def dungeon_grid(view: Mapping[str, JSON], ctx: RenderContext) -> RenderableType | None:
    spaces = [s for s in view.get("dungeon") or [] if isinstance(s, Mapping)]
    coords = [(s.get("x"), s.get("y")) for s in spaces]
    if not spaces or not all(isinstance(x, int) and isinstance(y, int) for x, y in coords):
        return None
    blocked = {tuple(c) for c in view.get("blocked") or [] if isinstance(c, list)}
    deck_at = view.get("deck_at")
    cells: dict[tuple[int, int], RenderableType] = {}
    xs = [int(x) for x, _ in coords]  # type: ignore[arg-type]
    ys = [int(y) for _, y in coords]  # type: ignore[arg-type]
    extra = [c for c in blocked | ({tuple(deck_at)} if isinstance(deck_at, list) else set()) if len(c) == 2]
    width = max(xs + [int(c[0]) for c in extra]) + 1
    height = max(ys + [int(c[1]) for c in extra]) + 1
    side = _side(view, ctx.seat)
    turned = side in ("west", "east")
    rows, cols = (width, height) if turned else (height, width)
    for space, x, y in zip(spaces, xs, ys, strict=True):
        cells[screen_cell(side, x, y, width, height)] = _cell(space)
    for c in blocked:
        cells[screen_cell(side, int(c[0]), int(c[1]), width, height)] = Panel(Text("blocked", style="dim"))
    if isinstance(deck_at, list) and len(deck_at) == 2:
        where = screen_cell(side, int(deck_at[0]), int(deck_at[1]), width, height)
        cells[where] = Panel(Text(f"dungeon deck\n{view.get('deck_size')} cards", justify="center"))
    grid = Table.grid(expand=True)
    for _ in range(cols):
        grid.add_column(ratio=1)
    for r in range(rows):
        grid.add_row(*(cells.get((r, c), Text("")) for c in range(cols)))
    you = "your side" if ctx.seat is not None else "south"
    return Panel(
        Group(grid, Text(f"▲ far side            ▼ {you} ({side})", style="dim", justify="center")),
        title="Dungeon",
        title_align="left",
    )


def render_view(view: dict[str, JSON], ctx: RenderContext) -> RenderableType:
    grid = dungeon_grid(view, ctx)
    if grid is None:  # a view this renderer does not understand: the generic layout shows it all
        return generic_view(view, ctx)
    return generic_view(view, ctx, skip=DRAWN_HERE, extra=[grid])
