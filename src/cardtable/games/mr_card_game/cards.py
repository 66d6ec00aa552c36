"""Mr. Card Game card data: the schema of every card type, and the loader that compiles a card file.

A card file (see the header of the bundled ``cards.toml``) has one section per card type. The core
game reads ``[meta]``, ``[[location]]``, ``[[monster]]``, ``[[skill]]``, ``[stats]``, ``[[newbie]]``,
``[sorceress]`` and ``[certificate]``. The supplemental card types have their schema here too and are
validated whenever the file has them, so the supplemental rules (issue 10) add data and rules, not a
schema: ``[[nemesis]]``, ``[[boss]]``, ``[[foil]]``, ``[instant_karma]``, ``[king_ralph]``,
``[[store]]``, ``[[class_card]]`` and ``[[class_board]]``.

:func:`load_cards` validates every card with :mod:`cardtable.engine.carddata` (a mistake names the
file, the card and the field) and compiles the data into flat tuples indexed by card id, so the rules
never touch a dict on the hot path. Card ids are positions in this order: items (monster/item cards,
nemesis/epic items, newbie gear, Mr. Store items, Instant Karma, class-board equipment), boss cards,
skills, stat cards, then the single cards (Sorceress, Certificate, foils, King Ralph, class cards,
class boards). Stat cards are numbered pile by pile (``mus1``, ``mus2``, ..., ``mox4``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from cardtable.engine.carddata import Field, check_table, read_card_file
from cardtable.engine.errors import CardDataError
from cardtable.games.mr_card_game.effects import (
    COMBAT,
    COMBAT_BONUS,
    DAMAGE_PER_MOJO,
    ELEMENTS,
    MANEUVERS,
    NEGATIVE,
    NONCOMBAT,
    STAT_TYPES,
    STAT_WORDS,
    STATIC,
    SUBTYPES,
    Effect,
    compile_effects,
)

BUNDLED = Path(__file__).with_name("cards.toml")

CLASSES = ("seal-clubber", "turtle-tamer", "pastamancer", "sauceror", "disco-bandit", "accordion-thief")
CLASS_WORDS = ("Seal Clubber", "Turtle Tamer", "Pastamancer", "Sauceror", "Disco Bandit", "Accordion Thief")
ITEM_TYPES = ("weapon", "hat", "pants", "accessory", "food", "booze", "combat", "special")
"""Item types; ``special`` is an item that works from the display case without being equipped or used
(Instant Karma, the back of the first two Sorceress forms)."""
EQUIPMENT = frozenset({"weapon", "hat", "pants", "accessory"})
CONSUMABLES = frozenset({"food", "booze", "combat"})
ITEM_EFFECT_TYPES = ("none", "passive", "combat", "noncombat")
SKILL_SUBTYPES = ("skill", "spell", "song", "craft")
SKILL_EFFECT_TYPES = ("passive", "buff", "combat", "noncombat")
LOCATION_KINDS = ("kingdom", "nemesis", "tower")
COMPONENTS = ("familiars", "nemesis", "bosses", "foils", "ascension", "classes", "accessories")
"""What a Mr. Store item may require (``requires``): components whose absence makes it weaker, so the
``store-filter`` option leaves it out (supplemental rules: Boris' Helm without familiars). Familiars
have no rules at all, so they are never in play."""

# Card kinds (what a card id is).
K_MONSTER: Final = 0
K_NEMESIS: Final = 1
K_NEWBIE: Final = 2
K_STORE: Final = 3
K_KARMA: Final = 4
K_BOARD_ITEM: Final = 5
K_BOSS: Final = 6
K_SKILL: Final = 7
K_STAT: Final = 8
K_SORCERESS: Final = 9
K_CERTIFICATE: Final = 10
K_FOIL: Final = 11
K_KING: Final = 12
K_CLASS_CARD: Final = 13
K_CLASS_BOARD: Final = 14
KIND_NAMES = (
    "monster/item",
    "nemesis/epic item",
    "newbie gear",
    "Mr. Store item",
    "Instant Karma",
    "class board equipment",
    "boss/negative effect",
    "skill",
    "stat",
    "Naughty Sorceress",
    "Certificate of Participation",
    "Naughty Sorceress foil",
    "King Ralph",
    "character class card",
    "character class board",
)

# Item types as codes; SLOT is the equipment slot (-1: not equipment).
T_WEAPON: Final = 0
T_HAT: Final = 1
T_PANTS: Final = 2
T_ACCESSORY: Final = 3
T_FOOD: Final = 4
T_BOOZE: Final = 5
T_COMBAT: Final = 6
T_SPECIAL: Final = 7
E_NONE: Final = 0
E_PASSIVE: Final = 1
E_COMBAT: Final = 2
E_NONCOMBAT: Final = 3
S_PASSIVE: Final = 0
S_BUFF: Final = 1
S_COMBAT: Final = 2
S_NONCOMBAT: Final = 3
MOJO_X: Final = -1
"""A skill whose mojo cost is X (a Spell Attack ability, core appendix J): the player chooses X >= 1."""

STAT_KINDS = tuple(f"{t}{v}" for t in STAT_TYPES for v in (1, 2, 3, 4))
"""Stat card kinds ``mus1..mox4``; kind code = type * 4 + value - 1."""
STAT_CODE: dict[int | str, int] = {k: i for i, k in enumerate(STAT_KINDS)}
"""The kind code of each stat kind's text (an action's ``stat=`` argument)."""
_STAT_RE = re.compile(r"^(mus|mys|mox)([1-4])$")

# -- schema ------------------------------------------------------------------------------------------

_BONUS_FIELDS = tuple(Field(m, (int,), required=False, default=0, min=0, max=20) for m in MANEUVERS)


def _item_fields(name_key: str) -> tuple[Field, ...]:
    """The item side of a card (monster/item back, newbie gear, Mr. Store, epic items, ...)."""
    return (
        Field(name_key, (str,), doc="item name"),
        Field("item_type", (str,), choices=ITEM_TYPES),
        Field("attack", (str,), required=False, default=None, choices=("melee", "ranged"), doc="weapons only"),
        Field("anvil", (int,), required=False, default=None, min=0, max=20, doc="item power; equipment only"),
        Field("meat_cost", (int,), False, None, min=0, max=99, doc="Heap price; absent: cannot be dived"),
        Field("autosell", (int,), False, None, min=0, max=99, doc="AutoSell value; absent: cannot be sold"),
        Field("bonus", (dict,), required=False, default=None, doc="combat bonus icons"),
        Field("effect_type", (str,), required=False, default="none", choices=ITEM_EFFECT_TYPES),
        Field("effects", (list,), required=False, default=None),
        Field("hands", (int,), required=False, default=None, min=0, max=3, doc="flavour only (clarification 3)"),
    )


_MONSTER_SIDE = (
    Field("location", (str,)),
    Field("monster", (str,)),
    Field("power", (int,), min=0, max=99),
    Field("element", (str,), required=False, default="none", choices=ELEMENTS),
    Field("meat", (int,), min=0, max=99),
    Field("stat", (str,), doc="stat drop, e.g. mus2"),
)
SCHEMAS: dict[str, tuple[Field, ...]] = {
    "meta": (
        Field("title", (str,)),
        Field("stand_in", (bool,)),
        Field("version", (int, str), required=False, default=1),
    ),
    "location": (
        Field("key", (str,)),
        Field("name", (str,)),
        Field("kind", (str,), required=False, default="kingdom", choices=LOCATION_KINDS),
        Field("grid", (list,), required=False, default=None, doc="[row, column] in the 3x3 grid"),
        Field("playmat", (list,), required=False, default=None, doc="[x, y] on the playmat"),
    ),
    "monster": _MONSTER_SIDE + _item_fields("item"),
    "nemesis": (*_MONSTER_SIDE, Field("class", (str,), choices=CLASSES), *_item_fields("item")),
    "boss": (
        Field("name", (str,)),
        Field("power", (int,), min=0, max=99),
        Field("element", (str,), required=False, default="none", choices=ELEMENTS),
        Field("meat", (int,), min=0, max=99),
        Field("stat_value", (int,), min=1, max=4, doc="stat drop of any type (and the counter-attack)"),
        Field("negative", (str,), doc="the negative effect on the back"),
        Field("subtype", (str,), choices=SUBTYPES),
        Field("effects", (list,), required=False, default=None, doc="the negative effect's penalties"),
    ),
    "skill": (
        Field("name", (str,)),
        Field("class", (str,), choices=CLASSES),
        Field("subtype", (str,), choices=SKILL_SUBTYPES),
        Field("cost", (int,), min=0, max=99, doc="meat to train"),
        Field("effect_type", (str,), choices=SKILL_EFFECT_TYPES),
        Field("mojo", (int, str), required=False, default=None, doc="buff or activation cost; 'x' for X mojo"),
        Field("bonus", (dict,), required=False, default=None),
        Field("effects", (list,), required=False, default=None),
    ),
    "stats": tuple(Field(t, (dict,)) for t in STAT_TYPES),
    "stat_type": (
        Field("names", (list,), doc="the names of the value 1..4 cards"),
        Field("counts", (list,), doc="how many cards of value 1..4"),
    ),
    "newbie": (
        Field("set", (int,), min=1, max=5),
        Field("set_name", (str,)),
        *_item_fields("name"),
    ),
    "sorceress": (
        Field("name", (str,)),
        Field("powers", (list,), doc="[first-game side, other side]"),
        Field("element", (str,), required=False, default="none", choices=ELEMENTS),
    ),
    "certificate": (Field("name", (str,)),),
    "foil": (
        Field("name", (str,)),
        Field("form", (int,), min=1, max=3),
        Field("power", (int,), min=1, max=99),
        Field("effects", (list,), required=False, default=None, doc="global effect (forms 1 and 2)"),
        Field("back", (str,), choices=("instant-karma", "king-ralph")),
    ),
    "instant_karma": _item_fields("name"),
    "king_ralph": (Field("name", (str,)),),
    "playmat": (
        Field("name", (str,)),
        Field("size", (list,), doc="[rows, columns] of the playmat's spaces"),
        Field("heap", (list,), doc="[row, column] of the Heap"),
        Field("quests", (list,), doc="[row, column] of the quest boss pile"),
        Field("spare", (list,), required=False, default=None, doc="spaces for future expansions"),
    ),
    "store": (*_item_fields("name"), Field("requires", (list,), required=False, default=None)),
    "class_card": (Field("class", (str,), choices=CLASSES), Field("name", (str,)), Field("effects", (list,))),
    "class_board": (
        Field("class", (str,), choices=CLASSES),
        Field("name", (str,)),
        Field("effects", (list,)),
        Field("equipment", (list,), doc="three tables: slot weapon, hat, pants"),
    ),
    "board_item": (Field("slot", (str,), choices=("weapon", "hat", "pants")), *_item_fields("name")),
}
SECTIONS_ARRAY = (
    "location",
    "monster",
    "nemesis",
    "boss",
    "skill",
    "newbie",
    "foil",
    "store",
    "class_card",
    "class_board",
)
SECTIONS_TABLE = ("meta", "stats", "sorceress", "certificate", "instant_karma", "king_ralph", "playmat")


# -- compiled data -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Location:
    key: str
    name: str
    kind: str
    grid: tuple[int, int] | None
    playmat: tuple[int, int] | None


@dataclass(frozen=True)
class Playmat:
    """The Kingdom of Loathing map playmat (supplemental rules): a grid of spaces; each location has
    its ``playmat`` space, and the Heap, the quest boss pile and the spare spaces have theirs."""

    name: str
    size: tuple[int, int]
    heap: tuple[int, int]
    quests: tuple[int, int]
    spare: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class CardSet:
    """The compiled card data. Every per-card field is a tuple indexed by card id (-1/""/() where a
    card has no such field)."""

    path: str
    sha: str
    title: str
    stand_in: bool
    size: int
    kind: tuple[int, ...]
    # item side
    iname: tuple[str, ...]
    itype: tuple[int, ...]
    slot: tuple[int, ...]
    ranged: tuple[bool, ...]
    anvil: tuple[int, ...]
    price: tuple[int, ...]
    autosell: tuple[int, ...]
    icons: tuple[tuple[int, int, int, int], ...]
    etype: tuple[int, ...]
    effects: tuple[tuple[Effect, ...], ...]
    # monster side
    mname: tuple[str, ...]
    loc: tuple[int, ...]
    mpower: tuple[int, ...]
    element: tuple[int, ...]
    meat: tuple[int, ...]
    drop: tuple[int, ...]
    """Stat kind dropped (0..11); for a boss ``-1 - value`` (any type)."""
    # skills
    sclass: tuple[int, ...]
    ssub: tuple[int, ...]
    cost: tuple[int, ...]
    stype: tuple[int, ...]
    mojo: tuple[int, ...]
    # stat cards
    skind: tuple[int, ...]
    # other single cards / supplemental
    newbie_set: tuple[int, ...]
    subtype: tuple[int, ...]
    form: tuple[int, ...]
    requires: tuple[tuple[str, ...], ...]
    # ranges and lookups
    locations: tuple[Location, ...]
    kingdom: tuple[int, ...]
    """Indices (into ``locations``) of the kingdom locations in grid order (row by row)."""
    location_cards: tuple[tuple[int, ...], ...]
    """Card ids of each location's pile (indexed like ``locations``)."""
    items: range
    monsters: tuple[int, ...]
    newbie: tuple[tuple[int, int, int], ...]
    """The newbie sets in set order: (weapon, hat, pants) ids."""
    newbie_set_names: tuple[str, ...]
    skills: range
    stats: range
    stat_names: tuple[str, ...]
    """The name of each stat kind ``mus1..mox4``."""
    stat_piles: tuple[tuple[int, ...], ...]
    """Card ids of each stat kind's pile at the start."""
    sorceress: int
    sorceress_name: str
    sorceress_powers: tuple[int, int]
    certificate: int
    certificate_name: str
    nemeses: tuple[int, ...]
    nemesis_locations: tuple[int, ...]
    """Indices (into ``locations``) of the nemesis locations, in file order."""
    tower: int
    """Index (into ``locations``) of the Sorceress' Tower (-1 when the file has none)."""
    bosses: tuple[int, ...]
    """The boss/negative effect cards, ordered by power, lowest first (the quest pile from the top)."""
    foils: tuple[int, ...]
    foil_forms: tuple[tuple[int, ...], ...]
    """The foils of form 1, 2 and 3 (``foil_forms[f - 1]``)."""
    form_power: tuple[int, int, int]
    """The power of each form (0 for a form without foils): every foil of a form has the same power."""
    gfx: tuple[tuple[Effect, ...], ...]
    """A foil's global effect (while it is on top of the Tower); () for other cards."""
    store: tuple[int, ...]
    class_cards: tuple[int, ...]
    class_boards: tuple[int, ...]
    board_items: tuple[tuple[int, int, int], ...]
    """Each class board's (weapon, hat, pants) card ids, in board order."""
    board_of: tuple[int, ...]
    """For a class-board equipment card, its board's card id (-1 for other cards)."""
    negative_name: tuple[str, ...]
    playmat: Playmat | None

    def __len__(self) -> int:
        return self.size

    def name(self, card: int) -> str:
        """The name people read for a card: the item side for item-ish cards, else its name."""
        k = self.kind[card]
        if k in (K_MONSTER, K_NEMESIS):
            return self.iname[card]
        if k == K_BOSS:
            return self.mname[card]
        if k == K_STAT:
            return self.stat_names[self.skind[card]]
        return self.iname[card]


