"""The conformance harness: random playouts that check every promise of the protocol, for any game.

One checker runs over every game and every option set (``Game.CONFIGURATIONS``): built-in games,
plug-ins registered with :func:`cardtable.register`, and the engine's toy game. It plays seeded random
games and checks, as it goes, what DESIGN.md promises:

* turn structure: ``legal_actions()`` is non-empty exactly until the end, ``current_player`` is
  ``None`` exactly when the game is over, ``turn`` never goes back, every legal action is an interned
  action of
  ``game.actions`` whose text parses back to the same object, and every legal action applies;
* ``result()`` raises before the end and is well formed after it (one score and rank per seat,
  competition ranks, winners exactly the rank-1 seats when there are winners, a non-empty reason);
* ``view(seat)`` for every seat and ``view(None)`` are JSON-ready; ``snapshot()`` round-trips through
  JSON; event-log entries are strings;
* ``clone()`` equals the original and is independent of it, both ways;
* ``determinize(seat, rng)`` keeps ``view(seat)``, ``known_cards(seat)`` and (for the seat to decide)
  the legal actions, leaves the original alone, is reproducible, depends only on what the seat can
  know (two states the seat cannot tell apart determinize identically), resamples the hidden part
  when anything is hidden, and yields a state that plays on to the end;
* fairness: whether a decision appears never depends on a card a seat cannot see, and neither does
  anything that seat is shown (:func:`check_perturbation`: the game and a determinization of it, played
  on with the same actions and the same public chance, look identical to the seat);
* views are for people (:func:`check_view_for_people`): declared top-level keys with a ``prompt``, no
  engine bookkeeping, every card with its ``type`` and ``text``;
* ``replay(record())`` reproduces the final ``snapshot()`` and verifies every hash; a record with a
  changed action, a changed state hash or a changed card hash raises ``ReplayDivergence`` naming the
  index; the same seed and actions give the same fingerprints, with or without an event log;
* hidden information never leaks: no card of another seat's private knowledge appears, by name or as
  a card object, in ``view(s)`` or in the events ``s`` reads, unless ``known_cards(s)`` includes it;
* bad input (malformed text, unknown kind, an illegal action of the action space, a wrong seat, an
  action after the end) raises the right exception class and changes nothing (snapshot, legal
  actions, event log).

Conventions the leak check relies on (from the common brief): a visible card in a view is a dict with
an integer ``"id"`` and a string ``"name"``; no other object in a view has exactly those two keys
with those types. Card names are learned from the views of the seats that know the cards. Names are
matched as whole words, not inside a longer card name the reader knows and not next to another
capitalized word (so the secret "Ash" is not found in the character name "Evil Ash"). An event may
name a card that was public at some moment of the action that logged it (a card discarded and then
shuffled back within one action); in long games events are checked in batches between checked
steps, with the same allowance over the batch.

Every check is a function of this module that raises :class:`ConformanceError` (an
``AssertionError``) naming the check and the problem; :func:`check_playout` and :func:`check_game`
add the game, options, seed and step. The fine-grained checks take a state and never change it
(except :func:`check_bad_input`, whose point is that the state survives bad input unchanged).
"""

from __future__ import annotations

import copy
import json
import math
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, NamedTuple

import cardtable
from cardtable.engine.actions import Action
from cardtable.engine.errors import (
    GameOver,
    IllegalAction,
    InvalidSeat,
    MalformedAction,
    NotYourTurn,
    ReplayDivergence,
)
from cardtable.engine.game import ENGINE_VIEW_KEYS, JSON, Game, State
from cardtable.engine.options import OptionValue
from cardtable.engine.rng import Rng

# Snapshot keys that every determinization changes on purpose (the generator is reseeded and the true
# seed hidden); the rest of a snapshot is "the cards".
RESEEDED_KEYS = ("rng", "seed")

# Determinizations per seat at an ordinary deep-checked state (the first state gets more, see below).
DEFAULT_SAMPLES = 3


class ConformanceError(AssertionError):
    """A broken promise of the protocol. ``check`` names the promise; the message says what broke."""

    def __init__(self, check: str, problem: str) -> None:
        self.check = check
        self.problem = problem
        super().__init__(f"{check}: {problem}")


def fail(check: str, problem: str) -> ConformanceError:
    """Build the error for a broken promise (``raise fail(...)`` keeps control flow visible)."""
    return ConformanceError(check, problem)


# -- cases: which games and option sets to check ------------------------------------------------------


def configurations(game_id: str) -> list[dict[str, OptionValue]]:
    """The option sets the harness runs for ``game_id``: its ``CONFIGURATIONS``, or the defaults."""
    cls = cardtable.games.game_class(game_id)
    configs: Sequence[Mapping[str, OptionValue]] = getattr(cls, "CONFIGURATIONS", ()) or ({},)
    return [dict(c) for c in configs]


def legacy_configurations(game_id: str) -> list[dict[str, OptionValue]]:
    """For each option of ``game_id`` that declares a ``legacy`` value (an option added after records
    were being made, whose old reading those records replay with, e.g. Mr. Card Game's
    ``equipment-repeats=allowed``), the game's first configuration with that option at its legacy
    value. A record replays under that reading, so every promise must hold under it too; these are
    not in ``CONFIGURATIONS`` (the benchmark and the golden logs stay on today's readings)."""
    first = configurations(game_id)[0]
    game = cardtable.load(game_id, **first)
    return [{**first, o.name: o.legacy} for o in game.OPTIONS if o.legacy is not None]


def cases(game_ids: Iterable[str] | None = None) -> list[tuple[str, dict[str, OptionValue]]]:
    """Every (game id, options) pair to check: each configuration of each available game."""
    ids = cardtable.available() if game_ids is None else list(game_ids)
    return [(g, c) for g in ids for c in configurations(g)]


def config_label(options: Mapping[str, OptionValue]) -> str:
    """A short stable label of an option set, usable in test ids and file names: ``players-2_variant-x``."""
    if not options:
        return "default"
    parts = []
    for key in sorted(options):
        value = options[key]
        text = str(value).lower() if isinstance(value, bool) else str(value)
        parts.append(f"{key}-{text}")
    return re.sub(r"[^A-Za-z0-9._-]+", "-", "_".join(parts))


# -- JSON ---------------------------------------------------------------------------------------------


def is_json_ready(value: Any) -> bool:
    """Whether ``value`` is made of exactly what ``json.loads`` produces (see :func:`check_json_ready`).

    The quick question, asked of every view and snapshot a playout checks: it builds no paths, so
    that only a value that fails pays for the walk that says where."""
    stack = [value]
    pop, extend = stack.pop, stack.extend
    while stack:
        v = pop()
        t = type(v)
        if t is str or t is int or t is bool or v is None:
            continue
        if t is dict:
            for k in v:
                if type(k) is not str:
                    return False
            extend(v.values())
        elif t is list:
            extend(v)
        elif t is not float or not math.isfinite(v):
            return False
    return True


def check_json_ready(value: Any, what: str, check: str = "json") -> None:
    """``value`` must be made of exactly what ``json.loads`` produces: dicts with string keys, lists,
    strings, finite numbers, booleans and None (so it round-trips through JSON unchanged)."""
    if is_json_ready(value):
        return
    stack: list[tuple[Any, str]] = [(value, what)]
    while stack:
        v, path = stack.pop()
        t = type(v)
        if v is None or t is str or t is bool or t is int:
            continue
        if t is float:
            if not math.isfinite(v):
                raise fail(check, f"{path} is {v!r}, which JSON cannot carry")
            continue
        if t is list:
            stack.extend((item, f"{path}[{i}]") for i, item in enumerate(v))
            continue
        if t is dict:
            for k, item in v.items():
                if type(k) is not str:
                    raise fail(check, f"{path} has the non-string key {k!r} (JSON would turn it into a string)")
                stack.append((item, f"{path}.{k}"))
            continue
        raise fail(check, f"{path} is a {t.__name__} ({v!r:.60}); JSON-ready data uses lists, dicts, str, int, float")


