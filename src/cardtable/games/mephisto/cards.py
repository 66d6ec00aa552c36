"""Mephisto card data: the schema, the effect vocabulary, and the loader that compiles a card file.

A card file (see the header of ``cards.toml``) lists exactly 60 ``[[card]]`` tables; a card's id is
its position. :func:`load_cards` validates every card with :mod:`cardtable.engine.carddata` (errors
name the file, the card and the field) and compiles the data into flat tuples indexed by card id, so
the rules never touch a dict on the hot path. An effect compiles to ``(op, amount, who)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from cardtable.engine.carddata import EffectSpec, Field, check_effects, check_table, read_card_file
from cardtable.engine.errors import CardDataError

DECK_SIZE: Final = 60
BUNDLED = Path(__file__).with_name("cards.toml")

# Card types.
MONSTER: Final = 0
WEAPON: Final = 1
SPELL: Final = 2
ITEM: Final = 3
TYPE_NAMES = ("monster", "weapon", "spell", "item")

# Effect opcodes (the closed vocabulary) and targets.
GAIN: Final = 0
LOSE: Final = 1
DRAW: Final = 2
DISCARD: Final = 3
REPAIR: Final = 4
DAMAGE: Final = 5
BONUS: Final = 6
OP_NAMES = ("gain_favor", "lose_favor", "draw", "discard", "repair", "damage", "attack_bonus")
YOU: Final = 0
OPPONENTS: Final = 1
ALL: Final = 2
WHO_NAMES = ("you", "opponents", "all")

# Monster ability triggers.
T_NONE: Final = 0
T_FIGHTING: Final = 1
T_FIGHT_WON: Final = 2
T_LOOT: Final = 3
T_SUMMON: Final = 4
T_TURN_START: Final = 5
TRIGGER_NAMES = ("none", "fighting", "fight_won", "loot", "summon", "turn_start")

Effect = tuple[int, int, int]
"""A compiled effect: (opcode, amount, who)."""

_AMOUNT = Field("amount", (int,), min=1, max=10, doc="how much")
_WHO = Field("who", (str,), required=False, default="you", choices=WHO_NAMES, doc="who is affected")

VOCABULARY: dict[str, EffectSpec] = {
    "gain_favor": EffectSpec("gain_favor", (_AMOUNT, _WHO), "gain favor (clamped to 0..10)"),
    "lose_favor": EffectSpec("lose_favor", (_AMOUNT, _WHO), "lose favor (clamped to 0..10)"),
    "draw": EffectSpec("draw", (_AMOUNT, _WHO), "draw cards from the dungeon deck"),
    "discard": EffectSpec("discard", (_AMOUNT, _WHO), "discard cards of the affected player's choice"),
    "repair": EffectSpec("repair", (_AMOUNT,), "repair one of your items or weapons"),
    "damage": EffectSpec("damage", (_AMOUNT,), "remove durability from an opponent's item or weapon"),
    "attack_bonus": EffectSpec("attack_bonus", (_AMOUNT,), "add attack (this turn / host weapon / every fight)"),
}

_NAME = Field("name", (str,))
_TYPE = Field("type", (str,), choices=TYPE_NAMES)
_COST = Field("cost", (int,), min=0, max=9)
_ATTACK = Field("attack", (int,), min=0, max=30)
_DUR = Field("durability", (int,), min=1, max=9)
SCHEMAS: dict[str, tuple[Field, ...]] = {
    "monster": (
        _NAME,
        _TYPE,
        _ATTACK,
        Field("souls", (int,), min=0, max=20),
        Field("immediate", (list,), required=False, default=[]),
        Field("ability", (dict,), required=False, default=None),
    ),
    "weapon": (
        _NAME,
        _TYPE,
        _COST,
        _ATTACK,
        _DUR,
        Field("range", (int,), min=1, max=3),
        Field("on_play", (list,), required=False, default=[]),
        Field("activate", (list,), required=False, default=[]),
    ),
    "spell": (
        _NAME,
        _TYPE,
        _COST,
        Field("effects", (list,), required=False, default=[]),
        Field("attach", (bool,), required=False, default=False),
        Field("attached", (list,), required=False, default=[]),
    ),
    "item": (_NAME, _TYPE, _COST, _DUR, Field("activate", (list,), required=False, default=[])),
}
_ABILITY = (
    Field("when", (str,), choices=TRIGGER_NAMES[1:]),
    Field("effects", (list,)),
)


@dataclass(frozen=True)
class CardSet:
    """The compiled card data, every stat a tuple indexed by card id."""

    path: str
    sha: str
    names: tuple[str, ...]
    type: tuple[int, ...]
    cost: tuple[int, ...]
    attack: tuple[int, ...]
    durability: tuple[int, ...]
    range: tuple[int, ...]
    souls: tuple[int, ...]
    immediate: tuple[tuple[Effect, ...], ...]
    on_play: tuple[tuple[Effect, ...], ...]
    activate: tuple[tuple[Effect, ...], ...]
    effects: tuple[tuple[Effect, ...], ...]
    attach: tuple[bool, ...]
    attach_bonus: tuple[int, ...]
    trigger: tuple[int, ...]
    ability: tuple[tuple[Effect, ...], ...]
    raw: tuple[dict[str, Any], ...]

    def __len__(self) -> int:
        return len(self.names)


def _compile(effects: list[dict[str, Any]]) -> tuple[Effect, ...]:
    return tuple((OP_NAMES.index(e["do"]), int(e["amount"]), WHO_NAMES.index(e.get("who", "you"))) for e in effects)


def load_cards(path: str | Path | None = None, edits: Sequence[str] = ()) -> CardSet:
    """Read, validate and compile a Mephisto card file (the bundled stand-in set by default), with
    what-if card ``edits`` applied (see :mod:`cardtable.engine.card_edits`).

    Raises :class:`CardDataError` naming the file, the card (``#index name``) and the field for an
    unknown field, a missing field, a bad value, an unknown effect or a wrong number of cards.
    """
    cf = read_card_file(path if path is not None else BUNDLED, edits)
    file = cf.path
    for key in cf.data:
        if key != "card":
            raise CardDataError(file, None, key, "unknown top-level key (the file holds only [[card]] tables)")
    cards = cf.data.get("card")
    if not isinstance(cards, list):
        raise CardDataError(file, None, "card", "the file must hold [[card]] tables")
    if len(cards) != DECK_SIZE:
        raise CardDataError(file, None, None, f"expected exactly {DECK_SIZE} cards, found {len(cards)}")
    cols: dict[str, list[Any]] = {k: [] for k in CardSet.__dataclass_fields__ if k not in ("path", "sha")}
    for i, table in enumerate(cards):
        label = f"#{i}"
        if not isinstance(table, dict):
            raise CardDataError(file, label, None, "must be a table")
        if isinstance(table.get("name"), str):
            label = f"#{i} {table['name']}"
        kind = table.get("type")
        if kind not in SCHEMAS:
            raise CardDataError(file, label, "type", f"must be one of {', '.join(TYPE_NAMES)}, got {kind!r}")
        card = check_table(file, label, table, SCHEMAS[kind])
        eff: dict[str, tuple[Effect, ...]] = {}
        for key in ("immediate", "on_play", "activate", "effects", "attached"):
            if key in card:
                eff[key] = _compile(check_effects(file, label, key, card[key], VOCABULARY))
        trigger = T_NONE
        ability: tuple[Effect, ...] = ()
        if card.get("ability") is not None:
            ab = check_table(file, label, card["ability"], _ABILITY, "ability.")
            trigger = TRIGGER_NAMES.index(ab["when"])
            ability = _compile(check_effects(file, label, "ability.effects", ab["effects"], VOCABULARY))
            if not ability:
                raise CardDataError(file, label, "ability.effects", "an ability needs at least one effect")
            has_bonus = any(e[0] == BONUS for e in ability)
            if (trigger == T_FIGHTING) != has_bonus or (has_bonus and len(ability) != 1):
                raise CardDataError(
                    file, label, "ability", "a 'fighting' ability is exactly one attack_bonus, and only it"
                )
        attach = bool(card.get("attach", False))
        attached = eff.get("attached", ())
        if kind == "spell":
            if attach and not attached:
                raise CardDataError(file, label, "attached", "an attaching spell needs attached effects")
            if not attach and attached:
                raise CardDataError(file, label, "attached", "only a spell with attach = true has attached effects")
            if any(e[0] != BONUS for e in attached):
                raise CardDataError(file, label, "attached", "attached effects may only be attack_bonus")
        for key, effs in eff.items():
            if key != "attached" and any(e[0] == BONUS and e[2] != YOU for e in effs):
                raise CardDataError(file, label, key, "attack_bonus always applies to you")
        cols["names"].append(card["name"])
        cols["type"].append(TYPE_NAMES.index(kind))
        cols["cost"].append(card.get("cost", 0))
        cols["attack"].append(card.get("attack", 0))
        cols["durability"].append(card.get("durability", 0))
        cols["range"].append(card.get("range", 0))
        cols["souls"].append(card.get("souls", 0))
        cols["immediate"].append(eff.get("immediate", ()))
        cols["on_play"].append(eff.get("on_play", ()))
        cols["activate"].append(eff.get("activate", ()))
        cols["effects"].append(eff.get("effects", ()))
        cols["attach"].append(attach)
        cols["attach_bonus"].append(sum(e[1] for e in attached))
        cols["trigger"].append(trigger)
        cols["ability"].append(ability)
        cols["raw"].append(dict(table))
    return CardSet(path=file, sha=cf.sha, **{k: tuple(v) for k, v in cols.items()})


def describe_effect(effect: Effect) -> str:
    """Plain words for a compiled effect ("each opponent loses 2 favor")."""
    op, n, who = effect
    subject = ("you", "each opponent", "every player")[who]
    words = {
        GAIN: f"{subject} gain{'s' if who else ''} {n} favor",
        LOSE: f"{subject} lose{'s' if who else ''} {n} favor",
        DRAW: f"{subject} draw{'s' if who else ''} {n}",
        DISCARD: f"{subject} discard{'s' if who else ''} {n}",
        REPAIR: f"repair one of your items/weapons by {n}",
        DAMAGE: f"remove {n} durability from an opponent's item or weapon",
        BONUS: f"+{n} attack",
    }
    return words[op]
