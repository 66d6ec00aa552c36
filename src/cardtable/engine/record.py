"""Records that can be trusted years later, and replaying them.

A record is a JSON object::

    {"format": "cardtable-record/1", "game": "mephisto", "options": {...}, "seed": 7,
     "engine": "0.1.0", "config": "<hash of card data and options>", "cards": "<card data hash>",
     "actions": ["play card=3", ...], "hashes": ["<state hash after action 0>", ...],
     "result": {...} | null}

plus ``"card_edits": ["Witch.attack=10", ...]`` when the game was loaded with what-if card edits
(:mod:`cardtable.engine.card_edits`); a replay loads the game with the same edits.

:func:`replay` rebuilds the game and checks every hash. When the rules or the card data have changed
since the record was made, it raises :class:`ReplayDivergence` naming the first action where the
game differs, instead of silently producing a different game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from cardtable.engine.errors import (
    CardDataError,
    CardtableError,
    IllegalAction,
    OptionError,
    RecordError,
    ReplayDivergence,
    quoted,
)

if TYPE_CHECKING:
    from cardtable.engine.game import JSON, State
    from cardtable.engine.options import Option

FORMAT: Final = "cardtable-record/1"


def make_record(state: State) -> dict[str, JSON]:
    """The record of ``state``'s game so far (its hashes are computed by replaying from the seed)."""
    from cardtable import __version__
    from cardtable.engine.game import CONCEALED

    game = state.game
    if CONCEALED in state.history:
        raise RecordError("this state's history hides actions (a determinization's): it has no record")
    texts = state.actions_taken()
    probe = game.new(state.seed, log=False)
    hashes = []
    items = game.actions.items
    for index in state.history:
        probe.apply(items[index])
        hashes.append(probe.fingerprint())
    out: dict[str, JSON] = {
        "format": FORMAT,
        "game": game.id,
        "options": dict(game.options),
        "seed": state.seed,
        "engine": __version__,
        "config": game.config_hash,
        "cards": game.card_hash,
        "actions": texts,
        "hashes": hashes,
        "result": state.result().to_json() if state.is_over else None,
    }
    if game.card_edits:
        out["card_edits"] = list(game.card_edits)
    return out


def _check_shape(record: Any) -> None:
    """Raise :class:`RecordError` unless ``record`` has every field a record needs, of the right type."""
    if not isinstance(record, Mapping):
        raise RecordError(f"a record must be a JSON object, got {type(record).__name__}")
    if record.get("format") != FORMAT:
        raise RecordError(f"not a cardtable record (format {quoted(record.get('format'))}, expected {FORMAT!r})")
    for key, kind in (("game", str), ("options", dict), ("seed", int), ("actions", list)):
        value = record.get(key)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise RecordError(f"record field {key!r} is missing or not a {_JSON_NAMES[kind]}")
    if not all(isinstance(k, str) for k in record["options"]):
        raise RecordError("record field 'options' must map option names (text) to values")
    for i, text in enumerate(record["actions"]):
        if not isinstance(text, str):
            raise RecordError(f"record action {i} is not text: a {type(text).__name__}")
    hashes = record.get("hashes")
    if hashes is not None:
        if not isinstance(hashes, list) or len(hashes) != len(record["actions"]):
            raise RecordError("record field 'hashes' must list one state hash per action")
        if not all(isinstance(h, str) for h in hashes):
            raise RecordError("record field 'hashes' must hold text hashes")
    for key in ("cards", "config", "engine"):
        if record.get(key) is not None and not isinstance(record[key], str):
            raise RecordError(f"record field {key!r} must be text")
    edits = record.get("card_edits")
    if edits is not None and (not isinstance(edits, list) or not all(isinstance(e, str) for e in edits)):
        raise RecordError("record field 'card_edits' must list card edits as text")
    result = record.get("result")
    if result is not None and not isinstance(result, dict):
        raise RecordError("record field 'result' must be an object or null")


_JSON_NAMES = {str: "text", dict: "JSON object", int: "whole number", list: "list"}


