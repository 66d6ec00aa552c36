"""``cardtable play --card EDIT``: a game with what-if card edits, saved with them, resumed with them."""

from __future__ import annotations

import json
from pathlib import Path

import cardtable
from tests.cli.conftest import Runner


def test_play_with_card_edits_saves_them_and_the_record_replays(cli: Runner, tmp_path: Path) -> None:
    args = ("play", "mephisto", "--seats", "human,random", "--seed", "4")
    run = cli(*args, "--card", "Witch.attack=10", "--card", "Greataxe.cost = 3", input=["1", "quit", "part.json"])
    assert run.code == 0, run.err
    record = json.loads((tmp_path / "part.json").read_text())
    assert record["card_edits"] == ["Witch.attack=10", "Greataxe.cost=3"]
    assert record["config"] != cardtable.load("mephisto", players=2).config_hash
    assert cardtable.replay(record).game.card_edits == ("Witch.attack=10", "Greataxe.cost=3")

    # --resume takes the edits from the record, and refuses new ones.
    again = cli("play", "mephisto", "--resume", "part.json", "--card", "Witch.attack=11")
    assert again.code == 2 and "from the record" in again.err
    resumed = cli("play", "mephisto", "--resume", "part.json", "--save", "more.json", input=["1", "quit", ""])
    assert resumed.code == 0, resumed.err
    more = json.loads((tmp_path / "more.json").read_text())
    assert more["card_edits"] == record["card_edits"] and more["actions"][: len(record["actions"])] == record["actions"]


def test_a_bad_card_edit_is_one_line_naming_file_card_and_field(cli: Runner) -> None:
    run = cli("play", "mephisto", "--seats", "random,random", "--card", "Witch.attack=31")
    assert run.code == 2
    assert "cards.toml, card '#0 Witch', field 'attack': must be at most 30, got 31" in run.err
    assert run.err.count("\n") == 1 and "Traceback" not in run.err
    unknown = cli("play", "mephisto", "--seats", "random,random", "--card", "Wich.attack=3")
    assert unknown.code == 2 and "names no card" in unknown.err and "did you mean 'Witch'" in unknown.err
    malformed = cli("play", "mephisto", "--card", "Witch=3")
    assert malformed.code == 2 and "CARD.FIELD=VALUE" in malformed.err
