"""``cardtable play`` driven through ``main`` with scripted input."""

from __future__ import annotations

import io
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardtable
from cardtable.cli import play as play_module
from cardtable.cli.common import write_record
from cardtable.engine import CardtableError, Table
from tests.cli.conftest import Runner
from tests.cli.named_toy import NAMES
from tests.engine.toy import Toy

MANY_ONES = ["1"] * 200


def human_actions(record: dict[str, object], seat: int = 0) -> list[str]:
    """The actions ``seat`` took in a record, found by replaying it."""
    state = cardtable.replay(record)
    probe = state.game.new(state.seed)
    out = []
    for text in state.actions_taken():
        if probe.current_player == seat:
            out.append(text)
        probe.apply(text)
    return out


def test_full_game_by_numbers_saves_a_record_that_replays(cli: Runner, tmp_path: Path) -> None:
    run = cli("play", "toy", "--seats", "human,random", "--seed", "11", "--save", "game.json", input=MANY_ONES)
    assert run.code == 0, run.err
    assert "Game over" in run.out and "Result" in run.out
    assert "Seed: 11" in run.out
    record = json.loads((tmp_path / "game.json").read_text())
    # Written with indent, for people and diffs.
    assert (tmp_path / "game.json").read_text().startswith('{\n  "format"')
    assert record["seed"] == 11 and record["game"] == "toy"
    final = cardtable.replay(record)
    assert final.is_over
    assert record["result"] == final.result().to_json()
    # One prompt per human decision with choices, one line per decision with a single choice taken
    # for the person (auto-pass), and every human decision was choice 1 (the first legal action).
    mine = human_actions(record)
    assert run.out.count("P1 > ") + run.out.count("(the only choice: taken for you") == len(mine)
    probe = final.game.new(11)
    for text in final.actions_taken():
        if probe.current_player == 0:
            assert text == probe.legal_actions()[0].text
        probe.apply(text)

    replayed = cli("replay", "game.json")
    assert replayed.code == 0, replayed.err
    assert f"action {len(record['actions'])} of {len(record['actions'])}" in replayed.out
    assert "Result" in replayed.out


def test_same_seed_and_inputs_give_the_same_game(cli: Runner, tmp_path: Path) -> None:
    for name in ("a.json", "b.json"):
        assert cli("play", "toy", "--seed", "5", "--save", name, input=MANY_ONES).code == 0
    a = json.loads((tmp_path / "a.json").read_text())
    b = json.loads((tmp_path / "b.json").read_text())
    assert a["actions"] == b["actions"]


def test_default_seed_is_random_and_printed_so_the_deal_can_be_replayed(cli: Runner, tmp_path: Path) -> None:
    run = cli("play", "toy", "--save", "g.json", input=MANY_ONES)
    assert run.code == 0
    record = json.loads((tmp_path / "g.json").read_text())
    assert f"--seed {record['seed']}" in run.out


def test_single_human_seat_fills_the_others_with_random(cli: Runner) -> None:
    run = cli("play", "toy", "--seed", "1", input=["quit", ""])
    assert "P1: human, P2: random" in run.out


def test_actions_by_text_form_and_by_kind(cli: Runner, tmp_path: Path) -> None:
    game = cardtable.load("toy")
    hand = game.new(2).view(0)["hand"]
    run = cli("play", "toy", "--seed", "2", "--save", "g.json", input=[f"play card={hand[1]}", "pass", "quit"])
    assert run.code == 0
    record = json.loads((tmp_path / "g.json").read_text())
    assert record["actions"][:2] == [f"play card={hand[1]}", "pass"]


def test_bad_input_is_explained_and_reprompts(cli: Runner, tmp_path: Path) -> None:
    game = cardtable.load("toy")
    view = game.new(4).view(0)
    not_mine = next(c for c in range(10) if c not in view["hand"])
    lines = ["0", "99", "fly away", f"play card={not_mine}", "play card=x", "play", "", "undo two", "1", "quit"]
    run = cli("play", "toy", "--seed", "4", "--save", "g.json", input=lines)
    assert run.code == 0
    assert "there is no choice 0: type a number from 1 to 3" in run.out
    assert "there is no choice 99" in run.out
    assert "'fly away' is neither an action nor a command" in run.out
    assert f"'play card={not_mine}' is not among your choices now" in run.out
    assert "'x' is neither a number nor the name of a card" in run.out
    assert "'play' could be any of 2 choices" in run.out
    assert "undo takes one number" in run.out
    # After all that, the one good line was applied and nothing else.
    record = json.loads((tmp_path / "g.json").read_text())
    assert record["actions"][0] == f"play card={min(view['hand'])}"
    assert run.out.count("P1 > ") == len(lines)


