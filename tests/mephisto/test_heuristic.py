"""The Mephisto heuristic agent: always legal, sees only its view, and plays clearly better than random."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

import cardtable
from cardtable.agents.base import Observation
from cardtable.agents.heuristics import heuristic_class
from cardtable.agents.heuristics.mephisto import Heuristic
from cardtable.agents.random_agent import RandomAgent
from cardtable.engine import OptionError, OptionValue
from cardtable.games.mephisto.game import Mephisto


def _play(options: Mapping[str, object], seed: int, heuristic_seats: set[int]) -> cardtable.engine.Result:
    game = cardtable.load("mephisto", **options)
    cls = heuristic_class("mephisto")
    agents = [cls(seed) if p in heuristic_seats else RandomAgent(seed) for p in range(game.players)]
    s = game.new(seed, log=False)
    while not s.is_over:
        seat = s.current_player
        assert seat is not None
        action = agents[seat].choose(Observation(s, seat))
        assert action in s.legal_actions()
        s.apply(action)
    return s.result()


@pytest.mark.parametrize("config", [dict(c) for c in Mephisto.CONFIGURATIONS])
def test_heuristic_plays_every_configuration_to_the_end(config: dict[str, OptionValue]) -> None:
    for seed in range(3):
        r = _play(config, seed, set(range(int(config["players"]))))
        assert r.reason == "deck-exhausted"


def test_heuristic_beats_random_in_a_duel() -> None:
    wins = sum(0 in _play({"players": 2}, seed, {0}).winners for seed in range(20))
    assert wins >= 15


def test_heuristic_solitaire_reaches_a_ranking() -> None:
    ranks = {_play({"players": 1}, seed, {0}).details["ranking"] for seed in range(5)}
    assert ranks <= {"Easy", "Medium", "Hard", "Expert"}


def test_heuristic_rejects_unknown_options() -> None:
    cls = heuristic_class("mephisto")
    assert issubclass(cls, Heuristic)
    with pytest.raises(OptionError):
        cls(0, colour="red")
    assert cls(3, aggression=7).aggression == 7
