"""Options of the search tried against Army of Darkness's heuristic (issue 21, docs/agents.md): each
does what it says, is off by default (so ``strong`` plays the games it played), and never peeks."""

from __future__ import annotations

import pytest

import cardtable
from cardtable.agents import Ismcts, Observation, make_agent
from cardtable.agents.hooks import Evaluation, Policy
from cardtable.agents.ismcts import root_votes
from cardtable.agents.strong import strong_options
from cardtable.engine import Action, Game, OptionError, Rng, State
from tests.agents.games import search_agent
from tests.agents.test_ismcts import _toy_root
from tests.agents.test_strong import GAMES, _walk
from tests.engine.toy import ToyState


def _slightly_better(state: State, good: Action, margin: float) -> tuple[int, Evaluation]:
    """An evaluation under which ``good`` (taken first from ``state``) is worth ``margin`` more to
    the seat to move than every other move, everything else even."""
    seat = state.current_player
    assert seat is not None
    start = len(state.history)

    def evaluate(s: State) -> list[float]:
        mine = 0.5 + (margin if s.history[start] == good.index else 0.0)
        return [mine, 1.0 - mine] if seat == 0 else [1.0 - mine, mine]

    return seat, evaluate


@pytest.mark.parametrize("margin", [0.05, 0.4])
def test_the_gate_keeps_the_prior_unless_another_move_beats_it_by_the_margin(margin: float) -> None:
    """The prior favours the last move; the evaluation finds the first better by ``margin``. The
    search leaves the prior for it; with a gate wider than the margin the prior's move is played
    (and the search's statistics are the same), with a narrower one the search's choice stands."""
    state, legal = _toy_root()
    good, favourite = legal[0], legal[-1]
    seat, evaluate = _slightly_better(state, good, margin)

    def agent(gate: float) -> Ismcts:
        return Ismcts(
            5,
            iterations=400,
            depth=0,
            evaluate=evaluate,
            prior=lambda s: favourite if favourite in s.legal_actions() else s.legal_actions()[0],
            c=0.3,
            gate=gate,
        )

    free = agent(0.0)
    assert free.choose(Observation(state, seat)) == good
    assert free.root_hint == favourite.index and not free.last_gated
    narrow = agent(margin / 2)
    assert narrow.choose(Observation(state, seat)) == good and not narrow.last_gated
    wide = agent(min(1.0, margin * 2))
    assert wide.choose(Observation(state, seat)) == favourite and wide.last_gated
    assert wide.last_stats == free.last_stats  # the gate reads the search, it does not change it


def test_without_a_prior_the_gate_has_nothing_to_keep() -> None:
    state, legal = _toy_root()
    seat, evaluate = _slightly_better(state, legal[0], 0.05)
    agent = Ismcts(5, iterations=300, depth=0, evaluate=evaluate, game_prior=False, gate=0.5)
    assert agent.choose(Observation(state, seat)) == legal[0]
    assert agent.root_hint == -1 and not agent.last_gated


def test_the_gate_is_off_unless_asked_for() -> None:
    for game_id in GAMES:
        game = cardtable.load(game_id, players=2)
        assert "gate" not in strong_options(game)
        strong = make_agent("strong", game, 1)
        assert isinstance(strong, Ismcts) and strong.gate == 0.0
    agent = make_agent("strong:gate=0.03", cardtable.load("army-of-darkness", players=2), 1)
    assert isinstance(agent, Ismcts) and agent.gate == 0.03


@pytest.mark.parametrize("spec", ["strong:gate=-0.1", "strong:gate=2", "ismcts:gate=wide"])
def test_a_bad_gate_is_refused_naming_it(spec: str) -> None:
    with pytest.raises(OptionError, match="gate"):
        make_agent(spec, cardtable.load("army-of-darkness", players=2), 1)
    with pytest.raises(ValueError, match="gate"):
        Ismcts(1, gate=1.5)


def _split_prior(state: State, legal: list[Action]) -> Policy:
    """A prior whose move depends on the opponent's hidden cards in the sample it is handed: the
    first legal move where the opponent holds a card above 6, else the last."""
    seat = state.current_player
    assert seat is not None

    def prior(s: State) -> Action:
        moves = s.legal_actions()
        assert isinstance(s, ToyState)  # a sample of the toy game
        high = max(s.hands[1 - seat]) > 6
        return legal[0] if high and legal[0] in moves else (legal[-1] if legal[-1] in moves else moves[0])

    return prior