def test_undo_accepted_then_a_different_choice(cli: Runner, tmp_path: Path) -> None:
    hand = cardtable.load("toy").new(6).view(0)["hand"]
    run = cli("play", "toy", "--no-auto-pass", "--seed", "6", "--save", "g.json", input=["1", "undo", "2", "quit"])
    assert "Took back 1 decision(s)" in run.out
    record = json.loads((tmp_path / "g.json").read_text())
    assert record["actions"][0] == f"play card={max(hand)}"
    assert f"play card={min(hand)}" not in record["actions"][:1]


def test_undo_refused_at_the_start_of_a_turn_and_after_a_draw(cli: Runner, tmp_path: Path) -> None:
    game = cardtable.load("toy")
    draw_number = str(len(game.new(8).legal_actions()))  # draw is listed last
    run = cli("play", "toy", "--seed", "8", "--save", "g.json", input=["undo", draw_number, "undo", "quit"])
    assert run.out.count("cannot undo:") == 2
    assert "can take back 0 decision(s) now" in run.out
    record = json.loads((tmp_path / "g.json").read_text())
    assert record["actions"][0] == "draw"


def test_undo_more_than_allowed_is_refused_and_changes_nothing(cli: Runner, tmp_path: Path) -> None:
    run = cli("play", "toy", "--no-auto-pass", "--seed", "9", "--save", "g.json", input=["1", "undo 2", "quit"])
    assert "can take back 1 decision(s) now, not 2" in run.out
    record = json.loads((tmp_path / "g.json").read_text())
    assert len(record["actions"]) == 1


def test_eof_ends_cleanly_and_saves_when_asked(cli: Runner, tmp_path: Path) -> None:
    run = cli("play", "toy", "--no-auto-pass", "--seed", "3", "--save", "g.json", input=["1"])
    assert run.code == 0
    assert "Input ended" in run.out
    assert "Traceback" not in run.out + run.err
    record = json.loads((tmp_path / "g.json").read_text())
    assert len(record["actions"]) == 1 and record["result"] is None


def test_eof_with_no_input_at_all(cli: Runner) -> None:
    run = cli("play", "toy", "--seed", "3", input=[])
    assert run.code == 0
    assert "Input ended" in run.out


def test_quit_offers_to_save_and_resume_continues(cli: Runner, tmp_path: Path) -> None:
    run = cli("play", "toy", "--no-auto-pass", "--seed", "12", input=["1", "quit", "part.json"])
    assert run.code == 0
    assert "Record saved to part.json" in run.out
    partial = json.loads((tmp_path / "part.json").read_text())
    assert partial["result"] is None and len(partial["actions"]) == 1
    resumed = cli("play", "toy", "--resume", "part.json", "--save", "full.json", input=MANY_ONES)
    assert resumed.code == 0, resumed.err
    full = json.loads((tmp_path / "full.json").read_text())
    assert full["actions"][:1] == partial["actions"] and full["result"] is not None


def test_quit_without_saving(cli: Runner, tmp_path: Path) -> None:
    run = cli("play", "toy", "--seed", "12", input=["quit", ""])
    assert run.code == 0
    assert list(tmp_path.iterdir()) == []


def test_log_help_view_and_save_commands(cli: Runner, tmp_path: Path) -> None:
    run = cli(
        "play",
        "toy",
        "--no-auto-pass",
        "--seed",
        "13",
        input=["1", "log", "help", "view", "save mid.json", ":quit", ""],
    )
    assert "P1's log" in run.out
    assert "undo [N]" in run.out
    mid = json.loads((tmp_path / "mid.json").read_text())
    assert len(mid["actions"]) == 1


def test_bots_only_game_plays_to_the_end_and_shows_events(cli: Runner, tmp_path: Path) -> None:
    run = cli("play", "toy", "--seats", "random,random", "--seed", "21", "--save", "g.json")
    assert run.code == 0
    record = json.loads((tmp_path / "g.json").read_text())
    assert record["result"] is not None
    assert "P1 plays" in run.out or "P2 plays" in run.out


def test_hot_seat_passes_the_device_between_people(cli: Runner, tmp_path: Path) -> None:
    run = cli("play", "toy", "--seats", "human,human", "--seed", "14", "--save", "g.json", input=["", *MANY_ONES])
    assert run.code == 0, run.err
    assert "Pass the device to P1" in run.out and "Pass the device to P2" in run.out
    record = json.loads((tmp_path / "g.json").read_text())
    assert record["result"] is not None


