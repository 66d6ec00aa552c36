"""Doctor Strange's table in a terminal: drawn from the view alone, as cards on a table.

From top to bottom: a header (turn, whose turn, the step, who decides), the victory line, one block
per side (the player across first, yours next to your hand) with each character as a card: its
power (modified, with the printed power after it), its state in words, the cards attached under it
and the captives it holds under it; this turn's attacks; the fight being resolved or the last one
(dice, power, Power cards, helpers and totals); the card being played; the piles; what you have been
shown of hidden cards; your hand.

A card's chip: its name; ``P7`` its power (a character: modified, ``(6)`` printed); ``+2`` what a
Power card adds, an Item or a Location gives; ``⇒killed`` the fate an Attack card brings; an event's
timing; ``Evil only`` / ``Good only`` for a card one side only may play; ``#17`` the id actions name.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from cardtable.cli.render import RenderContext
from cardtable.cli.render.faces import Face, Flow, Labeled, Number, chip
from cardtable.cli.render.generic import header_text
from cardtable.cli.render.generic import render_blocks as generic_blocks
from cardtable.cli.screen import Block, Form, block
from cardtable.engine.game import JSON

NEWEST_DISCARDS = 6
"""How many of the newest discards the piles' compact form names."""

Card = Mapping[str, JSON]
LEGEND = (
    "P power (a character: now, then printed in brackets) · +N what a Power card adds or an Item or "
    "Location gives · ⇒ what an Attack does to its target if it wins · (E) (B) (D) (R) (X) an event's timing"
)
WHEN = {"E": "Mystic Arts", "B": "Attack phase", "D": "defending", "R": "Rest", "X": "any time"}
"""An event's timing in a few words, by the rulebook's letter."""
BANDS = {
    "Character": "green",
    "Power": "yellow",
    "Attack": "red",
    "Event": "magenta",
    "Item": "cyan",
    "Location": "blue",
}
CARD_ID = re.compile(r" \(card (\d+)\)")


def _cards(value: JSON) -> list[Card]:
    return [c for c in value if isinstance(c, Mapping)] if isinstance(value, list) else []


def kind(card: Card) -> str:
    """The card's type, with an event's timing: ``Event, Rest (R)``."""
    text = str(card.get("type"))
    letter = _timing(card)
    if letter:
        text += f", {WHEN.get(letter, letter)} ({letter})"
    return text


def _timing(card: Card) -> str:
    timing = card.get("timing")
    if isinstance(timing, str) and "(" in timing:
        return timing[timing.rfind("(") + 1 : timing.rfind(")")]
    return ""


def only(card: Card) -> str:
    """``Evil only`` for a card only the Evil player may play; empty for either player's."""
    player = card.get("player")
    if isinstance(player, str) and player != "either player":
        return f"{player.split(' player')[0]} only"
    return ""


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
    if only(card):
        text += f" · {only(card)}"
    return text


def face(card: Card, ctx: RenderContext | None = None, under: Sequence[tuple[str, Face]] = ()) -> Face:
    """A Doctor Strange card: its power top right (a character's as it is now, the printed one under
    it), a Power card's or an attachment's bonus there too, an Attack card's fate at the bottom, an
    event's timing; the side that alone may play it; on the table its state in words."""
    sort = str(card.get("type"))
    numbers: list[Number] = []
    tags: list[str] = []
    power = card.get("power")
    state: tuple[str, ...] = ()
    if sort == "Character":
        now = card.get("modified_power", power)
        printed = f" ({power})" if now != power else ""
        numbers.append(
            Number(f"P{now}{printed}", f"power {now}" + (f" (printed {power})" if printed else ""), "bold green", "tr")
        )
        if isinstance(card.get("state"), str):
            words = CARD_ID.sub("", str(card["state"]))
            state = tuple(w for w in words.split(", ") if w != "viable")
    elif sort in ("Power", "Item", "Location") and isinstance(power, int):
        numbers.append(
            Number(f"+{power}", f"+{power}" + (" in a fight" if sort == "Power" else " power"), "bold yellow", "tr")
        )
        role = card.get("role")
        if sort == "Power" and isinstance(role, str) and role != "attacker or defender":
            tags.append(role)
    elif sort == "Attack":
        numbers.append(
            Number(f"⇒{card.get('fate')}", f"if it wins, the target is {card.get('fate')}", "bold red", "bl")
        )
    letter = _timing(card)
    if letter:
        tags.append(f"({letter})")
    if (only(card) and sort != "Character") or (only(card) and "state" not in card):
        tags.append(only(card))  # on the table a character's side says it; in a hand it matters
    notes = []
    if letter:
        notes.append(f"played: {WHEN.get(letter, letter)} ({letter})")
    player = card.get("player")
    if isinstance(player, str):
        notes.append(f"who may play it: {player}")
    if isinstance(card.get("owner"), str) and card.get("owner") != card.get("side"):
        notes.append(f"owned by {card['owner']}, fighting for {card.get('side')}")
    mark = card.get("id")
    attached = tuple(("attached", face(a)) for a in _cards(card.get("attachments")))
    return Face(
        name=str(card.get("name")),
        kind=sort,
        band=BANDS.get(sort, "white"),
        numbers=tuple(numbers),
        text=str(card.get("text") or ""),
        state=state,
        mark=mark if isinstance(mark, int) else None,
        under=(*attached, *under),
        notes=tuple(notes),
        tags=tuple(tags),
    )


