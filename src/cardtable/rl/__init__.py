"""Every cardtable game as a standard AI environment: PettingZoo, Gymnasium, OpenSpiel, vectorised.

Install with ``pip install 'cardtable[rl]'``. The engine never imports this package.

>>> import cardtable.rl
>>> aec = cardtable.rl.env("mephisto", players=4, teams=True)      # PettingZoo AEC
>>> par = cardtable.rl.parallel_env("mephisto", players=2)           # PettingZoo Parallel
>>> gym = cardtable.rl.gymnasium_env("mephisto", players=2, opponents="heuristic")  # Gymnasium
>>> vec = cardtable.rl.vector_env("mephisto", 64, players=2)         # Gymnasium vector API, batched
>>> multi = cardtable.rl.multiagent_vector_env("mephisto", 64, players=2)  # batched, every seat a learner
>>> game = cardtable.rl.spiel_game("mephisto", players=2)  # pyspiel.Game

Options are keyword arguments, as for :func:`cardtable.load`. The pieces: :mod:`.spaces` (the fixed
discrete action space and its mask), :mod:`.encode` (each game's observation layout, defined on the
seat's view), :mod:`.observe` (each game's observer, which writes the same vector from the state,
fast), :mod:`.rewards` and :mod:`.shaping`, :mod:`.limits` (episodes that always end),
:mod:`.opponents` (agents and policies in the other seats), :mod:`.episode` and :mod:`.table` (the
plumbing the adapters share), :mod:`.research` (conveniences), and one module per library.
``docs/rl.md`` is the guide.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cardtable.rl.gym_env import CardtableGymEnv
    from cardtable.rl.openspiel_game import CardtableSpielGame
    from cardtable.rl.pettingzoo_env import CardtableAECEnv, CardtableParallelEnv
    from cardtable.rl.vector import CardtableVectorEnv
    from cardtable.rl.vector_multi import CardtableMultiAgentVectorEnv

__all__ = ["env", "gymnasium_env", "multiagent_vector_env", "parallel_env", "spiel_game", "vector_env"]


def env(game_id: str, **kwargs: Any) -> CardtableAECEnv:
    """The PettingZoo AEC environment of ``game_id`` (see :mod:`cardtable.rl.pettingzoo_env`)."""
    from cardtable.rl.pettingzoo_env import CardtableAECEnv

    return CardtableAECEnv(game_id, **kwargs)


def parallel_env(game_id: str, **kwargs: Any) -> CardtableParallelEnv:
    """The PettingZoo Parallel environment of ``game_id`` (see :mod:`cardtable.rl.pettingzoo_env`)."""
    from cardtable.rl.pettingzoo_env import CardtableParallelEnv

    return CardtableParallelEnv(game_id, **kwargs)


def gymnasium_env(game_id: str, **kwargs: Any) -> CardtableGymEnv:
    """The single-agent Gymnasium environment of ``game_id`` (see :mod:`cardtable.rl.gym_env`)."""
    from cardtable.rl.gym_env import CardtableGymEnv

    return CardtableGymEnv(game_id, **kwargs)


def vector_env(game_id: str, num_envs: int, **kwargs: Any) -> CardtableVectorEnv:
    """``num_envs`` games of ``game_id`` stepped together, Gymnasium's vector API (see
    :mod:`cardtable.rl.vector`)."""
    from cardtable.rl.vector import CardtableVectorEnv

    return CardtableVectorEnv(game_id, num_envs, **kwargs)


def multiagent_vector_env(game_id: str, num_envs: int, **kwargs: Any) -> CardtableMultiAgentVectorEnv:
    """``num_envs`` games of ``game_id`` stepped together with every seat a learner: the PettingZoo game
    vectorised (see :mod:`cardtable.rl.vector_multi`)."""
    from cardtable.rl.vector_multi import CardtableMultiAgentVectorEnv

    return CardtableMultiAgentVectorEnv(game_id, num_envs, **kwargs)


def spiel_game(game_id: str, **kwargs: Any) -> CardtableSpielGame:
    """The OpenSpiel (pyspiel) game of ``game_id`` (see :mod:`cardtable.rl.openspiel_game`)."""
    from cardtable.rl.openspiel_game import CardtableSpielGame

    return CardtableSpielGame.of(game_id, **kwargs)
