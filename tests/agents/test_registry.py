"""Agent specs: names, options, errors, and the comma rule for lists of specs."""

from __future__ import annotations

import pytest

import cardtable
from cardtable.agents import Ismcts, make_agent, parse_spec, split_specs
from cardtable.engine import OptionError
from tests.agents.games import search_agent


def test_split_specs_keeps_each_specs_options() -> None:
    assert split_specs("ismcts:iterations=400,rollout=heuristic,random") == [
        "ismcts:iterations=400,rollout=heuristic",
        "random",
    ]
    assert split_specs("random, heuristic") == ["random", "heuristic"]


@pytest.mark.parametrize("text", ["random,,heuristic", "iterations=4,random", "random,iterations=4"])
def test_split_specs_rejects_dangling_parts(text: str) -> None:
    with pytest.raises(OptionError):
        split_specs(text)


def test_ismcts_spec_options() -> None:
    agent = make_agent("ismcts:iterations=123,c=1.5", cardtable.load("toy"), 3)
    assert isinstance(agent, Ismcts)
    assert (agent.iterations, agent.c, agent.ms, agent.rollout_agent) == (123, 1.5, None, None)
    assert search_agent("ismcts:ms=20", cardtable.load("toy")).ms == 20.0
    assert agent.game_prior and not search_agent("ismcts:prior=none", cardtable.load("toy")).game_prior


@pytest.mark.parametrize(
    "spec",
    [
        "ismcts:iterations=0",
        "ismcts:iterations=many",
        "ismcts:ms=-1",
        "ismcts:c=-1",
        "ismcts:rollout=smart",
        "ismcts:prior=oracle",
        "ismcts:depth=3",
        "random:x=1",
        "nobody",
        "ismcts:iterations",
    ],
)
def test_bad_specs_are_refused_clearly(spec: str) -> None:
    with pytest.raises(OptionError) as err:
        make_agent(spec, cardtable.load("toy"))
    assert str(err.value)


def test_parse_spec() -> None:
    assert parse_spec(" ismcts:iterations=5 , c=2 ") == ("ismcts", {"iterations": "5", "c": "2"})


def test_ismcts_depth_full_plays_rollouts_to_the_end_and_c_defaults_follow_the_rollouts() -> None:
    from cardtable.agents.base import Observation
    from cardtable.agents.ismcts import DEFAULT_C, EVALUATED_C

    game = cardtable.load("mephisto", players=2)
    default = make_agent("ismcts:iterations=30", game, 1)
    full = make_agent("ismcts:iterations=30,depth=full", game, 1)
    assert isinstance(default, Ismcts) and isinstance(full, Ismcts)
    assert default.c is None and default.game_default  # decided per game: evaluated, c = EVALUATED_C
    assert not full.game_default and full.depth is None and full.evaluate is None
    assert EVALUATED_C < DEFAULT_C
    state = game.new(4, log=False)
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    seat = state.current_player
    assert seat is not None
    # Both kinds of search run and choose a legal action.
    for agent in (default, full):
        assert agent.choose(Observation(state, seat)) in state.legal_actions()