class SpyTable(Table):
    """A Table that remembers itself, so a test can compare the screen with the hidden truth."""

    last: SpyTable | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        SpyTable.last = self


class CheckingInput(io.StringIO):
    """Scripted input that, before each line it gives, checks the screen for the opponent's hidden cards."""

    def __init__(self, lines: list[str], screen: list[io.StringIO], seat: int) -> None:
        super().__init__("".join(line + "\n" for line in lines))
        self.screen = screen
        self.seat = seat
        self.checks = 0

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]  # typeshed: _IOBase.readline gives bytes
        table = SpyTable.last
        if table is not None and not table.state.is_over:
            snap = table.state.snapshot()
            # In the toy, a card in a hand or in the deck has never been public: its name must not show.
            hidden = set(snap["deck"]) | set(snap["hands"][1 - self.seat])
            shown = self.screen[0].getvalue()
            for c in hidden:
                assert NAMES[c] not in shown, f"hidden card {NAMES[c]} leaked to the screen"
            self.checks += 1
        return super().readline(size if size is not None else -1)


@settings(max_examples=8)
@given(seed=st.integers(0, 10_000), choice=st.sampled_from(["1", "2"]))
def test_the_opponents_hidden_cards_never_reach_the_screen(seed: int, choice: str) -> None:
    from rich.console import Console

    from cardtable.cli.main import main

    out = io.StringIO()
    stdin = CheckingInput([choice, "1"] * 60, [out], seat=0)
    with pytest.MonkeyPatch.context() as mp, tempfile.TemporaryDirectory() as where:
        mp.chdir(where)  # the end-of-game save offer may read a line as a file name
        mp.setattr(play_module, "Table", SpyTable)
        code = main(
            ["play", "named-toy", "--seed", str(seed), "--seats", "human,random"],
            console=Console(file=out, force_terminal=False, width=100),
            stdin=stdin,
        )
    assert code == 0
    assert stdin.checks > 0
    # The human did see their own cards by name (the test can see a leak if there were one).
    own = cardtable.load("named-toy").new(seed).view(0)["hand"]
    assert all(card["name"] in out.getvalue() for card in own)


