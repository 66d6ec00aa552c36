"""Drawing a seat's table with rich, as cards on a table.

A game's drawing lives in a module ``cardtable.cli.render.<pkg>`` (``pkg`` is the game id with ``-``
as ``_``) that defines:

* ``render_blocks(view, ctx) -> list[Block]``: the table as blocks (header first, the seat's own hand
  last), each in its forms from the richest to the most compact (see :mod:`cardtable.cli.screen`),
  which a decision's screen fits to the terminal;
* ``face(card, ctx) -> Face``: one card of the view as its printed face (:mod:`.faces`), for ``look``;
* ``LEGEND``: what the one-letter labels of its numbers mean.

A game without a module is drawn by :mod:`cardtable.cli.render.generic`, which lays out any view. A
renderer receives only the view it must draw, never the state.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.text import Text

from cardtable.engine import Game
from cardtable.engine.game import JSON

if TYPE_CHECKING:
    from cardtable.cli.render.faces import Face
    from cardtable.cli.screen import Block


@dataclass(frozen=True)
class RenderContext:
    """What a renderer knows besides the view: the game (static facts) and whose eyes it draws for."""

    game: Game
    seat: int | None

    @property
    def players(self) -> int:
        return self.game.players

    def seat_name(self, seat: int) -> str:
        return self.game.seat_name(seat)

    def who(self, seat: int) -> str:
        """A seat's name, with "(you)" for the seat being drawn for."""
        return self.seat_name(seat) + (" (you)" if seat == self.seat else "")


Renderer = Callable[[dict[str, JSON], RenderContext], RenderableType]
BlocksRenderer = Callable[[dict[str, JSON], RenderContext], "list[Block]"]
FaceRenderer = Callable[[Mapping[str, JSON], RenderContext], "Face"]

_REGISTERED: dict[str, Renderer] = {}
_RESERVED = {"generic", "faces"}


def register_renderer(game_id: str, renderer: Renderer) -> None:
    """Use ``renderer`` to draw ``game_id``'s views (for plug-in games and tests): one block."""
    _REGISTERED[game_id] = renderer


def _module(game_id: str) -> ModuleType:
    """``game_id``'s drawing module, or the generic one."""
    pkg = game_id.replace("-", "_")
    if pkg.isidentifier() and pkg not in _RESERVED:
        try:
            return importlib.import_module(f"{__name__}.{pkg}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{pkg}":
                raise  # the module exists but is broken: say so rather than hide it
    return importlib.import_module(f"{__name__}.generic")


def blocks_for(game_id: str) -> BlocksRenderer:
    """How ``game_id``'s table is drawn as blocks (a registered renderer is one block)."""
    registered = _REGISTERED.get(game_id)
    if registered is not None:
        from cardtable.cli.screen import block

        def one(view: dict[str, JSON], ctx: RenderContext) -> list[Block]:
            return [block("table", registered(view, ctx), fold=None)]

        return one
    module = _module(game_id)
    found: BlocksRenderer | None = getattr(module, "render_blocks", None)
    if found is not None:
        return found
    drawn: Renderer = module.render_view  # a module with a single drawing: one block
    from cardtable.cli.screen import block

    def single(view: dict[str, JSON], ctx: RenderContext) -> list[Block]:
        return [block("table", drawn(view, ctx), fold=None)]

    return single


def face_for(game_id: str) -> FaceRenderer:
    """How one of ``game_id``'s cards is drawn as its printed face."""
    module = _module(game_id) if game_id not in _REGISTERED else _module("generic")
    found: FaceRenderer = getattr(module, "face", None) or _module("generic").face
    return found


def legend_for(game_id: str) -> str:
    """What the labels of ``game_id``'s card numbers mean (empty when it has none)."""
    return str(getattr(_module(game_id), "LEGEND", ""))


def full_view(blocks: list[Block], view: Mapping[str, JSON]) -> RenderableType:
    """Every block in its richest form, then the prompt: the whole table (``table``, replays)."""
    parts: list[RenderableType] = [b.full for b in blocks]
    prompt = view.get("prompt")
    if isinstance(prompt, str) and prompt:
        parts.append(Text(prompt, style="bold yellow"))
    return Group(*parts)


def renderer_for(game_id: str) -> Renderer:
    """The whole table of ``game_id`` for a view: every zone in full, the prompt last."""
    if game_id in _REGISTERED:
        return _REGISTERED[game_id]
    module = _module(game_id)
    if not hasattr(module, "render_blocks"):
        drawn: Renderer = module.render_view
        return drawn
    blocks = blocks_for(game_id)

    def render(view: dict[str, JSON], ctx: RenderContext) -> RenderableType:
        return full_view(blocks(view, ctx), view)

    return render
