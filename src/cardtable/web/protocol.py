"""The play protocol's messages: what a client may send, checked before anything looks at it.

Every client message is one JSON object, at most :data:`MAX_MESSAGE` bytes (``--max-message``) and
nested no deeper than a flat object, with a ``type``, the client's last known state id ``state`` (an
integer, or null for a client that has seen nothing yet) and, optionally, a request ``id`` (text of at
most 64 characters or a whole number) that the server's answer to it names:

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

Request ids: a ``state`` frame that includes the effect of a client's own message carries
``"acks": [id, ...]`` (to that client only), and an ``error`` answering a message carries its ``"id"``.
A client that races another for a move thus knows for certain whether the frame it got is its own
move's acknowledgement: the loser gets an ``error`` with its id (``stale``) and frames without it.
Clients that send no ids get neither (the protocol is unchanged for them).
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

MAX_ID = 64
"""Longest request id (text) accepted."""

TYPES = ("hello", "action", "undo", "rematch", "sync", "ping")
_FIELDS: dict[str, frozenset[str]] = {
    "hello": frozenset({"type", "state", "events", "token", "id"}),
    "action": frozenset({"type", "state", "action", "id"}),
    "undo": frozenset({"type", "state", "count", "id"}),
    "rematch": frozenset({"type", "state", "id"}),
    "sync": frozenset({"type", "state", "events", "id"}),
    "ping": frozenset({"type", "state", "id"}),
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
    id: str | int | None = None


def _int_or_none(data: dict[str, Any], key: str, required: bool) -> int | None:
    value: Any = data.get(key)
    if value is None:
        if required:
            raise ProtocolError("bad-message", f"a {data['type']!r} message needs {key!r}: your last known state id")
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**53:
        raise ProtocolError("bad-message", f"{key!r} must be a whole number from 0, got {quoted(value)}")
    return int(value)


def depth(value: Any) -> int:
    """How deeply arrays and objects nest in ``value`` (a scalar: 0), without recursion."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        elif not isinstance(item, list):
            continue
        level += 1
        deepest = max(deepest, level)
        stack.extend((child, level) for child in item if isinstance(child, (dict, list)))
    return deepest


def loads(raw: str | bytes, max_depth: int) -> Any:
    """JSON text to a value, nested at most ``max_depth`` deep, else ``ValueError`` saying why.

    orjson parses (in C, without Python recursion: it refuses more than 1,024 levels itself), so a
    message nested thousands deep costs microseconds and never a ``RecursionError``."""
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        text = str(exc)
        if "recursion" in text.lower():
            raise ValueError(f"nested deeper than {max_depth} level(s)") from None
        raise ValueError(f"malformed JSON: {text[:80]}") from None
    if depth(data) > max_depth:
        raise ValueError(f"nested deeper than {max_depth} level(s)")
    return data


def parse(raw: str | bytes, max_size: int = MAX_MESSAGE) -> Message:
    """The message in ``raw``, or :class:`ProtocolError` saying what is wrong with it."""
    size = len(raw.encode("utf-8", "surrogatepass")) if isinstance(raw, str) else len(raw)
    if size > max_size:
        raise ProtocolError("too-large", f"message too large: {size} bytes, at most {max_size}")
    try:
        data = loads(raw, 1)  # a message is one flat object
    except ValueError as exc:
        text = str(exc)
        if text.startswith("nested"):
            raise ProtocolError(
                "bad-message", "a message is one flat JSON object, with no array or object inside it"
            ) from None
        raise ProtocolError("bad-json", text) from None
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
    return Message(kind, state, events, token, action if isinstance(action, str) else "", count, request_id(data))


def request_id(data: Any) -> str | int | None:
    """The message's request ``id`` (None when it has none); :class:`ProtocolError` for a bad one."""
    if not isinstance(data, dict):
        return None
    value = data.get("id")
    if value is None:
        return None
    if isinstance(value, str) and 0 < len(value) <= MAX_ID:
        return value
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**53:
        return value
    raise ProtocolError("bad-message", f"'id' must be text of 1 to {MAX_ID} characters or a whole number from 0")


def encode(payload: Any) -> str:
    """``payload`` as compact JSON text: what goes out on a WebSocket.

    orjson: a frame (a view of a few kilobytes) encodes six times faster than with the standard
    library, and every move sends one per connected seat. Anything orjson refuses (an integer beyond
    64 bits, a key that is no string nor number) falls back to :mod:`json`, which says what is wrong."""
    try:
        return orjson.dumps(payload, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return json.dumps(payload, separators=(",", ":"))


def error(code: str, message: str, state: int | None, request: str | int | None = None) -> dict[str, Any]:
    """The ``error`` frame: for the sender only (with the request ``id`` of the message it answers)."""
    frame: dict[str, Any] = {"type": "error", "code": code, "message": " ".join(message.split())[:300], "state": state}
    if request is not None:
        frame["id"] = request
    return frame
