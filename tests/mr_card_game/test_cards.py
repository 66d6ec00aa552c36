"""K1: the stand-in card set (component counts, every card the rules name), the schema of every card
type (core and supplemental), the closed effect vocabulary, and card files that are refused with
the file, the card and the field named."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

import cardtable
from cardtable.engine import CardDataError, OptionError
from cardtable.games.mr_card_game.cards import (
    BUNDLED,
    CLASSES,
    E_COMBAT,
    E_NONCOMBAT,
    K_BOARD_ITEM,
    K_BOSS,
    K_CLASS_BOARD,
    K_CLASS_CARD,
    K_FOIL,
    K_NEMESIS,
    K_STORE,
    MOJO_X,
    S_BUFF,
    S_COMBAT,
    S_NONCOMBAT,
    S_PASSIVE,
    STAT_KINDS,
    load_cards,
)
from cardtable.games.mr_card_game.effects import (
    CURE,
    DAMAGE_PER_MOJO,
    DAMAGE_POWER,
    DAMAGE_VS,
    ELEMENTS,
    GAIN_STAT,
    MEAT_BONUS,
    PULVERIZE,
    RESIST,
    VOCABULARY,
    compile_effects,
    describe,
)
from cardtable.games.mr_card_game.game import MrCardGame

TEXT = BUNDLED.read_text(encoding="utf-8")
C = load_cards()
# The core part of the bundled file (no supplemental card, no playmat), for files built in tests.
CORE_TEXT = re.sub(r"\n\[playmat\]\n(?:[^\[\n][^\n]*\n)*", "\n", TEXT.split("# ==== Supplemental components")[0])


def _by_name(name: str) -> int:
    for i in range(C.size):
        if name in (C.iname[i], C.mname[i]):
            return i
    raise KeyError(name)


# -- the bundled stand-in set ------------------------------------------------------------------------


def test_k1_bundled_set_matches_the_component_counts() -> None:
    assert len(C.monsters) == 72
    assert len(C.kingdom) == 9
    assert [len(C.location_cards[li]) for li in C.kingdom] == [8] * 9
    assert sorted(C.locations[li].grid or (9, 9) for li in C.kingdom) == [(r, c) for r in range(3) for c in range(3)]
    assert len(C.skills) == 60
    assert Counter(C.sclass[x] for x in C.skills) == {k: 10 for k in range(len(CLASSES))}
    assert len(C.stats) == 156
    assert [len(p) for p in C.stat_piles] == [28, 10, 8, 6] * 3
    assert C.stat_names[0] == "Strengthliness" and C.stat_names[4] == "Enchantedness" and C.stat_names[8] == "Cheek"
    assert [C.skind[x] for x in C.stats] == sorted(C.skind[x] for x in C.stats)
    assert len(C.newbie) == 5
    assert C.newbie_set_names[4] == "Noblesse Oblige"
    assert C.sorceress_powers == (20, 25)
    assert C.sorceress_name == "Naughty Sorceress"
    assert C.certificate_name == "Certificate of Participation"


def test_k1_newbie_gear_sets_are_a_melee_weapon_a_hat_and_pants() -> None:
    for weapon, hat, pants in C.newbie:
        assert C.iname[weapon] == "Sweet Ninja Sword" and C.slot[weapon] == 0 and not C.ranged[weapon]
        assert C.iname[hat] == "Kentucky-Style Derby" and C.slot[hat] == 1
        assert C.iname[pants] == "Studded Leather Boxer Shorts" and C.slot[pants] == 2
        assert all(C.price[x] < 0 for x in (weapon, hat, pants))  # never dived (A30)
        assert all(C.autosell[x] >= 0 for x in (weapon, hat, pants))
    # A31: the Noblesse Oblige set has the same numbers as the others.
    first, fifth = C.newbie[0], C.newbie[4]
    for a, b in zip(first, fifth, strict=True):
        assert (C.icons[a], C.anvil[a], C.autosell[a]) == (C.icons[b], C.anvil[b], C.autosell[b])


def test_k1_named_cards_of_the_rules_are_present() -> None:
    hobo = _by_name("Hung Over Half-Orc Hobo")
    assert STAT_KINDS[C.drop[hobo]] == "mus2"  # supp L157: a Muscle-2 stat drop
    pulverize = _by_name("Pulverize")
    assert pulverize in C.skills and C.stype[pulverize] == S_NONCOMBAT
    assert any(e[0] == PULVERIZE for e in C.effects[pulverize])


def test_k1_stand_in_content_the_rules_require() -> None:
    monsters = C.monsters
    items = C.monsters  # the item sides
    skills = list(C.skills)
    assert {C.element[m] for m in monsters} == set(range(6))  # all 5 elements and none
    assert min(C.mpower[m] for m in monsters) <= 1  # playable with six level-1 cards
    kinds = {(C.itype[i], C.ranged[i]) for i in items}
    assert kinds >= {(0, False), (0, True), (1, False), (2, False), (4, False), (5, False), (6, False)}
    assert {C.stype[s] for s in skills} == {S_PASSIVE, S_BUFF, S_COMBAT, S_NONCOMBAT}
    gives_stat = [i for i in items if C.itype[i] in (4, 5) and any(e[0] == GAIN_STAT for e in C.effects[i])]
    assert {C.itype[i] for i in gives_stat} == {4, 5}  # food and booze that give stat cards (core L21)
    assert any(C.mojo[s] == MOJO_X and any(e[0] == DAMAGE_PER_MOJO for e in C.effects[s]) for s in skills)
    assert any(e[0] == DAMAGE_POWER for s in skills for e in C.effects[s])
    assert any(e[0] == MEAT_BONUS for s in skills for e in C.effects[s])
    cured = {e[1] for s in skills for e in C.effects[s] if e[0] == CURE}
    assert cured >= {0, 1, 2}  # a cure for each negative sub-type (injury, impairment, illness)
    assert any(C.price[i] < 0 for i in items) and any(C.autosell[i] < 0 for i in items)
    assert any(e[0] == DAMAGE_VS for x in (*items, *skills) for e in C.effects[x])
    assert any(e[0] == RESIST for x in (*items, *skills) for e in C.effects[x])
    # Equipment with an activated ability (the use-consumes option matters).
    assert any(C.slot[i] >= 0 and C.etype[i] in (E_COMBAT, E_NONCOMBAT) for i in items)


def test_k1_bundled_file_says_it_is_a_stand_in_and_how_to_replace_it() -> None:
    head = TEXT[:2000]
    assert "STAND-IN" in head and "not the printed cards" in head
    assert "cards=" in head and "transcribe" in head
    assert C.stand_in is True


def test_k1_7_hand_icons_are_flavour_only(tmp_path: Path) -> None:
    text = TEXT.replace('item = "Turnip Cudgel"\n', 'item = "Turnip Cudgel"\nhands = 2\n', 1)
    path = tmp_path / "hands.toml"
    path.write_text(text)
    other = load_cards(path)
    cudgel = _by_name("Turnip Cudgel")
    assert (other.icons[cudgel], other.anvil[cudgel], other.effects[cudgel]) == (
        C.icons[cudgel],
        C.anvil[cudgel],
        C.effects[cudgel],
    )


# -- the closed vocabulary ---------------------------------------------------------------------------

_SAMPLES: dict[str, dict[str, object]] = {
    "bonus": {"maneuver": "melee", "amount": 2},
    "bonus_vs": {"element": "hot", "maneuver": "spell", "amount": -1},
    "resist": {"element": "cold", "amount": 2},
    "monster_power": {"amount": 1},
    "forbid": {"action": "train"},
    "damage_vs": {"element": "sleaze", "amount": 2},
    "damage_power": {"slot": "weapon"},
    "combat_bonus": {"maneuver": "ranged", "amount": 1},
    "gain_stat": {"type": "choose", "value": 2},
    "pulverize": {},
    "cure": {"subtype": "illness"},
    "unequip": {"slot": "hat"},
    "upgrade_stat": {},
}


@pytest.mark.parametrize("name", sorted(VOCABULARY))
def test_every_effect_of_the_vocabulary_compiles_and_reads_in_words(name: str) -> None:
    params = _SAMPLES.get(name, {"amount": 2})
    for timing in ("static", "combat", "noncombat"):
        try:
            (effect,) = compile_effects("f.toml", "c", "effects", [{"do": name, **params}], timing)
        except CardDataError as exc:
            assert "cannot be part of" in str(exc)
            continue
        words = describe(effect)
        assert words and "=" not in words and "_" not in words


def test_effects_are_refused_where_they_cannot_work() -> None:
    with pytest.raises(CardDataError, match=r"c\.toml, card 'X', field 'effects\[0\]\.do'.*cannot be part of"):
        compile_effects("c.toml", "X", "effects", [{"do": "damage", "amount": 2}], "static")
    with pytest.raises(CardDataError, match=r"unknown effect 'explode'"):
        compile_effects("c.toml", "X", "effects", [{"do": "explode"}], "combat")
    with pytest.raises(CardDataError, match=r"field 'effects\[0\]\.amount'"):
        compile_effects("c.toml", "X", "effects", [{"do": "damage", "amount": 0}], "combat")


# -- broken card files -------------------------------------------------------------------------------

BROKEN = [
    (
        'monster = "Dust Bunny Brute"\npower = 1',
        'monster = "Dust Bunny Brute"\npower = -1',
        "Dust Bunny Brute",
        "power",
    ),
    (
        'monster = "Spiteful Turnip"\npower = 2',
        'monster = "Spiteful Turnip"\npower = 2\nelement = "fire"',
        "Spiteful Turnip",
        "element",
    ),
    (
        'stat = "mus1"\nitem = "Stale Cellar Cracker"',
        'stat = "mus5"\nitem = "Stale Cellar Cracker"',
        "Dust Bunny Brute",
        "stat",
    ),
    (
        'item = "Turnip Cudgel"\nitem_type = "weapon"\nattack = "melee"\n',
        'item = "Turnip Cudgel"\nitem_type = "weapon"\n',
        "Spiteful Turnip",
        "attack",
    ),
    (
        'item = "Rat Trap Grenade"\nitem_type = "combat"\n',
        'item = "Rat Trap Grenade"\nitem_type = "combat"\nanvil = 2\n',
        "Root Cellar Rat",
        "anvil",
    ),
    (
        'item = "Daisy Chain Salad"\nitem_type = "food"\n',
        'item = "Daisy Chain Salad"\nitem_type = "food"\nbonus = { melee = 1 }\n',
        "Sarcastic Daisy",
        "bonus",
    ),
    (
        'effects = [{ do = "damage", amount = 3 }]',
        'effects = [{ do = "explode", amount = 3 }]',
        "Root Cellar Rat",
        "effects[0].do",
    ),
    (
        'effect_type = "passive"\neffects = [{ do = "resist", element = "spooky", amount = 2 }]',
        'effect_type = "passive"\neffects = [{ do = "damage", amount = 2 }]',
        "Pickled Ghost",
        "effects[0].do",
    ),
    (
        'subtype = "skill"\ncost = 6\neffect_type = "buff"\nmojo = 2',
        'subtype = "skill"\ncost = 6\neffect_type = "buff"',
        "Rage of the Walrus",
        "mojo",
    ),
    ('name = "Shell Up"', 'name = "Clubbing Practice"', "Clubbing Practice", "name"),
    (
        'subtype = "spell"\ncost = 6\neffect_type = "combat"\nmojo = "x"',
        'subtype = "spell"\ncost = 6\neffect_type = "combat"\nmojo = 2',
        "Lasagna Lance",
        "effects",
    ),
    (
        'name = "Sweet Ninja Sword"\nitem_type = "weapon"',
        'name = "Sweet Ninja Sword"\nmeat_cost = 2\nitem_type = "weapon"',
        "Sweet Ninja Sword",
        "meat_cost",
    ),
    ('class = "seal-clubber"\nsubtype = "craft"', 'class = "seal-clubbers"\nsubtype = "craft"', "Pulverize", "class"),
    ('[certificate]\nname = "Certificate', '[certificates]\nname = "Certificate', None, "certificates"),
    (
        'mus = { names = ["Strengthliness", "Beefiness", "Brawnitude", "Musclosity"], counts = [28, 10, 8, 6] }',
        'mus = { names = ["Strengthliness", "Beefiness", "Brawnitude", "Musclosity"], counts = [28, 10, 8] }',
        "stats.mus",
        "counts",
    ),
]


@pytest.mark.parametrize(("old", "new", "card", "field"), BROKEN)
def test_bad_card_data_names_file_card_and_field(
    tmp_path: Path, old: str, new: str, card: str | None, field: str
) -> None:
    assert old in TEXT, old
    path = tmp_path / "broken.toml"
    path.write_text(TEXT.replace(old, new, 1))
    with pytest.raises(CardDataError) as info:
        load_cards(path)
    err = info.value
    assert err.file == "broken.toml"
    assert err.card == card
    assert err.field == field
    assert "broken.toml" in str(err) and field in str(err)


def test_a_map_without_nine_locations_or_a_broken_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "map.toml"
    path.write_text(TEXT.replace("grid = [2, 2]\n", "", 1))
    with pytest.raises(CardDataError, match="grid"):
        load_cards(path)
    path.write_text("this is = = not toml")
    with pytest.raises(CardDataError, match="not valid TOML"):
        load_cards(path)
    with pytest.raises(CardDataError, match="cannot read"):
        load_cards(tmp_path / "missing.toml")


# -- the supplemental card types: their schema exists now --------------------------------------------

SUPPLEMENT = """
[[location]]
key = "den"
name = "A Nemesis Den"
kind = "nemesis"

