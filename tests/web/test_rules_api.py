"""The rules for the page (issue 19, point 5): ``GET /api/rules/<game>`` gives a game's rules clause by
clause, for players (no test citations); ``GET /rules/<game>`` is the readable page; an unknown game
gets a clear 404 and nothing else."""

from __future__ import annotations

from fastapi.testclient import TestClient

import cardtable
from cardtable import rulebook


def test_every_game_has_its_rules_clause_by_clause(client: TestClient) -> None:
    builtin = {"mephisto", "doctor-strange", "army-of-darkness", "mr-card-game"}
    assert builtin & set(cardtable.available()) <= set(rulebook.games())
    for game in rulebook.games():
        r = client.get(f"/api/rules/{game}")
        assert r.status_code == 200, r.text
        book = r.json()
        assert book["game"] == game and book["title"]
        clauses = [c for s in book["sections"] for c in s["clauses"]]
        assert len(clauses) >= 10
        expected = rulebook.rulebook(game)
        assert [c["id"] for c in clauses] == [c.id for s in expected.sections for c in s.clauses]
        for clause in clauses:
            assert clause["text"] and "test_" not in clause["text"], clause
        page = client.get(f"/rules/{game}")
        assert page.status_code == 200 and "rules-page.js" in page.text  # the page's script, a file (CSP)


def test_a_game_without_rules_is_a_clear_404(client: TestClient) -> None:
    for path in ("/api/rules/chess", "/rules/chess", "/api/rules/..%2Fetc"):
        r = client.get(path)
        assert r.status_code == 404, path
    body = client.get("/api/rules/chess").json()
    assert "chess" in body["error"] and "mephisto" in body["error"]
