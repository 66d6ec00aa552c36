"""``cardtable replay``: verification, stepping, ``--to`` and seat views."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import cardtable
from tests.cli.conftest import Runner


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    """A finished bots-only game of the named toy, saved as a record file."""
    game = cardtable.load("named-toy")
    state = game.new(31)
    while not state.is_over:
        state.apply(state.legal_actions()[-1])  # draw while it can: hands change hidden contents
    path = tmp_path / "g.json"
    path.write_text(json.dumps(state.record(), indent=2))
    return path


def test_replay_to_k_prints_the_state_after_k_actions(cli: Runner, record_file: Path) -> None:
    record = json.loads(record_file.read_text())
    k = 3
    run = cli("replay", str(record_file), "--to", str(k), "--seat", "1")
    assert run.code == 0, run.err
    assert f"action {k} of {len(record['actions'])}" in run.out
    state = cardtable.replay(record, upto=k)
    for card in state.view(0)["hand"]:
        assert card["name"] in run.out


def test_replay_as_a_seat_hides_the_other_seats_cards(cli: Runner, record_file: Path) -> None:
    record = json.loads(record_file.read_text())
    k = 2
    state = cardtable.replay(record, upto=k)
    theirs = [c for c in state.snapshot()["hands"][1]]
    run = cli("replay", str(record_file), "--to", str(k), "--seat", "P1")
    from tests.cli.named_toy import NAMES

    for c in theirs:
        # Seat P2 holds these now and never showed them before action k.
        assert NAMES[c] not in run.out
    # The spectator by default sees no hand at all; --reveal shows every action's text.
    spectator = cli("replay", str(record_file), "--to", str(k), "--reveal")
    assert record["actions"][k - 1] in spectator.out


def test_replay_steps_forward_back_and_quits(cli: Runner, record_file: Path) -> None:
    run = cli("replay", str(record_file), "--step", input=["", "", "b", "x", "q"])
    assert run.code == 0
    shown = [line for line in run.out.splitlines() if "seen by spectator" in line]
    assert [s.split("action ")[1].split(" of")[0] for s in shown] == ["0", "1", "2", "1"]
    assert "not understood" in run.out


def test_replay_step_ends_cleanly_at_eof_and_at_the_edges(cli: Runner, record_file: Path) -> None:
    total = len(json.loads(record_file.read_text())["actions"])
    run = cli("replay", str(record_file), "--step", input=["b", str(total), ""])
    assert run.code == 0
    assert "start of the game" in run.out and "last action" in run.out
    assert "Result" in run.out


def test_replay_without_step_prints_the_whole_game(cli: Runner, record_file: Path) -> None:
    run = cli("replay", str(record_file))
    assert run.code == 0
    assert "Result" in run.out and "P1 plays" in run.out


def test_a_diverging_record_names_the_action(cli: Runner, record_file: Path, tmp_path: Path) -> None:
    record = json.loads(record_file.read_text())
    record["hashes"][4] = "000000000000"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record))
    run = cli("replay", str(bad))
    assert run.code == 2
    assert "diverges at action 4" in run.err


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "must be a JSON object"),
        ('{"format": "x"}', "not a cardtable record"),
    ],
)
def test_broken_record_files_exit_2(cli: Runner, tmp_path: Path, content: str, needle: str) -> None:
    (tmp_path / "r.json").write_text(content)
    run = cli("replay", "r.json")
    assert run.code == 2 and needle in run.err


def test_bad_seat_and_bad_k_exit_2(cli: Runner, record_file: Path) -> None:
    assert "seats are P1, P2 (or 1..2)" in cli("replay", str(record_file), "--seat", "3").err
    run = cli("replay", str(record_file), "--to", "9999")
    assert run.code == 2 and "--to 9999" in run.err