[[nemesis]]
location = "den"
monster = "A Stand-In Nemesis"
class = "sauceror"
power = 12
meat = 0
stat = "mys3"
item = "An Epic Ladle"
item_type = "weapon"
attack = "melee"
anvil = 4
autosell = 3
bonus = { spell = 3 }

[[boss]]
name = "A Stand-In Boss"
power = 9
meat = 6
stat_value = 4
negative = "A Sprained Ego"
subtype = "injury"
effects = [{ do = "bonus", maneuver = "melee", amount = -2 }, { do = "forbid", action = "dive" }]

[[foil]]
name = "A Foil, First Form"
form = 1
power = 20
effects = [{ do = "monster_power", amount = 1, element = "hot" }]
back = "instant-karma"

[[foil]]
name = "A Foil, Third Form"
form = 3
power = 30
back = "king-ralph"

[instant_karma]
name = "Instant Karma"
item_type = "special"
effect_type = "passive"
effects = [{ do = "extra_upgrade", amount = 1 }]

[king_ralph]
name = "King Ralph"

[[store]]
name = "A Stand-In Helm"
item_type = "hat"
anvil = 2
meat_cost = 8
effect_type = "passive"
effects = [{ do = "familiar_weight", amount = 1 }]
requires = ["familiars"]

[[store]]
name = "A Stand-In Accessory"
item_type = "accessory"
anvil = 1
meat_cost = 6
bonus = { evade = 1 }

