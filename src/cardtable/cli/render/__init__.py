"""Drawing a seat's table with rich.

:func:`renderer_for` picks how to draw a game's view: a per-game module ``cardtable.cli.render.<pkg>``
(``pkg`` is the game id with ``-`` as ``_``) defining ``render_view(view, ctx)``, else a renderer
registered with :func:`register_renderer`, else :func:`cardtable.cli.render.generic.render_view`,
which lays out any game's view. A renderer receives only the view it must draw, never the state.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

from rich.console import RenderableType

from cardtable.engine import Game
from cardtable.engine.game import JSON


@dataclass(frozen=True)
class RenderContext:
    """What a renderer knows besides the view: the game (static facts), whose eyes it draws for, and
    which view keys did not change since that seat's last decision (``fold``): a renderer draws those
    zones as one "unchanged" line, so a decision's screen fits a 50-row terminal. The viewing seat's
    own hand and the prompt are never folded."""

    game: Game
    seat: int | None
    fold: frozenset[str] = frozenset()
    fold_note: str = "unchanged since your last decision"
    """What the one line standing for the folded zones says of them."""

    @property
    def players(self) -> int:
        return self.game.players

    def seat_name(self, seat: int) -> str:
        return self.game.seat_name(seat)

    def who(self, seat: int) -> str:
        """A seat's name, with "(you)" for the seat being drawn for."""
        return self.seat_name(seat) + (" (you)" if seat == self.seat else "")


Renderer = Callable[[dict[str, JSON], RenderContext], RenderableType]

_REGISTERED: dict[str, Renderer] = {}
_RESERVED = {"generic"}


def register_renderer(game_id: str, renderer: Renderer) -> None:
    """Use ``renderer`` to draw ``game_id``'s views (for plug-in games and tests)."""
    _REGISTERED[game_id] = renderer


def renderer_for(game_id: str) -> Renderer:
    """The renderer for ``game_id``: its own module if there is one, else the generic one."""
    if game_id in _REGISTERED:
        return _REGISTERED[game_id]
    pkg = game_id.replace("-", "_")
    if pkg.isidentifier() and pkg not in _RESERVED:
        try:
            module = importlib.import_module(f"{__name__}.{pkg}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{pkg}":
                raise  # the module exists but is broken: say so rather than hide it
        else:
            found: Renderer = module.render_view
            return found
    from cardtable.cli.render.generic import render_view

    return render_view
