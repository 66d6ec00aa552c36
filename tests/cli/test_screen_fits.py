"""Every decision's screen fits a 50-row terminal, in every game, at 80 and 100 columns, from the very
first decision (when nothing can be "unchanged" yet): events are cut to the newest, zones fold — the
unchanged ones first, then as few as it takes, with a line saying which and why — and long lists of
choices are cut; the seat's hand and the prompt are always on screen."""

from __future__ import annotations

import io
from typing import Any

import pytest
from rich.console import Console

import cardtable
from cardtable.cli.play import SCREEN_ROWS, Session
from cardtable.cli.term import Terminal
from cardtable.engine import Rng

# The tallest table of each game: most players, every zone a variant adds.
TALLEST: list[tuple[str, dict[str, Any]]] = [
    ("mephisto", {"players": 4, "teams": True}),
    ("doctor-strange", {}),
    ("army-of-darkness", {"players": 8}),
    ("mr-card-game", {"players": 5, "nemesis": True, "bosses": True, "mr-store": True, "classes": "boards"}),
    # Every supplemental part at once (the all-options configuration): the playmat, ascension, classes.
    ("mr-card-game", dict(cardtable.load("mr-card-game").CONFIGURATIONS[-1])),
]


def screens(game_id: str, options: dict[str, Any], width: int, steps: int) -> list[tuple[str, str]]:
    """(screen, prompt) at every third decision of a random game where every seat is a person."""
    game = cardtable.load(game_id, **options)
    out = io.StringIO()
    console = Console(file=out, width=width, force_terminal=False, height=SCREEN_ROWS)
    session = Session(Terminal(console, io.StringIO()), game, ["human"] * game.players, 3, None, [])
    rng = Rng(3)
    shown = []
    for step in range(steps):
        state = session.table.state
        if state.is_over:
            break
        seat = state.current_player
        assert seat is not None
        legal = state.legal_actions()
        if step % 3 == 0:
            out.seek(0)
            out.truncate()
            session.show_table(seat)
            shown.append((out.getvalue(), str(state.view(seat)["prompt"])))
        session.table.apply(legal[rng.below(len(legal))], seat)
    return shown


# The all-options Mr. Card Game table is the slowest to draw: it runs at the narrower width only,
# where folding is hardest.
CASES = [(g, o, w) for i, (g, o) in enumerate(TALLEST) for w in ((80,) if i == len(TALLEST) - 1 else (80, 100))]


@pytest.mark.parametrize(("game_id", "options", "width"), CASES, ids=[f"{g}-{w}" for g, _, w in CASES])
def test_every_decision_screen_fits_fifty_rows(game_id: str, options: dict[str, Any], width: int) -> None:
    shown = screens(game_id, options, width, 150)
    assert len(shown) >= 20
    for screen, prompt in shown:
        assert len(screen.splitlines()) < SCREEN_ROWS, screen  # one row left for what is typed
        flat = " ".join(screen.split())
        assert " ".join(prompt.split())[:30] in flat, screen


def test_the_first_screen_folds_only_what_it_must_and_says_so() -> None:
    """Mephisto at 4 players on an 80-column terminal: nothing can be unchanged at the first
    decision; the player table (the smallest zone that helps) folds, the dungeon stays."""
    screen, _ = screens("mephisto", {"players": 4}, 80, 1)[0]
    assert len(screen.splitlines()) < SCREEN_ROWS
    assert "Dungeon, seen from your side" in screen and "Your hand" in screen
    assert "folded to fit the screen: players  (type `view` to see everything)" in screen
    assert "type `log` to read them" in screen  # the events cut to the newest say how to see the rest