class _Builder:
    """Collects per-card fields in id order."""

    FIELDS = (
        "kind", "iname", "itype", "slot", "ranged", "anvil", "price", "autosell", "icons", "etype", "effects",
        "mname", "loc", "mpower", "element", "meat", "drop", "sclass", "ssub", "cost", "stype", "mojo", "skind",
        "newbie_set", "subtype", "form", "requires", "negative_name", "gfx",
    )  # fmt: skip
    DEFAULTS: Mapping[str, Any] = {
        "iname": "", "itype": -1, "slot": -1, "ranged": False, "anvil": 0, "price": -1, "autosell": -1,
        "icons": (0, 0, 0, 0), "etype": E_NONE, "effects": (), "mname": "", "loc": -1, "mpower": 0, "element": 0,
        "meat": 0, "drop": -1, "sclass": -1, "ssub": -1, "cost": 0, "stype": -1, "mojo": 0, "skind": -1,
        "newbie_set": -1, "subtype": -1, "form": 0, "requires": (), "negative_name": "", "gfx": (),
    }  # fmt: skip

    def __init__(self) -> None:
        self.cols: dict[str, list[Any]] = {f: [] for f in self.FIELDS}

    def add(self, kind: int, **values: Any) -> int:
        cid = len(self.cols["kind"])
        for f in self.FIELDS:
            if f == "kind":
                self.cols[f].append(kind)
            else:
                self.cols[f].append(values.pop(f, self.DEFAULTS[f]))
        assert not values, values
        return cid

    def done(self) -> dict[str, tuple[Any, ...]]:
        return {f: tuple(v) for f, v in self.cols.items()}


