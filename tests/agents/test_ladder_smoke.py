"""A smoke test of ``benchmarks/ladder.py``: a few games at a tiny budget check the plumbing (paired
deals, rotated seats, resuming, the oracle, the tables). Strength is measured there, never here."""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

import cardtable
from cardtable.agents import AGENTS

LADDER = Path(__file__).resolve().parents[2] / "benchmarks" / "ladder.py"


@pytest.fixture(scope="module")
def ladder() -> Iterator[ModuleType]:
    spec = importlib.util.spec_from_file_location("cardtable_ladder", LADDER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    yield module
    AGENTS.pop("oracle", None)  # registered by the benchmark for its own runs only
    AGENTS.pop("handsoracle", None)


def test_a_pairing_plays_paired_deals_from_both_seats_and_resumes(
    ladder: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "ds.jsonl"
    argv = ["pair", "doctor-strange", "strong:iterations=4", "random", "--games", "4", "--out", str(out), "--quiet"]
    assert ladder.main(argv) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["index"] for r in rows) == [0, 1, 2, 3]
    # Deal d is played from both rotations: games 2d and 2d+1 share it.
    assert [(r["deal"], r["rotation"]) for r in sorted(rows, key=lambda r: r["index"])] == [
        (0, 0),
        (0, 1),
        (1, 0),
        (1, 1),
    ]
    assert all(0.0 <= r["hero"] <= 1.0 and r["hero_searched"] > 0 for r in rows)
    assert "over 4 games" in capsys.readouterr().out
    # Run again with more games: only the missing ones are played.
    assert ladder.main([*argv[:5], "6", *argv[6:]]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["index"] for r in rows) == [0, 1, 2, 3, 4, 5]


def test_a_run_from_a_later_deal_plays_the_games_a_full_run_plays_there(ladder: ModuleType, tmp_path: Path) -> None:
    match = ladder.Match("doctor-strange", (("players", 2),), ("strong:iterations=3", "heuristic"))
    out = tmp_path / "later.jsonl"
    rows = ladder.run_match(match, 2, 7, out=out, first=4)
    assert [(r["index"], r["deal"], r["rotation"]) for r in rows] == [(4, 2, 0), (5, 2, 1)]
    full = [ladder.play(match, 7, i) for i in (4, 5)]
    for a, b in zip(rows, full, strict=True):
        assert (a["hero"], a["decisions"], a["hero_iterations"]) == (b["hero"], b["decisions"], b["hero_iterations"])
    assert len(out.read_text().splitlines()) == 2
    with pytest.raises(ValueError, match="whole number of deals"):
        ladder.run_match(match, 2, 7, first=3)
    with pytest.raises(SystemExit, match="multiple of 2"):
        ladder.main(["pair", "doctor-strange", "random", "random", "--games", "2", "--first", "1", "--quiet"])


def test_the_same_pairing_gives_the_same_games(ladder: ModuleType) -> None:
    match = ladder.Match("doctor-strange", (("players", 2),), ("strong:iterations=3", "heuristic"))
    first = [ladder.play(match, 7, i) for i in range(2)]
    second = [ladder.play(match, 7, i) for i in range(2)]
    for a, b in zip(first, second, strict=True):
        assert (a["hero"], a["decisions"], a["hero_iterations"]) == (b["hero"], b["decisions"], b["hero_iterations"])


def test_multiplayer_puts_the_hero_at_every_seat(ladder: ModuleType) -> None:
    match = ladder.Match("army-of-darkness", (("players", 3),), ("strong:iterations=2", "random"))
    rows = ladder.run_match(match, 3, 5)
    assert [r["rotation"] for r in rows] == [0, 1, 2] and {r["deal"] for r in rows} == {0}


def test_the_oracle_is_a_benchmark_agent_that_sees_the_true_state(ladder: ModuleType) -> None:
    from cardtable.agents import Observation, make_agent

    game = cardtable.load("doctor-strange")
    oracle = make_agent("oracle:iterations=5", game, 1)
    state = game.new(2, log=False)
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    seat = state.current_player
    assert seat is not None
    assert oracle.choose(Observation(state, seat)) in state.legal_actions()


def test_the_hands_oracle_sees_every_hand_and_not_the_deck_order(ladder: ModuleType) -> None:
    """``handsoracle`` separates reading the hands from knowing the draws: its samples keep every hand
    and the cards in play as they truly are and redeal the cards of the deck and the face-down corners
    among those zones, each sample its own."""
    from cardtable.agents import Observation, make_agent
    from cardtable.engine.rng import Rng
    from cardtable.games.mephisto.rules import MephistoState

    oracle = sys.modules["oracle"]
    game = cardtable.load("mephisto", players=4, teams=True)
    state = game.new(5, log=False)
    assert isinstance(state, MephistoState)
    for _ in range(30):
        state.apply(state.legal_actions()[0])
    seat = state.current_player
    assert seat is not None
    before = (list(state.deck), list(state.corners), [list(h) for h in state.hands])
    obs = oracle.HandsObservation(state, seat)
    orders = set()
    for i in range(6):
        sample = obs.sample(Rng(i))
        assert sample.hands == state.hands and sample.inplay == state.inplay
        assert sorted(sample.deck + sample.corners) == sorted(state.deck + state.corners)
        assert (len(sample.deck), len(sample.corners)) == (len(state.deck), len(state.corners))
        orders.add(tuple(sample.deck))
    assert (state.deck, state.corners, state.hands) == before  # the true state is left as it was
    assert len(orders) > 1
    hands_oracle = make_agent("handsoracle:iterations=5", game, 1)
    assert hands_oracle.choose(Observation(state, seat)) in state.legal_actions()
    with pytest.raises(ValueError, match="no unseen zones listed"):
        make_agent("handsoracle", cardtable.load("doctor-strange"), 1)


def test_the_tables_print_from_stored_games(
    ladder: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "table"
    assert ladder.main(["table", "--out", str(out), "--no-play", "--only", "doctor-strange"]) == 0
    text = capsys.readouterr().out
    assert "| doctor-strange |" in text and "strong vs heuristic" in text and "expert vs hard" in text
    path = tmp_path / "ds.jsonl"
    assert (
        ladder.main(["pair", "doctor-strange", "random", "random", "--games", "2", "--out", str(path), "--quiet"]) == 0
    )
    assert ladder.main(["summary", str(path)]) == 0
    printed = capsys.readouterr().out
    assert "random vs random" in printed and "ended by: " in printed


def test_one_pairing_has_one_key_however_its_options_are_spelled(
    ladder: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # `-o teams=true` on the command line and `teams=True` in the device run's table: one pairing.
    typed = ladder.Match("mephisto", ladder.options_of(["players=4", "teams=true"], "mephisto"), ("random", "random"))
    scripted = ladder.Match("mephisto", (("players", 4), ("teams", True)), ("random", "random"))
    assert typed.key() == scripted.key() == "mephisto[players=4,teams=True] random vs random"
    # Files written before the keys were read alike: games 0-3 under one spelling, 4-7 under the other.
    path = tmp_path / "teams.jsonl"
    rows = ladder.run_match(scripted, 8, 3, out=path)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    for row in lines[:4]:
        row["key"] = row["key"].replace("teams=True", "teams=true")
    path.write_text("".join(json.dumps(row) + "\n" for row in lines))
    assert list(ladder.read_rows(path)) == [f"{scripted.key()} seed=3"]
    # A resumed run finds all eight under either spelling and plays none again.
    again = ladder.run_match(typed, 8, 3, out=path)
    assert [(r["index"], r["hero"], r["decisions"]) for r in again] == [
        (r["index"], r["hero"], r["decisions"]) for r in rows
    ]
    assert len(path.read_text().splitlines()) == 8
    assert ladder.main(["summary", str(path), "--base", "teams=True] random"]) == 0
    assert "n=8 " in capsys.readouterr().out
    # The hero's even share is its team's: one in two teams, not one in four seats.
    assert ladder.even_share(typed.load()) == 0.5
    assert ladder.even_share(cardtable.load("mephisto", players=4)) == 0.25
    # What names no game, or options the game refuses, is kept as it was written.
    for key in ("nogame[players=4] a vs b", "mephisto[players=9] a vs b", "no brackets"):
        assert ladder.canonical_key(key) == key


def test_the_summary_says_how_games_ended(ladder: ModuleType) -> None:
    rows = [{"reason": "turn-limit"}, {"reason": "sorceress-defeated"}, {"reason": "sorceress-defeated"}, {}]
    assert ladder.endings(rows) == "sorceress-defeated 2, turn-limit 1, unrecorded 1"
    assert ladder.endings([{}, {"hero": 1.0}]) == ""


def test_the_timed_device_run_plays_every_pairing_and_leaves_its_summary(ladder: ModuleType, tmp_path: Path) -> None:
    device = _device(ladder)
    out = tmp_path / "run"
    argv = ["--out", str(out), "--only", "doctor-strange", "--games", "2", "--iterations", "3", "--workers", "2"]
    assert device.main([*argv, "--minutes", "5"]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["run"]["final"] is True
    pairings = summary["pairings"]
    # The headline, the ceiling, both against random and the four levels: two games each, both seats.
    assert len(pairings) == 8 and {p["games"] for p in pairings.values()} == {2}
    assert "strong:iterations=3 vs heuristic" in " ".join(pairings)
    rows = [json.loads(line) for line in (out / "doctor-strange.jsonl").read_text().splitlines()]
    assert len(rows) == 16 and {r["rotation"] for r in rows} == {0, 1}
    assert all(isinstance(r["reason"], str) and r["reason"] and r["turns"] > 0 for r in rows)
    assert "| doctor-strange |" in (out / "summary.md").read_text()
    # A second run resumes: nothing is played again.
    again = tmp_path / "again"
    assert device.main(["--resume", str(out), *argv[:1], str(again), *argv[2:], "--minutes", "5"]) == 0
    assert (again / "doctor-strange.jsonl").read_text() == (out / "doctor-strange.jsonl").read_text()


def _device(ladder: ModuleType) -> ModuleType:
    """benchmarks/ladder_device.py, loaded as a module (it imports the ladder by its file name)."""
    spec = importlib.util.spec_from_file_location("cardtable_ladder_device", LADDER.with_name("ladder_device.py"))
    assert spec is not None and spec.loader is not None
    device = importlib.util.module_from_spec(spec)
    sys.modules["ladder"] = ladder
    sys.modules[spec.name] = device
    spec.loader.exec_module(device)
    return device


def test_the_device_run_plays_only_the_tiers_it_is_given(ladder: ModuleType, tmp_path: Path) -> None:
    device = _device(ladder)
    out = tmp_path / "multi"
    argv = ["--out", str(out), "--only", "mephisto", "--games", "4", "--iterations", "3", "--workers", "2"]
    assert device.main([*argv, "--tiers", "multiplayer=1", "--minutes", "5"]) == 0
    pairings = json.loads((out / "summary.json").read_text())["pairings"]
    # Mephisto's three multiplayer configurations, each to whole rotations of its seats (3 of 4 at 3 players).
    assert {key: p["games"] for key, p in pairings.items()} == {
        "mephisto[players=3] strong:iterations=3 vs heuristic": 3,
        "mephisto[players=4] strong:iterations=3 vs heuristic": 4,
        "mephisto[players=4,teams=True] strong:iterations=3 vs heuristic": 4,
    }
    rows = [json.loads(line) for line in (out / "mephisto.jsonl").read_text().splitlines()]
    assert all("players=2" not in r["key"] for r in rows) and len(rows) == 11


def test_a_finish_tier_completes_the_pairing_nearest_its_target_first(ladder: ModuleType, tmp_path: Path) -> None:
    device = _device(ladder)
    lines = device.plan(["doctor-strange"], 10, iterations=3)
    near = next(line for line in lines if line.tier == "random" and "heuristic vs" in line.match.key())
    for line in lines:
        if line.tier == "random":
            line.done = {i: 0.1 for i in range(8 if line is near else 2)}
    even = device.Run(tmp_path, lines, 1, 60, 1000, tiers={"random": 1.0})
    assert "strong" in even.pick(0.0).match.key()  # the farthest from its target: 2 of 10
    nearest = device.Run(tmp_path, lines, 1, 60, 1000, tiers={"random": 1.0}, finish=["random"])
    assert nearest.pick(0.0) is near  # 8 of 10


def test_games_of_an_earlier_run_do_not_count_as_this_runs_time(ladder: ModuleType, tmp_path: Path) -> None:
    device = _device(ladder)
    lines = device.plan(["doctor-strange"], 10, iterations=3)
    headline = next(line for line in lines if line.tier == "headline")
    other = next(line for line in lines if line.tier == "random")
    with (tmp_path / "doctor-strange.jsonl").open("w") as fh:
        for i in range(8):  # resumed: 8 games of 100 s each
            fh.write(json.dumps({"key": headline.match.key(), "seed": 1000, "index": i, "seconds": 100.0}) + "\n")
    run = device.Run(tmp_path, lines, 2, 600, 1000, tiers={"headline": 1.0, "random": 1.0})
    run.load_done()
    assert len(headline.done) == 8 and headline.earlier_s == 800
    other.running[0] = 0.0  # this run has spent 50 s on the other tier, nothing on the headline
    assert run.pick(50.0) is headline


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("headline=0.5,bogus=1", "'bogus=1' is not TIER=SHARE"),
        ("headline", "'headline' is not TIER=SHARE"),
        ("headline=lots", "the share of headline is not a number"),
        ("headline=-1", "must be 0 or more"),
        ("headline=0", "every share is 0"),
    ],
)
def test_a_bad_tiers_option_is_refused_by_name(ladder: ModuleType, text: str, message: str) -> None:
    device = _device(ladder)
    with pytest.raises(argparse.ArgumentTypeError, match=message):
        device.parse_tiers(text)
    assert device.parse_tiers("multiplayer=2,ceiling=1")["headline"] == 0


def test_only_whole_deals_count(ladder: ModuleType) -> None:
    rows = {i: {"index": i} for i in (0, 1, 2, 4, 5, 7)}
    assert [r["index"] for r in ladder.whole_deals(rows, 2)] == [0, 1, 4, 5]
    assert [r["index"] for r in ladder.whole_deals(rows, 3)] == [0, 1, 2]
