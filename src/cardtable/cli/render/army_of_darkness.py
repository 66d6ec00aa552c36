"""Army of Darkness's table: one or two lines per player, so 2 to 8 players fit a terminal.

Each player gets a line with her character (its side in colour), her hand size and the cards in
front of her (titles with counts: copies of a title are alike under the Rules of Kalle, and the
choices name the card ids), and what she still needs to win. Below come the deck, the discard pile and
the removed cards, the card being played, and the viewing seat's own hand: its cards grouped by
type, each event with what it does.

Under these rules only a card's type and title matter, except for events: a card's face says what
its type does in the game (``look``), an event's its effect.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from cardtable.cli.render import RenderContext
from cardtable.cli.render.faces import Face, Flow, chip
from cardtable.cli.render.generic import header_text
from cardtable.cli.render.generic import render_blocks as generic_blocks
from cardtable.cli.screen import Block, Form, block
from cardtable.engine.game import JSON

Card = Mapping[str, JSON]
ZONES = (("monsters", "monsters"), ("allies", "allies"), ("items", "items"), ("known_in_hand", "in hand, face up"))
HAND_GROUPS = ((("monster",), "monsters"), (("ally",), "allies"), (("item", "necronomicon"), "items"))
GROUPED = {kind for kinds, _ in HAND_GROUPS for kind in kinds}
SIDE_STYLE = {"good": "bright_white", "evil": "red"}
BANDS = {"monster": "red", "ally": "green", "item": "cyan", "necronomicon": "magenta", "event": "yellow"}
LEGEND = (
    "cards carry no values under the Rules of Kalle: a card's type (and an event's text) says what it "
    "does (`look` a card); #N beside a name is only the card's id, to name it in an action"
)


def _cards(value: JSON) -> list[Card]:
    return [c for c in value if isinstance(c, Mapping)] if isinstance(value, list) else []


def face(card: Card, ctx: RenderContext | None = None) -> Face:
    """A card as it reads under the Rules of Kalle: its title and type, an event's effect, or what its
    type does in this game."""
    sort = str(card.get("type", ""))
    mark = card.get("id")
    # The game words every card: an event its effect, the others what their type does (Rules of Kalle).
    text = str(card.get("text") or "")
    return Face(
        name=str(card.get("name")),
        kind=sort,
        band=BANDS.get(sort, "white"),
        text=text,
        mark=mark if isinstance(mark, int) else None,
    )


def _card(card: Card) -> Text:
    """``Deadite #8``: the title, and the id that actions name (dim)."""
    return chip(face(card), name_style=BANDS.get(str(card.get("type")), ""))


def titles(cards: Sequence[Card]) -> list[Text]:
    """Titles with counts, in order of first appearance: ``Deadite x2``, ``Pit Witch``."""
    counts: dict[str, int] = {}
    kinds: dict[str, str] = {}
    for c in cards:
        name = str(c.get("name"))
        counts[name] = counts.get(name, 0) + 1
        kinds[name] = str(c.get("type"))
    return [Text(name + (f" x{n}" if n > 1 else ""), style=BANDS.get(kinds[name], "")) for name, n in counts.items()]


def _joined(parts: Sequence[Text], sep: str = ", ") -> Text:
    out = Text()
    for i, part in enumerate(parts):
        if i:
            out.append(sep, style="dim")
        out.append_text(part)
    return out


def tabled(row: Card) -> list[Text]:
    """A player's cards in front of her, zone by zone: ``monsters: Deadite x2``, ``items: Boomstick``."""
    zones: list[Text] = []
    for key, label in ZONES:
        cards = _cards(row.get(key))
        if cards:
            zones.append(Text.assemble((f"{label}: ", "dim"), _joined(titles(cards))))
    return zones or [Text("nothing in front of her", style="dim")]


