"""The action history tells a seat nothing it could not see.

Searches read ``Observation.history()`` (to find the tree they grew for their last decision) and every
determinization carries a history, so an action that names a card or a choice a seat never saw would
leak it to that seat's bots. Each game marks such an action with ``State.conceal_last``; then
``history_for(seat)``, ``Observation.history()`` and ``determinize(seat, ...)`` show ``CONCEALED`` in
its place.

Two properties over random games of every configuration, checked at every action of another seat:

* every card id an action in ``history_for(seat)`` names is one ``seat`` knew (``known_cards``) just
  before or just after it, or one named in the events ``seat`` read about it;
* an action that ``seat`` cannot tell from another legal one (the same view and the same events for
  ``seat`` after either) is concealed from it (checked at a sample of the decisions: it tries every
  legal action).

And a structural test: Doctor Strange's Go Back in Time (a card taken from the face-down deck by
choice) hands the other seat the same history and the same determinizations whichever card was
taken. Those, with its view and legal actions, are all an agent is given (``Observation``), so no
agent of that seat, nor its tree reuse, can tell which card was taken.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardtable
from cardtable.agents import Observation
from cardtable.engine import CONCEALED, Action, RecordError, Rng, State
from cardtable.engine.actions import CARD_PARAMS
from cardtable.games import builtin

CONFIGS = [
    (game_id, dict(options))
    for game_id in builtin()
    for options in type(cardtable.load(game_id)).CONFIGURATIONS
    if int(options.get("players", 2)) >= 2
]
STEPS = 400
"""Actions per random game (the long multiplayer games are cut: the properties hold at every step)."""


def _cards(action: Action) -> list[int]:
    params = action.space.params[action.kind]
    return [v for p, v in zip(params, action.args, strict=True) if p in CARD_PARAMS and isinstance(v, int)]


def _seen_after(state: State, action: Action, seat: int) -> tuple[str, tuple[str, ...]]:
    """What ``seat`` sees after ``action``: its view and the events it reads about it."""
    after = state.clone()
    after.start_log()
    after.apply(action)
    log = after.log
    assert log is not None
    return json.dumps(after.view(seat), sort_keys=True), tuple(e.for_seat(seat) for e in log)


def _check_game(game_id: str, options: dict[str, object], seed: int, alternatives: int) -> None:
    game = cardtable.load(game_id, **options)
    state = game.new(seed, log=True)
    rng = Rng(seed * 7 + 1)
    while not state.is_over and len(state.history) < STEPS:
        mover = state.current_player
        assert mover is not None
        legal = state.legal_actions()
        action = legal[rng.below(len(legal))]
        others = [s for s in range(game.players) if s != mover]
        before = {s: state.known_cards(s) for s in others}
        blind: list[int] = []
        if len(legal) > 1 and rng.below(100) < alternatives:
            for s in others:
                mine = _seen_after(state, action, s)
                if any(b is not action and _seen_after(state, b, s) == mine for b in legal):
                    blind.append(s)
        start = len(state.log or ())
        state.apply(action)
        where = f"{game_id} {options} seed {seed}, action {len(state.history)} ({action.text} by seat {mover})"
        for s in others:
            entry = state.history_for(s)[-1]
            if s in blind:
                assert entry == CONCEALED, (
                    f"{where}: seat {s} cannot tell it from another action, yet its history names it"
                )
            if entry == CONCEALED:
                continue
            assert entry == action.index
            told = " ".join(e.for_seat(s) for e in (state.log or ())[start:])
            after = state.known_cards(s)
            for card in _cards(action):
                assert card in before[s] or card in after or game.card_name(card) in told, (
                    f"{where}: seat {s}'s history names card {card}, which it never saw"
                )
        assert state.history_for(mover)[-1] == action.index, f"{where}: the mover's own action is hidden from it"
        if state.concealed and not state.is_over:
            seat = state.current_player
            assert seat is not None
            sample = state.determinize(seat, Rng(seed))
            assert sample.history == list(state.history_for(seat))
            assert list(Observation(state, seat).history()) == sample.history


@pytest.mark.parametrize(
    ("game_id", "options"), CONFIGS, ids=[f"{g}-{json.dumps(o, sort_keys=True)}" for g, o in CONFIGS]
)
@settings(max_examples=4, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**31))
def test_history_names_nothing_unseen(game_id: str, options: dict[str, object], seed: int) -> None:
    _check_game(game_id, options, seed, alternatives=5)


# -- Doctor Strange: Go Back in Time ----------------------------------------------------------------


def _before_a_take() -> State:
    """A Doctor Strange game at a decision to take a card from the deck (Go Back in Time)."""
    game = cardtable.load("doctor-strange", players=2)
    for seed in range(200):
        state = game.new(seed, log=False)
        rng = Rng(seed)
        while not state.is_over:
            legal = state.legal_actions()
            if legal[0].kind == "take" and len(legal) > 2:
                return state
            state.apply(legal[rng.below(len(legal))])
    raise AssertionError("no Go Back in Time in 200 random games")


def test_a_card_taken_from_the_deck_is_concealed_from_the_other_seat() -> None:
    state = _before_a_take()
    taker = state.current_player
    assert taker is not None
    other = 1 - taker
    first, second = state.clone(), state.clone()
    first.apply(state.legal_actions()[0])
    second.apply(state.legal_actions()[-1])
    assert first.view(other) == second.view(other)  # the other seat cannot tell them apart...
    assert first.history != second.history
    # ... and neither can anything it is handed.
    assert first.history_for(other) == second.history_for(other)
    assert first.history_for(other)[-1] == CONCEALED
    assert first.history_for(None)[-1] == CONCEALED
    assert first.history_for(taker)[-1] == first.history[-1]
    for k in range(3):
        one, two = first.determinize(other, Rng(k)), second.determinize(other, Rng(k))
        assert one.history == two.history
        assert one.snapshot() == two.snapshot()
        assert one.actions_taken()[-1] == "?"
        with pytest.raises(RecordError, match="hides actions"):
            one.record()
    # The taker's own determinizations keep what it chose.
    assert first.determinize(taker, Rng(0)).history == first.history
