"""OpenSpiel: every cardtable game as a Python game registered with ``pyspiel``.

>>> import pyspiel
>>> import cardtable.rl.openspiel_game  # registers cardtable_<game> for every available game
>>> game = pyspiel.load_game("cardtable_mephisto(players=4,teams=True)")
>>> state = game.new_initial_state()
>>> state.current_player() in range(4)
True

Each cardtable game is registered once, as ``cardtable_<game id with _>``; its options are OpenSpiel
game parameters (``_`` for ``-`` in their names: ``lane_view=shared``), so every configuration loads
by name and a serialized state names its configuration. Extra parameters: ``seed`` (the first deal's
seed; each new initial state of a loaded game deals from the next seed of a generator started there),
``max_steps`` (a decision cap, OpenSpiel's ``max_game_length``: a game stopped there ends with every
return 0; default 100 000, far above any game's documented limit) and ``encoder``.

How the game maps to OpenSpiel:

* **Imperfect information, sampled stochastic.** Shuffles and dice happen inside the engine's seeded
  generator, which every state owns and every clone copies: there are no explicit chance nodes. This
  is honest rather than a shortcut: a deal is a permutation of a hundred cards, which no algorithm
  would enumerate as chance outcomes. Search over hidden information goes through
  ``resample_from_infostate`` (the engine's ``determinize``: hidden cards *and* the generator
  resampled, so a search never sees future shuffles).
* **Observations, not information states.** ``observation_string(p)`` is seat ``p``'s view as JSON and
  ``observation_tensor(p)`` its encoding (:mod:`cardtable.rl.encode`). A view keeps what a person at
  the table remembers (known cards, discard piles), but it is not a perfect-recall information state,
  so the game does not claim one: information-state strings and tensors are not provided. OpenSpiel's
  ISMCTS runs on observations (``use_observation_string=True``); CFR-family methods, which need
  perfect recall and whole game trees, do not apply to games this size.
* **Actions** are the game's fixed action indices (:mod:`cardtable.rl.spaces`), ``action_to_string``
  their text (``play card=17``). **Returns** come at the end (:mod:`cardtable.rl.rewards`): zero-sum
  with two or more seats, in [0, 1] in solitaire.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import numpy as np
import pyspiel

import cardtable
from cardtable.engine.game import Game, State
from cardtable.engine.options import OptionValue
from cardtable.engine.rng import Rng
from cardtable.rl.encode import Encoder, encoder_for
from cardtable.rl.episode import Episode
from cardtable.rl.rewards import reward_bounds
from cardtable.rl.spaces import ActionCodec

DEFAULT_MAX_STEPS = 100_000
PREFIX = "cardtable_"
_EXTRA_PARAMS = ("seed", "max_steps", "encoder")


def short_name(game_id: str) -> str:
    """The OpenSpiel name of a cardtable game: ``cardtable_doctor_strange``."""
    return PREFIX + game_id.replace("-", "_")


def _param_name(option: str) -> str:
    return option.replace("-", "_")


def _game_type(game_id: str, players: tuple[int, int], zero_sum: bool, params: dict[str, Any]) -> pyspiel.GameType:
    cls = cardtable.games.game_class(game_id)
    title = getattr(cls, "title", "") or game_id
    return pyspiel.GameType(
        short_name=short_name(game_id),
        long_name=f"cardtable: {title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players[1],
        min_num_players=players[0],
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


def _spec(game_id: str) -> tuple[dict[str, Any], tuple[int, int]]:
    """OpenSpiel parameter defaults for a cardtable game's options, and its range of players."""
    cls = cardtable.games.game_class(game_id)
    params: dict[str, Any] = {}
    low, high = 1, 1
    for option in getattr(cls, "OPTIONS", ()):
        params[_param_name(option.name)] = option.default
        if option.name == "players":
            choices = [c for c in option.choices or () if isinstance(c, int)]
            low = min(choices) if choices else (option.min if option.min is not None else int(option.default))
            high = max(choices) if choices else (option.max if option.max is not None else int(option.default))
    params.update({"seed": 0, "max_steps": DEFAULT_MAX_STEPS, "encoder": "auto"})
    return params, (low, high)


