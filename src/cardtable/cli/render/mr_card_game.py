"""Mr. Card Game's table: the 3x3 map, the Tower, the Heap, the trainer, every display case, the hand.

Drawn from the view alone, in about 45 rows (a 50-row terminal): the prompt first; the map as the
grid it is, each location with its top monster (power, element, meat, stat drop) and the item on its
back; beside it the Sorceress, the Heap (its top and price), the trainer and the stat piles; one row
per player (meat, cards, bonuses per maneuver, equipment, skills, escrow); the combat (the score
against each target) or the March (the totals so far) when one is on; then the viewing seat's own
display case with every card's abilities, and its hand. Zones in ``ctx.fold`` shrink to one line:
the board (the map with the Tower, the Heap, the trainer and the piles beside it) when none of its
keys is shown, and the adventurers; the seat's own cards and the prompt never fold.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cardtable.cli.render import RenderContext
from cardtable.cli.render.generic import folded_line
from cardtable.cli.render.generic import render_view as generic_view
from cardtable.engine.game import JSON

_MAN = (("melee", "M"), ("spell", "S"), ("ranged", "R"), ("evade", "E"))
_STAT_SHORT = {"Muscle": "Mus", "Mysticality": "Mys", "Moxie": "Mox"}


def _s(value: JSON) -> str:
    return "" if value is None else str(value)


def _bonus(bonus: JSON) -> str:
    if not isinstance(bonus, Mapping):
        return ""
    return " ".join(f"+{bonus[k]}{short}" for k, short in _MAN if isinstance(bonus.get(k), int) and bonus[k])


def _groups(groups: JSON) -> str:
    """Stat cards by kind with counts, each with the kind actions name it by:
    ``1 Strengthliness (mus1), 2 Sass (mox2)``."""
    if not isinstance(groups, list) or not groups:
        return "-"
    parts = []
    for g in groups:
        if not isinstance(g, Mapping):
            continue
        short = _STAT_SHORT.get(str(g.get("stat")), str(g.get("stat")))
        kind = g.get("kind") or f"{short}{g.get('value')}".lower()
        parts.append(f"{g.get('count', 1)} {g.get('name')} ({kind})")
    return ", ".join(parts)


def _cell(loc: Mapping[str, JSON]) -> RenderableType:
    where = f"{_s(loc.get('location'))} ({loc.get('hidden_cards')} below)"
    lines = [Text(where, style="dim", overflow="ellipsis", no_wrap=True)]
    monster = loc.get("monster")
    if isinstance(monster, Mapping):
        name = Text.assemble((f"#{monster.get('id')} ", "dim"), (_s(monster.get("name")), "bold"))
        name.no_wrap, name.overflow = True, "ellipsis"
        lines.append(name)
        element = _s(monster.get("element"))
        lines.append(Text(f"power {monster.get('power')} · {element}", no_wrap=True, overflow="ellipsis"))
        lines.append(
            Text(f"{monster.get('meat')} meat · {monster.get('stat_drop')}", overflow="ellipsis", no_wrap=True)
        )
        item = monster.get("item_side")
        if isinstance(item, Mapping):
            extra = " ".join(x for x in (_bonus(item.get("bonus")),) if x)
            lines.append(
                Text(
                    f"↳ {item.get('name')} ({item.get('type')}) {extra}",
                    style="cyan",
                    overflow="ellipsis",
                    no_wrap=True,
                )
            )
    elif loc.get("empty"):
        lines.append(Text("(empty: rebuilt from the Heap when its cards are there)", style="dim"))
    else:
        lines.append(Text("(the location card: a new monster at the map update)", style="dim"))
    return Group(*lines)


def map_grid(view: Mapping[str, JSON]) -> RenderableType | None:
    locations = [x for x in view.get("map") or [] if isinstance(x, Mapping)]
    if len(locations) != 9 or not all(isinstance(x.get("row"), int) for x in locations):
        return None
    grid = Table(show_header=False, expand=True, padding=(0, 1), show_lines=True)
    for _ in range(3):
        grid.add_column(ratio=1, overflow="ellipsis")
    cells = {(int(x["row"]), int(x["column"])): _cell(x) for x in locations}
    for r in range(3):
        grid.add_row(*(cells.get((r, c), Text("")) for c in range(3)))
    return grid


def _mat_cell(loc: Mapping[str, JSON]) -> RenderableType:
    """A pile on the playmat: the same facts as a grid cell, in four lines (the mat has 4 rows)."""
    where = _s(loc.get("location")).removeprefix("The ")  # the cells are narrow: the names first
    lines = [Text(f"{where} ({loc.get('hidden_cards')})", style="dim", overflow="ellipsis", no_wrap=True)]
    monster = loc.get("monster")
    if isinstance(monster, Mapping):
        lines.append(
            Text.assemble(
                (f"#{monster.get('id')} ", "dim"), (_s(monster.get("name")), "bold"), no_wrap=True, overflow="ellipsis"
            )
        )
        lines.append(
            Text(
                f"P{monster.get('power')} {_s(monster.get('element'))} · {monster.get('meat')}m · "
                f"{monster.get('stat_drop')}",
                no_wrap=True,
                overflow="ellipsis",
            )
        )
        item = monster.get("item_side")
        if isinstance(item, Mapping):
            lines.append(
                Text(
                    f"↳ {item.get('name')} {_bonus(item.get('bonus'))}", style="cyan", no_wrap=True, overflow="ellipsis"
                )
            )
    else:
        lines.append(Text("(empty)" if loc.get("empty") else "(next at the map update)", style="dim"))
    return Group(*lines)


def _mat_space(view: Mapping[str, JSON], space: Mapping[str, JSON]) -> RenderableType:
    """What lies on one playmat space (S4): a location or nemesis pile, the Tower, the Heap, the
    Quests spotlight or an unused space."""
    holds = space.get("holds")
    name = _s(space.get("space"))
    if holds in ("location", "nemesis location"):
        rows = [*(view.get("map") or []), *(view.get("nemesis") or [])]
        for row in rows:
            if isinstance(row, Mapping) and row.get("location") == name:
                return _mat_cell(row)
    if holds == "tower":
        sorceress = view.get("sorceress")
        if isinstance(sorceress, Mapping):
            return Group(
                Text(name.removeprefix("The "), style="dim", no_wrap=True, overflow="ellipsis"),
                Text(f"{sorceress.get('name')}", style="bold red", no_wrap=True, overflow="ellipsis"),
                Text(f"power {sorceress.get('power')}", style="red"),
            )
    if holds == "heap":
        heap = view.get("heap") if isinstance(view.get("heap"), list) else []
        assert isinstance(heap, list)
        lines = [Text(f"The Heap ({len(heap)})", style="bold")]
        if heap and isinstance(heap[-1], Mapping):
            top = heap[-1]
            price = top.get("meat_cost")
            lines.append(Text(f"#{top.get('id')} {top.get('name')}", no_wrap=True, overflow="ellipsis"))
            lines.append(Text("no dive" if price is None else f"dive {price}m", style="dim"))
        return Group(*lines)
    if holds == "quests":
        quests = [q for q in view.get("quests") or [] if isinstance(q, Mapping)]
        lines = [Text(f"Quests ({len(quests)})", style="bold")]
        if quests:
            boss = quests[0]
            lines.append(Text(f"#{boss.get('id')} {boss.get('name')}", style="bold", no_wrap=True, overflow="ellipsis"))
            lines.append(
                Text(
                    f"P{boss.get('power')} · {boss.get('meat')}m · {boss.get('stat_drop')}",
                    no_wrap=True,
                    overflow="ellipsis",
                )
            )
        return Group(*lines)
    return Text(f"{name}\n({_s(holds)})", style="dim", overflow="ellipsis")


def playmat_grid(view: Mapping[str, JSON]) -> RenderableType | None:
    """S4: the piles on their playmat spaces (the ``layout`` of the view), or None without a mat."""
    layout = view.get("layout")
    if not isinstance(layout, Mapping):
        return None
    rows, columns = layout.get("rows"), layout.get("columns")
    if not isinstance(rows, int) or not isinstance(columns, int):
        return None
    grid = Table(show_header=False, expand=True, padding=(0, 1), show_lines=True)
    for _ in range(columns):
        grid.add_column(ratio=1, overflow="ellipsis")
    cells: dict[tuple[int, int], RenderableType] = {}
    for space in layout.get("spaces") or []:
        if isinstance(space, Mapping) and isinstance(space.get("row"), int) and isinstance(space.get("column"), int):
            cells[(int(space["row"]), int(space["column"]))] = _mat_space(view, space)
    for r in range(rows):
        grid.add_row(*(cells.get((r, c), Text("")) for c in range(columns)))
    return grid


def _trainer_lines(view: Mapping[str, JSON]) -> list[RenderableType]:
    """The trainer: the line of four (newest first) or, with ``class-trainer`` (O6), one row per
    class pile with its face-up top and how many cards lie face down under it."""
    parts: list[RenderableType] = []
    rows = view.get("trainer") or []
    assert isinstance(rows, list)
    by_class = any(isinstance(r, Mapping) and "face_down" in r for r in rows)
    if by_class:
        parts.append(Text("Trainer (class piles [face down])", style="bold"))
    else:
        parts.append(Text.assemble(("Trainer", "bold"), f" (newest first; {view.get('skill_pile')} left)"))
    for row in rows:
        skill = row.get("top") if by_class and isinstance(row, Mapping) else row
        # By class: the pile's name, the cards face down under its top, then the top itself.
        prefix = (
            f" {_s(row.get('class'))[:8]} [{row.get('face_down')}] " if by_class and isinstance(row, Mapping) else " "
        )
        if isinstance(skill, Mapping):
            text = f"{prefix}{skill.get('cost')}m #{skill.get('id')} {skill.get('name')}"
            parts.append(Text(text, overflow="ellipsis", no_wrap=True))
        elif by_class:
            parts.append(Text(f"{prefix}(none face up)", style="dim", no_wrap=True))
        else:
            parts.append(Text(" (trained this turn)", style="dim"))
    return parts


_GLOBAL = "Global effect while she is on top of the Tower: "


def tower_lines(sorceress: JSON) -> list[RenderableType]:
    """The Tower's top with its power; a foil's global effect (B3, it changes the kingdom for everyone
    while she is on top); in ascension (O3) the forms still hidden below and each form's power."""
    if not isinstance(sorceress, Mapping):
        return []
    power = sorceress.get("power")
    top = _s(sorceress.get("name")) + ("" if power is None else f" {power}")
    parts: list[RenderableType] = [Text.assemble(("Tower: ", "bold"), (top, "red"))]
    text = _s(sorceress.get("text"))
    if text.startswith(_GLOBAL):
        effect = text.removeprefix(_GLOBAL).split(". Ascension:")[0].rstrip(".")
        parts.append(Text(f"  global: {effect}", style="magenta", overflow="fold"))
    hidden = sorceress.get("hidden_in_tower")
    powers = sorceress.get("form_powers")
    if isinstance(hidden, Mapping) and isinstance(powers, list):
        forms = " ".join(f"{v}x{p}" for v, p in zip(hidden.values(), powers, strict=False))
        parts.append(Text(f"  hidden, by power: {forms}", style="dim", overflow="fold"))
    return parts