def hidden_part(snapshot: Mapping[str, JSON]) -> dict[str, JSON]:
    """A snapshot without the keys a determinization always changes (the generator and the seed)."""
    return {k: v for k, v in snapshot.items() if k not in RESEEDED_KEYS}


# -- turn structure and actions -----------------------------------------------------------------------


def check_turn(state: State) -> list[Action]:
    """``current_player``/``is_over``/``legal_actions`` agree, and every legal action is an interned
    action of the game whose text parses back to it. Returns the legal actions."""
    game = state.game
    legal = state.legal_actions()
    if not isinstance(legal, list):
        raise fail("legal-actions", f"legal_actions() returned a {type(legal).__name__}, not a list")
    if state.is_over:
        if state.current_player is not None:
            raise fail("current-player", f"the game is over but current_player is {state.current_player!r}")
        if legal:
            raise fail("legal-actions", f"the game is over but {len(legal)} actions are legal: {legal[:5]}")
        return legal
    seat = state.current_player
    if seat is None:
        raise fail("current-player", "current_player is None but the game is not over")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.players:
        raise fail("current-player", f"current_player {seat!r} is not a seat of a {game.players}-player game")
    if not legal:
        raise fail("legal-actions", f"no legal action for {game.seat_name(seat)} before the end")
    items = game.actions.items
    seen: set[int] = set()
    for a in legal:
        if type(a) is not Action or a.space is not game.actions or items[a.index] is not a:
            raise fail("legal-actions", f"{a!r} is not an interned action of this game's action space")
        if a.index in seen:
            raise fail("legal-actions", f"{a.text!r} is listed twice")
        seen.add(a.index)
        try:
            parsed = game.actions.parse(a.text)
        except MalformedAction as exc:
            raise fail("action-text", f"the text of legal action {a.text!r} does not parse: {exc}") from exc
        if parsed is not a:
            raise fail("action-text", f"{a.text!r} parses to a different action ({parsed!r})")
    if not isinstance(state.turn, int) or state.turn < 0:
        raise fail("turn", f"turn is {state.turn!r}, not a non-negative integer")
    return legal


def check_apply_all(state: State) -> None:
    """Every legal action applies (each on its own clone) and leaves the original alone."""
    if state.is_over:
        return
    before = state.snapshot()
    for a in state.legal_actions():
        c = state.clone()
        try:
            c.apply(a)
        except Exception as exc:
            raise fail("apply-legal", f"legal action {a.text!r} raised {type(exc).__name__}: {exc}") from exc
        if len(c.history) != len(state.history) + 1:
            raise fail("apply-legal", f"applying {a.text!r} did not add exactly one action to the history")
    if state.snapshot() != before:
        raise fail("apply-legal", "applying actions to clones changed the original state")


# -- result ------------------------------------------------------------------------------------------


def check_result(state: State) -> None:
    """``result()`` raises before the end; after it, it is well formed and stable."""
    if not state.is_over:
        try:
            state.result()
        except Exception:
            return
        raise fail("result", "result() returned a value before the end of the game")
    players = state.game.players
    res = state.result()
    seats = range(players)
    if len(res.scores) != players or len(res.ranks) != players:
        raise fail("result", f"{len(res.scores)} scores and {len(res.ranks)} ranks for {players} seats")
    for s in res.scores:
        if isinstance(s, bool) or not isinstance(s, int | float) or not math.isfinite(s):
            raise fail("result", f"score {s!r} is not a finite number")
    ranks = list(res.ranks)
    for r in ranks:
        if isinstance(r, bool) or not isinstance(r, int) or not 1 <= r <= players:
            raise fail("result", f"rank {r!r} is not in 1..{players}")
    # Competition ranks: a seat's rank is one more than the number of seats strictly ahead of it.
    for r in ranks:
        if r != 1 + sum(1 for other in ranks if other < r):
            raise fail("result", f"ranks {ranks} are not competition ranks (1 best, ties share, gaps after ties)")
    if len(set(res.winners)) != len(res.winners) or any(w not in seats for w in res.winners):
        raise fail("result", f"winners {res.winners} are not distinct seats")
    if res.winners and set(res.winners) != {s for s in seats if ranks[s] == 1}:
        raise fail("result", f"winners {res.winners} are not exactly the seats ranked 1 ({ranks})")
    if not isinstance(res.reason, str) or not res.reason.strip():
        raise fail("result", f"reason {res.reason!r} is not a non-empty string")
    if not isinstance(res.turns, int) or isinstance(res.turns, bool) or res.turns < 0:
        raise fail("result", f"turns {res.turns!r} is not a non-negative integer")
    if not isinstance(res.truncated, bool) or not isinstance(res.draw, bool):
        raise fail("result", "truncated and draw must be booleans")
    if res.teams is not None:
        members = sorted(s for team in res.teams for s in team)
        if members != list(seats):
            raise fail("result", f"teams {res.teams} do not partition the seats")
    data = res.to_json()
    check_json_ready(data, "result().to_json()", "result")
    if state.result().to_json() != data:
        raise fail("result", "result() is not stable: two calls gave different results")


# -- views, snapshots, events -------------------------------------------------------------------------


class ViewScan(NamedTuple):
    """What one walk over a view finds: the answers of :func:`is_json_ready` and of the walk of
    :func:`check_view_for_people`, the view's card objects (:func:`card_objects`) and its strings,
    keys included (:func:`strings_in`)."""

    json_ready: bool
    for_people: bool
    cards: list[tuple[int, str]]
    strings: list[str]


def scan_view(view: JSON) -> ViewScan:
    """Walk ``view`` once for everything a playout asks of it (a view is walked again, building paths,
    only when a check fails, to say where)."""
    json_ready = for_people = True
    cards: list[tuple[int, str]] = []
    strings: list[str] = []
    stack = [view]
    pop, extend, found, add_card = stack.pop, stack.extend, strings.append, cards.append
    internal, raw_effect = INTERNAL_KEYS, _RAW_EFFECT.search
    while stack:
        v = pop()
        t = type(v)
        if t is str:
            found(v)
            if "=" in v and raw_effect(v):
                for_people = False
        elif t is dict:
            for k in v:
                if type(k) is str:
                    found(k)
                    if k in internal:
                        for_people = False
                else:
                    json_ready = False
            extend(v.values())
            cid, name = v.get("id"), v.get("name")
            if type(cid) is int and type(name) is str:
                add_card((cid, name))
                if type(v.get("type")) is not str or type(v.get("text")) is not str:
                    for_people = False
        elif t is list:
            extend(v)
        elif not (t is int or t is bool or v is None or (t is float and math.isfinite(v))):
            json_ready = False
    return ViewScan(json_ready, for_people, cards, strings)


def check_views(state: State, scans: dict[int | None, ViewScan] | None = None) -> dict[int | None, dict[str, JSON]]:
    """``view(seat)`` for every seat and ``view(None)`` are JSON-ready, stable, and ``view`` rejects
    a seat that does not exist. Returns the views by seat; ``scans``, when given, receives each
    view's :func:`scan_view` (for :func:`check_no_leaks`)."""
    views: dict[int | None, dict[str, JSON]] = {}
    for seat in [*range(state.game.players), None]:
        v = state.view(seat)
        if type(v) is not dict:
            raise fail("view", f"view({seat}) is a {type(v).__name__}, not a dict")
        scan = scan_view(v)
        if not scan.json_ready:
            check_json_ready(v, f"view({seat})", "view")
        if state.view(seat) != v:
            raise fail("view", f"view({seat}) is not stable: two calls differ")
        views[seat] = v
        check_view_for_people(state.game, v, f"view({seat})", scan)
        if scans is not None:
            scans[seat] = scan
    for bad in (-1, state.game.players):
        try:
            state.view(bad)
        except ValueError:
            continue
        raise fail("view", f"view({bad}) did not raise ValueError for a seat that does not exist")
    return views