class CardtableSpielGame(pyspiel.Game):  # type: ignore[misc]
    """A loaded cardtable game (one configuration) as a ``pyspiel.Game``."""

    def __init__(self, params: dict[str, Any] | None = None, *, game_id: str) -> None:
        spec, players = _spec(game_id)
        given = dict(params or {})
        unknown = [k for k in given if k not in spec]
        if unknown:
            known = ", ".join(spec)
            raise ValueError(f"{short_name(game_id)}: unknown parameter(s) {', '.join(unknown)}; it takes {known}")
        values = {**spec, **given}
        options: dict[str, OptionValue] = {k: v for k, v in values.items() if k not in _EXTRA_PARAMS}
        self.cardtable: Game = cardtable.load(game_id, **options)
        self.encoder: Encoder = encoder_for(self.cardtable, str(values["encoder"]))
        self.codec = ActionCodec(self.cardtable)
        self.max_steps = int(values["max_steps"])
        if self.max_steps < 1:
            raise ValueError(f"{short_name(game_id)}: max_steps must be at least 1, got {self.max_steps}")
        self._seeds = Rng(int(values["seed"]))
        self._upcoming = int(values["seed"])
        self._initial: dict[tuple[int, int], Episode] = {}
        n = self.cardtable.players
        low, high = reward_bounds(n)
        zero_sum = n > 1
        info = pyspiel.GameInfo(
            num_distinct_actions=self.codec.size,
            max_chance_outcomes=0,
            num_players=n,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=self.max_steps,
        )
        # Only the parameters that were given go into the game's name (OpenSpiel's convention);
        # the defaults are in the registered specification.
        super().__init__(_game_type(game_id, players, zero_sum, spec), info, given)

    @classmethod
    def of(cls, game_id: str, **options: Any) -> CardtableSpielGame:
        """The game with cardtable options (``players=4, teams=True``) rather than OpenSpiel parameters."""
        register_spiel_games()
        params = {_param_name(k): v for k, v in options.items()}
        return cls(params, game_id=game_id)

    def upcoming_seed(self) -> int:
        """The seed of the next deal: ``seed`` itself first, then draws from a generator seeded by it."""
        return self._upcoming

    def take_seed(self, seed: int) -> None:
        """A state has started playing the deal ``seed``: if it is the upcoming one, move on."""
        if seed == self._upcoming:
            self._upcoming = self._seeds.below(2**62)
            self._initial.clear()

    def initial_episode(self, seed: int) -> Episode:
        """The untouched deal ``seed``, for observing a new state before it is played (shared, read only)."""
        episode = self._initial.get((seed, 0))
        if episode is None:
            episode = self._initial[(seed, 0)] = Episode(self.cardtable, self.encoder, self.codec, seed, self.max_steps)
        return episode

    def new_initial_state(self) -> CardtableSpielState:
        return CardtableSpielState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict[str, Any] | None = None
    ) -> ViewObserver:
        return ViewObserver(self, iig_obs_type, params)


class _Box:
    """Holds a state's :class:`Episode`, dealt lazily.

    ``pyspiel`` makes throwaway initial states: to clone a Python state (a new initial state whose
    attributes are then replaced by deep copies of the original's) and to learn the observation
    tensor's shape (a new initial state, observed once, on *every* ``observation_tensor`` call). So a
    new state deals only when it is first played (or cloned), and only then takes its seed from the
    game's sequence; observing it before that reads the upcoming deal, shared and computed once. A
    deep copy is the engine's cheap ``clone()`` (the game, encoder and codec are shared)."""

    __slots__ = ("_episode", "_peeked", "game")

    def __init__(self, game: CardtableSpielGame, episode: Episode | None = None) -> None:
        self.game = game
        self._episode = episode
        self._peeked: int | None = None

    @property
    def episode(self) -> Episode:
        """The state's own episode (dealt now if it was not yet)."""
        if self._episode is None:
            g = self.game
            # The deal this state was observed with, if it was; else the upcoming one.
            seed = self._peeked if self._peeked is not None else g.upcoming_seed()
            g.take_seed(seed)
            self._episode = Episode(g.cardtable, g.encoder, g.codec, seed, g.max_steps)
        return self._episode

    def observed(self) -> Episode:
        """The episode to observe: the state's own, or (not yet played) the deal it will play."""
        if self._episode is not None:
            return self._episode
        if self._peeked is None:
            self._peeked = self.game.upcoming_seed()
        return self.game.initial_episode(self._peeked)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        return _Box(self.game, clone_episode(self.episode))

    def __reduce__(self) -> tuple[Any, ...]:
        # Serialized as a record (seed + actions), rebuilt by replaying it.
        state = self.episode.state
        if state.seed < 0:
            raise ValueError("a resampled state (resample_from_infostate) cannot be serialized: it has no seed")
        g = self.game
        return (_restore, (g.get_type().short_name, dict(g.get_parameters()), state.seed, list(state.history)))


