"""Browser-facing hardening and protocol details (issue 23, findings 11 and 12).

- the WebSocket and state-changing HTTP accept this server's own origin (and ``--allow-origin``
  ones) only; bound to loopback, only loopback host names;
- every response carries a content security policy, ``X-Frame-Options``, ``nosniff`` and a
  referrer policy (the browser tests show the page works under them);
- JSON nested 2,000 deep is refused in one line and the connection lives on; every HTTP error is
  the documented ``{"error": ...}`` with 400 (never FastAPI's 422 echoing the input);
- a client's own move is acknowledged with its request id, so a losing racer cannot take the
  winner's frame for its acknowledgement.
"""

from __future__ import annotations

import logging
import re
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect

from cardtable.web import create_app
from cardtable.web.security import Policy
from tests.web.conftest import create, hello

EVIL = "http://evil.example"


def _denied(client: TestClient, path: str, headers: dict[str, str]) -> None:
    with (
        pytest.raises((WebSocketDisconnect, WebSocketDenialResponse)),
        client.websocket_connect(path, headers=headers) as ws,
    ):
        ws.send_json({"type": "hello", "state": None, "events": None, "token": None})
        ws.receive_json()


# -- origins and hosts -----------------------------------------------------------------------------------------
def test_the_websocket_refuses_another_sites_page(client: TestClient) -> None:
    table, tokens = create(client, "mephisto", ["me", "me"], players=2)
    _denied(client, f"/ws/{table}", {"origin": EVIL})
    _denied(client, f"/ws/{table}", {"origin": "null"})
    _denied(client, f"/ws/{table}", {"origin": "http://testserver.evil.example"})
    with client.websocket_connect(f"/ws/{table}", headers={"origin": "http://testserver"}) as ws:
        assert hello(ws, tokens[0])["seat"] == 0, "the server's own page plays"
    with client.websocket_connect(f"/ws/{table}") as ws:
        assert hello(ws, None)["type"] == "state", "a program that sends no Origin is no browser page"


def test_state_changing_http_refuses_another_sites_page(client: TestClient) -> None:
    body = {"game": "mephisto", "options": {"players": 2}, "seats": ["me", "me"]}
    r = client.post("/api/tables", json=body, headers={"origin": EVIL})
    assert r.status_code == 403 and "refused" in r.json()["error"]
    r = client.post("/api/tables", json=body, headers={"sec-fetch-site": "cross-site"})
    assert r.status_code == 403
    assert client.get("/api/tables").json()["tables"] == [], "nothing was made"
    r = client.post("/api/tables", json=body, headers={"origin": "http://testserver"})
    assert r.status_code == 200
    table = r.json()["table"]["id"]
    r = client.post(f"/api/tables/{table}/leave", json={"token": r.json()["tokens"]["0"]}, headers={"origin": EVIL})
    assert r.status_code == 403
    assert client.get("/api/games", headers={"origin": EVIL}).status_code == 200, "reading is not changing"


def test_allow_origin_adds_an_origin(db_url: str) -> None:
    policy = Policy.make("0.0.0.0", allow_origins=["https://friends.example"])
    with TestClient(create_app(db_url, bot_workers=0, bot_delay=0, policy=policy)) as client:
        table, _ = create(client, "mephisto", ["me", "me"], players=2)
        with client.websocket_connect(f"/ws/{table}", headers={"origin": "https://friends.example"}) as ws:
            assert hello(ws, None)["type"] == "state"
        _denied(client, f"/ws/{table}", {"origin": "https://friends.example:8443"})
    with pytest.raises(ValueError, match="--allow-origin"):
        Policy.make("0.0.0.0", allow_origins=["friends.example/path"])


def test_bound_to_loopback_only_loopback_host_names_are_answered(db_url: str) -> None:
    policy = Policy.make("127.0.0.1", allow_hosts=["cards.lan"])
    app = create_app(db_url, bot_workers=0, bot_delay=0, policy=policy)
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        assert client.get("/api/games").status_code == 200
        for host in ("localhost:8000", "127.0.0.1", "[::1]:8000", "cards.lan:8000"):
            assert client.get("/api/games", headers={"host": host}).status_code == 200, host
        r = client.get("/", headers={"host": "rebound.example:8000"})
        assert r.status_code == 400 and "rebound.example" in r.json()["error"]
        table, _ = create(client, "mephisto", ["me", "me"], players=2)
        _denied(client, f"/ws/{table}", {"host": "rebound.example:8000"})
    assert Policy.make("0.0.0.0").allowed_hosts is None, "bound to every address, any host name"


