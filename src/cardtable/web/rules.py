"""The rules of each game for the page: ``GET /api/rules/<game>`` (JSON, clause by clause) and
``GET /rules/<game>`` (a readable page drawn from that JSON).

Both read :mod:`cardtable.rulebook` (``docs/rules/<game>.md`` shipped with the package, citations of
tests dropped), so the table's rules panel, the rules page and the terminal's ``rules`` command show
the same words.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path
from typing import Any

from fastapi import APIRouter
from fastapi.responses import FileResponse, JSONResponse

from cardtable import rulebook
from cardtable.engine.errors import OptionError

router = APIRouter()
STATIC = Path(str(files("cardtable.web") / "static"))


def rules_json(game: str) -> dict[str, Any]:
    """``game``'s rulebook as JSON: its title and sections, each with its clauses.

    Raises :class:`~cardtable.engine.errors.OptionError` for a game without a rules document."""
    book = rulebook.rulebook(game)
    return {
        "game": book.game,
        "title": book.title,
        "sections": [
            {
                "id": s.id,
                "title": s.title,
                "level": s.level,
                "text": s.text,
                "clauses": [{"id": c.id, "text": c.text} for c in s.clauses],
            }
            for s in book.sections
        ],
    }


@router.get("/api/rules/{game}")
async def rules_api(game: str) -> Any:
    if game not in rulebook.games():
        return JSONResponse({"error": f"no rules for {game[:40]!r}; known: {', '.join(rulebook.games())}"}, 404)
    try:
        return rules_json(game)
    except OptionError as exc:  # a game listed but not readable: say so, change nothing
        return JSONResponse({"error": str(exc)}, 404)


@router.get("/rules/{game}", include_in_schema=False)
async def rules_page(game: str) -> Any:
    """The same HTML for every game: its script reads the game from the address and asks the API."""
    if game not in rulebook.games():
        return JSONResponse({"error": f"no rules for {game[:40]!r}; known: {', '.join(rulebook.games())}"}, 404)
    return FileResponse(STATIC / "rules.html", headers={"Cache-Control": "no-cache"})