def _pile_cell(card: JSON, left: JSON, label: str) -> Text:
    """One pile in two lines: its top (id, name) and its numbers with how many cards lie below."""
    if not isinstance(card, Mapping):
        return Text(f"{label}\n(empty)", style="dim")
    out = Text.assemble(
        (f"#{card.get('id')} ", "dim"), (_s(card.get("name")), "bold"), no_wrap=True, overflow="ellipsis"
    )
    out.append(f"\n{left}↓ P{card.get('power')} {_s(card.get('element'))}", style="dim")  # ↓: cards below
    return out


def piles_row(view: Mapping[str, JSON]) -> RenderableType | None:
    """B1/B2 without the playmat: the four nemesis piles' tops and the quest pile's next boss, in one
    row under the kingdom (with the playmat they lie on their own spaces)."""
    if isinstance(view.get("layout"), Mapping):
        return None
    cells: list[Text] = []
    for pile in view.get("nemesis") or []:
        if isinstance(pile, Mapping):
            cells.append(_pile_cell(pile.get("monster"), pile.get("hidden_cards"), _s(pile.get("location"))))
    quests = view.get("quests")
    if isinstance(quests, list):
        boss = quests[0] if quests else None
        cell = _pile_cell(boss, len(quests) - 1 if quests else 0, "Quests")
        if isinstance(boss, Mapping):
            cell.append(f" · {boss.get('meat')}m", style="dim")
        cells.append(cell)
    if not cells:
        return None
    grid = Table.grid(expand=True, padding=(0, 1))
    for _ in cells:
        grid.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
    grid.add_row(*cells)
    title = " · ".join(x for x in ("Nemesis piles" if view.get("nemesis") else "", "Quests" if quests else "") if x)
    return Panel(grid, title=title, title_align="left")


