"""ISMCTS: legal choices only, never reads hidden information, seeded, multi-player rewards, strength."""

from __future__ import annotations

import sys
import types
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardtable
from cardtable.agents import Agent, Ismcts, Observation, make_agent, seat_rewards
from cardtable.engine import Action, Result, Rng, State
from tests.agents.games import hero_share, playable, two_player_games


def _walk(game_id: str, seed: int, steps: int, **options: object) -> State:
    """A state reached by ``steps`` random decisions (or the last one before the end)."""
    state = cardtable.load(game_id, **options).new(seed, log=False)
    r = Rng(seed ^ 0xABC)
    for _ in range(steps):
        legal = state.legal_actions()
        if state.is_over or len(state.legal_actions()) == 0:
            break
        nxt = state.clone()
        nxt.apply(legal[r.below(len(legal))])
        if nxt.is_over:
            break
        state = nxt
    return state


# -- rewards -------------------------------------------------------------------------------------


def _result(winners: tuple[int, ...], ranks: tuple[int, ...], **kw: Any) -> Result:
    return Result(scores=tuple(0.0 for _ in ranks), ranks=ranks, winners=winners, reason="x", turns=1, **kw)


def test_rewards_sole_winner_gets_one() -> None:
    assert seat_rewards(_result((1,), (2, 1, 3)), 3) == [0.0, 1.0, 0.0]


def test_rewards_tied_winners_share_one() -> None:
    assert seat_rewards(_result((0, 2), (1, 3, 1)), 3) == [0.5, 0.0, 0.5]


def test_rewards_every_member_of_a_winning_team_gets_the_team_share() -> None:
    r = _result((0, 2), (1, 2, 1, 2), teams=((0, 2), (1, 3)))
    assert seat_rewards(r, 4) == [1.0, 0.0, 1.0, 0.0]


def test_rewards_draw_without_winners_is_shared_by_the_top_ranks() -> None:
    assert seat_rewards(_result((), (1, 1), draw=True), 2) == [0.5, 0.5]


def test_rewards_nobody_won_gives_zero() -> None:
    assert seat_rewards(_result((), (2, 2)), 2) == [0.0, 0.0]


def test_solitaire_rewards_winning_and_score_monotonically() -> None:
    def solo(won: bool, score: float) -> float:
        r = Result(scores=(score,), ranks=(1,), winners=(0,) if won else (), reason="x", turns=1)
        return seat_rewards(r, 1)[0]

    assert solo(False, 0.0) == 0.25
    assert solo(True, 0.0) == 0.75
    assert solo(True, 3.0) == 0.75 + 0.25 * 3 / 4
    values = [solo(True, s) for s in range(20)]
    assert values == sorted(values) and values[-1] < 1.0


# -- contract ------------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", two_player_games())
@settings(max_examples=8)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 60))
def test_ismcts_never_reads_hidden_information(game_id: str, seed: int, steps: int) -> None:
    """Same agent seed, two states the deciding seat cannot tell apart -> the same choice."""
    state = _walk(game_id, seed, steps, players=2)
    if state.is_over:
        return
    seat = state.current_player
    assert seat is not None
    other = state.determinize(seat, Rng(seed + 1))
    assert other.view(seat) == state.view(seat)
    first, second = Ismcts(seed, iterations=40), Ismcts(seed, iterations=40)
    a = first.choose(Observation(state, seat))
    b = second.choose(Observation(other, seat))
    assert a.text == b.text
    # Not just the choice: the whole search (every root action's visits and rewards) is the same.
    assert first.last_stats == second.last_stats


class ToyHeuristic(Agent):
    """A heuristic agent for the toy game (which has no module in ``cardtable.agents.heuristics``):
    play a high card (6 or more) if it has one, else draw while it can, else play its highest card."""

    name = "heuristic"

    def choose(self, obs: Observation) -> Action:
        legal = obs.legal_actions()
        plays = [a for a in legal if a.kind == "play"]
        high = max(plays, key=lambda a: int(a.args[0]), default=None)
        if high is not None and int(high.args[0]) >= 6:
            return high
        draw = next((a for a in legal if a.kind == "draw"), None)
        return draw or high or legal[0]


@pytest.fixture
def toy_heuristic(monkeypatch: pytest.MonkeyPatch) -> None:
    """Give the toy game a heuristic module for this test only, as a real game has one."""
    module = types.ModuleType("cardtable.agents.heuristics.toy")
    module.Heuristic = ToyHeuristic  # type: ignore[attr-defined]  # a bare module, given its agent here
    monkeypatch.setitem(sys.modules, module.__name__, module)


