"""Army of Darkness's renderer: each player's table and needs, the own hand with event texts (and
what each type does under the Rules of Kalle, on `look`), and decision screens that fit 50 rows."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

import cardtable
from cardtable.cli.play import Session
from cardtable.cli.render import RenderContext, renderer_for
from cardtable.cli.term import Terminal
from cardtable.engine import Rng
from cardtable.games.army_of_darkness.game import ArmyOfDarkness
from tests.support.walk import apply_random


def _draw(game: cardtable.Game, view: dict[str, object], seat: int | None, width: int = 100) -> str:
    out = io.StringIO()
    Console(file=out, width=width, force_terminal=False).print(
        renderer_for("army-of-darkness")(view, RenderContext(game, seat))
    )
    return out.getvalue()


@pytest.mark.parametrize("players", [2, 5, 8])
def test_every_view_along_a_game_draws_the_players_their_needs_and_the_prompt(players: int) -> None:
    game = cardtable.load("army-of-darkness", players=players)
    state = game.new(4, log=False)
    rng = Rng(4)
    for step in range(300):
        if step % 9 == 0 or state.is_over:
            for seat in (state.current_player, None):
                view = state.view(seat)
                # Wide, so that no cell wraps (wrapped cells interleave when the text is flattened).
                text = _draw(game, view, seat, width=400)
                flat = " ".join(text.split())
                assert " ".join(str(view["prompt"]).split()) in flat
                for row in view["players"]:
                    assert " ".join(str(row["needs"]).split()) in flat
                    assert row["character"] in flat
                    for card in row["monsters"] + row["allies"] + row["items"]:
                        assert card["name"] in flat
                if seat is None:
                    assert "Your hand" not in text
                else:
                    assert "Your hand" in text
                    for card in view["hand"]:
                        assert f"#{card['id']}" in text
                        if card["type"] == "event":  # the others' words are their type's (`look` shows them)
                            assert " ".join(card["text"].split()[:4]) in flat
        if state.is_over:
            break
        apply_random(state, rng)


def test_every_card_says_what_it_does_under_kalles_rules() -> None:
    """The issue's finding: cards showed only a name and a type. Every face says what its card does:
    an event its effect, the others what their type does under Kalle's rules (the game's words, the
    same for every card of a type)."""
    from cardtable.cli.render.army_of_darkness import face
    from cardtable.games.army_of_darkness.cards import KALLE_WORDS

    game = cardtable.load("army-of-darkness", players=2)
    assert isinstance(game, ArmyOfDarkness)
    type_words = set(KALLE_WORDS.values())
    for card in range(len(game.cards.names)):
        data = game.card_json(card)
        f = face(data)
        assert f.text == data["text"], data
        if data["type"] == "event":
            assert f.text not in type_words
        else:
            assert f.text in type_words


def test_a_view_it_does_not_understand_is_drawn_by_the_generic_layout() -> None:
    game = cardtable.load("army-of-darkness", players=2)
    view = {"game": "army-of-darkness", "seat": 0, "turn": 1, "prompt": "P1: something", "odd": [1, 2]}
    assert "odd" in _draw(game, view, 0).lower()


# At 8 players a few screens with more choices run a few rows over (see docs/rules/army-of-darkness.md).
@pytest.mark.parametrize(("players", "choices"), [(2, 8), (4, 8), (6, 8), (8, 3)])
def test_decision_screens_fit_50_rows(players: int, choices: int) -> None:
    """The whole screen the terminal shows at a decision (table, the newest events, the choices),
    100 columns wide, at every other decision of random games with at most ``choices`` choices."""
    game = cardtable.load("army-of-darkness", players=players)
    worst = 0
    for seed in range(2):
        out = io.StringIO()
        console = Console(file=out, width=100, force_terminal=False, height=50)
        session = Session(Terminal(console, io.StringIO()), game, ["human"] * players, seed, None, [])
        rng = Rng(seed)
        for step in range(400):
            state = session.table.state
            if state.is_over:
                break
            seat = state.current_player
            assert seat is not None
            legal = state.legal_actions()
            if step % 2 == 0 and len(legal) <= choices:
                out.seek(0)
                out.truncate()
                session.show_table(seat)
                worst = max(worst, len(out.getvalue().splitlines()))
            session.table.apply(legal[rng.below(len(legal))], seat)
    assert 0 < worst <= 50


def test_the_table_itself_stays_short_at_8_players() -> None:
    """The whole table (the `table` command: the view alone, every zone in full, no events, no
    choices), at 100 columns: at most 42 rows."""
    game = cardtable.load("army-of-darkness", players=8)
    console = Console(file=io.StringIO(), width=100, force_terminal=False)
    worst = 0
    for seed in range(2):
        state = game.new(seed, log=False)
        rng = Rng(seed)
        for _ in range(500):
            if state.is_over:
                break
            seat = state.current_player
            drawn = renderer_for(game.id)(state.view(seat), RenderContext(game, seat))
            worst = max(worst, len(console.render_lines(drawn, console.options, pad=False)))
            apply_random(state, rng)
    assert 0 < worst <= 42
