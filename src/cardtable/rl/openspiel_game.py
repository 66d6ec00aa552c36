"""OpenSpiel: every cardtable game as a Python game registered with ``pyspiel``.

>>> import pyspiel
>>> import cardtable.rl.openspiel_game  # registers cardtable_<game> for every available game
>>> game = pyspiel.load_game("cardtable_mephisto(players=4,teams=True)")
>>> state = game.new_initial_state()
>>> state.current_player() in range(4)
True

Each cardtable game is registered once, as ``cardtable_<game id with _>``; its options are OpenSpiel
game parameters (``_`` for ``-`` in their names: ``lane_view=shared``), so every configuration loads
by name and a serialized state names its configuration. Extra parameters:

* ``seed``: the first deal's seed; each new initial state of a loaded game deals from the next seed
  of a generator started there;
* ``deals``: 0 (the default) for sampled chance (below); ``k`` > 0 makes the first move a chance node
  that picks one of ``k`` deals (seeds ``seed`` .. ``seed + k - 1``, uniformly), each fixing every
  later shuffle and die: a small game with explicit chance, for tools that enumerate the tree;
* ``max_steps`` (OpenSpiel's ``max_game_length``) and ``max_turn_steps``: the safety limits of
  :mod:`cardtable.rl.limits`: a game stopped there ends with every return 0;
* ``info_state``: ``True`` (the default) to provide perfect-recall information states (below);
* ``encoder`` and ``observe``: as for every cardtable environment.

How the game maps to OpenSpiel:

* **Imperfect information, sampled stochastic** (``deals=0``). Shuffles and dice happen inside the
  engine's seeded generator, which every state owns and every clone copies: there are no explicit
  chance nodes. A deal is a permutation of a hundred cards, which no algorithm would enumerate as
  chance outcomes; sampled chance is the honest model. Search over hidden information goes through
  ``resample_from_infostate`` (the engine's ``determinize``: hidden cards *and* the generator
  resampled, so a search never sees future shuffles). With ``deals=k`` the game is explicit
  stochastic instead, with the one chance node above.
* **Observations.** ``observation_string(p)`` is seat ``p``'s view as JSON (the table for people) and
  ``observation_tensor(p)`` its observation vector (:mod:`cardtable.rl.observe`, the same numbers as
  every cardtable environment; read it through ``make_observation(game)``, whose ``tensor`` is filled
  in place).
* **Information states** (perfect recall). Seat ``p``'s information state is its own history: its
  observation at every step of the game so far, and its own actions. ``information_state_string(p)``
  writes it exactly (step by step, the observation's non-zero positions and values, and ``p``'s
  action where it acted), so two histories give the same string exactly when ``p``'s observations and
  actions were the same. ``information_state_tensor(p)`` is the same as numbers: for each step up to
  ``max_steps``, ``p``'s observation vector and a one-hot of its action there (zeros beyond the
  present); it is provided when that fits in 2**18 values, that is for small ``max_steps``, which is
  where tree algorithms run anyway. Information states cost nothing until asked for: the
  observations are worked out then, by replaying the moves. In a state made by
  ``resample_from_infostate(p, ...)`` only ``p``'s past is known (its information state is the
  original's); the other seats' past shows as ``?``. With these, OpenSpiel's CFR family, exploitability and best
  response run on small configurations (few ``deals``, small ``max_steps``), and its ISMCTS bot runs
  with its default arguments.
* **Actions** are the game's fixed action indices (:mod:`cardtable.rl.spaces`), ``action_to_string``
  their text (``play card=17``). **Returns** come at the end (:mod:`cardtable.rl.rewards`): zero-sum
  with two or more seats, in [0, 1] in solitaire.
* Games and states pickle and deep-copy (a game as its name and parameters; a state with its engine
  state), and ``serialize()`` / ``game.deserialize_state()`` replay the history.
"""

from __future__ import annotations

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
from cardtable.rl.limits import MAX_STEPS, MAX_TURN_STEPS, check_limit
from cardtable.rl.observe import Observer, Tracker, observer_for
from cardtable.rl.rewards import reward_bounds
from cardtable.rl.spaces import ActionCodec