def side_panel(view: Mapping[str, JSON], across: bool = False) -> RenderableType:
    """The Tower, the Heap (without a playmat), the trainer, the stat piles and the meat pool: one
    column beside the map, or, ``across`` (under a playmat on a narrow screen), the trainer in a
    second column so the panel stays short."""
    parts: list[RenderableType] = []
    parts += tower_lines(view.get("sorceress"))
    heap = view.get("heap") if isinstance(view.get("heap"), list) else []
    assert isinstance(heap, list)
    if isinstance(view.get("layout"), Mapping):
        pass  # the Heap has its own space on the playmat
    elif heap and isinstance(heap[-1], Mapping):
        top = heap[-1]
        price = top.get("meat_cost")
        parts.append(Text.assemble(("Heap ", "bold"), f"({len(heap)}): #{top.get('id')} {top.get('name')}"))
        parts.append(Text("  no price: no dive" if price is None else f"  dive for {price} meat", style="dim"))
    else:
        parts.append(Text.assemble(("Heap ", "bold"), "(empty)"))
    trainer = _trainer_lines(view)
    if not across:
        parts += trainer
    piles = [p for p in view.get("stat_piles") or [] if isinstance(p, Mapping)]
    if piles:
        by_stat: dict[str, list[str]] = {}
        for p in piles:
            by_stat.setdefault(_STAT_SHORT.get(str(p.get("stat")), "?"), []).append(str(p.get("left")))
        parts.append(Text.assemble(("Stat piles", "bold"), " (values 1/2/3/4)"))
        parts.append(Text(" " + " · ".join(f"{k} {'/'.join(v)}" for k, v in by_stat.items()), overflow="fold"))
    pool = view.get("meat_pool")
    parts.append(Text(f"Meat pool: {'unlimited' if pool is None else pool}", style="dim"))
    if not across:
        return Group(*parts)
    grid = Table.grid(expand=True, padding=(0, 2))
    grid.add_column(ratio=1)
    grid.add_column(ratio=1)
    grid.add_row(Group(*parts), Group(*trainer))
    return grid


