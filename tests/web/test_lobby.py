"""The lobby's HTTP API: games and options, creating, listing, joining, leaving, records."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

import cardtable
from cardtable.testing.conformance import strings_in
from tests.web.conftest import create, hello


def test_games_list_every_game_with_its_web_options(client: TestClient) -> None:
    out = client.get("/api/games").json()
    assert [g["id"] for g in out["games"]] == cardtable.available()
    meph = next(g for g in out["games"] if g["id"] == "mephisto")
    names = {o["name"] for o in meph["options"]}
    assert {"players", "variant", "teams"} <= names
    assert "cards" not in names, "a file path on the server is no option for a browser"
    assert {"random", "heuristic", "ismcts"} <= set(out["agents"])


def test_seat_names_follow_the_options(client: TestClient) -> None:
    r = client.post("/api/seat-names", json={"game": "doctor-strange", "options": {}})
    assert r.json()["seat_names"] == ["Evil", "Good"]
    r = client.post("/api/seat-names", json={"game": "army-of-darkness", "options": {"players": 6}})
    assert r.json()["players"] == 6
    r = client.post("/api/seat-names", json={"game": "mephisto", "options": {"players": 9}})
    assert r.status_code == 400 and "at most 4" in r.json()["error"]


def test_create_refuses_bad_input(client: TestClient) -> None:
    cases = [
        ({"game": "chess", "options": {}, "seats": ["me", "me"]}, "unknown game"),
        ({"game": "mephisto", "options": {"players": 2}, "seats": ["me"]}, "2 seats"),
        ({"game": "mephisto", "options": {"cards": "/etc/passwd"}, "seats": ["me", "me"]}, "cannot be set"),
        ({"game": "mephisto", "options": {"variant": "x"}, "seats": ["me", "me"]}, "variant"),
        ({"game": "mephisto", "options": {}, "seats": ["me", "alphazero"]}, "alphazero"),
        ({"game": "mephisto", "options": {}, "seats": ["me", "ismcts:iterations=-3"]}, "iterations"),
        ({"game": "mephisto", "options": [], "seats": ["me", "me"]}, "options"),
        ({"game": "mephisto", "options": {}, "seats": "me,me"}, "seats"),
    ]
    for body, word in cases:
        r = client.post("/api/tables", json=body)
        assert r.status_code == 400, body
        assert word in r.json()["error"], (body, r.json())
    assert client.get("/api/tables").json()["tables"] == []


def test_create_join_leave(client: TestClient) -> None:
    table, tokens = create(client, "mephisto", ["me", "human", "heuristic"], players=3)
    assert list(tokens) == [0]
    summary = client.get(f"/api/tables/{table}").json()
    assert summary["free_seats"] == [1]
    assert [s["kind"] for s in summary["seats"]] == ["human", "human", "bot"]
    listed = client.get("/api/tables").json()["tables"]
    assert [t["id"] for t in listed] == [table]
    # Nothing a seat may not see is in the lobby: no card names, no tokens.
    names = set(cardtable.load("mephisto", players=3).cards.names)
    assert not names & set(strings_in(listed)), "the lobby shows cards"
    assert tokens[0] not in json.dumps(listed)
    r = client.post(f"/api/tables/{table}/join", json={"seat": 2})
    assert r.status_code == 409 and "bot" in r.json()["error"]
    r = client.post(f"/api/tables/{table}/join", json={"seat": 1})
    assert r.status_code == 200
    token = r.json()["token"]
    r = client.post(f"/api/tables/{table}/join", json={"seat": 1})
    assert r.status_code == 409 and "taken" in r.json()["error"]
    with client.websocket_connect(f"/ws/{table}") as ws:
        assert hello(ws, token)["seat"] == 1
    r = client.post(f"/api/tables/{table}/leave", json={"token": token})
    assert r.status_code == 200
    with client.websocket_connect(f"/ws/{table}") as ws:
        assert hello(ws, token)["code"] == "bad-token", "a left seat's token stops working"
    assert client.get(f"/api/tables/{table}").json()["free_seats"] == [1]
    r = client.post(f"/api/tables/{table}/leave", json={"token": "nope"})
    assert r.status_code == 403
    assert client.get("/api/tables/nosuch").status_code == 404
    assert client.post("/api/tables/nosuch/join", json={"seat": 0}).status_code == 404


def test_record_only_after_the_end_and_it_replays(client: TestClient) -> None:
    import time

    table, _ = create(client, "army-of-darkness", ["random", "random"], players=2, **{"turn-limit": 8})
    r = client.get(f"/api/tables/{table}/record")
    hub = client.app.state.hub  # type: ignore[attr-defined]
    live = hub.get(table)
    if not live.is_over:
        assert r.status_code == 409 and "seed" in r.json()["error"]
    deadline = time.monotonic() + 30
    while not live.is_over and time.monotonic() < deadline:
        time.sleep(0.05)
    assert live.is_over
    r = client.get(f"/api/tables/{table}/record")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    record = r.json()
    state = cardtable.replay(record)
    assert state.is_over and state.actions_taken() == live.state.actions_taken()


def test_pages_are_served(client: TestClient) -> None:
    for path in ("/", "/table/abc", "/static/table.js", "/static/lobby.js", "/static/render/generic.js"):
        r = client.get(path)
        assert r.status_code == 200, path