DEFAULT_MAX_STEPS = MAX_STEPS
PREFIX = "cardtable_"
_EXTRA_PARAMS = ("seed", "max_steps", "max_turn_steps", "encoder", "observe", "deals", "info_state")
INFO_TENSOR_LIMIT = 1 << 18
"""The largest information-state tensor offered (values; OpenSpiel copies it into a Python list at every
call); larger games offer the string only."""


def short_name(game_id: str) -> str:
    """The OpenSpiel name of a cardtable game: ``cardtable_doctor_strange``."""
    return PREFIX + game_id.replace("-", "_")


def _param_name(option: str) -> str:
    return option.replace("-", "_")


def _game_type(
    game_id: str,
    players: tuple[int, int],
    zero_sum: bool,
    params: dict[str, Any],
    *,
    explicit: bool = False,
    info_string: bool = True,
    info_tensor: bool = False,
) -> pyspiel.GameType:
    cls = cardtable.games.game_class(game_id)
    title = getattr(cls, "title", "") or game_id
    return pyspiel.GameType(
        short_name=short_name(game_id),
        long_name=f"cardtable: {title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
            if explicit
            else pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
        ),
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players[1],
        min_num_players=players[0],
        provides_information_state_string=info_string,
        provides_information_state_tensor=info_tensor,
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
    params.update(
        {
            "seed": 0,
            "deals": 0,
            "max_steps": DEFAULT_MAX_STEPS,
            "max_turn_steps": MAX_TURN_STEPS,
            "info_state": True,
            "encoder": "auto",
            "observe": "auto",
        }
    )
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
        self.game_id = game_id
        self.cardtable: Game = cardtable.load(game_id, **options)
        self.encoder: Encoder = encoder_for(self.cardtable, str(values["encoder"]))
        self.observer: Observer = observer_for(self.cardtable, self.encoder, str(values["observe"]))
        self.codec = ActionCodec(self.cardtable)
        self.max_steps = check_limit("max_steps", int(values["max_steps"]))
        self.max_turn_steps = check_limit("max_turn_steps", int(values["max_turn_steps"]))
        self.deals = int(values["deals"])
        if self.deals < 0:
            raise ValueError(f"{short_name(game_id)}: deals must be 0 (sampled chance) or more, got {self.deals}")
        self.info_state = bool(values["info_state"])
        self.seed = int(values["seed"])
        self._seeds = Rng(self.seed)
        self._upcoming = self.seed
        self._initial: dict[int, Episode] = {}
        n = self.cardtable.players
        size, actions = self.observer.size, self.codec.size
        self.info_tensor_size = (self.max_steps + 1) * size + self.max_steps * actions
        info_tensor = self.info_state and self.info_tensor_size <= INFO_TENSOR_LIMIT
        low, high = reward_bounds(n)
        zero_sum = n > 1
        info = pyspiel.GameInfo(
            num_distinct_actions=self.codec.size,
            max_chance_outcomes=self.deals,
            num_players=n,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=self.max_steps + (1 if self.deals else 0),
        )
        self.params = given
        game_type = _game_type(
            game_id,
            players,
            zero_sum,
            spec,
            explicit=self.deals > 0,
            info_string=self.info_state,
            info_tensor=info_tensor,
        )
        # Only the parameters that were given go into the game's name (OpenSpiel's convention);
        # the defaults are in the registered specification.
        super().__init__(game_type, info, given)

    @classmethod
    def of(cls, game_id: str, **options: Any) -> CardtableSpielGame:
        """The game with cardtable options (``players=4, teams=True``) rather than OpenSpiel parameters."""
        register_spiel_games()
        params = {_param_name(k): v for k, v in options.items()}
        return cls(params, game_id=game_id)

    def new_episode(self, seed: int) -> Episode:
        return Episode(self.cardtable, self.observer, self.codec, seed, self.max_steps, self.max_turn_steps)

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
        episode = self._initial.get(seed)
        if episode is None:
            episode = self._initial[seed] = self.new_episode(seed)
        return episode

    def new_initial_state(self) -> CardtableSpielState:
        return CardtableSpielState(self)

    def information_state_tensor_shape(self) -> list[int]:
        return [self.info_tensor_size]

    def information_state_tensor_size(self) -> int:
        return self.info_tensor_size

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict[str, Any] | None = None
    ) -> SeatObserver | InfoStateObserver:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        if iig_obs_type is None or _is_observation(iig_obs_type):
            return SeatObserver(self)
        if _is_info_state(iig_obs_type):
            if not self.info_state:
                raise ValueError("this game was loaded with info_state=False: no information states")
            return InfoStateObserver(self)
        raise ValueError(
            "cardtable games provide a seat's own observation and its perfect-recall information state "
            "(public information and the seat's private information); other observation types are not available"
        )

    # A game pickles as its name and parameters (loaded again where it is unpickled), and is its
    # own copy: it never changes.
    def __reduce__(self) -> tuple[Any, ...]:
        return (_load_spiel_game, (self.game_id, dict(self.params)))

    def __deepcopy__(self, memo: dict[int, Any]) -> CardtableSpielGame:
        return self

    def __copy__(self) -> CardtableSpielGame:
        return self


