"""Which games the agent tests run on: the toy game always, each real game once it loads and plays;
and the match helper that measures an agent against another."""

from __future__ import annotations

import cardtable
from cardtable.agents import Ismcts, Observation, make_agent, seat_rewards
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


def search_agent(spec: str, game: Game, seed: int = 0) -> Ismcts:
    """``make_agent(spec, game, seed)`` for a spec that names a search (``ismcts``, ``strong``, a level
    above casual), typed as one: ``make_agent`` promises only an ``Agent``."""
    agent = make_agent(spec, game, seed)
    assert isinstance(agent, Ismcts), spec
    return agent


def two_player_games() -> list[str]:
    """The toy game and every real game that is playable with 2 players now."""
    out = ["toy"]
    out += [g for g in REAL if playable(g, players=2) is not None]
    return out


def hero_share(game: Game, hero_spec: str, other_spec: str, games: int, other_offset: int = 1000) -> float:
    """The hero's mean win share over ``games`` fixed-seed 2-player games, seats alternating (the
    other agent seeded ``seed + other_offset``)."""
    wins = 0.0
    for seed in range(games):
        hero = seed % 2
        agents = {hero: make_agent(hero_spec, game, seed), 1 - hero: make_agent(other_spec, game, seed + other_offset)}
        state = game.new(seed, log=False)
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            state.apply(agents[seat].choose(Observation(state, seat)))
        wins += seat_rewards(state.result(), 2)[hero]
    return wins / games
