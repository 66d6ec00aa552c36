"""The play protocol: every bad input is refused with a clear error to its sender alone, changing nothing.

Each case checks three things: the sender gets an ``error`` with the expected code and a readable
message; the table's state id and stored moves are unchanged; another connected client is sent
nothing (the recorder sees every frame the server queues).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

import cardtable
from cardtable.testing.conformance import card_objects
from cardtable.web.protocol import MAX_MESSAGE
from tests.web.conftest import Recorder, create, hello


def _moves(client: TestClient, table: str) -> int:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    return len(hub.storage.moves(table))


def _setup(client: TestClient) -> tuple[str, dict[int, str]]:
    # Two people at Mephisto: P1 decides first or not, whichever the seed says; both seats are ours.
    return create(client, "mephisto", ["me", "me"], players=2)


def _deciding(frames: dict[int, dict[str, Any]]) -> int:
    return next(s for s, f in frames.items() if f["legal"])


def _refused(
    client: TestClient, recorder: Recorder, table: str, ws: Any, message: Any, code: str, raw: bool = False
) -> dict[str, Any]:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    live = hub.get(table)
    before = (live.version, _moves(client, table), live.state.fingerprint())
    count = len(recorder.frames)
    if raw:
        ws.send_text(message)
    else:
        ws.send_json(message)
    reply: dict[str, Any] = ws.receive_json()
    assert reply["type"] == "error", reply
    assert reply["code"] == code, reply
    assert reply["message"] and "\n" not in reply["message"]
    assert reply["state"] == before[0]
    assert (live.version, _moves(client, table), live.state.fingerprint()) == before
    sent = recorder.frames[count:]
    assert all(f["type"] in ("error", "state") for _, f in sent)
    assert len({id(c) for c, _ in sent}) == 1, "an error (and a resync) went to another client"
    return reply


@pytest.fixture
def two(client: TestClient) -> Any:
    table, tokens = _setup(client)
    with client.websocket_connect(f"/ws/{table}") as ws0, client.websocket_connect(f"/ws/{table}") as ws1:
        frames = {0: hello(ws0, tokens[0]), 1: hello(ws1, tokens[1])}
        ws0.receive_json()  # P2's arrival, seen by P1
        yield table, tokens, {0: ws0, 1: ws1}, frames


def test_malformed_json_is_refused(client: TestClient, recorder: Recorder, two: Any) -> None:
    table, _, ws, _ = two
    reply = _refused(client, recorder, table, ws[0], "{not json", "bad-json", raw=True)
    assert "malformed JSON" in reply["message"]


def test_a_message_that_is_no_object_is_refused(client: TestClient, recorder: Recorder, two: Any) -> None:
    table, _, ws, _ = two
    _refused(client, recorder, table, ws[0], "[1, 2]", "bad-message", raw=True)


def test_unknown_message_type_is_refused(client: TestClient, recorder: Recorder, two: Any) -> None:
    table, _, ws, frames = two
    reply = _refused(client, recorder, table, ws[0], {"type": "cheat", "state": frames[0]["state"]}, "unknown-type")
    assert "'cheat'" in reply["message"] and "action" in reply["message"]


def test_oversized_message_is_refused(client: TestClient, recorder: Recorder, two: Any) -> None:
    table, _, ws, frames = two
    big = {"type": "action", "state": frames[0]["state"], "action": "x" * (MAX_MESSAGE + 10)}
    reply = _refused(client, recorder, table, ws[0], big, "too-large")
    assert str(MAX_MESSAGE) in reply["message"]


def test_missing_state_id_is_refused(client: TestClient, recorder: Recorder, two: Any) -> None:
    table, _, ws, frames = two
    seat = _deciding(frames)
    action = frames[seat]["legal"][0]["action"]
    reply = _refused(client, recorder, table, ws[seat], {"type": "action", "action": action}, "bad-message")
    assert "state" in reply["message"]


def test_unknown_field_is_refused(client: TestClient, recorder: Recorder, two: Any) -> None:
    table, _, ws, frames = two
    seat = _deciding(frames)
    msg = {"type": "action", "state": frames[seat]["state"], "action": frames[seat]["legal"][0]["action"], "seat": 1}
    _refused(client, recorder, table, ws[seat], msg, "bad-message")


def test_stale_action_is_refused_and_resynced(client: TestClient, recorder: Recorder, two: Any) -> None:
    table, _, ws, frames = two
    seat = _deciding(frames)
    action = frames[seat]["legal"][0]["action"]
    ws[seat].send_json({"type": "action", "state": frames[seat]["state"], "action": action})
    after = ws[seat].receive_json()
    assert after["type"] == "state" and after["state"] == frames[seat]["state"] + 1
    ws[1 - seat].receive_json()
    # The same message again: a duplicate, refused without effect, and the sender gets the table now.
    reply = _refused(
        client, recorder, table, ws[seat], {"type": "action", "state": frames[seat]["state"], "action": action}, "stale"
    )
    assert "stale" in reply["message"]
    resync = ws[seat].receive_json()
    assert resync["type"] == "state" and resync["state"] == after["state"]
    assert resync["events"] == [], "the resync repeats only events the client missed"


def test_future_state_id_is_refused(client: TestClient, recorder: Recorder, two: Any) -> None:
    table, _, ws, frames = two
    seat = _deciding(frames)
    msg = {"type": "action", "state": frames[seat]["state"] + 5, "action": frames[seat]["legal"][0]["action"]}
    reply = _refused(client, recorder, table, ws[seat], msg, "stale")
    assert "future" in reply["message"]
    ws[seat].receive_json()


def test_action_for_another_seat_is_refused(client: TestClient, recorder: Recorder, two: Any) -> None:
    table, _, ws, frames = two
    seat = _deciding(frames)
    other = 1 - seat
    action = frames[seat]["legal"][0]["action"]
    reply = _refused(
        client,
        recorder,
        table,
        ws[other],
        {"type": "action", "state": frames[other]["state"], "action": action},
        "not-your-turn",
    )
    assert reply["message"].startswith(f"P{other + 1} cannot act now")


def test_illegal_and_malformed_actions_are_refused(client: TestClient, recorder: Recorder, two: Any) -> None:
    table, _, ws, frames = two
    seat = _deciding(frames)
    state = frames[seat]["state"]
    _refused(
        client, recorder, table, ws[seat], {"type": "action", "state": state, "action": "fly away"}, "malformed-action"
    )
    legal = {a["action"] for a in frames[seat]["legal"]}
    game = cardtable.load("mephisto", players=2)
    illegal = next(a.text for a in game.actions if a.text not in legal)
    reply = _refused(
        client, recorder, table, ws[seat], {"type": "action", "state": state, "action": illegal}, "illegal-action"
    )
    assert "not legal now" in reply["message"]


def test_wrong_token_is_refused(client: TestClient, recorder: Recorder, two: Any) -> None:
    table, tokens, _, _ = two
    with client.websocket_connect(f"/ws/{table}") as intruder:
        count = len(recorder.frames)
        intruder.send_json({"type": "hello", "state": None, "token": tokens[0][:-2] + "xx"})
        reply = intruder.receive_json()
        assert reply["type"] == "error" and reply["code"] == "bad-token"
        assert len(recorder.frames) == count + 1
        # Without a successful hello it gets nothing and may do nothing.
        intruder.send_json({"type": "action", "state": 0, "action": "done"})
        assert intruder.receive_json()["code"] == "no-hello"


def test_token_of_another_table_is_refused(client: TestClient, two: Any) -> None:
    table, _, _, _ = two
    _, other_tokens = create(client, "mephisto", ["me", "random"], players=2)
    with client.websocket_connect(f"/ws/{table}") as ws:
        assert hello(ws, other_tokens[0])["code"] == "bad-token"


def test_missing_token_makes_a_spectator_who_cannot_act(client: TestClient, recorder: Recorder, two: Any) -> None:
    table, _, _, frames = two
    seat = _deciding(frames)
    with client.websocket_connect(f"/ws/{table}") as spectator:
        frame = hello(spectator, None)
        assert frame["type"] == "state" and frame["seat"] is None and frame["legal"] == []
        assert frame["view"] == client.app.state.hub.get(table).state.view(None)  # type: ignore[attr-defined]
        msg = {"type": "action", "state": frame["state"], "action": frames[seat]["legal"][0]["action"]}
        reply = _refused(client, recorder, table, spectator, msg, "spectator")
        assert "watching" in reply["message"]
        _refused(client, recorder, table, spectator, {"type": "undo", "state": frame["state"], "count": 1}, "spectator")


def test_unknown_table(client: TestClient) -> None:
    with client.websocket_connect("/ws/nosuchtable") as ws:
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["code"] == "no-table"


def _play_to_end(client: TestClient, table: str, ws: dict[int, Any], frames: dict[int, dict[str, Any]]) -> None:
    import random

    rng = random.Random(5)
    while True:
        live = client.app.state.hub.get(table)  # type: ignore[attr-defined]
        if live.is_over:
            return
        seat = live.state.current_player
        legal = live.legal(seat)
        action = rng.choice(legal)["action"]
        ws[seat].send_json({"type": "action", "state": live.version, "action": action})
        for s in ws:
            frames[s] = ws[s].receive_json()
            assert frames[s]["type"] == "state"


def test_action_after_the_end_is_refused(client: TestClient, recorder: Recorder) -> None:
    table, tokens = create(client, "army-of-darkness", ["me", "me"], players=2, **{"turn-limit": 6})
    with client.websocket_connect(f"/ws/{table}") as ws0, client.websocket_connect(f"/ws/{table}") as ws1:
        ws = {0: ws0, 1: ws1}
        frames = {0: hello(ws0, tokens[0]), 1: hello(ws1, tokens[1])}
        ws0.receive_json()
        _play_to_end(client, table, ws, frames)
        assert frames[0]["result"] is not None and frames[0]["legal"] == []
        state = frames[0]["state"]
        for seat in (0, 1):
            reply = _refused(
                client, recorder, table, ws[seat], {"type": "action", "state": state, "action": "done"}, "game-over"
            )
            assert "over" in reply["message"]
        _refused(client, recorder, table, ws[0], {"type": "undo", "state": state, "count": 1}, "game-over")


def test_undo_within_the_turn(client: TestClient, recorder: Recorder, two: Any) -> None:
    """Undo takes back the seat's own decision (``Table.undo``), is stored, and resends the whole log."""
    table, _, ws, frames = two
    hub = client.app.state.hub  # type: ignore[attr-defined]
    live = hub.get(table)
    # Find a decision that can be taken back: play until the deciding seat has one.
    import random

    rng = random.Random(2)
    for _ in range(200):
        seat = live.state.current_player
        if live.table.undoable(seat) > 0:
            break
        action = rng.choice(live.legal(seat))["action"]
        ws[seat].send_json({"type": "action", "state": live.version, "action": action})
        for s in ws:
            frames[s] = ws[s].receive_json()
    else:
        pytest.fail("no undoable decision came up")
    seat = live.state.current_player
    assert frames[seat]["undoable"] == live.table.undoable(seat) > 0
    history = list(live.state.history)
    ws[seat].send_json({"type": "undo", "state": live.version, "count": 1})
    frame = ws[seat].receive_json()
    ws[1 - seat].receive_json()
    assert frame["type"] == "state" and frame["events_from"] == 0
    assert live.state.history == history[:-1]
    moves = hub.storage.moves(table)
    assert moves[-1].kind == "undo" and moves[-1].text == "1"
    assert frame["state"] == len(moves)
    # Too many: refused without effect.
    too_many = live.table.undoable(seat) + 1
    _refused(
        client, recorder, table, ws[seat], {"type": "undo", "state": live.version, "count": too_many}, "undo-refused"
    )


