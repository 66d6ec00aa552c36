"""What-if comparisons (``simulate --compare``): paired arms, zero shift for a game against itself, a
strong edit detected, several edits as a grid, and the paired interval of a card's win contribution."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

import pytest

from cardtable.engine import CardDataError, OptionError
from cardtable.sim.aggregate import RunAggregate
from cardtable.sim.analysis import finish
from cardtable.sim.plan import make_plan, parse_compare, split_values
from cardtable.sim.report import build_report
from cardtable.sim.run import run_plan
from cardtable.sim.stats import t_quantile
from cardtable.sim.store import read_results
from cardtable.sim.tally import WIN_UNITS
from cardtable.sim.whatif import grid_table, headlines, text_table, verdict, whatif_text


def _lines(folder: Path) -> list[dict[str, Any]]:
    return sorted(read_results(folder / "results.jsonl"), key=lambda o: (o["setting"], o["index"]))


def test_compare_plays_both_arms_on_the_same_deals_and_seats(tmp_path: Path) -> None:
    plan = make_plan("mephisto", seats="heuristic,random", games=6, seed=5, compare=parse_compare(["Imp.attack=9"]))
    assert [s.label for s in plan.settings] == ["original cards", "Imp.attack=9"]
    assert [s.card_edits for s in plan.settings] == [(), ("Imp.attack=9",)]
    assert [s.base for s in plan.settings] == [None, 0]
    assert plan.settings[0].config != plan.settings[1].config
    run_plan(plan, tmp_path, workers=2, progress=False)
    lines = _lines(tmp_path)
    arms = [[x for x in lines if x["setting"] == k] for k in (0, 1)]
    for a, b in zip(*arms, strict=True):
        assert (a["index"], a["seed"], a["seats"], a["agents"]) == (b["index"], b["seed"], b["seats"], b["agents"])
    assert [x["seed"] for x in arms[0]] == list(range(5, 11))
    comparison = build_report(tmp_path, plots=False).analysis["comparisons"][0]
    assert comparison["kind"] == "what-if" and comparison["games"] == 6


def test_a_game_compared_with_itself_shifts_by_zero(tmp_path: Path) -> None:
    # The Witch's printed attack is 12: the "edited" game is the same game under another config hash.
    plan = make_plan("mephisto", seats="random", games=40, seed=2, compare=parse_compare(["Witch.attack=12"]))
    assert plan.settings[0].config != plan.settings[1].config
    run_plan(plan, tmp_path, workers=1, progress=False)
    report = build_report(tmp_path, plots=False)
    c = report.analysis["comparisons"][0]
    assert c["games"] == 40 and {r["metric"] for r in c["rows"]} >= {"turns", "first-advantage", "seat:0", "seat:1"}
    for row in [*c["rows"], *c["cards"]]:
        d = row["difference"]
        assert d["estimate"] == 0 and d["low"] <= 0 <= d["high"], row
    assert c["cards"], "card contributions are compared"
    text = report.text
    assert text.index("What if:") < text.index("[original cards]")  # the answer comes first
    assert "with and without the edit, in every paired game; shift +0.0 points [+0.0, +0.0]" in text
    assert "no card's win contribution (win share when used minus when not) changes" in text


def test_a_strong_edit_is_detected_as_a_shift(tmp_path: Path) -> None:
    plan = make_plan("mephisto", seats="random", games=150, seed=0, compare=parse_compare(["Imp.attack=30"]))
    run_plan(plan, tmp_path, workers=2, progress=False)
    a = build_report(tmp_path, plots=False).analysis
    turns = next(r for r in a["comparisons"][0]["rows"] if r["metric"] == "turns")
    assert turns["difference"]["low"] > 0  # an Imp nobody can beat makes games longer
    length = dict(headlines(a, a["comparisons"][0]))["Length"]
    assert length.startswith("a game's length in turns grows from ") and "; shift +" in length


def test_several_edits_become_a_grid(tmp_path: Path) -> None:
    axes = parse_compare(["Imp.attack=2,30", "Greataxe.cost=0"])
    plan = make_plan("mephisto", seats="random", games=4, seed=1, compare=axes, grid=[("players", ("2", "3"))])
    labels = [s.label for s in plan.settings]
    assert labels == [
        "players=2 original cards",
        "players=2 Imp.attack=2 Greataxe.cost=0",
        "players=2 Imp.attack=30 Greataxe.cost=0",
        "players=3 original cards",
        "players=3 Imp.attack=2 Greataxe.cost=0",
        "players=3 Imp.attack=30 Greataxe.cost=0",
    ]
    # Each arm against the unedited game of its own grid point; grid points against the first.
    assert [s.base for s in plan.settings] == [None, 0, 0, 0, 3, 3]
    run_plan(plan, tmp_path, workers=2, progress=False)
    a = build_report(tmp_path, plots=False).analysis
    kinds = [(c["kind"], c["base_index"], c["index"]) for c in a["comparisons"]]
    assert kinds == [("what-if", 0, 1), ("what-if", 0, 2), ("grid", 0, 3), ("what-if", 3, 4), ("what-if", 3, 5)]
    head, rows = grid_table(a)
    assert head[:4] == ["edit", "games", "first player's edge", "turns"]
    assert [r[0] for r in rows] == [labels[k] for k in (1, 2, 4, 5)]
    assert "The edits side by side" in "\n".join(whatif_text(a))


def test_the_side_by_side_table_wraps_its_figures_into_parts_that_fit_80_columns() -> None:
    head = ["edit", "games", "first player's edge", "turns", "win share of P1"]
    body = [
        ["Witch.attack=8", "20", "+20.0 points (+0.0 points [+0.0, +0.0])", "34.4 (-0.1 [-0.3, +0.1])", "50%"],
        ["Witch.attack=10", "20", "+20.0 points (+1.0 points [+0.0, +2.0])", "34.0 (-0.5 [-0.9, -0.1])", "51%"],
    ]
    lines = text_table(head, body)
    assert max(len(line) for line in lines) <= 80
    parts = "\n".join(lines).split("\n\n")
    assert len(parts) == 2  # the edge alone, then turns and P1's share
    for part in parts:
        rows = part.splitlines()
        assert rows[0].startswith("  edit            | games | ")
        assert [r.split("|")[0].strip() for r in rows[2:]] == ["Witch.attack=8", "Witch.attack=10"]
    assert "34.0 (-0.5 [-0.9, -0.1])" in parts[1] and "51%" in parts[1]
    # A table that fits is one part; a single figure wider than the width still gets its own part.
    assert len(text_table(head[:3], [r[:3] for r in body], width=200)) == 4
    assert "\n\n" not in "\n".join(text_table(head[:3], [r[:3] for r in body], width=10))


def test_compare_input_is_checked() -> None:
    assert split_values('8, 10,[20, 30],"a,b"') == ("8", "10", "[20, 30]", '"a,b"')
    assert parse_compare(["Naughty Sorceress.powers[0]=15,30"]) == (("Naughty Sorceress.powers[0]", ("15", "30")),)
    for bad, says in [
        ("Witch=3", "CARD.FIELD=VALUE"),
        ("Witch.attack=", "CARD.FIELD=VALUE"),
        ("Witch.attack=3,,4", "empty value"),
        ("Witch.attack=3,3", "listed twice"),
    ]:
        with pytest.raises(OptionError, match=says):
            parse_compare([bad])
    with pytest.raises(OptionError, match="given twice"):
        parse_compare(["Witch.attack=3", "Witch.attack=4"])
    with pytest.raises(CardDataError, match="field 'attack': must be at most 30"):
        make_plan("mephisto", compare=parse_compare(["Witch.attack=31"]))
    with pytest.raises(CardDataError, match="edited twice"):
        make_plan("mephisto", card_edits=["Witch.attack=3"], compare=parse_compare(["Witch.attack=4"]))


def test_run_card_edits_apply_to_every_arm(tmp_path: Path) -> None:
    plan = make_plan("mephisto", games=2, card_edits=["Witch.souls=9"], compare=parse_compare(["Imp.attack=5"]))
    assert [s.card_edits for s in plan.settings] == [("Witch.souls=9",), ("Witch.souls=9", "Imp.attack=5")]
    run_plan(plan, tmp_path, workers=1, progress=False)
    text = build_report(tmp_path, plots=False).text
    assert "Every game with the card edits: Witch.souls=9." in text
    assert json.loads((tmp_path / "manifest.json").read_text())["card_edits"] == ["Witch.souls=9"]


# -- the paired interval of a card's win contribution, checked against a direct computation ---------


def _synthetic(n: int, seed: int) -> list[dict[str, Any]]:
    """Lines of two arms over n paired games, two seats of one agent, a card used at random, wins
    depending on it differently in each arm (so the contributions differ)."""
    r = random.Random(seed)
    out = []
    for i in range(n):
        for arm, p_used in ((0, 0.7), (1, 0.4)):
            used = [r.random() < 0.5, r.random() < 0.5]
            winner = 0 if r.random() < (p_used if used[0] else 1 - p_used) else 1
            wins = [1.0 if s == winner else 0.0 for s in range(2)]
            cards = [{"played": {"Axe": 1}} if u else {} for u in used]
            out.append(
                {
                    "setting": arm, "index": i, "seed": i, "seats": ["a", "a"], "agents": [0, 1], "first": 0,
                    "decisions": 3, "turns": 2, "reason": "r", "wins": wins, "cards": cards,
                    "result": {"scores": wins, "details": {}},
                }
            )  # fmt: skip
    return out


def _direct(lines: list[dict[str, Any]]) -> tuple[float, float, float]:
    """Contribution in each arm and the delta-method standard error of the shift, from per-game
    influence values computed one by one."""
    n = len(lines) // 2
    feats: dict[int, list[tuple[float, int, float, int]]] = {arm: [] for arm in (0, 1)}
    for line in lines:
        u = sum(1 for c in line["cards"] if c)
        uw = sum(w for w, c in zip(line["wins"], line["cards"], strict=True) if c)
        feats[line["setting"]].append((uw, u, sum(line["wins"]), 2))
    contrib, psi = {}, {}
    for arm, rows in feats.items():
        su = sum(r[1] for r in rows)
        suw = sum(r[0] for r in rows)
        sw = sum(r[2] for r in rows)
        sm = sum(r[3] for r in rows)
        pu, pn = suw / su, (sw - suw) / (sm - su)
        ub, vb = su / n, (sm - su) / n
        contrib[arm] = pu - pn
        psi[arm] = [(uw - pu * u) / ub - ((w - uw) - pn * (m - u)) / vb for uw, u, w, m in rows]
    d = [b - a for a, b in zip(psi[0], psi[1], strict=True)]
    mean = sum(d) / n
    var = sum((x - mean) ** 2 for x in d) / (n - 1)
    return contrib[0], contrib[1], math.sqrt(var / n)


def test_card_contribution_shift_matches_a_direct_computation() -> None:
    lines = _synthetic(300, 7)
    manifest: dict[str, Any] = {
        "game": "toy", "games": 300, "seed": 0,
        "settings": [
            {"label": "original cards", "options": {}, "seats": ["a"], "base": None},
            {"label": "Axe.power=2", "options": {}, "seats": ["a"], "base": 0, "card_edits": ["Axe.power=2"]},
        ],
    }  # fmt: skip
    agg = RunAggregate(manifest["settings"]).add_all(lines)
    row = finish(manifest, agg)["comparisons"][0]["cards"][0]
    ca, cb, se = _direct(lines)
    assert row["baseline"] == pytest.approx(ca) and row["setting"] == pytest.approx(cb)
    half = t_quantile(299) * se
    assert row["difference"]["estimate"] == pytest.approx(cb - ca)
    assert row["difference"]["low"] == pytest.approx(cb - ca - half)
    assert row["difference"]["high"] == pytest.approx(cb - ca + half)
    assert row["difference"]["high"] < 0  # the card helps less in arm 1, and 300 games show it


# -- aggregates: the same whatever the split, and bounded in memory ---------------------------------


def test_aggregates_merge_to_the_same_report_whatever_the_split() -> None:
    lines = _synthetic(200, 3)
    settings: list[dict[str, Any]] = [{"seats": ["a"], "base": None}, {"seats": ["a"], "base": 0}]
    whole = RunAggregate(settings).add_all(lines)
    r = random.Random(1)
    shuffled = lines[:]
    r.shuffle(shuffled)
    merged = RunAggregate(settings)
    for k in range(0, len(shuffled), 37):  # batches that split pairs, merged in a shuffled order
        merged.merge(RunAggregate(settings).add_all(shuffled[k : k + 37]))
    manifest = {
        "game": "toy",
        "games": 200,
        "seed": 0,
        "settings": [dict(s, label=str(k), options={}) for k, s in enumerate(settings)],
    }
    assert json.dumps(finish(manifest, merged), sort_keys=True) == json.dumps(finish(manifest, whole), sort_keys=True)
    assert not merged.pending and not whole.pending


def _deep_size(obj: Any, seen: set[int] | None = None) -> int:
    """Bytes held by an object and everything it refers to (each object once)."""
    import sys

    seen = set() if seen is None else seen
    if id(obj) in seen or isinstance(obj, type):
        return 0
    seen.add(id(obj))
    size = sys.getsizeof(obj)
    if isinstance(obj, dict):
        size += sum(_deep_size(k, seen) + _deep_size(v, seen) for k, v in obj.items())
    elif isinstance(obj, list | tuple | set | frozenset):
        size += sum(_deep_size(x, seen) for x in obj)
    elif hasattr(obj, "__dict__"):
        size += _deep_size(vars(obj), seen)
    elif hasattr(obj, "__slots__"):
        size += sum(_deep_size(getattr(obj, k), seen) for k in obj.__slots__ if hasattr(obj, k))
    return size


def test_a_long_stream_is_aggregated_in_bounded_memory() -> None:
    """The aggregate of a stream keeps counts, not games: ten times the games, the same memory."""
    settings: list[dict[str, Any]] = [{"seats": ["a"], "base": None}, {"seats": ["a"], "base": 0}]

    def stream(n: int) -> Any:
        r = random.Random(5)
        for i in range(n):
            for arm in (0, 1):
                w = r.random() < 0.5
                yield {
                    "setting": arm, "index": i, "seed": i, "seats": ["a", "a"], "agents": [0, 1], "first": 0,
                    "decisions": 40 + r.randrange(60), "turns": 10 + r.randrange(30), "reason": "r",
                    "wins": [float(w), float(not w)], "cards": [{"played": {f"c{r.randrange(40)}": 1}}, {}],
                    "result": {"scores": [float(r.randrange(20)), 0.0], "details": {}},
                }  # fmt: skip

    sizes = []
    for n in (1_000, 10_000):
        agg = RunAggregate(settings).add_all(stream(n))
        assert agg.lines == 2 * n and not agg.pending
        sizes.append(_deep_size(agg))
    small, large = sizes
    # The same distinct values and cards appear in both, so the aggregate does not grow with the games
    # (only its exact sums gain a few digits); a game kept in memory would cost a kilobyte each.
    assert large - small < 32_000, (small, large)


def test_win_shares_are_summed_exactly() -> None:
    assert WIN_UNITS % 16 == WIN_UNITS % 7 == WIN_UNITS % 9 == 0
    lines = [
        {"setting": 0, "index": i, "seats": ["a"] * 3, "agents": [0, 1, 2], "first": 0, "decisions": 1,
         "turns": 1, "reason": "r", "wins": [1 / 3] * 3, "result": None}
        for i in range(3)
    ]  # fmt: skip
    agg = RunAggregate([{"seats": ["a"]}]).add_all(lines)
    assert agg.settings[0].total_wins == 3 * WIN_UNITS


def test_a_card_used_in_too_few_games_is_not_compared() -> None:
    """A card used once has a win share of 0 or 1 with no spread: the delta method would call any
    flip a certain shift, so such a card is left out."""
    lines = []
    for i in range(200):
        for arm in (0, 1):
            used = i == 7  # used in one game only, won in one arm and lost in the other
            won = (arm == 1) if used else (i % 2 == 0)
            lines.append(
                {
                    "setting": arm, "index": i, "seats": ["a", "a"], "agents": [0, 1], "first": 0, "decisions": 3,
                    "turns": 2, "reason": "r", "wins": [float(won), float(not won)],
                    "cards": [{"played": {"Rare": 1}} if used else {}, {}], "result": None,
                }
            )  # fmt: skip
    manifest: dict[str, Any] = {
        "game": "toy", "games": 200, "seed": 0,
        "settings": [{"label": "a", "options": {}, "seats": ["a"], "base": None},
                     {"label": "b", "options": {}, "seats": ["a"], "base": 0, "card_edits": ["X.y=1"]}],
    }  # fmt: skip
    agg = RunAggregate(manifest["settings"]).add_all(lines)
    assert finish(manifest, agg)["comparisons"][0]["cards"] == []


def test_an_edge_reads_in_points_as_in_every_other_table() -> None:
    d = {"estimate": -0.06, "low": -0.091, "high": -0.029, "n": 100}
    text = verdict("the first player's edge", "points", 0.08, 0.02, d, {"low": -0.01, "high": 0.05, "n": 100})
    assert text == (
        "the first player's edge falls from +8.0 points to +2.0 points [-1.0, +5.0]; shift -6.0 points [-9.1, -2.9]"
    )
