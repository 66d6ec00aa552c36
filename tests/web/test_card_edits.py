"""Tables with what-if card edits: made through the lobby's API, kept across a restart, played by bots
with the edited cards, and finished into records that replay with the edits."""

from __future__ import annotations

import time
from pathlib import Path

from fastapi.testclient import TestClient

import cardtable
from cardtable.web import create_app


def test_a_table_with_card_edits_survives_a_restart_and_its_record_replays(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 't.db'}"
    edits = ["Witch.attack=30", "Greataxe.cost=0"]
    body = {"game": "mephisto", "options": {"players": 2}, "seats": ["me", "random"], "card_edits": edits}
    with TestClient(create_app(url, bot_workers=0, bot_delay=0)) as client:
        r = client.post("/api/tables", json=body)
        assert r.status_code == 200, r.text
        summary = r.json()["table"]
        assert summary["card_edits"] == edits
        table = summary["id"]
    with TestClient(create_app(url, bot_workers=0, bot_delay=0)) as client:
        live = client.app.state.hub.get(table)  # type: ignore[attr-defined]
        assert live.game.card_edits == tuple(edits)
        assert live.game.cards.attack[live.game.cards.names.index("Witch")] == 30
        assert client.get(f"/api/tables/{table}").json()["card_edits"] == edits


def test_bots_play_the_edited_game_to_a_record_that_replays(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 't.db'}"
    body = {
        "game": "mephisto",
        "options": {"players": 2},
        "seats": ["random", "random"],
        "card_edits": ["Imp.attack=9"],
    }
    with TestClient(create_app(url, bot_workers=0, bot_delay=0)) as client:
        table = client.post("/api/tables", json=body).json()["table"]["id"]
        deadline = time.monotonic() + 60
        while not client.get(f"/api/tables/{table}").json()["is_over"] and time.monotonic() < deadline:
            time.sleep(0.05)
        record = client.get(f"/api/tables/{table}/record").json()
    assert record["card_edits"] == ["Imp.attack=9"]
    assert cardtable.replay(record).is_over


def test_a_bad_card_edit_is_refused_with_file_card_and_field(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 't.db'}", bot_workers=0, bot_delay=0)) as client:
        base = {"game": "mephisto", "options": {"players": 2}, "seats": ["me", "random"]}
        bad = client.post("/api/tables", json={**base, "card_edits": ["Witch.attack=99"]})
        assert bad.status_code == 400
        assert "card '#0 Witch', field 'attack': must be at most 30" in bad.json()["error"]
        for junk in ("Witch.attack=3", [3], ["Witch"]):
            r = client.post("/api/tables", json={**base, "card_edits": junk})
            assert r.status_code == 400 and r.json()["error"]
        assert client.get("/api/tables").json()["tables"] == []