INTERNAL_KEYS = frozenset(
    {"queue", "limbo", "actor", "runouts", "pay_left", "side_to_play", "pending", "flags", "bits", "mask", "do"}
)
"""Keys that name engine bookkeeping, refused anywhere in a view (``do`` is raw effect syntax)."""
_RAW_EFFECT = re.compile(r"\b(?:do|kinds|whose)=\w")
MESSAGE_LIMIT = 500
"""Longest error message a person should ever be shown (input is quoted cut short)."""


def check_view_for_people(
    game: Game, view: Mapping[str, JSON], what: str = "view", scan: ViewScan | None = None
) -> None:
    """A view is the table as a person sees it (DESIGN.md, "Views are for people"):

    * its top-level keys are the engine's (:data:`ENGINE_VIEW_KEYS`) and those the game declares in
      ``Game.VIEW_KEYS``, nothing else, and ``prompt`` is a non-empty line of text saying what is
      being decided (or how the game ended);
    * no key anywhere names engine bookkeeping (:data:`INTERNAL_KEYS`) and no text shows raw effect
      syntax (``do=...``);
    * every card object (a dict with an int ``id`` and a str ``name``) carries its printed data: a
      ``type`` and a ``text`` (its effect in words, empty when it has none).

    ``scan`` is the view's :func:`scan_view`, when the caller has it.
    """
    declared = game.VIEW_KEYS
    if declared is None:
        raise fail("view-keys", f"{type(game).__name__}.VIEW_KEYS is not declared: list the view's top-level keys")
    extra = set(view) - ENGINE_VIEW_KEYS - declared
    if extra:
        raise fail("view-keys", f"{what} has top-level keys the game does not declare: {sorted(extra)}")
    missing = ENGINE_VIEW_KEYS - set(view)
    if missing:
        raise fail("view-keys", f"{what} lacks the engine's keys {sorted(missing)}")
    prompt = view.get("prompt")
    if not isinstance(prompt, str) or not prompt.strip() or "\n" in prompt.strip():
        raise fail("view-prompt", f"{what}['prompt'] must be one non-empty line of text, got {prompt!r:.80}")
    if (scan if scan is not None else scan_view(view)).for_people:
        return
    stack: list[tuple[JSON, str]] = [(view, what)]
    while stack:
        value, path = stack.pop()
        if type(value) is dict:
            for key, item in value.items():
                if key in INTERNAL_KEYS:
                    raise fail("view-internals", f"{path} has the key {key!r}, which is engine bookkeeping")
                stack.append((item, f"{path}.{key}"))
            cid, name = value.get("id"), value.get("name")
            if type(cid) is int and type(name) is str:
                for key in ("type", "text"):
                    if type(value.get(key)) is not str:
                        raise fail(
                            "view-cards",
                            f"{path} (card {cid} {name!r}) has no {key!r} text: cards carry their printed data",
                        )
        elif type(value) is list:
            stack.extend((item, f"{path}[{i}]") for i, item in enumerate(value))
        elif type(value) is str and _RAW_EFFECT.search(value):
            raise fail("view-internals", f"{path} shows raw effect syntax: {value!r:.80}")


def check_snapshot(state: State) -> dict[str, JSON]:
    """``snapshot()`` is JSON-ready, round-trips through JSON text and is stable; returns it."""
    snap = state.snapshot()
    check_json_ready(snap, "snapshot()", "snapshot")
    if json.loads(json.dumps(snap)) != snap:
        raise fail("snapshot", "snapshot() does not round-trip through JSON")
    if state.snapshot() != snap:
        raise fail("snapshot", "snapshot() is not stable: two calls differ")
    return snap


def check_events(state: State, since: int = 0) -> None:
    """Event-log entries are events with string texts, and every seat (and a spectator) reads strings."""
    log = state.log
    if log is None:
        if state.events(0) != []:
            raise fail("events", "a state without a log returned events")
        return
    players = state.game.players
    for i, e in enumerate(log[since:], since):
        if not isinstance(e.kind, str) or not e.kind or not isinstance(e.text, str):
            raise fail("events", f"event {i} has kind {e.kind!r} and text {e.text!r}; both must be strings")
        if e.private is not None and not isinstance(e.private, str):
            raise fail("events", f"event {i} has a private text that is not a string: {e.private!r}")
        if any(s not in range(players) for s in e.to):
            raise fail("events", f"event {i} is addressed to seats {sorted(e.to)} of a {players}-player game")
    for seat in [*range(players), None]:
        texts = state.events(seat, since)
        if len(texts) != len(log) - since or not all(isinstance(t, str) for t in texts):
            raise fail("events", f"events({seat}) is not one string per logged event")


# -- hidden information ------------------------------------------------------------------------------


def card_objects(value: JSON) -> Iterator[tuple[int, str]]:
    """Every ``(id, name)`` of a card object (a dict with an int ``id`` and a str ``name``) in a view."""
    stack = [value]
    while stack:
        v = stack.pop()
        if type(v) is dict:
            cid, name = v.get("id"), v.get("name")
            if type(cid) is int and type(name) is str:
                yield cid, name
            stack.extend(v.values())
        elif type(v) is list:
            stack.extend(v)


def strings_in(value: JSON) -> Iterator[str]:
    """Every string (values and keys) in a JSON-ready value."""
    stack = [value]
    while stack:
        v = stack.pop()
        if type(v) is str:
            yield v
        elif type(v) is dict:
            stack.extend(v.keys())
            stack.extend(v.values())
        elif type(v) is list:
            stack.extend(v)


class CardNames:
    """Card names learned from views, by card id (a seat's view names the cards it knows)."""

    def __init__(self) -> None:
        self.names: dict[int, set[str]] = {}

    def learn(self, view: JSON, known: set[int]) -> None:
        """Record the names of the card objects in ``view`` whose ids its seat knows."""
        self.learn_cards(card_objects(view), known)

    def learn_cards(self, cards: Iterable[tuple[int, str]], known: set[int]) -> None:
        """Record the names of the ``(id, name)`` card objects whose ids the seat knows."""
        for cid, name in cards:
            if cid in known and name:
                self.names.setdefault(cid, set()).add(name)

    def of(self, ids: Iterable[int]) -> set[str]:
        out: set[str] = set()
        for cid in ids:
            out |= self.names.get(cid, set())
        return out


_CAPITALIZED_BEFORE = re.compile(r"[A-Z][\w'-]* $")
_CAPITALIZED_AFTER = re.compile(r"^ [A-Z]")


def _mentions(text: str, name: str, shields: Sequence[str]) -> bool:
    """Does ``text`` name ``name``?

    A mention is a whole-word occurrence that is not inside one of ``shields`` (longer card names
    the reader may read, e.g. "Witch Hunter" when "Witch" is secret) and not directly next to another
    capitalized word, which would make it part of a longer proper name ("Evil Ash" is not "Ash").
    """
    if name not in text:
        return False
    for s in shields:
        text = text.replace(s, " ")
    for m in re.finditer(r"(?<!\w)" + re.escape(name) + r"(?!\w)", text):
        if _CAPITALIZED_BEFORE.search(text, 0, m.start()) or _CAPITALIZED_AFTER.match(text[m.end() :]):
            continue
        return True
    return False


