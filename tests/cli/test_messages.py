"""The rough messages a new user met (issue 19), each pinned: game ids in any case, "did you mean"
for a misspelt game, option or agent, grammar of number errors, the replay's real flag, a replay
position out of range."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import cardtable
from cardtable.engine import OptionError
from tests.cli.conftest import Runner


def test_a_game_id_in_capitals_is_the_game(cli: Runner) -> None:
    run = cli("play", "Mephisto", "--seed", "1", input=["quit", ""])
    assert run.code == 0, run.err
    assert "Mephisto" in run.out and "Game left" in run.out
    assert cardtable.load("MR_CARD_GAME").id == "mr-card-game"


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["play", "mephsto"], "unknown game 'mephsto' (did you mean 'mephisto'?)"),
        (["options", "doctor-strage"], "(did you mean 'doctor-strange'?)"),
        (["play", "toy", "--seats", "human,heuristc"], "unknown agent 'heuristc' (did you mean 'heuristic'?)"),
        (["play", "toy", "--seats", "human,Random"], "(did you mean 'random'?)"),
        (["play", "mephisto", "-o", "plyers=2"], "unknown option 'plyers' (did you mean 'players'?)"),
        (["play", "toy", "--seats", "human,ismcts:iteration=5"], "iteration (did you mean 'iterations'?)"),
        (["play", "toy", "--seats", "human,ismcts:iterations=x"], "option 'iterations' must be a whole number"),
        (["play", "toy", "--seats", "human,ismcts:ms=x"], "option 'ms' must be a number, got 'x'"),
    ],
)
def test_misspellings_get_a_did_you_mean(cli: Runner, argv: list[str], needle: str) -> None:
    run = cli(*argv)
    assert run.code == 2
    assert needle in run.err
    assert "a int" not in run.err and "a float" not in run.err


def test_nothing_close_gets_no_guess() -> None:
    with pytest.raises(OptionError) as info:
        cardtable.load("chess")
    assert "did you mean" not in str(info.value)


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    game = cardtable.load("named-toy")
    state = game.new(31)
    while not state.is_over:
        state.apply(state.legal_actions()[-1])
    path = tmp_path / "g.json"
    path.write_text(json.dumps(state.record(), indent=2))
    return path


def test_a_replay_position_past_the_end_is_out_of_range(cli: Runner, record_file: Path) -> None:
    total = len(json.loads(record_file.read_text())["actions"])
    run = cli("replay", str(record_file), "--step", input=["999", "q"])
    assert run.code == 0
    assert f"999 is out of range: this record has actions 0 to {total}" in run.out
    assert "not understood" not in run.out


def test_the_replay_names_its_real_flag(cli: Runner, record_file: Path) -> None:
    record = json.loads(record_file.read_text())
    del record["hashes"]
    record_file.write_text(json.dumps(record))
    run = cli("replay", str(record_file))
    assert run.code == 2
    assert "cardtable replay --unverified" in run.err
    record = cardtable.replay(dict(record, hashes=None), verify=False).record()
    record["cards"] = "0" * 16  # made with other card data
    record_file.write_text(json.dumps(record))
    run = cli("replay", str(record_file))
    assert run.code == 2
    assert "--unverified" in run.err and "verify=False in Python" in run.err
    assert cli("replay", str(record_file), "--unverified", "--to", "1").code == 0


def test_loot_hex_names_the_choices_instead_of_number_grammar(cli: Runner) -> None:
    """The finding: ``loot hex`` said "card='hex' is not a number" although names work elsewhere
    (``summon witch``). Mephisto, seed 7: Hex is in P1's hand; the cards P1 may loot are listed."""
    run = cli("play", "mephisto", "--seed", "7", "--seats", "human,random", input=["loot hex", "loot mind", "quit", ""])
    assert run.code == 0, run.err
    assert "not a number" not in run.out
    assert "no card called 'hex' is among the choices now: loot Mind Rot #46" in run.out
    record = run.out.split("P1 > loot mind", 1)[1]
    assert "Mind Rot" in record  # `loot mind` took Mind Rot: the next screen says so
