"""Card-file validation: every error names the file, the card and the field at fault."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from cardtable.engine import CardDataError
from cardtable.engine.carddata import EffectSpec, Field, check_effects, check_table, read_card_file

FILE = "cards.toml"
CARD_FIELDS = (
    Field("name", (str,)),
    Field("cost", (int,), min=0, max=12),
    Field("kind", (str,), choices=("monster", "weapon")),
    Field("rare", (bool,), required=False, default=False),
    Field("power", (int, float), required=False, default=0),
)
VOCABULARY = {
    "gain_favor": EffectSpec("gain_favor", (Field("amount", (int,), min=1),)),
    "draw": EffectSpec("draw", (Field("count", (int,), required=False, default=1),)),
}


def card(**changes: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"name": "Greataxe", "cost": 1, "kind": "weapon"}
    base.update(changes)
    return {k: v for k, v in base.items() if v is not None}


def error(table: Any) -> CardDataError:
    with pytest.raises(CardDataError) as info:
        check_table(FILE, "Greataxe", table, CARD_FIELDS)
    return info.value


def test_a_good_card_gets_its_defaults() -> None:
    assert check_table(FILE, "Greataxe", card(), CARD_FIELDS) == {
        "name": "Greataxe",
        "cost": 1,
        "kind": "weapon",
        "rare": False,
        "power": 0,
    }
    assert check_table(FILE, "Greataxe", card(rare=True, power=2.5), CARD_FIELDS)["power"] == 2.5


@pytest.mark.parametrize(
    ("table", "field", "words"),
    [
        (card(colour="red"), "colour", "unknown field (expected one of: cost, kind, name, power, rare)"),
        (card(cost=None), "cost", "is required"),
        (card(cost="1"), "cost", "must be int, got '1'"),
        (card(cost=True), "cost", "must be int, got True"),  # a bool is not a number here
        (card(cost=-1), "cost", "must be at least 0, got -1"),
        (card(cost=13), "cost", "must be at most 12, got 13"),
        (card(kind="spell"), "kind", "must be one of monster, weapon; got 'spell'"),
        (card(rare="yes"), "rare", "must be bool, got 'yes'"),
        (card(power="big"), "power", "must be int or float, got 'big'"),
    ],
)
def test_field_errors_name_file_card_and_field(table: dict[str, Any], field: str, words: str) -> None:
    err = error(table)
    assert (err.file, err.card, err.field) == (FILE, "Greataxe", field)
    assert words in err.problem
    assert str(err) == f"{FILE}, card 'Greataxe', field '{field}': {err.problem}"


def test_a_card_that_is_not_a_table() -> None:
    err = error(["Greataxe"])
    assert err.card == "Greataxe" and "must be a table" in str(err)


def test_effects() -> None:
    effects = check_effects(FILE, "Witch", "effects", [{"do": "gain_favor", "amount": 3}, {"do": "draw"}], VOCABULARY)
    assert effects == [{"do": "gain_favor", "amount": 3}, {"do": "draw", "count": 1}]
    assert check_effects(FILE, "Witch", "effects", {"do": "draw", "count": 2}, VOCABULARY) == [
        {"do": "draw", "count": 2}
    ]
    assert check_effects(FILE, "Witch", "effects", None, VOCABULARY) == []


@pytest.mark.parametrize(
    ("value", "field", "words"),
    [
        ([{"do": "explode"}], "effects[0].do", "unknown effect 'explode'; known effects: draw, gain_favor"),
        ([{"do": 3}], "effects[0].do", "unknown effect 3"),
        ([{"amount": 3}], "effects[0]", "an effect must be a table with a 'do' key"),
        (["gain_favor"], "effects[0]", "an effect must be a table with a 'do' key"),
        ([{"do": "draw"}, {"do": "gain_favor"}], "effects[1].amount", "is required"),
        ([{"do": "gain_favor", "amount": 0}], "effects[0].amount", "must be at least 1"),
        ([{"do": "draw", "cards": 2}], "effects[0].cards", "unknown field (expected one of: count)"),
        ("gain_favor", "effects", "must be a list of effects"),
    ],
)
def test_effect_errors(value: Any, field: str, words: str) -> None:
    with pytest.raises(CardDataError) as info:
        check_effects(FILE, "Witch", "effects", value, VOCABULARY)
    err = info.value
    assert (err.file, err.card, err.field) == (FILE, "Witch", field)
    assert words in str(err)


def test_read_a_good_file(tmp_path: Path) -> None:
    path = tmp_path / "cards.toml"
    path.write_text('[[card]]\nname = "Greataxe"\ncost = 1\n', encoding="utf-8")
    parsed = read_card_file(path)
    assert parsed.data == {"card": [{"name": "Greataxe", "cost": 1}]}
    assert parsed.path == str(path) and len(parsed.sha) == 16
    # The hash follows the content: a changed card changes it (records notice card changes).
    other = tmp_path / "other.toml"
    other.write_text('[[card]]\nname = "Greataxe"\ncost = 2\n', encoding="utf-8")
    assert read_card_file(other).sha != parsed.sha


def test_bad_toml(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text('[[card]]\nname = "Greataxe\n', encoding="utf-8")
    with pytest.raises(CardDataError) as info:
        read_card_file(path)
    assert info.value.file == str(path) and info.value.card is None
    assert str(info.value).startswith(f"{path}: not valid TOML")


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.toml"
    path.write_bytes('name = "Épée"\n'.encode("latin-1"))
    with pytest.raises(CardDataError, match="not UTF-8 text"):
        read_card_file(path)


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.toml"
    with pytest.raises(CardDataError) as info:
        read_card_file(path)
    assert str(info.value).startswith(f"{path}: cannot read the card file")


def test_unreadable_file(tmp_path: Path) -> None:
    directory = tmp_path / "a-directory.toml"
    directory.mkdir()
    with pytest.raises(CardDataError, match="cannot read the card file"):
        read_card_file(directory)
    if os.geteuid() != 0:  # root reads anything: the permission case only means something for users
        locked = tmp_path / "locked.toml"
        locked.write_text("x = 1\n", encoding="utf-8")
        locked.chmod(0)
        with pytest.raises(CardDataError, match="cannot read the card file"):
            read_card_file(locked)