class Beside:
    """Two renderables on one line when they fit the width given, else one under the other: a player
    takes one line when her table and her needs are short."""

    def __init__(self, first: Flow, second: Text) -> None:
        self.first = first
        self.second = second

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        lines = self.first.lines(options.max_width)
        if len(lines) == 1 and lines[0].cell_len + 4 + self.second.cell_len <= options.max_width:
            yield Text.assemble(lines[0], ("  ▸ ", "dim"), self.second)
            return
        yield from lines
        yield Text.assemble(("  ▸ ", "dim"), self.second)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(min(options.max_width, 20), options.max_width)


def _who(row: Card, seat: int, ctx: RenderContext, current: JSON) -> Text:
    side = str(row.get("side", ""))
    hand = row.get("hand_size")
    return Text.assemble(
        ("▶ " if seat == current else "  ", "yellow"),
        (ctx.who(seat), "bold green" if seat == ctx.seat else "bold"),
        " ",
        (str(row.get("character", "")), SIDE_STYLE.get(side, "")),
        (f" ({side})" if side else "", "dim"),
        (f" · {hand} card{'' if hand == 1 else 's'}: ", "dim"),
    )


NEEDS_SHORT = (
    ("needs the Necronomicon tabled", "Necronomicon"),
    ("Good: ", ""),
    ("Evil: ", ""),
    (" more allies", " allies"),
    (" more ally", " ally"),
    (" more monsters of different names", " different monsters"),
    (" more monster of a different name", " different monster"),
)
"""Fewer words for what a player needs, on a crowded screen (``table players`` says it in full)."""


def needs_short(text: str) -> str:
    for long, short in NEEDS_SHORT:
        text = text.replace(long, short)
    return text


def _short_zones(row: Card) -> list[Text]:
    """``M Deadite x2`` ``A Wise Man`` ``I Chainsaw``: the zones by their initials (colours too)."""
    out: list[Text] = []
    for key, label in ZONES:
        cards = _cards(row.get(key))
        if cards:
            initial = "hand" if key == "known_in_hand" else label[0].upper()
            out.append(Text.assemble((f"{initial} ", "dim"), _joined(titles(cards))))
    return out or [Text("nothing tabled", style="dim")]


def players_block(view: Card, ctx: RenderContext) -> Block:
    """A player a line (or two): who she is, her hand size, the cards in front of her; what she still
    needs to win (and, with an empty hand, when she switches sides). The compact form: one flow a
    player, zones by initial (M monsters, A allies, I items), the needs in fewer words."""
    current = view.get("current_player")
    lines: list[RenderableType] = []
    short: list[RenderableType] = []
    for seat, row in enumerate(r for r in view.get("players") or [] if isinstance(r, Mapping)):
        needs = Text(str(row.get("needs", "")), style="cyan")
        brief_needs = Text("▸ " + needs_short(str(row.get("needs", ""))), style="cyan")
        if row.get("switching"):
            needs.append(" · " + str(row["switching"]), style="magenta")
            brief_needs.append(" · " + str(row["switching"]), style="magenta")
        lines.append(Beside(Flow(tabled(row), head=_who(row, seat, ctx, current), indent=4), needs))
        short.append(Flow([*_short_zones(row), brief_needs], head=_who(row, seat, ctx, current), indent=4))
    ids = {
        int(c["id"])
        for r in view.get("players") or []
        if isinstance(r, Mapping)
        for key, _ in ZONES
        for c in _cards(r.get(key))
        if isinstance(c.get("id"), int)
    }
    # The players' tables are the board: the last thing to fold.
    return block("players", Group(*lines), Form(Group(*short), 2), watch=("players",), fold=50, cards=frozenset(ids))


