"""Rematches between friends: every player learns of the rematch at once, and its seats are kept for
the finished game's players (by their old seat token) for a while before anyone may take them
(issue 19, Friends; issue 23, finding 10)."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardtable.cli.main import build_parser, main
from cardtable.web import create_app
from cardtable.web.hub import Hub
from cardtable.web.live import LiveTable
from tests.web.conftest import create, hello


class Clock:
    """Stands in for the hub's ``time`` module: the real clock plus ``ahead`` seconds."""

    def __init__(self) -> None:
        self.ahead = 0.0

    def time(self) -> float:
        return time.time() + self.ahead

    def strftime(self, fmt: str, t: Any) -> str:
        return time.strftime(fmt, t)

    def gmtime(self, seconds: float) -> Any:
        return time.gmtime(seconds)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr("cardtable.web.hub.time", fake)
    monkeypatch.setattr("cardtable.web.live.time", fake)
    return fake


def play_out(hub: Hub, live: LiveTable) -> None:
    """Finish the game with random legal moves for whoever decides (stored like any move)."""
    rng = random.Random(5)
    while not live.is_over:
        seat = live.state.current_player
        assert seat is not None
        legal = live.state.legal_actions()
        live.act(hub.storage, seat, legal[rng.randrange(len(legal))].text, None)


def finished_table(client: TestClient) -> tuple[str, str, str, Hub]:
    """A finished two-person Army of Darkness game: its id, the host's token and the guest's."""
    table, tokens = create(client, "army-of-darkness", ["me", "human"], players=2, **{"turn-limit": 3})
    r = client.post(f"/api/tables/{table}/join", json={"seat": 1})
    assert r.status_code == 200
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    play_out(hub, hub.get(table))
    return table, tokens[0], r.json()["token"], hub


