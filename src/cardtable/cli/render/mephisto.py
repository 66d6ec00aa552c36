"""Mephisto's table for a terminal, drawn from the view alone, as cards on a table.

The view turns the dungeon so the viewing seat sits at the bottom (``dungeon.rows``: far row first,
lanes 1..3 left to right). The board is a grid: the player across the table (their weapons over the
lanes they fight in), the dungeon's rows, the viewing seat's weapons under their lanes, and each
lane's monsters' attack against the attack the seat would bring there. Then one line per player
(favor, soul points, hand, the cards beside their lanes and, for a player sitting at a side of the
3x3 dungeon, their weapons by row), the fight or the card being resolved, the discard pile, and the
viewing seat's hand.

Every card is a chip: its name, its printed numbers in a fixed order (C cost in favor, A attack,
D durability (left/printed on the table), R range, S souls), the id actions name it by (``#17``) and
its state (``used``). The full card, with its text, is one ``look`` away; a wide screen shows the
texts on the board and in the hand.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from cardtable.cli.render import RenderContext
from cardtable.cli.render.faces import Face, Flow, Labeled, Number, chip, units
from cardtable.cli.render.generic import header_text
from cardtable.cli.render.generic import render_blocks as generic_blocks
from cardtable.cli.screen import Block, Form, block
from cardtable.engine.game import JSON

Card = Mapping[str, JSON]

SITS = {"across the table": "across", "on your left": "on your left", "on your right": "on your right"}
"""Where a player sits, in few words."""
LEGEND = "C cost (favor) · A attack · D durability (left/printed) · R range · S souls"
BANDS = {"monster": "red", "weapon": "yellow", "item": "cyan", "spell": "magenta"}
NUMBERS = (
    ("cost", "C", "cost", "yellow", "tl"),
    ("attack", "A", "attack", "red", "tr"),
    ("durability", "D", "durability", "cyan", "bl"),
    ("range", "R", "range", "blue", "br"),
    ("souls", "S", "souls", "magenta", "br"),
)
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
"""Shorter words for card texts on a crowded board (``look`` shows the card's own words)."""


def brief(text: str) -> str:
    for long, short in ABBREVIATIONS:
        text = text.replace(long, short)
    return text


def face(card: Card, ctx: RenderContext | None = None) -> Face:
    """A Mephisto card as printed: cost top left, attack top right, durability bottom left, range
    (a weapon) or souls (a monster) bottom right; on the table its durability left and whether it
    was used this turn, and the cards attached to it."""
    kind = str(card.get("type", ""))
    numbers = []
    for key, short, long, style, corner in NUMBERS:
        value = card.get(key)
        if not isinstance(value, int) or isinstance(value, bool):
            continue
        if key == "durability" and isinstance(card.get("durability_left"), int):
            numbers.append(
                Number(
                    f"D{card['durability_left']}/{value}",
                    f"durability {card['durability_left']} of {value}",
                    style,
                    corner,
                )
            )
        else:
            numbers.append(Number(f"{short}{value}", f"{long} {value}", style, corner))
    state = ("used",) if card.get("activated_this_turn") else ()
    under = tuple(("attached", face(a)) for a in card.get("attached") or [] if isinstance(a, Mapping))
    mark = card.get("id")
    return Face(
        name=str(card.get("name")),
        kind=kind,
        band=BANDS.get(kind, "white"),
        numbers=tuple(numbers),
        text=str(card.get("text") or ""),
        state=state,
        mark=mark if isinstance(mark, int) else None,
        under=under,
    )


def _cards(value: JSON) -> list[Card]:
    return [c for c in value if isinstance(c, Mapping)] if isinstance(value, list) else []


def _ids(cards: Sequence[Card]) -> set[int]:
    out: set[int] = set()
    for c in cards:
        if isinstance(c.get("id"), int):
            out.add(int(c["id"]))
        out |= _ids(_cards(c.get("attached")))
    return out


def card_units(card: Card, text: bool = False) -> Flow:
    """A card in a cell: its chip, wrapping between name and numbers, never inside either; with
    ``text``, the card's words (shortened) under it."""
    f = face(card)
    flow = Flow(units(f), sep=" ", indent=1)
    if not text or not f.text:
        return flow
    return Flow([*units(f), Text(brief(f.text), style="dim")], sep=" ", indent=1)


def _column(lane_text: JSON) -> int | None:
    """The viewing seat's lane a weapon fights in, from the view's words: ``lane 2`` or ``lane 1
    (P1's lane 3)``; None for a player at the side (``P1's lane 2 (the middle row)``)."""
    m = re.match(r"lane ([123])\b", str(lane_text or ""))
    return int(m.group(1)) if m else None


def _row_name(lane_text: JSON) -> str:
    """``P1's lane 2 (the middle row)`` -> ``middle row``."""
    m = re.search(r"\(the ([^)]*)\)", str(lane_text or ""))
    return m.group(1) if m else str(lane_text or "")


def _weapons_row(player: Card, text: bool) -> list[RenderableType]:
    cells: list[list[Card]] = [[], [], []]
    for c in _cards(player.get("in_play")):
        lane = _column(c.get("lane"))
        if lane is not None:
            cells[lane - 1].append(c)
    out: list[RenderableType] = []
    for cards in cells:
        if not cards:
            out.append(Text("·", style="dim"))
            continue
        parts: list[RenderableType] = []
        for c in cards:
            parts.append(card_units(c, text))
            for a in _cards(c.get("attached")):
                parts.append(Flow([Text("└", style="dim"), *units(face(a))], sep=" ", indent=2))
        out.append(Group(*parts))
    return out


def _lanes_row(view: Card) -> list[RenderableType] | None:
    lanes = [x for x in view.get("your_lanes") or [] if isinstance(x, Mapping)]
    if len(lanes) != 3:
        return None
    out: list[RenderableType] = []
    for info in lanes:
        monsters = info.get("monster_attack")
        if not monsters:
            out.append(Text("no monsters", style="dim"))
            continue
        mine = info.get("your_attack")
        style = "bold green" if isinstance(mine, int) and isinstance(monsters, int) and mine >= monsters else "bold"
        out.append(Text.assemble((f"{monsters}", "bold red"), " vs your ", (f"{mine}", style)))
    return out


def dungeon(view: Card, ctx: RenderContext, text: bool) -> RenderableType | None:
    dungeon = view.get("dungeon")
    rows = dungeon.get("rows") if isinstance(dungeon, Mapping) else None
    if not isinstance(rows, list) or not rows or not all(isinstance(r, list) for r in rows):
        return None
    players = [p for p in view.get("players") or [] if isinstance(p, Mapping)]
    table = Table(box=None, show_header=True, header_style="bold", expand=True, padding=(0, 1), pad_edge=False)
    table.add_column("", no_wrap=True, style="dim")
    for lane in (1, 2, 3):
        table.add_column(f"lane {lane}", ratio=1)
    across = [p for p in players if p.get("sits") == "across the table"]
    for p in across:
        if any(_column(c.get("lane")) for c in _cards(p.get("in_play"))):
            table.add_row(Text(f"{p.get('name')}'s", style="bold"), *_weapons_row(p, text))
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
                cells.append(Text(f"dungeon deck: {cell['deck']}", style="bold cyan"))
            elif "face_down" in cell:
                cells.append(Text("▒ face-down corner", style="dim"))
            elif isinstance(card, Mapping):
                cells.append(card_units(card, text))
            else:
                cells.append(Text("(empty)", style="dim"))
        table.add_row(Text(place), *cells)
    me = [p for p in players if p.get("sits") == "you"]
    if me and any(_column(c.get("lane")) for c in _cards(me[0].get("in_play"))):
        table.add_row(Text("yours", style="bold green"), *_weapons_row(me[0], text))
    totals = _lanes_row(view)
    if totals is not None:
        table.add_row(Text("attack"), *totals)
    return table


def _player_line(p: Card, seat: int, ctx: RenderContext, current: JSON, full: bool) -> Flow:
    name = str(p.get("name"))
    sits = p.get("sits")
    where = SITS.get(str(sits), str(sits))
    who = name + (" (you)" if sits == "you" else f" ({where})" if isinstance(sits, str) else "")
    if isinstance(p.get("team"), str):
        who += f" [{p['team']}]"
    head = Text(("▶ " if seat == current else "  ") + who + ": ", style="bold green" if sits == "you" else "bold")
    items: list[Text | Labeled] = [
        Text(f"favor {p.get('favor')}", style="yellow"),
        Text(f"soul points {p.get('soul_points')}", style="magenta"),
        Text(f"{p.get('cards_in_hand')} in hand"),
    ]
    bonus = p.get("attack_bonus_this_turn")
    if isinstance(bonus, int) and bonus:
        items.append(Text(f"+{bonus} attack this turn", style="red"))
    side_weapons = []
    beside = []
    for c in _cards(p.get("in_play")):
        if c.get("type") == "weapon" and _column(c.get("lane")) is None and sits != "you":
            side_weapons.append(Text.assemble(chip(face(c)), (f" in the {_row_name(c.get('lane'))}", "dim")))
        elif c.get("type") != "weapon":
            beside.append(chip(face(c)))
    if beside:
        items.append(Labeled("beside the lanes: ", beside))
    items += side_weapons
    souls = _cards(p.get("souls"))
    if souls and full:
        items.append(Labeled("souls: ", [chip(face(s), mark=False) for s in souls]))
    elif souls:
        items.append(Text(f"{len(souls)} soul{'s' if len(souls) != 1 else ''}", style="dim"))
    known = _cards(p.get("known_in_hand"))
    if known:
        items.append(Labeled("known in hand: ", [chip(face(k)) for k in known]))
    return Flow(items, head=head, indent=4)


def players_block(view: Card, ctx: RenderContext) -> Block | None:
    players = [p for p in view.get("players") or [] if isinstance(p, Mapping)]
    if not players:
        return None
    current = view.get("current_player")
    # The viewing seat last, next to its hand.
    order = sorted(range(len(players)), key=lambda s: players[s].get("sits") == "you")
    full = Group(*(_player_line(players[s], s, ctx, current, True) for s in order))
    short = Group(*(_player_line(players[s], s, ctx, current, False) for s in order))
    cards = set().union(*(_ids(_cards(p.get("in_play"))) | _ids(_cards(p.get("known_in_hand"))) for p in players))
    return block("players", full, Form(short, 2), watch=("players",), fold=32, cards=frozenset(cards))


def fight_block(view: Card) -> Block | None:
    fight = view.get("fight")
    if not isinstance(fight, Mapping):
        return None
    monsters = [chip(face(c)) for c in _cards(fight.get("monsters"))]
    weapons = [chip(face(c)) for c in _cards(fight.get("weapons"))]
    parts: list[RenderableType] = [
        Flow(
            monsters or [Text("none chosen yet", style="dim")],
            head=Text(f"Fight: {fight.get('fighter')} in {fight.get('lane')} against ", style="bold red"),
            indent=4,
        ),
        Flow(
            weapons or [Text("none chosen", style="dim")],
            head=Text(f"  with (attack {fight.get('attack')} from {fight.get('attack_from')}): ", style="bold"),
            indent=4,
        ),
        Text("  " + str(fight.get("summary")), style="bold yellow"),
    ]
    ids = _ids(_cards(fight.get("monsters"))) | _ids(_cards(fight.get("weapons")))
    return block("fight", Group(*parts), fold=None, cards=frozenset(ids))


def resolving_block(view: Card) -> Block | None:
    res = view.get("resolving")
    if not isinstance(res, Mapping) or not isinstance(res.get("card"), Mapping):
        return None
    card = res["card"]
    assert isinstance(card, Mapping)
    f = face(card)
    line = Flow(
        [chip(f), Text(f"— {res.get('status')}", style="italic")],
        sep=" ",
        head=Text("Resolving: ", style="bold"),
        indent=4,
    )
    with_text = Group(line, Flow([Text(f.text, style="dim")], head=Text("  "), indent=2)) if f.text else line
    return block("resolving", with_text, line, fold=None, cards=frozenset(_ids([card])))


def discard_block(view: Card) -> Block:
    pile = _cards(view.get("discard_pile"))
    if not pile:
        return block("discard", Text("Discard pile: empty", style="dim"), watch=("discard_pile",), fold=3)
    newest = list(reversed(pile))
    every = Flow([chip(face(c)) for c in newest], head=Text(f"Discard pile ({len(pile)}, newest first): ", style="dim"))
    few = Flow(
        [chip(face(c)) for c in newest[:4]]
        + ([Text(f"and {len(pile) - 4} more", style="dim")] if len(pile) > 4 else []),
        head=Text(f"Discard pile ({len(pile)}, newest first): ", style="dim"),
    )
    return block("discard", every, few, watch=("discard_pile",), fold=3, cards=frozenset(_ids(pile)))


def hand_block(view: Card, ctx: RenderContext) -> Block | None:
    hand = _cards(view.get("hand"))
    if ctx.seat is None or "hand" not in view:
        return None
    title = Text(f"Your hand ({len(hand)})", style="bold green")
    if not hand:
        return block("hand", Text.assemble(title, ": empty"), fold=None)
    table = Table(box=None, pad_edge=False, show_edge=False, expand=True, show_header=False, padding=(0, 1))
    table.add_column("card", no_wrap=True)
    table.add_column("text", ratio=1)
    for c in hand:
        f = face(c)
        table.add_row(chip(f), Text(f.text, style="dim"))
    chips = Flow([chip(face(c)) for c in hand], head=Text.assemble(title, ": "), indent=2)
    return block("hand", Group(title, table), Form(chips, 2), fold=None, cards=frozenset(_ids(hand)))


def status_text(view: Card) -> Text:
    """How the game will end (and the solitaire ranking so far)."""
    progress = view.get("progress")
    parts: list[Text] = []
    team = re.search(r"\((.*)\)$", str(view.get("whose_turn") or ""))
    if team:
        parts.append(Text(team.group(1), style="cyan"))
    if isinstance(progress, Mapping):
        if progress.get("ranking"):
            parts.append(Text(f"ranking: {progress['ranking']}", style="cyan"))
        parts.append(Text(f"the end: {progress.get('end')}", style="dim"))
    return Text(" · ").join(parts)


def turn_text(view: Card) -> str:
    """``turn 12: P2's turn · deck 30 (pass 1 of 1)``: the header's words (a team's turn without the
    words on who still acts, which the status line says)."""
    progress = view.get("progress")
    deck = (
        f" · deck {progress.get('deck')} (pass {progress.get('pass_through_deck')})"
        if isinstance(progress, Mapping)
        else ""
    )
    return re.sub(r" \(.*\)$", "", str(view.get("whose_turn") or "")) + deck


def render_blocks(view: dict[str, JSON], ctx: RenderContext) -> list[Block]:
    board_text = dungeon(view, ctx, True)
    board = dungeon(view, ctx, False)
    players = players_block(view, ctx)
    if board is None or board_text is None or players is None:  # a view this module does not know
        return generic_blocks(view, ctx)
    head = header_text(view, ctx, turn_text(view))
    blocks = [block("header", head, fold=None), block("status", status_text(view), watch=("progress",), fold=4)]
    cells = view.get("dungeon")
    ids: set[int] = set()
    if isinstance(cells, Mapping):
        for row in cells.get("rows") or []:
            for cell in row if isinstance(row, list) else []:
                if isinstance(cell, Mapping) and isinstance(cell.get("card"), Mapping):
                    ids |= _ids([cell["card"]])
    seen = cells.get("seen_from") if isinstance(cells, Mapping) else None
    title = Text("Dungeon" + (f", seen from {seen}" if isinstance(seen, str) else ""), style="bold")
    blocks.append(
        block(
            "dungeon",
            Group(title, board_text),
            Form(board, 1),
            watch=("dungeon", "your_lanes", "players"),
            fold=35,
            cards=frozenset(ids),
        )
    )
    blocks.append(players)
    for extra in (fight_block(view), resolving_block(view)):
        if extra is not None:
            blocks.append(extra)
    blocks.append(discard_block(view))
    hand = hand_block(view, ctx)
    if hand is not None:
        blocks.append(hand)
    return blocks
