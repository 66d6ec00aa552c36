"""Options: typed, ranged, with choices; unknown options and bad values raise OptionError naming them."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardtable
from cardtable.engine import Option, OptionError
from cardtable.engine.options import validate_options
from tests.engine.toy import Toy

SPEC = (
    Option("players", 2, "number of players", min=1, max=4),
    Option("variant", "standard", "rules variant", choices=("standard", "care-bear")),
    Option("teams", False, "play in teams"),
    Option("cards", "", "card file"),
    Option("limit", 100, "turn limit", min=1, max=5000),
)


def check(**given: object) -> dict[str, object]:
    return dict(validate_options("demo", SPEC, given))


def test_defaults_fill_every_option() -> None:
    assert check() == {"players": 2, "variant": "standard", "teams": False, "cards": "", "limit": 100}


def test_result_is_immutable() -> None:
    opts = validate_options("demo", SPEC, {})
    with pytest.raises(TypeError):
        opts["players"] = 3  # type: ignore[index]  # deliberately: the options are read-only


def test_dashes_and_underscores_name_the_same_option() -> None:
    spec = (Option("lane-view", "mirrored", "lanes", choices=("mirrored", "shared")),)
    assert dict(validate_options("demo", spec, {"lane_view": "shared"})) == {"lane-view": "shared"}


@given(st.integers(1, 4))
def test_int_in_range_from_int_or_text(n: int) -> None:
    assert check(players=n)["players"] == n
    assert check(players=str(n))["players"] == n


@pytest.mark.parametrize(
    ("value", "words"),
    [
        (0, "must be at least 1, got 0"),
        (5, "must be at most 4, got 5"),
        ("many", "must be an integer from 1 to 4, got 'many'"),
        (True, "must be an integer from 1 to 4, got True"),
        (None, "must be an integer from 1 to 4, got None"),
        (2.5, "must be an integer from 1 to 4, got 2.5"),
        ("2.5", "must be an integer from 1 to 4, got '2.5'"),
        ("1e30", "must be an integer from 1 to 4, got '1e30'"),
        (1e30, "must be at most 4, got 1e+30"),
        (-1e30, "must be at least 1, got -1e+30"),
        (10**40, "must be at most 4, got a number of many digits"),
        ("1" + "0" * 40, "must be at most 4, got a number of 41 digits"),
        ("-" + "9" * 40, "must be at least 1, got a number of 40 digits"),
        (float("inf"), "must be an integer from 1 to 4, got inf"),
    ],
)
def test_int_errors(value: object, words: str) -> None:
    with pytest.raises(OptionError) as info:
        check(players=value)
    assert "demo: option 'players' " + words in str(info.value)


def test_int_bounds_hold_for_every_input_form() -> None:
    assert check(limit=5000)["limit"] == check(limit="5000")["limit"] == check(limit=5000.0)["limit"] == 5000
    for bad in (5001, "5001", 5001.0, 10**6):
        with pytest.raises(OptionError, match="option 'limit' must be at most 5000") as info:
            check(limit=bad)
        assert info.value.option == "limit" and info.value.options == ("limit",)
    with pytest.raises(OptionError, match="at least 1"):
        check(limit=-3)


def test_a_whole_number_option_must_declare_both_bounds() -> None:
    with pytest.raises(ValueError, match="needs both min and max"):
        Option("limit", 100, "turn limit", min=1)
    with pytest.raises(ValueError, match="needs both min and max"):
        Option("limit", 100, "turn limit", max=100)


@pytest.mark.parametrize(
    ("raw", "value"),
    [
        (True, True),
        (False, False),
        ("true", True),
        ("TRUE", True),
        ("yes", True),
        ("on", True),
        ("1", True),
        ("false", False),
        ("No", False),
        ("off", False),
        ("0", False),
    ],
)
def test_bool_parsing(raw: object, value: bool) -> None:
    assert check(teams=raw)["teams"] is value


@pytest.mark.parametrize("raw", ["maybe", "", 1, 0, None, "2"])
def test_bool_errors(raw: object) -> None:
    with pytest.raises(OptionError, match="option 'teams' must be true or false"):
        check(teams=raw)


def test_choices() -> None:
    assert check(variant="care-bear")["variant"] == "care-bear"
    with pytest.raises(OptionError, match="must be one of standard, care-bear; got 'grumpy'"):
        check(variant="grumpy")
    with pytest.raises(OptionError, match="option 'variant' must be one of standard, care-bear; got 3"):
        check(variant=3)


def test_a_choice_that_reads_as_a_number_may_be_sent_as_one() -> None:
    """JSON's 25 is the choice "25" (Mr. Card Game's Sorceress sides); a number that is no choice, or a
    truth value, is refused with the choices."""
    game = cardtable.load("mr-card-game", players=2, sorceress=25)
    assert game == cardtable.load("mr-card-game", players=2, sorceress="25")
    for raw in (24, True, 25.0):
        with pytest.raises(OptionError, match="option 'sorceress' must be one of 20, 25, foil-1, foil-2, foil-3; got"):
            cardtable.load("mr-card-game", players=2, sorceress=raw)


def test_unknown_option_lists_the_known_ones() -> None:
    with pytest.raises(OptionError, match="demo: unknown option 'colour'; its options are: players, variant"):
        check(colour="red")
    with pytest.raises(OptionError, match="its options are: none"):
        validate_options("bare", (), {"x": 1})


def test_describe() -> None:
    assert SPEC[0].describe() == "players=2 (1..4): number of players"
    assert SPEC[1].describe() == "variant=standard (standard | care-bear): rules variant"
    assert SPEC[4].describe() == "limit=100 (1..5000): turn limit"
    assert SPEC[2].kind is bool and SPEC[0].kind is int and SPEC[3].kind is str


def test_games_validate_their_options_when_loaded() -> None:
    cardtable.register("toy", Toy)
    with pytest.raises(OptionError, match="option 'players' must be at most 2"):
        cardtable.load("toy", players=3)
    with pytest.raises(OptionError, match="unknown option 'speed'"):
        cardtable.load("toy", speed=1)
    with pytest.raises(OptionError, match="unknown game 'chess'"):
        cardtable.load("chess")
    # Equal option sets, however given, are the very same Game (and the same Action objects).
    assert cardtable.load("toy", players="2") is cardtable.load("toy", players=2) is cardtable.load("toy")