def test_text_that_looks_like_markup_is_shown_as_is(cli: Runner, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.cli import named_toy

    names = tuple(f"[/]Card[bold]{i}" for i in range(10))
    monkeypatch.setattr(named_toy, "NAMES", names)
    run = cli("play", "named-toy", "--seed", "3", input=["1", "quit", ""])
    assert run.code == 0, run.err
    hand = cardtable.load("named-toy").new(3).view(0)["hand"]
    assert all(card["name"] in run.out for card in hand)


def test_ctrl_c_leaves_the_game_with_status_130(cli: Runner, tmp_path: Path) -> None:
    class Interrupting(io.StringIO):
        def readline(self, size: int | None = -1) -> str:  # type: ignore[override]  # typeshed: _IOBase.readline gives bytes
            raise KeyboardInterrupt

    run = cli("play", "toy", "--seed", "3", "--save", "g.json", input=Interrupting())
    assert run.code == 130
    assert "Interrupted" in run.out
    assert json.loads((tmp_path / "g.json").read_text())["actions"] == []


@pytest.mark.parametrize(
    ("text", "seats"),
    [
        ("human", ["human"]),
        ("human,random", ["human", "random"]),
        (
            "human,ismcts:iterations=400,rollout=heuristic,random",
            ["human", "ismcts:iterations=400,rollout=heuristic", "random"],
        ),
        (" human , heuristic ", ["human", "heuristic"]),
    ],
)
def test_seat_lists_keep_agent_options_with_their_agent(text: str, seats: list[str]) -> None:
    assert play_module.split_seats(text) == seats


def test_seats_set_the_player_count_when_players_is_not_given(cli: Runner, tmp_path: Path) -> None:
    if "army-of-darkness" not in cardtable.available():
        pytest.skip("needs a game with a range of player counts")
    run = cli("play", "army-of-darkness", "--seats", "random,random,random", "--seed", "2", "--save", "g.json")
    assert run.code == 0, run.err
    assert json.loads((tmp_path / "g.json").read_text())["options"]["players"] == 3


def test_pick_understands_numbers_texts_kinds_values_and_descriptions() -> None:
    from cardtable.cli.typed import Ask, Problem, pick

    game = cardtable.load("named-toy")
    assert isinstance(game, Toy)
    state = game.new(2)
    legal = state.legal_actions()
    low, high = sorted(state.view(0)["hand"], key=lambda c: c["id"])
    assert pick(game, legal, "1") is legal[0]
    assert pick(game, legal, f"  play   card={high['id']} ") is game.PLAY[high["id"]]
    assert pick(game, legal, f"play {low['id']}") is game.PLAY[low["id"]]
    assert pick(game, legal, "draw") is game.DRAW
    assert pick(game, legal, f"PLAY {high['name'].upper()}") is game.PLAY[high["id"]]
    assert pick(game, legal, f"play {high['name'].split()[0]}") is game.PLAY[high["id"]]
    assert pick(game, legal, f"play card={high['name'].split()[0]}") is game.PLAY[high["id"]]
    ambiguous = pick(game, legal, "play")
    assert isinstance(ambiguous, Problem) and "'play' could be any of 2 choices" in ambiguous.message
    out_of_range = pick(game, legal, str(len(legal) + 1))
    assert isinstance(out_of_range, Problem)
    # Text that names no choice is explained, never handed on as an action.
    absent = next(c for c in range(10) if c not in (low["id"], high["id"]))
    assert isinstance(pick(game, legal, f"play {absent}"), Problem)
    unknown = pick(game, legal, "fly away")
    assert isinstance(unknown, Problem) and "neither an action nor a command" in unknown.message
    # A word from the middle of a choice is asked about, never taken.
    assert isinstance(pick(game, legal, high["name"].split()[-1].lower()), Ask | Problem)


def test_resume_refuses_a_record_of_another_game_or_extra_options(cli: Runner, tmp_path: Path) -> None:
    assert cli("play", "toy", "--seed", "12", "--save", "part.json", input=["1", "quit"]).code == 0
    other = cli("play", "named-toy", "--resume", "part.json")
    assert other.code == 2 and "is a record of 'toy'" in other.err
    extra = cli("play", "toy", "--resume", "part.json", "--players", "2")
    assert extra.code == 2 and "takes the game's options from the record" in extra.err
    seed = cli("play", "toy", "--resume", "part.json", "--seed", "13")
    assert seed.code == 2 and "takes the seed from the record" in seed.err
    record = json.loads((tmp_path / "part.json").read_text())
    record["hashes"][0] = "000000000000"
    (tmp_path / "bad.json").write_text(json.dumps(record))
    bad = cli("play", "toy", "--resume", "bad.json")
    assert bad.code == 2 and "diverges at action 0" in bad.err


def test_a_save_path_that_cannot_be_written_is_refused_before_the_game(cli: Runner, tmp_path: Path) -> None:
    missing = cli("play", "toy", "--seed", "3", "--save", "no/such/dir/g.json", input=["1"] * 40)
    assert missing.code == 2 and missing.out == ""
    assert "--save 'no/such/dir/g.json': the folder 'no/such/dir' does not exist" in missing.err
    (tmp_path / "a-folder").mkdir()
    folder = cli("play", "toy", "--seed", "3", "--save", "a-folder", input=["1"] * 40)
    assert folder.code == 2 and "it is a folder" in folder.err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-folder"]  # nothing written, nothing created


def test_a_save_that_fails_mid_game_is_reported_and_another_can_be_given(
    cli: Runner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The path was writable when the game began; by the time it is saved it is not (a full disk, a
    folder removed): the failure is shown, the game goes on, and another file can be given."""
    real = write_record  # what play_module calls until it is patched below

    def full_disk(path: str, record: dict[str, Any]) -> None:
        if path == "g.json":
            raise CardtableError("cannot write record 'g.json': No space left on device")
        real(path, record)

    monkeypatch.setattr(play_module, "write_record", full_disk)
    run = cli("play", "toy", "--seed", "3", "--save", "g.json", input=["save", "quit", "ok.json"])
    assert run.code == 0
    assert run.out.count("cannot write record 'g.json'") == 2  # the save command, then at quit
    assert json.loads((tmp_path / "ok.json").read_text())["actions"] == []
    failed = cli("play", "toy", "--seed", "3", "--save", "g.json", input=["quit", ""])
    assert failed.code == 1


def test_me_is_a_person_at_this_terminal_as_in_the_lobby(cli: Runner) -> None:
    """``--seats me,random``: the lobby's word for your own seat works in the terminal too."""
    mine = cli("play", "toy", "--seats", "me,random", "--seed", "3", input=["1"] * 40)
    theirs = cli("play", "toy", "--seats", "human,random", "--seed", "3", input=["1"] * 40)
    assert mine.code == theirs.code == 0
    assert mine.out == theirs.out
