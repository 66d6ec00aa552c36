"""Report statistics on small fixed inputs, checked against hand-computed values."""

from __future__ import annotations

from typing import Any

import pytest

from cardtable.sim.analysis import analyze, card_stats, setting_stats


def _line(index: int, seats: list[str], agents: list[int], wins: list[float], **kw: Any) -> dict[str, Any]:
    line: dict[str, Any] = {
        "setting": kw.pop("setting", 0),
        "index": index,
        "seed": index,
        "seats": seats,
        "agents": agents,
        "first": kw.pop("first", 0),
        "decisions": kw.pop("decisions", 10),
        "turns": kw.pop("turns", 5),
        "reason": kw.pop("reason", "deck-exhausted"),
        "truncated": kw.pop("truncated", False),
        "wins": wins,
        "seconds": 0.01,
        "result": {"scores": kw.pop("scores", [1.0, 2.0]), "details": kw.pop("details", {})},
    }
    line.update(kw)
    return line


LINES = [
    _line(0, ["A", "B"], [0, 1], [1.0, 0.0], turns=4, decisions=10, details={"ranking": "gold"}),
    _line(1, ["B", "A"], [1, 0], [0.0, 1.0], turns=6, decisions=20, details={"ranking": "silver"}),
    _line(2, ["A", "B"], [0, 1], [0.5, 0.5], turns=8, decisions=30, details={"ranking": "gold", "n": 3}),
    _line(3, ["B", "A"], [1, 0], [0.0, 0.0], turns=10, decisions=40, reason="turn-limit", truncated=True, first=1),
]


def test_win_shares_per_agent_and_seat() -> None:
    s = setting_stats(LINES)
    # A: 1 + 1 + 0.5 + 0 over 4 games; B: 0 + 0 + 0.5 + 0.
    assert s["agents"]["A"]["estimate"] == pytest.approx(2.5 / 4)
    assert s["agents"]["B"]["estimate"] == pytest.approx(0.5 / 4)
    # seat 1: 1 + 0 + 0.5 + 0; seat 2: 0 + 1 + 0.5 + 0.
    assert [x["estimate"] for x in s["seats"]] == [pytest.approx(0.375), pytest.approx(0.375)]
    # first player: seat 0 in games 0-2 (1, 0, 0.5), seat 1 in game 3 (0) -> 1.5/4; fair: the
    # 3 wins handed out over 4 games x 2 seats = 0.375 (game 3 had no winner).
    assert s["first_player"]["win"]["estimate"] == pytest.approx(0.375)
    assert s["first_player"]["fair"] == pytest.approx(0.375)
    assert s["first_player"]["advantage"]["estimate"] == pytest.approx(0.0)


def test_fair_share_counts_every_member_of_a_winning_team() -> None:
    lines = [_line(i, ["A", "B", "A", "B"], [0, 1, 2, 3], [1.0, 0.0, 1.0, 0.0], first=0) for i in range(4)]
    fp = setting_stats(lines)["first_player"]
    assert (fp["fair"], fp["win"]["estimate"], fp["advantage"]["estimate"]) == (0.5, 1.0, 0.5)


def test_lengths_reasons_and_details() -> None:
    s = setting_stats(LINES)
    assert s["turns"]["percentiles"]["50"] == 7.0
    assert s["turns"]["percentiles"]["25"] == pytest.approx(5.5)  # rank 0.75 of 4 6 8 10
    assert s["decisions"]["percentiles"]["90"] == pytest.approx(37.0)  # rank 2.7: 30 + 0.7 * 10
    assert s["decisions"]["mean"]["estimate"] == 25.0
    assert s["reasons"]["deck-exhausted"]["count"] == 3
    assert s["reasons"]["turn-limit"]["count"] == 1
    assert s["truncated"] == 1
    # Only string-valued details are tabulated ("n" is a number).
    assert set(s["details"]) == {"ranking"}
    assert s["details"]["ranking"]["gold"]["count"] == 2
    assert s["details"]["ranking"]["silver"]["share"]["estimate"] == pytest.approx(0.25)
    assert s["scores"]["by_agent"]["A"]["mean"]["estimate"] == pytest.approx(1.5)


def test_grid_comparison_is_a_paired_difference() -> None:
    base = [_line(i, ["A", "B"], [0, 1], [1.0, 0.0], turns=t) for i, t in enumerate([1, 2, 3, 4])]
    other = [_line(i, ["A", "B"], [0, 1], [0.0, 1.0], turns=t, setting=1) for i, t in enumerate([2, 4, 3, 7])]
    manifest = {
        "game": "toy",
        "games": 4,
        "seed": 0,
        "settings": [
            {"label": "x=1", "options": {}, "seats": ["A", "B"]},
            {"label": "x=2", "options": {}, "seats": ["A", "B"]},
        ],
    }
    a = analyze(manifest, base + other)
    diff = a["comparisons"][0]["differences"]
    assert diff["turns"]["estimate"] == 1.5
    assert diff["turns"]["low"] == pytest.approx(1.5 - 2.054260, abs=1e-5)
    assert diff["win share of listed agent 1"]["estimate"] == -1.0
    assert diff["win share of listed agent 2"]["estimate"] == 1.0


def test_card_attribution_credits_the_acting_seat() -> None:
    results = {
        (0, 0): _line(0, ["A", "B"], [0, 1], [1.0, 0.0]),
        (0, 1): _line(1, ["B", "A"], [1, 0], [0.0, 1.0]),
    }
    records = [
        {
            "setting": 0,
            "index": 0,
            "actors": [0, 1, 0, 1],
            "names": {"7": "Greataxe"},
            "record": {"actions": ["play card=7", "buy card=3", "play card=7", "done"]},
        },
        {
            "setting": 0,
            "index": 1,
            "actors": [0, 1],
            "names": {},
            "record": {"actions": ["buy card=3", "fight lane=2"]},
        },
        {"setting": 0, "index": 9, "actors": [0], "record": {"actions": ["play card=7"]}},  # no result: ignored
    ]
    rows = {r["card"]: r for r in card_stats(records, results)[0]}
    assert set(rows) == {3, 7}
    assert rows[7]["name"] == "Greataxe"
    assert (rows[7]["uses"], rows[7]["actions"], rows[7]["win"]["estimate"]) == (1, 2, 1.0)
    # card 3: seat 1 of game 0 (lost) and seat 0 of game 1 (lost).
    assert (rows[3]["uses"], rows[3]["win"]["estimate"], rows[3]["name"]) == (2, 0.0, "card 3")
    assert rows[3]["kinds"] == ["buy"]


def test_card_stats_count_only_the_kinds_that_play_or_acquire_a_card() -> None:
    results = {(0, 0): {"wins": [1.0, 0.0]}}
    records = [
        {
            "setting": 0,
            "index": 0,
            "actors": [0, 1, 1],
            "record": {"actions": ["play card=7", "discard card=7", "discard card=3"]},
        }
    ]
    rows = {r["card"]: r for r in card_stats(records, results, uses_kinds={"play": "played"})[0]}
    # Paying a cost with card 7 or 3 is not using it: only seat 0's play counts.
    assert set(rows) == {7}
    assert (rows[7]["uses"], rows[7]["actions"], rows[7]["kinds"], rows[7]["win"]["estimate"]) == (1, 1, ["play"], 1.0)
