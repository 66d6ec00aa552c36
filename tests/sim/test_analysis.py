"""Report statistics on small fixed inputs, checked against hand-computed values."""

from __future__ import annotations

from typing import Any

import pytest

from cardtable.sim.analysis import analyze, first_advantage, listed_reward, setting_stats


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


def test_forced_decisions_and_seat_names() -> None:
    lines = [
        _line(i, ["A", "B"], [0, 1], [1.0, 0.0], decisions=d, forced=f) for i, (d, f) in enumerate([(10, 2), (30, 3)])
    ]
    s = setting_stats(lines, ["Evil", "Good"])
    assert s["seat_names"] == ["Evil", "Good"]
    # 5 forced of 40 decisions; per game 2 and 3.
    assert (s["forced"]["total"], s["forced"]["decisions"], s["forced"]["share"]) == (5, 40, 0.125)
    assert s["forced"]["per_game"]["mean"]["estimate"] == 2.5
    assert s["first_player"]["by_seat"] == {"Evil": 2}
    # Lines of a run made before forced decisions were counted: no forced statistics, no guess.
    assert setting_stats(LINES)["forced"] is None
    assert setting_stats(LINES)["seat_names"] == ["P1", "P2"]


def test_whole_number_data_gets_whole_number_bins() -> None:
    s = setting_stats(LINES)
    hist = s["turns"]["histogram"]
    assert hist["whole"] and hist["edges"] == [3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5, 10.5]
    assert hist["counts"] == [1, 0, 1, 0, 1, 0, 1]
    # Scores per agent share one set of bins: A scored 1, 2, 1, 2 and B 2, 1, 2, 1 (seats rotate).
    shared = s["scores"]["histogram_by_agent"]
    assert shared["edges"] == [0.5, 1.5, 2.5]
    assert shared["counts"] == {"A": [2, 2], "B": [2, 2]}


def _cards(**by_how: dict[str, int]) -> dict[str, dict[str, int]]:
    return dict(by_how)


def test_card_rows_per_name_and_agent() -> None:
    # Four games, A and B rotating seats. A plays Greataxe in games 0 (won), 1 (won) and 3 (lost),
    # twice in game 1; B acquires Dagger in game 2 (shared win) only.
    lines = [
        _line(0, ["A", "B"], [0, 1], [1.0, 0.0], cards=[_cards(played={"Greataxe": 1}), {}]),
        _line(1, ["B", "A"], [1, 0], [0.0, 1.0], cards=[{}, _cards(played={"Greataxe": 2, "Imp": 1})]),
        _line(2, ["A", "B"], [0, 1], [0.5, 0.5], cards=[{}, _cards(acquired={"Dagger": 1})]),
        _line(3, ["B", "A"], [1, 0], [1.0, 0.0], cards=[{}, _cards(played={"Greataxe": 1})]),
    ]
    rows = {(r["agent"], r["how"], r["name"]): r for r in setting_stats(lines)["cards"]}
    assert set(rows) == {("A", "played", "Greataxe"), ("A", "played", "Imp"), ("B", "acquired", "Dagger")}
    axe = rows[("A", "played", "Greataxe")]
    assert (axe["games"], axe["of"], axe["uses"], axe["per_game"]) == (3, 4, 4, 4 / 3)
    # A won 1 + 1 + 0 of the games it played Greataxe in, and 0.5 of the one it did not.
    assert axe["win_used"]["estimate"] == pytest.approx(2 / 3)
    assert axe["win_not_used"]["estimate"] == pytest.approx(0.5)
    assert axe["difference"]["estimate"] == pytest.approx(2 / 3 - 0.5)
    assert axe["share_of_games"]["estimate"] == 0.75
    dagger = rows[("B", "acquired", "Dagger")]
    # B's other games: lost game 0, lost game 1, won game 3.
    assert (dagger["games"], dagger["win_used"]["estimate"]) == (1, 0.5)
    assert dagger["win_not_used"]["estimate"] == pytest.approx(1 / 3)
    # Rows: agents in order of appearance, played before acquired, most used first.
    order = [(r["agent"], r["name"]) for r in setting_stats(lines)["cards"]]
    assert order == [("A", "Greataxe"), ("A", "Imp"), ("B", "Dagger")]
    # A run made before card counts were kept has none (rather than an empty table).
    assert setting_stats(LINES)["cards"] is None


