"""Every cardtable game as a standard AI environment: PettingZoo, Gymnasium and OpenSpiel.

Install with ``pip install 'cardtable[rl]'``. The engine never imports this package.

>>> import cardtable.rl
>>> aec = cardtable.rl.env("mephisto", players=4, teams=True)      # PettingZoo AEC
>>> gym = cardtable.rl.gymnasium_env("mephisto", players=2, opponents="heuristic")  # Gymnasium
>>> game = cardtable.rl.spiel_game("mephisto", players=2)  # pyspiel.Game

Options are keyword arguments, as for :func:`cardtable.load`. The pieces: :mod:`.spaces` (the fixed
discrete action space and its mask), :mod:`.encode` (per-game observation encoders, from the seat's
view only), :mod:`.rewards`, :mod:`.episode` (the plumbing the adapters share), and one module per
library. ``docs/rl.md`` is the guide.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cardtable.rl.gym_env import CardtableGymEnv
    from cardtable.rl.openspiel_game import CardtableSpielGame
    from cardtable.rl.pettingzoo_env import CardtableAECEnv

__all__ = ["env", "gymnasium_env", "spiel_game"]


def env(game_id: str, **kwargs: Any) -> CardtableAECEnv:
    """The PettingZoo AEC environment of ``game_id`` (see :mod:`cardtable.rl.pettingzoo_env`)."""
    from cardtable.rl.pettingzoo_env import CardtableAECEnv

    return CardtableAECEnv(game_id, **kwargs)


def gymnasium_env(game_id: str, **kwargs: Any) -> CardtableGymEnv:
    """The single-agent Gymnasium environment of ``game_id`` (see :mod:`cardtable.rl.gym_env`)."""
    from cardtable.rl.gym_env import CardtableGymEnv

    return CardtableGymEnv(game_id, **kwargs)


def spiel_game(game_id: str, **kwargs: Any) -> CardtableSpielGame:
    """The OpenSpiel (pyspiel) game of ``game_id`` (see :mod:`cardtable.rl.openspiel_game`)."""
    from cardtable.rl.openspiel_game import CardtableSpielGame

    return CardtableSpielGame.of(game_id, **kwargs)
