"""The terminal: the renderer draws the map, the Tower, the Heap, the trainer, every display case and
the hand from the view alone (a decision's screen fits the terminal: tests/cli/test_screen_fits.py);
``cardtable play`` runs a game with people and heuristics."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

import cardtable
from cardtable.cli.main import main
from cardtable.cli.render import RenderContext, renderer_for
from cardtable.engine import Rng
from cardtable.games.mr_card_game.game import MrCardGame
from tests.support.walk import apply_random


def _screen(view: dict[str, object], game: cardtable.Game, seat: int | None, width: int) -> str:
    out = io.StringIO()
    Console(file=out, width=width, force_terminal=False).print(
        renderer_for("mr-card-game")(view, RenderContext(game, seat))
    )
    return out.getvalue()


@pytest.mark.parametrize("config", [dict(c) for c in MrCardGame.CONFIGURATIONS], ids=lambda c: str(c))
def test_the_whole_table_is_drawn_from_the_view(config: dict[str, object]) -> None:
    game = cardtable.load("mr-card-game", **config)
    state = game.new(3)
    r = Rng(5)
    for steps in (0, 40, 90):
        while len(state.history) < steps and not state.is_over:
            apply_random(state, r)
        for seat in (*range(game.players), None):
            view = state.view(seat)
            text = _screen(view, game, seat, 120)
            board = "The Playmat" if view["layout"] else "The Kingdom"  # S4: the piles on their spaces
            assert board in text and "Tower: Naughty Sorceress" in text
            assert "Heap" in text and "Trainer" in text and "Adventurers" in text
            for loc in view["map"]:
                if loc["monster"] is not None:
                    assert f"#{loc['monster']['id']}" in text
            for p in range(game.players):
                assert f"P{p + 1}" in text
            if seat is not None:
                assert "Your hand" in text and "Your display case" in text
            assert str(view["prompt"])[:40] in text.replace("\n", " ")


def test_the_combat_panel_shows_the_score_against_each_target() -> None:
    game = cardtable.load("mr-card-game", players=3, **{"first-player": "P1"})
    state = game.new(1)
    state.apply("combat")
    maneuver = next(a for a in state.legal_actions() if a.kind == "maneuver")
    state.apply(maneuver)
    state.apply("done")
    view = state.view(0)
    targets = view["combat"]["targets"]
    assert targets and any(t["beaten"] for t in targets) != all(t["beaten"] for t in targets)
    for width in (80, 120):
        # Each target whole, its numbers first: your score against its power, a tick when beaten.
        text = _screen(view, game, 0, width)
        assert "Combat" in text and "your score/its power (✓ beaten)" in text
        lines = text.splitlines()
        for t in targets:
            mark = "✓" if t["beaten"] else ""
            assert any(f"{t['score']}/{t['power']}{mark} {t['monster']}" in line for line in lines), (width, t)
            assert any(f"#{t['card']}" in line and str(t["monster"]) in line for line in lines), (width, t)


def test_cardtable_play_with_a_person_and_two_heuristics(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    console = Console(file=out, force_terminal=False, width=120, highlight=False)
    lines = ["end-turn", "done"] * 3 + ["quit", "n"]
    stdin = io.StringIO("".join(line + "\n" for line in lines))
    code = main(
        ["play", "mr-card-game", "--players", "3", "--seats", "human,heuristic,heuristic", "--seed", "4"],
        console=console,
        stdin=stdin,
    )
    text = out.getvalue()
    assert code == 0, text[-2000:]
    assert "Mr. Card Game ·" in text and "Your hand" in text and "P1 (you)" in text
