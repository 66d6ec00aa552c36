"""A decision's screen at 80x24 and at 120x40, in every configuration of every game, at several points
of a seeded game: it fits the terminal (one row left for what is typed), it never cuts a name or a
number, and it shows every card the decision is about (each card a legal action names, by its whole
name), the prompt and the choices.

The issue's findings: Mr. Card Game cut every name ("The Musty…", "#5 Pickle…", "↳ Jar Lid…") even at
120x40, and at 80x24 the Mephisto dungeon had scrolled off the screen by the time one decided.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from typing import Any

import pytest
from rich.console import Console

import cardtable
from cardtable.cli.look import visible
from cardtable.cli.play import Session
from cardtable.cli.term import Terminal
from cardtable.engine import Game, Rng
from cardtable.engine.actions import CARD_PARAMS
from cardtable.games import builtin, game_class

SIZES = ((80, 24), (120, 40))
POINTS = (0, 9, 23, 41, 67, 101)
"""The decisions of a seeded random game whose screens are checked."""


def configurations() -> Iterator[Any]:
    for game_id in builtin():
        cls = game_class(game_id)
        assert isinstance(cls, type) and issubclass(cls, Game)  # a built-in game is a class
        for config in cls.CONFIGURATIONS:
            for width, height in SIZES:
                label = "-".join(f"{k}={v}" for k, v in config.items())
                yield pytest.param(game_id, dict(config), width, height, id=f"{game_id}-{label}-{width}x{height}")


def screens(game_id: str, options: dict[str, Any], width: int, height: int) -> Iterator[tuple[str, Any, Any]]:
    """(screen, state, seat) at the decisions in :data:`POINTS` of a seeded game where every seat is a
    person (so each screen is a decision's screen as the terminal draws it, events included)."""
    game = cardtable.load(game_id, **options)
    out = io.StringIO()
    console = Console(file=out, width=width, height=height, force_terminal=False, highlight=False)
    session = Session(Terminal(console, io.StringIO()), game, ["human"] * game.players, 5, None, [])
    rng = Rng(5)
    for step in range(max(POINTS) + 1):
        state = session.table.state
        if state.is_over:
            return
        seat = state.current_player
        assert seat is not None
        legal = state.legal_actions()
        if step in POINTS:
            out.seek(0)
            out.truncate()
            session.show_table(seat)
            yield out.getvalue(), state, seat
        else:
            session.take_events(seat)  # a person who decided here saw these events then
        session.table.apply(legal[rng.below(len(legal))], seat)


def named(state: Any) -> list[int]:
    """The cards the legal actions name."""
    params = state.game.actions.params
    out = []
    for action in state.legal_actions():
        for name, value in zip(params[action.kind], action.args, strict=True):
            if name in CARD_PARAMS and isinstance(value, int) and value not in out:
                out.append(value)
    return out


def cut_names(screen: str, names: set[str]) -> list[str]:
    """Names cut short on the screen: the words before an ellipsis that start a name but are not it."""
    cut = []
    for m in re.finditer(r"([\w'\u2019.,!&-]+(?: [\w'\u2019.,!&-]+){0,4})…", screen):
        words = m.group(1).split()
        for start in range(len(words)):
            fragment = " ".join(words[start:])
            if len(fragment) >= 3 and any(n.startswith(fragment) and n != fragment for n in names):
                cut.append(fragment + "…")
    return cut


@pytest.mark.parametrize(("game_id", "options", "width", "height"), list(configurations()))
def test_a_decision_screen_fits_and_cuts_no_name(
    game_id: str, options: dict[str, Any], width: int, height: int
) -> None:
    checked = 0
    for screen, state, seat in screens(game_id, options, width, height):
        lines = screen.splitlines()
        assert len(lines) <= height - 1, f"{len(lines)} rows:\n{screen}"
        assert all(len(line) <= width for line in lines)
        view = state.view(seat)
        cards = visible(view)
        names = {c.name for c in cards} | {state.game.card_names(c)[0] for c in named(state)}
        assert cut_names(screen, names) == [], screen
        flat = " ".join(screen.split())
        assert " ".join(str(view["prompt"]).split()) in flat, screen
        # Every card the decision is about, by its whole name on one line, with its number (#17).
        for card in named(state):
            name = state.game.card_names(card)
            assert any(any(n in line for n in name) for line in lines), f"{name} not on the screen:\n{screen}"
            assert f"#{card}" in screen
        checked += 1
    assert checked >= 3