def status_lines(view: Mapping[str, JSON], ctx: RenderContext) -> list[RenderableType]:
    """Under the adventurers, one line per supplemental part in play, every player on it: O3 the run
    each is on (``r2``: facing form 2), their Instant Karmas and King Ralph; S2/S3 each class (the
    board's Mr. Card Game side: "no class"); O2 the negative effects in display cases, by name; S1 the
    face-down Mr. Store items of other players that this seat knows (seen face up before)."""
    rows = [r for r in view.get("players") or [] if isinstance(r, Mapping)]
    runs, classes, hurt, known = [], [], [], []
    for i, row in enumerate(rows):
        who = ctx.seat_name(i)
        seen = [c for c in row.get("store_known_face_down") or [] if isinstance(c, Mapping)]
        if seen and i != ctx.seat:  # the viewer's own are listed by name under its hand
            known.append(f"{who} " + ", ".join(f"#{c.get('id')} {c.get('name')}" for c in seen))
        if isinstance(row.get("runs_completed"), int):
            karma = [k for k in row.get("instant_karma") or [] if isinstance(k, Mapping)]
            n = sum(1 for k in karma if k.get("type") != "King Ralph")
            ralph = any(k.get("type") == "King Ralph" for k in karma)
            runs.append(
                f"{who} " + ("freed King Ralph" if ralph else f"r{row['runs_completed'] + 1}") + f" IK x{n}" * (n > 0)
            )
        if "class" in row:
            klass = row.get("class")
            if not isinstance(klass, Mapping):
                classes.append(f"{who} -")
            elif str(klass.get("side")) == "Mr. Card Game":
                classes.append(f"{who} no class")
            else:
                side = " (side not chosen)" if klass.get("side") == "not chosen yet" else ""
                classes.append(f"{who} {klass.get('class')}{side}")
        effects = [_s(e.get("name")) for e in row.get("negative_effects") or [] if isinstance(e, Mapping)]
        if effects:
            hurt.append(f"{who} {', '.join(effects)}")
    out: list[RenderableType] = []
    if runs:
        out.append(Text.assemble(("Runs (IK: Instant Karma): ", "bold"), " · ".join(runs), overflow="fold"))
    if classes:
        out.append(Text.assemble(("Classes: ", "bold"), (" · ".join(classes), "cyan"), overflow="fold"))
    if any("negative_effects" in r for r in rows):
        out.append(Text.assemble(("Negative effects: ", "bold"), (" · ".join(hurt) or "none", "red"), overflow="fold"))
    if known:
        out.append(Text.assemble(("Known face-down Mr. Store items: ", "bold"), " · ".join(known), overflow="fold"))
    return out