@pytest.mark.parametrize("game_id", two_player_games())
@pytest.mark.parametrize(
    "spec", ["random", "ismcts:iterations=4", "ismcts:iterations=4,rollout=heuristic", "heuristic"]
)
@pytest.mark.usefixtures("toy_heuristic")
def test_agents_only_choose_legal_actions(game_id: str, spec: str) -> None:
    game = cardtable.load(game_id, players=2)
    agents = [make_agent(spec, game, seed) for seed in (1, 2)]
    # Search is slow next to the others, so it is checked on the first 100 decisions only.
    limit = 100 if spec.startswith("ismcts") else 2000
    for seed in range(2):
        state = game.new(seed, log=False)
        decisions = 0
        while not state.is_over and decisions < limit:
            seat = state.current_player
            assert seat is not None
            action = agents[seat].choose(Observation(state, seat))
            assert any(action is legal for legal in state.legal_actions())
            state.apply(action, seat)
            decisions += 1


def test_same_seed_same_choices() -> None:
    game = cardtable.load("toy")
    for seed in range(5):
        state = game.new(seed, log=False)
        first = [Ismcts(7, iterations=60).choose(Observation(state, 0)).text for _ in range(2)]
        assert first[0] == first[1]


def test_forced_move_spends_no_budget() -> None:
    game = cardtable.load("toy")
    state = game.new(3, log=False)
    state.apply(state.legal_actions()[0])  # a play: only `pass` remains
    agent = Ismcts(1, iterations=50)
    assert agent.choose(Observation(state, 0)).text == "pass"
    assert agent.last_iterations == 0


def test_time_budget_returns_a_legal_action() -> None:
    game = cardtable.load("toy")
    state = game.new(4, log=False)
    agent = Ismcts(1, ms=5)
    action = agent.choose(Observation(state, 0))
    assert action in state.legal_actions()
    assert agent.last_iterations >= 1


def test_ismcts_beats_random_in_the_toy_game() -> None:
    """Toy: drawing rather than playing low cards, and playing high ones, is what wins; search finds
    it from the seat's information alone (fixed seeds, so the test is deterministic)."""
    game = cardtable.load("toy")
    assert hero_share(game, "ismcts:iterations=200", "random", 40, other_offset=0) > 0.6


@pytest.mark.parametrize(("game_id", "iterations"), [("mephisto", 40), ("doctor-strange", 80)])
def test_ismcts_beats_random(game_id: str, iterations: int) -> None:
    """A modest budget wins most of 8 games against random, seats alternating (fixed seeds, so the
    test is deterministic; Doctor Strange's dice need the larger budget)."""
    game = playable(game_id, players=2)
    assert game is not None, f"{game_id} does not deal a 2-player game"
    assert hero_share(game, f"ismcts:iterations={iterations}", "random", 8) > 0.5


def test_cut_rollouts_are_scored_by_the_evaluation() -> None:
    game = cardtable.load("toy")
    calls: list[int] = []

    def evaluate(state: State) -> list[float]:
        calls.append(len(state.history))
        return [0.5, 0.5]

    state = game.new(2, log=False)
    agent = Ismcts(3, iterations=30, depth=0, evaluate=evaluate)
    assert agent.choose(Observation(state, 0)) in state.legal_actions()
    # depth 0: every iteration is scored where it left the tree, after at least the root's step
    # (the toy game cannot end within a few decisions of the start).
    assert len(calls) == 30 and min(calls) >= 1
    with pytest.raises(ValueError, match="evaluation"):
        Ismcts(1, depth=3)


def _toy_root() -> tuple[State, list[Action]]:
    """A toy position where the seat to move has several legal actions."""
    game = cardtable.load("toy")
    for seed in range(20):
        state = game.new(seed, log=False)
        legal = state.legal_actions()
        if len(legal) >= 3:
            return state, legal
    raise AssertionError("no toy deal with three choices")


def test_a_prior_leads_the_search_where_the_evaluation_is_flat() -> None:
    """PUCT: with every position worth the same, the prior's move gets the visits, whichever it is."""
    state, legal = _toy_root()
    seat = state.current_player
    assert seat is not None
    for favourite in (legal[-1], legal[1]):

        def prior(s: State, favourite: Action = favourite) -> Action:
            moves = s.legal_actions()
            return favourite if favourite in moves else moves[0]

        agent = Ismcts(5, iterations=60, depth=0, evaluate=lambda s: [0.5, 0.5], prior=prior)
        assert agent.choose(Observation(state, seat)) == favourite
        assert agent.last_stats[favourite.text][0] > 30


def test_the_search_leaves_the_prior_where_the_evaluation_disagrees() -> None:
    """The prior only orders the search: a move the evaluation finds clearly better wins the visits."""
    state, legal = _toy_root()
    seat = state.current_player
    assert seat is not None
    start = len(state.history)
    good = legal[0]

    def evaluate(s: State) -> list[float]:
        win = 1.0 if s.history[start] == good.index else 0.0
        return [win, 1.0 - win] if seat == 0 else [1.0 - win, win]

    agent = Ismcts(5, iterations=100, depth=0, evaluate=evaluate, prior=lambda s: s.legal_actions()[-1])
    assert agent.choose(Observation(state, seat)) == good


