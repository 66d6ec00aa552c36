"""The card file: the bundled stand-in set, validation errors naming file, card and field, and
loading another file with the ``cards`` option (clauses AD1.2, AD1.3, AD1.6, AD10)."""

from __future__ import annotations

from pathlib import Path

import pytest

import cardtable
from cardtable.engine import CardDataError, OptionError
from cardtable.games.army_of_darkness.cards import (
    DEFAULT_PATH,
    EVENT,
    MONSTER,
    NECRONOMICON,
    load_cards,
)
from cardtable.games.army_of_darkness.game import ArmyOfDarkness

BUNDLED = DEFAULT_PATH.read_text()


def test_bundled_set_is_a_plainly_labelled_stand_in() -> None:
    head = BUNDLED.split("format =")[0]
    assert "STAND-IN" in head and "cards=<path>" in head


def test_bundled_set_has_every_kind_and_the_named_cards() -> None:
    cs = load_cards()
    names = set(cs.names)
    for named in ("I'm Bad", "Goody-Goody Two-Shoes", "Double-Crossed", "It's Back", "S-Mart", "Necronomicon"):
        assert named in names
    assert cs.good_names[:4] == ("Ash", "Arthur", "Henry the Red", "Sheila")
    assert cs.good_names[cs.first_character] == "Ash"
    assert sum(cs.extra) >= 4 and len(cs.good_names) >= 8
    live = [k for k in range(len(cs)) if not cs.removed[k]]
    counts: dict[str, int] = {}
    for k in live:
        if cs.types[k] == MONSTER:
            counts[cs.names[k]] = counts.get(cs.names[k], 0) + 1
    assert max(counts.values()) >= 3, "three monsters of one name must be possible (AD4.2)"
    assert len(counts) >= 5, "five monsters of different names must be possible (AD7.3)"
    assert sum(1 for k in live if cs.types[k] == NECRONOMICON) == 1
    for k in range(len(cs)):
        assert (cs.effects[k] is not None) == (cs.types[k] == EVENT)


def test_named_events_flags() -> None:
    cs = load_cards()

    def first(name: str) -> int:
        return cs.names.index(name)

    assert cs.roll[first("I'm Bad")] and cs.roll[first("Goody-Goody Two-Shoes")]
    for name in ("Double-Crossed", "It's Back", "S-Mart"):
        assert not cs.necro_ok[first(name)]
    assert cs.necro_ok[first("Klaatu Barada Nikto")]


def _write(tmp_path: Path, text: str, name: str = "cards.toml") -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


@pytest.mark.parametrize(
    ("old", "new", "card", "field", "problem"),
    [
        ('name = "Deadite"\ntype = "monster"', 'name = "Deadite"\ntype = "zombie"', "Deadite", "type", "one of"),
        (
            'name = "Chainsaw"\ntype = "item"\ncount = 3',
            'name = "Chainsaw"\ntype = "item"\ncount = 0',
            "Chainsaw",
            "count",
            "at least",
        ),
        (
            'name = "Blacksmith"\ntype = "ally"',
            'name = "Blacksmith"\ntype = "ally"\ncolour = "red"',
            "Blacksmith",
            "colour",
            "unknown field",
        ),
        (
            'name = "Wise Man"\ntype = "ally"',
            'name = "Wise Man"\ntype = "ally"\nroll = true',
            "Wise Man",
            "roll",
            "only events",
        ),
        (
            'effect = { do = "draw", amount = 2 }',
            'effect = { do = "draw", amount = "two" }',
            "Shop Smart",
            "effect[0].amount",
            "must be int",
        ),
        (
            'effect = { do = "draw", amount = 2 }',
            'effect = { do = "teleport" }',
            "Shop Smart",
            "effect[0].do",
            "unknown effect",
        ),
        (
            'do = "discard_tabled", kinds = ["monster"], whose = "any"',
            'do = "discard_tabled", kinds = ["dragon"], whose = "any"',
            "Shotgun Blast",
            "effect[0].kinds[0]",
            "monster",
        ),
        (
            'do = "set_side", side = "evil", whose = "any"',
            'do = "set_side", side = "purple", whose = "any"',
            "I'm Bad",
            "effect[0].side",
            "one of",
        ),
        (
            'count = 2\nroll = true\neffect = { do = "set_side", side = "good", whose = "any" }',
            "count = 2\nroll = true",
            "Goody-Goody Two-Shoes",
            "effect",
            "needs an effect",
        ),
        ('evil = "Evil Sheila"', "evil = 7", "Sheila", "evil", "must be str"),
        # A monster title is typed in `slay-three name=...`: it must not read as a number.
        ('name = "Pit Witch"\ntype = "monster"', 'name = "1984"\ntype = "monster"', "1984", "name", "not a number"),
        (
            'name = "Pit Witch"\ntype = "monster"',
            'name = "Skeleton  Warrior"\ntype = "monster"',
            "Skeleton  Warrior",
            "name",
            "different for every monster title",
        ),
    ],
)
def test_bad_card_data_names_file_card_and_field(
    tmp_path: Path, old: str, new: str, card: str, field: str, problem: str
) -> None:
    assert old in BUNDLED, old
    path = _write(tmp_path, BUNDLED.replace(old, new, 1))
    with pytest.raises(CardDataError) as info:
        load_cards(path)
    err = info.value
    assert err.file == str(path) and err.card == card and err.field == field
    assert problem in str(err) and str(path) in str(err)


