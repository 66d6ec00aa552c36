"""Cards drawn as cards: a :class:`Face` is what a printed card shows, and it is drawn three ways.

A per-game renderer turns a card of the view into a :class:`Face` (its title, its type, the numbers a
player reads at a glance in their fixed places, the effect in words, its state on the table, the cards
under it); this module draws any face:

* :func:`chip` — one unbreakable line for a table or a hand: ``Crossbow C2 A5 D3 R3 #34`` (the name,
  the numbers in their fixed order with a one-letter label and a colour each, the id an action names
  as a small dim mark, the state in words: ``used``, ``face down``);
* :func:`card_box` — the whole card, for ``look``: the title and the mark, a type band coloured by
  type, the numbers in the corners where the printed card has them, the effect in words, the state,
  and the cards under it (attached, captured);
* :class:`Flow` — many chips laid out left to right, wrapping *between* chips, never inside one: a
  terminal's lists of names fold deliberately instead of cutting a name or a number.

Faces never show a view's field names; the one-letter labels are explained by each game's
:data:`legend` (``help`` and ``look`` show it).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

CORNERS = ("tl", "tr", "bl", "br")
"""Where a number sits on the printed card: top left, top right, bottom left, bottom right."""


@dataclass(frozen=True)
class Number:
    """One printed number: ``short`` in a chip (``A8``), ``long`` on the card (``attack 8``)."""

    short: str
    long: str
    style: str = ""
    corner: str = ""
    """One of :data:`CORNERS`, or empty: listed under the card's text instead."""


@dataclass(frozen=True)
class Face:
    """What a card shows, in words and numbers, and how it lies on the table."""

    name: str
    kind: str
    """The type band: ``weapon``, ``Character``, ``skill``."""
    band: str = "white"
    """The band's colour (by type)."""
    numbers: tuple[Number, ...] = ()
    text: str = ""
    """The effect in words (empty for a card whose text does nothing)."""
    state: tuple[str, ...] = ()
    """How it lies: ``used``, ``tapped``, ``face down``, ``captive``, ``equipped``."""
    mark: int | None = None
    """The id an action names it by, shown as a small ``#17``; None for a card no action names."""
    under: tuple[tuple[str, Face], ...] = ()
    """Cards lying under it, each with why: ``("attached", ring)``, ``("captive", mordo)``."""
    notes: tuple[str, ...] = ()
    """More lines of the printed card (who may play it, its other side), for ``look``."""
    tags: tuple[str, ...] = field(default=())
    """Short words after the numbers in a chip (``Evil only``, ``stench``)."""


def units(face: Face, *, mark: bool = True, state: bool = True, name_style: str = "bold") -> list[Text]:
    """A chip's parts, none of which may be broken: the name, each number, each tag, the mark, the
    state. A :class:`Flow` of them wraps between parts when a cell is narrow."""
    out = [Text(face.name, style=name_style)]
    out += [Text(n.short, style=n.style) for n in face.numbers]
    out += [Text(tag, style="italic") for tag in face.tags]
    if mark and face.mark is not None:
        out.append(Text(f"#{face.mark}", style="dim"))
    if state and face.state:
        out.append(Text("(" + ", ".join(face.state) + ")", style="italic yellow"))
    return out


def chip(face: Face, *, mark: bool = True, state: bool = True, name_style: str = "bold") -> Text:
    """The card in one line: name, numbers, tags, mark, state. Never cut: see :class:`Flow`."""
    return Text(" ").join(units(face, mark=mark, state=state, name_style=name_style))


def chip_with_under(face: Face, *, mark: bool = True, state: bool = True) -> list[Text]:
    """The chip, then one indented chip per card under it (``└ attached: Ring +1 #80``)."""
    lines = [chip(face, mark=mark, state=state)]
    for why, card in face.under:
        lines.append(Text.assemble(("  └ ", "dim"), (f"{why}: ", "italic"), chip(card, mark=mark, state=state)))
    return lines


def card_box(face: Face, width: int = 40, where: str = "") -> RenderableType:
    """The whole card, as ``look`` shows it: a box ``width`` wide (at most), the title and mark on
    top, the type band, the numbers in their corners (the rest listed), the effect in words, the
    notes, the state and ``where`` it lies, then each card under it as a smaller box."""
    by_corner = {n.corner: n for n in face.numbers if n.corner in CORNERS}
    listed = [n for n in face.numbers if n.corner not in CORNERS]
    body: list[RenderableType] = []
    band = Text(f" {face.kind.upper()} ", style=f"bold reverse {face.band}")
    if face.tags:
        band.append("  " + " · ".join(face.tags), style="italic")
    body.append(band)
    if "tl" in by_corner or "tr" in by_corner:
        body.append(_corners(by_corner.get("tl"), by_corner.get("tr")))
    if face.text:
        body.append(Text(""))
        body.append(Text(face.text))
    for note in face.notes:
        body.append(Text(note, style="italic"))
    if listed:
        body.append(Text(" · ".join(n.long for n in listed)))
    if "bl" in by_corner or "br" in by_corner:
        body.append(Text(""))
        body.append(_corners(by_corner.get("bl"), by_corner.get("br")))
    if face.state:
        body.append(Text("on the table: " + ", ".join(face.state), style="yellow"))
    title = Text(face.name, style="bold")
    mark = Text(f"#{face.mark}", style="dim") if face.mark is not None else None
    box = Panel(
        Group(*body),
        title=title,
        title_align="left",
        subtitle=mark,
        subtitle_align="right",
        border_style=face.band,
        width=width,
        padding=(0, 1),
    )
    parts: list[RenderableType] = [box]
    if where:
        parts.append(Text(where, style="cyan"))
    for why, card in face.under:
        parts.append(Text(f"under it ({why}):", style="italic"))
        parts.append(card_box(card, max(24, width - 4)))
    return Group(*parts)