def _restore(name: str, params: dict[str, Any], seed: int, history: list[int]) -> _Box:
    register_spiel_games()
    game = pyspiel.load_game(name, params)
    episode = Episode(game.cardtable, game.encoder, game.codec, seed, game.max_steps)
    for index in history:
        episode.apply(index)
    return _Box(game, episode)


def clone_episode(episode: Episode) -> Episode:
    """An independent copy of an episode (the engine's ``clone()`` of its state)."""
    other = copy.copy(episode)
    other.state = episode.state.clone()
    other._cache = {}
    other._views = {}
    other._cache_step = -1
    return other


class CardtableSpielState(pyspiel.State):  # type: ignore[misc]
    """A position of a cardtable game, for OpenSpiel."""

    def __init__(self, game: CardtableSpielGame) -> None:
        super().__init__(game)
        self._box = _Box(game)

    @property
    def engine(self) -> State:
        """The cardtable state underneath (the full state: for tools, never for a seat's eyes)."""
        return self._box.episode.state

    def current_player(self) -> int:
        episode = self._box.episode
        seat = episode.current_player
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        episode = self._box.episode
        if player != episode.current_player:
            return []
        return episode.legal_indices()

    def _apply_action(self, action: int) -> None:
        self._box.episode.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self._box.episode.codec.action(int(action)).text

    def is_terminal(self) -> bool:
        return self._box.episode.is_over

    def returns(self) -> list[float]:
        return self._box.episode.rewards()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CardtableSpielState:
        """A state ``player_id`` cannot tell from this one: everything it cannot see resampled (the
        engine's ``determinize``), seeded from ``probability_sampler()`` (a uniform draw in [0, 1))."""
        episode = self._box.episode
        seed = int(float(probability_sampler()) * 2**53)
        other: CardtableSpielState = self.clone()
        resampled = clone_episode(episode)
        resampled.state = episode.state.determinize(int(player_id), seed)
        other._box = _Box(self._box.game, resampled)
        return other

    def __str__(self) -> str:
        # The full state (god view), as OpenSpiel's debug string; never shown to a seat.
        return json.dumps(self._box.episode.state.snapshot(), sort_keys=True, separators=(",", ":"))


class ViewObserver:
    """OpenSpiel observer: seat ``p``'s view, as a JSON string and as its encoded vector."""

    def __init__(
        self, game: CardtableSpielGame, iig_obs_type: pyspiel.IIGObservationType | None, params: dict[str, Any] | None
    ) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        if iig_obs_type is not None and not _is_default(iig_obs_type):
            raise ValueError(
                "cardtable games provide a seat's own observation (public information and the seat's "
                "private information, without perfect recall); other observation types are not available"
            )
        self.game = game
        self.tensor = np.zeros(game.encoder.size, dtype=np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: CardtableSpielState, player: int) -> None:
        self.tensor[:] = state._box.observed().observation(int(player))

    def string_from(self, state: CardtableSpielState, player: int) -> str:
        return state._box.observed().view_json(int(player))


def _is_default(obs: pyspiel.IIGObservationType) -> bool:
    return (
        bool(obs.public_info) and not obs.perfect_recall and obs.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
    )


_REGISTERED: set[str] = set()


def register_spiel_games() -> list[str]:
    """Register every available cardtable game with pyspiel (once each); returns their names."""
    names = []
    for game_id in cardtable.available():
        name = short_name(game_id)
        names.append(name)
        if name in _REGISTERED:
            continue
        spec, players = _spec(game_id)
        default_players = int(spec.get("players", players[0]))
        # The registered type carries the defaults; a loaded game states its own utility.
        game_type = _game_type(game_id, players, default_players > 1, spec)
        pyspiel.register_game(game_type, _game_class(game_id))
        _REGISTERED.add(name)
    return names


def _game_class(game_id: str) -> type[CardtableSpielGame]:
    """A subclass bound to ``game_id``, registered as the game's factory.

    A class rather than a closure: pyspiel's registry keeps its factory until the process has shut
    Python down, and releasing a plain function then aborts the interpreter (a class lives on in
    reference cycles and is never released)."""

    def __init__(self: CardtableSpielGame, params: dict[str, Any] | None = None) -> None:
        CardtableSpielGame.__init__(self, params, game_id=game_id)

    name = "Cardtable" + "".join(part.title() for part in game_id.replace("_", "-").split("-")) + "Game"
    return type(name, (CardtableSpielGame,), {"__init__": __init__, "__module__": __name__})


register_spiel_games()