def private_cards(known: Mapping[int | None, set[int]], reader: int | None, players: int) -> set[int]:
    """The cards some other seat knows and ``reader`` does not, from every seat's ``known_cards``."""
    mine = known[reader]
    out: set[int] = set()
    for other in range(players):
        if other != reader:
            out |= known[other] - mine
    return out


def check_no_leaks(
    state: State,
    names: CardNames,
    views: Mapping[int | None, JSON] | None = None,
    events_since: int | None = None,
    known_since: Mapping[int | None, set[int]] | None = None,
    released: Mapping[int | None, set[int]] | None = None,
    reshuffled: set[int] | None = None,
    scans: Mapping[int | None, ViewScan] | None = None,
) -> dict[int | None, set[int]]:
    """No view or event a seat reads shows a card that another seat knows and it does not.

    ``names`` is updated from the views first. A card private to another seat (in its
    ``known_cards`` but not in the reader's) must appear neither as a card object nor by name in the
    reader's view, nor by name in the events it reads from ``events_since`` on (``None``: no event
    check). Names shared with a card the reader knows, or with a seat, cannot be told apart and are
    not checked. A name the game's rules use as a word (``Game.RULE_NAMES``) is looked for as the
    card's full ``card_name`` instead of the bare word. Events may also name cards the reader knew
    at some point since ``events_since`` (``known_since``, by reader) and cards that stopped being
    private from the reader at some action since then (``released``, by reader): for example a card
    discarded face up that the same action shuffled back into the deck, and that is private again
    because someone drew it since. ``reshuffled`` holds the log indices of events caused by an
    action that turned public cards hidden again (a discard pile shuffled into a deck): a card may
    have been public in the middle of such an action, which no state between actions shows, so their
    names are not checked. ``scans`` are the views' :func:`scan_view`, when the caller has them
    (from :func:`check_views`).
    Returns every seat's ``known_cards``.
    """
    players = state.game.players
    seats: list[int | None] = [*range(players), None]
    if views is None:
        views = {s: state.view(s) for s in seats}
    known = {s: state.known_cards(s) for s in seats}
    if scans is None:
        scans = {s: scan_view(views[s]) for s in seats}
    for s in seats:
        if not isinstance(known[s], set) or not all(type(c) is int for c in known[s]):
            raise fail("known-cards", f"known_cards({s}) is not a set of integer card ids")
        names.learn_cards(scans[s].cards, known[s])
    seat_names = {state.game.seat_name(i) for i in range(players)}
    rule_names = state.game.RULE_NAMES
    for reader in seats:
        mine = known[reader]
        private = private_cards(known, reader, players)
        if not private:
            continue
        for cid, name in scans[reader].cards:
            if cid in private:
                raise fail("leak", f"view({reader}) shows card {cid} ({name!r}), which it does not know")
        secret = names.of(private) - names.of(mine) - seat_names
        # A name the rules use as a word ("needs the Necronomicon") is looked for as the card's full
        # name (``card_name``, unique per card) instead: the bare word points at no card.
        worded = {cid: state.game.card_name(cid) for cid in private if names.of((cid,)) & rule_names}
        secret -= rule_names
        if not secret and not worded:
            continue
        event_secret = secret
        event_worded = set(worded)
        if known_since is not None:
            event_secret = event_secret - names.of(known_since.get(reader, set()))
            event_worded -= known_since.get(reader, set())
        if released is not None:
            event_secret = event_secret - names.of(released.get(reader, set()))
            event_worded -= released.get(reader, set())
        shields_all = sorted(names.of(mine), key=len, reverse=True)
        texts = list(scans[reader].strings)
        where = [f"view({reader})"] * len(texts)
        n_view = len(texts)
        if events_since is not None:
            new = state.events(reader, events_since)
            exempt = reshuffled or set()
            kept = [t for i, t in enumerate(new, events_since) if i not in exempt]
            texts += kept
            where += [f"an event seat {reader} reads"] * len(kept)
        joined = "\n".join(texts)
        for cid, full in sorted(worded.items()):
            if full not in joined:
                continue
            for i, (text, w) in enumerate(zip(texts, where, strict=True)):
                if (i < n_view or cid in event_worded) and full in text:
                    raise fail("leak", f"{w} names {full!r}, a card another seat knows and it does not: {text!r}")
        for name in sorted(secret):
            if name not in joined:  # the common case, decided in one scan
                continue
            shields = [k for k in shields_all if name in k and k != name]
            for i, (text, w) in enumerate(zip(texts, where, strict=True)):
                if i >= n_view and name not in event_secret:
                    continue
                if _mentions(text, name, shields):
                    raise fail("leak", f"{w} names {name!r}, a card another seat knows and it does not: {text!r}")
    return known


def check_determinize(state: State, seat: int, seeds: Sequence[int]) -> bool:
    """``determinize(seat, Rng(k))`` for each ``k`` in ``seeds`` keeps what ``seat`` knows, leaves the
    original alone, is reproducible and depends only on what the seat can know.

    Returns whether any sample changed the hidden part of the state (anything but the generator).
    """
    before = state.snapshot()
    view = state.view(seat)
    known = state.known_cards(seat)
    legal = [a.index for a in state.legal_actions()] if state.current_player == seat else None
    changed = False
    for k in seeds:
        d = state.determinize(seat, Rng(k))
        if not isinstance(d, type(state)) or d is state:
            raise fail("determinize", f"determinize({seat}) must return a new state of the same class")
        if state.snapshot() != before:
            raise fail("determinize", f"determinize({seat}) changed the original state")
        if d.view(seat) != view:
            raise fail(
                "determinize", f"view({seat}) differs in determinize({seat}, Rng({k})): {_diff(view, d.view(seat))}"
            )
        if d.known_cards(seat) != known:
            raise fail("determinize", f"known_cards({seat}) differs after determinize({seat}, Rng({k}))")
        if d.current_player != state.current_player or d.is_over != state.is_over or d.turn != state.turn:
            raise fail("determinize", "a determinization changed current_player, is_over or turn")
        if legal is not None and [a.index for a in d.legal_actions()] != legal:
            raise fail(
                "determinize",
                f"the legal actions of seat {seat} (to decide) depend on cards it cannot see: they differ in "
                f"determinize({seat}, Rng({k}))",
            )
        snap = d.snapshot()
        check_json_ready(snap, f"determinize({seat}).snapshot()", "determinize")
        if d.determinize(seat, Rng(k)).snapshot() != state.determinize(seat, Rng(k)).snapshot():
            raise fail(
                "determinize",
                f"determinize({seat}, Rng({k})) differs between two states seat {seat} cannot tell apart "
                "(the state and one of its determinizations): it depends on the true hidden cards",
            )
        if state.determinize(seat, Rng(k)).snapshot() != snap:
            raise fail("determinize", f"determinize({seat}, Rng({k})) is not reproducible")
        if hidden_part(snap) != hidden_part(before):
            changed = True
    return changed


