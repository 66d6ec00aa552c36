"""Doctor Strange's table: each side's characters with their power, state and attachments.

Everything else comes from the generic layout. Only the view is read: ``table`` (characters with
``side``, ``owner``, ``modified_power``, status flags, ``controlled_by``/``captured_by`` naming the
character that holds them, and ``attachments``) and ``streaks`` (turns in a row without a viable
character, per seat).
"""

from __future__ import annotations

from collections.abc import Mapping

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cardtable.cli.render import RenderContext
from cardtable.cli.render.generic import render_view as generic_view
from cardtable.engine.game import JSON

DRAWN_HERE = ("table", "streaks")


def _status(row: Mapping[str, JSON], names: Mapping[int, str], ctx: RenderContext) -> str:
    parts = ["viable" if row.get("viable") else "not viable"]
    if row.get("incapacitated"):
        parts.append("incapacitated")
    for key, word in (("controlled_by", "controlled by"), ("captured_by", "captured by")):
        holder = row.get(key)
        if isinstance(holder, int):
            parts.append(f"{word} {names.get(holder, f'card {holder}')}")
    owner = row.get("owner")
    if isinstance(owner, int) and owner != row.get("side"):
        parts.append(f"owned by {ctx.seat_name(owner)}")
    if row.get("marked"):
        parts.append("marked")
    if row.get("attacked"):
        parts.append("has attacked")
    return ", ".join(parts)


def characters(view: Mapping[str, JSON], ctx: RenderContext) -> RenderableType | None:
    rows = [r for r in view.get("table") or [] if isinstance(r, Mapping)]
    if not all(isinstance(r.get("side"), int) and isinstance(r.get("name"), str) for r in rows):
        return None
    names = {int(r["id"]): str(r["name"]) for r in rows if isinstance(r.get("id"), int)}
    streaks = view.get("streaks")
    panels: list[RenderableType] = []
    order = list(range(ctx.players))
    if ctx.seat is not None:  # your side first
        order.sort(key=lambda s: s != ctx.seat)
    for seat in order:
        table = Table(expand=True, show_edge=False, pad_edge=False)
        for column in ("#", "character", "power", "state", "attached"):
            table.add_column(column, overflow="fold")
        mine = [r for r in rows if r.get("side") == seat]
        for r in mine:
            attached = ", ".join(
                f"{a.get('name')} +{a.get('power')}" for a in r.get("attachments") or [] if isinstance(a, Mapping)
            )
            power = f"{r.get('modified_power')} ({r.get('power')})"
            table.add_row(str(r.get("id")), Text(str(r["name"]), style="bold"), power, _status(r, names, ctx), attached)
        title = ctx.who(seat)
        if isinstance(streaks, list) and seat < len(streaks) and streaks[seat]:
            title += f" · {streaks[seat]} turn(s) in a row without a viable character"
        panels.append(Panel(table if mine else Text("(no characters)", style="dim"), title=title, title_align="left"))
    return Group(*panels)


def render_view(view: dict[str, JSON], ctx: RenderContext) -> RenderableType:
    drawn = characters(view, ctx)
    if drawn is None:  # a view this renderer does not understand: the generic layout shows it all
        return generic_view(view, ctx)
    return generic_view(view, ctx, skip=DRAWN_HERE, extra=[drawn])