[[class_card]]
class = "turtle-tamer"
name = "A Turtle Class Card"
effects = [{ do = "resist", element = "cold", amount = 1 }]

[[class_board]]
class = "disco-bandit"
name = "A Disco Board"
effects = [{ do = "bonus", maneuver = "ranged", amount = 1 }]
equipment = [
  { slot = "weapon", name = "Board Knife", item_type = "weapon", attack = "ranged", anvil = 2, bonus = { ranged = 1 } },
  { slot = "hat", name = "Board Hat", item_type = "hat", anvil = 1 },
  { slot = "pants", name = "Board Pants", item_type = "pants", anvil = 1, bonus = { evade = 1 } },
]
"""


def test_every_supplemental_card_type_has_its_schema(tmp_path: Path) -> None:
    path = tmp_path / "full.toml"
    path.write_text(CORE_TEXT + SUPPLEMENT)
    full = load_cards(path)
    kinds = Counter(full.kind)
    assert kinds[K_NEMESIS] == 1 and kinds[K_BOSS] == 1 and kinds[K_FOIL] == 2 and kinds[K_STORE] == 2
    assert kinds[K_CLASS_CARD] == 1 and kinds[K_CLASS_BOARD] == 1 and kinds[K_BOARD_ITEM] == 3
    # The back of a foil: Instant Karma (forms 1, 2) or King Ralph (form 3), on the foil card itself.
    first, third = full.foils
    assert full.iname[first] == "Instant Karma" and full.mname[first] == "A Foil, First Form"
    assert full.iname[third] == "King Ralph" and full.gfx[first] and not full.gfx[third]
    boss = full.bosses[0]
    assert full.drop[boss] == -1 - 4 and full.negative_name[boss] == "A Sprained Ego"
    assert full.requires[full.store[0]] == ("familiars",)
    assert full.form[full.foils[0]] == 1 and full.form[full.foils[1]] == 3
    # The core ids do not move: supplemental items come after the monsters, the rest after the skills.
    assert full.monsters == C.monsters
    assert ELEMENTS[full.element[full.nemeses[0]]] == "none"
    # And the core game still plays with such a file (the supplement's rules are issue 10's).
    game = cardtable.load("mr-card-game", cards=str(path))
    game.new(0).legal_actions()


SUPPLEMENT_BROKEN = [
    ('meat = 0\nstat = "mys3"', 'meat = 2\nstat = "mys3"', "A Stand-In Nemesis", "meat"),
    (
        'form = 3\npower = 30\nback = "king-ralph"',
        'form = 3\npower = 30\nback = "instant-karma"',
        "A Foil, Third Form",
        "back",
    ),
    (
        "form = 3\npower = 30\n",
        'form = 3\npower = 30\neffects = [{ do = "meat_bonus", amount = 1 }]\n',
        "A Foil, Third Form",
        "effects",
    ),
    ("meat_cost = 8\n", "meat_cost = 8\nautosell = 2\n", "A Stand-In Helm", "autosell"),
    ("anvil = 1\nmeat_cost = 6\n", "anvil = 1\n", "A Stand-In Accessory", "meat_cost"),
    ('  { slot = "hat", name = "Board Hat", item_type = "hat", anvil = 1 },\n', "", "A Disco Board", "equipment"),
    ('subtype = "injury"', 'subtype = "hangover"', "A Stand-In Boss", "subtype"),
    (
        'effects = [{ do = "bonus", maneuver = "melee", amount = -2 }, { do = "forbid", action = "dive" }]',
        'effects = [{ do = "damage", amount = 2 }]',
        "A Stand-In Boss",
        "effects[0].do",
    ),
]


@pytest.mark.parametrize(("old", "new", "card", "field"), SUPPLEMENT_BROKEN)
def test_supplemental_cards_are_validated_too(tmp_path: Path, old: str, new: str, card: str, field: str) -> None:
    assert old in SUPPLEMENT, old
    path = tmp_path / "bad.toml"
    path.write_text(CORE_TEXT + SUPPLEMENT.replace(old, new, 1))
    with pytest.raises(CardDataError) as info:
        load_cards(path)
    assert (info.value.card, info.value.field) == (card, field)


# -- the cards option --------------------------------------------------------------------------------


def test_cards_option_plays_a_transcription_in_the_same_format(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(TEXT.replace('monster = "Dust Bunny Brute"', 'monster = "My Own Dust Bunny"', 1))
    game = cardtable.load("mr-card-game", cards=str(path))
    assert isinstance(game, MrCardGame)
    assert game.card_hash != cardtable.load("mr-card-game").card_hash
    assert "My Own Dust Bunny" in game.cards.mname
    state = game.new(3)
    state.apply(state.legal_actions()[0])
    assert state.record()["cards"] == game.card_hash


def test_cards_option_errors_are_option_errors_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(TEXT.replace("power = 1\n", "power = -1\n", 1))
    with pytest.raises(OptionError, match=r"option 'cards'.*bad\.toml.*power"):
        cardtable.load("mr-card-game", cards=str(path))
    with pytest.raises(OptionError, match="cannot read"):
        cardtable.load("mr-card-game", cards=str(tmp_path / "nope.toml"))
