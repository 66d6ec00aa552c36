"""``cardtable replay`` on a simulation's kept records (``simulate --records``): ``--game`` and
``--setting`` pick one game of the run's ``records.jsonl`` (or its folder), and every other case says
what there is to choose from."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.cli.conftest import Runner


def lines(folder: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in (folder / "records.jsonl").read_text().splitlines()]


@pytest.fixture
def run_folder(cli: Runner, tmp_path: Path) -> Path:
    run = cli("simulate", "mephisto", "--games", "3", "--seats", "random", "--records", "--out", "run")
    assert run.code == 0, run.err
    return tmp_path / "run"


def test_a_simulation_game_replays_by_its_number_from_the_file_or_the_folder(cli: Runner, run_folder: Path) -> None:
    chosen = next(line for line in lines(run_folder) if line["index"] == 1)
    record = chosen["record"]
    assert isinstance(record, dict)
    total = len(record["actions"])
    for where in (run_folder, run_folder / "records.jsonl"):
        run = cli("replay", str(where), "--game", "1", "--to", "2")
        assert run.code == 0, run.err
        assert f"action 2 of {total}" in run.out


def test_without_a_game_number_the_run_says_what_it_holds(cli: Runner, run_folder: Path) -> None:
    run = cli("replay", str(run_folder / "records.jsonl"))
    assert run.code == 2
    assert "holds 3 games of a simulation (games 0..2)" in run.err and "--game K" in run.err
    assert "Traceback" not in run.err


def test_a_game_the_run_did_not_keep_is_refused_naming_what_there_is(cli: Runner, run_folder: Path) -> None:
    run = cli("replay", str(run_folder), "--game", "7")
    assert run.code == 2 and "no record of game 7; it holds games 0..2" in run.err


def test_a_sweep_asks_for_the_setting_and_replays_the_one_named(cli: Runner, tmp_path: Path) -> None:
    sim = cli("simulate", "mephisto", "--games", "2", "--grid", "players=2,3", "--seats", "random", "--records")
    assert sim.code == 0, sim.err
    folder = next(p.parent for p in tmp_path.rglob("records.jsonl"))
    run = cli("replay", str(folder), "--game", "0")
    assert run.code == 2 and "game 0 was played in 2 settings: add --setting S" in run.err
    three = next(line for line in lines(folder) if line["setting"] == 1 and line["index"] == 0)["record"]
    assert isinstance(three, dict) and three["options"]["players"] == 3
    run = cli("replay", str(folder), "--game", "0", "--setting", "1", "--to", "0")
    assert run.code == 0, run.err
    assert f"action 0 of {len(three['actions'])}" in run.out


def test_what_is_no_simulation_record_gets_one_line(cli: Runner, tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    run = cli("replay", "empty", "--game", "0")
    assert run.code == 2 and "is a folder without records.jsonl" in run.err
    (tmp_path / "notes.jsonl").write_text("hello\n")
    run = cli("replay", "notes.jsonl", "--game", "0")
    assert run.code == 2 and "not a simulation's records" in run.err and "notes.jsonl:1" in run.err
    run = cli("replay", "missing.jsonl")
    assert run.code == 2 and "missing.jsonl" in run.err and "Traceback" not in run.err


def test_a_records_path_that_is_no_file_is_refused_as_the_card_files_are(cli: Runner, tmp_path: Path) -> None:
    """The same checks as every file cardtable reads (cardtable.engine.files), the file's role named."""
    os.mkfifo(tmp_path / "pipe.jsonl")  # never opened: a FIFO nobody writes would block a reader
    for path, why in [
        ("pipe.jsonl", "it is not a regular file (a device, FIFO or socket)"),
        ("/dev/null", "it is not a regular file (a device, FIFO or socket)"),
        ("nul\x00.jsonl", "the path contains a NUL byte"),
    ]:
        run = cli("replay", path, "--game", "0")
        assert run.code == 2 and "cannot read simulation records" in run.err and why in run.err, run.err
