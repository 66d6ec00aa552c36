"""The agent interface: an agent gets its seat's view, the legal actions and samples, nothing more."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardtable
from cardtable.agents.base import Agent, Observation
from cardtable.agents.random_agent import RandomAgent
from cardtable.engine import Action, Rng, State
from tests.engine.toy import Toy, ToyState
from tests.support.walk import apply_random

cardtable.register("toy", Toy)

PUBLIC = {"game", "turn", "seat", "view", "legal_actions", "sample", "history"}


def mid_game(seed: int, steps: int = 3) -> State:
    state = cardtable.load("toy").new(seed)
    r = Rng(seed)
    for _ in range(steps):
        apply_random(state, r)
    return state


def test_only_the_seats_share_is_public() -> None:
    state = mid_game(1)
    seat = state.current_player
    assert seat is not None
    obs = Observation(state, seat)
    assert {name for name in dir(obs) if not name.startswith("_")} == PUBLIC
    # No attribute can be added to smuggle the state in (slots), and the state is not exposed.
    with pytest.raises(AttributeError):
        obs.state = state  # type: ignore[attr-defined]  # deliberately: an Observation has no such slot
    assert not hasattr(obs, "__dict__")


@given(st.integers(0, 10**6))
def test_view_legal_actions_and_samples(seed: int) -> None:
    state = mid_game(seed)
    seat = state.current_player
    assert seat is not None
    obs = Observation(state, seat)
    before = state.snapshot()
    assert obs.view() == state.view(seat)
    assert obs.legal_actions() == state.legal_actions()
    assert obs.game is state.game and obs.turn == state.turn and obs.seat == seat
    sample = obs.sample(Rng(seed))
    assert isinstance(sample, ToyState) and sample is not state
    assert sample.view(seat) == state.view(seat)
    # The sample does not carry the true seed (from which the true deal could be rebuilt).
    assert sample.seed != state.seed
    assert state.snapshot() == before


def test_samples_hide_the_other_hand() -> None:
    """Across samples the opponent's hand and the deck vary: the sample is not the truth."""
    state = mid_game(5, steps=0)
    obs = Observation(state, 0)
    hands = {tuple(sorted(obs.sample(Rng(k)).hands[1])) for k in range(30)}  # type: ignore[attr-defined]  # toy samples
    assert len(hands) > 1


class Recorder(Agent):
    """Remembers what it was given: the observation only."""

    name = "recorder"

    def __init__(self) -> None:
        super().__init__(0)
        self.seen: list[Observation] = []

    def choose(self, obs: Observation) -> Action:
        self.seen.append(obs)
        return obs.legal_actions()[0]


def test_agents_choose_from_an_observation() -> None:
    state = mid_game(2, steps=0)
    agent = Recorder()
    seat = state.current_player
    assert seat is not None
    action = agent.choose(Observation(state, seat))
    assert action in state.legal_actions()
    assert type(agent.seen[0]) is Observation
    assert repr(agent) == "<Recorder recorder>"


@given(st.integers(0, 10**6))
def test_random_agent_is_seeded_and_legal(seed: int) -> None:
    def game_with(agent_seed: int) -> list[str]:
        state = cardtable.load("toy").new(seed)
        agent = RandomAgent(agent_seed)
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            action = agent.choose(Observation(state, seat))
            assert action in state.legal_actions()
            state.apply(action)
        return state.actions_taken()

    assert game_with(7) == game_with(7)
