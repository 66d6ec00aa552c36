"""OpenSpiel: every game and configuration loads by name in pyspiel and passes OpenSpiel's own
random-simulation test; whole games through the pyspiel API return the cardtable result's rewards;
``resample_from_infostate`` keeps the player's observation; OpenSpiel's ISMCTS bot plays."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the rl extra (open-spiel) is not installed")

import cardtable  # noqa: E402
import cardtable.rl  # noqa: E402
from cardtable.engine.rng import Rng  # noqa: E402
from cardtable.rl.encode import encoder_for  # noqa: E402
from cardtable.rl.openspiel_game import CardtableSpielGame, register_spiel_games, short_name  # noqa: E402
from cardtable.rl.rewards import rewards  # noqa: E402
from tests.rl.helpers import CASES, game_ids  # noqa: E402

register_spiel_games()


def _sim_cap(players: int) -> int:
    """Decisions per game in OpenSpiel's random-simulation test, which checks clones, observations of
    every player and action strings at every step (milliseconds each): whole games of Mephisto and
    Doctor Strange for one or two seats, the first 300 decisions of Army of Darkness's and the first 60
    of larger tables (a game stopped there is a truncation, returns 0). Whole games of every
    configuration run through the pyspiel API below."""
    return 300 if players <= 2 else 60


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_openspiel_random_sim_test(game_id: str, options: dict[str, Any]) -> None:
    players = cardtable.load(game_id, **options).players
    game = cardtable.rl.spiel_game(game_id, max_steps=_sim_cap(players), **options)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_whole_games_through_pyspiel_return_the_results_rewards(game_id: str, options: dict[str, Any]) -> None:
    from open_spiel.python.observation import make_observation

    game = cardtable.rl.spiel_game(game_id, seed=5, **options)
    state = game.new_initial_state()
    encoder = encoder_for(game.cardtable)
    observation = make_observation(game)
    engine_players = game.num_players()
    rng = np.random.default_rng(5)
    moves = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal == sorted(legal) and state.current_player() == state.engine.current_player
        if moves % 97 == 0:
            copy = state.clone()
            assert str(copy) == str(state) and copy.history() == state.history()
            # observation_tensor (and make_observation's numpy tensor) is the observer's vector: the
            # encoding of the seat's view, for every seat.
            for p in range(engine_players):
                expected = encoder.encode(state.engine.view(p))
                assert np.array_equal(np.asarray(state.observation_tensor(p), dtype=np.float32), expected)
                observation.set_from(state, p)
                assert np.array_equal(observation.tensor, expected)
        state.apply_action(int(rng.choice(legal)))
        moves += 1
    engine = state.engine
    assert engine.is_over and len(engine.history) == moves == len(state.history())
    assert state.returns() == pytest.approx(rewards(engine.result(), engine.game.players))
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    # The first deal of a loaded game is the ``seed`` parameter's: the engine's own game from it.
    assert engine.seed == 5


def test_every_game_loads_by_name_with_its_options_as_parameters() -> None:
    for game_id in game_ids():
        game = pyspiel.load_game(short_name(game_id))
        assert isinstance(game, CardtableSpielGame)
        assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    teams = pyspiel.load_game("cardtable_mephisto(players=4,teams=True,variant=care-bear)")
    assert teams.num_players() == 4
    assert dict(teams.cardtable.options)["teams"] is True
    assert dict(teams.cardtable.options)["variant"] == "care-bear"
    assert teams.num_distinct_actions() == len(teams.cardtable.actions)
    assert teams.observation_tensor_size() == teams.encoder.size
    solo = pyspiel.load_game("cardtable_mephisto(players=1)")
    assert solo.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert (solo.min_utility(), solo.max_utility()) == (0.0, 1.0)
    assert teams.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    with pytest.raises(Exception, match="colour"):
        pyspiel.load_game("cardtable_mephisto(colour=red)")
    with pytest.raises(cardtable.OptionError):
        pyspiel.load_game("cardtable_mephisto(players=9)")


def test_each_new_initial_state_deals_anew_and_reproducibly() -> None:
    def deals(seed: int) -> list[str]:
        game = cardtable.rl.spiel_game("doctor-strange", seed=seed)
        return [str(game.new_initial_state()) for _ in range(3)]

    first = deals(7)
    assert len(set(first)) == 3
    assert first == deals(7)
    assert first != deals(8)


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_resample_from_infostate_keeps_what_the_player_observes(game_id: str, options: dict[str, Any]) -> None:
    game = cardtable.rl.spiel_game(game_id, seed=3, **options)
    state = game.new_initial_state()
    rng = Rng(3)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    resampled_something = False
    for step in range(60):
        if state.is_terminal():
            break
        if step % 20 == 0:
            player = state.current_player()
            other = state.resample_from_infostate(player, sampler)
            assert other.observation_string(player) == state.observation_string(player)
            assert np.array_equal(other.observation_tensor(player), state.observation_tensor(player))
            assert other.legal_actions() == state.legal_actions()
            resampled_something |= str(other) != str(state)
            other.apply_action(other.legal_actions()[0])  # and it plays on
        legal = state.legal_actions()
        state.apply_action(legal[rng.below(len(legal))])
    assert resampled_something


def test_serialized_states_round_trip() -> None:
    game = pyspiel.load_game("cardtable_army_of_darkness(players=3)")
    state = game.new_initial_state()
    for _ in range(25):
        state.apply_action(state.legal_actions()[-1])
    again = game.deserialize_state(state.serialize())
    assert str(again) == str(state) and again.history() == state.history()
    # A resampled state has no seed to replay from: it serializes with its engine state.
    resampled = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    back = game.deserialize_state(resampled.serialize())
    assert str(back) == str(resampled) and back.observation_tensor(0) == resampled.observation_tensor(0)


def test_games_and_states_pickle_and_deep_copy() -> None:
    """pickle of a game or a state (sampled chance, explicit chance, resampled), and deepcopy, give
    the same game and positions, which play on identically."""
    import copy
    import pickle

    for name in ("cardtable_doctor_strange(seed=2)", "cardtable_mephisto(players=2,deals=3)"):
        game = pyspiel.load_game(name)
        assert str(pickle.loads(pickle.dumps(game))) == str(game) and copy.deepcopy(game) is game
        state = game.new_initial_state()
        rng = np.random.default_rng(1)
        for _ in range(20):
            state.apply_action(int(rng.choice(state.legal_actions())))
        resampled = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        for original in (state, resampled):
            for twin in (pickle.loads(pickle.dumps(original)), copy.deepcopy(original)):
                assert str(twin) == str(original) and twin.history() == original.history()
                for p in range(2):
                    assert twin.observation_tensor(p) == original.observation_tensor(p)
                    assert twin.information_state_string(p) == original.information_state_string(p)
                action = original.legal_actions()[0]
                a, b = original.clone(), twin
                a.apply_action(action)
                b.apply_action(action)
                assert str(a) == str(b)


def test_explicit_chance_over_a_few_deals() -> None:
    game = pyspiel.load_game("cardtable_mephisto(players=2,deals=3,seed=10)")
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.max_chance_outcomes() == 3
    state = game.new_initial_state()
    assert state.is_chance_node() and state.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 2) == "deal seed=12"
    dealt = []
    for outcome in range(3):
        child = state.child(outcome)
        assert not child.is_chance_node() and child.engine.seed == 10 + outcome
        dealt.append(str(child))
    assert len(set(dealt)) == 3
    assert str(state.child(1)) == str(game.new_initial_state().child(1))  # every deal is fixed


def _own_history(game: Any, state: Any, player: int) -> Any:
    """What ``player`` saw and did: its observation (computed afresh on a replay) at every step and
    its own actions. Two histories must give the same information state exactly when these match."""
    replay = game.new_initial_state()
    seen = []
    for action in state.history():
        if not replay.is_chance_node():
            acting = replay.current_player()
            obs = game.observer.observe(replay.engine, player)
            seen.append((obs.tobytes(), action if acting == player else None))
        replay.apply_action(action)
    seen.append((game.observer.observe(replay.engine, player).tobytes(), None))
    return tuple(seen)


def test_information_states_are_identical_exactly_when_the_seats_history_is() -> None:
    """Many random histories of a small game with explicit chance: for every seat, two histories have
    the same information-state string (and tensor) exactly when the seat's observations and own
    actions were the same. The pairs include histories that differ only in what the seat cannot see
    (a deal or a hidden card), which must give equal strings."""
    game = pyspiel.load_game("cardtable_army_of_darkness(players=2,deals=4,max_steps=12,seed=3)")
    rng = np.random.default_rng(0)
    states = []
    for k in range(40):
        state = game.new_initial_state()
        state.apply_action(k % 4)
        for _ in range(int(rng.integers(0, 10))):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            state.apply_action(int(legal[0] if rng.random() < 0.6 else rng.choice(legal)))
        states.append(state)
    unequal_pairs = 0
    for player in range(2):
        keys = [_own_history(game, s, player) for s in states]
        strings = [s.information_state_string(player) for s in states]
        tensors = [tuple(s.information_state_tensor(player)) for s in states]
        for i in range(len(states)):
            for j in range(i + 1, len(states)):
                same = keys[i] == keys[j]
                assert (strings[i] == strings[j]) == same, (player, i, j)
                assert (tensors[i] == tensors[j]) == same, (player, i, j)
                unequal_pairs += not same
    assert unequal_pairs
    assert len(tensors[0]) == game.information_state_tensor_size()

    # Histories that differ only in what the seat cannot see: a state and a resampling of it for the
    # seat, played on with the same actions. Equal strings until the seat sees a difference (a card
    # it draws from its resampled deck), and from then on different ones.
    sampled = pyspiel.load_game("cardtable_doctor_strange(seed=4,max_steps=200)")
    equal_after = differ_after = 0
    for start in range(6):
        state = sampled.new_initial_state()
        for _ in range(3 + 4 * start):
            state.apply_action(int(rng.choice(state.legal_actions())))
        player = state.current_player()
        twin = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        # The other seat's past in the resampled world is not the searcher's to know: shown as "?".
        other = 1 - player
        assert twin.information_state_string(other).count("?") == len(state.history())
        assert state.information_state_string(other).count("?") == 0
        mine, theirs = [], []
        for _ in range(25):
            if state.is_terminal() or twin.is_terminal():
                break
            mine.append(sampled.observer.observe(state.engine, player).tobytes())
            theirs.append(sampled.observer.observe(twin.engine, player).tobytes())
            same = mine == theirs
            assert (state.information_state_string(player) == twin.information_state_string(player)) == same
            if same:
                equal_after += 1
            else:
                differ_after += 1
            common = sorted(set(state.legal_actions()) & set(twin.legal_actions()))
            if not common:
                break
            action = int(rng.choice(common))
            mine.append(action if state.current_player() == player else -1)
            theirs.append(action if twin.current_player() == player else -1)
            state.apply_action(action)
            twin.apply_action(action)
    assert equal_after and differ_after, "the resampled histories never tested both directions"


def test_openspiels_cfr_and_exploitability_run_on_a_small_configuration() -> None:
    from open_spiel.python.algorithms import cfr, exploitability

    game = pyspiel.load_game("cardtable_mephisto(players=2,deals=2,max_steps=2)")
    solver = cfr.CFRSolver(game)
    for _ in range(2):
        solver.evaluate_and_update_policy()
    policy = solver.average_policy()
    assert len(policy.state_lookup) > 2
    value = exploitability.exploitability(game, policy)
    assert value == pytest.approx(0.0, abs=1e-9)  # every game is stopped at 2 decisions: all returns 0


def test_ismcts_runs_with_its_default_arguments() -> None:
    """Issue 22: OpenSpiel's ISMCTS failed with its defaults (it reads information states)."""
    from open_spiel.python.algorithms import ismcts, mcts

    game = cardtable.rl.spiel_game("doctor-strange", seed=1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=4, random_state=np.random.RandomState(0))
    state = game.new_initial_state()
    for _ in range(4):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


def test_only_the_seats_own_observation_and_information_state_are_offered() -> None:
    game = pyspiel.load_game("cardtable_doctor_strange")
    with pytest.raises(Exception, match="other observation types are not available"):
        game.make_py_observer(
            pyspiel.IIGObservationType(
                perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
            )
        )
    fast = pyspiel.load_game("cardtable_doctor_strange(info_state=False)")
    assert not fast.get_type().provides_information_state_string
    with pytest.raises(Exception):  # noqa: B017 - OpenSpiel reports this as a fatal SpielError
        fast.new_initial_state().information_state_string(0)
    big = pyspiel.load_game("cardtable_doctor_strange")
    assert big.get_type().provides_information_state_string
    assert not big.get_type().provides_information_state_tensor  # 50,000 steps of observations: too big


def test_openspiels_ismcts_bot_plays_a_cardtable_game() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = cardtable.rl.spiel_game("doctor-strange", seed=1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(
        game,
        evaluator,
        uct_c=2.0,
        max_simulations=4,
        random_state=np.random.RandomState(0),
        use_observation_string=True,
        allow_inconsistent_action_sets=True,  # (the default, information states, is tested above)
    )
    state = game.new_initial_state()
    for _ in range(6):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
