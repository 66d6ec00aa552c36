"""The lobby's JSON-over-HTTP API: games and their options, tables, joining, leaving, records.

=========================================  ===================================================================
``GET /api/games``                         every game: title, options (the create form is made from them),
                                           seat counts, named configurations, agent specs
``GET /api/tables``                        the newest tables (open seats, bots, whether over): public facts
``POST /api/tables``                       ``{"game", "options": {...}, "seats": ["me"|"human"|spec, ...]}``
                                           (and ``"card_edits": ["Witch.attack=10", ...]``, what-if card
                                           edits) → the table, and a token for each ``"me"`` seat
``GET /api/tables/{id}``                   one table's public summary
``POST /api/tables/{id}/join``             ``{"seat": 0-based, "previous_token"?}`` → a token for that free
                                           human seat (a rematch seat reserved for the previous game's
                                           player: only with that player's old seat token)
``POST /api/tables/{id}/leave``            ``{"token"}`` → the seat is free again
``GET /api/tables/{id}/record``            a finished game's record (``cardtable replay`` opens it)
=========================================  ===================================================================

Errors are ``{"error": "..."}`` with status 400 (bad input), 404 (no such table), 409 (seat taken or
reserved, game not over). An error about an option also names it: ``"field"`` is the option to fix
first and ``"fields"`` every option involved (a combination names each), so a form shows the message
next to those fields; an error about a seat's spec has ``"field": "seats"`` and ``"seat"``, its index.
"""

from __future__ import annotations

import functools
import json
from typing import Annotated, Any

from fastapi import APIRouter, Body, Request
from fastapi.responses import JSONResponse, Response

import cardtable
from cardtable.agents import catalogue
from cardtable.agents.registry import AgentInfo
from cardtable.engine.errors import CardtableError, OptionError
from cardtable.engine.options import GROUPS
from cardtable.web.bots import cap_note
from cardtable.web.hub import Hub, SeatSpecError, web_options
from cardtable.web.live import ProtocolError

router = APIRouter(prefix="/api")

