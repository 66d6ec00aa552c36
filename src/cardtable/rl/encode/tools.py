"""Small helpers the per-game encoders share: card-location grids, one-hots, seat lookups, numbers."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cardtable.engine.game import JSON
from cardtable.rl.encode.layout import Block, Layout, Vector


class CardZones:
    """A ``cards x zones`` grid of 0/1: where each card the seat can see is, one row per card id.

    Card ids are fixed per loaded game (0 .. cards-1), so row ``c`` always means the same card; a
    hidden card is in no zone the seat can see, so its row stays 0 (its count is elsewhere)."""

    def __init__(self, layout: Layout, name: str, cards: int, zones: Sequence[str], doc: str) -> None:
        self.zones = tuple(zones)
        self.index = {z: i for i, z in enumerate(self.zones)}
        self.cards = cards
        self.n = len(self.zones)
        self.block = layout.add(name, (cards, self.n), f"{doc}; zones: {', '.join(self.zones)}")
        self.start = self.block.start

    def put(self, out: Vector, card: JSON, zone: str) -> None:
        """Mark ``card`` (a card object or an id; None is skipped) as seen in ``zone``."""
        if card is None:
            return
        # A card object without an id (Mr. Card Game's empty Tower under ascension) is no card.
        cid = card.get("id") if type(card) is dict else card
        if type(cid) is int and 0 <= cid < self.cards:
            out[self.start + cid * self.n + self.index[zone]] = 1.0

    def put_all(self, out: Vector, cards: JSON, zone: str) -> None:
        """Mark every card of a list (None or a missing zone: nothing)."""
        if type(cards) is list:
            # put, inlined: the hot loop of every encoder.
            offset = self.start + self.index[zone]
            n, size = self.n, self.cards
            for card in cards:
                cid = card.get("id") if type(card) is dict else card
                if type(cid) is int and 0 <= cid < size:
                    out[offset + cid * n] = 1.0


class OneHot:
    """A one-hot block over a fixed vocabulary (an unknown value sets nothing)."""

    def __init__(self, layout: Layout, name: str, values: Sequence[str], doc: str) -> None:
        self.values = tuple(values)
        self.index = {v: i for i, v in enumerate(self.values)}
        self.block = layout.add(name, len(self.values), f"{doc}: {', '.join(self.values)}")

    def set(self, out: Vector, value: JSON) -> None:
        i = self.index.get(value) if isinstance(value, str) else None
        if i is not None:
            out[self.block.start + i] = 1.0


def seat_of(view: Mapping[str, JSON], name: JSON) -> int | None:
    """The seat number a seat name in the view stands for (``"P2"`` -> 1), or None."""
    names = view["seat_names"]
    if isinstance(name, str) and isinstance(names, list) and name in names:
        return names.index(name)
    return None


def number(value: JSON, default: float = 0.0) -> float:
    """A view value as a float (booleans as 0/1; anything else ``default``)."""
    kind = type(value)  # exact types first: a view is JSON-ready data
    if kind is int or kind is float:
        return float(value)
    if kind is bool:
        return 1.0 if value else 0.0
    if isinstance(value, int | float):  # a subclass (IntEnum, numpy scalar) from a plug-in game
        return float(value)
    return default


def scaled(out: Vector, block: Block, i: int, value: JSON, scale: float) -> None:
    """Write ``value / scale`` at position ``i`` of ``block``."""
    out[block.start + i] = number(value) / scale