def check_perturbation(state: State, seat: int, rng: Rng, steps: int = 40) -> int:
    """Whether a decision appears, and all that ``seat`` is shown, never depends on what it cannot see.

    ``state.determinize(seat, ...)`` is a game ``seat`` cannot tell from the true one. Both go on
    with the same actions: ``seat``'s own, and for the other seats actions legal in both games; the
    determinization's generator is set to the true one's, so chance that is public (a die, the size of
    a shuffle) comes out the same. Until ``seat`` legitimately learns something that differs between
    them (its ``known_cards`` differ, e.g. after drawing from its resampled deck), the two games must
    look identical to ``seat`` at every step: the same seat deciding (a response window that opens
    only when a hidden card allows a response fails here), ``is_over``, ``view(seat)``, the legal
    actions when ``seat`` decides, the events ``seat`` reads, and the error messages ``seat`` gets for
    an action out of turn or an illegal one. Learning the same new cards in other places or another
    order (a deck's order coming to light as cards come out of it: the same cards shown in other
    places, or named in the events in another order) also ends the comparison: that is something new
    that differs. Stops early when the other seats have no action legal in both games. Returns the
    number of actions compared. ``state`` is not changed.
    """
    game = state.game
    items = game.actions.items
    truth = state.clone()
    twin = state.determinize(seat, Rng(rng.below(1 << 62)))
    twin.rng.state = truth.rng.state  # public chance resolves identically in both
    truth.start_log()  # events from here on, for both
    twin.start_log()
    policy = Rng(rng.below(1 << 62))

    def same_face(step: int) -> None:
        where = f"{step} action(s) into a perturbation for seat {seat}"
        if truth.current_player != twin.current_player or truth.is_over != twin.is_over:
            raise fail(
                "perturbation",
                f"{where}: the seat to decide is {truth.current_player} in the true game but "
                f"{twin.current_player} in one with other hidden cards (over: {truth.is_over}/{twin.is_over}); "
                "whether a decision appears reveals hidden cards to seat " + str(seat),
            )
        seen, other = truth.view(seat), twin.view(seat)
        if seen != other:
            raise fail("perturbation", f"{where}: view({seat}) depends on cards it cannot see: {_diff(seen, other)}")
        if truth.current_player == seat:
            mine = [a.text for a in truth.legal_actions()]
            theirs = [a.text for a in twin.legal_actions()]
            if mine != theirs:
                raise fail("perturbation", f"{where}: seat {seat}'s legal actions depend on cards it cannot see")
        if not truth.is_over:
            probe = items[policy.below(len(items))]
            first, second = _refusal(truth, probe, seat), _refusal(twin, probe, seat)
            if first != second:
                raise fail(
                    "perturbation",
                    f"{where}: the error seat {seat} gets for {probe.text!r} depends on cards it cannot see: "
                    f"{first!r:.120} / {second!r:.120}",
                )

    for step in range(steps):
        same_face(step)
        if truth.is_over:
            return step
        legal = truth.legal_actions()
        if truth.current_player == seat:
            choices = legal
        else:
            in_twin = {a.index for a in twin.legal_actions()}
            choices = [a for a in legal if a.index in in_twin]
            if not choices:
                return step
        action = choices[policy.below(len(choices))]
        public = truth.known_cards(None)
        known_before = truth.known_cards(seat)
        told = [e.for_seat(seat) for e in truth.apply(action)]
        twin_told = [e.for_seat(seat) for e in twin.apply(action)]
        known = truth.known_cards(seat)
        if known != twin.known_cards(seat):
            return step + 1  # seat learned a card that differs between the two: they may differ now
        learned = known - known_before
        if learned and (
            told != twin_told or _card_places(truth.view(seat), learned) != _card_places(twin.view(seat), learned)
        ):
            return step + 1  # the same new cards came to light in other places or in another order
        if public - truth.known_cards(None) or public - twin.known_cards(None):
            # The action shuffled public cards out of sight (a discard pile into the deck): on the way
            # it may have shown cards that differ between the two (a hand discarded face up), which
            # no state after it shows.
            return step + 1
        if told != twin_told:
            raise fail(
                "perturbation",
                f"{step + 1} action(s) into a perturbation for seat {seat}: after {action.text!r} seat {seat} "
                f"reads different events depending on cards it cannot see: {told!r:.160} / {twin_told!r:.160}",
            )
    same_face(steps)
    return steps


def _card_places(view: JSON, ids: set[int]) -> dict[int, list[str]]:
    """Where in ``view`` the card objects with the given ids are (paths, sorted), by id."""
    out: dict[int, list[str]] = {}
    stack: list[tuple[JSON, str]] = [(view, "")]
    while stack:
        value, path = stack.pop()
        if type(value) is dict:
            cid = value.get("id")
            if type(cid) is int and cid in ids and type(value.get("name")) is str:
                out.setdefault(cid, []).append(path)
            stack.extend((v, f"{path}.{k}") for k, v in value.items())
        elif type(value) is list:
            stack.extend((v, f"{path}[{i}]") for i, v in enumerate(value))
    return {k: sorted(v) for k, v in out.items()}


def _refusal(state: State, action: Action, seat: int) -> str:
    """The message ``seat`` gets for sending ``action`` now, or ``"accepted"`` (on a clone)."""
    try:
        state.clone().apply(action, seat=seat)
    except IllegalAction as exc:
        return f"{type(exc).__name__}: {exc}"
    return "accepted"


def _diff(a: JSON, b: JSON) -> str:
    """The first path where two JSON values differ, for messages."""
    if type(a) is dict and type(b) is dict:
        for k in sorted(set(a) | set(b)):
            if a.get(k) != b.get(k):
                return f".{k}: {a.get(k)!r:.80} != {b.get(k)!r:.80}"
    return f"{a!r:.80} != {b!r:.80}"


# -- clone, rollouts ---------------------------------------------------------------------------------


def rollout(state: State, rng: Rng, max_steps: int, check: str = "rollout") -> int:
    """Play uniformly random legal actions on ``state`` (changing it) for at most ``max_steps``,
    checking turn structure at each step. Returns the number of actions applied."""
    n = 0
    while n < max_steps:
        try:
            legal = check_turn(state)
        except ConformanceError as exc:
            raise ConformanceError(exc.check, f"in a {check} after {n} random actions: {exc.problem}") from exc
        if state.is_over:
            break
        a = legal[rng.below(len(legal))]
        try:
            state.apply(a)
        except Exception as exc:
            raise fail(check, f"after {n} random actions, {a.text!r} raised {type(exc).__name__}: {exc}") from exc
        n += 1
    return n


def check_clone(state: State, rng: Rng, steps: int = 8) -> None:
    """``clone()`` equals the original, and playing on either leaves the other unchanged."""
    before = state.snapshot()
    c = state.clone()
    if c is state or type(c) is not type(state):
        raise fail("clone", "clone() must return a new state of the same class")
    if c.snapshot() != before:
        raise fail("clone", f"the clone differs from the original: {_diff(before, c.snapshot())}")
    if [a.index for a in c.legal_actions()] != [a.index for a in state.legal_actions()]:
        raise fail("clone", "the clone has different legal actions")
    if c.fingerprint() != state.fingerprint():
        raise fail("clone", "the clone has a different fingerprint")
    watcher = c.clone()
    watched = watcher.snapshot()
    rollout(c, rng, steps, "clone")
    if state.snapshot() != before:
        raise fail("clone", "playing on a clone changed the original (they share mutable data)")
    rollout(watcher.clone(), rng, steps, "clone")
    if watcher.snapshot() != watched:
        raise fail("clone", "playing on a clone of a clone changed its source")


# -- records -----------------------------------------------------------------------------------------


def check_record_replay(state: State) -> dict[str, JSON]:
    """``record()`` is JSON-ready and ``replay`` of it (through JSON text) reproduces the final
    snapshot exactly, verifying every hash. Returns the record."""
    rec = state.record()
    check_json_ready(rec, "record()", "record")
    if len(rec["actions"]) != len(state.history):
        raise fail("record", f"the record has {len(rec['actions'])} actions, the state {len(state.history)}")
    rec = json.loads(json.dumps(rec))
    try:
        again = cardtable.replay(rec)
    except ReplayDivergence as exc:
        raise fail("replay", f"replaying the state's own record diverged: {exc}") from exc
    if again.snapshot() != state.snapshot():
        raise fail("replay", f"replay(record()) reaches a different state: {_diff(state.snapshot(), again.snapshot())}")
    if again.actions_taken() != rec["actions"] or again.seed != rec["seed"]:
        raise fail("replay", "the replayed game's actions or seed differ from the record it was replayed from")
    return dict(rec)


