"""``cardtable games`` / ``options`` and the error contract of ``main``: one line on stderr, exit 2."""

from __future__ import annotations

import pytest

import cardtable
from cardtable.cli import main as cli_main
from tests.cli.conftest import Runner


def test_games_lists_every_available_game_with_options_and_configurations(cli: Runner) -> None:
    run = cli("games")
    assert run.code == 0
    for game_id in cardtable.available():
        assert game_id in run.out
    # The toy's title, its option with the option's doc, and its configuration line.
    assert "Draw or Play" in run.out
    assert "number of players" in run.out
    assert "players=2" in run.out


def test_games_brief_is_one_line_per_game(cli: Runner) -> None:
    run = cli("games", "--brief")
    assert run.code == 0
    lines = [line for line in run.out.splitlines() if line.strip()]
    assert len(lines) == len(cardtable.available())


def test_games_with_a_game_lists_that_game_only(cli: Runner) -> None:
    run = cli("games", "toy")
    assert run.code == 0
    assert "Draw or Play" in run.out and "players=2" in run.out
    for other in cardtable.available():
        if other != "toy":
            assert f"{other}  " not in run.out
    assert cli("games", "toy", "--brief").out.strip().startswith("toy  ")


def test_options_wraps_its_long_lines_under_an_indent(cli: Runner) -> None:
    """`with these options:` and `actions:` head blocks indented under them: at 100 columns Mephisto's
    action forms take several lines, and none of them starts at column 0 (among the headings)."""
    run = cli("options", "mephisto")
    assert run.code == 0
    lines = run.out.splitlines()
    at = lines.index("actions:")
    forms = lines[at + 1 :]
    assert len(forms) > 1 and all(line.startswith("  ") for line in forms)
    assert "play card=<card>" in forms[0]
    assert lines[lines.index("with these options:") + 1].startswith("  players=2 ")


def test_options_shows_options_and_action_forms(cli: Runner) -> None:
    run = cli("options", "toy")
    assert run.code == 0
    assert "players" in run.out and "always 2" in run.out  # a fixed count is said as one
    assert "play card=<card>" in run.out and "draw" in run.out


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["options", "no-such-game"], "unknown game 'no-such-game'"),
        (["play", "no-such-game"], "unknown game 'no-such-game'"),
        (["options", "toy", "-o", "speed=3"], "unknown option 'speed'"),
        (["play", "toy", "-o", "speed=3"], "unknown option 'speed'"),
        (["play", "toy", "--players", "3"], "players"),
        (["play", "toy", "-o", "players"], "expected KEY=VALUE"),
        (["play", "toy", "--variant", "fast"], "unknown option 'variant'"),
        (["play", "toy", "--seats", "human,random,random"], "players"),
        (["play", "toy", "--seats", "human,nobody"], "unknown agent 'nobody'"),
        (["play", "toy", "--seats", "human,,random"], "empty seat entry"),
        (["replay", "missing.json"], "cannot read record 'missing.json'"),
        (["games", "no-such-game"], "unknown game 'no-such-game'"),
        (["play", "toy", "--save", "no-such-folder/game.json"], "the folder 'no-such-folder' does not exist"),
        (["play", "toy", "--save", "."], "--save '.': it is a folder"),
    ],
)
def test_bad_input_is_one_clear_line_and_exit_2(cli: Runner, argv: list[str], needle: str) -> None:
    run = cli(*argv)
    assert run.code == 2
    assert needle in run.err
    assert run.err.startswith("cardtable: error: ")
    assert run.err.count("\n") == 1
    assert "Traceback" not in run.err + run.out


def test_usage_errors_and_help_return_argparse_codes(cli: Runner) -> None:
    assert cli().code == 2
    assert cli("play").code == 2
    assert cli("play", "toy", "--seed", "x").code == 2
    assert cli("--help").code == 0
    help_run = cli("play", "--help")
    assert help_run.code == 0
    # The seat rules are decided and documented in --help (wrapped to the terminal: words compared).
    assert "fills every other seat with `random`" in " ".join(help_run.out.split())


def test_every_command_module_has_the_shape_main_expects() -> None:
    parser = cli_main.build_parser()
    for name in cli_main.COMMANDS:
        module = __import__(name, fromlist=["run"])
        assert callable(module.add_parser) and callable(module.run)
    # Each subcommand is bound to its module's run().
    text = parser.format_help()
    for command in ("games", "options", "play", "replay"):
        assert command in text