AGENT_EXAMPLES = ("random", "heuristic", "ismcts:ms=1000", "ismcts:iterations=400,rollout=heuristic")


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def _error(status: int, message: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": " ".join(str(message).split())[:300], **extra}, status_code=status)


def _option_error(exc: OptionError) -> JSONResponse:
    """A 400 naming the fields at fault: the option(s), or the seat whose spec is bad."""
    if isinstance(exc, SeatSpecError):
        return _error(400, str(exc), field="seats", seat=exc.seat)
    if exc.options:
        return _error(400, str(exc), field=exc.options[0], fields=list(exc.options))
    return _error(400, str(exc))


def _refused(exc: CardtableError) -> JSONResponse:
    """A refusal: its status, message and, for the server's own refusals, their ``code`` (``seat-taken``,
    ``seat-reserved``, ``game-over``, ...) so a page can say what happened in its own words."""
    if isinstance(exc, ProtocolError):
        return _error(_status(exc), str(exc), code=exc.code)
    return _error(_status(exc), str(exc))


def _status(exc: CardtableError) -> int:
    if isinstance(exc, ProtocolError):
        return {
            "no-table": 404,
            "seat-taken": 409,
            "seat-reserved": 409,
            "game-over": 409,
            "not-over": 409,
            "bad-token": 403,
            "damaged": 409,
            "too-many-tables": 429,
        }.get(exc.code, 400)
    return 400


def game_info(game_id: str) -> dict[str, Any]:
    """A game as the create form needs it: every option a browser may set, with its label in words,
    group, whether it is advanced, its default, choices (and their labels) and bounds; the groups in
    the order a form shows them."""
    cls = cardtable.games.game_class(game_id)
    options = [o.to_json() for o in web_options(game_id)]
    default = cardtable.load(game_id)
    present = {o["group"] for o in options}
    return {
        "id": game_id,
        "title": getattr(cls, "title", game_id) or game_id,
        "options": options,
        "groups": [g for g in GROUPS if g in present],
        "players": default.players,
        "seat_names": [default.seat_name(s) for s in range(default.players)],
        "configurations": [dict(c) for c in getattr(cls, "CONFIGURATIONS", ())],
        "heuristic": _has_heuristic(game_id),
    }


def _has_heuristic(game_id: str) -> bool:
    import importlib.util

    name = "cardtable.agents.heuristics." + game_id.replace("-", "_")
    return importlib.util.find_spec(name) is not None


@router.get("/games")
async def games(request: Request) -> dict[str, Any]:
    hub = _hub(request)
    budget = hub.limits.bot_budget
    return {
        "games": [game_info(g) for g in cardtable.available()],
        # The levels first (easy, normal, hard, expert), then every other agent; each with its words.
        "agents": [a.name for a in catalogue()],
        "agent_info": [_agent_info(a, budget) for a in catalogue()],
        "agent_examples": list(AGENT_EXAMPLES),
        # The server's bot limits, so the page can say them: seconds a bot may think per move, and the
        # most search iterations a spec may ask for.
        "bot_budget": budget,
        "bot_max_iterations": hub.limits.bot_max_iterations,
    }


def _agent_info(agent: AgentInfo, budget: float) -> dict[str, Any]:
    """An agent for the seat menu: its label, its words and, where this server's ``--bot-budget`` is
    shorter than the agent's own think time, ``capped_s`` and ``about`` saying so."""
    about = agent.about
    capped: float | None = None
    try:
        note = cap_note(_catalogue_game(), agent.name, budget)
    except (CardtableError, ValueError, KeyError, TypeError):  # an agent that cannot play that game
        note = None
    if note is not None:
        capped = budget
        about = f"{about}; on this server at most {budget:g} s a move"
    return {"name": agent.name, "label": agent.label, "about": about, "level": agent.level, "capped_s": capped}


@functools.cache
def _catalogue_game() -> Any:
    """The game the seat menu's agents are judged on: the first built-in game in its default
    configuration (a level's think time is the same for every game; ``strong``'s time limit too)."""
    return cardtable.load(next(iter(cardtable.games.builtin())))


@router.post("/seat-names")
async def seat_names(body: Annotated[dict[str, Any], Body()]) -> Any:
    """``{"game", "options"}`` → how the seats of that game are called, and how many there are."""
    try:
        game_id = body.get("game")
        options = body.get("options") or {}
        if not isinstance(game_id, str) or not isinstance(options, dict):
            return _error(400, "give a game id and an options object")
        allowed = {o.name for o in web_options(game_id)}
        bad = [k for k in options if k not in allowed]
        if bad:
            name = bad[0][:40]
            return _error(
                400, f"{game_id}: option {name!r} cannot be set from the web table", field=name, fields=[name]
            )
        game = cardtable.load(game_id, **options)
    except OptionError as exc:
        return _option_error(exc)
    except CardtableError as exc:
        return _error(400, str(exc))
    return {"players": game.players, "seat_names": [game.seat_name(s) for s in range(game.players)]}


@router.get("/tables")
async def tables(request: Request, limit: int = 50) -> Any:
    hub = _hub(request)
    out = []
    for row in hub.storage.list_tables(limit=max(1, min(limit, 200))):
        try:
            table = await hub.load(row.id)
        except CardtableError:
            continue
        out.append(table.summary(hub._connected(row.id)))
    return {"tables": out}


@router.post("/tables")
async def create(request: Request, body: Annotated[dict[str, Any], Body()]) -> Any:
    hub = _hub(request)
    game_id = body.get("game")
    options = body.get("options", {})
    seats = body.get("seats")
    edits = body.get("card_edits", [])
    if not isinstance(game_id, str) or game_id not in cardtable.available():
        return _error(400, f"unknown game {str(game_id)[:40]!r}; known games: {', '.join(cardtable.available())}")
    if not isinstance(options, dict) or len(options) > 40:
        return _error(400, "'options' must be an object of option names and values")
    if not isinstance(seats, list) or not 1 <= len(seats) <= 16:
        return _error(400, "'seats' must list, per seat, 'me', 'human' or an agent spec")
    if not isinstance(edits, list):
        return _error(400, "'card_edits' must list what-if card edits like \"Witch.attack=10\"")
    try:
        table, tokens = hub.create(game_id, options, seats, card_edits=edits)
    except OptionError as exc:
        return _option_error(exc)
    except CardtableError as exc:
        return _refused(exc)
    budget = hub.limits.bot_budget
    notes = [
        note
        for seat, spec in enumerate(seats)
        if spec not in ("me", "human")
        and (note := cap_note(table.game, spec, budget, table.game.seat_name(seat))) is not None
    ]
    return {
        "table": table.summary(hub._connected(table.id)),
        "tokens": {str(seat): token for seat, token in tokens.items()},
        # How this server's bot budget caps a seat's agent, in words (a level thinking longer than it).
        "notes": notes,
    }


@router.get("/tables/{table_id}")
async def table_summary(request: Request, table_id: str) -> Any:
    hub = _hub(request)
    try:
        table = await hub.load(table_id)
    except CardtableError as exc:
        return _refused(exc)
    return table.summary(hub._connected(table.id))


@router.post("/tables/{table_id}/join")
async def join(request: Request, table_id: str, body: Annotated[dict[str, Any], Body()]) -> Any:
    hub = _hub(request)
    seat = body.get("seat")
    previous = body.get("previous_token")
    if previous is not None and (not isinstance(previous, str) or not 0 < len(previous) <= 100):
        return _error(400, "'previous_token' must be the seat token of the previous game")
    try:
        await hub.load(table_id)
        token = hub.join(table_id, seat, previous)  # type: ignore[arg-type]
    except CardtableError as exc:
        if isinstance(exc, ProtocolError) and exc.code == "seat-reserved" and isinstance(seat, int):
            until = hub.get(table_id).reserved.get(seat, 0.0)
            return _error(409, str(exc), code=exc.code, reserved_until=until)
        return _refused(exc)
    return {"table": table_id, "seat": seat, "token": token}


@router.post("/tables/{table_id}/leave")
async def leave(request: Request, table_id: str, body: Annotated[dict[str, Any], Body()]) -> Any:
    hub = _hub(request)
    token = body.get("token")
    if not isinstance(token, str) or not 0 < len(token) <= 100:
        return _error(400, "give the seat's token")
    try:
        await hub.load(table_id)
        seat = hub.leave(table_id, token)
    except CardtableError as exc:
        return _refused(exc)
    return {"table": table_id, "seat": seat, "left": True}


@router.get("/tables/{table_id}/record")
async def record(request: Request, table_id: str) -> Any:
    hub = _hub(request)
    try:
        table = await hub.load(table_id)
    except CardtableError as exc:
        return _refused(exc)
    if not table.is_over:
        # A record holds the seed, and the seed recomputes every hidden card: only once it is over.
        return _error(409, "the game is not over: its record (which holds the seed) is given once it ends")
    text = json.dumps(table.state.record(), indent=1)
    name = f"{table.game.id}-{table.id}.record.json"
    return Response(
        text, media_type="application/json", headers={"Content-Disposition": f'attachment; filename="{name}"'}
    )
