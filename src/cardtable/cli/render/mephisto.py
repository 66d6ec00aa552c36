"""Mephisto's table for a terminal, drawn from the view alone.

The view already turns the dungeon so the viewing seat sits at the bottom (``dungeon.rows``: far row
first, lanes 1..3 left to right), so this module only lays things out, compactly enough that a
decision's screen (with the events and the numbered choices the CLI adds) fits a 50-row terminal:

* a status line (whose turn, the deck and the end of the game, the solitaire ranking);
* the dungeon as a 2x3 or 3x3 grid of cells (name, numbers, the start of the card's text);
* one row per player (favor, soul points, souls, hand, cards in play);
* over each lane, the monsters' attack there against the attack the viewing seat would bring; the
  open fight with its totals, the card being paid for or resolved, the discard pile;
* the viewing seat's hand with every card's numbers and text (a few set phrases shortened), then the
  prompt.

Zones named in ``ctx.fold`` (unchanged since the seat's last decision) shrink to one line; the hand
and the prompt never do. A view this module does not recognise is drawn by the generic renderer.
"""

from __future__ import annotations

from collections.abc import Mapping

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from cardtable.cli.render import RenderContext
from cardtable.cli.render.generic import folded_line, header, label
from cardtable.cli.render.generic import render_view as generic_view
from cardtable.engine.game import JSON

NUMBERS = (
    ("cost", "cost {}"),
    ("attack", "{} atk"),
    ("durability", "dur {}"),
    ("range", "range {}"),
    ("souls", "{} souls"),
)


def numbers(card: Mapping[str, JSON]) -> str:
    """``weapon · cost 1 · 4 atk · dur 3 · range 2``: a card's type and printed numbers."""
    parts = [form.format(card[key]) for key, form in NUMBERS if isinstance(card.get(key), int)]
    return " · ".join([str(card.get("type", "")), *parts])


CELL_WIDTH = 28
"""About the width of a dungeon cell on a 100-column terminal: a cell shows two lines of text."""
ABBREVIATIONS = (
    ("When it enters the dungeon: ", "Enters: "),
    ("Once you have defeated it, ", "Defeated, "),
    ("Once you have defeated it: ", "Defeated: "),
    ("Activate (1 durability, once a turn): ", "Activate: "),
    ("whenever you ", "when you "),
    (" in every fight you make", " in every fight"),
    (" in your fight this turn", " this turn"),
    ("remove 1 durability from an opponent's item or weapon", "-1 durability to a foe's item/weapon"),
    ("each opponent", "each foe"),
    ("every player", "everyone"),
)
"""Shorter words for the table's cards (the view keeps the full text; `view` in the CLI shows it)."""


def cell_text(text: str) -> str:
    for long, brief in ABBREVIATIONS:
        text = text.replace(long, brief)
    return text


def wrapped(numbers: str, width: int = 24) -> str:
    """``numbers`` broken into lines of at most about ``width`` characters, only between the units
    (``weapon · cost 2 · 6 atk`` / ``dur 2 · range 2``), never inside one."""
    lines: list[str] = []
    for unit in numbers.split(" · "):
        if lines and len(lines[-1]) + 3 + len(unit) <= width:
            lines[-1] += " · " + unit
        else:
            lines.append(unit)
    return "\n".join(lines)


