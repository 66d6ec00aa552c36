"""Mephisto's terminal table: each seat sees the dungeon from its own side, a fight's totals, every
card's numbers and text, the prompt last, and a decision's screen fits 50 rows once unchanged zones fold."""

from __future__ import annotations

import io
from typing import Any

import pytest
from rich.console import Console, RenderableType

import cardtable
from cardtable.agents import Observation, make_agent
from cardtable.cli.display import actions_table
from cardtable.cli.render import RenderContext, renderer_for
from cardtable.cli.render.mephisto import FOLDABLE, cell_text
from cardtable.engine import Rng

# One configuration per shape of table (solitaire, a duel, three players, two teams): the variants
# of a shape draw the same zones.
SHAPES = [{"players": 1}, {"players": 2}, {"players": 3}, {"players": 4, "teams": True}]
SCREEN_ROWS, EVENT_ROWS = 50, 10


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
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
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
                    assert f"{cell['card']['name']} #{cell['card']['id']}" in text
        assert text.rstrip().splitlines()[-1] == view["prompt"]  # the prompt comes last
        assert ("Your hand" in text) == (seat is not None)


def test_a_fight_shows_the_attack_against_what_is_needed_and_the_favor_gap() -> None:
    game = cardtable.load("mephisto", players=2)
    state = game.new(0)
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
    assert "Fight: P1 in lane 2" in text and "Witch #0" in text
    mine = draw(renderer_for("mephisto")(state.view(0), RenderContext(game, 0)))
    assert "P1: spend favor in the fight: attack 7 against 12; 5 favor wins the fight (you have 8)" in mine


def test_the_hand_shows_each_cards_numbers_and_text() -> None:
    state = played({"players": 2}, 3, 0)
    seat = state.current_player
    view = state.view(seat)
    text = draw(renderer_for("mephisto")(view, RenderContext(state.game, seat)))
    flat = " ".join(text.split())
    for card in view["hand"]:
        assert card["name"] in text
        assert " ".join(cell_text(card["text"]).split()) in flat


@pytest.mark.parametrize("config", SHAPES, ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_a_decision_screen_fits_fifty_rows_once_unchanged_zones_fold(config: dict[str, Any]) -> None:
    """The CLI folds the zones that did not change since a seat's last decision when the screen would
    not fit; folded, the table, the newest events and the numbered choices fit 50 rows (games played
    by the heuristic, whose hands are a person's size; a hand of more than 6 cards takes a line a card)."""
    render = renderer_for("mephisto")
    game = cardtable.load("mephisto", **config)
    for seed in (7,):
        state = game.new(seed)
        agents = [make_agent("heuristic", game, seed + seat) for seat in range(game.players)]
        step = 0
        while not state.is_over:
            seat = state.current_player
            if step % 17 == 0:  # sample the game, not every decision
                table = draw(render(state.view(seat), RenderContext(game, seat, frozenset(FOLDABLE))))
                choices = draw(actions_table(game, state.legal_actions()))
                assert rows(table) + rows(choices) + EVENT_ROWS + 4 <= SCREEN_ROWS, table + choices
                assert "unchanged since your last decision" in table and "Your hand" in table
            state.apply(agents[seat].choose(Observation(state, seat)))
            step += 1


def test_a_big_hand_takes_one_line_a_card() -> None:
    state = played({"players": 1}, 0, 0)
    state.hands[0] = [c for c in state.deck[:9]]
    state.deck = state.deck[9:]
    view = state.view(0)
    table = draw(renderer_for("mephisto")(view, RenderContext(state.game, 0, frozenset(FOLDABLE))))
    hand = table[table.index("Your hand (9)") :].splitlines()
    assert len(hand) == 1 + 1 + 9 + 2  # title, column heads, a line a card, the folded line and the prompt