def _expect_divergence(record: Mapping[str, JSON], index: int, what: str) -> None:
    try:
        cardtable.replay(record)
    except ReplayDivergence as exc:
        if exc.index != index:
            raise fail("tampered-record", f"{what}: ReplayDivergence names index {exc.index}, not {index}") from exc
        if str(index) not in str(exc):
            raise fail("tampered-record", f"{what}: the message does not name index {index}: {exc}") from exc
        return
    except Exception as exc:
        raise fail("tampered-record", f"{what}: raised {type(exc).__name__} instead of ReplayDivergence") from exc
    raise fail("tampered-record", f"{what}: replay accepted the tampered record")


def check_tampered_records(state: State, rng: Rng, tries: int = 4) -> None:
    """Records with a changed action, a changed state hash or a changed card hash raise
    :class:`ReplayDivergence` naming the right index."""
    rec = state.record()
    actions: list[str] = rec["actions"]
    n = len(actions)
    # A prefix of a record is the record of the game so far; a short one keeps this check cheap.
    k = min(n, 25)
    bad = copy.deepcopy(rec)
    bad["actions"], bad["hashes"], bad["result"] = actions[:k], rec["hashes"][:k], None
    bad["cards"] = "tampered-" + str(rec.get("cards"))
    _expect_divergence(bad, k, "a record with a changed card hash")
    if n == 0:
        return
    i = rng.below(n)
    bad = copy.deepcopy(rec)
    bad["hashes"][i] = "0" * len(bad["hashes"][i])
    _expect_divergence(bad, i, f"a record with the state hash of action {i} changed")
    game = state.game
    items = game.actions.items
    for _ in range(tries):
        i = rng.below(n)
        at = cardtable.replay(rec, log=False, upto=i)
        legal = at.legal_actions()
        recorded = game.actions.parse(actions[i])
        # An action legal here whose outcome differs from the recorded one: the hash check must catch it.
        for a in legal:
            if a is recorded:
                continue
            c = at.clone()
            c.apply(a)
            if c.fingerprint() != rec["hashes"][i]:
                bad = copy.deepcopy(rec)
                bad["actions"][i] = a.text
                _expect_divergence(bad, i, f"a record with action {i} changed to another legal action {a.text!r}")
                break
        # An action of the game that is not legal here: the replay must stop at it.
        illegal = [a for a in items if a not in legal]
        if illegal:
            a = illegal[rng.below(len(illegal))]
            bad = copy.deepcopy(rec)
            bad["actions"][i] = a.text
            _expect_divergence(bad, i, f"a record with action {i} changed to the illegal {a.text!r}")
        bad = copy.deepcopy(rec)
        bad["actions"][i] = "zz-no-such-action"
        _expect_divergence(bad, i, f"a record with action {i} changed to malformed text")


def check_determinism(
    game: Game, seed: int, actions: Sequence[Action], fingerprints: Mapping[int, str], log: bool = False
) -> None:
    """A fresh game from ``seed``, fed ``actions`` by text, has the fingerprint ``fingerprints[i]``
    after ``i`` actions (for each ``i`` given): the same seed and actions give the same states."""
    state = game.new(seed, log=log)
    if 0 in fingerprints and state.fingerprint() != fingerprints[0]:
        raise fail("determinism", f"two games from seed {seed} start in different states")
    for i, a in enumerate(actions, 1):
        state.apply(a.text)
        if i in fingerprints and state.fingerprint() != fingerprints[i]:
            raise fail("determinism", f"after action {i - 1} ({a.text!r}) the state differs from the first run")


# -- bad input ---------------------------------------------------------------------------------------


def _malformed_inputs(state: State) -> list[Any]:
    space = state.game.actions
    out: list[Any] = ["", "   ", "zz-no-such-kind", "zz-no-such-kind x=1", 42, None, b"done"]
    for kind, params in space.params.items():
        if params:
            p = params[0]
            rest = " ".join(f"{q}=0" for q in params[1:])
            out += [
                kind,  # missing parameter(s)
                f"{kind} {p}",  # not name=value
                f"{kind} {p}= {rest}",  # empty value
                f"{kind} {p}=zz-no-such-value {rest}",  # unknown value
                f"{kind} {p}=0 {p}=0 {rest}",  # duplicated parameter
                f"{kind} zz-no-such-param=1 {' '.join(f'{q}=0' for q in params)}",  # unknown parameter
            ]
        else:
            out += [f"{kind} zz=1", f"{kind} ="]
    return out


def _bad_seats(players: int) -> list[Any]:
    """Seat arguments that name no seat: out of range, negative, and values that are not ints."""
    return [players, -1, 10**30, True, False, 1.0, "0", "P1", b"0", [0]]


def _expect_refused(state: State, attempt: Callable[[], object], cls: type[Exception], what: str) -> None:
    """``attempt()`` must raise ``cls`` (and not a more specific action error) and change nothing."""
    snap = state.snapshot()
    legal = list(state.legal_actions())
    log_len = len(state.log) if state.log is not None else None
    try:
        attempt()
    except cls as exc:
        specific = [
            c for c in (MalformedAction, NotYourTurn, GameOver, InvalidSeat) if c is not cls and issubclass(c, cls)
        ]
        if any(isinstance(exc, c) for c in specific):
            raise fail("bad-input", f"{what}: raised {type(exc).__name__}, expected {cls.__name__}") from exc
        if not str(exc):
            raise fail("bad-input", f"{what}: {cls.__name__} with an empty message") from exc
        if len(str(exc)) > MESSAGE_LIMIT or "\n" in str(exc):
            raise fail(
                "bad-input", f"{what}: the message is not one bounded line ({len(str(exc))} characters)"
            ) from exc
    except Exception as exc:
        raise fail("bad-input", f"{what}: raised {type(exc).__name__} ({exc}), expected {cls.__name__}") from exc
    else:
        raise fail("bad-input", f"{what}: accepted, expected {cls.__name__}")
    if state.snapshot() != snap:
        raise fail("bad-input", f"{what}: the refused input changed the state: {_diff(snap, state.snapshot())}")
    if list(state.legal_actions()) != legal:
        raise fail("bad-input", f"{what}: the refused input changed the legal actions")
    if state.log is not None and len(state.log) != log_len:
        raise fail("bad-input", f"{what}: the refused input added events to the log")


def check_bad_input(state: State, rng: Rng, illegal_samples: int = 6) -> None:
    """Malformed text, unknown kinds and parameters, illegal actions of the action space, a wrong seat
    and actions after the end are refused with the right exception class and change nothing."""
    for bad in _malformed_inputs(state):
        _expect_refused(state, partial(state.apply, bad), MalformedAction, f"apply({bad!r})")
    items = state.game.actions.items
    if state.is_over:
        for a in [items[rng.below(len(items))] for _ in range(min(3, len(items)))]:
            _expect_refused(state, partial(state.apply, a), GameOver, f"apply({a.text!r}) after the end")
            _expect_refused(state, partial(state.apply, a.text), GameOver, f"apply({a.text!r}) as text after the end")
        return
    legal = state.legal_actions()
    illegal = [a for a in items if a not in legal]
    for _ in range(min(illegal_samples, len(illegal))):
        a = illegal[rng.below(len(illegal))]
        _expect_refused(state, partial(state.apply, a), IllegalAction, f"illegal apply({a.text!r})")
        _expect_refused(state, partial(state.apply, a.text), IllegalAction, f"illegal apply({a.text!r}) as text")
    _check_reasons(state, legal, illegal, rng, illegal_samples)
    a = legal[rng.below(len(legal))]
    for other in range(state.game.players):
        if other != state.current_player:
            _expect_refused(state, partial(state.apply, a, seat=other), NotYourTurn, f"apply({a.text!r}, seat={other})")
    for bad_seat in _bad_seats(state.game.players):
        _expect_refused(
            state, partial(state.apply, a, seat=bad_seat), InvalidSeat, f"apply({a.text!r}, seat={bad_seat!r})"
        )
    c = state.clone()
    try:
        c.apply(a.text, seat=state.current_player)
    except Exception as exc:
        raise fail("apply-legal", f"apply({a.text!r}, seat=current_player) raised {type(exc).__name__}: {exc}") from exc