def test_the_vote_asks_the_prior_about_k_samples_and_splits_its_share_by_their_votes() -> None:
    state, legal = _toy_root()
    seat = state.current_player
    assert seat is not None
    prior = _split_prior(state, legal)
    votes = root_votes(Observation(state, seat), prior, 16, 0.5, Rng(3))
    assert set(votes) == {legal[0].index, legal[-1].index}  # the hidden cards differ between samples
    assert abs(sum(votes.values()) - 0.5) < 1e-12
    assert all(v * 32 == round(v * 32) for v in votes.values())  # whole votes out of 16


def test_with_a_vote_the_most_voted_move_leads_and_gets_the_visits_on_a_flat_evaluation() -> None:
    """Every position worth the same: the visits follow the vote, and the root's favourite (the
    gate's reference) is the most voted move, whatever the first sample said."""
    state, legal = _toy_root()
    seat = state.current_player
    assert seat is not None
    prior = _split_prior(state, legal)
    votes = root_votes(Observation(state, seat), prior, 24, 0.5, Rng(11))
    agent = Ismcts(5, iterations=200, depth=0, evaluate=lambda s: [0.5, 0.5], prior=prior, vote=24)
    chosen = agent.choose(Observation(state, seat))
    assert agent.root_hint in votes
    visits = {a.index: agent.last_stats[a.text][0] for a in legal}
    assert chosen.index == agent.root_hint == max(visits, key=visits.__getitem__)
    low = min(votes, key=votes.__getitem__)
    if votes[low] < votes[agent.root_hint]:
        assert visits[low] < visits[agent.root_hint]


def test_the_vote_is_off_unless_asked_for_and_refused_out_of_range() -> None:
    game = cardtable.load("army-of-darkness", players=2)
    strong = make_agent("strong", game, 1)
    assert isinstance(strong, Ismcts) and strong.vote == 1 and "vote" not in strong_options(game)
    voted = make_agent("strong:vote=8", game, 1)
    assert isinstance(voted, Ismcts) and voted.vote == 8
    assert voted.settings(game).vote == 8 and strong.settings(game).vote == 1
    for spec in ("strong:vote=0", "strong:vote=65", "strong:vote=some"):
        with pytest.raises(OptionError, match="vote"):
            make_agent(spec, game, 1)


def test_widening_is_passed_on_to_the_search() -> None:
    """``widen=K`` used to stop at the agent (the tree never saw it): a root visited N times now
    holds at most K * sqrt(N) + 1 children where the search selects by UCB1."""
    game = cardtable.load("army-of-darkness", players=2)
    state = game.new(0, log=False)
    while len(state.legal_actions()) < 6:
        state.apply(state.legal_actions()[0])
    seat = state.current_player
    assert seat is not None
    wide = make_agent("ismcts:iterations=100,prior=none", game, 3)
    narrow = make_agent("ismcts:iterations=100,prior=none,widen=0.2", game, 3)
    assert isinstance(wide, Ismcts) and isinstance(narrow, Ismcts)
    wide.choose(Observation(state, seat))
    narrow.choose(Observation(state, seat))
    tried = [sum(1 for v, _ in agent.last_stats.values() if v) for agent in (wide, narrow)]
    assert tried[0] == len(state.legal_actions())
    assert tried[1] <= 0.2 * 100**0.5 + 1 < tried[0]


@pytest.mark.parametrize(
    ("game_id", "spec"),
    [(game_id, "strong:iterations=40,gate=0.05,vote=4") for game_id in GAMES]
    + [("army-of-darkness", "strong:iterations=40,advisor=all-hands")],
)
@pytest.mark.parametrize("steps", [10, 40])
def test_the_voted_gated_and_advised_searches_never_peek(game_id: str, spec: str, steps: int) -> None:
    """The same agent seed, the state handed in and a resampling of what the seat cannot see: the
    same choice, the same statistics and the same root hint."""
    state = _walk(game_id, {"players": 2}, steps + 3, steps)
    if state.is_over:
        return
    seat = state.current_player
    assert seat is not None
    other = state.determinize(seat, Rng(steps))
    first, second = make_agent(spec, state.game, 9), make_agent(spec, state.game, 9)
    assert isinstance(first, Ismcts) and isinstance(second, Ismcts)
    a = first.choose(Observation(state, seat))
    b = second.choose(Observation(other, seat))
    assert a.text == b.text
    assert (first.last_stats, first.root_hint, first.last_gated) == (
        second.last_stats,
        second.root_hint,
        second.last_gated,
    )


