"""Mephisto's renderer turns the dungeon so each seat sees its own lanes 1, 2, 3 from left to right."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

import cardtable
from cardtable.cli.render import RenderContext, renderer_for

pytestmark = pytest.mark.skipif("mephisto" not in cardtable.available(), reason="mephisto is not installed")


def configs() -> list[dict[str, object]]:
    from cardtable.games import game_class

    return [dict(c) for c in game_class("mephisto").CONFIGURATIONS]  # type: ignore[attr-defined]


@pytest.mark.parametrize("config", configs(), ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_each_seat_sees_its_lanes_in_order_left_to_right(config: dict[str, object]) -> None:
    from cardtable.cli.render.mephisto import _side, screen_cell

    game = cardtable.load("mephisto", **config)
    state = game.new(1)
    for seat in range(game.players):
        view = state.view(seat)
        spaces = view["dungeon"]
        width = 1 + max(s["x"] for s in spaces)
        height = 1 + max(s["y"] for s in spaces)
        if view["layout"] == "grid":
            width = height = 3
        side = _side(view, seat)
        for space in spaces:
            _row, col = screen_cell(side, space["x"], space["y"], width, height)
            assert space["lane"] == col + 1, (seat, side, space)


def test_the_dungeon_is_drawn_for_a_seat_and_for_a_spectator() -> None:
    game = cardtable.load("mephisto", players=3)
    state = game.new(2)
    for seat in (0, None):
        out = io.StringIO()
        view = state.view(seat)
        Console(file=out, width=100, force_terminal=False).print(
            renderer_for("mephisto")(view, RenderContext(game, seat))
        )
        text = out.getvalue()
        assert "Dungeon" in text and "dungeon deck" in text and "blocked" in text
        for space in view["dungeon"]:
            if space["card"] is not None:
                assert space["card"]["name"] in text
