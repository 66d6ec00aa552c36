"""Mr. Card Game's closed effect vocabulary: names, parameters, compiled form and words for people.

A card file names effects as tables (``{ do = "damage", amount = 3 }``); :func:`compile_effects`
validates them against :data:`VOCABULARY` (errors name file, card and field) and turns each into a
small tuple ``(op, a, b, c)`` of ints that the rules read on the hot path. What each op *does* is
written once, in the rules modules: static modifiers in :mod:`.modifiers`, instants in
:mod:`.resolve`. :func:`describe` says an effect in words (the ``text`` of a card in a view).

Three families, by when an effect works (the card's ``effect_type`` decides which are allowed):

* **static** modifiers: passives, active buffs, equipped equipment, and (supplemental rules, issue 10)
  negative effects, foil global effects, class cards and boards;
* **combat** instants: only in an ability activated in combat (step 1);
* **instants** usable in any activated ability (non-combat or combat).

The vocabulary already holds what the supplemental rules need (``forbid``, ``monster_power``,
``cure``, ``unequip``, ``familiar_weight``, ``extra_upgrade``), so later rules add data, not syntax.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from cardtable.engine.carddata import EffectSpec, Field, check_effects
from cardtable.engine.errors import CardDataError

# -- shared codes -----------------------------------------------------------------------------------

ELEMENTS = ("none", "sleaze", "spooky", "hot", "cold", "stench")
"""Monster elements (core appendix B); index 0 is "no element"."""
MANEUVERS = ("melee", "spell", "ranged", "evade")
MANEUVER_WORDS = ("Melee Attack", "Spell Attack", "Ranged Attack", "Evasion")
BONUS_WORDS = ("melee damage", "spell damage", "ranged damage", "defense")
STAT_TYPES = ("mus", "mys", "mox")
STAT_WORDS = ("Muscle", "Mysticality", "Moxie")
MANEUVER_STAT: Final = (0, 1, 2, 2)
"""The stat type each maneuver plays: Melee Muscle, Spell Mysticality, Ranged and Evasion Moxie (K7.2)."""
SLOTS = ("weapon", "hat", "pants", "accessory")
SUBTYPES = ("injury", "impairment", "illness")
FORBIDDABLE = (
    "train",
    "dive",
    "autosell",
    "equip",
    "use",
    "skill",
    "buff",
    "maneuver:melee",
    "maneuver:spell",
    "maneuver:ranged",
    "maneuver:evade",
)
"""Actions a ``forbid`` effect (an impairment, supplemental rules) can take away; bit ``i`` of a
player's forbid mask is ``FORBIDDABLE[i]``."""
F_TRAIN: Final = 1
F_DIVE: Final = 2
F_AUTOSELL: Final = 4
F_EQUIP: Final = 8
F_USE: Final = 16
F_SKILL: Final = 32
F_BUFF: Final = 64
F_MANEUVER: Final = 7
"""Forbid-mask bits; ``F_MANEUVER + m`` is the bit index of maneuver ``m`` (use ``1 << (7 + m)``)."""

# -- op codes ---------------------------------------------------------------------------------------

# Static modifiers.
BONUS: Final = 0
BONUS_VS: Final = 1
RESIST: Final = 2
MONSTER_POWER: Final = 3
MEAT_BONUS: Final = 4
SKILL_COST: Final = 5
AUTOSELL_BONUS: Final = 6
DIVE_COST: Final = 7
FORBID: Final = 8
FAMILIAR_WEIGHT: Final = 9
EXTRA_UPGRADE: Final = 10
STATIC_OPS: Final = frozenset(range(11))
# Combat instants.
DAMAGE: Final = 20
DAMAGE_VS: Final = 21
DAMAGE_POWER: Final = 22
DAMAGE_PER_MOJO: Final = 23
REDUCE_POWER: Final = 24
COMBAT_BONUS: Final = 25
COMBAT_OPS: Final = frozenset(range(20, 26))
# Instants for any activated ability.
GAIN_STAT: Final = 40
UPGRADE_STAT: Final = 41
DRAW: Final = 42
GAIN_MEAT: Final = 43
GAIN_MOJO: Final = 44
PULVERIZE: Final = 45
CURE: Final = 46
UNEQUIP: Final = 47
INSTANT_OPS: Final = frozenset(range(40, 48))

Effect = tuple[int, int, int, int]
"""A compiled effect ``(op, a, b, c)``; the meaning of a, b, c depends on the op (see :func:`_compile_one`)."""