def test_look_sets_the_lookahead_of_the_heuristic_that_plays_the_rollouts(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardtable.agents import hooks, ismcts
    from cardtable.agents.heuristics.army_of_darkness import Heuristic

    game = cardtable.load("army-of-darkness", players=2)
    state = _walk("army-of-darkness", {"players": 2}, 5, 12)
    seat = state.current_player
    assert seat is not None
    # The policy is the heuristic agent with that depth, seeded as given.
    policy = hooks.heuristic_policy(game, 7, 1)
    assert policy is not None
    assert policy(state) == Heuristic(7, depth=1).choose(Observation(state, seat))
    # The search asks for it with the spec's lookahead (and the heuristic's default without one).
    asked: list[int] = []
    real = hooks.heuristic_policy

    def recording(g: Game, seed: int, lookahead: int = 0, advisor: str | None = None) -> Policy | None:
        asked.append(lookahead)
        return real(g, seed, lookahead, advisor)

    monkeypatch.setattr(ismcts, "heuristic_policy", recording)
    for spec, wanted in (("strong:rollout=heuristic,look=1,depth=2", 1), ("strong:rollout=heuristic,depth=2", 0)):
        asked.clear()
        agent = make_agent(spec + ",iterations=5", game, 1)
        assert isinstance(agent, Ismcts) and agent.look == wanted
        agent.choose(Observation(state, seat))
        assert wanted in asked and set(asked) <= {0, wanted}
    assert search_agent("strong", game, 1).look == 0


@pytest.mark.parametrize(
    ("game_id", "spec", "words"),
    [
        ("army-of-darkness", "strong:look=1", "rollout=heuristic"),
        ("army-of-darkness", "strong:rollout=heuristic,look=5", "look must lie in 1..4"),
        ("mephisto", "strong:rollout=heuristic,look=1", "refuses it"),
        ("mr-card-game", "strong:rollout=heuristic,look=1", "search_prior"),
    ],
)
def test_a_lookahead_the_rollouts_cannot_use_is_refused(game_id: str, spec: str, words: str) -> None:
    with pytest.raises(OptionError, match=words):
        make_agent(spec, cardtable.load(game_id, players=2), 1)


def test_greedy_rollouts_never_peek() -> None:
    state = _walk("army-of-darkness", {"players": 2}, 11, 30)
    seat = state.current_player
    assert seat is not None
    other = state.determinize(seat, Rng(12))
    spec = "strong:iterations=30,rollout=heuristic,look=1,depth=4"
    first, second = search_agent(spec, state.game, 2), search_agent(spec, state.game, 2)
    assert first.choose(Observation(state, seat)).text == second.choose(Observation(other, seat)).text
    assert first.last_stats == second.last_stats


def _random_walk(game_id: str, seed: int, steps: int) -> State:
    """``steps`` random moves from deal ``seed`` (the moves drawn from ``Rng(seed)``)."""
    state = cardtable.load(game_id, players=2).new(seed, log=False)
    r = Rng(seed)
    for _ in range(steps):
        legal = state.legal_actions()
        state.apply(legal[r.below(len(legal))])
    return state


def test_advisor_sets_the_heuristic_that_plays_the_prior() -> None:
    """``advisor=all-hands`` (Army of Darkness): the prior is the heuristic with ``hands=all``, seeded as
    the shipped one is; at this step 3 (found by search) the two heuristics choose differently, and the
    policy each search asks plays its own."""
    from cardtable.agents import hooks
    from cardtable.agents.heuristics.army_of_darkness import Heuristic

    state = _random_walk("army-of-darkness", 14, 168)
    seat = state.current_player
    assert seat is not None
    shipped = Heuristic(7).choose(Observation(state, seat))
    counted = Heuristic(7, hands="all").choose(Observation(state, seat))
    assert (shipped.text, counted.text) == ("pass", "draw")
    game = state.game
    plain, advised = hooks.heuristic_policy(game, 7), hooks.heuristic_policy(game, 7, advisor="all-hands")
    assert plain is not None and advised is not None
    assert (plain(state), advised(state)) == (shipped, counted)
    # The search's prior, for a tree whose seed seeds the heuristic with 7, plays the advised heuristic
    # (and the shipped one without an advisor).
    for spec, wanted in (("strong:advisor=all-hands", counted), ("strong", shipped)):
        prior = search_agent(spec, game, 1).settings(game, 7 ^ 0x9E37).prior
        assert prior is not None and prior(state) == wanted, spec


@pytest.mark.parametrize(
    ("game_id", "spec", "words"),
    [
        ("army-of-darkness", "strong:advisor=most-hands", r"no such advisor \(it has all-hands\)"),
        ("army-of-darkness", "ismcts:advisor=all-hands", "add prior=always"),
        ("army-of-darkness", "strong:advisor=all-hands,prior=heuristic", "add prior=always"),
        ("mephisto", "strong:advisor=all-hands", r"no such advisor \(it has none\)"),
    ],
)
def test_an_advisor_the_game_lacks_or_the_prior_cannot_use_is_refused(game_id: str, spec: str, words: str) -> None:
    with pytest.raises(OptionError, match=words):
        make_agent(spec, cardtable.load(game_id, players=2), 1)