def next_of(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == kind:
            return msg


def rematch_of(client: TestClient) -> str:
    """A finished game's rematch, started by its host; the guest's seat P2 is free there."""
    table, host, _guest, _hub = finished_table(client)
    with client.websocket_connect(f"/ws/{table}") as ws:
        frame = hello(ws, host)
        ws.send_json({"type": "rematch", "state": frame["state"]})
        return str(next_of(ws, "rematch")["table"])


def test_the_guest_learns_of_the_rematch_at_once_and_takes_its_reserved_seat(client: TestClient, clock: Clock) -> None:
    table, host, guest, hub = finished_table(client)
    with client.websocket_connect(f"/ws/{table}") as host_ws, client.websocket_connect(f"/ws/{table}") as guest_ws:
        assert hello(host_ws, host)["result"] is not None
        frame = hello(guest_ws, guest)
        assert frame["seat"] == 1 and frame["rematch"] is None
        next_of(host_ws, "seats")  # the guest connected
        host_ws.send_json({"type": "rematch", "state": frame["state"]})
        mine = next_of(host_ws, "rematch")
        assert mine["seat"] == 0
        # The guest's page hears of it at once: a frame of the finished game naming the rematch.
        told = next_of(guest_ws, "state")
        assert told["rematch"] == mine["table"] and told["seat"] == 1
        rematch = mine["table"]
        # Its seat P2 is kept for the guest: a stranger is refused, saying until when.
        summary = client.get(f"/api/tables/{rematch}").json()
        seats = summary["seats"]
        assert seats[0]["taken"] and seats[0]["reserved_until"] is None
        until = seats[1]["reserved_until"]
        assert until is not None and 590 < until - time.time() <= 600
        r = client.post(f"/api/tables/{rematch}/join", json={"seat": 1})
        assert r.status_code == 409
        out = r.json()
        assert "P2 is reserved for the player who sat there in the previous game, for 10 more minutes" in out["error"]
        assert "after that anyone may take it" in out["error"] and out["reserved_until"] == until
        assert out["code"] == "seat-reserved"
        # A wrong previous token is a stranger too.
        r = client.post(f"/api/tables/{rematch}/join", json={"seat": 1, "previous_token": host})
        assert r.status_code == 409
        # The guest asks from its page and gets its seat.
        guest_ws.send_json({"type": "rematch", "state": told["state"]})
        theirs = next_of(guest_ws, "rematch")
        assert theirs["table"] == rematch and theirs["seat"] == 1
    live = hub.get(rematch)
    assert live.seat_of(theirs["token"]) == 1 and live.seat_of(mine["token"]) == 0
    assert live.seats_info({})[1]["reserved_until"] is None, "a taken seat is no longer shown reserved"


def test_the_previous_token_takes_a_reserved_seat_from_the_lobby(client: TestClient, clock: Clock) -> None:
    table, host, guest, hub = finished_table(client)
    with client.websocket_connect(f"/ws/{table}") as ws:
        frame = hello(ws, host)
        ws.send_json({"type": "rematch", "state": frame["state"]})
        rematch = next_of(ws, "rematch")["table"]
    r = client.post(f"/api/tables/{rematch}/join", json={"seat": 1, "previous_token": guest})
    assert r.status_code == 200 and r.json()["seat"] == 1
    assert hub.get(rematch).seat_of(r.json()["token"]) == 1
    r = client.post(f"/api/tables/{rematch}/join", json={"seat": 1, "previous_token": guest})
    assert r.status_code == 409 and "taken" in r.json()["error"] and r.json()["code"] == "seat-taken"
    for bad in (3, "x" * 200, ["t"]):
        r = client.post(f"/api/tables/{rematch}/join", json={"seat": 1, "previous_token": bad})
        assert r.status_code == 400 and "previous_token" in r.json()["error"]


def test_a_reserved_seat_opens_to_anyone_when_the_time_is_up(client: TestClient, clock: Clock) -> None:
    rematch = rematch_of(client)
    assert client.post(f"/api/tables/{rematch}/join", json={"seat": 1}).status_code == 409
    clock.ahead = 599.0
    assert client.post(f"/api/tables/{rematch}/join", json={"seat": 1}).status_code == 409
    clock.ahead = 601.0
    assert client.get(f"/api/tables/{rematch}").json()["seats"][1]["reserved_until"] is None
    r = client.post(f"/api/tables/{rematch}/join", json={"seat": 1})
    assert r.status_code == 200, r.json()


def test_a_seat_nobody_held_or_a_left_seat_is_not_reserved(client: TestClient, clock: Clock) -> None:
    table, tokens = create(client, "army-of-darkness", ["me", "human", "human"], players=3, **{"turn-limit": 3})
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    guest = client.post(f"/api/tables/{table}/join", json={"seat": 1}).json()["token"]
    play_out(hub, hub.get(table))
    assert client.post(f"/api/tables/{table}/leave", json={"token": guest}).status_code == 200
    with client.websocket_connect(f"/ws/{table}") as ws:
        frame = hello(ws, tokens[0])
        ws.send_json({"type": "rematch", "state": frame["state"]})
        rematch = next_of(ws, "rematch")["table"]
    seats = client.get(f"/api/tables/{rematch}").json()["seats"]
    assert [s["reserved_until"] for s in seats] == [None, None, None]
    assert client.post(f"/api/tables/{rematch}/join", json={"seat": 1}).status_code == 200
    assert client.post(f"/api/tables/{rematch}/join", json={"seat": 2}).status_code == 200


def test_every_server_on_the_database_keeps_the_reservation(tmp_path: Path, clock: Clock) -> None:
    """The reservation is read from the database (the finished game's seats), not from one process's
    memory: a second server on the same database refuses the stranger too."""
    url = f"sqlite:///{tmp_path / 't.db'}"
    with (
        TestClient(create_app(url, bot_workers=0, bot_delay=0)) as a,
        TestClient(create_app(url, bot_workers=0, bot_delay=0)) as b,
    ):
        rematch = rematch_of(a)
        assert rematch not in b.app.state.hub.tables  # type: ignore[attr-defined]
        r = b.post(f"/api/tables/{rematch}/join", json={"seat": 1})
        assert r.status_code == 409 and "reserved" in r.json()["error"]


def test_a_server_may_reserve_nothing(tmp_path: Path, clock: Clock) -> None:
    """``cardtable serve --rematch-reserve 0``: a rematch's free seats are open at once."""
    url = f"sqlite:///{tmp_path / 't.db'}"
    with TestClient(create_app(url, bot_workers=0, bot_delay=0, rematch_reserve=0)) as client:
        rematch = rematch_of(client)
        assert client.get(f"/api/tables/{rematch}").json()["seats"][1]["reserved_until"] is None
        assert client.post(f"/api/tables/{rematch}/join", json={"seat": 1}).status_code == 200


def test_serve_takes_the_reservation_time(capsys: pytest.CaptureFixture[str]) -> None:
    args = build_parser().parse_args(["serve", "--rematch-reserve", "60"])
    assert args.rematch_reserve == 60.0
    assert build_parser().parse_args(["serve"]).rematch_reserve == 600.0
    for bad in ("-1", "1e9"):
        assert main(["serve", "--no-browser", "--rematch-reserve", bad]) == 2
        err = capsys.readouterr().err
        assert err.startswith("cardtable: error: --rematch-reserve") and err.count("\n") == 1