CHOOSE: Final = -1
"""``type = "choose"`` in ``gain_stat``/``pulverize``: the player picks the stat type."""
ANY: Final = -1
"""``element = "any"`` / ``subtype = "any"`` / ``slot = "any"``."""
ALL_SLOTS: Final = -2
"""``damage_power slot = "all"``: the sum over every equipped item."""

# -- the vocabulary (names and parameters, for validation) ------------------------------------------

_AMOUNT = Field("amount", (int,), min=1, max=20, doc="how much")
_SIGNED = Field("amount", (int,), min=-20, max=20, doc="how much (negative: a penalty)")
_MAN = Field("maneuver", (str,), choices=MANEUVERS)
_ELEM = Field("element", (str,), choices=ELEMENTS[1:])
_STAT_OR_CHOOSE = Field("type", (str,), choices=(*STAT_TYPES, "choose"))

VOCABULARY: dict[str, EffectSpec] = {
    # static
    "bonus": EffectSpec("bonus", (_MAN, _SIGNED), "a bonus (or penalty) to one maneuver"),
    "bonus_vs": EffectSpec("bonus_vs", (_ELEM, _MAN, _SIGNED), "a maneuver bonus (or penalty) against one element"),
    "resist": EffectSpec("resist", (_ELEM, _SIGNED), "Evasion bonus against monsters of one element"),
    "monster_power": EffectSpec(
        "monster_power",
        (_SIGNED, Field("element", (str,), required=False, default="any", choices=(*ELEMENTS, "any"))),
        "monsters (of an element) have more or less power on your turn",
    ),
    "meat_bonus": EffectSpec("meat_bonus", (_SIGNED,), "extra meat from every kill"),
    "skill_cost": EffectSpec("skill_cost", (_SIGNED,), "training skills costs more or less meat (never below 0)"),
    "autosell_bonus": EffectSpec("autosell_bonus", (_SIGNED,), "AutoSell values change (never below 0)"),
    "dive_cost": EffectSpec("dive_cost", (_SIGNED,), "Heap prices change (never below 0)"),
    "forbid": EffectSpec("forbid", (Field("action", (str,), choices=FORBIDDABLE),), "an action you may not take"),
    "familiar_weight": EffectSpec("familiar_weight", (_SIGNED,), "familiar weight (no effect without familiars)"),
    "extra_upgrade": EffectSpec("extra_upgrade", (_AMOUNT,), "extra upgrades or exchanges at each rollover"),
    # combat instants
    "damage": EffectSpec("damage", (_AMOUNT,), "deal damage (adds to the combat score)"),
    "damage_vs": EffectSpec("damage_vs", (_ELEM, _AMOUNT), "extra damage against monsters of one element"),
    "damage_power": EffectSpec(
        "damage_power",
        (Field("slot", (str,), choices=(*SLOTS, "any", "all")),),
        "damage equal to the power (anvil) of your equipped item in that slot (any: the highest; all: the sum)",
    ),
    "damage_per_mojo": EffectSpec(
        "damage_per_mojo", (_AMOUNT,), "Spell Attack ability: damage per mojo point spent (X at least 1)"
    ),
    "reduce_power": EffectSpec("reduce_power", (_AMOUNT,), "lower the power of the monster you choose this combat"),
    "combat_bonus": EffectSpec("combat_bonus", (_MAN, _AMOUNT), "a maneuver bonus for this combat only"),
    # instants
    "gain_stat": EffectSpec(
        "gain_stat",
        (_STAT_OR_CHOOSE, Field("value", (int,), min=1, max=4)),
        "take a stat card from its pile into your discard pile (nothing if the pile is empty)",
    ),
    "upgrade_stat": EffectSpec("upgrade_stat", (), "one rollover-style upgrade or exchange now, without a reshuffle"),
    "draw": EffectSpec("draw", (_AMOUNT,), "draw stat cards (a rollover if the deck runs out)"),
    "gain_meat": EffectSpec("gain_meat", (_AMOUNT,), "take meat from the pool"),
    "gain_mojo": EffectSpec("gain_mojo", (_AMOUNT,), "add mojo to your pool (emptied at the end of the phase)"),
    "pulverize": EffectSpec(
        "pulverize",
        (Field("type", (str,), required=False, default="choose", choices=(*STAT_TYPES, "choose")),),
        "send an item with an anvil to the Heap; gain a stat card whose value is its power (at most 4)",
    ),
    "cure": EffectSpec(
        "cure",
        (Field("subtype", (str,), required=False, default="any", choices=(*SUBTYPES, "any")),),
        "remove one negative effect of that sub-type from your display case",
    ),
    "unequip": EffectSpec("unequip", (Field("slot", (str,), choices=(*SLOTS, "any")),), "unequip that slot"),
}