def _corners(left: Number | None, right: Number | None) -> Table:
    row = Table.grid(expand=True)
    row.add_column(justify="left", ratio=1)
    row.add_column(justify="right", ratio=1)
    row.add_row(
        Text(left.long, style=f"bold {left.style}") if left is not None else Text(""),
        Text(right.long, style=f"bold {right.style}") if right is not None else Text(""),
    )
    return row


class Labeled:
    """Inside a :class:`Flow`: a label and the chips it heads (``souls: Skeleton A3 S1, Imp A2 S1``),
    the label kept on the line of its first chip, the chips joined by ``sep``."""

    def __init__(self, label: Text | str, items: Iterable[Text], sep: str = ", ") -> None:
        self.label = label if isinstance(label, Text) else Text(label, style="dim")
        self.items = [i for i in items if i.plain]
        self.sep = Text(sep, style="dim")

    @property
    def plain(self) -> str:
        return self.label.plain + self.sep.plain.join(i.plain for i in self.items)

    @property
    def cell_len(self) -> int:
        return max((i.cell_len for i in self.items), default=0) + self.label.cell_len


class Flow:
    """Items (chips) left to right, ``sep`` between them, wrapping between items and never inside
    one; ``head`` starts the first line, later lines are indented by ``indent`` spaces. An item wider
    than the whole line gets a line of its own and wraps at its spaces (it is never cut). A
    :class:`Labeled` item is a label with its own list of chips."""

    def __init__(
        self,
        items: Iterable[Text | Labeled],
        sep: str = " · ",
        head: Text | str = "",
        indent: int = 2,
        style: str = "",
    ) -> None:
        self.items = [i for i in items if i.plain]
        self.sep = Text(sep, style="dim")
        self.head = head if isinstance(head, Text) else Text(head, style="bold")
        self.indent = indent
        self.style = style

    def _pieces(self, item: Text | Labeled, room: int) -> list[tuple[Text, Text]]:
        """``item`` as pieces that never break, each with the separator that goes before it."""
        space = Text(" ")
        if isinstance(item, Labeled):
            out: list[tuple[Text, Text]] = []
            for n, chip in enumerate(item.items):
                whole = item.label.copy().append_text(chip) if n == 0 else chip
                parts = _words(whole, room) if whole.cell_len > room else [whole]
                for k, piece in enumerate(parts):
                    out.append((piece, (self.sep if n == 0 else item.sep) if k == 0 else space))
            return out
        parts = _words(item, room) if item.cell_len > room else [item]
        return [(piece, self.sep if k == 0 else space) for k, piece in enumerate(parts)]

    def lines(self, width: int) -> list[Text]:
        """The lines this flow takes at ``width`` columns."""
        lines: list[Text] = []
        current = self.head.copy()
        fresh = True  # nothing but the head or the indent on the current line yet
        room = max(8, width - self.indent)
        pieces = [pair for item in self.items for pair in self._pieces(item, room)]
        for n, (piece, sep) in enumerate(pieces):
            # A line that ends before the next piece ends with that piece's separator mark (`` ·``):
            # a piece goes on a line only with room left for the mark after it, so no break drops it.
            after = pieces[n + 1][1].plain.rstrip() if n + 1 < len(pieces) else ""
            if fresh:
                if current.cell_len + piece.cell_len > width and current.cell_len > self.indent:
                    lines.append(current)
                    current = Text(" " * self.indent)
                current.append_text(piece)
                fresh = False
            elif current.cell_len + sep.cell_len + piece.cell_len + len(after) <= width:
                current.append_text(sep)
                current.append_text(piece)
            else:
                tail = sep.plain.rstrip()
                if tail and current.cell_len + len(tail) <= width:
                    current.append(tail, style="dim")
                lines.append(current)
                current = Text(" " * self.indent)
                current.append_text(piece)
        if current.plain.strip() or not lines:
            lines.append(current)
        for line in lines:
            line.stylize(self.style)
        return lines

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for line in self.lines(options.max_width):
            line.overflow = "fold"
            yield line

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widest = max((i.cell_len for i in self.items), default=0)
        whole = (
            self.head.cell_len
            + sum(Text(i.plain).cell_len for i in self.items)
            + self.sep.cell_len * max(0, len(self.items) - 1)
        )
        return Measurement(
            min(options.max_width, max(widest + self.indent, self.head.cell_len)), min(whole, options.max_width)
        )


def _words(item: Text, room: int) -> list[Text]:
    """``item`` cut at its spaces into pieces of at most ``room`` cells (a word longer than that is
    a piece of its own): how a long item (an event's sentence) wraps inside a flow."""
    pieces: list[Text] = []
    start = 0
    plain = item.plain
    while start < len(plain):
        end = start + room
        if end >= len(plain):
            pieces.append(item[start:])
            break
        cut = plain.rfind(" ", start, end + 1)
        if cut <= start:
            cut = plain.find(" ", end)
            cut = len(plain) if cut < 0 else cut
        pieces.append(item[start:cut])
        start = cut + 1
    return [p for p in pieces if p.plain]


def chips(faces: Sequence[Face], *, mark: bool = True, state: bool = True) -> list[Text]:
    """The chips of ``faces``, in order (cards under a card follow it: ``Zota P5 └ Guards +1``)."""
    out: list[Text] = []
    for face in faces:
        lines = chip_with_under(face, mark=mark, state=state)
        if len(lines) == 1:
            out.append(lines[0])
            continue
        joined = lines[0].copy()
        for line in lines[1:]:
            joined.append_text(Text(" ").append_text(line[2:] if line.plain.startswith("  ") else line))
        out.append(joined)
    return out
