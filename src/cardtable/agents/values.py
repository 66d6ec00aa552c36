"""Learned position values: small linear models fitted by self-play, shipped as data, run in pure Python.

A game's heuristic module may describe a position by a few numbers per seat (``value_features(state)
-> one list per seat``, named by ``VALUE_FEATURES``). ``scripts/train_values.py`` plays the game's
heuristic against itself (with some random moves, so that the positions a search reaches are covered
too), reproducibly from a seed and on the CPU, and fits a *conditional logit*: each seat's score is
``w . features(seat)``, and the chance that seat ``s`` wins is ``exp(score_s) / sum_t exp(score_t)``
(for two players, a logistic function of the difference). The weights go to
``cardtable/agents/data/<game>-<players>p.json`` with how they were made; :class:`LinearValue` reads
them and evaluates a position in microseconds, so play needs no NumPy and no learning library.

Used as the search's cut-off evaluation (``eval=learned`` in a search spec) where the ladder shows it
helps; a game whose heuristic module has no features, or a player count without a data file, keeps
its hand-made ``rollout_rewards``.
"""

from __future__ import annotations

import json
import math
import operator
from collections.abc import Callable, Sequence
from importlib import resources
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from cardtable.engine.game import Game, State

Features = Callable[["State"], Sequence[Sequence[float]]]

FORMAT: Final = "cardtable-value/1"


class LinearValue:
    """``rewards(state)``: each seat's chance to win, a softmax of ``w . features(state)[seat]``."""

    __slots__ = ("features", "names", "weights")

    def __init__(self, names: Sequence[str], weights: Sequence[float], features: Features) -> None:
        if len(names) != len(weights):
            raise ValueError(f"{len(names)} feature names but {len(weights)} weights")
        self.names = tuple(names)
        self.weights = tuple(float(w) for w in weights)
        self.features = features

    def scores(self, state: State) -> list[float]:
        w = self.weights
        mul = operator.mul
        return [sum(map(mul, w, f)) for f in self.features(state)]

    def __call__(self, state: State) -> list[float]:
        scores = self.scores(state)
        top = max(scores)
        weights = [math.exp(s - top) for s in scores]
        total = sum(weights)
        return [x / total for x in weights]


def data_name(game_id: str, players: int) -> str:
    return f"{game_id}-{players}p.json"


def read_data(game_id: str, players: int) -> dict[str, Any] | None:
    """The stored model of ``game_id`` at ``players`` players, or None if none was trained."""
    path = resources.files("cardtable.agents") / "data" / data_name(game_id, players)
    if not path.is_file():
        return None
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    if data.get("format") != FORMAT:
        raise ValueError(f"{data_name(game_id, players)}: not a {FORMAT} file")
    return data


def model_from(name: str, data: dict[str, Any], names: Sequence[str], features: Features) -> LinearValue:
    """The model stored as ``data`` (read from the file ``name``) over the heuristic's ``features``,
    whose names are ``names``. A model fitted to other features would score nonsense, and falling back
    to the hand-made evaluation would hide it, so a mismatch raises ``ValueError`` naming the file and
    both lists: the file and the code must be brought together (``scripts/train_values.py``)."""
    stored = tuple(data["features"])
    if stored != tuple(names):
        raise ValueError(
            f"{name}: the model's features {list(stored)} are not the features {list(names)} its "
            "heuristic computes; retrain it (scripts/train_values.py) or restore the matching file"
        )
    return LinearValue(names, data["weights"], features)


_CACHE: dict[tuple[str, int, str], LinearValue | None] = {}


def learned_value(game: Game) -> LinearValue | None:
    """The learned evaluation of ``game`` (its id and player count), or None where there is none:
    no ``value_features`` in its heuristic module (or its ``value_applies(game)`` says no, e.g. a team
    game) or no data file. A data file whose features are not the module's raises ``ValueError``
    naming both, rather than leaving the search on the hand-made evaluation without a word."""
    key = (game.id, game.players, game.config_hash)
    if key in _CACHE:
        return _CACHE[key]
    from cardtable.agents.hooks import heuristic_module

    module = heuristic_module(game.id)
    features: Features | None = getattr(module, "value_features", None)
    names = tuple(getattr(module, "VALUE_FEATURES", ()))
    applies = getattr(module, "value_applies", None)
    if applies is not None and not applies(game):
        features = None
    value = None
    data = read_data(game.id, game.players) if features is not None else None
    if data is not None and features is not None:
        value = model_from(data_name(game.id, game.players), data, names, features)
    _CACHE[key] = value
    return value
