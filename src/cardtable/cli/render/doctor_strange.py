"""Doctor Strange's table in a terminal: drawn from the view alone, to fit a 50-row screen.

From top to bottom: a header (turn, whose turn, the step, who decides), the victory line (the count
against the turn checks start, each side's checks without a viable character), one panel per side
(its hand size and characters with power, state in words and attachments; your side first), this
turn's attacks, the fight being resolved or the last one (dice, power, Power cards, helpers and
totals), the card being played, the piles in one or two lines (the newest discards; ``view`` shows
them all), what you have been shown of hidden cards (during a Go Back in Time search the choices
list the deck's cards), your hand (one row per card: what it is and
does), and the prompt. Zones the CLI reports unchanged since your last decision (``ctx.fold``) are
drawn as one line; your hand and the prompt never are.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cardtable.cli.render import RenderContext
from cardtable.cli.render.generic import folded_line
from cardtable.cli.render.generic import render_view as generic_view
from cardtable.engine.game import JSON

NEWEST_DISCARDS = 8
"""How many of the newest discards the piles line names."""

Card = Mapping[str, JSON]
WHEN = {"E": "Mystic Arts", "B": "Attack phase", "D": "defending", "R": "Rest", "X": "any time"}
"""An event's timing in a few words, by the rulebook's letter."""
CARD_ID = re.compile(r" \(card \d+\)")


def _cards(value: JSON) -> list[Card]:
    return [c for c in value if isinstance(c, Mapping)] if isinstance(value, list) else []


def _label(card: Card) -> str:
    return f"{card.get('name')} #{card.get('id')}"


def kind(card: Card) -> str:
    """The card's type, with an event's timing: ``Event, Rest (R)``."""
    text = str(card.get("type"))
    timing = card.get("timing")
    if isinstance(timing, str) and "(" in timing:
        letter = timing[timing.rfind("(") + 1 : timing.rfind(")")]
        text += f", {WHEN.get(letter, timing)} ({letter})"
    return text


def brief(card: Card) -> str:
    """What a card does, in one short line: ``+2 in a fight, defender only (DO)``."""
    sort = card.get("type")
    power = card.get("power")
    if sort == "Character":
        text = f"power {power}"
        extra = str(card.get("text", ""))
        if "(" in extra:  # the card list's aside
            text += " " + extra[extra.index("(") : extra.index(")") + 1]
    elif sort == "Power":
        role = card.get("role")
        text = f"+{power} in a fight" + (f", {role}" if role != "attacker or defender" else "")
    elif sort == "Attack":
        text = f"attack: the target is {card.get('fate')}"
    elif sort == "Event":
        text = str(card.get("text"))
    else:
        text = f"attach: +{power} power" + (" (one Location per character)" if sort == "Location" else "")
    player = card.get("player")
    if isinstance(player, str) and player != "either player":
        text += f" · {player.split(' player')[0]} only"
    return text


def hand_table(cards: Sequence[Card]) -> Table:
    table = Table(box=None, pad_edge=False, show_edge=False, expand=False)
    table.add_column("#", justify="right", style="dim", no_wrap=True)
    table.add_column("card", style="bold", no_wrap=True)
    table.add_column("type", no_wrap=True)
    table.add_column("what it does", overflow="fold")
    for c in cards:
        table.add_row(str(c.get("id")), str(c.get("name")), kind(c), brief(c))
    return table


def _side(view: Mapping[str, JSON], ctx: RenderContext, seat: int, name: str) -> RenderableType:
    rows = [r for r in _cards(view.get("table")) if r.get("side") == name]
    sizes = view.get("hand_sizes")
    held = sizes[seat] if isinstance(sizes, list) and seat < len(sizes) else "?"
    viable = sum(1 for r in rows if r.get("viable"))
    title = f"{ctx.who(seat)} · {held} cards in hand · {viable} viable character{'s' if viable != 1 else ''}"
    if not rows:
        body: RenderableType = Text("(no characters)", style="dim")
    else:
        table = Table(box=None, pad_edge=False, show_edge=False, expand=True)
        table.add_column("#", justify="right", style="dim", no_wrap=True)
        table.add_column("character", style="bold", no_wrap=True)
        table.add_column("power", no_wrap=True)
        table.add_column("state", overflow="fold", ratio=3)
        table.add_column("attached", overflow="fold", ratio=2)
        for r in rows:
            attached = ", ".join(str(a.get("name")) for a in _cards(r.get("attachments")))
            # The "#" column gives ids; in the state, names are enough (and keep rows to one line).
            state = CARD_ID.sub("", str(r.get("state")))
            style = None if r.get("viable") else "dim"
            table.add_row(
                str(r.get("id")),
                str(r.get("name")),
                f"{r.get('modified_power')} ({r.get('power')})",
                Text(state, style=style or ""),
                attached or "-",
            )
        body = table
    mine = seat == ctx.seat
    return Panel(body, title=Text(title), title_align="left", border_style="green" if mine else "white")


def _attacks(view: Mapping[str, JSON]) -> RenderableType | None:
    lines = []
    for a in view.get("attacks") or []:
        if not isinstance(a, Mapping):
            continue
        card = a.get("attack_card")
        target = a.get("target") or "(choosing a target)"
        with_card = f" with {card.get('name')} ({a.get('fate')} if it wins)" if isinstance(card, Mapping) else ""
        lines.append(f"{a.get('attacker')} → {target}{with_card}: {a.get('status')}")
    if not lines:
        return None
    return Text("Attacks this turn: " + " · ".join(lines))


def _fighter(side: Mapping[str, JSON]) -> str:
    parts = [f"roll {side.get('roll')}", f"power {side.get('power')}"]
    parts += [f"{c.get('name')} +{c.get('power')}" for c in _cards(side.get("power_cards"))]
    parts += [f"{h}" for h in side.get("helpers") or [] if isinstance(h, str)]
    return f"{side.get('player')} · {side.get('character')}: " + " + ".join(parts) + f" = {side.get('total')}"


def _fight(view: Mapping[str, JSON]) -> RenderableType | None:
    fight = view.get("fight")
    if not isinstance(fight, Mapping):
        return None
    atk, dfn = fight.get("attacker"), fight.get("defender")
    if not isinstance(atk, Mapping) or not isinstance(dfn, Mapping):
        return None
    card = fight.get("attack_card")
    what = (
        f"{card.get('name')}: the target is {fight.get('fate')} if the attack wins" if isinstance(card, Mapping) else ""
    )
    live = bool(fight.get("in_progress"))
    title = f"{'Fight' if live else 'Last fight'} (turn {fight.get('turn')}) · {what}"
    body = Group(
        Text("Attack  " + _fighter(atk)),
        Text("Defense " + _fighter(dfn)),
        Text(str(fight.get("result")), style="bold" if live else ""),
    )
    return Panel(body, title=Text(title), title_align="left", border_style="red" if live else "white")


def _piles(view: Mapping[str, JSON]) -> RenderableType:
    discard = _cards(view.get("discard"))
    newest = ", ".join(_label(c) for c in reversed(discard[-NEWEST_DISCARDS:]))
    older = len(discard) - NEWEST_DISCARDS
    more = f" (newest first, and {older} more)" if older > 0 else " (newest first)"
    text = Text.assemble(
        ("Deck ", "bold"),
        f"{view.get('deck_size')} cards · ",
        ("Discard ", "bold"),
        f"{len(discard)}" + (f": {newest}{more}" if discard else ""),
    )
    for key, title in (("killed", "Killed"), ("exiled", "Exiled")):
        pile = _cards(view.get(key))
        if pile:
            text.append(" · ")
            text.append(f"{title} ", style="bold")
            text.append(", ".join(_label(c) for c in pile))
    return text


def _known(view: Mapping[str, JSON]) -> RenderableType | None:
    parts = []
    hand = _cards(view.get("known_opponent_hand"))
    if hand:
        parts.append("in your opponent's hand: " + ", ".join(_label(c) for c in hand))
    deck = [d for d in view.get("known_deck") or [] if isinstance(d, Mapping)]
    if deck:
        parts.append(
            "in the deck: "
            + ", ".join(f"{d.get('from_top')}. {_label(d['card'])}" for d in deck if isinstance(d.get("card"), Mapping))
            + " (places from the top)"
        )
    if not parts:
        return None
    return Text("You know " + "; ".join(parts), style="cyan")


def header(view: Mapping[str, JSON], ctx: RenderContext) -> Text:
    parts: list[tuple[str, str]] = [("Doctor Strange", "bold"), (f"  ·  turn {view.get('turn')}", "")]
    if view.get("is_over"):
        parts.append(("  ·  game over", "bold red"))
    else:
        parts.append((f"  ·  {view.get('turn_of')}'s turn  ·  {view.get('step')}", ""))
        current = view.get("current_player")
        if isinstance(current, int):
            parts.append((f"  ·  {ctx.seat_name(current)} to decide", "yellow"))
    parts.append((f"  ·  you are {ctx.seat_name(ctx.seat)}" if ctx.seat is not None else "  ·  spectator", "cyan"))
    return Text.assemble(*parts)


def render_view(view: dict[str, JSON], ctx: RenderContext) -> RenderableType:
    names = view.get("seat_names")
    if not isinstance(names, list) or not isinstance(view.get("table"), list) or "victory" not in view:
        return generic_view(view, ctx)  # a view this renderer does not understand: show it all
    fold = ctx.fold
    parts: list[RenderableType] = [header(view, ctx)]
    folded: list[str] = []

    def zone(key: str, drawn: RenderableType | None, label: str) -> None:
        if drawn is None:
            return
        if key in fold:
            folded.append(label)
        else:
            parts.append(drawn)

    victory = view.get("victory")
    if isinstance(victory, Mapping):
        zone("victory", Text("Victory: " + str(victory.get("summary")), style="magenta"), "victory")
    order = list(range(len(names)))
    if ctx.seat is not None:
        order.sort(key=lambda s: s != ctx.seat)
    sides = Group(*(_side(view, ctx, s, str(names[s])) for s in order))
    zone("table", sides, "characters")
    zone("attacks", _attacks(view), "attacks")
    zone("fight", _fight(view), "fight")
    playing = view.get("playing")
    if isinstance(playing, Mapping):
        parts.append(Text.assemble(("Being played: ", "bold"), f"{_label(playing)} ({brief(playing)})"))
    piles_key = "discard" if all(k in fold for k in ("discard", "killed", "exiled")) else ""
    zone(piles_key, _piles(view), "piles")
    known = _known(view)
    if known is not None:
        parts.append(known)
    if folded:
        parts.append(folded_line(folded, ctx.fold_note))
    hand = _cards(view.get("hand"))
    if ctx.seat is not None:
        parts.append(
            Panel(
                hand_table(hand) if hand else Text("(empty)", style="dim"),
                title=Text(f"Your hand ({len(hand)})"),
                title_align="left",
                border_style="green",
            )
        )
    prompt = view.get("prompt")
    if isinstance(prompt, str) and prompt:
        parts.append(Text(prompt, style="bold yellow"))
    return Group(*parts)
