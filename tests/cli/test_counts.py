"""``cardtable.cli.common.at_least``: the argparse type the benchmark scripts and the learning example
use for their counts. A bad count is refused by name, with what was typed; a good one is a number."""

from __future__ import annotations

import argparse

import pytest

from cardtable.cli.common import at_least


def _parser(minimum: int) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="bench", exit_on_error=False)
    parser.add_argument("--games", type=at_least(minimum), default=3)
    return parser


@pytest.mark.parametrize(("minimum", "text", "value"), [(1, "1", 1), (1, "250", 250), (0, "0", 0), (0, "7", 7)])
def test_a_count_at_or_above_the_minimum_is_taken(minimum: int, text: str, value: int) -> None:
    assert _parser(minimum).parse_args(["--games", text]).games == value


@pytest.mark.parametrize(
    ("minimum", "text", "said"),
    [
        (1, "0", "must be at least 1, got 0"),
        (1, "-5", "must be at least 1, got -5"),
        (0, "-1", "must be at least 0, got -1"),
        (1, "ten", "must be a whole number, got 'ten'"),
        (1, "2.5", "must be a whole number, got '2.5'"),
    ],
)
def test_a_bad_count_is_refused_naming_the_option_and_the_value(minimum: int, text: str, said: str) -> None:
    with pytest.raises(argparse.ArgumentError) as raised:
        _parser(minimum).parse_args(["--games", text])
    assert str(raised.value) == f"argument --games: {said}"