def _load_spiel_game(game_id: str, params: dict[str, Any]) -> CardtableSpielGame:
    register_spiel_games()
    game: CardtableSpielGame = pyspiel.load_game(short_name(game_id), params)
    return game


# -- the history a seat remembers ----------------------------------------------------------------------

Trail = tuple[Any, ...] | None
"""A state's history for information states, as a chain shared by clones: ``(previous, entry)`` per
step, or None at the start. An entry is ``[acting player, action, seen, texts]``: ``seen[p]`` is seat
``p``'s observation of the state the action was taken in, as (non-zero positions, their values)
bytes, filled in the first time an information state asks for it (None until then; :data:`UNKNOWN`
in a resampled state for the seats other than the one it was resampled for), and ``texts[p]`` caches
its text. Entries describe what happened, so clones share them."""

UNKNOWN = ("?", "?")
"""``seen[q]`` in a state resampled for another seat: the resampled world has no past of its own for
``q``, and the true one is not that seat's to know."""


def _sparse(vector: np.ndarray) -> tuple[bytes, bytes]:
    nz = np.flatnonzero(vector).astype(np.int32)
    return nz.tobytes(), vector[nz].tobytes()


def _steps(trail: Trail) -> list[list[Any]]:
    steps = []
    while trail is not None:
        trail, entry = trail
        steps.append(entry)
    steps.reverse()
    return steps