def test_bad_file_level_data(tmp_path: Path) -> None:
    with pytest.raises(CardDataError, match="not valid TOML"):
        load_cards(_write(tmp_path, "format = [broken"))
    with pytest.raises(CardDataError, match="format"):
        load_cards(_write(tmp_path, BUNDLED.replace("army-of-darkness-cards/1", "v0")))
    with pytest.raises(CardDataError, match="exactly one Necronomicon"):
        load_cards(_write(tmp_path, BUNDLED.replace('type = "necronomicon"', 'type = "item"')))
    with pytest.raises(CardDataError, match="first"):
        load_cards(_write(tmp_path, BUNDLED.replace("first = true\n", "")))
    with pytest.raises(CardDataError, match="cannot read"):
        load_cards(tmp_path / "missing.toml")


def test_cards_option_loads_another_file(tmp_path: Path) -> None:
    # A transcription with a renamed monster and a fifth copy of the Captain.
    text = BUNDLED.replace('name = "Pit Witch"', 'name = "Swamp Witch"').replace(
        'name = "Deadite Captain"\ntype = "monster"\ncount = 2', 'name = "Deadite Captain"\ntype = "monster"\ncount = 5'
    )
    path = _write(tmp_path, text)
    g = cardtable.load("army-of-darkness", players=2, cards=str(path))
    assert isinstance(g, ArmyOfDarkness)
    assert "Swamp Witch" in g.cards.names and "Pit Witch" not in g.cards.names
    assert g.cards.names.count("Deadite Captain") == 5
    assert g.card_hash != cardtable.load("army-of-darkness", players=2).card_hash
    st = g.new(1)
    assert not st.is_over and len(st.legal_actions()) > 0


def test_cards_option_errors_are_option_errors_naming_the_file(tmp_path: Path) -> None:
    path = _write(tmp_path, BUNDLED.replace('name = "Deadite"\ntype = "monster"', 'name = "Deadite"\ntype = "zombie"'))
    with pytest.raises(OptionError, match="Deadite"):
        cardtable.load("army-of-darkness", players=2, cards=str(path))


def test_too_few_characters_for_the_players(tmp_path: Path) -> None:
    text = BUNDLED
    for k in (5, 6, 7, 8):
        text = text.replace(f'[[character]]\ngood = "Extra Hero {k}"\nevil = "Evil Extra Hero {k}"\nextra = true\n', "")
    path = _write(tmp_path, text)
    assert len(load_cards(path).good_names) == 4
    cardtable.load("army-of-darkness", players=4, cards=str(path))
    with pytest.raises(OptionError, match="5 players need 5 character cards"):
        cardtable.load("army-of-darkness", players=5, cards=str(path))


def test_vocabulary_words_the_bundled_deck_does_not_use(tmp_path: Path) -> None:
    """`set_side` with side = "switch" and `discard_tabled` with whose = "self" work from a card file."""
    text = BUNDLED.replace(
        'effect = { do = "set_side", side = "evil", whose = "any" }',
        'effect = { do = "set_side", side = "switch", whose = "other" }',
    )
    g = cardtable.load("army-of-darkness", players=3, cards=str(_write(tmp_path, text)))
    assert isinstance(g, ArmyOfDarkness)
    from tests.army_of_darkness.helpers import EVIL, GOOD, Cards, arrange

    pool = Cards(g)
    ev = pool.one("I'm Bad")
    st = arrange(g, hands={0: [ev], 1: pool.take("Gunpowder", 1)}, sides={2: EVIL})
    st.apply(f"play card={ev}")
    assert [a.text for a in st.legal_actions()] == ["target seat=P2", "target seat=P3"]
    st.apply("target seat=P3")
    assert st.side[2] == GOOD

    text2 = BUNDLED.replace(
        'name = "Sucker Punch"\ntype = "event"\nremoved = true', 'name = "Sucker Punch"\ntype = "event"'
    )
    g2 = cardtable.load("army-of-darkness", players=2, cards=str(_write(tmp_path, text2, "punch.toml")))
    assert isinstance(g2, ArmyOfDarkness)
    pool2 = Cards(g2)
    ev2 = pool2.one("Sucker Punch")
    mine, theirs = pool2.one("Deadite"), pool2.one("Pit Witch")
    st2 = arrange(g2, hands={0: [ev2], 1: pool2.take("Gunpowder", 1)}, mon={0: [mine], 1: [theirs]})
    st2.apply(f"play card={ev2}")
    assert [a.text for a in st2.legal_actions()] == [f"pick card={mine}"]


def test_a_deck_too_small_to_deal_is_refused(tmp_path: Path) -> None:
    text = BUNDLED
    for old, new in (("count = 8\n", "count = 1\n"), ("count = 6\n", "count = 1\n"), ("count = 5\n", "count = 1\n")):
        text = text.replace(old, new)
    for k in (4, 3, 2):
        text = text.replace(f"count = {k}\n", "count = 1\n")
    path = _write(tmp_path, text, "small.toml")
    live = sum(1 for k in range(len(load_cards(path))) if not load_cards(path).removed[k])
    assert live < 48
    cardtable.load("army-of-darkness", players=2, cards=str(path))
    with pytest.raises(OptionError, match="cards in the deck"):
        cardtable.load("army-of-darkness", players=8, cards=str(path))


def test_monster_titles_are_typed_as_one_word_in_slay_three() -> None:
    g = cardtable.load("army-of-darkness", players=2)
    words = {a.args[0] for a in g.actions if a.kind == "slay-three"}
    assert "Skeleton-Warrior" in words and "Deadite" in words
    assert g.describe_action(g.actions.parse("slay-three name=Skeleton-Warrior")) == (
        "attack: discard three Skeleton Warrior monsters from in front of you"
    )
