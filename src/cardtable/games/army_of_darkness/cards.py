"""Loading and validating the card file (``cards.toml``) into flat per-card-id tables.

The file lists characters (two-sided, not in the deck) and cards (expanded copy by copy, in file
order, into integer card ids). Only a card's type and title matter, except for events, whose one
effect comes from the closed vocabulary :data:`VOCABULARY`. Every problem raises
:class:`~cardtable.engine.errors.CardDataError` naming the file, the card and the field.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from cardtable.engine.carddata import EffectSpec, Field, check_effects, check_table, read_card_file
from cardtable.engine.errors import CardDataError

FORMAT: Final = "army-of-darkness-cards/1"
DEFAULT_PATH = Path(__file__).with_name("cards.toml")

# Card types, as small integers indexed by card id at load time.
MONSTER: Final = 0
ALLY: Final = 1
ITEM: Final = 2
NECRONOMICON: Final = 3
EVENT: Final = 4
TYPE_NAMES = ("monster", "ally", "item", "necronomicon", "event")
TYPE_OF_NAME = {name: i for i, name in enumerate(TYPE_NAMES)}

KALLE_WORDS: dict[int, str] = {
    MONSTER: (
        "Foe of a good player: their attack discards one (or three of one title); if any remain, they take "
        "a hit. Support for an evil player: monsters of 5 different titles win."
    ),
    ALLY: (
        "Support for a good player: 3 allies win. Foe of an evil player: their attack discards one; if any "
        "remain, they take a hit."
    ),
    ITEM: "Shields its player: a hit discards a tabled item (or a good player's ally, an evil player's monster) first.",
    NECRONOMICON: (
        "Wins for the player it is in front of, at the end of their turn with a hand card: as good with 3 "
        "allies and no monsters, as evil with monsters of 5 titles and no allies. Events touch it only when "
        "they say so."
    ),
}
"""What a card without an event effect does under the Rules of Kalle ("card texts in all other cards
than events are ignored. Only type and title of the card is relevant"), in words for its face."""

# Effect kinds (the ``do`` word of an event's effect), as small integers.
DRAW: Final = 0
DISCARD_TABLED: Final = 1
TAKE_TABLED: Final = 2
FROM_DISCARD: Final = 3
SET_SIDE: Final = 4
EFFECT_NAMES = ("draw", "discard_tabled", "take_tabled", "from_discard", "set_side")

_NUMBER = re.compile(r"-?[0-9]+")
"""Text that action parsing would read as a number (see :mod:`cardtable.engine.actions`)."""

_KINDS_DOC: Final = 'a list of card types among "monster", "ally", "item" (the Necronomicon counts as an item)'

VOCABULARY: dict[str, EffectSpec] = {
    "draw": EffectSpec("draw", (Field("amount", (int,), min=1, max=10),), "the player draws `amount` cards"),
    "discard_tabled": EffectSpec(
        "discard_tabled",
        (
            Field("kinds", (list,), doc=_KINDS_DOC),
            Field("whose", (str,), False, "any", ("any", "other", "self")),
        ),
        "discard one tabled card of `kinds` from in front of a player (`whose`: any, other, self)",
    ),
    "take_tabled": EffectSpec(
        "take_tabled",
        (
            Field("kinds", (list,), doc=_KINDS_DOC),
            Field("whose", (str,), False, "other", ("any", "other")),
            Field("to", (str,), False, "table", ("table", "hand")),
        ),
        "take one tabled card of `kinds` from in front of a player into your own table or hand",
    ),
    "from_discard": EffectSpec(
        "from_discard",
        (
            Field("kinds", (list,), doc=_KINDS_DOC),
            Field("to", (str,), False, "hand", ("hand", "any-table")),
        ),
        "take one card of `kinds` from the discard pile into your hand, or in front of any player",
    ),
    "set_side": EffectSpec(
        "set_side",
        (
            Field("side", (str,), choices=("good", "evil", "switch")),
            Field("whose", (str,), False, "any", ("any", "other", "self")),
        ),
        "turn one character (of a player per `whose`) to `side`; only characters not already on it",
    ),
}

CHARACTER_FIELDS = (
    Field("good", (str,)),
    Field("evil", (str,)),
    Field("first", (bool,), False, False),
    Field("extra", (bool,), False, False),
)

CARD_FIELDS = (
    Field("name", (str,)),
    Field("type", (str,), choices=TYPE_NAMES),
    Field("count", (int,), False, 1, min=1, max=60),
    Field("removed", (bool,), False, False),
    Field("roll", (bool,), False, False),
    Field("affects_necronomicon", (bool,), False, False),
    Field("effect", (dict, list), False, None),
)


@dataclass(frozen=True)
class Effect:
    """One event effect resolved to integers: ``kind`` (DRAW...), ``kinds`` as a frozenset of types."""

    kind: int
    amount: int
    kinds: frozenset[int]
    whose: str
    to: str
    side: str

    def text(self, necro_ok: bool = False, roll: bool = False) -> str:
        """What the event does, in words, as a view shows it (never raw effect syntax).

        ``necro_ok``: the card may choose the Necronomicon (otherwise an item choice says it never
        can, Rules of Kalle); ``roll``: its printed die roll, which succeeds automatically."""
        k = self.kind
        if k == DRAW:
            out = f"Draw {self.amount} card{'s' if self.amount != 1 else ''}."
        elif k == SET_SIDE:
            if self.side == "switch":
                whose = {"any": "any character (yours too)", "other": "another player's character"}
                out = f"Turn {whose.get(self.whose, 'your character')} to the other side."
            else:
                was = "good" if self.side == "evil" else "evil"
                whose = {"any": f"any {was} character (yours too)", "other": f"another player's {was} character"}
                out = f"Turn {whose.get(self.whose, f'your character, if {was},')} {self.side}."
        else:
            what = kinds_text(self.kinds, necro_ok)
            if k == FROM_DISCARD:
                if self.to == "hand":
                    out = f"Take {what} from the discard pile into your hand."
                else:
                    out = f"Put {what} from the discard pile in front of any player."
            else:
                where = {"any": "any table (yours too)", "other": "another player's table", "self": "your table"}[
                    self.whose
                ]
                if k == DISCARD_TABLED:
                    out = f"Discard {what} from {where}."
                elif self.to == "hand":
                    out = f"Take {what} from {where} into your hand."
                else:
                    out = f"Move {what} from {where} to yours."
        if roll:
            out += " Its die roll always succeeds."
        return out


def kinds_text(kinds: frozenset[int], necro_ok: bool) -> str:
    """``a monster, an ally or an item (never the Necronomicon)``: what an event may choose, saying
    whether the Necronomicon is among it whenever items are."""
    words = [("a monster", MONSTER), ("an ally", ALLY), ("an item", ITEM)]
    parts = [w for w, t in words if t in kinds]
    text = parts[-1] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]
    if ITEM in kinds:
        text += " (the Necronomicon too)" if necro_ok else " (never the Necronomicon)"
    return text