class _Box:
    """Holds a state's :class:`Episode` (dealt lazily) and its trail.

    ``pyspiel`` makes throwaway initial states: to clone a Python state (a new initial state whose
    attributes are then replaced by deep copies of the original's) and to learn the observation
    tensor's shape (a new initial state, observed once, on *every* ``observation_tensor`` call). So a
    new state deals only when it is first played (or cloned), and only then takes its seed from the
    game's sequence; observing it before that reads the upcoming deal, shared and computed once. A
    deep copy is the engine's cheap ``clone()`` (the game, observer and codec are shared).

    Information states cost nothing until they are asked for: a move only adds its entry to the
    trail; the observations are filled in by replaying the moves from the trail's *origin* (the deal,
    or the position a resampled state started from), every seat at once, from where the last replay
    of this box stopped."""

    __slots__ = ("_episode", "_peeked", "chance", "cursor", "game", "origin", "trackers", "trail")

    def __init__(self, game: CardtableSpielGame, episode: Episode | None = None) -> None:
        self.game = game
        self._episode = episode
        self._peeked: int | None = None
        self.chance = game.deals > 0 and episode is None
        """At the chance node that picks the deal (``deals`` > 0, before the first move)."""
        self.trail: Trail = None
        self.origin: tuple[Episode | None, int] = (None, 0)
        """Where the trail's moves replay from: a position to clone (None: the episode's deal) and
        how many entries come before it."""
        self.cursor: tuple[Episode, int, dict[int, Tracker]] | None = None
        """The last replay: its episode, the entries it has applied, its observation buffers."""
        self.trackers: dict[int, Tracker] = {}

    @property
    def episode(self) -> Episode:
        """The state's own episode (dealt now if it was not yet)."""
        if self._episode is None:
            if self.chance:
                raise RuntimeError("the deal is not chosen yet: this state is a chance node")
            g = self.game
            # The deal this state was observed with, if it was; else the upcoming one.
            seed = self._peeked if self._peeked is not None else g.upcoming_seed()
            g.take_seed(seed)
            self._episode = g.new_episode(seed)
        return self._episode

    def deal(self, outcome: int) -> None:
        """The chance node's outcome: deal ``seed + outcome``."""
        self._episode = self.game.new_episode(self.game.seed + outcome)
        self.chance = False

    def observed(self) -> Episode:
        """The episode to observe: the state's own, or (not yet played) the deal it will play."""
        if self._episode is not None:
            return self._episode
        if self.chance:
            raise RuntimeError("the deal is not chosen yet: this state is a chance node")
        if self._peeked is None:
            self._peeked = self.game.upcoming_seed()
        return self.game.initial_episode(self._peeked)

    def seat_observation(self, player: int) -> np.ndarray:
        """``player``'s observation vector now (a shared buffer)."""
        tracker = self.trackers.get(player)
        if tracker is None:
            tracker = self.trackers[player] = self.game.observer.tracker()
        if self.chance:
            tracker.clear()  # nothing is dealt yet: an empty observation
            return tracker.vector
        episode = self.observed()
        return self.game.observer.update(episode.state, player, tracker)

    def record(self, player: int, action: int) -> None:
        """Add the move to the trail (its observations come when asked for: :meth:`filled`)."""
        if self.game.info_state:
            n = self.game.cardtable.players
            self.trail = (self.trail, [player, action, [None] * n, [None] * n])

    def filled(self) -> list[list[Any]]:
        """The trail's entries, every seat's observations filled in (replaying the moves)."""
        steps = _steps(self.trail)
        base, k = self.origin
        first = next((j for j in range(k, len(steps)) if None in steps[j][2]), None)
        if first is None:
            return steps
        cursor = self.cursor
        if cursor is not None and k <= cursor[1] <= first:
            replay, at, trackers = cursor
        else:
            replay = base.clone() if base is not None else self.game.new_episode(self.episode.seed)
            at, trackers = k, {}
        observer = self.game.observer
        n = self.game.cardtable.players
        for j in range(at, len(steps)):
            entry = steps[j]
            seen = entry[2]
            if j >= first:
                for p in range(n):
                    if seen[p] is None:
                        tracker = trackers.get(p)
                        if tracker is None:
                            tracker = trackers[p] = observer.tracker()
                        seen[p] = _sparse(observer.update(replay.state, p, tracker))
            replay.apply(entry[1])
        self.cursor = (replay, len(steps), trackers)
        return steps

    def resampled(self, player: int, episode: Episode) -> _Box:
        """The box of a state resampled for ``player``: its own trail as this state's (filled in),
        the other seats' past unknown; moves from here replay from the resampled position."""
        steps = self.filled()
        n = self.game.cardtable.players
        trail: Trail = None
        for acting, action, seen, texts in steps:
            mine = [seen[p] if p == player else UNKNOWN for p in range(n)]
            trail = (trail, [acting, action, mine, [texts[p] if p == player else None for p in range(n)]])
        box = _Box(self.game, episode)
        box.trail = trail
        box.origin = (episode.clone(), len(steps))
        return box

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        box = _Box(self.game, clone_episode(self._episode) if self._episode is not None else None)
        box.chance = self.chance
        box._peeked = self._peeked
        box.trail = self.trail
        box.origin = self.origin
        if self._episode is None and not self.chance:
            box._episode = clone_episode(self.episode)
        return box

    def __getstate__(self) -> dict[str, Any]:
        episode = self._episode
        base, k = self.origin
        return {
            "game": self.game,
            "chance": self.chance,
            "peeked": self._peeked,
            "trail": self.trail,
            "state": episode.state if episode is not None else None,
            "counters": (episode.seed, episode.steps, episode.turn_steps, episode.stopped) if episode else None,
            "origin": (base.state if base is not None else None, base.seed if base else 0, k),
        }

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.game = data["game"]
        self.chance = data["chance"]
        self._peeked = data["peeked"]
        self.trail = data["trail"]
        self.trackers = {}
        self.cursor = None
        self._episode = None
        state = data["state"]
        if state is not None:
            episode = self._adopt(state, data["counters"][0])
            episode.seed, episode.steps, episode.turn_steps, episode.stopped = data["counters"]
            self._episode = episode
        base_state, base_seed, k = data["origin"]
        self.origin = (self._adopt(base_state, base_seed) if base_state is not None else None, k)

    def _adopt(self, state: State, seed: int) -> Episode:
        """An episode around an unpickled engine state (of this process's loaded game)."""
        episode = self.game.new_episode(0)
        state.game = self.game.cardtable  # the same configuration: act with this process's actions
        episode.state = state
        episode.seed = seed
        episode._turn = state.turn
        return episode


