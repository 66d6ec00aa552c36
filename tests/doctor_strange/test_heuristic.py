"""The Doctor Strange heuristic agent: legal, deterministic, and stronger than random play."""

from __future__ import annotations

import pytest

import cardtable
from cardtable.agents.base import Observation
from cardtable.agents.heuristics import heuristic_class
from cardtable.agents.heuristics.doctor_strange import Heuristic
from cardtable.agents.random_agent import RandomAgent
from cardtable.engine import OptionError
from cardtable.games.doctor_strange.state import DSState


def duel(seed: int, heuristic_seat: int) -> tuple[tuple[int, ...], list[str]]:
    g = cardtable.load("doctor-strange")
    cls = heuristic_class("doctor-strange")
    agents = {heuristic_seat: cls(seed), 1 - heuristic_seat: RandomAgent(seed)}
    st = g.new(seed, log=False)
    assert isinstance(st, DSState)
    while not st.is_over:
        p = st.current_player
        assert p is not None
        st.apply(agents[p].choose(Observation(st, p)))
    return st.result().winners, st.actions_taken()


def test_heuristic_beats_random() -> None:
    wins = 0
    for seed in range(20):
        winners, _ = duel(seed, seed % 2)
        wins += winners == (seed % 2,)
    # Over these 20 fixed games it wins far more than half (random play would win about half).
    assert wins >= 14


def test_heuristic_is_deterministic() -> None:
    assert duel(3, 0) == duel(3, 0)


def test_heuristic_rejects_options() -> None:
    cls = heuristic_class("doctor-strange")
    assert issubclass(cls, Heuristic)
    with pytest.raises(OptionError):
        cls(0, depth=3)