def players_table(view: Mapping[str, JSON], ctx: RenderContext) -> RenderableType:
    table = Table(expand=True, padding=(0, 1), show_edge=False)
    rows = [r for r in view.get("players") or [] if isinstance(r, Mapping)]
    # O3.4: with ascension every view says which skills are permed (perming is announced).
    ascension = any(isinstance(sk, Mapping) and "permed" in sk for r in rows for sk in r.get("skills") or [])
    for column, kw in (
        ("seat", {"no_wrap": True, "min_width": 12}),
        ("meat", {"justify": "right", "no_wrap": True, "min_width": 4}),
        ("hand/deck/disc", {"no_wrap": True, "min_width": 14}),
        ("M S R E", {"no_wrap": True, "min_width": 7}),
        ("equipped", {"overflow": "ellipsis", "no_wrap": True, "ratio": 3}),
        (
            "skills (* buff on, ^ permed)" if ascension else "skills (* buff on)",
            {"overflow": "ellipsis", "no_wrap": True, "ratio": 2},
        ),
        ("escrow · played", {"overflow": "ellipsis", "no_wrap": True, "ratio": 1}),
    ):
        table.add_column(column, **kw)
    for i, row in enumerate(view.get("players") or []):
        if not isinstance(row, Mapping):
            continue
        name = ctx.who(i) + (" ★" if row.get("certificate") else "") + (" OUT" if row.get("out_of_the_game") else "")
        if isinstance(row.get("store_face_down"), int) and row["store_face_down"]:
            name += f" [{row['store_face_down']} MrS]"  # face-down Mr. Store items (S1)
        bonuses = row.get("bonuses") if isinstance(row.get("bonuses"), Mapping) else {}
        assert isinstance(bonuses, Mapping)
        mser = " ".join(_s(bonuses.get(k)) for k, _ in _MAN)
        case = [c for c in row.get("display_case") or [] if isinstance(c, Mapping)]
        equipped = ", ".join(_s(c.get("name")) for c in case if c.get("equipped"))
        others = len([c for c in case if not c.get("equipped")])
        if others:
            equipped += f" (+{others} more)"
        skills = ", ".join(
            _s(sk.get("name")) + ("*" if sk.get("active") else "") + ("^" if sk.get("permed") else "")
            for sk in row.get("skills") or []
            if isinstance(sk, Mapping)
        )
        escrow = ", ".join(_s(c.get("name")) for c in row.get("escrow") or [] if isinstance(c, Mapping))
        played = _groups(row.get("played"))
        mojo = row.get("mojo")
        discard = sum(int(g.get("count", 0)) for g in row.get("discard") or [] if isinstance(g, Mapping))
        stats = f"{row.get('hand_size')}/{row.get('deck_size')}/{discard}"
        table.add_row(
            Text(name, style="bold" if i == ctx.seat else ""),
            _s(row.get("meat")) + (f" ({mojo} mojo)" if mojo else ""),
            stats,
            mser,
            equipped,
            skills or "-",
            " · ".join(x for x in (escrow, played if played != "-" else "") if x) or "-",
        )
    return Panel(Group(table, *status_lines(view, ctx)), title="Adventurers", title_align="left")


