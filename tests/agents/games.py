"""Which games the agent tests run on: the toy game always, each real game once it loads and plays."""

from __future__ import annotations

import cardtable
from cardtable.engine import Game

REAL = ("mephisto", "doctor-strange", "army-of-darkness", "mr-card-game")


def playable(game_id: str, **options: object) -> Game | None:
    """The game if it is installed and can deal a game, else None (it is still being written)."""
    if game_id not in cardtable.available():
        return None
    try:
        game = cardtable.load(game_id, **options)
        game.new(0, log=False).legal_actions()
    except Exception:
        return None
    return game


def two_player_games() -> list[str]:
    """The toy game and every real game that is playable with 2 players now."""
    out = ["toy"]
    out += [g for g in REAL if playable(g, players=2) is not None]
    return out
