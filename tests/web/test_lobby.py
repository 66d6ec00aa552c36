"""The lobby's HTTP API: games and options, creating, listing, joining, leaving, records."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

import cardtable
from cardtable.engine.game import Game
from cardtable.games.mephisto.game import Mephisto
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
    mephisto = cardtable.load("mephisto", players=3)
    assert isinstance(mephisto, Mephisto)
    names = set(mephisto.cards.names)
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


# -- the create form: options in words, errors next to their fields (issue 19) ---------------------------


def test_games_describe_each_option_in_words_grouped_with_defaults_and_bounds(client: TestClient) -> None:
    out = client.get("/api/games").json()
    built_in = [g for g in out["games"] if g["id"] in cardtable.games.builtin()]  # not other tests' toy games
    assert [g["id"] for g in built_in] == [g for g in cardtable.games.builtin() if g in cardtable.available()]
    for game in built_in:
        assert game["groups"][0] == "Players", game["id"]
        for option in game["options"]:
            assert option["label"] and option["group"] in game["groups"]
            assert isinstance(option["advanced"], bool)
            if option["kind"] == "int":
                assert option["min"] is not None and option["max"] is not None
            if option["choices"] is not None:
                assert len(option["choice_labels"]) == len(option["choices"])
    mcg = next(g for g in out["games"] if g["id"] == "mr-card-game")
    tie = next(o for o in mcg["options"] if o["name"] == "march-tie")
    assert tie["label"] == "What happens when the March ties" and tie["advanced"]
    assert tie["choice_labels"][0] == "The tied players share the win"
    # What a first game sets is not folded away; the other options of Mr. Card Game (all but free
    # text, which names files on the server) are.
    shown = [o["name"] for o in mcg["options"] if not o["advanced"]]
    assert shown == ["players", "sorceress", "first-player"]
    cls = cardtable.games.game_class("mr-card-game")
    assert isinstance(cls, type) and issubclass(cls, Game)
    every = cls.OPTIONS
    assert [o["name"] for o in mcg["options"]] == [o.name for o in every if o.kind is not str or o.choices]
    assert len(mcg["options"]) >= 24


@pytest.mark.parametrize("value", [1e30, 10**40, "1e30", "10**40", 2001, -(10**40)])
def test_an_unbounded_number_is_refused_naming_its_field(client: TestClient, value: object) -> None:
    body = {"game": "doctor-strange", "options": {"turn-limit": value}, "seats": ["me", "random"]}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 400
    out = r.json()
    assert out["field"] == "turn-limit" and out["fields"] == ["turn-limit"]
    assert "option 'turn-limit' must be" in out["error"]
    assert "at most 2000" in out["error"] or "at least 2," in out["error"] or "from 2 to 2000" in out["error"]
    r = client.post("/api/seat-names", json={"game": "doctor-strange", "options": {"victory-from": value}})
    assert r.status_code == 400 and r.json()["field"] == "victory-from"
    assert client.get("/api/tables").json()["tables"] == []


@pytest.mark.parametrize(
    ("game", "options", "fields"),
    [
        ("mephisto", {"teams": True}, ["teams", "players"]),
        ("mephisto", {"players": 1, "variant": "care-bear"}, ["variant", "players"]),
        ("mr-card-game", {"quests-before-march": True}, ["quests-before-march", "bosses"]),
        ("mr-card-game", {"store-used": "removed"}, ["store-used", "mr-store"]),
        ("mr-card-game", {"cards": "/etc/passwd"}, ["cards"]),
    ],
)
def test_a_combination_error_names_every_field_involved(
    client: TestClient, game: str, options: dict[str, object], fields: list[str]
) -> None:
    players = {"mephisto": 4 if options.get("teams") else 1 if options.get("players") == 1 else 2}.get(game, 2)
    r = client.post("/api/tables", json={"game": game, "options": options, "seats": ["me"] * players})
    assert r.status_code == 400
    out = r.json()
    assert out["fields"] == fields and out["field"] == fields[0], out
    assert set(out) == {"error", "field", "fields"}


def test_an_unknown_option_is_named_as_unknown_and_a_server_only_one_as_such(client: TestClient) -> None:
    """An option the game does not have is called unknown (the options listed); one it has but a browser
    may not set (free text naming a file on the server) is refused as that."""
    r = client.post("/api/tables", json={"game": "mephisto", "options": {"colour": "red"}, "seats": ["me", "random"]})
    assert r.status_code == 400
    out = r.json()
    assert out["error"].startswith("mephisto: unknown option 'colour'; its options are: players, variant"), out
    assert not out["error"].endswith(", cards") and out["field"] == "colour"  # not offered to a browser
    r = client.post("/api/tables", json={"game": "mephisto", "options": {"cards": "x.toml"}, "seats": ["me", "random"]})
    assert r.status_code == 400
    assert r.json()["error"] == "mephisto: option 'cards' cannot be set from the web table"


def test_a_choice_that_reads_as_a_number_may_be_sent_as_a_json_number(client: TestClient) -> None:
    body = {"game": "mr-card-game", "options": {"sorceress": 25}, "seats": ["me", "random"]}
    assert client.post("/api/tables", json=body).status_code == 200
    body["options"] = {"sorceress": 0}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 400
    assert r.json()["error"] == "mr-card-game: option 'sorceress' must be one of 20, 25, foil-1, foil-2, foil-3; got 0"


def test_a_bad_seat_spec_names_the_seat(client: TestClient) -> None:
    r = client.post("/api/tables", json={"game": "mephisto", "options": {}, "seats": ["me", "ismcts:ms=-3"]})
    assert r.status_code == 400
    out = r.json()
    assert out["field"] == "seats" and out["seat"] == 1 and out["error"].startswith("seat P2: ")
    r = client.post("/api/tables", json={"game": "mephisto", "options": {}, "seats": ["", "me"]})
    assert r.status_code == 400 and r.json()["seat"] == 0
