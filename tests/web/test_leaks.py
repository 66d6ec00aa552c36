"""No hidden card reaches a client that may not know it: every frame of whole bot games, checked.

Each game runs on a real hub (the server's core, with SQLite): people's seats are scripted clients
playing random legal actions (and now and then an illegal one naming a card they cannot see, to
check error messages), the last seat is a bot, and a spectator watches. The hub's tap records every
frame queued for every client (what the WebSocket writer sends, byte for byte). Afterwards the game
is replayed and each frame is checked against the state it was built from (its state id):

- its view is exactly ``view(seat)`` of that state (the spectator's ``view(None)``), its events are
  ``events(seat)``, and legal actions are sent only to the seat that decides;
- the conformance harness's leak check (``check_no_leaks``: no card object or card name another seat
  knows and this one does not, by ``known_cards``) passes over everything else in the frames a
  client got at that state — legal actions, seats, result, errors, notices.
"""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path
from typing import Any

import pytest

import cardtable
from cardtable.testing.conformance import CardNames, check_no_leaks
from cardtable.web.bots import BotRunner
from cardtable.web.hub import Client, Hub
from cardtable.web.limits import Limits
from cardtable.web.storage import Storage

CASES: list[tuple[str, dict[str, Any]]] = [
    ("mephisto", {"players": 2}),
    ("mephisto", {"players": 4, "teams": True}),
    ("mephisto", {"players": 3, "variant": "care-bear"}),
    ("doctor-strange", {}),
    ("army-of-darkness", {"players": 3, "turn-limit": 60}),
]
if "mr-card-game" in cardtable.available():
    CASES.append(("mr-card-game", {"players": 3, "turn-limit": 8}))


async def _play(
    url: str, game_id: str, options: dict[str, Any], seed: int
) -> tuple[Any, list[tuple[Client, dict[str, Any]]]]:
    frames: list[tuple[Client, dict[str, Any]]] = []
    storage = Storage(url)
    # Scripted clients send as fast as the loop runs: no rate limit (a refused move would never end the game).
    limits = Limits(message_rate=1e9, message_burst=10**9)
    hub = Hub(
        storage,
        BotRunner(0, budget=30),
        tap=lambda c, f: frames.append((c, json.loads(json.dumps(f)))),
        limits=limits,
    )
    await hub.start()
    players = cardtable.load(game_id, **options).players
    table, tokens = hub.create(game_id, options, ["me"] * (players - 1) + ["random"], seed=seed)
    clients = {s: hub.attach(table.id) for s in tokens}
    spectator = hub.attach(table.id)
    for s, c in clients.items():
        await hub.handle(c, json.dumps({"type": "hello", "state": None, "events": None, "token": tokens[s]}))
    await hub.handle(spectator, json.dumps({"type": "hello", "state": None, "events": None, "token": None}))
    rng = random.Random(seed)
    steps = 0
    while not table.is_over:
        assert not any(f["type"] == "error" and f.get("code") == "rate-limited" for _, f in frames[-3:])
        seat = table.state.current_player
        if seat not in clients:
            await asyncio.sleep(0.001)  # the bot thinks off the loop
            continue
        if steps % 7 == 3:
            # An action naming a card this seat cannot see: the error must not name it.
            hidden = sorted(
                set().union(*(table.state.known_cards(o) for o in range(players))) - table.state.known_cards(seat)
            )
            if hidden:
                text = f"play card={rng.choice(hidden)}"
                await hub.handle(clients[seat], json.dumps({"type": "action", "state": table.version, "action": text}))
        legal = table.legal(seat)
        action = rng.choice(legal)["action"]
        await hub.handle(clients[seat], json.dumps({"type": "action", "state": table.version, "action": action}))
        steps += 1
    await hub.stop()
    record = table.state.record()
    hub.bots.close()
    storage.close()
    return record, frames


def _check(record: dict[str, Any], frames: list[tuple[Client, dict[str, Any]]]) -> int:
    game = cardtable.load(record["game"], **record["options"])
    players = game.players
    by_state: dict[int, dict[int | None, list[dict[str, Any]]]] = {}
    for client, frame in frames:
        by_state.setdefault(frame["state"], {}).setdefault(client.seat, []).append(frame)
    state = game.new(record["seed"], log=True)
    names = CardNames()
    checked = 0
    for version in range(len(record["actions"]) + 1):
        if version:
            state.apply(record["actions"][version - 1])
        got = by_state.get(version, {})
        views: dict[int | None, Any] = {s: state.view(s) for s in [*range(players), None]}
        for reader, sent in got.items():
            rest = []
            for frame in sent:
                if frame["type"] == "state":
                    assert frame["seat"] == reader
                    assert frame["view"] == views[reader], f"state {version}: seat {reader} got another view"
                    assert frame["events"] == state.events(reader, frame["events_from"])
                    if reader is None or reader != state.current_player:
                        assert frame["legal"] == []
                    else:
                        assert [a["action"] for a in frame["legal"]] == [a.text for a in state.legal_actions()]
                    frame = {k: v for k, v in frame.items() if k not in ("view", "events")}
                rest.append(frame)
                checked += 1
            views[reader] = {"view": views[reader], "frames": rest}
        check_no_leaks(state, names, views)
    return checked


@pytest.mark.parametrize(
    ("game_id", "options"), CASES, ids=[f"{g}-{'-'.join(f'{k}={v}' for k, v in o.items())}" for g, o in CASES]
)
def test_no_frame_shows_a_card_its_reader_may_not_know(tmp_path: Path, game_id: str, options: dict[str, Any]) -> None:
    url = f"sqlite:///{tmp_path / 'leaks.db'}"
    record, frames = asyncio.run(_play(url, game_id, options, seed=11))
    assert record["result"] is not None, "the game was played to its end"
    errors = [f for _, f in frames if f["type"] == "error"]
    assert errors, "the scripted clients also tried actions naming hidden cards"
    assert _check(record, frames) == len(frames)