def test_ping_and_sync(client: TestClient, two: Any) -> None:
    _, _, ws, frames = two
    ws[0].send_json({"type": "ping", "state": frames[0]["state"]})
    assert ws[0].receive_json() == {"type": "pong", "state": frames[0]["state"]}
    ws[0].send_json({"type": "sync", "state": frames[0]["state"], "events": len(frames[0]["events"])})
    frame = ws[0].receive_json()
    assert frame["type"] == "state" and frame["events"] == []


def test_reconnect_gets_the_missed_events(client: TestClient, two: Any) -> None:
    table, tokens, ws, frames = two
    seat = _deciding(frames)
    other = 1 - seat
    seen_state, seen_events = frames[other]["state"], len(frames[other]["events"])
    ws[other].close()
    hub = client.app.state.hub  # type: ignore[attr-defined]
    live = hub.get(table)
    ws[seat].receive_json()  # the other seat went away
    ws[seat].send_json({"type": "action", "state": live.version, "action": frames[seat]["legal"][0]["action"]})
    ws[seat].receive_json()
    with client.websocket_connect(f"/ws/{table}") as back:
        frame = hello(back, tokens[other], seen_state, seen_events)
        assert frame["state"] == live.version
        assert frame["events_from"] == seen_events
        assert frame["events"] == live.state.events(other, seen_events) and frame["events"]
        assert frame["view"] == live.state.view(other)


def test_hidden_cards_are_not_in_the_other_seats_frame(client: TestClient, two: Any) -> None:
    table, _, _, frames = two
    live = client.app.state.hub.get(table)  # type: ignore[attr-defined]
    for seat in (0, 1):
        text = json.dumps(frames[seat])
        assert frames[seat]["view"] == live.state.view(seat)
        other_only = live.state.known_cards(1 - seat) - live.state.known_cards(seat)
        assert other_only
        ids = {c for c, _ in card_objects(frames[seat])}
        assert not ids & other_only, text[:200]
