"""Named slices of an observation vector: which part of the vector means what.

An encoder declares its blocks once, when it is built; each block has a name, a shape, the bounds of
its values and a sentence saying what it holds. :meth:`Layout.markdown` prints the table that
``docs/rl.md`` shows for every game.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

Vector = npt.NDArray[np.float32]


@dataclass(frozen=True, slots=True)
class Block:
    """One named slice ``[start, start + size)`` of the vector, read as an array of ``shape``."""

    name: str
    start: int
    shape: tuple[int, ...]
    low: float
    high: float
    doc: str

    @property
    def size(self) -> int:
        size = 1
        for n in self.shape:
            size *= n
        return size

    @property
    def stop(self) -> int:
        return self.start + self.size

    def of(self, vector: Vector) -> Vector:
        """This block of ``vector``, shaped (a view: writing to it writes the vector)."""
        return vector[self.start : self.stop].reshape(self.shape)


class Layout:
    """The blocks of an observation vector, in order. Blocks are added once and never removed."""

    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self._by_name: dict[str, Block] = {}
        self.size = 0

    def add(self, name: str, shape: int | tuple[int, ...], doc: str, low: float = 0.0, high: float = 1.0) -> Block:
        """Append a block and return it. ``low``/``high`` bound every value of the block (the
        encoder clips to them, so an observation always lies in its space)."""
        if name in self._by_name:
            raise ValueError(f"layout block {name!r} declared twice")
        dims = (shape,) if isinstance(shape, int) else tuple(shape)
        if not dims or any(n < 0 for n in dims):
            raise ValueError(f"layout block {name!r}: bad shape {shape!r}")
        if not low < high:
            raise ValueError(f"layout block {name!r}: low {low} must be below high {high}")
        block = Block(name, self.size, dims, float(low), float(high), doc)
        self.blocks.append(block)
        self._by_name[name] = block
        self.size = block.stop
        return block

    def __getitem__(self, name: str) -> Block:
        return self._by_name[name]

    def __iter__(self) -> Iterator[Block]:
        return iter(self.blocks)

    def bounds(self) -> tuple[Vector, Vector]:
        """Per-element lower and upper bounds (for a ``gymnasium.spaces.Box``)."""
        low = np.empty(self.size, dtype=np.float32)
        high = np.empty(self.size, dtype=np.float32)
        for b in self.blocks:
            low[b.start : b.stop] = b.low
            high[b.start : b.stop] = b.high
        return low, high

    def markdown(self) -> str:
        """The layout as a Markdown table: slice, block, shape, range, meaning."""
        rows = ["| slice | block | shape | range | what it holds |", "|---|---|---|---|---|"]
        for b in self.blocks:
            shape = "x".join(str(n) for n in b.shape)
            rows.append(f"| {b.start}:{b.stop} | `{b.name}` | {shape} | {_num(b.low)}..{_num(b.high)} | {b.doc} |")
        rows.append(f"| 0:{self.size} | | {self.size} | | the whole vector (float32) |")
        return "\n".join(rows)


def _num(x: float) -> str:
    return str(int(x)) if x == int(x) else f"{x:g}"
