"""Observers: a seat's observation written straight from the state into a NumPy buffer, for speed.

An observation is defined by its game's *encoder* (:mod:`cardtable.rl.encode`): the encoding of
``state.view(seat)``, the table as a person in that seat sees it. Building that view (card objects,
words, totals) costs several engine decisions, so the environments do not: each game has an
*observer* here (``cardtable.rl.observe.<game id with _>``) that reads the state and writes the same
numbers into a preallocated ``float32`` buffer, with the same layout (DESIGN.md, "Observations are
for machines").

The encoding of the view stays the reference. The conformance harness
(:func:`cardtable.testing.conformance.check_observer`) proves on random states of every
configuration that an observer's vector equals the reference encoding, and that it is unchanged under
``determinize(seat, ...)``, with a deliberately leaking observer as the positive control: hidden
information is then absent by proof rather than by construction. Nothing for people reads an
observer.

**How an observer writes.** A game's observer fills a buffer section by section (the seat's hand,
the discard pile, each seat's numbers, the dungeon, ...). Each section first works out a cheap *key*
of what it reads (the list of cards in a zone, a few numbers); writing into a buffer it filled
before (a :class:`Tracker`, which the environments keep per seat), a section whose key is unchanged
is skipped, and a changed one clears what it wrote last time and writes anew. Between two decisions
most of a vector stays the same, and a Python write into a NumPy array costs more than comparing a
key. :meth:`Observer.write` is the same code on a zeroed buffer with nothing remembered. A section's
output must be a function of its key alone (plus the seat, fixed per tracker), so the incremental
path gives the same vector as a fresh write whatever state comes next; a property test checks it at
every step of random games, switching states and seats on purpose.

Army of Darkness goes further: its state keeps a *change list* once an observer asks for one
(``AodState.changes``: every card that entered or left a zone, every seat whose side or reduction
state changed), and its observer writes a buffer in full once per state, then only what the list
says changed since. Such a buffer can only go on with the state whose list it follows; given any
other state it is zeroed and written afresh.

A game without an observer of its own (a plug-in, the generic hashed encoder) is observed through
:class:`ViewObserver`, the reference path itself.

An observer reads the game's state attributes, which belong to the game's rules modules: a renamed
attribute fails the equivalence test, never silently.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from typing import Any

from cardtable.engine.game import Game
from cardtable.rl.encode import Encoder, encoder_for
from cardtable.rl.observe.base import Buffer, Memo, Observer, Tracker, ViewObserver, clip

__all__ = [
    "Buffer",
    "Memo",
    "Observer",
    "Tracker",
    "ViewObserver",
    "clip",
    "dedicated",
    "observer_for",
    "register_observer",
]

ObserverFactory = Callable[[Encoder], Observer]

_BUILTIN: dict[str, str] = {
    "mephisto": "cardtable.rl.observe.mephisto:MephistoObserver",
    "doctor-strange": "cardtable.rl.observe.doctor_strange:DoctorStrangeObserver",
    "army-of-darkness": "cardtable.rl.observe.army_of_darkness:ArmyOfDarknessObserver",
    "mr-card-game": "cardtable.rl.observe.mr_card_game:MrCardGameObserver",
}
_EXTRA: dict[str, ObserverFactory] = {}

OBSERVE_KINDS = ("auto", "state", "view")


def register_observer(game_id: str, factory: ObserverFactory) -> None:
    """Use ``factory(encoder) -> Observer`` for ``game_id`` (plug-in games). Prove it with
    :func:`cardtable.testing.conformance.check_observer` before trusting it."""
    _EXTRA[game_id] = factory


def dedicated(game_id: str) -> bool:
    """Whether ``game_id`` has an observer of its own."""
    return _factory(game_id) is not None


def observer_for(game: Game, encoder: str | Encoder = "auto", observe: str = "auto") -> Observer:
    """The observer of a loaded game.

    ``encoder``: an encoder, or its kind for :func:`~cardtable.rl.encode.encoder_for`. ``observe``:
    ``"auto"`` (the game's own observer when it has one and the encoder is the game's own, else the
    reference path), ``"state"`` (the game's own observer; an error if there is none) or ``"view"``
    (the reference path: encode the view, the slow way)."""
    if observe not in OBSERVE_KINDS:
        raise ValueError(f"observe must be one of {', '.join(OBSERVE_KINDS)}, got {observe!r}")
    enc = encoder if isinstance(encoder, Encoder) else encoder_for(game, encoder)
    if observe == "view":
        return ViewObserver(enc)
    factory = _factory(game.id) if enc.game_id == game.id else None
    if factory is None:
        if observe == "state":
            raise ValueError(
                f"game {game.id!r} has no observer of its own for the {type(enc).__name__}; use observe='view'"
            )
        return ViewObserver(enc)
    return factory(enc)


def _factory(game_id: str) -> ObserverFactory | None:
    if game_id in _EXTRA:
        return _EXTRA[game_id]
    target = _BUILTIN.get(game_id)
    if target is None:
        return None
    module, _, name = target.partition(":")
    if importlib.util.find_spec(module) is None:
        return None
    cls: Any = getattr(importlib.import_module(module), name)
    factory: ObserverFactory = cls
    return factory