def _character_line(row: Card, captives: Sequence[Card]) -> Flow:
    f = face(row)
    items = [chip(f, name_style="bold" if row.get("viable") else "dim")]
    for _, under in f.under:
        items.append(Text.assemble(("└ ", "dim"), chip(under)))
    for c in captives:
        held = face(c)
        # Under its captor, "captive of X" goes without saying.
        held = replace(held, state=tuple(w for w in held.state if not w.startswith("captive of")))
        items.append(Text.assemble(("└ holds captive: ", "italic red"), chip(held)))
    return Flow(items, sep="  ", head=Text("  "), indent=6)


def _ids(cards: Sequence[Card]) -> set[int]:
    out: set[int] = set()
    for c in cards:
        if isinstance(c.get("id"), int):
            out.add(int(c["id"]))
        out |= _ids(_cards(c.get("attachments")))
    return out


def side_block(view: Card, ctx: RenderContext, seat: int, name: str) -> Block:
    table = _cards(view.get("table"))
    captives = {r.get("id"): [c for c in table if c.get("captured") and c.get("held_by") == r.get("id")] for r in table}
    # A captive lies under its captor, on the captor's side; the rest sit on their side.
    rows = [r for r in table if r.get("side") == name and not r.get("captured")]
    sizes = view.get("hand_sizes")
    held = sizes[seat] if isinstance(sizes, list) and seat < len(sizes) else "?"
    viable = sum(1 for r in rows if r.get("viable"))
    mine = seat == ctx.seat
    where = " (you)" if mine else " (across the table)" if ctx.seat is not None else ""
    head = Text.assemble(
        (f"{name}{where}", "bold green" if mine else "bold"),
        f" · {held} in hand · {viable} viable character{'s' if viable != 1 else ''}",
    )
    lines: list[RenderableType] = [head]
    for r in rows:
        lines.append(_character_line(r, captives.get(r.get("id"), [])))
    if not rows:
        lines.append(Text("  (no characters)", style="dim"))
    shown = [*rows, *(c for r in rows for c in captives.get(r.get("id"), []))]
    return block(f"{name} side", Group(*lines), watch=("table", "hand_sizes"), fold=45, cards=frozenset(_ids(shown)))


def attacks_block(view: Card) -> Block | None:
    items = []
    for a in view.get("attacks") or []:
        if not isinstance(a, Mapping):
            continue
        card = a.get("attack_card")
        target = CARD_ID.sub(r" #\1", str(a.get("target") or "(choosing a target)"))
        attacker = CARD_ID.sub(r" #\1", str(a.get("attacker")))
        with_card = f" with {card.get('name')} (⇒{a.get('fate')})" if isinstance(card, Mapping) else ""
        items.append(Text(f"{attacker} → {target}{with_card}: {a.get('status')}"))
    if not items:
        return None
    return block(
        "attacks", Flow(items, head=Text("Attacks this turn: ", style="bold"), indent=4), watch=("attacks",), fold=20
    )


def _fighter(side: Mapping[str, JSON]) -> str:
    parts = [f"roll {side.get('roll')}", f"power {side.get('power')}"]
    parts += [f"{c.get('name')} +{c.get('power')}" for c in _cards(side.get("power_cards"))]
    parts += [f"{h}" for h in side.get("helpers") or [] if isinstance(h, str)]
    who = CARD_ID.sub(r" #\1", str(side.get("character")))
    return f"{side.get('player')} · {who}: " + " + ".join(parts) + f" = {side.get('total')}"


def fight_block(view: Card) -> Block | None:
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
    title = Text(
        f"{'Fight' if live else 'Last fight'} (turn {fight.get('turn')}) · {what}", style="bold red" if live else "bold"
    )
    result = Text(CARD_ID.sub(r" #\1", str(fight.get("result"))), style="bold yellow" if live else "")
    full = Group(title, Text("  Attack  " + _fighter(atk)), Text("  Defense " + _fighter(dfn)), result)
    if live:
        return block("fight", full, fold=None)
    short = Text.assemble(("Last fight: ", "bold"), result)
    return block("last fight", full, Form(short, 3), watch=("fight",), fold=8)


