"""Loading and validating the Doctor Strange card file (``cards.toml``).

Every card of the rulebook's CARD LIST is one ``[[card]]`` table; :func:`load_cards` validates each
field with :mod:`cardtable.engine.carddata`, checks that every card the rulebook lists is present
exactly once (against :data:`RULEBOOK_CARDS`) and that nothing else is, and resolves the data into
flat tuples indexed by card id (the index in file order) for the rules to read on the hot path.
Errors are :class:`~cardtable.engine.errors.CardDataError` naming the file, the card and the field.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from cardtable.engine.carddata import EffectSpec, Field, check_effects, check_table, read_card_file
from cardtable.engine.errors import CardDataError

CARD_FILE = Path(__file__).with_name("cards.toml")

# Card types, as small ints for the rules.
CHARACTER: Final = 0
COMPANION: Final = 1
LOCATION: Final = 2
ITEM: Final = 3
MODIFIER: Final = 4
POWER: Final = 5
ATTACK: Final = 6
EVENT: Final = 7
TYPE_NAMES = ("character", "companion", "location", "item", "modifier", "power", "attack", "event")
PERMANENT_ATTACHMENTS = (COMPANION, LOCATION, ITEM, MODIFIER)

# Who may use a card (GPO / EPO / anyone).
ANY: Final = 0
GOOD: Final = 1
EVIL: Final = 2
ONLY_NAMES = ("any", "good", "evil")

# Power-card roles (DO / AO / either).
ROLE_NAMES = ("any", "attacker", "defender")
ROLE_ANY: Final = 0
ROLE_ATTACKER: Final = 1
ROLE_DEFENDER: Final = 2

# Attack fates.
KILL: Final = 0
INCAPACITATE: Final = 1
CONTROL: Final = 2
EXILE: Final = 3
CAPTURE: Final = 4
FATE_NAMES = ("kill", "incapacitate", "control", "exile", "capture")

# Event timings (E, B/D, R, X).
MYSTIC_ARTS: Final = 0
ATTACK_PHASE: Final = 1
REST: Final = 2
ANY_TIME: Final = 3
TIMING_NAMES = ("mystic-arts", "attack", "rest", "any-time")

# Negate targets.
NEGATE_TARGETS = ("kill", "incapacitate", "capture", "exile", "item")

EFFECTS: Mapping[str, EffectSpec] = {
    "draw": EffectSpec("draw", (Field("amount", (int,), min=1, max=20),), "draw cards (Learn Secrets, Experiment)"),
    "discard_hand": EffectSpec("discard_hand", (), "discard the rest of your hand (Experiment)"),
    "search_deck": EffectSpec(
        "search_deck", (Field("keep", (int,), min=1, max=1),), "search the deck for a card and keep it"
    ),
    "look_deck": EffectSpec("look_deck", (Field("count", (int,), min=1, max=40),), "look at the next N deck cards"),
    "look_hand": EffectSpec("look_hand", (), "look at the opponent's hand (Read Minds, All Seeing Eye)"),
    "negate": EffectSpec(
        "negate", (Field("target", (str,), choices=NEGATE_TARGETS),), "end a fate, or discard an Item in play"
    ),
    "counter": EffectSpec(
        "counter", (Field("target", (str,), choices=("attack",)),), "discard a card of that type as it is played"
    ),
    "call_defender": EffectSpec("call_defender", (), "add an unmarked friendly viable character's power in defence"),
}

CARD_FIELDS: Sequence[Field] = (
    Field("name", (str,)),
    Field("type", (str,), choices=TYPE_NAMES),
    Field("power", (int,), required=False, default=0, min=0, max=20),
    Field("only", (str,), required=False, default="any", choices=ONLY_NAMES),
    Field("role", (str,), required=False, default="any", choices=ROLE_NAMES),
    Field("fate", (str,), required=False, default=None, choices=FATE_NAMES),
    Field("timing", (str,), required=False, default=None, choices=TIMING_NAMES),
    Field("effects", (list, dict), required=False, default=None),
    Field("note", (str,), required=False, default=""),
    Field("notes", (str,), required=False, default=""),
)

RULEBOOK_CARDS: tuple[str, ...] = (
    "Doctor Strange", "Baron Mordo", "Sorcerer Supreme", "Bind", "Magic Amulet", "Master of the Mystic Arts",
    "Insanity", "Bound in Chains", "Enter Dream", "Incense", "Hidden Temple", "Trance", "Nightmare",
    "Hostile Dimension", "Hypnotic Ray", "Interruption", "Dream Dimension", "Metaphysical Spirit", "I Command You",
    "Black Magic", "Desperate Cry", "Hidden Castle", "Mental Commands", "Powerful Potion", "Poison", "Learn Secrets",
    "Experiment", "Speed of Thought", "Spirit Image", "Not Responding", "Occult Powers", "Transfer Energy",
    "Catch Unawares", "Omnipotent", "Deadly Trap", "Magic Disguise", "Detect Danger", "Paralyzation Vapor", "Sorcery",
    "Opponent Weakened", "Project Thought", "Mental Message", "Spell Bound Girl", "Mind Control Servant",
    "Dormant Talent", "Impostor", "Real Self", "Teleportation", "Levitation", "Pass Through Walls", "Ethereal Self",
    "Mystic Dimension", "Disciple", "Tibetan Retreat", "Surprise", "Mental Battle", "Preparations", "The Ancient One",
    "Vapors of Valtorr", "Powers of Vishanti", "Bolts of Pure Force", "Banish", "Unsuspecting", "Mystic Potion",
    "Supernatural Force", "Counter Spell", "Book of Vishanti", "Incantation", "Mist of Hoggoth", "Shadow World",
    "Nightmare World", "Enchanted Path", "Spiny Beast", "Sorcerer", "Mystic Beam", "Healing Powers", "Simple Spell",
    "Vanish", "Ethereal Cylinder", "Escape", "Enchanted Ring", "Go Back in Time", "Vanquish", "Read Minds", "Bait",
    "Force Shield", "Possession", "Force Retreat", "Underlings", "Wong", "Transfixed", "Investigate", "Petty Thieves",
    "Purple Dimension", "Aggamon The All-Powerful", "Sinister Gem", "Bring Back", "Guards", "Demolisher Beam",
    "Battle of Wills", "Surrender Terms", "All Seeing Eye", "Remove Powers", "The Powers that Be", "Potent Words",
    "Rintrah", "Topaz", "Taboo", "The Dread Dormammu", "Illusions", "Zota", "Loki",
)  # fmt: skip
"""Every card name of the rulebook's CARD LIST, in its order: the deck is exactly these cards."""


