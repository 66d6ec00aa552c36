"""Table undo from checkpoints: the same table as a replay from the seed, at a bounded cost.

``Table.undo`` replays from the newest checkpoint at or before the point undone to, never from the
seed. These tests hold it to the old meaning (a full replay of the kept decisions gives the very
same state, event log and legal actions, for every game) and to its cost (at most
``CHECKPOINT_EVERY`` + count applies and no new game, however long the game has run: a
12,000-decision game made each undo replay all of it, 229 ms on the web server's event loop).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardtable
from cardtable.engine import State, Table
from cardtable.engine.table import CHECKPOINT_EVERY

CASES: list[tuple[str, dict[str, Any]]] = [
    ("mephisto", {"players": 2}),
    ("mephisto", {"players": 4, "teams": True}),
    ("doctor-strange", {}),
    ("army-of-darkness", {"players": 3, "turn-limit": 60}),
    ("mr-card-game", {"players": 3, "turn-limit": 8}),
]


def _replayed(table: Table) -> State:
    fresh = table.game.new(table.seed, log=True)
    for text in table.state.actions_taken():
        fresh.apply(text)
    return fresh


def _same(a: State, b: State) -> None:
    players = a.game.players
    assert a.fingerprint() == b.fingerprint()
    assert a.current_player == b.current_player and a.turn == b.turn
    assert [x.text for x in a.legal_actions()] == [x.text for x in b.legal_actions()]
    for seat in [*range(players), None]:
        assert a.events(seat) == b.events(seat)
        assert a.view(seat) == b.view(seat)


@settings(max_examples=10, deadline=None)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 2**31))
def test_undo_and_rewind_from_checkpoints_replay_as_from_the_seed(case: tuple[str, dict[str, Any]], seed: int) -> None:
    game_id, options = case
    table = Table(cardtable.load(game_id, **options), seed)
    rng = random.Random(seed)
    undone = 0
    for _ in range(400):
        state = table.state
        if state.is_over:
            break
        seat = state.current_player
        assert seat is not None
        can = table.undoable(seat)
        if can and rng.random() < 0.3:
            table.undo(seat, rng.randint(1, can))
            undone += 1
            _same(table.state, _replayed(table))
            continue
        if table.steps and rng.random() < 0.05:
            # A rewind (the server's database refused a move) may take back anything, barriers too.
            table.rewind(rng.randint(1, min(3, len(table.steps))))
            _same(table.state, _replayed(table))
            assert len(table.steps) == len(table.state.history)
            continue
        legal = state.legal_actions()
        table.apply(legal[rng.randrange(len(legal))], seat)
    _same(table.state, _replayed(table))


def _long_table() -> tuple[Table, int]:
    """An Army of Darkness table 1,000 decisions into the game with an undoable decision (the seat to
    move made one already this turn)."""
    table = Table(cardtable.load("army-of-darkness", players=3), 0)
    rng = random.Random(0)
    while True:
        state = table.state
        assert not state.is_over, "no undoable decision late in this game"
        seat = state.current_player
        assert seat is not None
        if len(state.history) > 1000 and table.undoable(seat):
            return table, seat
        legal = state.legal_actions()
        table.apply(legal[rng.randrange(len(legal))], seat)


def test_undo_replays_at_most_one_checkpoint_interval(monkeypatch: pytest.MonkeyPatch) -> None:
    table, seat = _long_table()
    assert len(table.checkpoints) <= 3, "checkpoints no undo can reach are dropped"
    applies = 0
    news = 0
    real_apply = State.apply
    real_new = type(table.game).new

    def counting_apply(self: State, *args: Any, **kwargs: Any) -> Any:
        nonlocal applies
        applies += 1
        return real_apply(self, *args, **kwargs)

    def counting_new(self: Any, *args: Any, **kwargs: Any) -> Any:
        nonlocal news
        news += 1
        return real_new(self, *args, **kwargs)

    monkeypatch.setattr(State, "apply", counting_apply)
    monkeypatch.setattr(type(table.game), "new", counting_new)
    done = len(table.state.history)
    table.undo(seat, 1)
    assert news == 0, "undo started a new game from the seed"
    assert applies <= CHECKPOINT_EVERY, f"undo replayed {applies} of {done} decisions"
    monkeypatch.undo()
    _same(table.state, _replayed(table))


def test_rewind_of_the_newest_decision_replays_at_most_one_interval(monkeypatch: pytest.MonkeyPatch) -> None:
    table, _ = _long_table()
    applies = 0
    real_apply = State.apply

    def counting_apply(self: State, *args: Any, **kwargs: Any) -> Any:
        nonlocal applies
        applies += 1
        return real_apply(self, *args, **kwargs)

    monkeypatch.setattr(State, "apply", counting_apply)
    table.rewind(1)
    assert applies <= CHECKPOINT_EVERY
    monkeypatch.undo()
    _same(table.state, _replayed(table))
