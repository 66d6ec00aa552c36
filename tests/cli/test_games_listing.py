"""``cardtable games`` lists each game's options by group, labelled in words, with defaults and bounds;
the command line refuses an unbounded number with one line naming the option."""

from __future__ import annotations

import pytest

import cardtable
from cardtable.engine import Game
from cardtable.engine.options import grouped
from cardtable.games import game_class
from tests.cli.conftest import Runner


def flat(text: str) -> str:
    """The text without the panel's borders and line breaks (a label may wrap)."""
    return " ".join(text.replace("│", " ").split())


def test_games_lists_options_grouped_and_labelled_with_defaults_and_bounds(cli: Runner) -> None:
    run = cli("games")
    assert run.code == 0
    out = run.out
    for game_id in cardtable.games.builtin():
        block = out[out.index(game_id + "  ") :]
        last = -1
        cls = game_class(game_id)
        assert isinstance(cls, type) and issubclass(cls, Game)  # a built-in game is a class
        for group, members in grouped(tuple(cls.OPTIONS)):
            # The groups come in their order, each before its options, in the game's own block.
            at = block.index(group)
            assert at > last, f"{game_id}: {group} out of order"
            last = at
            for option in members:
                assert option.label in flat(block), option.label
    mcg = out[out.index("mr-card-game  ") :]
    assert "march-tie What happens when the March ties default shared; values shared | announcer |" in flat(mcg)
    assert "default 100; values 1..1000" in flat(mcg)  # turn-limit, rounds
    assert "default 0; values 0..1000" in flat(mcg)  # meat-supply
    ds = flat(out[out.index("doctor-strange  ") : out.index("army-of-darkness  ")])
    assert "turn-limit Stop an undecided game after this many turns default 400; values 2..2000" in ds


@pytest.mark.parametrize("value", ["1e30", "10**40", "1" + "0" * 40, "2001"])
def test_an_unbounded_number_from_the_command_line_is_one_line_naming_the_option(cli: Runner, value: str) -> None:
    run = cli("options", "doctor-strange", "-o", f"turn-limit={value}")
    assert run.code == 2
    assert run.err.startswith("cardtable: error: doctor-strange: option 'turn-limit' must be ")
    assert "2000" in run.err and run.err.count("\n") == 1
