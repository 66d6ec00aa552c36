"""Every agent a person can seat reads only what its seat may know.

The strong agent's own tests check its search; this checks every entry of the catalogue (the levels
and the plain agents) the same structural way, in every configuration of every game: the agent handed
the true state and an equal agent (the same seed) handed a resampling of everything its seat cannot
see (``determinize``) make the same choices, for as long as that seat keeps deciding and both states
show it the same table. The two states differ only in hidden cards (their views for that seat are
equal, checked), so any difference in the choices could only come from reading a hidden card.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardtable
from cardtable.agents import Observation, catalogue, make_agent
from cardtable.engine import Rng, State
from tests.agents.games import REAL

# Small budgets: the search agents' strength is beside the point here; ``hard`` and ``expert`` keep
# their time caps, far above what these budgets take.
SPECS = {
    "easy": "easy",
    "normal": "normal",
    "hard": "hard:iterations=12",
    "expert": "expert:iterations=12",
    "heuristic": "heuristic",
    "random": "random",
    "ismcts": "ismcts:iterations=12",
    "strong": "strong:iterations=12",
}
DECISIONS = 6
"""How many decisions in a row of the same seat each example follows (a turn in Mr. Card Game is many)."""


def _configurations() -> list[tuple[str, dict[str, Any]]]:
    return [(game_id, dict(options)) for game_id in REAL for options in cardtable.load(game_id).CONFIGURATIONS]


def _decision_with_hidden_cards(game_id: str, options: dict[str, Any], seed: int, steps: int) -> State | None:
    """A state after up to ``steps`` random moves where a seat has a real choice (None: the game ended)."""
    state = cardtable.load(game_id, **options).new(seed, log=False)
    r = Rng(seed ^ 0x5EA7)
    for _ in range(steps):
        legal = state.legal_actions()
        state.apply(legal[r.below(len(legal))])
        if state.is_over:
            return None
    while not state.is_over and len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    return None if state.is_over else state


def test_every_catalogued_agent_is_checked() -> None:
    """A new agent in the catalogue must be added to :data:`SPECS`, so none escapes the check."""
    assert {info.name for info in catalogue()} == set(SPECS)


@pytest.mark.parametrize(("game_id", "options"), _configurations())
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 120), agent=st.sampled_from(sorted(SPECS)))
def test_no_agent_reads_a_hidden_card(game_id: str, options: dict[str, Any], seed: int, steps: int, agent: str) -> None:
    true = _decision_with_hidden_cards(game_id, options, seed, steps)
    if true is None:
        return
    seat = true.current_player
    assert seat is not None
    resampled = true.determinize(seat, Rng(seed + 1))
    spec = SPECS[agent]
    first, second = make_agent(spec, true.game, seed), make_agent(spec, true.game, seed)
    assert resampled.view(seat) == true.view(seat)
    for _ in range(DECISIONS):
        a = first.choose(Observation(true, seat))
        b = second.choose(Observation(resampled, seat))
        assert a.text == b.text, f"{spec} chose {a.text!r} on the true state, {b.text!r} on a resampling"
        true.apply(a)
        resampled.apply(b)
        # A move may reveal a card (a draw): where the two worlds then show the seat different cards,
        # the agent may rightly choose differently, so the example ends there.
        if true.is_over or true.current_player != seat or resampled.view(seat) != true.view(seat):
            break


def test_the_check_catches_an_agent_that_reads_a_hidden_card() -> None:
    """The check has teeth: an agent that picks by the cards in another seat's hand chooses differently
    on the true state and on a resampling, at some decision of a few Mephisto deals."""

    class Peeker:
        def choose(self, obs: Observation) -> Any:
            legal = obs.legal_actions()
            hands = obs._state.snapshot()["hands"]  # every hand, the others' included: what no agent may read
            return legal[sum(map(ord, repr(hands))) % len(legal)]

    caught = 0
    for seed in range(6):
        true = _decision_with_hidden_cards("mephisto", {"players": 2}, seed, 10)
        if true is None:
            continue
        seat = true.current_player
        assert seat is not None
        resampled = true.determinize(seat, Rng(seed + 1))
        caught += Peeker().choose(Observation(true, seat)).text != Peeker().choose(Observation(resampled, seat)).text
    assert caught > 0
