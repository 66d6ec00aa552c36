"""Army of Darkness's table: two lines per player, so 2 to 8 players fit a 50-row screen.

Each player gets a line with her cards in front of her (titles with counts: copies of a title are
alike under these rules, and the choices list names the card ids) and a line with what she still
needs to win; beside them her seat, hand size and character. Below come the deck and the discard
pile on one line, the card being played, the viewing seat's own hand (ids, and each event's text),
and the prompt. Only the view is read. Zones in ``ctx.fold`` (unchanged since the seat's last
decision) are drawn as one line, never the seat's own hand or the prompt.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from cardtable.cli.render import RenderContext
from cardtable.cli.render.generic import folded_line
from cardtable.cli.render.generic import render_view as generic_view
from cardtable.engine.game import JSON

ZONES = (("monsters", "monsters"), ("allies", "allies"), ("items", "items"), ("known_in_hand", "in hand, face up"))
HAND_GROUPS = ((("monster",), "monsters"), (("ally",), "allies"), (("item", "necronomicon"), "items"))
GROUPED = {kind for kinds, _ in HAND_GROUPS for kind in kinds}
SIDE_STYLE = {"good": "bright_white", "evil": "red"}


def _cards(value: JSON) -> list[Mapping[str, JSON]]:
    return [c for c in value if isinstance(c, Mapping)] if isinstance(value, list) else []


def _card(card: Mapping[str, JSON]) -> Text:
    """``Deadite #8``: the title, and the id that actions name (dim)."""
    return Text.assemble(str(card.get("name")), (f" #{card.get('id')}", "dim"))


def _joined(parts: Sequence[Text], sep: str = ", ") -> Text:
    out = Text()
    for i, part in enumerate(parts):
        if i:
            out.append(sep, style="dim")
        out.append_text(part)
    return out


def titles(cards: Sequence[Mapping[str, JSON]]) -> list[Text]:
    """Titles with counts, in order of first appearance: ``Deadite x2``, ``Pit Witch``."""
    counts: dict[str, int] = {}
    for c in cards:
        name = str(c.get("name"))
        counts[name] = counts.get(name, 0) + 1
    return [Text(name + (f" x{n}" if n > 1 else "")) for name, n in counts.items()]


def tabled(row: Mapping[str, JSON]) -> Text:
    """A player's cards in front of her, zone by zone: ``monsters: Deadite x2 · items: Boomstick``."""
    zones: list[Text] = []
    for key, label in ZONES:
        cards = _cards(row.get(key))
        if cards:
            zones.append(Text.assemble((f"{label}: ", "dim"), _joined(titles(cards))))
    return _joined(zones, " · ") if zones else Text("nothing in front of her", style="dim")


class Beside:
    """Two texts on one line (``first · second``) when they fit the width given, else on two lines:
    a player takes one line when her table and her needs are short."""

    def __init__(self, first: Text, second: Text) -> None:
        self.first = first
        self.second = second

    def _joined(self) -> Text:
        return Text.assemble(self.first, ("  ▸ ", "dim"), self.second)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        joined = self._joined()
        if joined.cell_len <= options.max_width:
            yield joined
        else:
            yield self.first
            yield self.second

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self._joined())


def players_table(view: Mapping[str, JSON], ctx: RenderContext) -> Table:
    """Two lines per player: who she is, her hand size and character; the cards in front of her,
    and what she still needs to win (and, with an empty hand, when she switches sides)."""
    table = Table(box=None, pad_edge=False, show_edge=False, expand=True, padding=(0, 1), show_header=False)
    table.add_column("player", no_wrap=True)
    table.add_column("table", ratio=1)
    current = view.get("current_player")
    for seat, row in enumerate(r for r in view.get("players") or [] if isinstance(r, Mapping)):
        side = str(row.get("side", ""))
        hand = row.get("hand_size")
        who = Text.assemble(
            ("▶ " if seat == current else "  ", "yellow"),
            (ctx.who(seat), "bold green" if seat == ctx.seat else "bold"),
            (f" · {hand} card{'' if hand == 1 else 's'}", "dim"),
            "\n  ",
            (str(row.get("character", "")), SIDE_STYLE.get(side, "")),
        )
        needs = Text(str(row.get("needs", "")), style="cyan")
        if row.get("switching"):
            needs.append(" · " + str(row["switching"]), style="magenta")
        table.add_row(who, Beside(tabled(row), needs))
    return table