# -- headers on every response -----------------------------------------------------------------------------------
HEADERS = {
    "content-security-policy": "frame-ancestors 'none'",
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}


def test_every_response_carries_the_security_headers(client: TestClient) -> None:
    table, _ = create(client, "mephisto", ["me", "me"], players=2)
    responses = [
        client.get("/"),
        client.get(f"/table/{table}"),
        client.get("/static/table.js"),
        client.get("/static/style.css"),
        client.get("/api/games"),
        client.get(f"/api/tables/{table}"),
        client.get("/api/tables/nosuchtable"),
        client.get("/no/such/page"),
        client.post("/api/tables", content=b"[1]", headers={"content-type": "application/json"}),
        client.post("/api/tables", json={"game": "mephisto"}, headers={"origin": EVIL}),
    ]
    for r in responses:
        for name, value in HEADERS.items():
            assert value in r.headers.get(name, ""), (r.request.url, r.status_code, name, r.headers.get(name))
    csp = responses[0].headers["content-security-policy"]
    assert "script-src 'self'" in csp and "'unsafe-eval'" not in csp and "connect-src 'self'" in csp


# -- JSON depth and the error shape ------------------------------------------------------------------------------
def test_json_nested_2000_deep_is_refused_and_the_connection_lives_on(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    table, _ = create(client, "mephisto", ["me", "me"], players=2)
    deep = "[" * 2000 + "]" * 2000
    assert len(deep) <= 4096
    with client.websocket_connect(f"/ws/{table}") as ws:
        hello(ws, None)
        for raw in (deep, '{"type": "ping", "state": null, "id": ' + "[" * 1500 + "]" * 1500 + "}"):
            ws.send_text(raw)
            reply = ws.receive_json()
            assert reply["type"] == "error" and reply["code"] in ("bad-json", "bad-message"), reply
            assert "\n" not in reply["message"]
        ws.send_json({"type": "ping", "state": None})
        assert ws.receive_json()["type"] == "pong", "the connection lives on"
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], "a traceback was logged"
    r = client.post("/api/tables", content=b'{"game": ' + b"[" * 2000 + b"]" * 2000 + b"}", headers=_JSON)
    assert r.status_code == 400 and "nested deeper" in r.json()["error"]


_JSON = {"content-type": "application/json"}


@pytest.mark.parametrize("body", [b"[]", b'"SECRETMARKER"', b"5", b"null", b"{not json", b""])
@pytest.mark.parametrize(
    "path", ["/api/tables", "/api/seat-names", "/api/tables/{table}/join", "/api/tables/{table}/leave"]
)
def test_bodies_that_are_not_json_objects_get_the_documented_error(client: TestClient, path: str, body: bytes) -> None:
    table, _ = create(client, "mephisto", ["me", "human"], players=2)
    r = client.post(path.format(table=table), content=body, headers=_JSON)
    assert r.status_code == 400, (r.status_code, r.text)
    assert list(r.json()) == ["error"] and "SECRETMARKER" not in r.text


def test_the_framework_s_own_errors_have_the_documented_shape(client: TestClient) -> None:
    r = client.get("/api/tables", params={"limit": "SECRETMARKER"})
    assert r.status_code == 400 and list(r.json()) == ["error"] and "SECRETMARKER" not in r.text
    r = client.get("/api/no-such-route")
    assert r.status_code == 404 and list(r.json()) == ["error"]
    r = client.post("/api/games", json={})
    assert r.status_code == 405 and list(r.json()) == ["error"]
    r = client.post("/api/tables", content=b'{"game": "mephisto"}', headers={"content-type": "text/plain"})
    assert r.status_code == 415 and "application/json" in r.json()["error"]
    r = client.post("/api/tables", content=b"{}" + b" " * 70000, headers=_JSON)
    assert r.status_code == 413 and list(r.json()) == ["error"]