def _list(data: Mapping[str, Any], key: str, file: str) -> list[Any]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise CardDataError(file, None, key, f"must be an array of tables ([[{key}]]), got {type(value).__name__}")
    return value


def _icons(file: str, card: str, raw: Any, where: str = "bonus") -> tuple[int, int, int, int]:
    if raw is None:
        return (0, 0, 0, 0)
    t = check_table(file, card, raw, _BONUS_FIELDS, where + ".")
    return (t["melee"], t["spell"], t["ranged"], t["evade"])


def _item(file: str, card: str, t: dict[str, Any], name_key: str, extra: str = "") -> dict[str, Any]:
    """Validate and compile an item side (the fields of :func:`_item_fields`)."""
    itype = t["item_type"]
    at = extra
    if itype == "weapon" and t["attack"] is None:
        raise CardDataError(file, card, at + "attack", "a weapon needs attack = 'melee' or 'ranged'")
    if itype != "weapon" and t["attack"] is not None:
        raise CardDataError(file, card, at + "attack", f"only weapons have an attack type (this is a {itype})")
    equipment = itype in EQUIPMENT
    if not equipment and t["anvil"] is not None:
        raise CardDataError(file, card, at + "anvil", f"only equipment has an anvil (this is a {itype})")
    etype = t["effect_type"]
    if itype in ("food", "booze") and etype != "noncombat":
        raise CardDataError(file, card, at + "effect_type", f"{itype} is consumed for a non-combat effect")
    if itype == "combat" and etype != "combat":
        raise CardDataError(file, card, at + "effect_type", "a combat item is consumed for a combat effect")
    if itype == "special" and etype != "passive":
        raise CardDataError(file, card, at + "effect_type", "a special item works from the display case: passive")
    icons = _icons(file, card, t["bonus"], at + "bonus")
    if any(icons) and not equipment:
        raise CardDataError(
            file, card, at + "bonus", "bonus icons count only on equipment (they apply while it is equipped)"
        )
    timing = {"passive": STATIC, "combat": COMBAT, "noncombat": NONCOMBAT}.get(etype)
    raw_effects = t["effects"]
    if timing is None:
        if raw_effects:
            raise CardDataError(file, card, at + "effects", "effects need an effect_type (passive/combat/noncombat)")
        effects: tuple[Effect, ...] = ()
    else:
        effects = compile_effects(file, card, at + "effects", raw_effects, timing)
        if not effects and etype != "passive":
            raise CardDataError(file, card, at + "effects", f"a {etype} item needs at least one effect")
        if any(e[0] == DAMAGE_PER_MOJO for e in effects):
            raise CardDataError(file, card, at + "effects", "damage_per_mojo belongs to skills with mojo = 'x'")
    return {
        "iname": t[name_key],
        "itype": ITEM_TYPES.index(itype),
        "slot": ("weapon", "hat", "pants", "accessory").index(itype) if equipment else -1,
        "ranged": t["attack"] == "ranged",
        "anvil": t["anvil"] or 0,
        "price": -1 if t["meat_cost"] is None else t["meat_cost"],
        "autosell": -1 if t["autosell"] is None else t["autosell"],
        "icons": icons,
        "etype": ITEM_EFFECT_TYPES.index(etype),
        "effects": effects,
    }


