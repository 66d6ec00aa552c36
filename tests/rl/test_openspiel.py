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
    game = cardtable.rl.spiel_game(game_id, seed=5, **options)
    state = game.new_initial_state()
    rng = np.random.default_rng(5)
    moves = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal == sorted(legal) and state.current_player() == state.engine.current_player
        if moves % 97 == 0:
            copy = state.clone()
            assert str(copy) == str(state) and copy.history() == state.history()
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
    resampled = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    with pytest.raises(Exception, match="cannot be serialized"):
        resampled.serialize()


def test_only_the_seats_own_observation_is_offered() -> None:
    game = pyspiel.load_game("cardtable_doctor_strange")
    with pytest.raises(Exception, match="other observation types are not available"):
        game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    state = game.new_initial_state()
    with pytest.raises(Exception):  # noqa: B017 - OpenSpiel reports this as a fatal SpielError
        state.information_state_string(0)


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
        allow_inconsistent_action_sets=True,
    )
    state = game.new_initial_state()
    for _ in range(6):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