def piles_block(view: Card) -> Block:
    discard = list(reversed(_cards(view.get("discard"))))
    removed = _cards(view.get("removed"))
    head = Text.assemble(
        ("Deck ", "bold"), f"{view.get('deck_size')} cards · ", ("discard pile ", "bold"), f"({len(discard)})"
    )
    every = Flow(titles(discard), head=head.copy().append(", newest first: " if discard else ""), indent=4)
    bare = Text.assemble(head, f" · removed from the game: {len(removed)} (`table piles`)", style="")
    ids = {int(c["id"]) for c in discard if isinstance(c.get("id"), int)}
    return block("piles", every, Form(bare, 3), watch=("deck_size", "discard"), fold=6, cards=frozenset(ids))


def hand_block(view: Card, ctx: RenderContext) -> Block | None:
    """The seat's own hand: its cards without text grouped by type (with the ids that ``play
    card=N`` takes), then each event with what it does."""
    if ctx.seat is None:
        return None
    cards = _cards(view.get("hand"))
    title = Text(f"Your hand ({len(cards)}): ", style="bold green")
    items: list[Text] = []
    for kinds, label in HAND_GROUPS:
        of_kind = [c for c in cards if c.get("type") in kinds]
        if of_kind:
            items.append(Text.assemble((f"{label}: ", "dim"), _joined([_card(c) for c in of_kind])))
    events = [c for c in cards if c.get("type") not in GROUPED]
    if not cards:
        items.append(Text("no cards", style="dim"))
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True)
    grid.add_column(ratio=1)
    for c in events:
        grid.add_row(
            Text("  ").append_text(_card(c)).append(":", style="dim"), Text(str(c.get("text") or ""), style="dim")
        )
    full = Group(Flow(items, head=title, indent=2), grid) if events else Flow(items, head=title, indent=2)
    short_items = [*items, *(Text.assemble(("event: ", "dim"), _card(c)) for c in events)]
    short = Flow(short_items, head=title, indent=2)
    ids = {int(c["id"]) for c in cards if isinstance(c.get("id"), int)}
    return block("hand", full, Form(short, 2), fold=None, cards=frozenset(ids))


def playing_block(view: Card) -> Block | None:
    playing = view.get("being_played")
    # An item, ally or monster being placed is named by the prompt; an event's line says what it does.
    if not isinstance(playing, Mapping):
        return None
    is_event = playing.get("type") not in GROUPED
    if not (is_event or isinstance(view.get("returning"), Mapping)):
        return None
    line = Text.assemble(("Being played: ", "bold"), _card(playing))
    if is_event and playing.get("text"):
        line.append(f": {playing['text']}")
    returning = view.get("returning")
    if isinstance(returning, Mapping):
        line.append_text(Text.assemble(("   coming back: ", "bold"), _card(returning)))
    return block("being played", line, fold=None)


def header(view: Card, ctx: RenderContext) -> Text:
    """``Army of Darkness · turn 12: P3's turn, step 2, attack · ...``."""
    turn = f"turn {view.get('turn')}"
    turn_of = view.get("turn_of")
    if not view.get("is_over") and isinstance(turn_of, int):
        # The step is the prompt's first words at a decision; the header keeps to one line.
        turn += f": {ctx.seat_name(turn_of)}'s turn"
    return header_text(view, ctx, turn)


def render_blocks(view: dict[str, JSON], ctx: RenderContext) -> list[Block]:
    rows = view.get("players")
    if not isinstance(rows, list) or not rows or not isinstance(rows[0], Mapping) or "needs" not in rows[0]:
        return generic_blocks(view, ctx)  # a view this renderer does not understand: show it all
    blocks = [block("header", header(view, ctx), fold=None), players_block(view, ctx), piles_block(view)]
    removed = _cards(view.get("removed"))
    if removed:
        blocks.append(
            block(
                "removed",
                Flow(titles(removed), head=Text("Removed from the game (never used): ", style="dim"), indent=4),
                watch=("removed",),
                fold=1,
            )
        )
    for extra in (playing_block(view), hand_block(view, ctx)):
        if extra is not None:
            blocks.append(extra)
    return blocks