@dataclass(frozen=True)
class CardSet:
    """Everything the rules need from a card file, as tuples indexed by card id / character index."""

    path: str
    sha: str
    names: tuple[str, ...]
    types: tuple[int, ...]
    removed: tuple[bool, ...]
    roll: tuple[bool, ...]
    necro_ok: tuple[bool, ...]
    effects: tuple[Effect | None, ...]
    name_ids: tuple[int, ...]
    """For each card, the index of its title in :attr:`monster_names` (monsters) or -1."""
    monster_names: tuple[str, ...]
    monster_words: tuple[str, ...]
    """Each monster title as typed in ``slay-three name=...``: its words joined by ``-``."""
    texts: tuple[str, ...]
    """Each card's text in words: an event's effect (:meth:`Effect.text`); for the other cards, whose
    printed texts the Rules of Kalle ignore, what their type does under those rules
    (:data:`KALLE_WORDS`)."""
    good_names: tuple[str, ...]
    evil_names: tuple[str, ...]
    first_character: int
    extra: tuple[bool, ...]

    def __len__(self) -> int:
        return len(self.names)


def _kinds(file: str, card: str, where: str, raw: list[Any]) -> frozenset[int]:
    if not raw:
        raise CardDataError(file, card, where, "must name at least one card type")
    out = set()
    for i, k in enumerate(raw):
        if k not in ("monster", "ally", "item"):
            raise CardDataError(file, card, f"{where}[{i}]", f'must be "monster", "ally" or "item", got {k!r}')
        out.add(TYPE_OF_NAME[k])
    # The Necronomicon is an item for every purpose (see the rules notes); events still need
    # `affects_necronomicon` to choose it.
    if ITEM in out:
        out.add(NECRONOMICON)
    return frozenset(out)


def _effect(file: str, card: str, raw: Any) -> Effect:
    effects = check_effects(file, card, "effect", raw, VOCABULARY)
    if len(effects) != 1:
        raise CardDataError(file, card, "effect", f"an event has exactly one effect, got {len(effects)}")
    e: Mapping[str, Any] = effects[0]
    kind = EFFECT_NAMES.index(e["do"])
    kinds: frozenset[int] = frozenset()
    if "kinds" in e:
        kinds = _kinds(file, card, "effect[0].kinds", e["kinds"])
    return Effect(
        kind=kind,
        amount=int(e.get("amount", 0)),
        kinds=kinds,
        whose=str(e.get("whose", "")),
        to=str(e.get("to", "")),
        side=str(e.get("side", "")),
    )


def monster_word(title: str) -> str:
    """A monster title as one word of an action text: ``Skeleton Warrior`` -> ``Skeleton-Warrior``."""
    return "-".join(title.split())