def piles_block(view: Card) -> Block:
    discard = _cards(view.get("discard"))
    newest = list(reversed(discard))
    head = Text.assemble(
        ("Deck ", "bold"), f"{view.get('deck_size')} cards · ", ("Discard ", "bold"), f"{len(discard)}"
    )
    rest: list[Text] = []
    for key, title in (("killed", "Killed"), ("exiled", "Exiled")):
        pile = _cards(view.get(key))
        if pile:
            rest.append(Text(f"{title}: ", style="bold").append_text(Text(", ").join(chip(face(c)) for c in pile)))
    every = Flow(
        [*(chip(face(c)) for c in newest), *rest],
        head=head.copy().append(" (newest first): " if discard else ""),
        indent=4,
    )
    few_items = [chip(face(c)) for c in newest[:NEWEST_DISCARDS]]
    if len(newest) > NEWEST_DISCARDS:
        few_items.append(Text(f"and {len(newest) - NEWEST_DISCARDS} more", style="dim"))
    few = Flow([*few_items, *rest], head=head.copy().append(" (newest first): " if discard else ""), indent=4)
    bare = Flow(rest, head=head.copy().append(" · " if rest else ""), indent=4)
    ids = _ids([*discard, *_cards(view.get("killed")), *_cards(view.get("exiled"))])
    return block(
        "piles",
        every,
        Form(few, 2),
        Form(bare, 4),
        watch=("deck_size", "discard", "killed", "exiled"),
        fold=6,
        cards=frozenset(ids),
    )


def known_block(view: Card) -> Block | None:
    items: list[Text | Labeled] = []
    hand = _cards(view.get("known_opponent_hand"))
    if hand:
        items.append(Labeled(Text("in your opponent's hand: ", style="italic"), [chip(face(c)) for c in hand]))
    deck = [d for d in view.get("known_deck") or [] if isinstance(d, Mapping)]
    if deck:
        places = [
            Text(f"{d.get('from_top')}. ").append_text(chip(face(d["card"])))
            for d in deck
            if isinstance(d.get("card"), Mapping)
        ]
        items.append(Labeled(Text("in the deck (places from the top): ", style="italic"), places))
    if not items:
        return None
    ids = _ids([*hand, *(d["card"] for d in deck if isinstance(d.get("card"), Mapping))])
    return block(
        "known cards",
        Flow(items, head=Text("You know ", style="bold cyan"), indent=4),
        watch=("known_opponent_hand", "known_deck"),
        fold=12,
        cards=frozenset(ids),
    )


def hand_block(view: Card, ctx: RenderContext) -> Block | None:
    if ctx.seat is None:
        return None
    hand = _cards(view.get("hand"))
    title = Text(f"Your hand ({len(hand)})", style="bold green")
    if not hand:
        return block("hand", Text.assemble(title, (": empty", "dim")), fold=None)
    table = Table(box=None, pad_edge=False, show_edge=False, expand=True, show_header=False, padding=(0, 1))
    table.add_column("card", no_wrap=True)
    table.add_column("type", no_wrap=True, style="dim")
    table.add_column("what it does", ratio=1)
    for c in hand:
        table.add_row(chip(face(c)), kind(c), Text(brief(c), style="dim"))
    chips = Flow([chip(face(c)) for c in hand], head=Text.assemble(title, ": "), indent=2)
    return block("hand", Group(title, table), Form(chips, 2), fold=None, cards=frozenset(_ids(hand)))


def header(view: Card, ctx: RenderContext) -> Text:
    turn = f"turn {view.get('turn')}"
    if not view.get("is_over"):
        turn += f": {view.get('turn_of')}'s turn, {view.get('step')}"
    return header_text(view, ctx, turn)


def render_blocks(view: dict[str, JSON], ctx: RenderContext) -> list[Block]:
    names = view.get("seat_names")
    if not isinstance(names, list) or not isinstance(view.get("table"), list) or "victory" not in view:
        return generic_blocks(view, ctx)  # a view this renderer does not understand: show it all
    blocks = [block("header", header(view, ctx), fold=None)]
    victory = view.get("victory")
    if isinstance(victory, Mapping):
        blocks.append(
            block(
                "victory", Text("Victory: " + str(victory.get("summary")), style="magenta"), watch=("victory",), fold=10
            )
        )
    order = list(range(len(names)))
    if ctx.seat is not None:
        order.sort(key=lambda s: s == ctx.seat)  # the player across first, yours next to your hand
    for s in order:
        blocks.append(side_block(view, ctx, s, str(names[s])))
    for extra in (attacks_block(view), fight_block(view)):
        if extra is not None:
            blocks.append(extra)
    playing = view.get("playing")
    if isinstance(playing, Mapping):
        blocks.append(
            block(
                "being played",
                Text.assemble(("Being played: ", "bold"), chip(face(playing)), f" — {brief(playing)}"),
                fold=None,
                cards=frozenset(_ids([playing])),
            )
        )
    blocks.append(piles_block(view))
    known = known_block(view)
    if known is not None:
        blocks.append(known)
    hand = hand_block(view, ctx)
    if hand is not None:
        blocks.append(hand)
    return blocks
