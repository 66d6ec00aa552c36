"""Fixtures for the web table tests: an app on a fresh SQLite file, HTTP and WebSocket clients."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

warnings.filterwarnings("ignore", message=".*httpx2.*")

from fastapi.testclient import TestClient  # noqa: E402

from cardtable.web import create_app  # noqa: E402
from tests.web import browser as browser_mod  # noqa: E402


class Recorder:
    """Every frame the server queues for every client (the ``tap``), in order."""

    def __init__(self) -> None:
        self.frames: list[tuple[Any, dict[str, Any]]] = []

    def __call__(self, client: Any, payload: dict[str, Any]) -> None:
        self.frames.append((client, json.loads(json.dumps(payload))))

    def of(self, client: Any) -> list[dict[str, Any]]:
        return [f for c, f in self.frames if c is client]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium under Playwright, one per test module (the module skips first when
    :func:`tests.web.browser.missing` says it cannot run)."""
    with browser_mod.chromium() as b:
        yield b


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'tables.db'}"


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def client(db_url: str, recorder: Recorder) -> Iterator[TestClient]:
    app = create_app(db_url, bot_workers=0, bot_delay=0, tap=recorder)
    with TestClient(app) as c:
        yield c


def create(client: TestClient, game: str, seats: list[str], **options: Any) -> tuple[str, dict[int, str]]:
    """A new table: its id and the tokens of its ``me`` seats."""
    r = client.post("/api/tables", json={"game": game, "options": options, "seats": seats})
    assert r.status_code == 200, r.text
    out = r.json()
    return out["table"]["id"], {int(k): v for k, v in out["tokens"].items()}


def hello(ws: Any, token: str | None, state: int | None = None, events: int | None = None) -> dict[str, Any]:
    ws.send_json({"type": "hello", "state": state, "events": events, "token": token})
    frame: dict[str, Any] = ws.receive_json()
    return frame