def short(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def card_label(card: Mapping[str, JSON]) -> Text:
    return Text.assemble((str(card.get("name")), "bold"), (f" #{card.get('id')}", "dim"))


def lane_heading(view: Mapping[str, JSON], lane: int) -> str:
    """``lane 2: 12 vs your 7``: a lane's monsters' attack against the attack the viewing seat would
    bring there with all its weapons (no favor), when the view gives them."""
    lanes = view.get("your_lanes")
    if isinstance(lanes, list) and len(lanes) >= lane and isinstance(lanes[lane - 1], Mapping):
        info = lanes[lane - 1]
        if info.get("monster_attack"):
            return f"lane {lane}: {info.get('monster_attack')} vs your {info.get('your_attack')}"
    return f"lane {lane}"


def dungeon_grid(view: Mapping[str, JSON]) -> RenderableType | None:
    dungeon = view.get("dungeon")
    rows = dungeon.get("rows") if isinstance(dungeon, Mapping) else None
    if not isinstance(rows, list) or not rows or not all(isinstance(r, list) for r in rows):
        return None
    table = Table(box=box.SQUARE, show_lines=True, expand=True, padding=(0, 1))
    table.add_column("", style="dim", no_wrap=True, width=6)
    for lane in (1, 2, 3):
        table.add_column(lane_heading(view, lane), ratio=1, overflow="fold")
    for row in rows:
        cells: list[RenderableType] = []
        place = ""
        for cell in row:
            if not isinstance(cell, Mapping):
                cells.append(Text(""))
                continue
            place = str(cell.get("place", place))
            card = cell.get("card")
            if "deck" in cell:
                cells.append(Text(f"dungeon deck\n{cell['deck']} cards", style="cyan", justify="center"))
            elif "face_down" in cell:
                cells.append(Text("face-down corner\n(out of play)", style="dim", justify="center"))
            elif isinstance(card, Mapping):
                stats = numbers(card).split(" · ", 1)[-1]  # the type shows in the text: keep the numbers
                body = Text.assemble(card_label(card), " ", (stats, "yellow"))
                words = cell_text(str(card.get("text") or ""))
                if words:
                    body.append("\n" + short(words, CELL_WIDTH * 2), style="dim")
                cells.append(body)
            else:
                cells.append(Text("(empty)", style="dim"))
        table.add_row(Text(place), *cells)
    seen = dungeon.get("seen_from") if isinstance(dungeon, Mapping) else None
    title = "Dungeon" + (f", seen from {seen}" if isinstance(seen, str) else "")
    return Group(Text(title, style="bold"), table)


def _cards_line(cards: JSON, limit: int = 60) -> str:
    if not isinstance(cards, list) or not cards:
        return "-"
    names = [f"{c.get('name')} #{c.get('id')}" for c in cards if isinstance(c, Mapping)]
    return short(", ".join(names), limit)


def _in_play_line(cards: JSON) -> str:
    """``Greataxe #25 lane 2 (4 atk, 2/3)``: each card in play, where it is and what is left of it."""
    if not isinstance(cards, list) or not cards:
        return "-"
    out = []
    for c in cards:
        if not isinstance(c, Mapping):
            continue
        where = f" {c['lane']}" if isinstance(c.get("lane"), str) else ""
        attack = f"{c['attack']} atk, " if isinstance(c.get("attack"), int) else ""
        used = ", used" if c.get("activated_this_turn") else ""
        under = f" +{_cards_line(c.get('attached'), 30)}" if c.get("attached") else ""
        left = f"{c.get('durability_left')}/{c.get('durability')}"
        out.append(f"{c.get('name')} #{c.get('id')}{where} ({attack}{left}{used}){under}")
    return "; ".join(out)


def players_table(view: Mapping[str, JSON], ctx: RenderContext) -> RenderableType | None:
    players = view.get("players")
    if not isinstance(players, list):
        return None
    table = Table(box=None, pad_edge=False, show_edge=False, expand=True)
    table.add_column("player", no_wrap=True, style="bold")
    table.add_column("favor", justify="right", no_wrap=True)
    table.add_column("souls", justify="right", no_wrap=True)
    table.add_column("hand", justify="right", no_wrap=True)
    table.add_column("in play, collected, known in hand", overflow="fold", ratio=1)
    current = view.get("current_player")
    for seat, p in enumerate(players):
        if not isinstance(p, Mapping):
            continue
        name = str(p.get("name"))
        if isinstance(p.get("team"), str):
            name += f" [{p['team']}]"
        sits = p.get("sits")
        name += " (you)" if sits == "you" else f" ({sits})" if isinstance(sits, str) else ""
        if seat == current:
            name = "▶ " + name
        cards = []
        if p.get("in_play"):
            cards.append("in play: " + _in_play_line(p.get("in_play")))
        bonus = p.get("attack_bonus_this_turn")
        if isinstance(bonus, int) and bonus:
            cards.append(f"+{bonus} attack this turn")
        if p.get("souls"):
            cards.append("collected: " + _cards_line(p.get("souls"), 80))
        if p.get("known_in_hand"):
            cards.append("known in hand: " + _cards_line(p.get("known_in_hand"), 80))
        table.add_row(
            name,
            str(p.get("favor")),
            str(p.get("soul_points")),
            str(p.get("cards_in_hand")),
            "; ".join(cards) or "-",
            style="green" if seat == ctx.seat else None,
        )
    return table


def fight_block(view: Mapping[str, JSON]) -> RenderableType | None:
    fight = view.get("fight")
    if not isinstance(fight, Mapping):
        return None
    monsters = _cards_line(fight.get("monsters"))
    weapons = _cards_line(fight.get("weapons"))
    return Text.assemble(
        (f"Fight: {fight.get('fighter')} in {fight.get('lane')}: ", "bold red"),
        f"monsters {'none chosen yet' if monsters == '-' else monsters} (need {fight.get('needed')}); ",
        f"weapons {'none chosen' if weapons == '-' else weapons}; attack {fight.get('attack')} "
        f"({fight.get('attack_from')})\n",
        ("  " + str(fight.get("summary")), "bold yellow"),
    )


def resolving_line(view: Mapping[str, JSON]) -> RenderableType | None:
    res = view.get("resolving")
    if not isinstance(res, Mapping) or not isinstance(res.get("card"), Mapping):
        return None
    card = res["card"]
    assert isinstance(card, Mapping)
    return Text.assemble(
        ("Resolving: ", "bold"),
        card_label(card),
        f" ({numbers(card)}) — {res.get('status')}",
        ("\n  " + str(card.get("text")), "dim") if card.get("text") else "",
    )


def discard_line(view: Mapping[str, JSON]) -> RenderableType:
    pile = view.get("discard_pile")
    count = len(pile) if isinstance(pile, list) else 0
    if not count:
        return Text("Discard pile: empty", style="dim")
    assert isinstance(pile, list)
    newest = [c for c in pile[-6:] if isinstance(c, Mapping)]
    names = ", ".join(f"{c.get('name')} #{c.get('id')}" for c in reversed(newest))
    more = f", … ({count - len(newest)} more)" if count > len(newest) else ""
    return Text(f"Discard pile ({count}), newest first: {names}{more}", style="dim")


def hand_table(view: Mapping[str, JSON], ctx: RenderContext) -> RenderableType | None:
    hand = view.get("hand")
    if ctx.seat is None or not isinstance(hand, list):
        return None
    if not hand:
        return Text("Your hand: empty", style="green")
    table = Table(box=None, pad_edge=False, show_edge=False, expand=True)
    table.add_column("#", justify="right", style="dim", no_wrap=True)
    table.add_column("card", style="bold", no_wrap=True)
    table.add_column("numbers", style="yellow", no_wrap=True)
    # A big hand gets one line a card (the text cut short; `view` shows it all), so the screen still fits.
    big = len(hand) > BIG_HAND
    table.add_column("text", overflow="ellipsis" if big else "fold", no_wrap=big, ratio=1)
    for card in hand:
        if isinstance(card, Mapping):
            table.add_row(
                str(card.get("id")),
                str(card.get("name")),
                numbers(card) if big else wrapped(numbers(card)),
                cell_text(str(card.get("text", ""))),
            )
    return Group(Text(f"Your hand ({len(hand)})", style="bold green"), table)


def status_line(view: Mapping[str, JSON]) -> Text:
    progress = view.get("progress")
    parts = [str(view.get("whose_turn", ""))]
    if isinstance(progress, Mapping):
        parts.append(f"deck {progress.get('deck')} cards (pass {progress.get('pass_through_deck')})")
        parts.append(str(progress.get("end")))
        if progress.get("ranking"):
            parts.append(f"ranking: {progress['ranking']}")
    return Text(" · ".join(p for p in parts if p), style="cyan")


BIG_HAND = 6
"""More cards than this in the viewing seat's hand are drawn one line each."""
FOLDABLE = ("dungeon", "players", "discard_pile")


def render_view(view: dict[str, JSON], ctx: RenderContext) -> RenderableType:
    grid = dungeon_grid(view)
    players = players_table(view, ctx)
    if grid is None or players is None:  # a view this renderer does not understand
        return generic_view(view, ctx)
    folded = [k for k in FOLDABLE if k in ctx.fold]
    parts: list[RenderableType] = [header(view, ctx), status_line(view)]
    if "dungeon" not in folded:
        parts.append(grid)
    if "players" not in folded:
        parts.append(players)
    for block in (fight_block(view), resolving_line(view)):
        if block is not None:
            parts.append(block)
    if "discard_pile" not in folded:
        parts.append(discard_line(view))
    hand = hand_table(view, ctx)
    if hand is not None:
        parts.append(hand)
    if folded:
        parts.append(folded_line([label(k) for k in folded], ctx.fold_note))
    prompt = view.get("prompt")
    if isinstance(prompt, str) and prompt:
        parts.append(Text(prompt, style="bold yellow"))
    return Group(*parts)