def _check_reasons(state: State, legal: list[Action], illegal: list[Action], rng: Rng, samples: int) -> None:
    """A game that says why it refuses an action (it overrides ``State._why_illegal``) says it for
    every refused action of a kind it offers now: ``play card=7`` when other cards may be played is
    the refusal a player meets most and understands least from a list of what may be done."""
    if type(state)._why_illegal is State._why_illegal:
        return
    kinds = {x.kind for x in legal}
    near = [a for a in illegal if a.kind in kinds]
    for _ in range(min(samples, len(near))):
        a = near[rng.below(len(near))]
        if not state._why_illegal(a):
            raise fail(
                "bad-input",
                f"illegal apply({a.text!r}) is refused without a reason, though {a.kind} actions are legal now "
                "(the game explains other refusals: State._why_illegal)",
            )


# -- the driver --------------------------------------------------------------------------------------


@dataclass
class PlayoutReport:
    """What one checked playout did."""

    seed: int
    steps: int
    over: bool
    reason: str | None
    deep_states: int
    hidden_changed: list[bool]


@dataclass
class GameReport:
    """What :func:`check_game` did for one game and option set."""

    game_id: str
    options: dict[str, OptionValue]
    playouts: list[PlayoutReport] = field(default_factory=list)

    @property
    def steps(self) -> int:
        return sum(p.steps for p in self.playouts)


def _deep_indices(n: int, count: int, rng: Rng) -> set[int]:
    """The steps (0..n) at which the expensive checks run: the first, the last and ``count`` more."""
    chosen = {0, n}
    middle = list(range(1, n))
    rng.shuffle(middle)
    chosen.update(middle[:count])
    return chosen


def _deep_checks(
    state: State, rng: Rng, samples: int, rollout_steps: int, changed: list[bool], perturbations: int
) -> None:
    check_apply_all(state)
    check_clone(state, rng)
    for seat in range(state.game.players):
        seeds = [rng.below(1 << 30) for _ in range(samples)]
        if check_determinize(state, seat, seeds):
            changed[seat] = True
        for _ in range(perturbations):
            check_perturbation(state, seat, rng)
        # Search plays on from determinizations: they must be complete, playable states.
        d = state.determinize(seat, Rng(seeds[0]))
        rollout(d, rng, rollout_steps, "determinized-rollout")
        check_snapshot(d)
    check_bad_input(state, rng)