def combat_panel(view: Mapping[str, JSON]) -> RenderableType | None:
    combat = view.get("combat")
    if not isinstance(combat, Mapping):
        return None
    head = Text(
        f"{combat.get('player')}: {combat.get('maneuver') or 'no maneuver yet'} · "
        f"cards {combat.get('cards_played_total')} · damage {combat.get('damage')} · "
        f"power reduction {combat.get('power_reduction')}"
    )
    parts: list[RenderableType] = [head]
    sorc = combat.get("against_sorceress")
    if isinstance(sorc, Mapping):
        parts.append(Text(f"against the Sorceress: score {sorc.get('score')}, needs {sorc.get('needs')}", style="bold"))
    rows = [r for r in combat.get("targets") or [] if isinstance(r, Mapping)]
    if rows:
        parts.append(Text("your score/the power against each target (✓ beaten):", style="dim"))
        # Three targets to a line, as on the 3x3 map: the panel stays short at five players. The
        # numbers come first, so that a narrow screen cuts a long name, never the score.
        grid = Table.grid(expand=True, padding=(0, 2))
        for _ in range(3):
            grid.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
        cells = [
            Text.assemble(
                (f"{_s(r.get('score'))}/{_s(r.get('power'))}", "bold green" if r.get("beaten") else "bold"),
                (" ✓", "green") if r.get("beaten") else "",
                f" #{_s(r.get('card'))} {_s(r.get('monster'))} ",
                (f"({_s(r.get('element'))})", "dim"),
            )
            for r in rows
        ]
        for i in range(0, len(cells), 3):
            grid.add_row(*cells[i : i + 3], *[""] * (3 - len(cells[i : i + 3])))
        parts.append(grid)
    return Panel(Group(*parts), title="Combat", title_align="left", border_style="yellow")


