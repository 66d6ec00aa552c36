"""The protocol every game implements: :class:`Game` (rules + card data + options) and :class:`State`.

A game subclasses both. The base classes own everything that is the same for every game: option
validation, action parsing and the legality check that makes ``apply`` atomic, the action history,
the seeded generator, the event log, records and fingerprints. A game supplies the rules through a
handful of hooks (``_legal``, ``_do``, ``_view``, ``_snapshot``, ``result``, ``clone``,
``determinize``, ``known_cards``).

Performance contract (the engine's hot path): ``legal_actions()`` is cached until the next
``apply``; actions are interned, so the legality check is an identity test; when the state was made
with ``log=False`` (search, simulation) no event is built.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import FunctionType
from typing import Any, ClassVar, Final, Generic, Self, cast

from mypy_extensions import mypyc_attr
from typing_extensions import TypeVar

from cardtable.engine.actions import CARD_PARAMS, Action, ActionSpace, resolve_named
from cardtable.engine.card_edits import canonical_edits
from cardtable.engine.errors import GameOver, IllegalAction, MalformedAction, NotYourTurn, OptionError, quoted
from cardtable.engine.events import NOBODY, SEATED, EventLog, LogSlice, Words
from cardtable.engine.events import Event as Event
from cardtable.engine.options import Option, OptionValue, validate_options
from cardtable.engine.rng import Rng, as_rng
from cardtable.engine.seats import check_seat, seat_label

JSON = Any
"""A JSON-ready value: dicts with string keys, lists, strings, numbers, booleans, None."""


def _as_rng(rng: object) -> Rng:
    """:func:`~cardtable.engine.rng.as_rng` with its common case first: a generator of the twin in use
    is returned as it is, here. ``engine/rng.py`` stays Python in the compiled build (the 64-bit
    arithmetic is the C twin's job), so a call into it from compiled code costs an interpreted call;
    anything else (a seed, the other twin, a wrong type) goes on to ``as_rng`` itself."""
    if isinstance(rng, Rng):
        return rng
    return as_rng(rng)


@dataclass(frozen=True)
class Result:
    """How a finished (or stopped) game came out.

    ``ranks[s]`` is seat ``s``'s place, 1 being best, tied seats sharing a rank. ``winners`` lists
    the winning seats (all members of a winning team); it is empty for a game nobody won. ``reason``
    says why the game ended, in a short stable word (``"deck-exhausted"``, ``"turn-limit"``, ...);
    ``truncated`` is true when the game was stopped by a limit rather than ended by its rules.
    """

    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]
    reason: str
    turns: int
    truncated: bool = False
    draw: bool = False
    teams: tuple[tuple[int, ...], ...] | None = None
    details: Mapping[str, JSON] = field(default_factory=dict)

    def to_json(self) -> dict[str, JSON]:
        return {
            "scores": list(self.scores),
            "ranks": list(self.ranks),
            "winners": list(self.winners),
            "reason": self.reason,
            "turns": self.turns,
            "truncated": self.truncated,
            "draw": self.draw,
            "teams": [list(t) for t in self.teams] if self.teams is not None else None,
            "details": dict(self.details),
        }


ENGINE_VIEW_KEYS = frozenset({"game", "seat", "seat_names", "turn", "current_player", "is_over"})
"""The top-level keys every ``view(seat)`` has, added by the engine (seat numbers are 0-based;
``seat_names`` says how people call each seat)."""


def ranks_from_keys(keys: Sequence[tuple[float, ...]]) -> tuple[int, ...]:
    """Competition ranks (1 best) for per-seat sort keys where larger is better; equal keys tie."""
    return tuple(1 + sum(1 for other in keys if other > mine) for mine in keys)


def fingerprint_of(data: JSON) -> str:
    """A short, machine-independent hash of a JSON-ready value."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:12]


@mypyc_attr(allow_interpreted_subclasses=True)
class Game:
    """A game's rules, card data and options: immutable once loaded, shared by all its states.

    Subclasses set the class attributes and implement :meth:`_setup` (load cards, declare actions)
    and :meth:`new_state`.
    """

    id: ClassVar[str] = ""
    title: ClassVar[str] = ""
    OPTIONS: ClassVar[tuple[Option, ...]] = ()
    CONFIGURATIONS: ClassVar[tuple[Mapping[str, OptionValue], ...]] = ()
    """Named option sets that together cover every variant: run by the conformance harness and benchmark."""
    CARD_USES: ClassVar[Mapping[str, str]] = {}
    """Action kinds (taking a ``card`` parameter) that put a card to use, with how: ``"played"`` or
    ``"acquired"``. Per-card statistics count these and nothing else (not, say, paying a cost)."""
    RULE_NAMES: ClassVar[frozenset[str]] = frozenset()
    """Card names the rules themselves use as words (Army of Darkness: "needs the Necronomicon in
    front of her"). Views and events may say such a name without pointing at a card, so the
    conformance harness's leak check looks for the card's full :meth:`card_name` instead."""
    CARD_EDITS: ClassVar[bool] = False
    """True when the game applies what-if card edits (``card_edits``, see
    :mod:`cardtable.engine.card_edits`) to its card data as it loads it."""
    VIEW_KEYS: ClassVar[frozenset[str] | None] = None
    """The top-level keys the game's ``_view`` adds to :data:`ENGINE_VIEW_KEYS` (``prompt`` among them).
    A view is for people, so the conformance harness refuses any other key (engine bookkeeping)."""

    def __init__(self, card_edits: object = (), **options: Any) -> None:
        self.options: Mapping[str, OptionValue] = validate_options(self.id, self.OPTIONS, options)
        self.card_edits: tuple[str, ...] = canonical_edits(self.id, card_edits)
        """What-if card edits in their canonical text (empty for the card data as filed)."""
        if self.card_edits and not self.CARD_EDITS:
            raise OptionError(f"{self.id}: this game has no card data that card edits could change")
        self.players: int = int(self.options.get("players", 2))
        self.actions = ActionSpace()
        self.card_hash: str = ""
        self.memo: dict[object, object] = {}
        """Values worked out once for this game and kept with it (:func:`cardtable.engine.memo.per_game`)."""
        self._check_options()
        self._setup()

    # -- hooks -------------------------------------------------------------------------------------
    def _check_options(self) -> None:
        """Reject option combinations that make no sense (raise OptionError)."""

    def _setup(self) -> None:
        """Load card data, declare the action space."""
        raise NotImplementedError

    def new_state(self, seed: int, log: bool) -> State[Game]:
        raise NotImplementedError

    # -- public ------------------------------------------------------------------------------------
    def new(self, seed: object = 0, *, log: object = True) -> State[Game]:
        """A new game dealt from ``seed`` (an integer; anything else is a :class:`TypeError`).
        ``log=False`` skips the event log (for speed); ``log`` is read for its truth."""
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise TypeError(f"seed must be an integer, got {quoted(repr(seed), 40)}")
        return self.new_state(seed, bool(log))

    @property
    def config_hash(self) -> str:
        """Hash of the card data and the options: what a record must match to replay faithfully. An
        option at its ``legacy`` value is left out (the hash of a record made before it existed)."""
        return fingerprint_of({"cards": self.card_hash, "options": self.hashed_options()})

    def hashed_options(self) -> dict[str, OptionValue]:
        """The options as hashes and snapshots name them: all of them, except one at its ``legacy``
        value (so a record made before that option existed keeps its hashes)."""
        legacy = {o.name: o.legacy for o in self.OPTIONS if o.legacy is not None}
        return {k: v for k, v in self.options.items() if k not in legacy or legacy[k] != v}

    def describe_action(self, action: Action) -> str:
        """A human description of an action (defaults to its text form)."""
        return action.text

    def card_name(self, card: int) -> str:
        """A card's name for people, unique per card id (e.g. ``"Greataxe (card 25)"``)."""
        return f"card {card}"

    def card_names(self, card: int) -> tuple[str, ...]:
        """The names a person may call ``card`` by (``("Greataxe",)``; a two-sided card has both):
        :meth:`card_name` without its ``(card N)``, split at `` / ``."""
        name = re.sub(r"\s*\(card -?\d+\)$", "", self.card_name(card))
        return tuple(part.strip() for part in name.split(" / ") if part.strip())

    def seat_name(self, seat: int) -> str:
        """How people call ``seat`` (0-based): ``P1``..``Pn`` unless the game has roles."""
        return seat_label(seat)

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        edits = f" card_edits={list(self.card_edits)!r}" if self.card_edits else ""
        return f"<{type(self).__name__} {self.id} {opts}{edits}>"

    # A game is immutable: a copy is the game itself, and a pickle is its class, options and card
    # edits (the process that loads it loads the game again, once per configuration).
    def __copy__(self) -> Game:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_reload, (type(self), dict(self.options), self.card_edits))