def _spread(n: int, count: int) -> set[int]:
    """About ``count`` steps spread evenly over ``0..n``, always with both ends."""
    stride = max(1, n // max(1, count))
    return set(range(0, n + 1, stride)) | {n}


def check_playout(
    game: Game,
    seed: int,
    *,
    max_steps: int = 2000,
    checked_steps: int = 160,
    deep_states: int = 10,
    samples: int = DEFAULT_SAMPLES,
    rollout_steps: int = 400,
    hidden_information: bool = True,
    perturbations: int = 2,
) -> PlayoutReport:
    """Play one seeded random game of ``game`` and check every promise along it.

    The playout is first played without a log (recording the actions and the legal lists), then
    replayed with a log. At every step the turn structure, the legal actions (same as in the first
    run) and the way actions are sent are checked; at about ``checked_steps`` steps spread over the
    game (every step of a short game) also the result, views, snapshot, fingerprints and leaks
    (events are checked for leaks in batches between those steps); at ``deep_states`` sampled steps
    plus the first and the last the expensive promises (apply every legal action, clone,
    determinize, ``perturbations`` perturbation checks per seat (twice as many at the first state),
    bad input, rollouts from determinizations). Records and replays are checked at the
    end. The game is cut after ``max_steps`` decisions. With ``hidden_information``, each seat must
    see some determinization change the hidden cards. Raises :class:`ConformanceError` naming the
    game, options, seed and step.
    """
    label = f"{game.id} [{config_label(game.options)}] seed={seed}"
    agent = Rng(seed * 7919 + 17)
    step = 0
    seats: list[int | None] = [*range(game.players), None]
    try:
        # Pass 1: without a log, to learn the path.
        first = game.new(seed, log=False)
        path: list[Action] = []
        legal_seen: list[list[int]] = []
        while not first.is_over and step < max_steps:
            legal = check_turn(first)
            legal_seen.append([a.index for a in legal])
            a = legal[agent.below(len(legal))]
            first.apply(a)
            path.append(a)
            step += 1
        n = len(path)
        checked = _spread(n, checked_steps)
        deep = _deep_indices(n, deep_states, Rng(seed ^ 0x5EED))
        check_rng = Rng(seed + 1_000_003)
        changed = [False] * game.players
        names = CardNames()
        fingerprints: dict[int, str] = {}
        last_events = 0
        # For the events checked in batches: what each reader knew at some step of the batch, and the
        # cards that stopped being private from it at some action of the batch.
        known_since: dict[int | None, set[int]] = {s: set() for s in seats}
        released: dict[int | None, set[int]] = {s: set() for s in seats}
        was_private: dict[int | None, set[int]] | None = None
        reshuffled: set[int] = set()
        public_before: set[int] | None = None
        events_from = 0
        # Pass 2: the same path with a log, checking as it goes.
        state = game.new(seed, log=True)
        turn = state.turn
        for step in range(n + 1):
            legal = check_turn(state)
            if state.turn < turn:
                raise fail("turn", f"the turn counter went back from {turn} to {state.turn}")
            turn = state.turn
            if step < n and [a.index for a in legal] != legal_seen[step]:
                raise fail("determinism", "the legal actions differ between a run with a log and one without")
            check_result(state)
            known = {s: state.known_cards(s) for s in seats}
            if public_before is not None and public_before - known[None] and state.log is not None:
                reshuffled.update(range(events_from, len(state.log)))
            public_before = known[None]
            is_private = {s: private_cards(known, s, game.players) for s in seats}
            for s in seats:
                known_since[s] |= known[s]
                if was_private is not None:
                    released[s] |= was_private[s] - is_private[s]
            was_private = is_private
            if step in checked or step in deep:
                fingerprints[step] = state.fingerprint()
                scans: dict[int | None, ViewScan] = {}
                views = check_views(state, scans)
                check_snapshot(state)
                check_no_leaks(state, names, views, last_events, known_since, released, reshuffled, scans)
                last_events = len(state.log) if state.log is not None else 0
                known_since = {s: set(known[s]) for s in seats}
                released = {s: set() for s in seats}
            if step in deep:
                first_state = step == 0
                _deep_checks(
                    state,
                    check_rng,
                    samples * 2 if first_state else samples,
                    rollout_steps,
                    changed,
                    perturbations * 2 if first_state else perturbations,
                )
            if step == n:
                break
            a = path[step]
            # Exercise every way of sending an action: the object, its text, with the seat named.
            sent: Action | str = a.text if step % 2 else a
            before = events_from = len(state.log) if state.log is not None else 0
            events = state.apply(sent, seat=state.current_player if step % 3 == 0 else None)
            if state.log is not None and list(events) != state.log[before:]:
                raise fail("events", "apply() did not return exactly the events it logged")
        if first.fingerprint() != state.fingerprint():
            raise fail("determinism", "the same actions end in different states with and without an event log")
        check_events(state)
        check_record_replay(state)
        check_tampered_records(state, check_rng, tries=1)
        check_determinism(game, seed, path, fingerprints)
        if hidden_information:
            for seat, seen in enumerate(changed):
                if not seen:
                    raise fail(
                        "determinize",
                        f"no determinization for seat {seat} changed any hidden card in this playout; pass "
                        "hidden_information=False for a game without hidden information",
                    )
    except ConformanceError as exc:
        raise ConformanceError(exc.check, f"{label} step={step}: {exc.problem}") from exc
    except Exception as exc:
        raise ConformanceError("crash", f"{label} step={step}: {type(exc).__name__}: {exc}") from exc
    return PlayoutReport(
        seed,
        n,
        state.is_over,
        state.result().reason if state.is_over else None,
        len(deep),
        changed,
    )


def check_game(
    game_id: str,
    options: Mapping[str, OptionValue] | None = None,
    seeds: Iterable[int] = (0, 1, 2),
    **settings: Any,
) -> GameReport:
    """Check ``game_id`` with ``options`` over one random playout per seed (see :func:`check_playout`
    for ``settings``). Raises :class:`ConformanceError`; returns a report of what was played."""
    opts = dict(options or {})
    game = cardtable.load(game_id, **opts)
    report = GameReport(game_id, opts)
    for seed in seeds:
        report.playouts.append(check_playout(game, seed, **settings))
    return report


# -- observers for machines (DESIGN.md, "Observations are for machines") ------------------------------

Observe = Callable[[State, int], Any]
"""A seat's observation of a state, as a vector (a NumPy array or a sequence of numbers)."""


def _vector(value: Any) -> Any:
    import numpy as np

    return np.asarray(value)


def _first_difference(mine: Any, theirs: Any) -> str:
    import numpy as np

    if mine.shape != theirs.shape:
        return f"shape {mine.shape} against {theirs.shape}"
    if mine.dtype != theirs.dtype:
        return f"dtype {mine.dtype} against {theirs.dtype}"
    where = np.flatnonzero(~((mine == theirs) | (np.isnan(mine) & np.isnan(theirs))))
    shown = ", ".join(f"[{i}] {mine[i]!r} vs {theirs[i]!r}" for i in where[:6])
    return f"{len(where)} position(s) differ: {shown}"


def _same_vector(mine: Any, theirs: Any) -> bool:
    import numpy as np

    return bool(
        mine.shape == theirs.shape and mine.dtype == theirs.dtype and np.array_equal(mine, theirs, equal_nan=True)
    )


def check_observer_equivalence(state: State, seat: int, observe: Observe, reference: Observe) -> Any:
    """The observer's vector for ``seat`` is exactly (shape, dtype, every bit) the reference's, and
    observing changes nothing in the state. Returns the vector."""
    before = state.snapshot()
    mine = _vector(observe(state, seat))
    theirs = _vector(reference(state, seat))
    if not _same_vector(mine, theirs):
        raise fail(
            "observer",
            f"seat {seat}'s observation differs from the reference encoding of its view: "
            f"{_first_difference(mine, theirs)}",
        )
    if state.snapshot() != before:
        raise fail("observer", f"observing seat {seat} changed the state")
    return mine


def check_observer_blind(state: State, seat: int, observe: Observe, seeds: Sequence[int]) -> bool:
    """``seat``'s observation is unchanged under ``determinize(seat, Rng(k))`` for every ``k`` in
    ``seeds``: it depends on nothing the seat cannot see. Returns whether some determinization
    changed the hidden part of the state (so the check was not vacuous)."""
    mine = _vector(observe(state, seat))
    hidden = hidden_part(state.snapshot())
    changed = False
    for k in seeds:
        d = state.determinize(seat, Rng(k))
        theirs = _vector(observe(d, seat))
        if not _same_vector(mine, theirs):
            raise fail(
                "observer-leak",
                f"seat {seat}'s observation changed under determinize({seat}, Rng({k})), which resamples only "
                f"what the seat cannot see: {_first_difference(mine, theirs)}",
            )
        changed = changed or hidden_part(d.snapshot()) != hidden
    return changed


def check_observer(
    game: Game,
    seed: int,
    observe: Observe,
    reference: Observe,
    *,
    max_steps: int = 2000,
    checked_steps: int = 40,
    samples: int = 2,
) -> list[bool]:
    """One seeded random playout of ``game``: at about ``checked_steps`` steps spread over it (both
    ends included), for every seat, the observer equals the reference
    (:func:`check_observer_equivalence`) and is blind to what the seat cannot see
    (:func:`check_observer_blind`, ``samples`` determinizations). Returns, per seat, whether some
    determinization changed the hidden part. Raises :class:`ConformanceError` naming the game,
    options, seed and step."""
    label = f"{game.id} [{config_label(game.options)}] seed={seed}"
    agent = Rng(seed * 7919 + 17)
    first = game.new(seed, log=False)
    path: list[Action] = []
    while not first.is_over and len(path) < max_steps:
        legal = first.legal_actions()
        a = legal[agent.below(len(legal))]
        first.apply(a)
        path.append(a)
    checked = _spread(len(path), checked_steps)
    samples_rng = Rng(seed ^ 0x0B5E)
    changed = [False] * game.players
    state = game.new(seed, log=False)
    step = 0
    try:
        for step in range(len(path) + 1):
            if step in checked:
                for seat in range(game.players):
                    check_observer_equivalence(state, seat, observe, reference)
                    seeds = [samples_rng.below(1 << 30) for _ in range(samples)]
                    changed[seat] |= check_observer_blind(state, seat, observe, seeds)
            if step < len(path):
                state.apply(path[step])
    except ConformanceError as exc:
        raise ConformanceError(exc.check, f"{label} step={step}: {exc.problem}") from exc
    return changed


def leaking_observer(observe: Observe) -> Observe:
    """A deliberately leaking observer, the positive control of the checks above: ``observe``'s
    vector with its first value replaced by a number derived from the hidden part of the state (the
    god view less the generator). :func:`check_observer_blind` must catch it wherever anything is
    hidden, and :func:`check_observer_equivalence` wherever that number differs from the true value."""
    import zlib

    import numpy as np

    def leaky(state: State, seat: int) -> Any:
        out = np.array(observe(state, seat), copy=True)
        secret = json.dumps(hidden_part(state.snapshot()), sort_keys=True)
        out[0] = np.float32(zlib.crc32(secret.encode()) % 1000 / 1000.0)
        return out

    return leaky


__all__ = [
    "CardNames",
    "ConformanceError",
    "GameReport",
    "PlayoutReport",
    "ViewScan",
    "card_objects",
    "cases",
    "check_apply_all",
    "check_bad_input",
    "check_clone",
    "check_determinism",
    "check_determinize",
    "check_events",
    "check_game",
    "check_json_ready",
    "check_no_leaks",
    "check_observer",
    "check_observer_blind",
    "check_observer_equivalence",
    "check_playout",
    "check_record_replay",
    "check_result",
    "check_snapshot",
    "check_tampered_records",
    "check_turn",
    "check_views",
    "config_label",
    "configurations",
    "hidden_part",
    "is_json_ready",
    "leaking_observer",
    "legacy_configurations",
    "private_cards",
    "rollout",
    "scan_view",
    "strings_in",
]