def _label(raw: Any, key: str, fallback: str) -> str:
    """How errors name a card: its title when it has one, else its position in the file."""
    if isinstance(raw, dict) and isinstance(raw.get(key), str):
        return str(raw[key])
    return fallback


NAME_FIELDS = ("name", "good", "evil")
"""The fields that name a card or a character card's side (what card edits find cards by)."""


def load_cards(path: str | Path | None = None, edits: Sequence[str] = ()) -> CardSet:
    """Read and validate a card file (the bundled stand-in set when ``path`` is None or empty), with
    what-if card ``edits`` applied (see :mod:`cardtable.engine.card_edits`)."""
    cf = read_card_file(path or DEFAULT_PATH, edits, NAME_FIELDS)
    file, data = cf.path, cf.data
    for key in data:
        if key not in ("format", "character", "card"):
            raise CardDataError(file, None, key, "unknown top-level key (expected format, character, card)")
    if data.get("format") != FORMAT:
        raise CardDataError(file, None, "format", f"must be {FORMAT!r}, got {data.get('format')!r}")
    chars = data.get("character")
    if not isinstance(chars, list) or len(chars) < 2:
        raise CardDataError(file, None, "character", "must list at least two [[character]] tables")
    good: list[str] = []
    evil: list[str] = []
    extra: list[bool] = []
    first = -1
    for i, raw in enumerate(chars):
        label = _label(raw, "good", f"character #{i + 1}")
        c = check_table(file, label, raw, CHARACTER_FIELDS)
        good.append(c["good"])
        evil.append(c["evil"])
        extra.append(c["extra"])
        if c["first"]:
            if first >= 0:
                raise CardDataError(
                    file, label, "first", f"only one character goes first; {good[first]!r} already does"
                )
            first = i
    if first < 0:
        raise CardDataError(file, None, "character", "one character must have first = true (Ash)")
    cards = data.get("card")
    if not isinstance(cards, list) or not cards:
        raise CardDataError(file, None, "card", "must list the [[card]] tables")
    names: list[str] = []
    types: list[int] = []
    removed: list[bool] = []
    roll: list[bool] = []
    necro_ok: list[bool] = []
    effects: list[Effect | None] = []
    for i, raw in enumerate(cards):
        label = _label(raw, "name", f"card #{i + 1}")
        c = check_table(file, label, raw, CARD_FIELDS)
        t = TYPE_OF_NAME[c["type"]]
        eff: Effect | None = None
        if t == EVENT:
            if c["effect"] is None:
                raise CardDataError(file, label, "effect", "an event needs an effect")
            eff = _effect(file, label, c["effect"])
        else:
            for key in ("effect", "roll", "affects_necronomicon"):
                if key in raw:
                    raise CardDataError(file, label, key, "only events have effects (other cards' texts are ignored)")
        for _ in range(c["count"]):
            names.append(c["name"])
            types.append(t)
            removed.append(c["removed"])
            roll.append(c["roll"])
            necro_ok.append(c["affects_necronomicon"])
            effects.append(eff)
    live = [k for k in range(len(names)) if not removed[k]]
    necros = [k for k in live if types[k] == NECRONOMICON]
    if len(necros) != 1:
        raise CardDataError(file, None, "card", f"the deck must hold exactly one Necronomicon, found {len(necros)}")
    monster_names: list[str] = []
    monster_words: list[str] = []
    name_ids: list[int] = []
    for k, n in enumerate(names):
        if types[k] == MONSTER:
            if n not in monster_names:
                word = monster_word(n)
                if not word or "=" in word or _NUMBER.fullmatch(word) or word in monster_words:
                    raise CardDataError(
                        file,
                        n,
                        "name",
                        f"a monster title is typed in actions as {word!r} (`slay-three name={word}`), which must be "
                        "non-empty text without '=', not a number, and different for every monster title",
                    )
                monster_names.append(n)
                monster_words.append(word)
            name_ids.append(monster_names.index(n))
        else:
            name_ids.append(-1)
    texts = tuple(
        e.text(necro_ok[k], roll[k]) if (e := effects[k]) is not None else KALLE_WORDS[types[k]]
        for k in range(len(names))
    )
    if not any(types[k] == MONSTER for k in live):
        raise CardDataError(file, None, "card", "the deck needs monsters (one is dealt in front of each player)")
    return CardSet(
        path=file,
        sha=cf.sha,
        names=tuple(names),
        types=tuple(types),
        removed=tuple(removed),
        roll=tuple(roll),
        necro_ok=tuple(necro_ok),
        effects=tuple(effects),
        name_ids=tuple(name_ids),
        monster_names=tuple(monster_names),
        monster_words=tuple(monster_words),
        texts=texts,
        good_names=tuple(good),
        evil_names=tuple(evil),
        first_character=first,
        extra=tuple(extra),
    )
