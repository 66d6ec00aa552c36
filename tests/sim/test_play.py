"""Playing one game of a plan: forced decisions skip the agent, card uses are counted by card name."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

import cardtable
from cardtable.agents.base import Agent, Observation
from cardtable.engine import Action, Game
from cardtable.sim import play
from cardtable.sim.plan import make_plan
from cardtable.sim.play import card_uses, plain_card_name, play_game


class Spy(Agent):
    """Picks the first legal action and counts how many legal actions it was offered each time."""

    asked: Counter[int] = Counter()

    def choose(self, obs: Observation) -> Action:
        legal = obs.legal_actions()
        Spy.asked[len(legal)] += 1
        return legal[0]


def _replay(game: Game, seed: int, actions: list[str]) -> tuple[int, list[tuple[int, Action]]]:
    """Forced decisions of a replayed game and every (seat, action), recomputed from its record."""
    state = game.new(seed, log=False)
    forced = 0
    taken = []
    for text in actions:
        seat = state.current_player
        assert seat is not None
        forced += len(state.legal_actions()) == 1
        action = game.actions.parse(text)
        taken.append((seat, action))
        state.apply(action, seat)
    return forced, taken


def test_a_lone_legal_action_is_applied_without_asking_the_agent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(play, "make_agent", lambda spec, game, seed: Spy(seed))
    Spy.asked.clear()
    plan = make_plan("toy", seats="random", games=6, seed=5, records=True)
    forced_total = decisions = 0
    for index in range(6):
        line, record = play_game(plan, 0, index)
        assert record is not None
        game = cardtable.load("toy")
        forced, _ = _replay(game, plan.seed + index, record["record"]["actions"])
        assert line["forced"] == forced
        forced_total += forced
        decisions += int(line["decisions"])
    # The toy forces a lone `pass` after every play: the agents were asked only about real choices.
    assert forced_total > 0
    assert 1 not in Spy.asked
    assert sum(Spy.asked.values()) == decisions - forced_total


def test_plain_card_name_drops_only_the_id_the_game_adds() -> None:
    game = cardtable.load("mephisto", players=2)
    card = next(c for c in range(200) if game.card_name(c) != f"card {c}")
    assert plain_card_name(game, card) == game.card_name(card).rsplit(" (card ", 1)[0]
    toy = cardtable.load("toy")
    assert plain_card_name(toy, 3) == "card 3"  # a game without names: every card its own name


@pytest.mark.parametrize(
    ("game_id", "options", "copies"),
    # Doctor Strange's cards are all different; Mephisto and Army of Darkness have copies.
    [("mephisto", {"players": 2}, True), ("army-of-darkness", {"players": 2}, True), ("doctor-strange", {}, False)],
)
def test_card_uses_are_counted_per_seat_by_name_copies_together(
    game_id: str, options: dict[str, Any], copies: bool
) -> None:
    plan = make_plan(game_id, options=options, seats="random", games=3, seed=2, records=True)
    game = cardtable.load(game_id, **options)
    merged = False
    for index in range(3):
        line, record = play_game(plan, 0, index)
        assert record is not None
        _, taken = _replay(game, plan.seed + index, record["record"]["actions"])
        expected: list[dict[str, Counter[str]]] = [{} for _ in range(game.players)]
        ids: dict[str, set[int]] = {}
        for seat, action in taken:
            how = game.CARD_USES.get(action.kind)
            if how is None:
                continue
            card = action.arg("card")
            assert isinstance(card, int)
            name = game.card_name(card).rsplit(" (card ", 1)[0]
            expected[seat].setdefault(how, Counter())[name] += 1
            ids.setdefault(name, set()).add(card)
        got = line["cards"]
        assert got == [{how: dict(c) for how, c in per.items()} for per in expected]
        merged = merged or any(len(v) > 1 for v in ids.values())
    assert merged == copies, "copies of a card were used in these games" if merged else "no copies were used"


def test_card_use_table_follows_the_games_declared_uses() -> None:
    game = cardtable.load("mephisto", players=2)
    table = card_uses(game)
    assert len(table) == len(game.actions)
    kinds = {a.kind for a, use in zip(game.actions, table, strict=True) if use is not None}
    assert kinds == set(game.CARD_USES)
    # The toy declares no uses: every action with a card parameter counts as "used".
    toy = cardtable.load("toy")
    assert {use[0] for use in card_uses(toy) if use is not None} == {"used"}