_NUMBERISH = re.compile(r"-?[0-9]+")


def _named_pairs(space: ActionSpace, text: object) -> tuple[str, list[tuple[str, str]]] | None:
    """``("loot", [("card", "hex")])`` when ``text`` is a well-formed action text but for a card
    parameter written as a name; None otherwise (the parser's own error stands)."""
    if not isinstance(text, str) or len(text) > 200:
        return None
    words = text.split()
    params = space.params.get(words[0]) if words else None
    if not params or not any(p in CARD_PARAMS for p in params):
        return None
    pairs = [word.partition("=") for word in words[1:]]
    given = [(name, value) for name, eq, value in pairs if eq and name and value]
    names = [name for name, _ in given]
    if len(given) != len(pairs) or sorted(names) != sorted(params):
        return None
    if not any(name in CARD_PARAMS and not _NUMBERISH.fullmatch(value) for name, value in given):
        return None  # numbers only: the parser's own message (out of range, no such action) stands
    return words[0], given


_RELOADED: dict[tuple[type[Game], str, tuple[str, ...]], Game] = {}


def _reload(cls: type[Game], options: dict[str, OptionValue], card_edits: tuple[str, ...] = ()) -> Game:
    """The game of class ``cls`` with ``options`` and ``card_edits``, loaded once per process (for
    unpickling: states and environments unpickled in one process share their game, as states made by
    one ``load`` do)."""
    key = (cls, json.dumps(options, sort_keys=True), tuple(card_edits))
    game = _RELOADED.get(key)
    if game is None:
        game = _RELOADED[key] = cls(card_edits, **options) if card_edits else cls(**options)
    return game


