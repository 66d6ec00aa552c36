"""A decision's screen, laid out to fit the terminal: blocks, each drawn in the richest form that fits.

A renderer gives the table as :class:`Block` s (the dungeon, the players, the hand, ...), each with
its :class:`Form` s from the richest to the most compact, and what it costs a player to see the
block in that form (``loss``: 0 loses nothing, a card's text moved behind ``look`` loses a little,
folding a zone away entirely loses more). :func:`compose` starts from every block's richest form and,
while the screen is taller than the rows it has, takes the step that loses least: another form of a
block, or folding a block away (one line then says what was folded and how to see it). Folding a
block whose contents did not change since the seat's last decision costs little; folding one that
shows a card a legal action names costs much (it is what the decision is about). Blocks with
``fold=None`` (the header, the hand, the prompt) never fold.

Forms must never cut a name or a number: they fold deliberately (lists wrap between names, long
texts go behind ``look``), so that whatever the screen shows is whole.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Console, RenderableType
from rich.segment import Segment, SegmentLines
from rich.text import Text

FOLD = 30
"""What folding a block away costs by default."""
UNCHANGED_FOLD = 6
"""What folding a block costs when nothing in it changed since the seat's last decision."""
RELEVANT = 40
"""Added to the cost of a step (a form, a fold) that takes the last sight of a card a legal action
names off the screen."""


@dataclass(frozen=True)
class Form:
    """One way to draw a block, and what a player loses when it is drawn this way."""

    drawn: RenderableType
    loss: int = 0
    cards: frozenset[int] | None = None
    """The cards this form shows, when fewer than its block's (a list cut short)."""


@dataclass(frozen=True)
class Block:
    """One zone of a decision's screen."""

    key: str
    """Its name for people: the fold line lists it, ``table KEY`` draws it whole."""
    forms: tuple[Form, ...]
    """Richest first; losses do not decrease."""
    watch: tuple[str, ...] = ()
    """The view keys it draws: when none changed since the seat's last decision, it is unchanged."""
    fold: int | None = FOLD
    """What folding it away costs; None: it never folds."""
    cards: frozenset[int] = frozenset()
    """The ids of the cards it shows (a block showing a card a legal action names matters most)."""
    zone: bool = True
    """Whether the fold line names it when folded (a reminder line is no zone of the table)."""

    @property
    def full(self) -> RenderableType:
        return self.forms[0].drawn


def block(key: str, *forms: RenderableType | Form, **kwargs: object) -> Block:
    """``block("hand", rich, compact, fold=None)``: forms given as renderables get losses 0, 1, 2..."""
    out = []
    for i, f in enumerate(forms):
        out.append(f if isinstance(f, Form) else Form(f, i))
    return Block(key, tuple(out), **kwargs)  # type: ignore[arg-type]


@dataclass
class Layout:
    """What :func:`compose` chose: the renderables in order, and which blocks it folded."""

    parts: list[RenderableType]
    folded: list[str]
    unchanged: list[str]
    rows: int


def height(console: Console, renderable: RenderableType, width: int | None = None) -> int:
    """Rows ``renderable`` takes on ``console`` (at ``width`` columns, default the console's)."""
    options = console.options if width is None else console.options.update_width(width)
    return len(console.render_lines(renderable, options, pad=False))