def replay(record: object, *, verify: object = True, log: object = True, upto: int | None = None) -> State:
    """Rebuild the game a record describes and return its state after the last (or ``upto``) action.

    With ``verify`` (the default) the record must carry a state hash for every action, each must
    match the replayed state, and a stored ``result`` must be the replayed game's: a record without
    hashes raises :class:`RecordError` (it cannot be verified; pass ``verify=False`` to accept it
    unverified), and the first mismatch or illegal action raises :class:`ReplayDivergence` saying where
    and, when the card data, options or engine differ from the record's, which of them changed. A
    record made with other card data (its card or config hash differs) raises even when every state
    hash matches, naming the index where replay stopped, since card stats are not part of a state
    hash. ``verify=False`` checks only that every action is legal. Anything that is not a record
    object is a :class:`RecordError`; ``verify`` and ``log`` are read for their truth.
    """
    from cardtable import __version__, load

    _check_shape(record)
    assert isinstance(record, Mapping)
    verify = bool(verify)
    actions = record["actions"]
    hashes = record.get("hashes")
    if verify and hashes is None and actions:
        raise RecordError(
            "the record has no state hashes, so it cannot be verified "
            "(replay it unverified: `cardtable replay --unverified FILE`, or verify=False in Python)"
        )
    try:
        game = load(record["game"], card_edits=record.get("card_edits") or (), **_with_legacy(record))
    except (OptionError, CardDataError) as unloadable:
        raise ReplayDivergence(0, f"the record's game or options cannot be loaded now: {unloadable}") from unloadable
    changes = []
    if record.get("cards") not in (None, game.card_hash):
        changes.append("the card data changed since the record was made")
    if record.get("config") not in (None, game.config_hash):
        changes.append("the card data or options hash differs")
    data_changed = bool(changes)
    if record.get("engine") not in (None, __version__):
        changes.append(f"it was made by engine {str(record.get('engine'))[:20]}, this is {__version__}")
    why = (" (" + "; ".join(changes) + ")") if changes else ""
    state = game.new(record["seed"], log=log)
    check = hashes if verify else None
    stop = len(actions) if upto is None else max(0, min(upto, len(actions)))
    for i in range(stop):
        text = actions[i]
        try:
            state.apply(text)
        except IllegalAction as illegal:
            raise ReplayDivergence(i, f"record diverges at action {i} ({quoted(text)}): {illegal}{why}") from illegal
        if check is not None and state.fingerprint() != check[i]:
            raise ReplayDivergence(
                i,
                f"record diverges at action {i} ({quoted(text)}): the state after it differs from the recorded "
                f"one{why}",
            )
    if verify and data_changed:
        # Equal states do not prove an equal game: card stats are not part of a snapshot.
        raise ReplayDivergence(
            stop,
            f"record replays to its recorded states up to action {stop}, but it cannot be verified{why}; "
            "replay it unverified to accept it anyway (`cardtable replay --unverified FILE`, or verify=False in "
            "Python)",
        )
    if verify and stop == len(actions):
        _check_result(record, state, why)
    return state


def _with_legacy(record: Mapping[str, Any]) -> dict[str, Any]:
    """The record's options, with each option added to its game since the record was made (one the
    record does not name and that declares a ``legacy`` value) set to that value: the rules the
    record was played by."""
    from cardtable.games import game_class

    options = dict(record["options"])
    try:
        declared: tuple[Option, ...] = getattr(game_class(str(record["game"])), "OPTIONS", ())
    except (CardtableError, KeyError):
        return options  # an unknown game: load() says so
    for option in declared:
        if option.legacy is not None and option.name not in options:
            options[option.name] = option.legacy
    return options


def _check_result(record: Mapping[str, Any], state: State, why: str) -> None:
    """The record's stored ``result`` must be the replayed game's (null while it is not over)."""
    n = len(record["actions"])
    stored = record.get("result")
    if state.is_over:
        actual = state.result().to_json()
        if stored is None:
            raise ReplayDivergence(n, f"the game is over after {n} actions but the record stores no result{why}")
        if stored != actual:
            raise ReplayDivergence(n, f"the record's stored result differs from the replayed game's result{why}")
    elif stored is not None:
        raise ReplayDivergence(n, f"the record stores a result but the game is not over after {n} actions{why}")