def pile(title: str, cards: Sequence[Mapping[str, JSON]]) -> Text:
    """A pile as titles with counts, newest first."""
    body = _joined(titles(list(reversed(cards))), " · ") if cards else Text("empty", style="dim")
    return Text.assemble((f"{title} ({len(cards)}): ", "bold"), body)


def one_line(text: Text) -> Text:
    """``text`` kept to one line, cut with an ellipsis."""
    text.no_wrap = True
    text.overflow = "ellipsis"
    return text


def hand_lines(cards: Sequence[Mapping[str, JSON]]) -> list[RenderableType]:
    """The seat's own hand: a title line with the monsters, allies and items grouped by type (with
    the ids that ``play card=N`` takes), then each event on a line of its own with what it does."""
    title = Text(f"Your hand ({len(cards)}): ", style="bold green")
    groups: list[Text] = []
    for kinds, label in HAND_GROUPS:
        # Only an event's words say what that card does; the others' words are their type's (Rules of
        # Kalle), the same for every card of a type: `look` shows them.
        of_kind = [c for c in cards if c.get("type") in kinds]
        if of_kind:
            groups.append(Text.assemble((f"{label}: ", "dim"), _joined([_card(c) for c in of_kind])))
    title.append_text(_joined(groups, " · ") if groups else Text("no cards" if not cards else "", style="dim"))
    lines: list[RenderableType] = [title]
    events = Table.grid(padding=(0, 1))
    events.add_column(no_wrap=True)
    events.add_column()
    for c in cards:
        if c.get("type") not in GROUPED:
            kind = "" if c.get("type") == "event" else f" ({c.get('type')})"
            events.add_row(Text("  ").append_text(_card(c)).append(kind + ":", style="dim"), str(c.get("text") or ""))
    if events.row_count:
        lines.append(events)
    return lines


def header(view: Mapping[str, JSON], ctx: RenderContext) -> Text:
    """``Army of Darkness · turn 12 · P3's turn: step 2, attack · you are P1``."""
    title = (ctx.game.title or ctx.game.id).split(" (")[0]
    parts: list[tuple[str, str]] = [(title, "bold"), (f" · turn {view.get('turn')}", "")]
    turn_of = view.get("turn_of")
    if view.get("is_over"):
        parts.append((" · game over", "bold red"))
    elif isinstance(turn_of, int):
        parts.append((f" · {ctx.seat_name(turn_of)}'s turn: {view.get('step')}", "yellow"))
    parts.append((f" · you are {ctx.seat_name(ctx.seat)}" if ctx.seat is not None else " · spectator", "cyan"))
    return one_line(Text.assemble(*parts))


def render_view(view: dict[str, JSON], ctx: RenderContext) -> RenderableType:
    rows = view.get("players")
    if not isinstance(rows, list) or not rows or not isinstance(rows[0], Mapping) or "needs" not in rows[0]:
        return generic_view(view, ctx)  # a view this renderer does not understand: show it all
    fold = ctx.fold
    folded: list[str] = []
    parts: list[RenderableType] = [header(view, ctx)]
    if "players" in fold:
        folded.append("players")
    else:
        parts.append(players_table(view, ctx))
    # The removed cards never change and play no part: their number is enough here (`view` shows
    # them by name).
    removed = len(_cards(view.get("removed")))
    facts = Text.assemble(("deck: ", "bold"), f"{view.get('deck_size')} cards · ", ("removed: ", "bold"), f"{removed}")
    # Never folded: it shares its one line with the deck, so folding it would save nothing.
    facts = _joined([facts, pile("discard pile, newest first", _cards(view.get("discard")))], " · ")
    parts.append(one_line(facts))
    playing = view.get("being_played")
    # An item, ally or monster being placed is named by the prompt; an event's line says what it does.
    is_event = isinstance(playing, Mapping) and playing.get("type") not in GROUPED
    if isinstance(playing, Mapping) and (is_event or isinstance(view.get("returning"), Mapping)):
        line = Text.assemble(("being played: ", "bold"), _card(playing))
        if is_event and playing.get("text"):
            line.append(f": {playing['text']}")
        returning = view.get("returning")
        if isinstance(returning, Mapping):
            line.append_text(Text.assemble(("   coming back: ", "bold"), _card(returning)))
        parts.append(line)
    if ctx.seat is not None:
        parts.extend(hand_lines(_cards(view.get("hand"))))
    if folded:
        parts.append(folded_line(folded, ctx.fold_note))
    prompt = view.get("prompt")
    if isinstance(prompt, str) and prompt:
        parts.append(Text(prompt, style="bold yellow"))
    return Group(*parts)
