"""The registry of games. Each game is a package here; it is imported only when first loaded."""

from __future__ import annotations

import importlib
import importlib.util
import os
from collections.abc import Callable, Mapping
from typing import Any

from cardtable.engine.card_edits import canonical_edits, note_edits
from cardtable.engine.errors import CardtableError, OptionError, did_you_mean
from cardtable.engine.game import Game
from cardtable.engine.options import validate_options

# id -> "module:Class", imported lazily so that loading one game never imports another.
_BUILTIN: dict[str, str] = {
    "mephisto": "cardtable.games.mephisto.game:Mephisto",
    "doctor-strange": "cardtable.games.doctor_strange.game:DoctorStrange",
    "army-of-darkness": "cardtable.games.army_of_darkness.game:ArmyOfDarkness",
    "mr-card-game": "cardtable.games.mr_card_game.game:MrCardGame",
}
_EXTRA: dict[str, Callable[..., Game]] = {}
_CACHE: dict[tuple[str, tuple[tuple[str, Any], ...], tuple[tuple[str, int, int], ...], tuple[str, ...]], Game] = {}


def register(game_id: str, factory: Callable[..., Game]) -> None:
    """Register a game class (or factory) under ``game_id`` (for plug-ins and tests)."""
    _EXTRA[game_id] = factory


def canonical_id(game_id: str) -> str:
    """``game_id`` as the registry spells it: ids are matched in any case, ``_`` for ``-``
    (``Mephisto``, ``mr_card_game``). Raises :class:`OptionError` for an unknown game, with a
    "did you mean" for a near miss."""
    if game_id in _EXTRA or game_id in _BUILTIN:
        return game_id
    wanted = game_id.strip().lower().replace("_", "-") if isinstance(game_id, str) else ""
    for known in (*_BUILTIN, *_EXTRA):
        if known.lower() == wanted:
            return known
    shown = repr(game_id[:60]) if isinstance(game_id, str) else repr(game_id)
    raise OptionError(f"unknown game {shown}{did_you_mean(wanted, available())}; known games: {', '.join(available())}")


def game_class(game_id: str) -> Callable[..., Game]:
    game_id = canonical_id(game_id)
    if game_id in _EXTRA:
        return _EXTRA[game_id]
    target = _BUILTIN[game_id]
    module, _, name = target.partition(":")
    try:
        cls: Callable[..., Game] = getattr(importlib.import_module(module), name)
    except ModuleNotFoundError as exc:
        raise OptionError(f"game {game_id!r} is not installed in this build ({exc})") from exc
    return cls


def builtin() -> list[str]:
    """Ids of the games that ship with cardtable (not plug-ins or test games)."""
    return list(_BUILTIN)


def available() -> list[str]:
    """Ids of every game that can be loaded."""
    ids = []
    for game_id, target in _BUILTIN.items():
        module = target.partition(":")[0]
        if importlib.util.find_spec(module.rsplit(".", 1)[0]) is not None:
            ids.append(game_id)
    return ids + sorted(_EXTRA)


def _file_stamps(options: Mapping[str, Any]) -> tuple[tuple[str, int, int], ...]:
    """Modification stamps of option values that name files (card files), so an edited file reloads."""
    stamps = []
    for value in options.values():
        if isinstance(value, str) and value:
            try:
                st = os.stat(value)
            except (OSError, ValueError):
                continue
            stamps.append((value, st.st_mtime_ns, st.st_size))
    return tuple(stamps)


def load(game_id: str, *, card_edits: object = (), **options: Any) -> Game:
    """The game ``game_id`` (in any case) with ``options`` (validated). Loaded games are cached and
    immutable.

    ``card_edits`` are what-if edits of the game's card data (a list of texts like
    ``"Witch.attack=10"``, see :mod:`cardtable.engine.card_edits`): the cards load with those numbers
    changed, validated as a card file is. An error an edit causes says which edit.
    """
    game_id = canonical_id(game_id)
    cls = game_class(game_id)
    spec = getattr(cls, "OPTIONS", None)
    # Key the cache on the validated options, so "2" and 2 give the very same Game (and Action objects).
    checked = validate_options(game_id, spec, options) if spec is not None else options
    edits = canonical_edits(game_id, card_edits)
    key = (game_id, tuple(sorted(checked.items())), _file_stamps(checked), edits)
    game = _CACHE.get(key)
    if game is None:
        try:
            # Only an edited game passes edits, so a plug-in game class need not know about them.
            game = cls(card_edits=edits, **options) if edits else cls(**options)
        except CardtableError as exc:
            if edits:
                note_edits(exc, edits)
            raise
        _CACHE[key] = game
    return game


def load_arguments(game: Game) -> dict[str, Any]:
    """The keyword arguments that load ``game`` again (``load(game.id, **load_arguments(game))``): its
    options, plus ``card_edits`` when it was loaded with any. JSON-ready, for storing a game's identity."""
    out: dict[str, Any] = dict(game.options)
    if game.card_edits:
        out["card_edits"] = list(game.card_edits)
    return out