def march_panel(view: Mapping[str, JSON]) -> RenderableType | None:
    march = view.get("march")
    if not isinstance(march, Mapping):
        return None
    totals = ", ".join(
        f"{t.get('player')} {t.get('total')} (needs {t.get('needs')})"
        for t in march.get("totals") or []
        if isinstance(t, Mapping)
    )
    order = ", ".join(_s(x) for x in march.get("order") or [])
    out = ", ".join(_s(x) for x in march.get("eliminated") or [])
    text = f"announced by {march.get('announcer')}" + (f" · order {order}" if order else "")
    text += f" · totals: {totals or 'none yet'}" + (f" · out: {out}" if out else "")
    return Panel(Text(text), title="March on the Tower", title_align="left", border_style="red")


SQUEEZE_ROWS = 8
"""Rows of the seat's own display case beyond which, when the screen folds, skills go by name only."""


def _skill_state(c: Mapping[str, JSON]) -> str:
    """A skill's state in a word or two: ON/off (buffs), used (this turn), permed (ascension)."""
    state = {True: "ON", False: "off"}.get(c.get("active"), "") if "active" in c else ""  # type: ignore[arg-type]
    if c.get("used_this_turn"):
        state = "used"
    if c.get("permed"):  # O3.4: a permed skill
        state = f"permed {state}".strip()
    return state


def own_cards(view: Mapping[str, JSON], ctx: RenderContext) -> list[RenderableType]:
    if ctx.seat is None:
        return []
    players = view.get("players")
    row = players[ctx.seat] if isinstance(players, list) and ctx.seat < len(players) else None
    parts: list[RenderableType] = []
    if isinstance(row, Mapping):
        # No header (the columns speak for themselves): two rows kept for the seat's own cards.
        table = Table(show_edge=False, show_header=False, padding=(0, 1), expand=True)
        table.add_column("#", justify="right", no_wrap=True, min_width=3)
        table.add_column("card", no_wrap=True, ratio=2, overflow="ellipsis")
        table.add_column("", no_wrap=True, min_width=10)
        table.add_column("abilities", overflow="ellipsis", no_wrap=True, ratio=4)
        klass = row.get("class")
        if isinstance(klass, Mapping):  # S2/S3: the class card or board, the side up, its ability
            side = _s(klass.get("side"))
            table.add_row(
                _s(klass.get("id")), f"{klass.get('name')} ({klass.get('type')})", side, _s(klass.get("text"))
            )
        for c in row.get("instant_karma") or []:  # O3.5: the defeated foils, Instant Karma side up
            if isinstance(c, Mapping):
                table.add_row(_s(c.get("id")), f"{c.get('name')} ({c.get('type')})", "kept", _s(c.get("text")))
        for c in row.get("negative_effects") or []:  # O2: a boss's back, until a cure or a rollover
            if isinstance(c, Mapping):
                name = Text(f"{c.get('name')} ({c.get('type')})", style="red")
                table.add_row(_s(c.get("id")), name, "negative", _s(c.get("text")))
        for c in row.get("display_case") or []:
            if isinstance(c, Mapping):
                state = "equipped" if c.get("equipped") else ("" if c.get("equipped") is None else "unequipped")
                table.add_row(_s(c.get("id")), f"{c.get('name')} ({c.get('type')})", state, _s(c.get("text")))
        skills = [c for c in row.get("skills") or [] if isinstance(c, Mapping)]
        # A long game's case can outgrow the screen; when the screen is being folded, the skills go
        # on wrapped lines by name (the `view` command draws every ability again).
        squeeze = "players" in ctx.fold and table.row_count + len(skills) > SQUEEZE_ROWS
        if not squeeze:
            for c in skills:
                table.add_row(_s(c.get("id")), f"{c.get('name')} ({c.get('type')})", _skill_state(c), _s(c.get("text")))
        body: RenderableType = table
        if squeeze:
            names = " · ".join(
                f"#{c.get('id')} {c.get('name')}" + (f" [{s}]" if (s := _skill_state(c)) else "") for c in skills
            )
            body = Group(table, Text.assemble(("skills: ", "bold"), names, overflow="fold"))
        parts.append(Panel(body, title="Your display case", title_align="left", border_style="green"))
    paying = view.get("paying")
    hand = Text.assemble(("Your hand: ", "bold green"), _groups(view.get("hand")))
    deck = Text.assemble(("  deck holds: ", "dim"), (_groups(view.get("deck")), "dim"))
    store = [c for c in view.get("store") or [] if isinstance(c, Mapping)]
    if store:  # S1: the viewer's own face-down Mr. Store items (others see only how many)
        items = " · ".join(f"#{c.get('id')} {c.get('name')} ({c.get('meat_cost')}m)" for c in store)
        parts.append(
            Text.assemble(("Mr. Store, face down: ", "bold magenta"), items, no_wrap=True, overflow="ellipsis")
        )
    parts.append(Group(hand, deck))
    if isinstance(paying, Mapping):
        parts.append(Text(f"mojo pool {paying.get('mojo_pool')}", style="yellow"))
    return parts


