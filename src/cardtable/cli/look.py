"""``look N`` / ``look NAME``: any card the seat can see, drawn whole, without acting.

:func:`visible` walks a view (only a view: what the seat may see) and collects every card in it with
where it lies; :func:`find` picks the one a person means, by its number (``17``, ``#17``) or by its
name or the start of it, in any case. Several cards of the name: the candidates are listed (copies of
one card are one face, shown once with every place it lies). Nothing here changes the game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from cardtable.engine.actions import name_key
from cardtable.engine.game import JSON

PLACES = {
    "hand": "in your hand",
    "dungeon": "in the dungeon",
    "players": "in front of a player",
    "discard_pile": "in the discard pile",
    "discard": "in the discard pile",
    "map": "on the map",
    "trainer": "in the trainer",
    "heap": "on the Heap",
    "quests": "in the quest pile",
    "nemesis": "on a nemesis pile",
    "sorceress": "on top of the Tower",
    "table": "in play",
    "killed": "in the Killed pile",
    "exiled": "in the Exiled pile",
    "removed": "removed from the game",
    "skill_discard": "in the trainer's discard pile",
}


@dataclass(frozen=True)
class Seen:
    """A card of the view and where it lies, in words."""

    card: Mapping[str, JSON]
    where: str

    @property
    def id(self) -> int | None:
        cid = self.card.get("id")
        return cid if isinstance(cid, int) and not isinstance(cid, bool) else None

    @property
    def name(self) -> str:
        return str(self.card.get("name"))


def _is_card(value: JSON) -> bool:
    return (
        isinstance(value, Mapping)
        and isinstance(value.get("name"), str)
        and (isinstance(value.get("id"), int) or "type" in value or "kind" in value or "stat" in value)
    )


def _owner(node: Mapping[str, JSON]) -> str:
    for key in ("name", "seat", "player", "location", "character"):
        value = node.get(key)
        if isinstance(value, str) and value:
            return value
    return ""


def visible(view: Mapping[str, JSON]) -> list[Seen]:
    """Every card in ``view``, each id once (its first place), in the view's order, with where it lies:
    ``in your hand``, ``in front of a player: P2, in play``, ``on the map: The Musty Root Cellar``."""
    out: list[Seen] = []
    ids: set[int] = set()
    plain: set[tuple[str, str]] = set()

    def walk(value: JSON, where: list[str]) -> None:
        if isinstance(value, list):
            for item in value:
                walk(item, where)
            return
        if not isinstance(value, Mapping):
            return
        if _is_card(value):
            seen = Seen(value, ", ".join(w for w in where if w))
            if seen.id is not None:
                if seen.id in ids:
                    return
                ids.add(seen.id)
            elif (seen.name, seen.where) in plain:
                return
            else:
                plain.add((seen.name, seen.where))
            out.append(seen)
            under = [f"under {seen.name}"]
            for key, inner in value.items():
                if isinstance(inner, list | Mapping) and key != "item_side":
                    walk(inner, [*where, *under, key.replace("_", " ")])
            return
        owner = _owner(value)
        for key, inner in value.items():
            if isinstance(inner, list | Mapping):
                walk(inner, [*where, owner, key.replace("_", " ")] if owner else [*where, key.replace("_", " ")])

    for key, value in view.items():
        if key in ("prompt", "seat_names"):
            continue
        walk(value, [PLACES.get(key, key.replace("_", " "))])
    return out


def find(cards: list[Seen], query: str) -> list[Seen]:
    """The cards ``query`` names: a number (``17``, ``#17``) names that id; else a name, the start of
    a name, or the start of a word of it (the best of these that matches anything), in any case."""
    q = query.strip().lstrip("#")
    if q.isdigit():
        return [c for c in cards if c.id == int(q)]
    typed = name_key(query)
    if not typed:
        return []
    tiers: list[list[Seen]] = [[], [], []]
    for c in cards:
        names = [c.name, *(str(c.card[k]) for k in ("kind",) if isinstance(c.card.get(k), str))]
        side = c.card.get("item_side")
        if isinstance(side, Mapping) and isinstance(side.get("name"), str):
            names.append(str(side["name"]))
        keys = [name_key(n) for n in names]
        if typed in keys:
            tiers[0].append(c)
        elif any(k.startswith(typed) for k in keys):
            tiers[1].append(c)
        elif any(f" {typed}" in f" {k}" for k in keys):
            tiers[2].append(c)
    return next((t for t in tiers if t), [])
