"""DS1.2: the card list as data — every rulebook card exactly once, every note turned into data."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardtable.engine import CardDataError, OptionError
from cardtable.games.doctor_strange import cards as C
from cardtable.games.doctor_strange.cards import RULEBOOK_CARDS, load_cards

from .helpers import game

RULEBOOK = Path("/work/shared/rules/doctor-strange-card-game.txt")


def test_every_rulebook_card_once() -> None:
    data = load_cards()
    assert list(data.names) == list(RULEBOOK_CARDS)
    assert len(data) == 112 == len(set(data.names))


@pytest.mark.skipif(not RULEBOOK.exists(), reason="the rulebook text is not in this checkout")
def test_names_appear_in_rulebook_card_list() -> None:
    text = RULEBOOK.read_text()
    card_list = text[text.index("CARD LIST Name") :]
    for name in RULEBOOK_CARDS:
        assert name in card_list, name


def test_notes_become_data() -> None:
    d = load_cards()
    by = d.id_of
    assert d.types[by("Doctor Strange")] == C.CHARACTER and d.power[by("Doctor Strange")] == 8
    assert d.only[by("Doctor Strange")] == C.GOOD and d.only[by("Baron Mordo")] == C.EVIL
    assert d.power[by("Loki")] == 12 and d.note[by("Loki")] == "Norse God"
    assert d.note[by("Wong")] == "Servant" and d.only[by("Wong")] == C.GOOD
    assert d.role[by("Detect Danger")] == C.ROLE_DEFENDER and d.power[by("Detect Danger")] == 2
    assert d.role[by("Impostor")] == C.ROLE_ATTACKER and d.power[by("Impostor")] == 2
    assert {n for n in RULEBOOK_CARDS if d.role[by(n)] == C.ROLE_DEFENDER} == {
        "Detect Danger",
        "Mental Battle",
        "Powers of Vishanti",
    }
    assert {n for n in RULEBOOK_CARDS if d.role[by(n)] == C.ROLE_ATTACKER} == {"Impostor", "Surprise", "Unsuspecting"}
    fates = {n: C.FATE_NAMES[d.fate[by(n)]] for n in RULEBOOK_CARDS if d.types[by(n)] == C.ATTACK}
    assert len(fates) == 24
    assert fates["Poison"] == "kill" and fates["Banish"] == "exile" and fates["Bind"] == "capture"
    assert fates["Hypnotic Ray"] == "control" and fates["Insanity"] == "incapacitate"
    assert d.only[by("Vapors of Valtorr")] == C.EVIL and d.only[by("Spiny Beast")] == C.EVIL
    assert d.timing[by("Learn Secrets")] == C.MYSTIC_ARTS
    assert d.effects[by("Learn Secrets")] == ({"do": "draw", "amount": 3},)
    assert [e["do"] for e in d.effects[by("Experiment")]] == ["discard_hand", "draw"]
    assert d.effects[by("Go Back in Time")][0]["do"] == "search_deck"
    assert d.effects[by("Investigate")] == ({"do": "look_deck", "count": 7},)
    for n in ("Read Minds", "All Seeing Eye"):
        assert d.timing[by(n)] == C.ANY_TIME and d.effects[by(n)][0]["do"] == "look_hand"
    for n in ("Interruption", "Counter Spell"):
        assert d.timing[by(n)] == C.ATTACK_PHASE and d.effects[by(n)][0] == {"do": "counter", "target": "attack"}
    for n in ("Desperate Cry", "Not Responding", "Project Thought", "Mental Message"):
        assert d.effects[by(n)][0]["do"] == "call_defender" and d.only[by(n)] == C.GOOD
    negates = {
        n: d.effects[by(n)][0]["target"]
        for n in RULEBOOK_CARDS
        if d.effects[by(n)] and d.effects[by(n)][0]["do"] == "negate"
    }
    assert negates == {
        "Mist of Hoggoth": "exile", "Healing Powers": "incapacitate", "Escape": "capture",
        "Petty Thieves": "item", "Bring Back": "kill",
    }  # fmt: skip
    assert d.timing[by("Petty Thieves")] == C.MYSTIC_ARTS and d.timing[by("Bring Back")] == C.REST
    assert {n for n in RULEBOOK_CARDS if d.types[by(n)] == C.COMPANION} == {"Underlings", "Guards"}
    assert d.types[by("Nightmare World")] == C.LOCATION and d.only[by("Nightmare World")] == C.EVIL


def _write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "cards.toml"
    p.write_text(text)
    return p


def _base() -> str:
    return C.CARD_FILE.read_text()


@pytest.mark.parametrize(
    ("old", "new", "card", "field"),
    [
        (
            'name = "Poison"\ntype = "attack"\nfate = "kill"',
            'name = "Poison"\ntype = "attack"\nfate = "maim"',
            "Poison",
            "fate",
        ),
        (
            'name = "Loki"\ntype = "character"\npower = 12',
            'name = "Loki"\ntype = "character"\npower = "x"',
            "Loki",
            "power",
        ),
        ('name = "Incense"\ntype = "power"', 'name = "Incense"\ntype = "powre"', "Incense", "type"),
        (
            'name = "Trance"\ntype = "power"\npower = 1',
            'name = "Trance"\ntype = "power"\npower = 1\ncolour = 3',
            "Trance",
            "colour",
        ),
        ('name = "Escape"', 'name = "Escapade"', "Escapade", "name"),
        ('{ do = "draw", amount = 3 }', '{ do = "draw_lots", amount = 3 }', "Learn Secrets", "effects[0].do"),
        (
            'name = "Interruption"\ntype = "event"\ntiming = "attack"',
            'name = "Interruption"\ntype = "event"\ntiming = "rest"',
            "Interruption",
            "effects[0].do",
        ),
        (
            'name = "Detect Danger"\ntype = "power"\npower = 2\nrole = "defender"',
            'name = "Detect Danger"\ntype = "item"\npower = 2\nrole = "defender"',
            "Detect Danger",
            "role",
        ),
    ],
)
def test_broken_card_file_names_file_card_field(tmp_path: Path, old: str, new: str, card: str, field: str) -> None:
    text = _base()
    assert old in text, old
    p = _write(tmp_path, text.replace(old, new, 1))
    with pytest.raises(CardDataError) as err:
        load_cards(p)
    assert err.value.card == card and err.value.field == field and str(p) in str(err.value)


def test_missing_and_duplicate_cards(tmp_path: Path) -> None:
    text = _base()
    block = '[[card]]\nname = "Zota"\ntype = "character"\npower = 4\nonly = "evil"\nnotes = "EPO"\n'
    assert block in text
    with pytest.raises(CardDataError, match="missing") as err:
        load_cards(_write(tmp_path, text.replace(block, "")))
    assert err.value.card == "Zota" and err.value.field == "name"
    with pytest.raises(CardDataError, match="twice") as err:
        load_cards(_write(tmp_path, text + "\n" + block))
    assert err.value.card == "Zota" and err.value.field == "name"


def test_bad_toml_and_missing_file(tmp_path: Path) -> None:
    with pytest.raises(CardDataError, match="TOML"):
        load_cards(_write(tmp_path, "[[card]\nname="))
    with pytest.raises(CardDataError, match="cannot read"):
        load_cards(tmp_path / "nope.toml")


def test_card_file_option(tmp_path: Path) -> None:
    p = _write(tmp_path, _base())
    g = game(cards=str(p))
    assert g.N == 112 and g.card_hash == load_cards().sha
    with pytest.raises(OptionError):
        game(cards=str(tmp_path / "missing.toml"))
    for bad in (str(tmp_path), "/dev/null", "x\x00y"):  # a directory, a device, a NUL byte
        with pytest.raises(OptionError, match="not a readable regular file"):
            game(cards=bad)