FOLDABLE = {
    "the board": ("map", "layout", "nemesis", "quests", "sorceress", "heap", "trainer", "stat_piles", "meat_pool"),
    "adventurers": ("players",),
}
"""What folds, and the view keys that must all be unchanged for it to fold."""


MAT_BESIDE = 120
"""The narrowest screen on which the playmat's six columns keep the Tower panel beside them; on a
narrower one the panel goes under the mat, so each space keeps a readable width (at 80 columns,
beside it, a space showed three or four letters of a name)."""


class _Board:
    """The map (or playmat) with the Tower, Heap and trainer panel ``right`` of it, or ``under`` it
    when the screen is narrower than ``beside`` columns: decided at drawing time, from the console's
    width."""

    def __init__(self, left: RenderableType, right: RenderableType, under: RenderableType, beside: int) -> None:
        self.left, self.right, self.under, self.beside = left, right, under, beside

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if options.max_width < self.beside:
            yield self.left
            yield self.under
            return
        board = Table.grid(expand=True, padding=(0, 1))
        board.add_column(ratio=1)
        board.add_column(width=36)
        board.add_row(self.left, self.right)
        yield board


def render_view(view: dict[str, JSON], ctx: RenderContext) -> RenderableType:
    grid = map_grid(view)
    if grid is None:  # a view this renderer does not understand: the generic layout shows it all
        return generic_view(view, ctx)
    title = ctx.game.title or ctx.game.id
    current = view.get("current_player")
    head = Text.assemble(
        (title, "bold"),
        f"  ·  round {view.get('round')} of at most {view.get('turn_limit')}  ·  turn {view.get('turn')}  ·  ",
        (f"{ctx.seat_name(current)} to decide" if isinstance(current, int) else "game over", "yellow"),
        ("  ·  " + (f"you are {ctx.seat_name(ctx.seat)}" if ctx.seat is not None else "spectator"), "cyan"),
        f"  ·  {view.get('phase')}",
    )
    folded = [name for name, keys in FOLDABLE.items() if all(k in ctx.fold for k in keys if k in view)]
    top: RenderableType | None = None
    if "the board" not in folded:
        mat = playmat_grid(view)
        kingdom = Panel(mat, title="The Playmat", title_align="left") if mat is not None else None
        left: RenderableType = kingdom or Panel(grid, title="The Kingdom", title_align="left")
        piles = piles_row(view)
        top = _Board(
            left if piles is None else Group(left, piles),
            Panel(side_panel(view), border_style="blue"),
            Panel(side_panel(view, across=True), border_style="blue"),
            MAT_BESIDE if mat is not None else 0,
        )
    parts: Sequence[RenderableType | None] = (
        head,
        Text(str(view.get("prompt")), style="bold yellow"),
        top,
        None if "adventurers" in folded else players_table(view, ctx),
        combat_panel(view),
        march_panel(view),
        *own_cards(view, ctx),
        folded_line(folded, ctx.fold_note) if folded else None,
    )
    return Group(*(p for p in parts if p is not None))
