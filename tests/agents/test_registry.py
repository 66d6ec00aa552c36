"""Agent specs: names, options, errors, and the comma rule for lists of specs."""

from __future__ import annotations

import pytest

import cardtable
from cardtable.agents import Ismcts, make_agent, parse_spec, split_specs
from cardtable.engine import OptionError


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
    assert make_agent("ismcts:ms=20", cardtable.load("toy")).ms == 20.0  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "spec",
    [
        "ismcts:iterations=0",
        "ismcts:iterations=many",
        "ismcts:ms=-1",
        "ismcts:c=-1",
        "ismcts:rollout=smart",
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