_OPS = {
    "bonus": BONUS,
    "bonus_vs": BONUS_VS,
    "resist": RESIST,
    "monster_power": MONSTER_POWER,
    "meat_bonus": MEAT_BONUS,
    "skill_cost": SKILL_COST,
    "autosell_bonus": AUTOSELL_BONUS,
    "dive_cost": DIVE_COST,
    "forbid": FORBID,
    "familiar_weight": FAMILIAR_WEIGHT,
    "extra_upgrade": EXTRA_UPGRADE,
    "damage": DAMAGE,
    "damage_vs": DAMAGE_VS,
    "damage_power": DAMAGE_POWER,
    "damage_per_mojo": DAMAGE_PER_MOJO,
    "reduce_power": REDUCE_POWER,
    "combat_bonus": COMBAT_BONUS,
    "gain_stat": GAIN_STAT,
    "upgrade_stat": UPGRADE_STAT,
    "draw": DRAW,
    "gain_meat": GAIN_MEAT,
    "gain_mojo": GAIN_MOJO,
    "pulverize": PULVERIZE,
    "cure": CURE,
    "unequip": UNEQUIP,
}
assert set(_OPS) == set(VOCABULARY)

# Which families a card's ability may use, by its timing.
STATIC: Final = "static"
COMBAT: Final = "combat"
NONCOMBAT: Final = "noncombat"
NEGATIVE: Final = "negative"
"""A negative effect (the back of a boss card): lasting penalties, plus ``unequip`` ("force you to drop
equipment"), which happens once, when the negative effect arrives."""
_ALLOWED: dict[str, frozenset[int]] = {
    STATIC: STATIC_OPS,
    COMBAT: COMBAT_OPS | INSTANT_OPS - {PULVERIZE},
    NONCOMBAT: INSTANT_OPS,
    NEGATIVE: STATIC_OPS | {UNEQUIP},
}
_TIMING_WORDS = {
    STATIC: "a passive, buff or other lasting effect",
    COMBAT: "a combat ability",
    NONCOMBAT: "a non-combat ability",
    NEGATIVE: "a negative effect (lasting penalties, or unequip when it arrives)",
}


def _slot_code(name: str) -> int:
    if name == "any":
        return ANY
    if name == "all":
        return ALL_SLOTS
    return SLOTS.index(name)


def _compile_one(e: dict[str, Any]) -> Effect:
    name = e["do"]
    op = _OPS[name]
    if op == BONUS:
        return (op, MANEUVERS.index(e["maneuver"]), e["amount"], 0)
    if op == BONUS_VS:
        return (op, ELEMENTS.index(e["element"]), MANEUVERS.index(e["maneuver"]), e["amount"])
    if op == RESIST:
        return (op, ELEMENTS.index(e["element"]), e["amount"], 0)
    if op == MONSTER_POWER:
        element = e["element"]
        return (op, ANY if element == "any" else ELEMENTS.index(element), e["amount"], 0)
    if op == FORBID:
        return (op, FORBIDDABLE.index(e["action"]), 0, 0)
    if op == DAMAGE_VS:
        return (op, ELEMENTS.index(e["element"]), e["amount"], 0)
    if op == DAMAGE_POWER:
        return (op, _slot_code(e["slot"]), 0, 0)
    if op == COMBAT_BONUS:
        return (op, MANEUVERS.index(e["maneuver"]), e["amount"], 0)
    if op == GAIN_STAT:
        t = e["type"]
        return (op, CHOOSE if t == "choose" else STAT_TYPES.index(t), e["value"], 0)
    if op == PULVERIZE:
        t = e["type"]
        return (op, CHOOSE if t == "choose" else STAT_TYPES.index(t), 0, 0)
    if op == CURE:
        sub = e["subtype"]
        return (op, ANY if sub == "any" else SUBTYPES.index(sub), 0, 0)
    if op == UNEQUIP:
        return (op, _slot_code(e["slot"]), 0, 0)
    if op == UPGRADE_STAT:
        return (op, 0, 0, 0)
    return (op, e["amount"], 0, 0)


