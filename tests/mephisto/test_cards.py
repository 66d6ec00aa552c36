"""M1: the 60-card stand-in set and the validating loader (file, card and field in every error)."""

from __future__ import annotations

from pathlib import Path

import pytest

import cardtable
from cardtable.engine import CardDataError, OptionError
from cardtable.games.mephisto.cards import BUNDLED, MONSTER, SPELL, WEAPON, load_cards
from cardtable.games.mephisto.game import Mephisto

from .helpers import apply, arrange, cid, new


def test_m1_sixty_cards_of_four_types() -> None:
    c = load_cards()
    assert len(c) == 60
    assert {c.type[i] for i in range(60)} == {0, 1, 2, 3}


def test_m1_named_cards_match_the_rulebook() -> None:
    c = load_cards()
    mallet, axe, witch = c.names.index("Mallet"), c.names.index("Greataxe"), c.names.index("Witch")
    assert (c.type[mallet], c.cost[mallet], c.range[mallet]) == (WEAPON, 0, 2)
    assert (c.type[axe], c.cost[axe], c.range[axe]) == (WEAPON, 1, 2)
    assert c.attack[mallet] + c.attack[axe] == 7
    assert (c.type[witch], c.attack[witch]) == (MONSTER, 12)
    assert any(c.type[i] == SPELL and c.attach[i] for i in range(60))


def test_m1_header_says_stand_in() -> None:
    head = BUNDLED.read_text()[:600]
    assert "STAND-IN" in head and "NOT the printed" in head


def _card_file(tmp_path: Path, edit: str = "", old: str = "", count: int | None = None, name: str = "cards") -> Path:
    text = BUNDLED.read_text()
    if old:
        assert old in text
        text = text.replace(old, edit, 1)
    if count is not None:
        blocks = text.split("\n[[card]]\n")
        text = "\n[[card]]\n".join(blocks[: count + 1])
    path = tmp_path / f"{name}.toml"
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("old", "new_text", "card", "field", "words"),
    [
        ("attack = 12\n", "attack = 12\ncolour = 3\n", "#0 Witch", "colour", "unknown field"),
        ("souls = 5\n", "", "#0 Witch", "souls", "required"),
        ("attack = 12\n", "attack = -2\n", "#0 Witch", "attack", "at least 0"),
        ("attack = 12\n", 'attack = "big"\n', "#0 Witch", "attack", "must be int"),
        (
            '{ do = "lose_favor", amount = 2, who = "opponents" }',
            '{ do = "explode", amount = 2 }',
            "#0 Witch",
            "immediate[0].do",
            "unknown effect",
        ),
        (
            '{ do = "lose_favor", amount = 2, who = "opponents" }',
            '{ do = "lose_favor", amount = 2, who = "me" }',
            "#0 Witch",
            "immediate[0].who",
            "must be one of",
        ),
        ('type = "monster"\nattack = 12', 'type = "dragon"\nattack = 12', "#0 Witch", "type", "must be one of"),
        ("range = 2\n", "range = 4\n", "#24 Mallet", "range", "at most 3"),
    ],
)
def test_m1_broken_card_files_name_file_card_and_field(
    tmp_path: Path, old: str, new_text: str, card: str, field: str, words: str
) -> None:
    path = _card_file(tmp_path, new_text, old)
    with pytest.raises(CardDataError) as err:
        load_cards(path)
    assert err.value.file == str(path)
    assert err.value.card == card
    assert err.value.field == field
    assert words in str(err.value)


def test_m1_wrong_count_bad_toml_and_missing_file(tmp_path: Path) -> None:
    with pytest.raises(CardDataError, match="exactly 60 cards, found 59"):
        load_cards(_card_file(tmp_path, count=59))
    bad = tmp_path / "bad.toml"
    bad.write_text("[[card]\nname=")
    with pytest.raises(CardDataError, match="not valid TOML"):
        load_cards(bad)
    with pytest.raises(CardDataError, match="cannot read"):
        load_cards(tmp_path / "missing.toml")


def test_m1_attached_effects_validated(tmp_path: Path) -> None:
    path = _card_file(
        tmp_path, 'attached = [{ do = "gain_favor", amount = 1 }]', 'attached = [{ do = "attack_bonus", amount = 1 }]'
    )
    with pytest.raises(CardDataError) as err:
        load_cards(path)
    assert err.value.field == "attached" and err.value.card == "#48 Sharpen"


def test_m1_cards_option_plays_with_a_transcription(tmp_path: Path) -> None:
    path = _card_file(
        tmp_path, 'name = "Hag"\ntype = "monster"\nattack = 12', 'name = "Witch"\ntype = "monster"\nattack = 12'
    )
    game = cardtable.load("mephisto", players=2, cards=str(path))
    assert isinstance(game, Mephisto)
    assert game.cards.names[0] == "Hag"
    assert game.card_hash != cardtable.load("mephisto", players=2).card_hash
    s = game.new(3)
    assert s.legal_actions()
    # (cardtable.load caches games by options, so a changed file needs a new path)
    broken = _card_file(tmp_path, "", "souls = 5\n", name="broken")
    with pytest.raises(CardDataError, match="souls"):
        cardtable.load("mephisto", players=2, cards=str(broken))


def test_m1_bad_options_are_refused() -> None:
    for opts in (
        {"players": 5},
        {"players": 0},
        {"players": 3, "teams": True},
        {"players": 1, "variant": "care-bear"},
        {"players": 3, "lane-view": "shared"},
        {"variant": "nice"},
        {"colour": "red"},
        {"players": 2, "solo-refill-effects": "skip"},
    ):
        with pytest.raises(OptionError):
            cardtable.load("mephisto", **opts)


def test_m1_card_description_names_the_card() -> None:
    s = arrange(new(), hands={0: [cid(new(), "Mallet")]})
    g = s.game
    action = g.actions.parse(f"play card={cid(s, 'Mallet')}")
    assert g.describe_action(action) == f"play Mallet (card {cid(s, 'Mallet')})"
    assert "lane 2" in g.describe_action(g.actions.parse("fight lane=2"))
    apply(s, action.text)
