"""Records that can be trusted years later, and replaying them.

A record is a JSON object::

    {"format": "cardtable-record/1", "game": "mephisto", "options": {...}, "seed": 7,
     "engine": "0.1.0", "config": "<hash of card data and options>", "cards": "<card data hash>",
     "actions": ["play card=3", ...], "hashes": ["<state hash after action 0>", ...],
     "result": {...} | null}

:func:`replay` rebuilds the game and checks every hash. When the rules or the card data have changed
since the record was made, it raises :class:`ReplayDivergence` naming the first action where the
game differs, instead of silently producing a different game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from cardtable.engine.errors import CardtableError, IllegalAction, OptionError, ReplayDivergence

if TYPE_CHECKING:
    from cardtable.engine.game import JSON, State

FORMAT = "cardtable-record/1"


def make_record(state: State) -> dict[str, JSON]:
    """The record of ``state``'s game so far (its hashes are computed by replaying from the seed)."""
    from cardtable import __version__

    game = state.game
    texts = state.actions_taken()
    probe = game.new(state.seed, log=False)
    hashes = []
    items = game.actions.items
    for index in state.history:
        probe.apply(items[index])
        hashes.append(probe.fingerprint())
    return {
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


def _check_shape(record: Any) -> None:
    if not isinstance(record, Mapping):
        raise CardtableError(f"a record must be a JSON object, got {type(record).__name__}")
    if record.get("format") != FORMAT:
        raise CardtableError(f"not a cardtable record (format {record.get('format')!r}, expected {FORMAT!r})")
    for key, kind in (("game", str), ("options", dict), ("seed", int), ("actions", list)):
        if not isinstance(record.get(key), kind):
            raise CardtableError(f"record field {key!r} is missing or not a {kind.__name__}")
    hashes = record.get("hashes")
    if hashes is not None and (not isinstance(hashes, list) or len(hashes) != len(record["actions"])):
        raise CardtableError("record field 'hashes' must list one hash per action")


def replay(record: Mapping[str, Any], *, verify: bool = True, log: bool = True, upto: int | None = None) -> State:
    """Rebuild the game a record describes and return its state after the last (or ``upto``) action.

    With ``verify`` (the default), the state hash after each action must match the record's; the
    first mismatch or illegal action raises :class:`ReplayDivergence` saying where and, when the
    card data, options or engine differ from the record's, which of them changed. A record made with
    other card data (its card or config hash differs) raises even when every state hash matches,
    naming the index where replay stopped, since card stats are not part of a state hash.
    """
    from cardtable import __version__, load

    _check_shape(record)
    try:
        game = load(record["game"], **record["options"])
    except OptionError as exc:
        raise ReplayDivergence(0, f"the record's game or options cannot be loaded now: {exc}") from exc
    changes = []
    if record.get("cards") not in (None, game.card_hash):
        changes.append("the card data changed since the record was made")
    if record.get("config") not in (None, game.config_hash):
        changes.append("the card data or options hash differs")
    data_changed = bool(changes)
    if record.get("engine") not in (None, __version__):
        changes.append(f"it was made by engine {record.get('engine')}, this is {__version__}")
    why = (" (" + "; ".join(changes) + ")") if changes else ""
    state = game.new(record["seed"], log=log)
    actions = record["actions"]
    hashes = record.get("hashes") if verify else None
    stop = len(actions) if upto is None else max(0, min(upto, len(actions)))
    for i in range(stop):
        text = actions[i]
        try:
            state.apply(text)
        except IllegalAction as exc:
            raise ReplayDivergence(i, f"record diverges at action {i} ({text!r}): {exc}{why}") from exc
        if hashes is not None and state.fingerprint() != hashes[i]:
            raise ReplayDivergence(
                i, f"record diverges at action {i} ({text!r}): the state after it differs from the recorded one{why}"
            )
    if verify and data_changed:
        # Equal states do not prove an equal game: card stats are not part of a snapshot.
        raise ReplayDivergence(
            stop,
            f"record replays to its recorded states up to action {stop}, but it cannot be verified{why}; "
            "replay with verify=False to accept it anyway",
        )
    return state