def test_the_game_prior_can_be_turned_off() -> None:
    """``prior=none`` searches by UCB1 alone: the game's heuristic is never asked."""
    from cardtable.agents.heuristics import mr_card_game as module

    game = cardtable.load("mr-card-game", players=2, **{"first-player": "P1"})
    state = game.new(0, log=False)
    calls: list[int] = []
    real = module.search_prior

    def counting(s: State) -> Action:
        calls.append(1)
        return real(s)  # type: ignore[arg-type]  # search_prior takes the McgState the search hands it

    module.search_prior = counting  # type: ignore[assignment]  # replaced for this test only
    try:
        make_agent("ismcts:iterations=30,prior=none", game, 1).choose(Observation(state, 0))
        assert calls == []
        make_agent("ismcts:iterations=30", game, 1).choose(Observation(state, 0))
        assert calls
    finally:
        module.search_prior = real


class _PeekingObservation(Observation):
    """What a cheating searcher would see: the true hidden cards in every sample."""

    def sample(self, rng: Rng | int) -> State:
        other = self._state.clone()
        other.rng = Rng(0).fork() if isinstance(rng, int) else rng.fork()
        return other


def test_the_hidden_information_check_catches_a_peeking_search() -> None:
    """The check above has teeth: a search that sees the true hidden cards searches differently
    in two states that differ only in those cards."""
    game = cardtable.load("toy")
    differs = 0
    for seed in range(10):
        state = game.new(seed, log=False)
        other = state.determinize(0, Rng(seed + 1))
        first, second = Ismcts(seed, iterations=40), Ismcts(seed, iterations=40)
        first.choose(_PeekingObservation(state, 0))
        second.choose(_PeekingObservation(other, 0))
        differs += first.last_stats != second.last_stats
    assert differs > 0


def test_ismcts_with_the_game_evaluation_holds_its_own_against_the_heuristic() -> None:
    """Mephisto: with rollouts cut and scored by the game's evaluation (the default), a small budget
    wins a fair share of 8 games against the greedy heuristic, seats alternating (fixed seeds, so
    the test is deterministic; with random rollouts played to the end, 400 iterations at c=0.7 won
    20% of 40 games). Over 48 fixed-seed games it won 29% before issue 8 (forced payments resolve by
    themselves, which changes every game's random path) and 23% after, within noise of each other;
    the first 8 games gave 50% and 25%, so half of 8 was luck, not strength."""
    game = playable("mephisto", players=2)
    assert game is not None
    assert hero_share(game, "ismcts:iterations=300,c=0.25", "heuristic", 8) >= 0.25


def test_it_never_repeats_an_action_from_the_same_view_in_a_turn() -> None:
    """The cycle guard: a free reversible action (equip one item, then the other) is worth the best
    continuation to the tree; asked again from the same view in the same turn, it tries another."""
    state = cardtable.load("mr-card-game", players=2, **{"first-player": "P1"}).new(0, log=False)
    agent = Ismcts(0, iterations=30)
    obs = Observation(state, 0)
    chosen = [agent.choose(obs).text for _ in range(4)]
    assert len(set(chosen)) == 4


@pytest.mark.parametrize("prior", [True, False])
def test_a_reused_tree_whose_rewards_now_span_only_rounding_noise_still_chooses(prior: bool) -> None:
    """Found by the device ladder (Mr. Card Game, tree reuse, normalised rewards): the evaluation's
    rewards in a later decision differed only by rounding, the normalising scale became ~1e16, and the
    reused tree's older means, below that range, scored under every starting value: no move chosen."""
    state = cardtable.load("mephisto", players=2).new(4, log=False)
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    seat = state.current_player
    assert seat is not None
    calls = {"n": 0}

    def evaluate(s: State) -> list[float]:
        calls["n"] += 1
        if calls["n"] <= 200:  # the first decision: a spread of rewards
            return [(calls["n"] % 7) / 7, 1 - (calls["n"] % 7) / 7]
        return [0.9 + (1e-16 if calls["n"] % 2 else 0.0)] * 2  # later: equal up to rounding

    agent = Ismcts(1, iterations=200, depth=2, evaluate=evaluate, normalise=True, reuse=True, game_prior=prior)
    state.apply(agent.choose(Observation(state, seat)))
    r = Rng(3)
    while not state.is_over and (state.current_player != seat or len(state.legal_actions()) < 2):
        legal = state.legal_actions()
        state.apply(legal[r.below(len(legal))])
    assert not state.is_over
    # The tree is reused where the game went, its means (~0.5) below the new range (0.9).
    assert agent.choose(Observation(state, seat)) in state.legal_actions()
    assert agent.last_reused > 0
