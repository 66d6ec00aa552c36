"""Doctor Strange's renderer: characters by side, with power, state (who holds them) and attachments."""

from __future__ import annotations

import io

from rich.console import Console

import cardtable
from cardtable.cli.render import RenderContext, renderer_for
from cardtable.engine import Rng


def _draw(view: dict[str, object], seat: int | None) -> str:
    game = cardtable.load("doctor-strange")
    out = io.StringIO()
    Console(file=out, width=120, force_terminal=False).print(
        renderer_for("doctor-strange")(view, RenderContext(game, seat))
    )
    return out.getvalue()


def test_characters_are_drawn_by_side_with_who_holds_them() -> None:
    game = cardtable.load("doctor-strange")
    view = game.new(0).view(0)
    table = view["table"]
    assert isinstance(table, list)
    strange = next(r for r in table if r["name"] == "Doctor Strange")
    mordo = next(r for r in table if r["name"] == "Baron Mordo")
    # Baron Mordo (Evil, seat 0) controls Doctor Strange, who now fights for Evil.
    strange.update(side=0, controlled_by=mordo["id"], attachments=[{"id": 99, "name": "Magic Amulet", "power": 1}])
    view["streaks"] = [0, 2]
    text = _draw(view, 0)
    assert "controlled by Baron Mordo" in text and "owned by Good" in text and "Magic Amulet +1" in text
    assert "Good · 2 turn(s) in a row without a viable character" in text
    assert text.index("Evil (you)") < text.index("Good ·")  # your side first
    assert "(no characters)" in text  # Good has none left on its side


def test_every_view_along_a_game_draws() -> None:
    game = cardtable.load("doctor-strange")
    state = game.new(3, log=False)
    rng = Rng(9)
    for _ in range(150):
        if state.is_over:
            break
        for seat in (0, 1, None):
            view = state.view(seat)
            text = _draw(view, seat)
            table = view["table"]
            assert isinstance(table, list)
            assert all(str(r["name"]) in text for r in table)
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