@dataclass(frozen=True)
class CardData:
    """The resolved card list: one entry per card id in every tuple."""

    file: str
    sha: str
    names: tuple[str, ...]
    types: tuple[int, ...]
    power: tuple[int, ...]
    only: tuple[int, ...]
    role: tuple[int, ...]
    fate: tuple[int, ...]  # -1 for non-attacks
    timing: tuple[int, ...]  # -1 for non-events
    effects: tuple[tuple[Mapping[str, Any], ...], ...]
    notes: tuple[str, ...]
    note: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.names)

    def id_of(self, name: str) -> int:
        """The id of the card called ``name`` (KeyError if there is none)."""
        return self.names.index(name)


def _check_card(file: str, card: dict[str, Any]) -> None:
    """Cross-field rules: each type carries exactly the fields that mean something for it."""
    name, kind = card["name"], card["type"]
    if kind != "attack" and card["fate"] is not None:
        raise CardDataError(file, name, "fate", "only Attack cards have a fate")
    if kind == "attack" and card["fate"] is None:
        raise CardDataError(file, name, "fate", "an Attack card needs a fate")
    if kind != "event" and (card["timing"] is not None or card["effects"] is not None):
        field = "timing" if card["timing"] is not None else "effects"
        raise CardDataError(file, name, field, "only Event cards have a timing and effects")
    if kind == "event" and (card["timing"] is None or not card["effects"]):
        raise CardDataError(file, name, "timing" if card["timing"] is None else "effects", "an Event needs it")
    if kind != "power" and card["role"] != "any":
        raise CardDataError(file, name, "role", "only Power cards are attacker-only or defender-only")
    if kind == "character" and card["power"] < 1:
        raise CardDataError(file, name, "power", "a character has a power level of at least 1")
    if kind in ("companion", "location", "item", "modifier", "power") and card["power"] < 1:
        raise CardDataError(file, name, "power", f"a {kind} card adds at least +1 power")
    if kind in ("attack", "event") and card["power"] != 0:
        raise CardDataError(file, name, "power", f"a {kind} card has no power")
    if kind != "character" and card["note"]:
        raise CardDataError(file, name, "note", "only characters carry a parenthesised note")


