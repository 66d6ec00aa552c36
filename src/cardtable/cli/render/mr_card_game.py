"""Mr. Card Game's table: the map (or the playmat), the Tower, the Heap, the trainer, the players'
display cases and the hand, as cards, drawn from the view alone.

Every card is a chip that is never cut: a monster ``Haunted Hamper P9 spooky 3m Mus2 #30`` (power,
element, meat, stat drop) with the item on its back ``↳ Spectral Sock Soup food``; an item its bonuses
(``+1M``: melee, ``S`` spell, ``R`` ranged, ``E`` evade), its price and whether it is equipped; a skill
its price, class and state (a buff ``active`` or ``inactive``, ``used``, ``permed``); a stat card its
suit and value (``Mus1``).

The blocks, from top to bottom: the header; the map (a 3x3 grid of locations, or on a narrow screen a
location a line, or a map row a line with each monster's power and element); the nemesis piles and the
quest pile; the Tower, the Heap and the stat piles; the trainer; the adventurers (meat, cards, bonuses,
equipment, skills, escrow) with the supplemental parts in play (runs, classes, negative effects, known
Mr. Store items); the combat (the score against each target) or the March; the viewing seat's display
case; its hand. A decision's screen folds what does not fit (see :mod:`cardtable.cli.screen`); the
whole table is one ``table`` away, a card's words one ``look``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cardtable.cli.render import RenderContext
from cardtable.cli.render.faces import Face, Flow, Labeled, Number, chip, units
from cardtable.cli.render.generic import header_text
from cardtable.cli.render.generic import render_blocks as generic_blocks
from cardtable.cli.screen import Block, Form, block
from cardtable.engine.game import JSON

Card = Mapping[str, JSON]
LEGEND = (
    "P power · an element (hot, cold, spooky, stench, sleaze) · Nm meat (a price: dive 4m, train 7m) · "
    "Mus/Mys/Mox1-4 a stat card (Muscle, Mysticality, Moxie and its value) · +1M +1S +1R +1E bonuses to "
    "melee, spell, ranged and evade (defense) · ↳ the item on a monster's back"
)
_MAN = (("melee", "M"), ("spell", "S"), ("ranged", "R"), ("evade", "E"))
_STAT_SHORT = {"Muscle": "Mus", "Mysticality": "Mys", "Moxie": "Mox"}
ELEMENT_STYLE = {"hot": "red", "cold": "cyan", "spooky": "magenta", "stench": "green", "sleaze": "yellow"}
BANDS = {"monster": "red", "boss": "red", "skill": "magenta", "spell": "magenta", "song": "magenta", "stat": "white"}
_DROP = re.compile(r"\((Muscle|Mysticality|Moxie) (\d)\)")


def _s(value: JSON) -> str:
    return "" if value is None else str(value)


def _cards(value: JSON) -> list[Card]:
    return [c for c in value if isinstance(c, Mapping)] if isinstance(value, list) else []


def _ids(cards: Sequence[Card]) -> set[int]:
    return {int(c["id"]) for c in cards if isinstance(c.get("id"), int)}


def bonus(value: JSON) -> str:
    """``+1M +2R``: bonuses to melee, spell, ranged and evade."""
    if not isinstance(value, Mapping):
        return ""
    return " ".join(f"+{value[k]}{short}" for k, short in _MAN if isinstance(value.get(k), int) and value[k])


def drop(text: JSON) -> str:
    """``Enchantedness (Mysticality 1)`` -> ``Mys1``; ``any type, value 3`` -> ``any3``."""
    words = _s(text)
    m = _DROP.search(words)
    if m:
        return f"{_STAT_SHORT[m.group(1)]}{m.group(2)}"
    value = re.search(r"value (\d)", words)
    return f"any{value.group(1)}" if value else words


def _element(value: JSON) -> Number | None:
    element = _s(value)
    if not element or element == "none":
        return None
    return Number(element, f"element {element}", ELEMENT_STYLE.get(element, ""), "tr")


def item_face(card: Card, mark: bool = True) -> Face:
    """An item (a monster's back, an item in a display case, on the Heap or in the Mr. Store)."""
    numbers: list[Number] = []
    b = bonus(card.get("bonus"))
    if b:
        numbers.append(Number(b, f"bonus {b}", "green", "tl"))
    if isinstance(card.get("meat_cost"), int):
        numbers.append(Number(f"{card['meat_cost']}m", f"price {card['meat_cost']} meat", "yellow", "bl"))
    if isinstance(card.get("autosell"), int):
        numbers.append(Number(f"sells {card['autosell']}", f"AutoSell {card['autosell']} meat", "dim", "br"))
    state: list[str] = []
    if card.get("equipped") is True:
        state.append("equipped")
    elif card.get("equipped") is False:
        state.append("unequipped")
    cid = card.get("id")
    return Face(
        name=_s(card.get("name")),
        kind=_s(card.get("type")) or "item",
        band="cyan",
        numbers=tuple(numbers),
        text=_s(card.get("text")),
        state=tuple(state),
        mark=cid if mark and isinstance(cid, int) else None,
    )


def monster_face(card: Card) -> Face:
    """A monster (or boss, or the Sorceress): power top left, element top right, meat and the stat
    it drops at the bottom; the item on its back under it."""
    numbers: list[Number] = []
    if isinstance(card.get("power"), int):
        numbers.append(Number(f"P{card['power']}", f"power {card['power']}", "bold red", "tl"))
    element = _element(card.get("element"))
    if element is not None:
        numbers.append(element)
    if isinstance(card.get("meat"), int):
        numbers.append(Number(f"{card['meat']}m", f"{card['meat']} meat", "yellow", "bl"))
    if card.get("stat_drop"):
        numbers.append(Number(drop(card.get("stat_drop")), f"drops {card.get('stat_drop')}", "cyan", "br"))
    side = card.get("item_side")
    under = (("on its back", item_face(side, mark=False)),) if isinstance(side, Mapping) else ()
    notes = []
    if card.get("location"):
        notes.append(f"lives in {card['location']}")
    cid = card.get("id")
    return Face(
        name=_s(card.get("name")),
        kind=_s(card.get("type")) or "monster",
        band="red",
        numbers=tuple(numbers),
        text=_s(card.get("text")),
        mark=cid if isinstance(cid, int) else None,
        under=under,
        notes=tuple(notes),
    )


def skill_face(card: Card) -> Face:
    """A skill: its price (top left), its class and kind of ability, its bonuses, its state."""
    numbers: list[Number] = []
    if isinstance(card.get("cost"), int):
        numbers.append(Number(f"{card['cost']}m", f"train for {card['cost']} meat", "yellow", "tl"))
    b = bonus(card.get("bonus"))
    if b:
        numbers.append(Number(b, f"bonus {b}", "green", "tr"))
    if card.get("mojo") is not None:
        numbers.append(Number(f"{card['mojo']} mojo", f"costs {card['mojo']} mojo", "magenta", "br"))
    tags = tuple(t for t in (_s(card.get("class")),) if t)
    cid = card.get("id")
    return Face(
        name=_s(card.get("name")),
        kind=f"{_s(card.get('type'))} · {_s(card.get('ability'))}".strip(" ·"),
        band="magenta",
        numbers=tuple(numbers),
        text=_s(card.get("text")),
        state=tuple(s for s in (skill_state(card),) if s),
        mark=cid if isinstance(cid, int) else None,
        tags=tags,
    )


def stat_face(card: Card) -> Face:
    """A stat card: its suit and value (``Mus1``), and how many of them (``x2``)."""
    short = _STAT_SHORT.get(_s(card.get("stat")), _s(card.get("stat"))[:3])
    numbers = [Number(f"{short}{card.get('value')}", f"{card.get('stat')} {card.get('value')}", "bold cyan", "tl")]
    if isinstance(card.get("count"), int) and card["count"] != 1:
        numbers.append(Number(f"x{card['count']}", f"{card['count']} of them", "", "br"))
    return Face(name=_s(card.get("name")), kind="stat card", band="white", numbers=tuple(numbers), text="")


def face(card: Card, ctx: RenderContext | None = None) -> Face:
    """Any Mr. Card Game card of a view, as its printed face."""
    sort = _s(card.get("type"))
    if "stat" in card and "value" in card:
        return stat_face(card)
    if sort in ("monster", "boss") or ("element" in card and "power" in card and "bonus" not in card):
        return monster_face(card)
    if "cost" in card and "class" in card and "ability" in card:
        return skill_face(card)
    if "bonus" in card or "meat_cost" in card:
        return item_face(card)
    cid = card.get("id")
    notes = tuple(
        f"{k.replace('_', ' ')}: {v}" for k, v in card.items() if k in ("side", "class", "boss", "defeated") and v
    )
    return Face(
        name=_s(card.get("name")),
        kind=sort or "card",
        band=BANDS.get(sort, "white"),
        text=_s(card.get("text")),
        mark=cid if isinstance(cid, int) else None,
        notes=notes,
    )


def skill_state(c: Card) -> str:
    """A skill's state in a word or two: active/inactive (a buff: "ON"/"off" read as a switch to
    press), used (this turn), permed (ascension)."""
    state = {True: "active", False: "inactive"}.get(c.get("active"), "") if "active" in c else ""  # type: ignore[arg-type]
    if c.get("used_this_turn"):
        state = "used"
    if c.get("permed"):  # O3.4: a permed skill
        state = f"permed {state}".strip()
    return state


def _groups(groups: JSON) -> list[Text]:
    """Stat cards by kind with counts: ``2 Strengthliness Mus1``."""
    out = []
    for g in _cards(groups):
        short = _STAT_SHORT.get(_s(g.get("stat")), _s(g.get("stat")))
        out.append(
            Text.assemble(
                f"{g.get('count', 1)} ", (_s(g.get("name")), "bold"), " ", (f"{short}{g.get('value')}", "cyan")
            )
        )
    return out


# -- the map -----------------------------------------------------------------------------------------


def _place(loc: Card) -> str:
    return _s(loc.get("location")).removeprefix("The ")


def _monster_lines(loc: Card) -> list[Text]:
    """A location's monster and the item on its back, as chips."""
    monster = loc.get("monster")
    if isinstance(monster, Mapping):
        f = monster_face(monster)
        out = [chip(f)]
        for _, item in f.under:
            out.append(Text.assemble(("↳ ", "cyan"), chip(item, name_style="cyan")))
        return out
    if loc.get("empty"):
        return [Text("(empty: rebuilt from the Heap)", style="dim")]
    return [Text("(a new monster at the map update)", style="dim")]


def _cell(loc: Card) -> RenderableType:
    monster = loc.get("monster")
    head = Text(f"{_place(loc)} ({loc.get('hidden_cards')} below)", style="dim")
    if not isinstance(monster, Mapping):
        return Group(head, *_monster_lines(loc))
    f = monster_face(monster)
    parts: list[RenderableType] = [head, Flow(units(f), sep=" ", indent=1)]
    for _, item in f.under:
        parts.append(Flow([Text("↳", style="cyan"), *units(item, name_style="cyan")], sep=" ", indent=2))
    return Group(*parts)


def _locations(view: Card) -> list[Card]:
    return [x for x in _cards(view.get("map")) if isinstance(x.get("row"), int)]


def map_grid(view: Card) -> RenderableType | None:
    locations = _locations(view)
    if len(locations) != 9:
        return None
    grid = Table(show_header=False, expand=True, padding=(0, 1), show_lines=True)
    for _ in range(3):
        grid.add_column(ratio=1)
    cells = {(int(x["row"]), int(x["column"])): _cell(x) for x in locations}
    for r in range(3):
        grid.add_row(*(cells.get((r, c), Text("")) for c in range(3)))
    return grid


def map_list(view: Card) -> RenderableType:
    """A location a line: ``Musty Root Cellar (7): Moldy Jam Golem P2 stench 1m Mys1 #2 · ↳ ...``."""
    lines = []
    for loc in _locations(view):
        lines.append(
            Flow(_monster_lines(loc), head=Text(f"{_place(loc)} ({loc.get('hidden_cards')}): ", style="dim"), indent=4)
        )
    return Group(*lines)


def map_compact(view: Card) -> RenderableType:
    """A map row a line: each monster's name, power, element and id (``look`` or ``table map`` for more)."""
    rows: dict[int, list[Text]] = {}
    for loc in _locations(view):
        monster = loc.get("monster")
        if isinstance(monster, Mapping):
            f = monster_face(monster)
            short = Face(f.name, f.kind, f.band, tuple(n for n in f.numbers if n.corner in ("tl", "tr")), mark=f.mark)
            rows.setdefault(int(loc["row"]), []).append(chip(short))
        else:
            rows.setdefault(int(loc["row"]), []).append(Text(f"{_place(loc)}: empty", style="dim"))
    return Group(
        *(
            Flow(items, sep="  │ ", head=Text(f"row {r + 1}: ", style="dim"), indent=2)
            for r, items in sorted(rows.items())
        )
    )


def _mat_cell(view: Card, space: Card) -> RenderableType:
    """What lies on one playmat space (S4): a location or nemesis pile, the Tower, the Heap, the
    Quests spotlight or an unused space."""
    holds = space.get("holds")
    name = _s(space.get("space")).removeprefix("The ")
    if holds in ("location", "nemesis location"):
        for row in [*_cards(view.get("map")), *_cards(view.get("nemesis"))]:
            if row.get("location") == space.get("space"):
                return _cell(row)
    if holds == "tower":
        sorceress = view.get("sorceress")
        if isinstance(sorceress, Mapping):
            return Group(Text(name, style="dim"), Flow(units(monster_face(sorceress)), sep=" ", indent=1))
    if holds == "heap":
        heap = _cards(view.get("heap"))
        parts: list[RenderableType] = [Text(f"The Heap ({len(heap)})", style="bold")]
        if heap:
            top = heap[-1]
            parts.append(Flow(units(item_face(top)), sep=" ", indent=1))
            price = top.get("meat_cost")
            parts.append(Text("no dive" if price is None else f"dive {price}m", style="dim"))
        return Group(*parts)
    if holds == "quests":
        quests = _cards(view.get("quests"))
        parts = [Text(f"Quests ({len(quests)})", style="bold")]
        if quests:
            parts.append(Flow(units(monster_face(quests[0])), sep=" ", indent=1))
        return Group(*parts)
    return Text(f"{name}\n({_s(holds)})", style="dim")


def playmat_grid(view: Card) -> RenderableType | None:
    """S4: the piles on their playmat spaces (the ``layout`` of the view), or None without a mat."""
    layout = view.get("layout")
    if not isinstance(layout, Mapping):
        return None
    rows, columns = layout.get("rows"), layout.get("columns")
    if not isinstance(rows, int) or not isinstance(columns, int):
        return None
    grid = Table(show_header=False, expand=True, padding=(0, 1), show_lines=True)
    for _ in range(columns):
        grid.add_column(ratio=1)
    cells: dict[tuple[int, int], RenderableType] = {}
    for space in _cards(layout.get("spaces")):
        if isinstance(space.get("row"), int) and isinstance(space.get("column"), int):
            cells[(int(space["row"]), int(space["column"]))] = _mat_cell(view, space)
    for r in range(rows):
        grid.add_row(*(cells.get((r, c), Text("")) for c in range(columns)))
    return grid


class Wide:
    """``wide`` on a screen at least ``columns`` wide, else ``narrow``: a grid whose cells would be a
    few letters wide on a narrow screen gives way to lines."""

    def __init__(self, wide: RenderableType, narrow: RenderableType, columns: int) -> None:
        self.wide, self.narrow, self.columns = wide, narrow, columns

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.wide if options.max_width >= self.columns else self.narrow

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(options.max_width, options.max_width)


MAT_WIDE = 120
"""The narrowest screen on which the playmat's grid keeps readable spaces."""
MAP_WIDE = 96
"""The narrowest screen on which the 3x3 map grid keeps readable cells."""


def map_block(view: Card) -> Block | None:
    grid = map_grid(view)
    if grid is None:
        return None
    mat = playmat_grid(view)
    listed = map_list(view)
    if mat is not None:
        first: RenderableType = Wide(Panel(mat, title="The Playmat", title_align="left"), listed, MAT_WIDE)
    else:
        first = Wide(Panel(grid, title="The Kingdom", title_align="left"), listed, MAP_WIDE)
    ids: set[int] = set()
    for loc in _locations(view):
        if isinstance(loc.get("monster"), Mapping):
            ids |= _ids([loc["monster"]])
    keys = ("map", "layout")
    return block("map", first, Form(listed, 1), Form(map_compact(view), 4), watch=keys, fold=35, cards=frozenset(ids))


def piles_block(view: Card) -> Block | None:
    """B1/B2: the four nemesis piles' tops and the quest pile's next boss (with the playmat they lie
    on their own spaces too)."""
    items: list[Text] = []
    ids: set[int] = set()
    for pile in _cards(view.get("nemesis")):
        monster = pile.get("monster")
        where = Text(f"{_place(pile)} ({pile.get('hidden_cards')}): ", style="dim")
        if isinstance(monster, Mapping):
            items.append(where.append_text(chip(monster_face(monster))))
            ids |= _ids([monster])
        else:
            items.append(where.append("empty", style="dim"))
    quests = view.get("quests")
    if isinstance(quests, list):
        bosses = _cards(quests)
        head = Text(f"Quests ({len(bosses)}): ", style="dim")
        items.append(head.append_text(chip(monster_face(bosses[0]))) if bosses else head.append("none", style="dim"))
        ids |= _ids(bosses[:1])
    if not items:
        return None
    title = " and ".join(
        x for x in ("Nemesis piles" if view.get("nemesis") else "", "quests" if isinstance(quests, list) else "") if x
    )
    return block(
        "piles",
        Flow(items, sep="  │ ", head=Text(f"{title}: ", style="bold"), indent=2),
        watch=("nemesis", "quests"),
        fold=20,
        cards=frozenset(ids),
    )


# -- the Tower, the Heap, the trainer ------------------------------------------------------------------

_GLOBAL = "Global effect while she is on top of the Tower: "


def tower_block(view: Card) -> Block:
    """The Tower's top with its power; a foil's global effect (B3: it changes the kingdom for every
    player while she is on top); in ascension (O3) the forms still hidden and each form's power; the
    Heap's top with its dive price; the stat piles; the meat pool."""
    items: list[Text] = []
    sorceress = view.get("sorceress")
    if isinstance(sorceress, Mapping):
        items.append(Text.assemble(("Tower: ", "bold"), chip(monster_face(sorceress), name_style="bold red")))
        text = _s(sorceress.get("text"))
        if text.startswith(_GLOBAL):
            effect = text.removeprefix(_GLOBAL).split(". Ascension:")[0].rstrip(".")
            items.append(Text(f"global: {effect}", style="magenta"))
        hidden = sorceress.get("hidden_in_tower")
        powers = sorceress.get("form_powers")
        if isinstance(hidden, Mapping) and isinstance(powers, list):
            forms = " ".join(f"{v}x{p}" for v, p in zip(hidden.values(), powers, strict=False))
            items.append(Text(f"hidden, by power: {forms}", style="dim"))
    heap = _cards(view.get("heap"))
    ids = _ids(heap[-1:])
    if isinstance(view.get("layout"), Mapping):
        pass  # the Heap has its own space on the playmat (and a line here on a narrow screen)
    if heap:
        top = heap[-1]
        price = top.get("meat_cost")
        items.append(
            Text.assemble(
                ("Heap ", "bold"),
                f"({len(heap)}): ",
                chip(item_face(top)),
                (" · no meat price: not for a Dumpster Dive" if price is None else f" · dive {price}m", "dim"),
            )
        )
    else:
        items.append(Text.assemble(("Heap ", "bold"), ("(empty)", "dim")))
    piles = _cards(view.get("stat_piles"))
    short = list(items)
    if piles:
        by_stat: dict[str, list[str]] = {}
        for p in piles:
            by_stat.setdefault(_STAT_SHORT.get(_s(p.get("stat")), "?"), []).append(_s(p.get("left")))
        items.append(
            Text.assemble(
                ("Stat piles ", "bold"),
                "(values 1/2/3/4): ",
                " · ".join(f"{k} {'/'.join(v)}" for k, v in by_stat.items()),
            )
        )
    pool = view.get("meat_pool")
    items.append(Text(f"meat pool: {'unlimited' if pool is None else pool}", style="dim"))
    keys = ("sorceress", "heap", "stat_piles", "meat_pool")
    return block(
        "tower and heap",
        Flow(items, sep="  │ ", indent=2),
        Form(Flow(short, sep="  │ ", indent=2), 3),
        watch=keys,
        fold=25,
        cards=frozenset(ids),
    )


def trainer_block(view: Card) -> Block:
    """The trainer: the line of four (newest first) or, with ``class-trainer`` (O6), a class pile a
    row with its face-up top and how many cards lie face down under it; each skill with its price."""
    rows = view.get("trainer") or []
    assert isinstance(rows, list)
    by_class = any(isinstance(r, Mapping) and "face_down" in r for r in rows)
    title = Text(
        "Trainer (class piles [face down]): "
        if by_class
        else f"Trainer (newest first; {view.get('skill_pile')} left): ",
        style="bold",
    )
    lines: list[RenderableType] = [title]
    items: list[Text] = []
    ids: set[int] = set()
    for row in rows:
        skill = row.get("top") if by_class and isinstance(row, Mapping) else row
        prefix = (
            Text(f"{_s(row.get('class'))} [{row.get('face_down')}] ", style="dim")
            if by_class and isinstance(row, Mapping)
            else Text("")
        )
        if isinstance(skill, Mapping):
            f = skill_face(skill)
            items.append(prefix.copy().append_text(chip(f)))
            lines.append(
                Flow(
                    [prefix.copy().append_text(chip(f)), Text(f.text, style="dim")],
                    sep=" — ",
                    head=Text("  "),
                    indent=6,
                )
            )
            ids |= _ids([skill])
        elif by_class:
            items.append(prefix.copy().append("(none face up)", style="dim"))
            lines.append(Text("  ").append_text(prefix).append("(none face up)", style="dim"))
        else:
            items.append(Text("(trained this turn)", style="dim"))
            lines.append(Text("  (trained this turn)", style="dim"))
    compact = Flow(items, head=title, indent=2)
    names = [
        prefix_of(row, by_class).append_text(
            chip(Face(skill_face(sk).name, "skill", numbers=skill_face(sk).numbers[:1], mark=skill_face(sk).mark))
        )
        for row in rows
        if isinstance(sk := (row.get("top") if by_class and isinstance(row, Mapping) else row), Mapping)
    ]
    return block(
        "trainer",
        Group(*lines),
        Form(compact, 2),
        Form(Flow(names, head=title, indent=2), 4),
        watch=("trainer", "skill_pile"),
        fold=28,
        cards=frozenset(ids),
    )


def prefix_of(row: JSON, by_class: bool) -> Text:
    """A class pile's name and how many cards lie face down under its top (O6)."""
    if by_class and isinstance(row, Mapping):
        return Text(f"{_s(row.get('class'))} [{row.get('face_down')}] ", style="dim")
    return Text("")


# -- the adventurers --------------------------------------------------------------------------------


def status_lines(view: Card, ctx: RenderContext) -> list[RenderableType]:
    """Under the adventurers, one line per supplemental part in play, every player on it: O3 the run
    each is on (``r2``: facing form 2), their Instant Karmas and King Ralph; S2/S3 each class (the
    board's Mr. Card Game side: "no class"); O2 the negative effects in display cases, by name; S1 the
    face-down Mr. Store items of other players that this seat knows (seen face up before)."""
    rows = _cards(view.get("players"))
    runs, classes, hurt, known = [], [], [], []
    for i, row in enumerate(rows):
        who = ctx.seat_name(i)
        seen = _cards(row.get("store_known_face_down"))
        if seen and i != ctx.seat:  # the viewer's own are listed by name under its hand
            known.append(f"{who} " + ", ".join(f"#{c.get('id')} {c.get('name')}" for c in seen))
        if isinstance(row.get("runs_completed"), int):
            karma = _cards(row.get("instant_karma"))
            n = sum(1 for k in karma if k.get("type") != "King Ralph")
            ralph = any(k.get("type") == "King Ralph" for k in karma)
            runs.append(
                f"{who} " + ("freed King Ralph" if ralph else f"r{row['runs_completed'] + 1}") + f" IK x{n}" * (n > 0)
            )
        if "class" in row:
            klass = row.get("class")
            if not isinstance(klass, Mapping):
                classes.append(f"{who} -")
            elif _s(klass.get("side")) == "Mr. Card Game":
                classes.append(f"{who} no class")
            else:
                side = " (side not chosen)" if klass.get("side") == "not chosen yet" else ""
                classes.append(f"{who} {klass.get('class')}{side}")
        effects = [_s(e.get("name")) for e in _cards(row.get("negative_effects"))]
        if effects:
            hurt.append(f"{who} {', '.join(effects)}")
    out: list[RenderableType] = []
    if runs:
        out.append(Flow([Text(r) for r in runs], head=Text("Runs (IK: Instant Karma): ", style="bold"), indent=4))
    if classes:
        out.append(Flow([Text(c, style="cyan") for c in classes], head=Text("Classes: ", style="bold"), indent=4))
    if any("negative_effects" in r for r in rows):
        out.append(
            Flow(
                [Text(h, style="red") for h in hurt] or [Text("none")],
                head=Text("Negative effects: ", style="bold"),
                indent=4,
            )
        )
    if known:
        out.append(
            Flow([Text(k) for k in known], head=Text("Known face-down Mr. Store items: ", style="bold"), indent=4)
        )
    return out


def _player_items(row: Card, ascension: bool) -> list[Text | Labeled]:
    bonuses = row.get("bonuses") if isinstance(row.get("bonuses"), Mapping) else {}
    assert isinstance(bonuses, Mapping)
    mser = " ".join(f"{short}{_s(bonuses.get(k))}" for k, short in _MAN)
    discard = sum(int(g.get("count", 0)) for g in _cards(row.get("discard")))
    mojo = row.get("mojo")
    items: list[Text | Labeled] = [
        Text(f"{row.get('meat')} meat" + (f" ({mojo} mojo)" if mojo else ""), style="yellow"),
        Text(f"hand {row.get('hand_size')} deck {row.get('deck_size')} discard {discard}"),
        Text(mser, style="green"),
    ]
    case = _cards(row.get("display_case"))
    equipped = [c for c in case if c.get("equipped")]
    if equipped:
        items.append(Labeled("equipped: ", [Text(_s(c.get("name"))) for c in equipped]))
    others = len(case) - len(equipped)
    if others:
        items.append(Text(f"+{others} more in the case", style="dim"))
    skills = [
        _s(sk.get("name")) + ("*" if sk.get("active") else "") + ("^" if sk.get("permed") else "")
        for sk in _cards(row.get("skills"))
    ]
    if skills:
        label = "skills" + (" (* buff on, ^ permed)" if ascension else " (* buff on)") + ": "
        items.append(Labeled(label, [Text(s) for s in skills]))
    escrow = [_s(c.get("name")) for c in _cards(row.get("escrow"))]
    if escrow:
        items.append(Labeled("escrow: ", [Text(e) for e in escrow]))
    played = _groups(row.get("played"))
    if played:
        items.append(Labeled("played: ", played))
    return items


def players_block(view: Card, ctx: RenderContext) -> Block:
    rows = _cards(view.get("players"))
    # O3.4: with ascension every view says which skills are permed (perming is announced).
    ascension = any("permed" in sk for r in rows for sk in _cards(r.get("skills")))
    current = view.get("current_player")
    full: list[RenderableType] = []
    short: list[RenderableType] = []
    for i, row in enumerate(rows):
        name = ctx.who(i) + (" ★" if row.get("certificate") else "") + (" OUT" if row.get("out_of_the_game") else "")
        if isinstance(row.get("store_face_down"), int) and row["store_face_down"]:
            name += f" [{row['store_face_down']} MrS]"  # face-down Mr. Store items (S1)
        head = Text(("▶ " if i == current else "  ") + name + ": ", style="bold green" if i == ctx.seat else "bold")
        items = _player_items(row, ascension)
        full.append(Flow(items, head=head, indent=4))
        short.append(Flow(items[:3], head=head, indent=4))
    status = status_lines(view, ctx)
    return block(
        "adventurers",
        Group(Text("Adventurers", style="bold underline"), *full, *status),
        Form(Group(*short, *status), 3),
        Form(Group(*short), 6),
        watch=("players",),
        fold=30,
    )


# -- what is going on ---------------------------------------------------------------------------------


def combat_block(view: Card) -> Block | None:
    combat = view.get("combat")
    if not isinstance(combat, Mapping):
        return None
    head = Text.assemble(
        ("Combat: ", "bold yellow"),
        f"{combat.get('player')} · {combat.get('maneuver') or 'no maneuver yet'} · "
        f"cards {combat.get('cards_played_total')} · damage {combat.get('damage')} · "
        f"power reduction {combat.get('power_reduction')}",
    )
    parts: list[RenderableType] = [head]
    sorc = combat.get("against_sorceress")
    if isinstance(sorc, Mapping):
        parts.append(Text(f"against the Sorceress: score {sorc.get('score')}, needs {sorc.get('needs')}", style="bold"))
    rows = _cards(combat.get("targets"))
    ids: set[int] = set()
    if rows:
        cells = []
        for r in rows:
            beaten = bool(r.get("beaten"))
            element = _s(r.get("element"))
            cells.append(
                Text.assemble(
                    (f"{_s(r.get('score'))}/{_s(r.get('power'))}", "bold green" if beaten else "bold"),
                    ("✓ " if beaten else " ", "green"),
                    (_s(r.get("monster")), "bold"),
                    (f" {element}" if element and element != "none" else "", ELEMENT_STYLE.get(element, "")),
                    (f" #{_s(r.get('card'))}", "dim"),
                )
            )
            if isinstance(r.get("card"), int):
                ids.add(int(r["card"]))
        parts.append(Flow(cells, sep="  │ ", head=Text("your score/its power (✓ beaten): ", style="dim"), indent=2))
    return block("combat", Group(*parts), fold=None, cards=frozenset(ids))


def march_block(view: Card) -> Block | None:
    march = view.get("march")
    if not isinstance(march, Mapping):
        return None
    totals = [f"{t.get('player')} {t.get('total')} (needs {t.get('needs')})" for t in _cards(march.get("totals"))]
    order = ", ".join(_s(x) for x in march.get("order") or [])
    out = ", ".join(_s(x) for x in march.get("eliminated") or [])
    items = [Text(f"announced by {march.get('announcer')}")]
    if order:
        items.append(Text(f"order {order}"))
    items.append(Text("totals: " + (", ".join(totals) or "none yet")))
    if out:
        items.append(Text(f"out: {out}"))
    return block("march", Flow(items, head=Text("March on the Tower: ", style="bold red"), indent=4), fold=None)


def case_block(view: Card, ctx: RenderContext) -> Block | None:
    """The viewing seat's own display case: its class card (or board), Instant Karmas, negative
    effects, items and skills, each as a chip with its words; compact: the chips alone."""
    players = view.get("players")
    row = players[ctx.seat] if ctx.seat is not None and isinstance(players, list) and ctx.seat < len(players) else None
    if not isinstance(row, Mapping):
        return None
    faces: list[Face] = []
    klass = row.get("class")
    if isinstance(klass, Mapping):  # S2/S3: the class card or board, the side up, its ability
        f = face(klass)
        faces.append(
            Face(
                f.name,
                _s(klass.get("type")),
                f.band,
                f.numbers,
                f.text,
                (_s(klass.get("side")),) if klass.get("side") else (),
                f.mark,
            )
        )
    for c in _cards(row.get("instant_karma")):  # O3.5: the defeated foils, Instant Karma side up
        f = face(c)
        faces.append(Face(f"{f.name} ({c.get('type')})", f.kind, f.band, f.numbers, f.text, ("kept",), f.mark))
    for c in _cards(row.get("negative_effects")):  # O2: a boss's back, until a cure or a rollover
        f = face(c)
        faces.append(Face(f"{f.name} ({c.get('type')})", f.kind, "red", f.numbers, f.text, ("negative",), f.mark))
    for c in _cards(row.get("display_case")):
        faces.append(item_face(c))
    for c in _cards(row.get("skills")):
        faces.append(skill_face(c))
    # Trained skills lie beside the case; the heading names both when there are skills.
    title = Text(
        "Your display case and skills: " if _cards(row.get("skills")) else "Your display case: ", style="bold green"
    )
    if not faces:
        return block("display case", Text.assemble(title, ("empty", "dim")), fold=None)
    table = Table(box=None, show_edge=False, show_header=False, padding=(0, 1), expand=True, pad_edge=False)
    table.add_column("card", no_wrap=False, ratio=2)
    table.add_column("words", ratio=3)
    for f in faces:
        table.add_row(Flow([chip(f)], indent=2), Text(f.text, style="dim"))
    ids = _ids([*_cards(row.get("display_case")), *_cards(row.get("skills"))])
    named = [
        Face(f.name, f.kind, f.band, mark=f.mark, state=tuple(x for x in f.state if x != "equipped")) for f in faces
    ]
    return block(
        "display case",
        Group(title, table),
        Form(Flow([chip(f) for f in faces], head=title, indent=2), 2),
        Form(Flow([chip(f) for f in named], head=title, indent=2), 4),
        fold=None,
        cards=frozenset(ids),
    )


def hand_block(view: Card, ctx: RenderContext) -> Block | None:
    if ctx.seat is None:
        return None
    items = _groups(view.get("hand")) or [Text("no cards", style="dim")]
    hand = Flow(items, head=Text("Your hand: ", style="bold green"), indent=2)
    parts: list[RenderableType] = [hand]
    deck = _groups(view.get("deck"))
    if deck:
        parts.append(Flow(deck, head=Text("  your deck holds: ", style="dim"), indent=4, style="dim"))
    store = _cards(view.get("store"))
    store_head = Text("Mr. Store, face down: ", style="bold magenta")
    paying = view.get("paying")
    pool = Text(f"mojo pool {paying.get('mojo_pool')}", style="yellow") if isinstance(paying, Mapping) else None
    every: list[RenderableType] = [*parts]
    if store:
        every.append(Flow([chip(item_face(c)) for c in store], head=store_head, indent=4))
    # S1: the viewer's own face-down Mr. Store items (others see only how many); by name when short.
    names = [
        chip(Face(_s(c.get("name")), "item", mark=c.get("id") if isinstance(c.get("id"), int) else None)) for c in store
    ]
    short: list[RenderableType] = [hand, *([Flow(names, head=store_head, indent=4)] if store else [])]
    if pool is not None:
        every.append(pool)
        short.append(pool)
    return block("hand", Group(*every), Form(Group(*short), 3), fold=None, cards=frozenset(_ids(store)))


def header(view: Card, ctx: RenderContext) -> Text:
    turn = f"round {view.get('round')}/{view.get('turn_limit')} · turn {view.get('turn')} · {view.get('phase')}"
    return header_text(view, ctx, turn)


def render_blocks(view: dict[str, JSON], ctx: RenderContext) -> list[Block]:
    board = map_block(view)
    if board is None:  # a view this renderer does not understand: the generic layout shows it all
        return generic_blocks(view, ctx)
    blocks = [block("header", header(view, ctx), fold=None), board]
    for extra in (piles_block(view), tower_block(view), trainer_block(view), players_block(view, ctx)):
        if extra is not None:
            blocks.append(extra)
    for extra in (combat_block(view), march_block(view), case_block(view, ctx), hand_block(view, ctx)):
        if extra is not None:
            blocks.append(extra)
    return blocks
