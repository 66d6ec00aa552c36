"""The play protocol's messages: what a client may send, checked before anything looks at it.

Every client message is one JSON object, at most :data:`MAX_MESSAGE` bytes, with a ``type`` and the
client's last known state id ``state`` (an integer, or null for a client that has seen nothing yet):

=========== =========================================================================================
``hello``   ``{"type": "hello", "state": N|null, "events": K|null, "token": "..."|null}`` — join the
            table as the seat whose token this is (no token: a spectator); the server answers with a
            ``state`` frame holding the events from ``K`` on (the ones the client missed).
``action``  ``{"type": "action", "state": N, "action": "play card=17"}`` — the action's text.
``undo``    ``{"type": "undo", "state": N, "count": 1}`` — take back own decisions (``undoable``).
``rematch`` ``{"type": "rematch", "state": N}`` — after the end: a new table, same game and seats.
``sync``    ``{"type": "sync", "state": N|null, "events": K|null}`` — send the table again.
``ping``    ``{"type": "ping", "state": N|null}`` — answered with ``pong`` (keeps proxies awake).
=========== =========================================================================================

The server sends ``state`` frames (see :meth:`cardtable.web.live.LiveTable.frame`), ``seats`` (who
sits where and is connected, when only that changed), ``thinking``
(a bot started deciding), ``error`` (``code``, ``message``, the table's ``state``: to the sender
only, nothing changed), ``rematch`` (the new table and this client's token there) and ``pong``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import orjson

from cardtable.engine.errors import quoted
from cardtable.web.live import ProtocolError

MAX_MESSAGE = 4096
"""Longest client message accepted, in bytes: an action text is at most 200 characters."""

TYPES = ("hello", "action", "undo", "rematch", "sync", "ping")
_FIELDS: dict[str, frozenset[str]] = {
    "hello": frozenset({"type", "state", "events", "token"}),
    "action": frozenset({"type", "state", "action"}),
    "undo": frozenset({"type", "state", "count"}),
    "rematch": frozenset({"type", "state"}),
    "sync": frozenset({"type", "state", "events"}),
    "ping": frozenset({"type", "state"}),
}
_STATE_REQUIRED = frozenset({"action", "undo", "rematch"})


@dataclass(frozen=True)
class Message:
    type: str
    state: int | None
    events: int | None = None
    token: str | None = None
    action: str = ""
    count: int = 1


def _int_or_none(data: dict[str, Any], key: str, required: bool) -> int | None:
    value: Any = data.get(key)
    if value is None:
        if required:
            raise ProtocolError("bad-message", f"a {data['type']!r} message needs {key!r}: your last known state id")
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**53:
        raise ProtocolError("bad-message", f"{key!r} must be a whole number from 0, got {quoted(value)}")
    return int(value)


def parse(raw: str | bytes) -> Message:
    """The message in ``raw``, or :class:`ProtocolError` saying what is wrong with it."""
    size = len(raw.encode("utf-8", "surrogatepass")) if isinstance(raw, str) else len(raw)
    if size > MAX_MESSAGE:
        raise ProtocolError("too-large", f"message too large: {size} bytes, at most {MAX_MESSAGE}")
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ProtocolError("bad-json", f"malformed JSON: {str(exc)[:80]}") from None
    if not isinstance(data, dict):
        raise ProtocolError("bad-message", f"a message must be a JSON object, got a {type(data).__name__}")
    kind = data.get("type")
    if kind not in TYPES:
        raise ProtocolError("unknown-type", f"unknown message type {quoted(kind)}; the types are {', '.join(TYPES)}")
    extra = sorted(str(k) for k in set(data) - _FIELDS[kind])
    if extra:
        raise ProtocolError("bad-message", f"a {kind!r} message has no field {quoted(extra[0])}")
    state = _int_or_none(data, "state", kind in _STATE_REQUIRED)
    if "state" not in data:
        raise ProtocolError("bad-message", f"a {kind!r} message needs 'state': your last known state id (or null)")
    events = _int_or_none(data, "events", False)
    token = data.get("token")
    if token is not None and (not isinstance(token, str) or not token or len(token) > 100):
        raise ProtocolError("bad-token", "the seat token must be text (the one in your seat link)")
    action = data.get("action", "")
    if kind == "action" and (not isinstance(action, str) or not action.strip()):
        raise ProtocolError("bad-message", f"'action' must be the action's text, got {quoted(action)}")
    count = data.get("count", 1)
    if kind == "undo" and (isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 1000):
        raise ProtocolError("bad-message", f"'count' must be a whole number from 1, got {quoted(count)}")
    return Message(kind, state, events, token, action if isinstance(action, str) else "", count)


def encode(payload: Any) -> str:
    """``payload`` as compact JSON text: what goes out on a WebSocket.

    orjson: a frame (a view of a few kilobytes) encodes six times faster than with the standard
    library, and every move sends one per connected seat. Anything orjson refuses (an integer beyond
    64 bits, a key that is no string nor number) falls back to :mod:`json`, which says what is wrong."""
    try:
        return orjson.dumps(payload, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return json.dumps(payload, separators=(",", ":"))


def error(code: str, message: str, state: int | None) -> dict[str, Any]:
    """The ``error`` frame: for the sender only."""
    return {"type": "error", "code": code, "message": " ".join(message.split())[:300], "state": state}
