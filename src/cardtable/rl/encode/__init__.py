"""Observation encoders: ``view(seat)`` → a fixed-size float32 vector with a documented layout.

An encoder reads the seat's view and nothing else (never the state), so hidden information is absent
by construction: whatever the seat may not see is not in its view, and so not in its observation.
Each game has its own encoder module here (``cardtable.rl.encode.<game_id with _>``) that knows the
view's zones; a game without one (a plug-in, or a game newer than its encoder) gets the
:class:`~cardtable.rl.encode.generic.HashedEncoder`, which reads any view that follows the
"views are for people" conventions.

Every encoder starts with the same block of engine keys (:meth:`Encoder._build_common`): the observing
seat, who decides now (relative to the observer: 0 is "me", 1 the next seat, ...), whether the game is
over and how far it has gone. Per-seat blocks are in the same relative order, so a policy sees every
seat of the table from its own chair.

``docs/rl.md`` shows every game's layout (printed by ``python -m cardtable.rl.encode``).
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

import numpy as np

from cardtable.engine.game import JSON, Game
from cardtable.rl.encode.layout import Block, Layout, Vector

__all__ = ["Block", "Encoder", "Layout", "Vector", "encoder_for", "register_encoder"]


class Encoder:
    """Turns a seat's view into a vector of ``layout.size`` float32 values within ``[low, high]``.

    Subclasses set :attr:`game_id`, declare their blocks in :meth:`build` and write them in
    :meth:`fill` (into a zeroed vector). The contract, checked by ``tests/rl``: the output depends
    only on the view; views that are equal give equal vectors; every value lies within its block's
    bounds (the base class clips); the size never changes for a loaded game.
    """

    game_id: ClassVar[str] = ""
    TURN_SCALE: ClassVar[float] = 100.0
    """Turns at which the ``turn`` feature reaches 1 (it is clipped there)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.players = game.players
        self.layout = Layout()
        self._build_common()
        self.build(self.layout)
        self.low, self.high = self.layout.bounds()
        self.size = self.layout.size

    # -- to implement ------------------------------------------------------------------------------
    def build(self, layout: Layout) -> None:
        """Declare the game's blocks (after the common ones)."""
        raise NotImplementedError

    def fill(self, view: Mapping[str, JSON], out: Vector, me: int) -> None:
        """Write the game's blocks for ``view``, the view of seat ``me``, into the zeroed ``out``."""
        raise NotImplementedError

    # -- common ------------------------------------------------------------------------------------
    def _build_common(self) -> None:
        n = self.players
        layout = self.layout
        self.b_seat = layout.add("seat", n, "one-hot: the observing seat, in seat order")
        self.b_to_act = layout.add(
            "to_act",
            n,
            "one-hot: the seat that decides now, relative to the observer (0 = the observer); "
            "all 0 once the game is over",
        )
        self.b_over = layout.add("is_over", 1, "1 when the game is over")
        self.b_turn = layout.add("turn", 1, f"the game's turn counter / {self.TURN_SCALE:g}, at most 1")

    def rel(self, seat: int, me: int) -> int:
        """``seat`` as seen from ``me``: 0 is ``me``, 1 the next seat, and so on."""
        return (seat - me) % self.players

    def encode(self, view: Mapping[str, JSON]) -> Vector:
        """The observation vector for a seat's view (``state.view(seat)`` with a seat, not ``None``)."""
        me = view["seat"]
        if not isinstance(me, int) or isinstance(me, bool):
            raise ValueError("an observation is encoded from a seat's view, not the spectator's (view(None))")
        out = np.zeros(self.size, dtype=np.float32)
        out[self.b_seat.start + me] = 1.0
        current = view["current_player"]
        if isinstance(current, int) and not isinstance(current, bool):
            out[self.b_to_act.start + self.rel(current, me)] = 1.0
        if view["is_over"]:
            out[self.b_over.start] = 1.0
        out[self.b_turn.start] = float(view["turn"]) / self.TURN_SCALE
        self.fill(view, out, me)
        # np.clip's Python wrapper costs more than the work on a few thousand floats: the two ufuncs
        # give the same result (NaN stays NaN) in a third of the time.
        np.minimum(out, self.high, out=out)
        np.maximum(out, self.low, out=out)
        return out


EncoderFactory = Callable[[Game], Encoder]

_BUILTIN: dict[str, str] = {
    "mephisto": "cardtable.rl.encode.mephisto:MephistoEncoder",
    "doctor-strange": "cardtable.rl.encode.doctor_strange:DoctorStrangeEncoder",
    "army-of-darkness": "cardtable.rl.encode.army_of_darkness:ArmyOfDarknessEncoder",
    "mr-card-game": "cardtable.rl.encode.mr_card_game:MrCardGameEncoder",
}
_EXTRA: dict[str, EncoderFactory] = {}


def register_encoder(game_id: str, factory: EncoderFactory) -> None:
    """Use ``factory(game) -> Encoder`` for ``game_id`` (plug-in games, tests)."""
    _EXTRA[game_id] = factory


def dedicated(game_id: str) -> bool:
    """Whether ``game_id`` has an encoder of its own (else it gets the hashed generic one)."""
    if game_id in _EXTRA:
        return True
    target = _BUILTIN.get(game_id)
    if target is None:
        return False
    return importlib.util.find_spec(target.partition(":")[0]) is not None


def encoder_for(game: Game, kind: str = "auto") -> Encoder:
    """The observation encoder for a loaded game.

    ``kind``: ``"auto"`` (the game's own encoder, else the generic one), ``"game"`` (the game's own,
    an error if it has none) or ``"generic"`` (the hashed generic encoder, for any game).
    """
    if kind not in ("auto", "game", "generic"):
        raise ValueError(f"encoder must be 'auto', 'game' or 'generic', got {kind!r}")
    if kind != "generic":
        factory = _factory(game.id)
        if factory is not None:
            return factory(game)
        if kind == "game":
            raise ValueError(f"game {game.id!r} has no observation encoder of its own; use encoder='generic'")
    from cardtable.rl.encode.generic import HashedEncoder

    return HashedEncoder(game)


def _factory(game_id: str) -> EncoderFactory | None:
    if game_id in _EXTRA:
        return _EXTRA[game_id]
    target = _BUILTIN.get(game_id)
    if target is None:
        return None
    module, _, name = target.partition(":")
    try:
        cls: Any = getattr(importlib.import_module(module), name)
    except ModuleNotFoundError as exc:
        if exc.name != module:
            raise  # the encoder's module exists but is broken: say so rather than fall back
        return None
    factory: EncoderFactory = cls
    return factory