def compile_effects(file: str, card: str, where: str, value: Any, timing: str) -> tuple[Effect, ...]:
    """Validate a card's effect list for an ability of ``timing`` and compile it.

    Raises :class:`CardDataError` naming file, card and field for an unknown effect, a bad
    parameter, or an effect that cannot work at that timing (a ``damage`` on a passive, a
    ``bonus`` on a non-combat ability, ...).
    """
    checked = check_effects(file, card, where, value, VOCABULARY)
    out = []
    allowed = _ALLOWED[timing]
    for i, e in enumerate(checked):
        eff = _compile_one(e)
        if eff[0] not in allowed:
            raise CardDataError(
                file, card, f"{where}[{i}].do", f"{e['do']!r} cannot be part of {_TIMING_WORDS[timing]}"
            )
        out.append(eff)
    return tuple(out)


# -- words ------------------------------------------------------------------------------------------


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else str(n)


def _stat_card(t: int, value: str) -> str:
    """``a Muscle 2 card``, or for a type the player chooses ``a stat card of the type of your choice,
    of value 2``; ``value`` is put where the value goes (empty: none)."""
    if t == CHOOSE:
        return f"a stat card of the type of your choice{', of value ' + value if value else ''}"
    return f"a {STAT_WORDS[t]}{' ' + value if value else ''} card"


def _slot_words(slot: int) -> str:
    if slot == ANY:
        return "your strongest equipped item"
    if slot == ALL_SLOTS:
        return "all your equipped items together"
    return f"your equipped {SLOTS[slot]}"


def describe(e: Effect) -> str:
    """One effect in words, for people (no engine syntax)."""
    op, a, b, c = e
    if op == BONUS:
        return f"{_signed(b)} {BONUS_WORDS[a]}"
    if op == BONUS_VS:
        return f"{_signed(c)} {BONUS_WORDS[b]} against {ELEMENTS[a]} monsters"
    if op == RESIST:
        return f"{_signed(b)} defense against {ELEMENTS[a]} monsters ({ELEMENTS[a]} resistance)"
    if op == MONSTER_POWER:
        which = "monsters" if a == ANY else f"{ELEMENTS[a]} monsters"
        return f"{which} have {_signed(b)} power on your turn"
    if op == MEAT_BONUS:
        return f"{_signed(a)} meat from every monster you kill"
    if op == SKILL_COST:
        return f"training skills costs {_signed(a)} meat"
    if op == AUTOSELL_BONUS:
        return f"items AutoSell for {_signed(a)} meat"
    if op == DIVE_COST:
        return f"Dumpster Dive prices {_signed(a)} meat"
    if op == FORBID:
        return f"you may not {FORBIDDABLE[a].replace('maneuver:', 'perform a maneuver: ')}"
    if op == FAMILIAR_WEIGHT:
        return f"{_signed(a)} familiar weight (no effect without familiars)"
    if op == EXTRA_UPGRADE:
        return f"{a} extra upgrade(s) at each rollover"
    if op == DAMAGE:
        return f"deal {a} damage"
    if op == DAMAGE_VS:
        return f"deal {b} extra damage to {ELEMENTS[a]} monsters"
    if op == DAMAGE_POWER:
        return f"deal damage equal to the power of {_slot_words(a)}"
    if op == DAMAGE_PER_MOJO:
        return (
            f"Spell Attack: spend X mojo (at least 1) to deal {a} x X damage"
            if a != 1
            else ("Spell Attack: spend X mojo (at least 1) to deal X damage")
        )
    if op == REDUCE_POWER:
        return f"the monster you choose has {a} less power (the Sorceress: only for you)"
    if op == COMBAT_BONUS:
        return f"+{b} {BONUS_WORDS[a]} this combat"
    if op == GAIN_STAT:
        return f"gain {_stat_card(a, str(b))} (into your discard pile)"
    if op == UPGRADE_STAT:
        return "upgrade or exchange one stat card of your discard pile (as at rollover)"
    if op == DRAW:
        return f"draw {a} card{'s' if a != 1 else ''}"
    if op == GAIN_MEAT:
        return f"gain {a} meat"
    if op == GAIN_MOJO:
        return f"gain {a} mojo"
    if op == PULVERIZE:
        return (
            "put one of your items with an anvil into the Heap and gain "
            f"{_stat_card(a, '')} whose value is its power (at most 4)"
        )
    if op == CURE:
        which = "any" if a == ANY else SUBTYPES[a]
        return f"remove one {which} negative effect"
    if op == UNEQUIP:
        return f"unequip {'any one item' if a == ANY else 'your ' + SLOTS[a]}"
    raise ValueError(f"unknown effect op {op}")


def describe_all(effects: Sequence[Effect]) -> str:
    return "; ".join(describe(e) for e in effects)