MANIFEST = {
    "game": "toy",
    "games": 4,
    "seed": 0,
    "settings": [
        {"label": "x=1", "options": {}, "seats": ["A", "B"]},
        {"label": "x=2", "options": {}, "seats": ["A", "B"]},
    ],
}


def test_grid_comparison_is_a_paired_difference_named_by_its_settings() -> None:
    base = [_line(i, ["A", "B"], [0, 1], [1.0, 0.0], turns=t) for i, t in enumerate([1, 2, 3, 4])]
    other = [_line(i, ["A", "B"], [0, 1], [0.0, 1.0], turns=t, setting=1) for i, t in enumerate([2, 4, 3, 7])]
    a = analyze(MANIFEST, base + other)
    c = a["comparisons"][0]
    assert c["title"] == "x=2 vs x=1" and c["games"] == 4
    rows = {r["metric"]: r for r in c["rows"]}
    assert rows["turns"]["label"] == "turns per game"
    assert (rows["turns"]["baseline"], rows["turns"]["setting"]) == (2.5, 4.0)
    diff = rows["turns"]["difference"]
    assert diff["estimate"] == 1.5
    assert diff["low"] == pytest.approx(1.5 - 2.054260, abs=1e-5)
    # Listed agent A (seat 0 in every game here) won every baseline game and none of the other's.
    assert rows["win:0"]["label"] == "win share of A" and rows["win:0"]["difference"]["estimate"] == -1.0
    assert rows["win:1"]["label"] == "win share of B" and rows["win:1"]["difference"]["estimate"] == 1.0
    assert rows["first"]["label"] == "first player's win share"
    # A share difference never reaches past [-1, 1], even where a t interval on 4 games would.
    assert all(
        -1.0 <= r["difference"]["low"] <= r["difference"]["high"] <= 1.0 for r in c["rows"] if r["unit"] == "share"
    )


def test_comparison_labels_name_both_agents_when_the_seat_lists_differ() -> None:
    manifest = dict(MANIFEST, settings=[
        {"label": "seats=A,B", "options": {}, "seats": ["A", "B"]},
        {"label": "seats=C,B", "options": {}, "seats": ["C", "B"]},
    ])  # fmt: skip
    base = [_line(i, ["A", "B"], [0, 1], [1.0, 0.0]) for i in range(3)]
    other = [_line(i, ["C", "B"], [0, 1], [0.0, 1.0], setting=1) for i in range(3)]
    labels = [r["label"] for r in analyze(manifest, base + other)["comparisons"][0]["rows"]]
    assert "win share of the 1st listed agent (C vs A)" in labels and "win share of B" in labels


def test_listed_agent_reward_averages_its_copies_around_the_table() -> None:
    # heuristic,random at 4 seats: listed positions 0..3 repeat the two specs; seat k holds position agents[k].
    line = {"wins": [1.0, 0.0, 0.0, 0.0], "agents": [3, 0, 1, 2]}
    assert listed_reward(line, 0, 2) == 0.0  # positions 0 and 2 sit at seats 1 and 3
    assert listed_reward(line, 1, 2) == 0.5  # positions 1 and 3 at seats 2 and 0
    assert first_advantage({"wins": [1.0, 0.0, 0.0, 0.0], "first": 0}) == 0.75


def test_an_incomplete_run_says_so() -> None:
    a = analyze(MANIFEST, [_line(0, ["A", "B"], [0, 1], [1.0, 0.0])])
    assert (a["games_played"], a["games_planned"], a["complete"]) == (1, 8, False)
    assert [s["games"] for s in a["settings"]] == [1, 0] and a["settings"][1]["planned"] == 4
    assert a["comparisons"][0]["rows"] == []


def test_a_details_entry_lists_its_most_common_values_first() -> None:
    """Mephisto solitaire's ranking read "Expert ..., Hard ..., Medium ..." by name whatever the counts;
    the most common value comes first, as the reasons do (ties by name)."""
    ranks = ["Medium", "Hard", "Medium", "Expert", "Medium", "Hard"]
    lines = [_line(i, ["A"], [0], [1.0], scores=[1.0], details={"ranking": r}) for i, r in enumerate(ranks)]
    assert list(setting_stats(lines)["details"]["ranking"]) == ["Medium", "Hard", "Expert"]