def _stat_kind(file: str, card: str, value: str) -> int:
    m = _STAT_RE.match(value)
    if not m:
        raise CardDataError(
            file, card, "stat", f"must be a stat kind mus1..mus4, mys1..mys4 or mox1..mox4, got {value!r}"
        )
    return STAT_TYPES.index(m.group(1)) * 4 + int(m.group(2)) - 1


def _pair(file: str, card: str, field: str, value: Any, limit: int) -> tuple[int, int] | None:
    if value is None:
        return None
    if not (isinstance(value, list) and len(value) == 2 and all(type(v) is int and 0 <= v < limit for v in value)):
        raise CardDataError(file, card, field, f"must be [row, column] with numbers 0..{limit - 1}, got {value!r}")
    return (value[0], value[1])


def _table(data: Mapping[str, Any], key: str, file: str, required: bool) -> dict[str, Any] | None:
    raw = data.get(key)
    if raw is None:
        if required:
            raise CardDataError(file, None, key, f"the [{key}] section is required")
        return None
    return check_table(file, key, raw, SCHEMAS[key])


NAME_FIELDS = ("name", "monster", "item")
"""The fields that name a card (a two-sided card answers to its monster and its item): what card
edits find cards by."""


def load_cards(path: str | Path | None = None, edits: Sequence[str] = ()) -> CardSet:
    """Read, validate and compile a card file (the bundled stand-in set when ``path`` is None), with
    what-if card ``edits`` applied (see :mod:`cardtable.engine.card_edits`).

    Raises :class:`CardDataError` naming the file, the card and the field of the first mistake.
    """
    cf = read_card_file(path or BUNDLED, edits, NAME_FIELDS)
    file = Path(cf.path).name
    data = cf.data
    known = set(SECTIONS_ARRAY) | set(SECTIONS_TABLE)
    for key in data:
        if key not in known:
            raise CardDataError(file, None, key, f"unknown section (expected: {', '.join(sorted(known))})")
    meta = _table(data, "meta", file, True)
    assert meta is not None

    # Locations.
    locations: list[Location] = []
    seen_keys: dict[str, int] = {}
    for i, raw in enumerate(_list(data, "location", file)):
        t = check_table(file, f"location #{i + 1}", raw, SCHEMAS["location"])
        label = t["key"]
        if label in seen_keys:
            raise CardDataError(file, label, "key", "two locations share this key")
        grid = _pair(file, label, "grid", t["grid"], 3)
        if t["kind"] == "kingdom" and grid is None:
            raise CardDataError(file, label, "grid", "a kingdom location needs its place in the 3x3 grid")
        seen_keys[label] = len(locations)
        locations.append(Location(label, t["name"], t["kind"], grid, _pair(file, label, "playmat", t["playmat"], 99)))
    kingdom = [i for i, loc in enumerate(locations) if loc.kind == "kingdom"]
    if len(kingdom) != 9:
        raise CardDataError(
            file, None, "location", f"the map needs 9 kingdom locations (a 3x3 grid), got {len(kingdom)}"
        )
    cells = sorted(locations[i].grid or (0, 0) for i in kingdom)
    if cells != [(r, c) for r in range(3) for c in range(3)]:
        raise CardDataError(file, None, "location", "the 9 kingdom locations must fill the 3x3 grid, one per cell")
    kingdom.sort(key=lambda i: locations[i].grid or (0, 0))

    b = _Builder()
    loc_cards: list[list[int]] = [[] for _ in locations]

    def monster_side(card: str, t: dict[str, Any], kinds: Sequence[str]) -> dict[str, Any]:
        key = t["location"]
        li = seen_keys.get(key)
        if li is None or locations[li].kind not in kinds:
            raise CardDataError(file, card, "location", f"no {' or '.join(kinds)} location with key {key!r}")
        return {
            "mname": t["monster"],
            "loc": li,
            "mpower": t["power"],
            "element": ELEMENTS.index(t["element"]),
            "meat": t["meat"],
            "drop": _stat_kind(file, card, t["stat"]),
        }

    monsters: list[int] = []
    for i, raw in enumerate(_list(data, "monster", file)):
        card = raw.get("monster") if isinstance(raw.get("monster"), str) else f"monster #{i + 1}"
        t = check_table(file, card, raw, SCHEMAS["monster"])
        side = monster_side(card, t, ("kingdom",))
        cid = b.add(K_MONSTER, **side, **_item(file, card, t, "item"))
        monsters.append(cid)
        loc_cards[side["loc"]].append(cid)
    if not monsters:
        raise CardDataError(file, None, "monster", "the core game needs monster/item cards")
    for li in kingdom:
        if not loc_cards[li]:
            raise CardDataError(file, locations[li].key, "location", "no monster/item card belongs to this location")

    nemeses: list[int] = []
    for i, raw in enumerate(_list(data, "nemesis", file)):
        card = raw.get("monster") if isinstance(raw.get("monster"), str) else f"nemesis #{i + 1}"
        t = check_table(file, card, raw, SCHEMAS["nemesis"])
        if t["meat"] != 0:
            raise CardDataError(file, card, "meat", "a nemesis drops no meat (supplemental rules): meat = 0")
        side = monster_side(card, t, ("nemesis",))
        cid = b.add(K_NEMESIS, **side, sclass=CLASSES.index(t["class"]), **_item(file, card, t, "item"))
        nemeses.append(cid)
        loc_cards[side["loc"]].append(cid)

    newbie_raw = _list(data, "newbie", file)
    by_set: dict[int, dict[int, int]] = {}
    set_names: dict[int, str] = {}
    for i, raw in enumerate(newbie_raw):
        card = raw.get("name") if isinstance(raw.get("name"), str) else f"newbie #{i + 1}"
        t = check_table(file, card, raw, SCHEMAS["newbie"])
        item = _item(file, card, t, "name")
        if item["slot"] not in (0, 1, 2):
            raise CardDataError(file, card, "item_type", "newbie gear is a weapon, a hat or pants")
        if item["price"] != -1:
            raise CardDataError(file, card, "meat_cost", "newbie gear has no Heap price (it cannot be dived)")
        slots = by_set.setdefault(t["set"], {})
        if item["slot"] in slots:
            raise CardDataError(file, card, "item_type", f"newbie set {t['set']} has two items for that slot")
        set_names[t["set"]] = t["set_name"]
        slots[item["slot"]] = b.add(K_NEWBIE, newbie_set=t["set"], **item)
    sets = sorted(by_set)
    if sets != list(range(1, len(sets) + 1)) or not sets:
        raise CardDataError(file, None, "newbie", f"newbie sets must be numbered 1, 2, ... without gaps; got {sets}")
    for s in sets:
        if sorted(by_set[s]) != [0, 1, 2]:
            raise CardDataError(file, f"newbie set {s}", "item_type", "a newbie set is a weapon, a hat and pants")
    newbie = tuple((by_set[s][0], by_set[s][1], by_set[s][2]) for s in sets)

    store: list[int] = []
    for i, raw in enumerate(_list(data, "store", file)):
        card = raw.get("name") if isinstance(raw.get("name"), str) else f"store #{i + 1}"
        t = check_table(file, card, raw, SCHEMAS["store"])
        item = _item(file, card, t, "name")
        if item["price"] < 0:
            raise CardDataError(file, card, "meat_cost", "a Mr. Store item needs its meat cost (the reveal price)")
        if item["autosell"] >= 0:
            raise CardDataError(file, card, "autosell", "a Mr. Store item can never be AutoSold: leave autosell out")
        req = t["requires"] or []
        if not all(isinstance(r, str) and r in COMPONENTS for r in req):
            raise CardDataError(file, card, "requires", f"must be a list of components: {', '.join(COMPONENTS)}")
        store.append(b.add(K_STORE, requires=tuple(req), **item))

    # Instant Karma is the back of the first two Sorceress forms: its item fields go onto those foils.
    ik = _table(data, "instant_karma", file, False)
    karma_item = None if ik is None else _item(file, "instant_karma", ik, "name")
    if karma_item is not None and karma_item["itype"] != ITEM_TYPES.index("special"):
        raise CardDataError(
            file, "instant_karma", "item_type", "Instant Karma is a special item (item_type = 'special')"
        )

    class_boards_raw = _list(data, "class_board", file)
    board_items: list[tuple[int, int, int]] = []
    for i, raw in enumerate(class_boards_raw):
        card = raw.get("name") if isinstance(raw.get("name"), str) else f"class board #{i + 1}"
        equipment = raw.get("equipment")
        if not isinstance(equipment, list) or len(equipment) != 3:
            raise CardDataError(file, card, "equipment", "a class board has exactly 3 equipment tables")
        ids: dict[str, int] = {}
        for j, e in enumerate(equipment):
            t = check_table(file, card, e, SCHEMAS["board_item"], f"equipment[{j}].")
            item = _item(file, card, t, "name", f"equipment[{j}].")
            if item["slot"] not in (0, 1, 2) or ("weapon", "hat", "pants")[item["slot"]] != t["slot"]:
                raise CardDataError(file, card, f"equipment[{j}].item_type", "must match its slot")
            if t["slot"] in ids:
                raise CardDataError(file, card, f"equipment[{j}].slot", "two board items for one slot")
            if item["autosell"] >= 0:
                raise CardDataError(file, card, f"equipment[{j}].autosell", "class board equipment is never AutoSold")
            if item["price"] >= 0:
                raise CardDataError(
                    file, card, f"equipment[{j}].meat_cost", "class board equipment never reaches the Heap"
                )
            ids[t["slot"]] = b.add(K_BOARD_ITEM, **item)
        board_items.append((ids["weapon"], ids["hat"], ids["pants"]))
    items_end = len(b.cols["kind"])

    bosses: list[int] = []
    for i, raw in enumerate(_list(data, "boss", file)):
        card = raw.get("name") if isinstance(raw.get("name"), str) else f"boss #{i + 1}"
        t = check_table(file, card, raw, SCHEMAS["boss"])
        bosses.append(
            b.add(
                K_BOSS,
                mname=t["name"],
                mpower=t["power"],
                element=ELEMENTS.index(t["element"]),
                meat=t["meat"],
                drop=-1 - t["stat_value"],
                negative_name=t["negative"],
                iname=t["negative"],
                subtype=SUBTYPES.index(t["subtype"]),
                effects=compile_effects(file, card, "effects", t["effects"], NEGATIVE),
            )
        )
    # The quest pile is ordered by power, lowest on top (supplemental rules); equal powers keep file order.
    bosses.sort(key=lambda x: b.cols["mpower"][x])

    skills_start = len(b.cols["kind"])
    names_seen: set[str] = set()
    for i, raw in enumerate(_list(data, "skill", file)):
        card = raw.get("name") if isinstance(raw.get("name"), str) else f"skill #{i + 1}"
        t = check_table(file, card, raw, SCHEMAS["skill"])
        if t["name"] in names_seen:
            raise CardDataError(file, card, "name", "two skills share this name")
        names_seen.add(t["name"])
        et = t["effect_type"]
        mojo = t["mojo"]
        if et == "passive":
            if mojo is not None:
                raise CardDataError(file, card, "mojo", "a passive skill has no mojo cost")
            mojo_code = 0
        elif mojo == "x":
            if et != "combat":
                raise CardDataError(file, card, "mojo", "only a combat skill (a Spell Attack ability) costs X mojo")
            mojo_code = MOJO_X
        elif type(mojo) is int and 0 <= mojo <= 20:
            mojo_code = mojo
        else:
            raise CardDataError(file, card, "mojo", f"a {et} skill needs a mojo cost 0..20 (or 'x'), got {mojo!r}")
        timing = {"passive": STATIC, "buff": STATIC, "combat": COMBAT, "noncombat": NONCOMBAT}[et]
        effects = compile_effects(file, card, "effects", t["effects"], timing)
        icons = _icons(file, card, t["bonus"])
        if any(icons) and et == "noncombat":
            raise CardDataError(file, card, "bonus", "a non-combat skill cannot carry combat bonus icons")
        if any(icons) and et == "combat":
            # Icons on a combat skill count in the combat where it is activated (see the rules notes).
            effects = effects + tuple((COMBAT_BONUS, m, v, 0) for m, v in enumerate(icons) if v)
            icons = (0, 0, 0, 0)
        has_x = any(e[0] == DAMAGE_PER_MOJO for e in effects)
        if has_x != (mojo_code == MOJO_X):
            raise CardDataError(file, card, "effects", "mojo = 'x' and a damage_per_mojo effect go together")
        if et in ("combat", "noncombat") and not effects:
            raise CardDataError(file, card, "effects", f"a {et} skill needs at least one effect")
        b.add(
            K_SKILL,
            iname=t["name"],
            sclass=CLASSES.index(t["class"]),
            ssub=SKILL_SUBTYPES.index(t["subtype"]),
            cost=t["cost"],
            stype=SKILL_EFFECT_TYPES.index(et),
            mojo=mojo_code,
            icons=icons,
            effects=effects,
        )
    skills = range(skills_start, len(b.cols["kind"]))
    if len(skills) < 4:
        raise CardDataError(file, None, "skill", f"the trainer needs at least 4 skills, got {len(skills)}")

    stats_t = _table(data, "stats", file, True)
    assert stats_t is not None
    stat_names: list[str] = []
    stat_counts: list[int] = []
    for ti, st in enumerate(STAT_TYPES):
        t = check_table(file, f"stats.{st}", stats_t[st], SCHEMAS["stat_type"])
        names, counts = t["names"], t["counts"]
        if len(names) != 4 or not all(isinstance(n, str) and n for n in names):
            raise CardDataError(file, f"stats.{st}", "names", f"four {STAT_WORDS[ti]} card names (values 1..4)")
        if len(counts) != 4 or not all(type(c) is int and 0 <= c <= 200 for c in counts):
            raise CardDataError(file, f"stats.{st}", "counts", "four counts 0..200 (values 1..4)")
        stat_names += names
        stat_counts += counts
    stats_start = len(b.cols["kind"])
    piles: list[tuple[int, ...]] = []
    for k in range(12):
        piles.append(tuple(b.add(K_STAT, skind=k, iname=stat_names[k]) for _ in range(stat_counts[k])))
    stats = range(stats_start, len(b.cols["kind"]))

    sor = _table(data, "sorceress", file, True)
    assert sor is not None
    powers = sor["powers"]
    if len(powers) != 2 or not all(type(p) is int and 1 <= p <= 99 for p in powers):
        raise CardDataError(file, "sorceress", "powers", f"two powers (first-game side, other side), got {powers!r}")
    sorceress = b.add(K_SORCERESS, iname=sor["name"], mname=sor["name"], element=ELEMENTS.index(sor["element"]))
    cert = _table(data, "certificate", file, True)
    assert cert is not None
    certificate = b.add(K_CERTIFICATE, iname=cert["name"])

    kr = _table(data, "king_ralph", file, False)
    foils: list[int] = []
    forms: list[list[int]] = [[], [], []]
    form_power = [0, 0, 0]
    for i, raw in enumerate(_list(data, "foil", file)):
        card = raw.get("name") if isinstance(raw.get("name"), str) else f"foil #{i + 1}"
        t = check_table(file, card, raw, SCHEMAS["foil"])
        form = t["form"]
        if form == 3 and t["effects"]:
            raise CardDataError(file, card, "effects", "the third form has no global effect")
        if (t["back"] == "king-ralph") != (form == 3):
            raise CardDataError(file, card, "back", "forms 1 and 2 carry Instant Karma, form 3 King Ralph")
        # The forms are sorted by power (supplemental rules): every foil of a form has the same power.
        if form_power[form - 1] and form_power[form - 1] != t["power"]:
            raise CardDataError(file, card, "power", f"every form-{form} foil has the same power")
        form_power[form - 1] = t["power"]
        if form == 3:
            if kr is None:
                raise CardDataError(file, card, "back", "a third-form foil needs the [king_ralph] section")
            back: dict[str, Any] = {"iname": kr["name"]}
        else:
            if karma_item is None:
                raise CardDataError(file, card, "back", "a first- or second-form foil needs [instant_karma]")
            back = dict(karma_item)
        cid = b.add(
            K_FOIL,
            mname=t["name"],
            mpower=t["power"],
            form=form,
            gfx=compile_effects(file, card, "effects", t["effects"], STATIC),
            **back,
        )
        foils.append(cid)
        forms[form - 1].append(cid)
    powers_in_order = [p for p in form_power if p]
    if powers_in_order != sorted(set(powers_in_order)):
        raise CardDataError(file, None, "foil", f"the forms must grow in power (1 < 2 < 3), got {form_power}")
    class_cards: list[int] = []
    seen_classes: set[str] = set()
    for i, raw in enumerate(_list(data, "class_card", file)):
        card = raw.get("name") if isinstance(raw.get("name"), str) else f"class card #{i + 1}"
        t = check_table(file, card, raw, SCHEMAS["class_card"])
        if t["class"] in seen_classes:
            raise CardDataError(file, card, "class", "two class cards of one class")
        seen_classes.add(t["class"])
        class_cards.append(
            b.add(
                K_CLASS_CARD,
                iname=t["name"],
                sclass=CLASSES.index(t["class"]),
                effects=compile_effects(file, card, "effects", t["effects"], STATIC),
            )
        )
    class_boards: list[int] = []
    seen_classes = set()
    for i, raw in enumerate(class_boards_raw):
        card = raw["name"] if isinstance(raw.get("name"), str) else f"class board #{i + 1}"
        t = check_table(file, card, raw, SCHEMAS["class_board"])
        if t["class"] in seen_classes:
            raise CardDataError(file, card, "class", "two class boards of one class")
        seen_classes.add(t["class"])
        class_boards.append(
            b.add(
                K_CLASS_BOARD,
                iname=t["name"],
                sclass=CLASSES.index(t["class"]),
                effects=compile_effects(file, card, "effects", t["effects"], STATIC),
            )
        )

    cols = b.done()
    board_of = [-1] * len(cols["kind"])
    for board, equipment_ids in zip(class_boards, board_items, strict=True):
        for x in equipment_ids:
            board_of[x] = board
    towers = [i for i, loc in enumerate(locations) if loc.kind == "tower"]
    if len(towers) > 1:
        raise CardDataError(file, None, "location", "only one location can be the Sorceress' Tower")
    return CardSet(
        path=cf.path,
        sha=cf.sha,
        title=meta["title"],
        stand_in=meta["stand_in"],
        size=len(cols["kind"]),
        locations=tuple(locations),
        kingdom=tuple(kingdom),
        location_cards=tuple(tuple(c) for c in loc_cards),
        items=range(items_end),
        monsters=tuple(monsters),
        newbie=newbie,
        newbie_set_names=tuple(set_names[s] for s in sets),
        skills=skills,
        stats=stats,
        stat_names=tuple(stat_names),
        stat_piles=tuple(piles),
        sorceress=sorceress,
        sorceress_name=sor["name"],
        sorceress_powers=(powers[0], powers[1]),
        certificate=certificate,
        certificate_name=cert["name"],
        nemeses=tuple(nemeses),
        nemesis_locations=tuple(i for i, loc in enumerate(locations) if loc.kind == "nemesis"),
        tower=towers[0] if towers else -1,
        bosses=tuple(bosses),
        foils=tuple(foils),
        foil_forms=tuple(tuple(f) for f in forms),
        form_power=(form_power[0], form_power[1], form_power[2]),
        store=tuple(store),
        class_cards=tuple(class_cards),
        class_boards=tuple(class_boards),
        board_items=tuple(board_items),
        board_of=tuple(board_of),
        playmat=_playmat(file, data, locations),
        **cols,
    )