# -- acknowledgements by request id ------------------------------------------------------------------------------
def _state(ws: Any) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == "state":
            return msg


def test_a_move_is_acknowledged_with_its_request_id_and_old_clients_see_no_change(client: TestClient) -> None:
    table, tokens = create(client, "mephisto", ["me", "me"], players=2)
    with client.websocket_connect(f"/ws/{table}") as ws0, client.websocket_connect(f"/ws/{table}") as ws1:
        frames = {0: hello(ws0, tokens[0]), 1: hello(ws1, tokens[1])}
        ws0.receive_json()  # P2 connected
        seat = next(s for s in (0, 1) if frames[s]["legal"])
        ws = ws0 if seat == 0 else ws1
        ws.send_json({"type": "action", "state": 0, "action": frames[seat]["legal"][0]["action"], "id": "m-1"})
        ack = ws.receive_json()  # the mover is served first: its acknowledgement
        assert ack["type"] == "state" and ack.get("acks") == ["m-1"] and ack["state"] == 1, ack
        other = _state(ws1 if seat == 0 else ws0)
        assert "acks" not in other, "only the mover's frame acknowledges its move"
        state = ack["state"]
        mover = seat if ack["legal"] else 1 - seat
        ws = ws0 if mover == 0 else ws1
        frame = other if mover != seat else ack
        ws.send_json({"type": "action", "state": state, "action": frame["legal"][0]["action"]})
        assert "acks" not in _state(ws), "a message without an id gets the frame as it always did"
        ws.send_json({"type": "ping", "state": None, "id": True})
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["code"] == "bad-message" and "'id'" in reply["message"]


def test_a_losing_racer_is_told_by_its_request_id(client: TestClient) -> None:
    """Two tabs of one seat send a move for the same state: one is acknowledged by its id; the other
    gets a ``stale`` error with its id, and no frame acknowledges it."""
    table, tokens = create(client, "mephisto", ["me", "me"], players=2)
    with client.websocket_connect(f"/ws/{table}") as probe:
        frame = hello(probe, tokens[0])
        seat = 0 if frame["legal"] else 1
    with client.websocket_connect(f"/ws/{table}") as a, client.websocket_connect(f"/ws/{table}") as b:
        first = hello(a, tokens[seat])
        hello(b, tokens[seat])
        legal = [x["action"] for x in first["legal"]]
        a.send_json({"type": "action", "state": 0, "action": legal[0], "id": "a"})
        b.send_json({"type": "action", "state": 0, "action": legal[-1], "id": "b"})
        seen_a = _until_answer(a, "a")
        seen_b = _until_answer(b, "b")
    assert seen_a[-1]["type"] == "state" and seen_a[-1]["acks"] == ["a"]
    error = next(m for m in seen_b if m["type"] == "error")
    assert error["code"] == "stale" and error["id"] == "b"
    assert not any("b" in m.get("acks", ()) for m in seen_b), "the loser got an acknowledgement"
    assert any(m["type"] == "state" and m["state"] == 1 for m in seen_b), "the loser sees the winner's move"


def _until_answer(ws: Any, request: str) -> list[dict[str, Any]]:
    """Messages until the one that answers ``request`` (its ack or its error), and the resync after an error."""
    seen: list[dict[str, Any]] = []
    while True:
        msg = ws.receive_json()
        seen.append(msg)
        if msg["type"] == "state" and request in msg.get("acks", ()):
            return seen
        if msg["type"] == "error":
            if msg.get("id") == request:
                seen.append(_state(ws))
            return seen


def test_no_page_relies_on_an_inline_script() -> None:
    """The Content-Security-Policy allows scripts from the server's own files only (``script-src
    'self'``), so a ``<script>`` with code inside it would silently not run (the rules page once did
    that and stayed empty)."""
    static = Path(str(files("cardtable.web") / "static"))
    pages = sorted(static.glob("*.html"))
    assert pages
    for page in pages:
        for tag, body in re.findall(r"<script([^>]*)>(.*?)</script>", page.read_text(), re.S):
            assert "src=" in tag and not body.strip(), f"{page.name}: an inline script the CSP will not run"
