"""``cardtable cards GAME``: the bundled card file a user copies to transcribe their own cards."""

from __future__ import annotations

from pathlib import Path

import pytest

import cardtable
from tests.cli.conftest import Runner


@pytest.mark.parametrize("game_id", ["mephisto", "doctor-strange", "army-of-darkness", "mr-card-game"])
def test_cards_names_the_bundled_file_and_how_to_use_a_copy(cli: Runner, game_id: str) -> None:
    run = cli("cards", game_id)
    assert run.code == 0, run.err
    path = Path(next(line.strip() for line in run.out.splitlines() if line.strip().endswith("cards.toml")))
    assert path.is_file()
    assert f"cardtable cards {game_id} --template > my-{game_id}-cards.toml" in run.out
    assert f"cardtable play {game_id} -o cards=my-{game_id}-cards.toml" in run.out


def test_the_template_is_the_bundled_file_and_plays(cli: Runner, tmp_path: Path) -> None:
    run = cli("cards", "Mephisto", "--template")
    assert run.code == 0, run.err
    mine = tmp_path / "mine.toml"
    mine.write_text(run.out, encoding="utf-8")
    game = cardtable.load("mephisto", cards=str(mine))
    assert game.card_hash == cardtable.load("mephisto").card_hash


def test_a_game_without_a_card_file_says_so(cli: Runner) -> None:
    run = cli("cards", "toy")
    assert run.code == 2
    assert "toy ships no card file (cards.toml) to copy" in run.err