def _check_event(file: str, name: str, timing: str, effects: list[dict[str, Any]]) -> None:
    """Effects that only make sense at one timing (a counter or Call Defender is an attack-phase card)."""
    for i, eff in enumerate(effects):
        if eff["do"] in ("counter", "call_defender") and timing != "attack":
            raise CardDataError(file, name, f"effects[{i}].do", f"{eff['do']!r} needs timing 'attack'")
        if eff["do"] in ("counter", "call_defender") and len(effects) != 1:
            raise CardDataError(file, name, f"effects[{i}].do", f"{eff['do']!r} must be the card's only effect")


def load_cards(path: str | Path = CARD_FILE, edits: Sequence[str] = ()) -> CardData:
    """Read, validate and resolve a card file, with what-if card ``edits`` applied (see
    :mod:`cardtable.engine.card_edits`). Raises CardDataError naming file, card and field."""
    cf = read_card_file(path, edits)
    file = cf.path
    raw = cf.data.get("card")
    extra = [k for k in cf.data if k != "card"]
    if extra:
        raise CardDataError(file, None, extra[0], "unknown top-level key (expected only [[card]] tables)")
    if not isinstance(raw, list) or not raw:
        raise CardDataError(file, None, "card", "the file must hold a list of [[card]] tables")
    cards: list[dict[str, Any]] = []
    seen: dict[str, int] = {}
    for i, table in enumerate(raw):
        label = table.get("name") if isinstance(table, dict) and isinstance(table.get("name"), str) else f"#{i}"
        card = check_table(file, label, table, CARD_FIELDS)
        name = card["name"]
        if name in seen:
            raise CardDataError(file, name, "name", f"listed twice (cards #{seen[name]} and #{i})")
        if name not in RULEBOOK_CARDS:
            raise CardDataError(file, name, "name", "is not a card of the rulebook's CARD LIST")
        seen[name] = i
        _check_card(file, card)
        if card["type"] == "event":
            card["effects"] = check_effects(file, name, "effects", card["effects"], EFFECTS)
            _check_event(file, name, card["timing"], card["effects"])
        cards.append(card)
    missing = [n for n in RULEBOOK_CARDS if n not in seen]
    if missing:
        raise CardDataError(
            file, missing[0], "name", f"missing: the rulebook lists {len(missing)} card(s) not in the file"
        )
    for needed in ("Doctor Strange", "Baron Mordo"):
        if cards[seen[needed]]["type"] != "character":
            raise CardDataError(file, needed, "type", "must be a character (it starts the game in play)")
    return CardData(
        file=file,
        sha=cf.sha,
        names=tuple(c["name"] for c in cards),
        types=tuple(TYPE_NAMES.index(c["type"]) for c in cards),
        power=tuple(c["power"] for c in cards),
        only=tuple(ONLY_NAMES.index(c["only"]) for c in cards),
        role=tuple(ROLE_NAMES.index(c["role"]) for c in cards),
        fate=tuple(FATE_NAMES.index(c["fate"]) if c["fate"] else -1 for c in cards),
        timing=tuple(TIMING_NAMES.index(c["timing"]) if c["timing"] else -1 for c in cards),
        effects=tuple(tuple(c["effects"] or ()) for c in cards),
        notes=tuple(c["notes"] for c in cards),
        note=tuple(c["note"] for c in cards),
    )
