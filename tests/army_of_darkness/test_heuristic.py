"""The greedy heuristic agent: legal choices only, option checking, and better than random play."""

from __future__ import annotations

import pytest

from cardtable.agents.base import Observation
from cardtable.agents.heuristics.army_of_darkness import ALL_CARDS, HAND_CAP, Heuristic, evaluate, progress
from cardtable.agents.registry import make_agent
from cardtable.engine import OptionError
from tests.army_of_darkness.helpers import Cards, arrange, load, necronomicon


def test_options_are_checked() -> None:
    with pytest.raises(OptionError, match="unknown"):
        Heuristic(0, speed=3)
    with pytest.raises(OptionError, match=r"1\.\.4"):
        Heuristic(0, depth=9)
    assert Heuristic(0, depth="2").depth == 2
    with pytest.raises(OptionError, match="hands must be 'capped' or 'all'"):
        Heuristic(0, hands="most")
    assert Heuristic(0).hand_cap == HAND_CAP
    assert Heuristic(0, hands="all").hand_cap == ALL_CARDS


def test_hands_all_counts_every_hand_card() -> None:
    """``hands=all`` (the search's ``all-hands`` advisor): every hand card counts toward progress; as
    shipped, the seventh and later count for nothing."""
    g = load(2)
    pool = Cards(g)
    st = arrange(
        g,
        hands={
            0: pool.take("Chainsaw", 3) + pool.take("Gunpowder", 3) + pool.take("Deadite", 2),
            1: pool.take("Deadite", 2),
        },
    )
    assert len(st.hands[0]) == 8
    assert progress(st, 0, ALL_CARDS) - progress(st, 0) == pytest.approx(0.8 * 2)
    assert progress(st, 1, ALL_CARDS) == progress(st, 1)


def test_it_takes_the_winning_line() -> None:
    g = load(2)
    pool = Cards(g)
    third = pool.one("Wise Man")
    monster = pool.one("Deadite")
    necro = necronomicon(g)
    st = arrange(
        g,
        hands={0: [monster, third, pool.one("Chainsaw")], 1: pool.take("Gunpowder", 1)},
        ally={0: pool.take("Knight of Arthur", 2)},
        item={0: [necro]},
    )
    agent = Heuristic(1)
    while not st.is_over and st.turn == 1:
        st.apply(agent.choose(Observation(st, 0)))
    assert st.is_over and st.result().winners == (0,)
    assert evaluate(st, 0) > 0 > evaluate(st, 1)


def test_it_beats_random_players() -> None:
    g = load(3)
    wins = 0
    games = 9
    for seed in range(games):
        me = seed % 3
        agents = [make_agent("heuristic" if s == me else "random", g, seed * 10 + s) for s in range(3)]
        st = g.new(seed, log=False)
        while not st.is_over:
            seat = st.current_player
            assert seat is not None
            obs = Observation(st, seat)
            action = agents[seat].choose(obs)
            assert action in st.legal_actions()
            st.apply(action)
        wins += st.result().winners == (me,)
    # Random seats would win about a third of these games.
    assert wins >= 6