def clone_episode(episode: Episode) -> Episode:
    """An independent copy of an episode (the engine's ``clone()`` of its state)."""
    return episode.clone()


_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_CHANCE = int(pyspiel.PlayerId.CHANCE)


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
        # pyspiel asks this several times per move: the dealt, unstopped episode first.
        episode = self._box._episode
        if episode is not None and episode.stopped is None:
            seat = episode.state.current_player
            return _TERMINAL if seat is None else seat
        box = self._box
        if box.chance:
            return _CHANCE
        seat = box.episode.current_player
        return _TERMINAL if seat is None else seat

    def is_chance_node(self) -> bool:
        return self._box.chance

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self._box.chance:
            return []
        k = self._box.game.deals
        return [(i, 1.0 / k) for i in range(k)]

    def _legal_actions(self, player: int) -> list[int]:
        box = self._box
        if box.chance:
            return list(range(box.game.deals)) if player == pyspiel.PlayerId.CHANCE else []
        episode = box.episode
        if player != episode.current_player:
            return []
        return episode.legal_indices()

    def _apply_action(self, action: int) -> None:
        box = self._box
        if box.chance:
            box.deal(int(action))
            return
        episode = box.episode
        player = episode.current_player
        assert player is not None
        # Applied first: an illegal action raises there and leaves the state (its trail too) as it was.
        episode.apply(int(action))
        box.record(player, int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal seed={self._box.game.seed + int(action)}"
        return self._box.game.codec.action(int(action)).text

    def is_terminal(self) -> bool:
        box = self._box
        episode = box._episode
        if episode is not None:
            return episode.stopped is not None or episode.state.is_over
        return not box.chance and box.episode.is_over

    def returns(self) -> list[float]:
        box = self._box
        if box.chance:
            return [0.0] * box.game.cardtable.players
        return box.episode.rewards()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CardtableSpielState:
        """A state ``player_id`` cannot tell from this one: everything it cannot see resampled (the
        engine's ``determinize``), seeded from ``probability_sampler()`` (a uniform draw in [0, 1)).
        Its information state for ``player_id`` is this state's (the seat's history is the same); the
        other seats' past is unknown there (it is not ``player_id``'s to know): their information
        states show it as ``?``."""
        box = self._box
        if box.chance:
            return self.clone()  # type: ignore[no-any-return]
        episode = box.episode
        seed = int(float(probability_sampler()) * 2**53)
        other: CardtableSpielState = self.clone()
        resampled = clone_episode(episode)
        resampled.state = episode.state.determinize(int(player_id), seed)
        other._box = box.resampled(int(player_id), resampled) if box.game.info_state else _Box(box.game, resampled)
        return other

    def __str__(self) -> str:
        # The full state (god view), as OpenSpiel's debug string; never shown to a seat.
        box = self._box
        if box.chance:
            return f"chance node: one of {box.game.deals} deals"
        return json.dumps(box.episode.state.snapshot(), sort_keys=True, separators=(",", ":"))

    # A state pickles as pyspiel serializes it: its history and its attributes (the engine state, the
    # trail), read back by the game without replaying a move; it deep-copies as a clone.
    def __reduce__(self) -> tuple[Any, ...]:
        return (_restore_spiel_state, (self.get_game(), self.serialize()))

    def __deepcopy__(self, memo: dict[int, Any]) -> CardtableSpielState:
        return self.clone()  # type: ignore[no-any-return]


def _restore_spiel_state(game: CardtableSpielGame, text: str) -> CardtableSpielState:
    state: CardtableSpielState = game.deserialize_state(text)
    return state


class SeatObserver:
    """OpenSpiel observer: seat ``p``'s view as JSON (``string_from``) and its observation vector
    (``tensor``, filled in place by ``set_from``)."""

    def __init__(self, game: CardtableSpielGame) -> None:
        self.game = game
        self.tensor = np.zeros(game.observer.size, dtype=np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: CardtableSpielState, player: int) -> None:
        self.tensor[:] = state._box.seat_observation(int(player))

    def string_from(self, state: CardtableSpielState, player: int) -> str:
        box = state._box
        if box.chance:
            return "chance node: the deal is not chosen yet"
        return box.observed().view_json(int(player))


class InfoStateObserver:
    """OpenSpiel's perfect-recall observer: seat ``p``'s information state as a string and a tensor
    (see the module docstring)."""

    def __init__(self, game: CardtableSpielGame) -> None:
        self.game = game
        size = game.info_tensor_size if game.info_tensor_size <= INFO_TENSOR_LIMIT else 0
        self.tensor = np.zeros(size, dtype=np.float32)
        self.dict = {"info_state": self.tensor}

    def string_from(self, state: CardtableSpielState, player: int) -> str:
        p = int(player)
        parts = []
        for acting, action, seen, texts in state._box.filled():
            text = texts[p]
            if text is None:
                text = texts[p] = _obs_text(*seen[p]) + (f" a={action}" if acting == p else "")
            parts.append(text)
        now = state._box.seat_observation(p)
        parts.append(_obs_text(*_sparse(now)))
        return f"seat {p}|" + "|".join(parts)

    def set_from(self, state: CardtableSpielState, player: int) -> None:
        game = self.game
        if game.info_tensor_size > INFO_TENSOR_LIMIT:
            raise ValueError(
                f"the information-state tensor of this game would hold {game.info_tensor_size} values: it is "
                f"offered up to {INFO_TENSOR_LIMIT} (load the game with a smaller max_steps)"
            )
        p = int(player)
        out = self.tensor
        out.fill(0.0)
        size, actions = game.observer.size, game.codec.size
        block = size + actions
        steps = state._box.filled()
        for t, (acting, action, seen, _) in enumerate(steps):
            if seen[p] is UNKNOWN:
                continue  # a resampled state: the seat's past there is unknown (zeros)
            nz, vals = seen[p]
            at = t * block
            out[at + np.frombuffer(nz, dtype=np.int32)] = np.frombuffer(vals, dtype=np.float32)
            if acting == p:
                out[at + size + action] = 1.0
        at = len(steps) * block
        out[at : at + size] = state._box.seat_observation(p)


def _obs_text(nz: bytes | str, vals: bytes | str) -> str:
    if isinstance(nz, str) or isinstance(vals, str):  # UNKNOWN
        return "?"
    idx = np.frombuffer(nz, dtype=np.int32).tolist()
    values = np.frombuffer(vals, dtype=np.float32).tolist()
    return ",".join(str(i) if v == 1.0 else f"{i}:{v!r}" for i, v in zip(idx, values, strict=True))


def _is_observation(obs: pyspiel.IIGObservationType) -> bool:
    return (
        bool(obs.public_info) and not obs.perfect_recall and obs.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
    )


def _is_info_state(obs: pyspiel.IIGObservationType) -> bool:
    return (
        bool(obs.public_info) and bool(obs.perfect_recall) and obs.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
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
        # The registered type carries the defaults; a loaded game states its own type.
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

__all__ = [
    "CardtableSpielGame",
    "CardtableSpielState",
    "InfoStateObserver",
    "SeatObserver",
    "register_spiel_games",
    "short_name",
]