def _probe() -> None:
    """Only looked at (by :data:`COMPILED`)."""


COMPILED: Final = not isinstance(_probe, FunctionType)
"""True when this module runs compiled by mypyc (a compiled module's functions are not Python
functions). The build compiles the engine and every game together, so this says it for all of them:
a game's ``_new_blank`` uses it to take the path that is fast in its build."""

CONCEALED: Final = -1
"""In :meth:`State.history_for` (and a determinization's history): an action the seat did not see."""


G = TypeVar("G", bound=Game, default=Game, covariant=True)
"""The game a state belongs to: a game's state class is ``State[ItsGame]``, so ``state.game`` has the
game's own type (its card tables, action objects) without narrowing the attribute in a subclass."""


@mypyc_attr(allow_interpreted_subclasses=True)
class State(Generic[G]):
    """A position in a game. See DESIGN.md for the protocol; subclasses implement the hooks."""

    __slots__ = (
        "_history_shared",
        "_legal",
        "_raw",
        "concealed",
        "current_player",
        "game",
        "history",
        "is_over",
        "log",
        "rng",
        "seed",
        "turn",
    )

    game: G
    seed: int
    rng: Rng
    history: list[int]
    """The index of every action applied so far, in order. Read it; it may be shared with clones
    (copy-on-write), so only :meth:`apply` and :meth:`add_to_history` may extend it."""
    _history_shared: bool
    """True when :attr:`history` may be the same list as another state's (a clone's, or the state
    this one was cloned from): it is copied before it next grows."""
    concealed: tuple[tuple[int, frozenset[int]], ...]
    """The actions of :attr:`history` that not every seat saw: ``(position, the seats that saw it)``
    each, marked by the game with :meth:`conceal_last` (a secret choice, say of a card taken from a
    face-down deck). Shared by clones (it is only ever replaced, never changed in place)."""
    current_player: int | None
    is_over: bool
    turn: int
    log: EventLog | None
    """The event log (None: the state keeps none). Read it; only the state records into it."""
    _raw: list[Any] | None
    """The log's buffer (``log.raw``), where :meth:`tell` and :meth:`emit` record: None without a log."""
    _legal: list[Action] | None

    def __init__(self, game: G, seed: int, log: bool) -> None:
        self.game = game
        self.seed = seed
        self.rng = Rng(seed)
        self.history = []
        self._history_shared = False
        self.concealed = ()
        self.current_player = None
        self.is_over = False
        self.turn = 1
        self._legal = None
        self.log = None
        self._raw = None
        if log:
            self.start_log()

    # -- hooks a game implements -------------------------------------------------------------------
    def _legal_actions(self) -> list[Action]:
        raise NotImplementedError

    def _do(self, action: Action) -> None:
        """Carry out a legal action (legality already checked)."""
        raise NotImplementedError

    def _view(self, seat: int | None) -> dict[str, JSON]:
        raise NotImplementedError

    def _snapshot(self) -> dict[str, JSON]:
        raise NotImplementedError

    def result(self) -> Result:
        """Scores, ranks, winners and the reason the game ended. Raises if it is not over."""
        raise NotImplementedError

    def clone(self) -> State[G]:
        """An independent copy (no event log): cheap, for search."""
        raise NotImplementedError

    def _determinize(self, seat: int, rng: Rng) -> State[G]:
        """:meth:`determinize` for a checked seat and a generator."""
        raise NotImplementedError

    def _known_cards(self, seat: int | None) -> set[int]:
        """:meth:`known_cards` for a checked seat (None: what every seat and a spectator knows)."""
        raise NotImplementedError

    # -- protocol ----------------------------------------------------------------------------------
    def determinize(self, seat: object, rng: object) -> State[G]:
        """A full state consistent with ``view(seat)``: everything that seat cannot see resampled,
        including the state's own generator (so future dice and shuffles are not revealed), and its
        history as that seat knows it (:meth:`history_for`: an action it did not see is
        :data:`CONCEALED` there).

        ``rng`` is a generator or an integer seed; :class:`InvalidSeat` for a seat that is no seat of
        the game, :class:`TypeError` for an ``rng`` that is neither. Games implement
        :meth:`_determinize`."""
        who = check_seat(self.game, seat)
        out = self._determinize(who, _as_rng(rng))
        if self.concealed:
            out.history = list(self.history_for(who))
            out._history_shared = False
        return out

    def conceal_last(self, seen_by: Iterable[int]) -> None:
        """Mark the action being carried out (the last of :attr:`history`; call it from ``_do``) as
        seen only by the seats ``seen_by``: :meth:`history_for` any other seat, and any state
        :meth:`determinize` makes for one, has :data:`CONCEALED` in its place. A game calls this for
        every action whose choice another seat cannot see (its events must not tell it either)."""
        self.concealed = (*self.concealed, (len(self.history) - 1, frozenset(seen_by)))

    def history_for(self, seat: object) -> Sequence[int]:
        """The action history as ``seat`` knows it (``None``: as a spectator does): :attr:`history`
        with each action that seat did not see (see :meth:`conceal_last`) replaced by
        :data:`CONCEALED`. Read it, do not change it (it may be the history itself).
        :class:`InvalidSeat` for a seat that is no seat of the game."""
        who = self._check_seat(seat)
        concealed = self.concealed
        if not concealed:
            return self.history
        out = self.history.copy()
        for position, seen_by in concealed:
            if who is None or who not in seen_by:
                out[position] = CONCEALED
        return out

    def known_cards(self, seat: object) -> set[int]:
        """The card ids whose identity and place ``seat`` knows now (``None``: what is public);
        :class:`InvalidSeat` for a seat that is no seat of the game. Games implement
        :meth:`_known_cards`."""
        return self._known_cards(self._check_seat(seat))

    def legal_actions(self) -> list[Action]:
        """The actions open to ``current_player`` (empty only when the game is over).

        The returned list is shared with the state's cache: read it, do not change it.
        """
        legal = self._legal
        if legal is None:
            legal = self._legal = [] if self.is_over else self._legal_actions()
        return legal

    def apply(self, action: object, seat: object = None) -> Sequence[Event]:
        """Apply ``action`` (an Action of this game or its text) for ``current_player``.

        ``seat``, when given, is the seat sending the action; it must be the one to decide.
        Raises :class:`IllegalAction` and changes nothing on bad input, checking in this order: a
        ``seat`` that is no seat (:class:`InvalidSeat`), text that names no action of the game
        (:class:`MalformedAction`), a game that is over (:class:`GameOver`), a seat that is not the
        one to decide (:class:`NotYourTurn`), an action that is not legal now (:class:`IllegalAction`,
        saying why where the game can tell). Returns the events it caused (empty when the state
        keeps no log). Any value may be passed: one that is neither an Action nor text is a
        :class:`MalformedAction`, and a seat that is no seat of the game an :class:`InvalidSeat`.
        """
        who = -1
        if seat is not None:
            who = check_seat(self.game, seat)
        act = action if type(action) is Action and action.space is self.game.actions else self._resolve(action, who)
        if self.is_over:
            raise GameOver(f"the game is over; {quoted(act.text)} cannot be applied")
        if who >= 0 and who != self.current_player:
            raise NotYourTurn(
                f"{self.game.seat_name(who)} cannot act now: it is "
                f"{self.game.seat_name(self.current_player) if self.current_player is not None else 'nobody'}"
                "'s decision"
            )
        legal = self._legal
        if legal is None:
            legal = self.legal_actions()
        if act not in legal:
            raise IllegalAction(self._illegal_message(act, legal))
        raw = self._raw
        self._legal = None
        if self._history_shared:
            self.history = self.history.copy()
            self._history_shared = False
        self.history.append(act.index)
        if raw is None:
            self._do(act)
            return ()
        start = len(raw)
        self._do(act)
        stop = len(raw)
        log = self.log
        if stop == start or log is None:
            return ()
        # The events as a window of the log: their objects are made only if somebody reads them.
        return cast(Sequence[Event], LogSlice(log, start, stop))

    def _illegal_message(self, action: Action, legal: list[Action]) -> str:
        """Why ``action`` cannot be taken now, told to the seat that must decide (only to it: it may
        name that seat's own cards, never what it cannot see)."""
        seat = self.current_player
        who = self.game.seat_name(seat) if seat is not None else "nobody"
        why = self._why_illegal(action)
        if why:
            return f"{quoted(action.text)} is not legal now: {why}"
        kinds = ", ".join(dict.fromkeys(a.kind for a in legal))
        return f"{quoted(action.text)} is not legal now for {who} ({who} may now: {kinds})"

    def why_illegal(self, action: Action) -> str | None:
        """The game's reason why ``action`` (an action of this game's space) cannot be taken now, in
        the words :meth:`apply` would refuse it with ("card 17 (Greataxe) is not in your hand"); None
        when it is legal, when the game is over, or when the game has no particular reason. For the
        seat to decide only: the reason may name that seat's own cards (never what it cannot see)."""
        if self.is_over or action in self.legal_actions():
            return None
        return self._why_illegal(action) or None

    def _why_illegal(self, action: Action) -> str | None:
        """A game's reason why ``action`` (an action of its space) is not legal now, in words for the
        seat to decide ("card 17 (Greataxe) is not in your hand"), or None. Must not reveal anything
        that seat cannot see."""
        return None

    def _resolve(self, action: object, seat: int = -1) -> Action:
        """The action of this game's space that ``action`` (an Action or its text) names. A card
        given by name (``loot card=hex``) is looked up among the legal actions, and only for the seat
        to decide (``seat`` -1 for no seat given, or that seat): nobody else may learn what it could do."""
        space = self.game.actions
        if isinstance(action, Action):
            return space.parse(action.text)
        try:
            return space.parse(action)
        except MalformedAction:
            if not isinstance(action, str):
                raise
            given = _named_pairs(space, action)
            if given is None or self.is_over or (seat >= 0 and seat != self.current_player):
                raise
            kind, pairs = given
            return resolve_named(
                space, kind, pairs, self.legal_actions(), self.game.card_names, self.game.describe_action
            )

    def add_to_history(self, index: int) -> None:
        """Append the action ``index`` to :attr:`history`, copying it first if it is shared with a
        clone (copy-on-write). Code that carries out actions itself (a search's playout calling
        ``_do`` after ``_legal = None``, as :meth:`apply` does) must extend the history this way,
        never by appending to :attr:`history`, which would change the clone's too."""
        if self._history_shared:
            self.history = self.history.copy()
            self._history_shared = False
        self.history.append(index)

    def emit(self, kind: str, text: str, private: str | None = None, to: Sequence[int] = ()) -> None:
        """Add an event given as text to the log (a no-op when the state keeps no log)."""
        raw = self._raw
        if raw is not None:
            raw.append(kind)
            raw.append(None)
            raw.append(NOBODY)
            raw.append(Event(kind, text, private, frozenset(to) if to else NOBODY))

    def tell(self, kind: str, words: Words, args: tuple[Any, ...], to: frozenset[int] = NOBODY) -> None:
        """Add an event kept as data (a no-op when the state keeps no log): its text is built when a
        seat reads it, by ``words(game, args, seat)`` with ``seat`` a seat of ``to`` (its fuller text)
        or None (the public text); ``args`` are values taken now (see :mod:`cardtable.engine.events`).
        On a hot path, :meth:`tell1` … :meth:`tell5` record the same event without the tuple."""
        raw = self._raw
        if raw is not None:  # slots of the log's buffer: no object per event (cardtable.engine.events)
            raw.append(kind)
            raw.append(words)
            raw.append(to)
            raw.append(args)

    # The flat variants: ``tellN(kind, words, a1, ..., aN, to)`` is ``tell(kind, words, (a1, ..., aN),
    # to)``, recorded as the count and the values themselves. The words function reads the same tuple.
    def tell1(self, kind: str, words: Words, a: object, to: frozenset[int] = NOBODY) -> None:
        """:meth:`tell` with the one argument ``(a,)``, recorded without a tuple."""
        raw = self._raw
        if raw is not None:
            if COMPILED:  # appends: no tuple made (the pure build: one += is cheaper)
                raw.append(kind)
                raw.append(words)
                raw.append(to)
                raw.append(1)
                raw.append(a)
            else:
                raw += (kind, words, to, 1, a)

    def tell2(self, kind: str, words: Words, a: object, b: object, to: frozenset[int] = NOBODY) -> None:
        """:meth:`tell` with the arguments ``(a, b)``, recorded without a tuple."""
        raw = self._raw
        if raw is not None:
            if COMPILED:  # appends: no tuple made (the pure build: one += is cheaper)
                raw.append(kind)
                raw.append(words)
                raw.append(to)
                raw.append(2)
                raw.append(a)
                raw.append(b)
            else:
                raw += (kind, words, to, 2, a, b)

    def tell3(self, kind: str, words: Words, a: object, b: object, c: object, to: frozenset[int] = NOBODY) -> None:
        """:meth:`tell` with the arguments ``(a, b, c)``, recorded without a tuple."""
        raw = self._raw
        if raw is not None:
            if COMPILED:  # appends: no tuple made (the pure build: one += is cheaper)
                raw.append(kind)
                raw.append(words)
                raw.append(to)
                raw.append(3)
                raw.append(a)
                raw.append(b)
                raw.append(c)
            else:
                raw += (kind, words, to, 3, a, b, c)

    def tell4(
        self, kind: str, words: Words, a: object, b: object, c: object, d: object, to: frozenset[int] = NOBODY
    ) -> None:
        """:meth:`tell` with the arguments ``(a, b, c, d)``, recorded without a tuple."""
        raw = self._raw
        if raw is not None:
            if COMPILED:  # appends: no tuple made (the pure build: one += is cheaper)
                raw.append(kind)
                raw.append(words)
                raw.append(to)
                raw.append(4)
                raw.append(a)
                raw.append(b)
                raw.append(c)
                raw.append(d)
            else:
                raw += (kind, words, to, 4, a, b, c, d)

    def tell5(
        self,
        kind: str,
        words: Words,
        a: object,
        b: object,
        c: object,
        d: object,
        e: object,
        to: frozenset[int] = NOBODY,
    ) -> None:
        """:meth:`tell` with the arguments ``(a, b, c, d, e)``, recorded without a tuple."""
        raw = self._raw
        if raw is not None:
            if COMPILED:  # appends: no tuple made (the pure build: one += is cheaper)
                raw.append(kind)
                raw.append(words)
                raw.append(to)
                raw.append(5)
                raw.append(a)
                raw.append(b)
                raw.append(c)
                raw.append(d)
                raw.append(e)
            else:
                raw += (kind, words, to, 5, a, b, c, d, e)

    def tell_list1(self, kind: str, words: Words, a: object, items: list[int], to: frozenset[int] = NOBODY) -> None:
        """:meth:`tell` with the arguments ``(a, *items)`` (a draw's cards, say), recorded without a
        tuple."""
        raw = self._raw
        if raw is not None:
            if COMPILED:  # appends: no tuple made (the pure build: one += is cheaper)
                raw.append(kind)
                raw.append(words)
                raw.append(to)
                raw.append(1 + len(items))
                raw.append(a)
                for item in items:
                    raw.append(item)
            else:
                raw += (kind, words, to, 1 + len(items), a)
                raw += items

    def tell_list(
        self, kind: str, words: Words, a: object, b: object, items: list[int], first: int, to: frozenset[int] = NOBODY
    ) -> None:
        """:meth:`tell` with the arguments ``(a, b, *items[first:])`` (a draw's cards, say), recorded
        without a tuple or a slice."""
        raw = self._raw
        if raw is not None:
            if COMPILED:  # appends: no tuple made (the pure build: one += is cheaper)
                raw.append(kind)
                raw.append(words)
                raw.append(to)
                raw.append(2 + len(items) - first)
                raw.append(a)
                raw.append(b)
                for k in range(first, len(items)):
                    raw.append(items[k])
            else:
                raw += (kind, words, to, 2 + len(items) - first, a, b)
                raw += items[first:]

    def tell_seated(self, kind: str, words: Words, args: tuple[Any, ...]) -> None:
        """Add an event every seat reads in its own words (``words(game, args, seat)``; a spectator
        reads ``words(game, args, None)``): a line naming places each seat sees from its own side."""
        raw = self._raw
        if raw is not None:
            raw.append(kind)
            raw.append(words)
            raw.append(SEATED)
            raw.append(args)

    def start_log(self, log: EventLog | None = None) -> None:
        """Keep an event log from now on: ``log`` (a log of this game to go on with, which this state
        then records into) or a new, empty one. A state made with ``log=False`` and every clone keep
        none until this is called."""
        if log is None:
            log = EventLog(self.game)
        self.log = log
        self._raw = log.raw

    def events(self, seat: object, since: object = 0) -> list[str]:
        """The event log from index ``since`` as ``seat`` may read it (``None``: spectator).
        :class:`InvalidSeat` for a seat that does not exist; ``since`` must be a whole number from 0
        (:class:`TypeError` for another type, ``ValueError`` for a negative one)."""
        reader = self._check_seat(seat)
        if isinstance(since, bool) or not isinstance(since, int):
            raise TypeError(f"since must be a whole number (an index into the event log), got {quoted(since)}")
        if since < 0:
            raise ValueError(f"since must be a whole number from 0 (an index into the event log), got {quoted(since)}")
        if self.log is None:
            return []
        return [e.for_seat(reader) for e in self.log[since:]]

    def _check_seat(self, seat: object) -> int | None:
        """``seat`` as a seat of this game, or None for None; :class:`InvalidSeat` for anything else."""
        if seat is None:
            return None
        return check_seat(self.game, seat)

    def view(self, seat: object) -> dict[str, JSON]:
        """What ``seat`` may see, JSON-ready; ``None`` is the spectator's view.

        The table as a person in that seat sees it (DESIGN.md, "Views are for people"): the engine's
        keys (:data:`ENGINE_VIEW_KEYS`) and the game's (``Game.VIEW_KEYS``, with a ``prompt``).
        Raises :class:`InvalidSeat` (a ``ValueError``) for a seat that does not exist."""
        reader = self._check_seat(seat)
        game = self.game
        out: dict[str, JSON] = {
            "game": game.id,
            "seat": reader,
            "seat_names": [game.seat_name(s) for s in range(game.players)],
            "turn": self.turn,
            "current_player": self.current_player,
            "is_over": self.is_over,
        }
        out.update(self._view(reader))
        return out

    def snapshot(self) -> dict[str, JSON]:
        """Everything (god view), JSON-ready."""
        out: dict[str, JSON] = {
            "game": self.game.id,
            "options": self.game.hashed_options(),
            "seed": self.seed,
            "rng": self.rng.state,
            "turn": self.turn,
            "current_player": self.current_player,
            "is_over": self.is_over,
            "actions": len(self.history),
        }
        out.update(self._snapshot())
        return out

    def fingerprint(self) -> str:
        """A short hash of :meth:`snapshot`, stable across machines."""
        return fingerprint_of(self.snapshot())

    def actions_taken(self) -> list[str]:
        """The text of every action applied so far, in order (``?`` for one a determinization's
        seat did not see: see :meth:`history_for`)."""
        items = self.game.actions.items
        return [items[i].text if i != CONCEALED else "?" for i in self.history]

    def record(self) -> dict[str, JSON]:
        """Everything needed to rebuild this game: see :func:`cardtable.engine.record.make_record`."""
        from cardtable.engine.record import make_record

        return make_record(self)

    def __getstate__(self) -> tuple[None, dict[str, Any]]:
        # Every field, by name, set again with setattr when unpickled: the ``__slots__`` of each
        # class in the pure build, the attributes mypyc lists in ``__mypyc_attrs__`` for a compiled
        # class (which has no ``__slots__`` of its own), and the ``__dict__`` of an interpreted
        # subclass without slots. The legal-action cache holds interned actions of this process's
        # game: a pickle leaves it out (it is rebuilt on demand), so an unpickled state checks actions
        # against its own game.
        fields: dict[str, Any] = {}
        for cls in type(self).__mro__:
            names = cls.__dict__.get("__mypyc_attrs__") or cls.__dict__.get("__slots__", ())
            for name in (names,) if isinstance(names, str) else names:
                if name != "__dict__" and name not in fields and hasattr(self, name):
                    fields[name] = getattr(self, name)
        fields.update(getattr(self, "__dict__", None) or {})
        fields["_legal"] = None
        return (None, fields)

    def _new_blank(self) -> Self:
        """A new object of this state's class with no field set: the start of :meth:`clone`.

        The default makes one without running ``__init__`` (which deals a new game); it serves any
        state class written in Python and compiled ones that allow interpreted subclasses. A
        compiled state class may override it (never with ``object.__new__``, which compiled classes
        refuse)."""
        cls = type(self)
        return cls.__new__(cls)

    def _clone_base(self) -> Self:
        """A new object of this state's class with the base fields copied (log dropped)."""
        other = self._new_blank()
        other.game = self.game
        other.seed = self.seed
        other.rng = self.rng.copy()
        # The history is shared, not copied (a long game's is hundreds of actions): whichever of the
        # two states grows first copies it (apply, add_to_history).
        other.history = self.history
        other._history_shared = True
        self._history_shared = True
        other.concealed = self.concealed
        other.current_player = self.current_player
        other.is_over = self.is_over
        other.turn = self.turn
        other.log = None
        other._raw = None
        other._legal = self._legal
        return other

    def _reseeded_clone(self, rng: Rng | int) -> tuple[State[G], Rng]:
        """For :meth:`determinize`: a clone whose own generator is reseeded from ``rng``, and the
        generator to resample hidden cards with. The clone's legal-action cache is cleared."""
        r = _as_rng(rng)
        other = self.clone()
        other.rng = r.fork()
        # The true seed would let a searcher rebuild the true deal from the history; hide it.
        other.seed = -1
        other._legal = None
        return other, r

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} {self.game.id} seed={self.seed} turn={self.turn} "
            f"to_act={self.current_player} over={self.is_over}>"
        )
