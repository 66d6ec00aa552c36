"""The generic encoder: any game's view, by feature hashing (Weinberger et al., 2009).

For a game with no encoder of its own. It walks the view and adds every fact it finds to one of
``size`` buckets chosen by a stable hash (CRC-32) of the fact's *path*:

* the path is the chain of keys from the top of the view; list positions are dropped ("a card in the
  discard pile", not "the 7th card"), except in a list of per-seat records (dicts with a ``seat``),
  where the position becomes the seat relative to the observer (``seat+0`` is the observer);
* a card (a dict with an integer ``id`` and a string ``name``) counts 1 at ``(path, name)`` and 1 at
  ``(path, #)`` (how many cards are there), and its other numbers at ``(path, name, key)``;
* a number adds its value, squashed by ``sign(x)·log(1 + |x|)``, at its path; a boolean or a short
  string (at most 40 characters) adds 1 at ``(path, value)``; longer text is skipped except the
  ``prompt``, whose first three words are hashed (they say what is being decided);
* ``None`` adds nothing.

Collisions add up; with 4096 buckets and a few hundred facts per view they are rare. The layout is
therefore one block of anonymous buckets: a dedicated encoder is better for learning, this one makes
every game usable at once, and like every encoder it reads only the view.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Mapping
from typing import ClassVar

from cardtable.engine.game import JSON, Game
from cardtable.rl.encode import Encoder, Layout, Vector

_SKIP = frozenset({"game", "seat", "seat_names", "current_player", "is_over", "turn", "text"})
_CARD_SKIP = _SKIP | {"id", "name", "type"}


class HashedEncoder(Encoder):
    """Feature-hashed view (see the module docstring)."""

    game_id: ClassVar[str] = "*"
    BUCKETS: ClassVar[int] = 4096
    BOUND: ClassVar[float] = 50.0

    def __init__(self, game: Game, buckets: int | None = None) -> None:
        self.buckets = buckets or self.BUCKETS
        # Paths repeat from view to view: remember where each one hashes (bounded, for odd games).
        self._where: dict[str, int] = {}
        super().__init__(game)

    def build(self, layout: Layout) -> None:
        self.b_hashed = layout.add(
            "hashed",
            self.buckets,
            "feature-hashed facts of the view (cards per zone, numbers, flags, the prompt's first words)",
            low=-self.BOUND,
            high=self.BOUND,
        )

    def fill(self, view: Mapping[str, JSON], out: Vector, me: int) -> None:
        start = self.b_hashed.start
        buckets = self.buckets
        players = self.players
        where = self._where

        def add(key: str, value: float) -> None:
            i = where.get(key)
            if i is None:
                i = start + zlib.crc32(key.encode()) % buckets
                if len(where) < 200_000:
                    where[key] = i
            out[i] += value

        stack: list[tuple[str, JSON]] = [(k, v) for k, v in view.items() if k not in _SKIP]
        while stack:
            path, value = stack.pop()
            if value is None:
                continue
            if isinstance(value, bool):
                add(f"{path}={value}", 1.0)
            elif isinstance(value, int | float):
                add(path, math.copysign(math.log1p(abs(value)), value))
            elif isinstance(value, str):
                if path == "prompt":
                    add("prompt=" + " ".join(value.split()[:3]), 1.0)
                elif len(value) <= 40:
                    add(f"{path}={value}", 1.0)
            elif isinstance(value, list):
                for item in value:
                    if isinstance(item, dict) and isinstance(item.get("seat"), int) and 0 <= item["seat"] < players:
                        stack.append((f"{path}.seat+{(item['seat'] - me) % players}", item))
                    else:
                        stack.append((path, item))
            elif isinstance(value, dict):
                card_id, name = value.get("id"), value.get("name")
                if isinstance(card_id, int) and isinstance(name, str):
                    add(f"{path}#", 1.0)
                    add(f"{path}:{name}", 1.0)
                    stack.extend(
                        (f"{path}:{name}.{k}", v)
                        for k, v in value.items()
                        if k not in _CARD_SKIP and isinstance(v, int | float | bool | dict | list)
                    )
                else:
                    stack.extend((f"{path}.{k}", v) for k, v in value.items() if k not in _SKIP)
