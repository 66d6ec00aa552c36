"""Mephisto's terminal table: each seat sees the dungeon from its own side, its weapons under the lanes
they fight in, a fight's totals, every card as a chip with its numbers (and its text on a wide
screen), the prompt last."""

from __future__ import annotations

import io
from typing import Any

import pytest
from rich.console import Console, RenderableType

import cardtable
from cardtable.cli.render import RenderContext, renderer_for
from cardtable.cli.render.faces import chip
from cardtable.cli.render.mephisto import face
from cardtable.engine import Rng
from cardtable.games.mephisto.rules import MephistoState
from tests.support.walk import apply_random

# One configuration per shape of table (solitaire, a duel, three players, two teams): the variants
# of a shape draw the same zones.
SHAPES = [{"players": 1}, {"players": 2}, {"players": 3}, {"players": 4, "teams": True}]


def draw(renderable: RenderableType) -> str:
    out = io.StringIO()
    Console(file=out, width=100, force_terminal=False).print(renderable)
    return out.getvalue()


def rows(text: str) -> int:
    return text.count("\n")


def played(config: dict[str, Any], seed: int, steps: int) -> Any:
    game = cardtable.load("mephisto", **config)
    state = game.new(seed)
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_over:
            break
        apply_random(state, rng)
    return state


@pytest.mark.parametrize(
    "config", [*SHAPES, {"players": 2, "lane-view": "shared"}], ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items())
)
def test_each_seat_sees_its_lanes_in_order_left_to_right(config: dict[str, Any]) -> None:
    state = played(config, 1, 0)
    board = state.game.board
    for seat in range(state.game.players):
        text = draw(renderer_for("mephisto")(state.view(seat), RenderContext(state.game, seat)))
        picture = board.picture[seat]
        for row in picture:
            names = [state.game.cards.names[state.dungeon[space]] for kind, space, _, _ in row if kind == "space"]
            line = next(ln for ln in text.splitlines() if names[0] in ln and all(n in ln for n in names))
            # the cards of one row of the picture share a screen line, in lane order
            assert [line.index(n) for n in names] == sorted(line.index(n) for n in names)
        lanes = [text.index(f"lane {lane}") for lane in (1, 2, 3)]
        assert lanes == sorted(lanes)


def test_the_dungeon_is_drawn_for_a_seat_and_for_a_spectator() -> None:
    game = cardtable.load("mephisto", players=3)
    state = game.new(2)
    for seat in (0, None):
        view = state.view(seat)
        text = draw(renderer_for("mephisto")(view, RenderContext(game, seat)))
        assert "Dungeon" in text and "dungeon deck" in text and "face-down corner" in text
        for row in view["dungeon"]["rows"]:
            for cell in row:
                if cell.get("card"):
                    assert chip(face(cell["card"])).plain in text
        assert text.rstrip().splitlines()[-1] == view["prompt"]  # the prompt comes last
        assert ("Your hand" in text) == (seat is not None)


def test_a_fight_shows_the_attack_against_what_is_needed_and_the_favor_gap() -> None:
    game = cardtable.load("mephisto", players=2)
    state = game.new(0)
    assert isinstance(state, MephistoState)
    state.hands, state.inplay, state.favor = [[], []], [[24, 25], []], [8, 5]  # Mallet, Greataxe
    state.dur[24], state.dur[25] = 3, 3
    state.deck = [c for c in state.deck + state.dungeon if c not in (0, 24, 25)]
    state.dungeon = [-1, -1, 0, -1, -1, -1]  # the Witch in lane 2
    state._legal = None
    state.apply("fight lane=2")
    state.apply("weapon card=24")
    state.apply("weapon card=25")
    text = draw(renderer_for("mephisto")(state.view(1), RenderContext(game, 1)))
    assert "attack 7 against 12: 5 favor closes the gap (P1 has 8)" in text
    assert "Fight: P1 in lane 2" in text and "Witch A12 S5 #0" in text
    mine = draw(renderer_for("mephisto")(state.view(0), RenderContext(game, 0)))
    assert "P1: spend favor in the fight: attack 7 against 12; 5 favor wins the fight (you have 8)" in mine


def test_the_hand_shows_each_cards_numbers_and_text() -> None:
    state = played({"players": 2}, 3, 0)
    seat = state.current_player
    view = state.view(seat)
    text = draw(renderer_for("mephisto")(view, RenderContext(state.game, seat)))
    flat = " ".join(text.split())
    for card in view["hand"]:
        assert chip(face(card)).plain in text
        assert " ".join(str(card["text"]).split()) in flat


def test_a_card_reads_like_the_printed_card() -> None:
    """No field names: a weapon in play is ``Greataxe C1 A4 D2/3 R2 #25`` (cost, attack, durability
    left of printed, range) and says when it was used; a monster its attack and souls."""
    weapon = {
        "id": 25, "name": "Greataxe", "type": "weapon", "text": "", "cost": 1, "attack": 4, "durability": 3,
        "range": 2, "durability_left": 2, "activated_this_turn": True, "lane": "lane 2", "attached": [],
    }  # fmt: skip
    assert chip(face(weapon)).plain == "Greataxe C1 A4 D2/3 R2 #25 (used)"
    monster = {"id": 0, "name": "Witch", "type": "monster", "text": "x", "attack": 12, "souls": 5}
    f = face(monster)
    assert chip(f).plain == "Witch A12 S5 #0"
    assert {n.corner for n in f.numbers} == {"tr", "br"}  # attack top right, souls bottom right


def test_a_weapon_sits_under_the_lane_it_fights_in() -> None:
    """The issue's finding: weapons were listed under "In Play", not in their lanes."""
    state = played({"players": 2}, 7, 0)
    state.inplay = [[25], []]
    state.dur[25] = 3
    view = state.view(0)
    lane = next(c["lane"] for c in view["players"][0]["in_play"])
    column = int(lane.split()[1])
    text = draw(renderer_for("mephisto")(view, RenderContext(state.game, 0)))
    row = next(line for line in text.splitlines() if line.startswith("yours"))
    header = next(line for line in text.splitlines() if "lane 1" in line and "lane 3" in line)
    at = row.index("Greataxe")
    starts = [header.index(f"lane {n}") for n in (1, 2, 3)]
    assert max(n for n, x in enumerate(starts, 1) if x <= at + 1) == column
