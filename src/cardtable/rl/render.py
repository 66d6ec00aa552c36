"""A seat's table as plain text, for ``render_mode="ansi"``: the terminal's own drawing of the view."""

from __future__ import annotations

import io

from rich.console import Console

from cardtable.engine.game import JSON, Game


def view_text(game: Game, view: dict[str, JSON], width: int = 100) -> str:
    """``view`` drawn as the command-line table draws it (no colour), as a string."""
    from cardtable.cli.render import RenderContext, renderer_for

    seat = view.get("seat")
    ctx = RenderContext(game, seat if isinstance(seat, int) and not isinstance(seat, bool) else None)
    console = Console(file=io.StringIO(), width=width, color_system=None, force_terminal=False, record=True)
    console.print(renderer_for(game.id)(view, ctx))
    return console.export_text()