def compose(
    blocks: Sequence[Block],
    rows: int,
    console: Console,
    *,
    unchanged: frozenset[str] = frozenset(),
    named: frozenset[int] = frozenset(),
) -> Layout:
    """Choose a form for every block (or fold it) so that the whole takes at most ``rows`` rows, losing
    as little as possible; ``unchanged`` are the view keys that did not change since the seat's last
    decision, ``named`` the cards the legal actions name. When even the most compact choice is taller
    than ``rows``, it is returned anyway (the screen then scrolls; nothing is ever cut)."""
    drawn: dict[tuple[int, int], list[list[Segment]]] = {}

    def lines(i: int, j: int) -> list[list[Segment]]:
        """Block ``i``'s form ``j`` drawn, once: the layout's search needs only the heights of the forms
        it weighs (the richest alone when they fit), and the screen prints the lines it measured."""
        found = drawn.get((i, j))
        if found is None:
            found = drawn[i, j] = console.render_lines(blocks[i].forms[j].drawn, console.options, pad=False)
        return found

    def tall(i: int, j: int) -> int:
        return len(lines(i, j))

    chosen = [0] * len(blocks)
    folded = [False] * len(blocks)

    def same(b: Block) -> bool:
        return bool(b.watch) and all(k in unchanged for k in b.watch)

    def shows(i: int, j: int) -> frozenset[int]:
        f = blocks[i].forms[j]
        return blocks[i].cards if f.cards is None else f.cards

    def visible(skip: int = -1, form: int = -1) -> frozenset[int]:
        """The named cards on screen, with block ``skip`` drawn in ``form`` (-1: folded)."""
        out: set[int] = set()
        for i in range(len(blocks)):
            if i == skip:
                if form >= 0:
                    out |= shows(i, form)
            elif not folded[i]:
                out |= shows(i, chosen[i])
        return frozenset(out & named)

    line_rows: dict[tuple[str, ...], int] = {}

    def total() -> int:
        shown = sum(tall(i, chosen[i]) for i in range(len(blocks)) if not folded[i])
        names = tuple(b.key for i, b in enumerate(blocks) if folded[i] and b.zone)
        if names and names not in line_rows:
            line_rows[names] = height(console, fold_line(names, ()))
        return shown + (line_rows[names] if names else 0)

    def steps(frozen: int = -1) -> list[tuple[int, int, int, int]]:
        """Every next step down: (loss, -rows saved, block, form or -1 to fold)."""
        now_visible = visible()
        out: list[tuple[int, int, int, int]] = []
        for i, b in enumerate(blocks):
            if folded[i] or i == frozen:
                continue
            now = tall(i, chosen[i])
            for j in range(chosen[i] + 1, len(b.forms)):
                if tall(i, j) < now:
                    # A form that takes a card the decision is about off the screen costs as much as
                    # folding a block showing it: the person could no longer see what they choose.
                    hidden = RELEVANT if now_visible - visible(i, j) else 0
                    out.append((b.forms[j].loss + hidden, tall(i, j) - now, i, j))
                    break
            if b.fold is not None:
                loss = min(b.fold, UNCHANGED_FOLD) if same(b) else b.fold
                saved = now - (0 if any(folded) or not b.zone else 1)
                if saved > 0:
                    hidden = RELEVANT if now_visible - visible(i, -1) else 0
                    out.append((loss + hidden, -saved, i, -1))
        return out

    def shrink(below: int | None = None, frozen: int = -1) -> bool:
        """Take the cheapest steps (each losing less than ``below``, and never on block ``frozen``)
        until the whole fits; whether it does."""
        while total() > rows:
            options = [s for s in steps(frozen) if below is None or s[0] < below]
            if not options:
                return False
            _, _, i, j = min(options)
            if j < 0:
                folded[i] = True
            else:
                chosen[i] = j
        return True

    shrink()

    # Greedy steps can overshoot (a block shrunk early that a later, bigger step made needless) and
    # can settle for a costly step where several cheap ones would have done. So: for each block, the
    # one that loses most first, try it one step richer, paying with cheaper steps elsewhere; keep
    # the trade when it fits.
    def worth(i: int) -> int:
        b = blocks[i]
        richer = visible(i, chosen[i] - 1 if not folded[i] and chosen[i] > 0 else len(b.forms) - 1)
        back = RELEVANT if richer - visible() else 0
        if folded[i]:
            return (min(b.fold or 0, UNCHANGED_FOLD) if same(b) else (b.fold or 0)) + back
        return b.forms[chosen[i]].loss + back

    tried: set[tuple[int, bool, int]] = set()
    while True:
        candidates = [i for i in range(len(blocks)) if (folded[i] or chosen[i] > 0)]
        candidates = [i for i in candidates if (i, folded[i], chosen[i]) not in tried]
        if not candidates:
            break
        i = max(candidates, key=worth)
        tried.add((i, folded[i], chosen[i]))
        value = worth(i)
        saved = (list(chosen), list(folded))
        if folded[i]:
            folded[i] = False
            chosen[i] = len(blocks[i].forms) - 1
        else:
            chosen[i] -= 1
        if not shrink(below=value, frozen=i):
            chosen[:], folded[:] = saved
    parts: list[RenderableType] = []
    fold_names = [b.key for i, b in enumerate(blocks) if folded[i] and b.zone]
    same_names = [b.key for i, b in enumerate(blocks) if folded[i] and same(b) and b.zone]
    line_at = next((i for i in range(len(blocks)) if folded[i] and blocks[i].zone), -1)
    for i in range(len(blocks)):
        if i == line_at:
            parts.append(fold_line(fold_names, same_names))
        if not folded[i]:
            parts.append(SegmentLines(lines(i, chosen[i]), new_lines=True))
    return Layout(parts, fold_names, same_names, total())


def fold_line(folded: Sequence[str], unchanged: Sequence[str]) -> Text:
    """``not shown: dungeon, players · `table` shows all`` (``table players`` shows one zone)."""
    return Text("not shown: " + ", ".join(folded) + " · `table` shows all", style="dim")