def _playmat(file: str, data: Mapping[str, Any], locations: Sequence[Location]) -> Playmat | None:
    """The ``[playmat]`` section: every space inside the mat, no two things on one space, and every
    location placed (a file without the section has no playmat)."""
    t = _table(data, "playmat", file, False)
    if t is None:
        return None
    size = _pair(file, "playmat", "size", t["size"], 100)
    assert size is not None
    rows, cols = size
    if rows < 1 or cols < 1:
        raise CardDataError(file, "playmat", "size", "a playmat has at least one row and one column")

    def space(where: str, field: str, value: Any) -> tuple[int, int]:
        pos = _pair(file, where, field, value, 100)
        if pos is None or pos[0] >= rows or pos[1] >= cols:
            raise CardDataError(file, where, field, f"must be a space [row, column] of the {rows}x{cols} playmat")
        return pos

    heap = space("playmat", "heap", t["heap"])
    quests = space("playmat", "quests", t["quests"])
    spare_raw = t["spare"] or []
    if not isinstance(spare_raw, list):
        raise CardDataError(file, "playmat", "spare", "must be a list of spaces")
    spare = tuple(space("playmat", f"spare[{i}]", v) for i, v in enumerate(spare_raw))
    used: dict[tuple[int, int], str] = {}
    for what, pos in [("the Heap", heap), ("the quest pile", quests), *(("a spare space", p) for p in spare)]:
        if pos in used:
            raise CardDataError(file, "playmat", "heap", f"{what} and {used[pos]} share the space {list(pos)}")
        used[pos] = what
    for loc in locations:
        if loc.playmat is None:
            raise CardDataError(file, loc.key, "playmat", "with a [playmat], every location needs its space")
        pos = space(loc.key, "playmat", list(loc.playmat))
        if pos in used:
            raise CardDataError(file, loc.key, "playmat", f"{used[pos]} is on that space already")
        used[pos] = loc.name
    return Playmat(t["name"], size, heap, quests, spare)
