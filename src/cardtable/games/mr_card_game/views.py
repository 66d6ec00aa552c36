"""What each seat sees (``view``), the prompt, the god view (``snapshot``) and the result.

A view is the table as a person in that seat sees it (DESIGN.md, "Views are for people"): the 3x3
map with each location's top monster (both sides) and what is still below it (a set anyone can work
out, never its order), the Sorceress, the Heap in order, the trainer, the stat piles, every display
case, escrow, played cards and discard pile, the totals a player adds up (bonuses per maneuver, the
score against each target in a combat, the mojo pool, the March totals), and a prompt saying what is
being decided, by whom and why. Hidden: other players' hands (a count, and what hand and deck hold
together, which is public), every deck's order, the hidden part of the location piles and the skill
draw pile (a count). Stat cards of one kind are interchangeable, so they appear as kinds with counts.
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Final

from cardtable.engine import JSON, Action, Result, ranks_from_keys
from cardtable.engine.memo import per_game
from cardtable.games.mr_card_game import modifiers
from cardtable.games.mr_card_game.cards import (
    CLASS_WORDS,
    E_COMBAT,
    E_NONCOMBAT,
    E_PASSIVE,
    K_BOARD_ITEM,
    K_BOSS,
    K_CLASS_BOARD,
    K_CLASS_CARD,
    K_FOIL,
    K_NEMESIS,
    K_STAT,
    K_STORE,
    MOJO_X,
    S_BUFF,
    S_COMBAT,
    S_NONCOMBAT,
    S_PASSIVE,
    SKILL_SUBTYPES,
    STAT_KINDS,
)
from cardtable.games.mr_card_game.codes import (
    D_BLOCK,
    D_CHOOSE,
    D_CLASS,
    D_COMBAT,
    D_CURE,
    D_DISCARD,
    D_LIMIT,
    D_MANEUVER,
    D_NONCOMBAT,
    D_PERM,
    D_POLL,
    D_PULVERIZE,
    D_SIDE,
    D_SPELLX,
    D_TARGET,
    D_UNEQUIP,
    D_UPGRADE,
    KIND_VALUES,
    M_MARCH,
    NO_LIMIT,
    ST_COMBAT,
    ST_MANEUVER,
    ST_TARGET,
)
from cardtable.games.mr_card_game.effects import (
    BONUS_WORDS,
    ELEMENTS,
    MANEUVER_STAT,
    MANEUVER_WORDS,
    MANEUVERS,
    STAT_WORDS,
    SUBTYPES,
    UNEQUIP,
    describe,
)
from cardtable.games.mr_card_game.march import sorceress_name

if TYPE_CHECKING:
    from cardtable.games.mr_card_game.game import MrCardGame
    from cardtable.games.mr_card_game.state import McgState

_ORIGIN = {K_NEMESIS: "epic item", K_STORE: "Mr. Store", K_BOARD_ITEM: "class board"}
_ITEM_TYPE_WORDS = ("weapon", "hat", "pants", "accessory", "food", "booze", "combat item", "special item")
_SKILL_ABILITY = ("passive", "buff", "combat", "non-combat")


# -- card objects ------------------------------------------------------------------------------------


def _bonus(icons: tuple[int, int, int, int]) -> dict[str, JSON]:
    return {MANEUVERS[m]: v for m, v in enumerate(icons) if v}


def _bonus_words(icons: tuple[int, int, int, int]) -> list[str]:
    return [f"+{v} {BONUS_WORDS[m]}" for m, v in enumerate(icons) if v]


def item_text(g: MrCardGame, card: int) -> str:
    """An item's printed abilities in words (computed once per game and card)."""
    key = ("item", card)
    text = g.text_cache.get(key)
    if text is None:
        text = g.text_cache[key] = _item_text(g, card)
    return text


def _item_text(g: MrCardGame, card: int) -> str:
    c = g.cards
    parts = _bonus_words(c.icons[card])
    effects = "; ".join(describe(e) for e in c.effects[card])
    et = c.etype[card]
    consumed = c.itype[card] >= 4 or g.consume_all
    if et == E_PASSIVE and effects:
        parts.append(f"Passive: {effects}")
    elif et == E_NONCOMBAT:
        parts.append(f"Non-combat{' (used up)' if consumed else ', once a turn'}: {effects}")
    elif et == E_COMBAT:
        parts.append(f"Combat{' (used up)' if consumed else ', once a turn'}: {effects}")
    if c.slot[card] >= 0:
        parts.append("works only while equipped")
    k = c.kind[card]
    if k == K_STORE:
        parts.append("never AutoSold nor put into the Heap (pulverized: back face down to its owner)")
    elif k == K_BOARD_ITEM:
        parts.append("printed on a class board: always available, never AutoSold")
    return ". ".join(p[0].upper() + p[1:] for p in parts) + ("." if parts else "")


def item_json(g: MrCardGame, card: int) -> dict[str, JSON]:
    """An item card (item side up)."""
    c = g.cards
    it = c.itype[card]
    kind = _ITEM_TYPE_WORDS[it]
    if it == 0:
        kind = ("ranged " if c.ranged[card] else "melee ") + kind
    origin = _ORIGIN.get(c.kind[card])
    if origin:
        kind += f" ({origin})"
    out: dict[str, JSON] = {
        "id": card,
        "name": c.iname[card],
        "type": kind,
        "text": item_text(g, card),
        "bonus": _bonus(c.icons[card]),
        "power": c.anvil[card] if c.slot[card] >= 0 else None,
        "autosell": c.autosell[card] if c.autosell[card] >= 0 else None,
        "meat_cost": c.price[card] if c.price[card] >= 0 else None,
    }
    return out


def _item_side(g: MrCardGame, card: int) -> dict[str, JSON]:
    """The item side of a card on the map (no id: the card object is the monster)."""
    d = item_json(g, card)
    del d["id"]
    return d


def monster_json(g: MrCardGame, card: int) -> dict[str, JSON]:
    c = g.cards
    drop = c.drop[card]
    return {
        "id": card,
        "name": c.mname[card],
        "type": "monster",
        "text": "",
        "power": c.mpower[card],
        "element": ELEMENTS[c.element[card]],
        "meat": c.meat[card],
        "stat_drop": stat_words(g, drop) if drop >= 0 else f"any type, value {-1 - drop}",
        "location": c.locations[c.loc[card]].name if c.loc[card] >= 0 else "",
        "item_side": _item_side(g, card),
    }


def skill_text(g: MrCardGame, card: int) -> str:
    """A skill's printed abilities in words (computed once per game and card)."""
    key = ("skill", card)
    text = g.text_cache.get(key)
    if text is None:
        text = g.text_cache[key] = _skill_text(g, card)
    return text


def _skill_text(g: MrCardGame, card: int) -> str:
    c = g.cards
    parts = _bonus_words(c.icons[card])
    effects = "; ".join(describe(e) for e in c.effects[card])
    st = c.stype[card]
    if st == S_PASSIVE:
        if effects:
            parts.append(f"Passive: {effects}")
    elif st == S_BUFF:
        parts = [
            f"Buff ({c.mojo[card]} mojo, until your next rollover or the March): "
            + "; ".join([*parts, *([effects] if effects else [])])
        ]
    elif st == S_COMBAT:
        cost = "X" if c.mojo[card] == MOJO_X else str(c.mojo[card])
        parts.append(f"Combat ({cost} mojo, once a turn): {effects}")
    elif st == S_NONCOMBAT:
        parts.append(f"Non-combat ({c.mojo[card]} mojo, once a turn): {effects}")
    return ". ".join(p[0].upper() + p[1:] for p in parts) + ("." if parts else "")


def skill_json(g: MrCardGame, card: int) -> dict[str, JSON]:
    c = g.cards
    st = c.stype[card]
    return {
        "id": card,
        "name": c.iname[card],
        "type": SKILL_SUBTYPES[c.ssub[card]],
        "text": skill_text(g, card),
        "class": CLASS_WORDS[c.sclass[card]],
        "ability": _SKILL_ABILITY[st],
        "cost": c.cost[card],
        "mojo": None if st == S_PASSIVE else ("X" if c.mojo[card] == MOJO_X else c.mojo[card]),
        "bonus": _bonus(c.icons[card]),
    }


def stat_words(g: MrCardGame, kind: int) -> str:
    t, v = divmod(kind, 4)
    return f"{g.cards.stat_names[kind]} ({STAT_WORDS[t]} {v + 1})"


def kind_groups(s: McgState, cards: list[int] | tuple[int, ...]) -> list[JSON]:
    """Stat cards as kinds with counts (they are interchangeable), by type then value."""
    g = s.game
    skind = g.cards.skind
    counts = [0] * 12
    for card in cards:
        counts[skind[card]] += 1
    out: list[JSON] = []
    for k in range(12):
        if counts[k]:
            t, v = divmod(k, 4)
            out.append(
                {
                    "kind": STAT_KINDS[k],
                    "name": g.cards.stat_names[k],
                    "type": "stat",
                    "text": "",
                    "stat": STAT_WORDS[t],
                    "value": v + 1,
                    "count": counts[k],
                }
            )
    return out


# -- what a view draws from the card data alone ------------------------------------------------------


class _Cache:
    """Per game, the parts of a view that depend on the card data and options alone, built on first
    need: each card's JSON (item, monster, skill), each stat kind's group, the seat names, and each
    stat piles' numbers. A view hands out copies (:func:`_copy_item`, ``dict(...)``), never these
    objects: callers may change what a view returns."""

    __slots__ = ("any", "below", "bonuses", "g", "item", "kinds", "monster", "names", "piles", "skill")

    def __init__(self, g: MrCardGame) -> None:
        self.g = g
        self.item: dict[int, dict[str, JSON]] = {}
        self.monster: dict[int, dict[str, JSON]] = {}
        self.skill: dict[int, dict[str, JSON]] = {}
        self.any: dict[int, dict[str, JSON]] = {}
        self.bonuses: dict[tuple[int, ...], dict[str, JSON]] = {}
        """:func:`_bonuses` by a player's modifiers (a tuple the state replaces, never changes)."""
        self.below: dict[tuple[int, ...], list[str]] = {}
        """The sorted names of the monsters below a location's top, by the cards there (a tuple)."""
        self.piles = tuple(
            {"kind": STAT_KINDS[k], "name": g.cards.stat_names[k], "stat": STAT_WORDS[k // 4], "value": k % 4 + 1}
            for k in range(12)
        )
        self.names = tuple(g.seat_name(p) for p in range(g.players))
        self.kinds = tuple(
            {
                "kind": STAT_KINDS[k],
                "name": g.cards.stat_names[k],
                "type": "stat",
                "text": "",
                "stat": STAT_WORDS[k // 4],
                "value": k % 4 + 1,
            }
            for k in range(12)
        )

    def item_json(self, card: int) -> dict[str, JSON]:
        t = self.item.get(card)
        if t is None:
            t = self.item[card] = item_json(self.g, card)
        d = dict(t)
        d["bonus"] = dict(t["bonus"])
        return d

    def monster_json(self, card: int) -> dict[str, JSON]:
        t = self.monster.get(card)
        if t is None:
            t = self.monster[card] = monster_json(self.g, card)
        d = dict(t)
        side = d["item_side"] = dict(t["item_side"])
        side["bonus"] = dict(side["bonus"])
        return d

    def skill_json(self, card: int) -> dict[str, JSON]:
        t = self.skill.get(card)
        if t is None:
            t = self.skill[card] = skill_json(self.g, card)
        d = dict(t)
        d["bonus"] = dict(t["bonus"])
        return d

    def card_json(self, card: int) -> dict[str, JSON]:
        """:func:`card_json`, copied from the cache (every card object it makes has at most one nested
        object, an item's or a skill's ``bonus``)."""
        t = self.any.get(card)
        if t is None:
            t = self.any[card] = card_json(self.g, card)
        d = dict(t)
        bonus = t.get("bonus")
        if bonus is not None:
            d["bonus"] = dict(bonus)
        return d

    def bonuses_of(self, mods: tuple[int, ...]) -> dict[str, JSON]:
        t = self.bonuses.get(mods)
        if t is None:
            if len(self.bonuses) >= _MEMO_LIMIT:
                self.bonuses.clear()
            t = self.bonuses[mods] = _bonuses(mods)
        d = dict(t)
        vs = t.get("against")
        if vs is not None:
            d["against"] = {e: dict(row) for e, row in vs.items()}
        return d

    def still_below(self, below: tuple[int, ...]) -> list[str]:
        t = self.below.get(below)
        if t is None:
            if len(self.below) >= _MEMO_LIMIT:
                self.below.clear()
            mname = self.g.cards.mname
            t = self.below[below] = sorted([mname[x] for x in below])
        return list(t)

    def kind_groups(self, cards: list[int] | tuple[int, ...]) -> list[JSON]:
        """:func:`kind_groups`, from the cached kinds."""
        return self.groups(self.counts(cards))

    def counts(self, *piles: list[int] | tuple[int, ...]) -> list[int]:
        """How many stat cards of each kind (0..11) the piles hold together."""
        skind = self.g.cards.skind
        counts = [0] * 12
        for cards in piles:
            for card in cards:
                counts[skind[card]] += 1
        return counts

    def groups(self, counts: list[int]) -> list[JSON]:
        """Kind groups from counts by kind (the order of :func:`kind_groups`: kind by kind)."""
        kinds = self.kinds
        out: list[JSON] = []
        for k in range(12):
            n = counts[k]
            if n:
                d = dict(kinds[k])
                d["count"] = n
                out.append(d)
        return out


_MEMO_LIMIT: Final = 4096
"""Entries a memo of :class:`_Cache` keyed by state values holds before it starts afresh (a server
runs many games of one :class:`MrCardGame`: the memo must not grow without bound)."""


def _stat_total(counts: list[int]) -> int:
    """The stat values of cards counted by kind (a kind's value is ``kind % 4 + 1``)."""
    return sum(map(operator.mul, counts, KIND_VALUES))


_cache = per_game(_Cache)


def card_json(g: MrCardGame, card: int) -> dict[str, JSON]:
    """Any card as people see it face up."""
    c = g.cards
    k = c.kind[card]
    if card in c.skills:
        return skill_json(g, card)
    if k == K_BOSS:
        return negative_json(g, card)
    if k == K_STAT:
        return {"id": card, "name": c.stat_names[c.skind[card]], "type": "stat", "text": ""}
    if k == K_FOIL:
        return karma_json(g, card)
    if k in (K_CLASS_CARD, K_CLASS_BOARD):
        return class_json(g, card)
    if card < c.items.stop:
        return item_json(g, card)
    return {"id": card, "name": c.iname[card], "type": "card", "text": ""}


def global_words(g: MrCardGame, card: int) -> str:
    """A foil's global effect in words (it changes the kingdom for everyone while she is on top)."""
    fx = g.cards.gfx[card]
    if not fx:
        return "no global effect"
    return "; ".join(describe(e).replace(" on your turn", "").replace(" your ", " every player's ") for e in fx)


def foil_json(g: MrCardGame, card: int) -> dict[str, JSON]:
    """A Naughty Sorceress foil, Sorceress side up (on top of the Tower)."""
    c = g.cards
    form = c.form[card]
    return {
        "id": card,
        "name": c.mname[card],
        "type": f"Naughty Sorceress (form {form})",
        "text": f"Global effect while she is on top of the Tower: {global_words(g, card)}.",
        "power": c.mpower[card],
        "element": ELEMENTS[c.element[card]],
        "form": form,
        "back": c.iname[card],
    }


def karma_json(g: MrCardGame, card: int) -> dict[str, JSON]:
    """A defeated foil, its back up: Instant Karma (or King Ralph)."""
    c = g.cards
    effects = "; ".join(describe(e) for e in c.effects[card])
    return {
        "id": card,
        "name": c.iname[card],
        "type": "special item" if c.form[card] < 3 else "King Ralph",
        "text": f"Passive, kept through every ascension: {effects}." if effects else "",
        "defeated": c.mname[card],
    }


_SUBTYPE_WORDS = ("injury", "impairment", "illness")


def negative_text(g: MrCardGame, card: int) -> str:
    c = g.cards
    parts = []
    for e in c.effects[card]:
        words = describe(e)
        parts.append(f"when it arrives, {words}" if e[0] == UNEQUIP else words)
    return "; ".join(parts) + "." if parts else ""


def negative_json(g: MrCardGame, card: int) -> dict[str, JSON]:
    """A boss card flipped: its negative effect (in a display case, or removed from the game)."""
    c = g.cards
    return {
        "id": card,
        "name": c.negative_name[card],
        "type": f"negative effect ({_SUBTYPE_WORDS[c.subtype[card]]})",
        "text": negative_text(g, card),
        "boss": c.mname[card],
    }


def boss_json(g: MrCardGame, card: int) -> dict[str, JSON]:
    """A boss, boss side up (the quest pile): its numbers and, on its back, its negative effect."""
    c = g.cards
    value = -1 - c.drop[card]
    neg = c.negative_name[card]
    return {
        "id": card,
        "name": c.mname[card],
        "type": "boss",
        "text": (
            f"Hardcore: counter-attacks with {value} of any single stat type. Drops no item; a stat card of "
            f"value {value}, any type. Back: {neg} ({_SUBTYPE_WORDS[c.subtype[card]]}): {negative_text(g, card)}"
        ),
        "power": c.mpower[card],
        "element": ELEMENTS[c.element[card]],
        "meat": c.meat[card],
        "stat_drop": f"any type, value {value}",
        "negative_effect": neg,
    }


def class_json(g: MrCardGame, card: int, plain: bool = False, choosing: bool = False) -> dict[str, JSON]:
    """A class card, or a class board (its class side, or its Mr. Card Game side; ``choosing``: dealt
    at setup, its side not chosen yet, so its ability does not count yet)."""
    c = g.cards
    effects = "; ".join(describe(e) for e in c.effects[card])
    if c.kind[card] == K_CLASS_CARD:
        return {
            "id": card,
            "name": c.iname[card],
            "type": "character class card",
            "text": f"Passive: {effects}.",
            "class": CLASS_WORDS[c.sclass[card]],
        }
    equipment = [c.iname[x] for x in c.board_items[c.class_boards.index(card)]]
    class_side = f"Class side: {effects}. Starting equipment (never AutoSold): {', '.join(equipment)}."
    if choosing:
        text = f"{class_side} Mr. Card Game side: no class (the standard newbie gear)."
    else:
        text = "Mr. Card Game side: no class (the standard newbie gear)." if plain else class_side
    return {
        "id": card,
        "name": c.iname[card],
        "type": "character class board",
        "text": text,
        "class": CLASS_WORDS[c.sclass[card]],
        "side": "not chosen yet" if choosing else "Mr. Card Game" if plain else "class",
    }


# -- the prompt --------------------------------------------------------------------------------------


def prompt(s: McgState, seat: int | None) -> str:
    """One sentence: what is being decided now, by whom and why (as ``seat`` may know it)."""
    g = s.game
    if s.is_over:
        return "The game is over: " + _ending(s)
    p = s.current_player if s.current_player is not None else s.actor
    who = g.seat_name(p)
    you = " (you)" if seat == p else ""
    ph = s.phase
    march = s.mode == M_MARCH
    if ph == D_POLL:
        return f"{who}{you}: march on the Tower, or pass? (round {s.round} is over)"
    if ph == D_NONCOMBAT:
        if march:
            return f"{who}{you}: the March on the Tower — your last non-combat phase (done when finished)"
        store = ", reveal Mr. Store items" if g.store else ""
        return (
            f"{who}{you}: non-combat phase — equip, AutoSell, use items, train, skills and buffs, "
            f"Dumpster Dive{store}; then start a combat or end the turn"
        )
    if ph == D_SPELLX:
        return f"{who}{you}: choose X, the mojo to spend on {g.cards.iname[s.pending]} (a Spell Attack ability)"
    if ph == D_CHOOSE:
        src = s.queue[0][3]
        c = g.cards
        if src >= 0 and c.kind[src] == K_BOSS:
            why = f" ({c.mname[src]}'s stat drop: any type)"
        else:
            why = f" ({c.name(src)}'s effect)" if src >= 0 else ""
        return f"{who}{you}: choose the type of the value-{s.queue[0][2]} stat card to gain{why}"
    if ph == D_PULVERIZE:
        return f"{who}{you}: choose the item with an anvil to Pulverize"
    if ph == D_UPGRADE:
        if s.upg_roll:
            return f"{who}{you}: rollover — upgrade or exchange one card of your discard pile, or not"
        return f"{who}{you}: upgrade or exchange one card of your discard pile (an effect), or not"
    if ph == D_COMBAT:
        if march:
            return (
                f"{who}{you}: the March — combat items and skills, then a maneuver against the "
                f"{sorceress_name(s)} (or end the combat and announce the damage alone)"
            )
        return (
            f"{who}{you}: combat step 1 — combat items and skills, then a maneuver (or kill a monster the "
            "damage alone beats, or end the combat)"
        )
    if ph == D_BLOCK:
        c = g.cards
        t = s.hc_target
        typ = "cards of one stat type" if s.hc_type < 0 else f"{STAT_WORDS[s.hc_type]} cards"
        if c.kind[t] == K_BOSS:
            risk = f"suffer {c.negative_name[t]}"
        else:
            risk = "take it (it brings no negative effect in these components)"
        if seat == p and len(s.legal_actions()) == 1:  # the seat's own hand: told to it alone
            return f"{who}{you}: {c.mname[t]} counter-attacks (hardcore) — your hand cannot block it: {risk}"
        return (
            f"{who}{you}: {c.mname[t]} counter-attacks (hardcore) — discard {typ} worth {s.hc} or more to "
            f"block it, or {risk}"
        )
    if ph == D_CURE:
        if not s.cure_left:  # a cure effect with several negative effects of its sub-type to remove
            _, sub, _, src, _ = s.queue[0]
            what = "negative effect" if sub < 0 else SUBTYPES[sub]
            return f"{who}{you}: {g.cards.name(src)} cures one {what} — choose which one to remove"
        return f"{who}{you}: rollover — remove one negative effect from your display case, or keep them"
    if ph == D_UNEQUIP:
        return (
            f"{who}{you}: {g.cards.iname[s.force]} is a fourth piece of equipment — unequip one of the "
            "others (three at most)"
        )
    if ph == D_PERM:
        return (
            f"{who}{you}: ascension run {s.runs[p]} complete — perm one trained skill (kept all game), or "
            "none; the others go to the skill discard pile"
        )
    if ph == D_CLASS:
        plain = " (or the Mr. Card Game side, with the newbie gear)" if g.classes == 2 else ""
        return f"{who}{you}: ascension — choose a new class from the middle of the table{plain}"
    if ph == D_SIDE:
        board = g.cards.iname[s.klass[p]]
        return (
            f"{who}{you}: setup — place {'your' if you else 'their'} {board} class side up (its ability and "
            "starting equipment) "
            "or Mr. Card Game side up (the newbie gear)"
        )
    if ph == D_MANEUVER:
        stat = STAT_WORDS[MANEUVER_STAT[s.man]]
        return f"{who}{you}: {MANEUVER_WORDS[s.man]} — play {stat} cards (so far {s.psum}), then done"
    if ph == D_TARGET:
        return (
            f"{who}{you}: choose the {'foe' if g.bosses or g.nemesis or g.ascension else 'monster'} to kill "
            "(your score against each is shown), or end the combat"
        )
    if ph == D_DISCARD:
        return f"{who}{you}: end of turn — discard any cards, then draw up to six"
    if ph == D_LIMIT:
        return f"{who}{you}: end of turn — discard down to six cards"
    return f"{who}{you} decides"


def _ending(s: McgState) -> str:
    g = s.game
    if s.reason == "sorceress-defeated":
        names = " and ".join(g.seat_name(w) for w in s.winners)
        return f"{names} defeated the {sorceress_name(s)}"
    if s.reason == "king-freed":
        return f"{g.seat_name(s.winners[0])} defeated the Sorceress's third form and freed King Ralph"
    if s.reason == "all-eliminated":
        return "every adventurer is out; nobody won"
    return f"the turn limit ({g.turn_limit} rounds) was reached; nobody won"


def _phase_words(s: McgState) -> str:
    g = s.game
    if s.is_over:
        return "game over"
    if s.phase == D_POLL:
        return "the March poll"
    if s.phase == D_SIDE:
        return "setup: the class boards"
    who = g.seat_name(s.actor)
    if s.phase in (D_PERM, D_CLASS):
        return f"{who}'s ascension"
    if s.phase == D_BLOCK:
        return f"{who}'s combat phase"
    if s.mode == M_MARCH:
        part = "non-combat" if s.phase == D_NONCOMBAT else "combat"
        return f"the March on the Tower: {who}'s {part} phase"
    if s.phase in (D_DISCARD, D_LIMIT) or (s.phase == D_UPGRADE and s.upg_roll):
        return f"{who}'s end of turn"
    if s.phase in (D_COMBAT, D_MANEUVER, D_TARGET) or (s.man >= 0 and s.phase != D_NONCOMBAT):
        return f"{who}'s combat phase"
    return f"{who}'s non-combat phase"


# -- the view ----------------------------------------------------------------------------------------


def _display_case(s: McgState, p: int, j: _Cache) -> list[JSON]:
    slot = s.game.cards.slot
    eq = s.eq
    used = s.used
    out: list[JSON] = []
    for card in s.items[p]:
        d = j.item_json(card)
        if slot[card] >= 0:
            d["equipped"] = bool(eq >> card & 1)
        if used >> card & 1:
            d["used_this_turn"] = True
        out.append(d)
    return out


def _pile(s: McgState, li: int, j: _Cache) -> dict[str, JSON]:
    """A location pile (kingdom or nemesis): its top with both sides, what is still below (a set
    anyone can work out, sorted, never its order)."""
    c = s.game.cards
    top = s.top[li]
    below = s.below[li]
    out: dict[str, JSON] = {
        "location": c.locations[li].name,
        "monster": j.monster_json(top) if top >= 0 else None,
        "hidden_cards": len(below),
        "still_below": j.still_below(below),
        "empty": top < 0 and not below,
    }
    return out


def _layout(g: MrCardGame) -> JSON:
    """The playmat's spaces (option ``playmat``): what lies on each (the renderer draws them there)."""
    c = g.cards
    mat = c.playmat
    if not g.playmat or mat is None:
        return None
    spaces: list[JSON] = []
    for li, loc in enumerate(c.locations):
        pos = loc.playmat or (0, 0)
        if loc.kind == "nemesis" and not g.nemesis:
            what = "empty nemesis space"
        else:
            what = {"kingdom": "location", "nemesis": "nemesis location", "tower": "tower"}[loc.kind]
        spaces.append({"row": pos[0], "column": pos[1], "space": loc.name, "holds": what, "location": li})
    spaces.append({"row": mat.heap[0], "column": mat.heap[1], "space": "The Heap", "holds": "heap"})
    spaces.append(
        {
            "row": mat.quests[0],
            "column": mat.quests[1],
            "space": "Quests",
            "holds": "quests" if g.bosses else "empty quest space",
        }
    )
    for r, col in mat.spare:
        spaces.append({"row": r, "column": col, "space": "(a future expansion)", "holds": "spare"})
    spaces.sort(key=lambda x: (x["row"], x["column"]))
    return {"name": mat.name, "rows": mat.size[0], "columns": mat.size[1], "spaces": spaces}


def _sorceress(s: McgState) -> dict[str, JSON]:
    """The Sorceress on the Tower: the standard card, a foil (with its global effect), or under
    ascension the top of the Tower and how many foils of each form are still hidden in it."""
    g = s.game
    c = g.cards
    if s.tower >= 0:
        out = foil_json(g, s.tower)
        if not g.ascension:
            out["text"] += " Defeat her in the March on the Tower to win."
    elif g.ascension:
        out = {
            "id": None,
            "name": "The Sorceress' Tower",
            "type": "tower",
            "text": "Her defeated form is gone; the next one is turned up at the map update.",
            "power": None,
            "element": ELEMENTS[0],
        }
    else:
        out = {
            "id": c.sorceress,
            "name": c.sorceress_name,
            "type": "boss",
            "text": "Defeat her in the March on the Tower to win.",
            "power": g.sorceress_power,
            "element": ELEMENTS[c.element[c.sorceress]],
        }
    if g.ascension:
        out["hidden_in_tower"] = {f"form {f + 1}": s.tower_left[f] for f in range(3)}
        out["form_powers"] = list(c.form_power)
        out["text"] = str(out["text"]) + (
            " Ascension: in your combat phase, defeat the form of your run (digging past lower forms on top); "
            "the third form frees King Ralph and wins."
        )
    if out["id"] is None:
        del out["id"]
    return out


def _skills(s: McgState, p: int, j: _Cache) -> list[JSON]:
    stype = s.game.cards.stype
    # O3.4: a permed skill stays through every ascension reset; perming is announced to the table.
    permed = s.permed if s.game.ascension else 0
    out: list[JSON] = []
    for card in s.skills[p]:
        d = j.skill_json(card)
        st = stype[card]
        if st == S_BUFF:
            d["active"] = bool(s.buffs >> card & 1)
        elif st in (S_COMBAT, S_NONCOMBAT):
            d["used_this_turn"] = bool(s.used >> card & 1)
        if permed >> card & 1:
            d["permed"] = True
        out.append(d)
    return out


_VS_ROWS = tuple((ELEMENTS[e], tuple((MANEUVERS[i], modifiers.VS + 4 * e + i) for i in range(4))) for e in range(1, 6))
_EXTRA = (
    ("meat per kill", modifiers.MEAT),
    ("training cost", modifiers.SKILLCOST),
    ("AutoSell", modifiers.SELL),
    ("Heap prices", modifiers.DIVE),
    ("rollover upgrades", modifiers.UPGRADES),
)


def _bonuses(m: tuple[int, ...]) -> dict[str, JSON]:
    """A player's bonuses from their modifiers (``s.mods[p]``)."""
    out: dict[str, JSON] = {MANEUVERS[0]: m[0], MANEUVERS[1]: m[1], MANEUVERS[2]: m[2], MANEUVERS[3]: m[3]}
    vs: dict[str, JSON] = {}
    for element, cells in _VS_ROWS:
        row: dict[str, JSON] = {}
        for name, i in cells:
            v = m[i]
            if v:
                row[name] = v
        if row:
            vs[element] = row
    if vs:
        out["against"] = vs
    for name, i in _EXTRA:
        v = m[i]
        if v:
            out[name] = v
    return out


def _stat_piles(s: McgState, j: _Cache) -> list[JSON]:
    out: list[JSON] = []
    for template, pile in zip(j.piles, s.piles, strict=True):
        d = dict(template)
        d["left"] = len(pile)
        out.append(d)
    return out


def _combat(s: McgState) -> dict[str, JSON] | None:
    from cardtable.games.mr_card_game.combat import power_of, score, targets
    from cardtable.games.mr_card_game.march import sorceress_card, threshold

    if s.phase not in (D_COMBAT, D_MANEUVER, D_TARGET, D_BLOCK) and not (
        s.phase in (D_SPELLX, D_CHOOSE, D_UPGRADE, D_CURE) and s.step in (ST_COMBAT, ST_MANEUVER, ST_TARGET)
    ):
        return None
    g = s.game
    c = g.cards
    out: dict[str, JSON] = {
        "player": g.seat_name(s.actor),
        "maneuver": MANEUVER_WORDS[s.man] if s.man >= 0 else None,
        "cards_played_total": s.psum,
        "damage": s.dmg,
        "extra_damage_against": {ELEMENTS[e]: s.dmg_vs[e] for e in range(6) if s.dmg_vs[e]},
        "power_reduction": s.red,
        "bonus_this_combat": {MANEUVERS[m]: s.cb[m] for m in range(4) if s.cb[m]},
    }
    if s.mode == M_MARCH:
        sorc = sorceress_card(s)
        out["against_sorceress"] = {"score": score(s, c.element[sorc]), "needs": threshold(s)}
    else:
        rows: list[JSON] = []
        for t in targets(s):
            power = power_of(s, t)
            sc = score(s, c.element[t])
            rows.append(
                {
                    "monster": c.mname[t],
                    "card": t,
                    "element": ELEMENTS[c.element[t]],
                    "power": power,
                    "score": sc,
                    "beaten": power <= 0 or sc >= power,
                    "counter_attack": _counter_words(s, t),
                }
            )
        if g.ascension:
            from cardtable.games.mr_card_game.ascension import form_of, sorceress_power, target_card

            base = sorceress_power(s, s.actor)
            if base is not None:
                power = base - s.red
                sc = score(s, 0)
                top = target_card(s, s.actor)
                rows.append(
                    {
                        "monster": c.mname[top] if top >= 0 else f"Naughty Sorceress, form {form_of(s, s.actor)}",
                        "card": top if top >= 0 else None,
                        "element": ELEMENTS[0],
                        "power": power,
                        "score": sc,
                        "beaten": power <= 0 or sc >= power,
                        "counter_attack": None,
                    }
                )
        out["targets"] = rows
    if s.phase == D_BLOCK:
        t = s.hc_target
        out["counter_attack"] = {
            "from": c.mname[t],
            "still_to_block": s.hc,
            "type": "any single type" if s.hc_type < 0 else STAT_WORDS[s.hc_type],
            "if_not_blocked": c.negative_name[t] if c.kind[t] == K_BOSS else "nothing",
        }
    return out


def _counter_words(s: McgState, t: int) -> str | None:
    """The counter-attack a hardcore target would make against the acting player now (None: none)."""
    from cardtable.games.mr_card_game.hardcore import ANY_TYPE, counter_attack

    g = s.game
    if g.cards.kind[t] != K_BOSS and not g.hardcore_all:
        return None
    value, typ = counter_attack(s, t)
    if value <= 0:
        return "none (turned away by the ranged weapon)"
    return f"{value} of any single type" if typ == ANY_TYPE else f"{STAT_WORDS[typ]} {value}"


def view(s: McgState, seat: int | None) -> dict[str, JSON]:
    g = s.game
    c = g.cards
    j = _cache(g)
    names = j.names
    kind_groups = j.kind_groups
    item_json = j.item_json
    skill_json = j.skill_json
    locations: list[JSON] = []
    for li in c.kingdom:
        grid = c.locations[li].grid or (0, 0)
        row = _pile(s, li, j)
        row["row"], row["column"] = grid[0], grid[1]
        locations.append(row)
    counts = j.counts
    players: list[JSON] = []
    for p in range(g.players):
        hand_deck = counts(s.hand[p], s.deck[p])
        disc = counts(s.disc[p])
        played = counts(s.played[p])
        extra: dict[str, JSON] = {}
        if g.store:
            extra["store_face_down"] = len(s.store[p])
            extra["store_known_face_down"] = [item_json(x) for x in s.store[p] if s.pub >> x & 1]
        if g.bosses:
            extra["negative_effects"] = [negative_json(g, x) for x in s.lasting[p] if c.kind[x] == K_BOSS]
        if g.classes:
            k = s.klass[p]
            choosing = s.phase == D_SIDE and p in s.poll[s.midx :]
            extra["class"] = class_json(g, k, bool(s.plain >> p & 1), choosing) if k >= 0 else None
        if g.ascension:
            extra["runs_completed"] = s.runs[p]
            extra["faces_form"] = min(3, s.runs[p] + 1)
            extra["instant_karma"] = [karma_json(g, x) for x in s.lasting[p] if c.kind[x] == K_FOIL]
        players.append(
            {
                **extra,
                "seat": names[p],
                "meat": s.meat[p],
                "out_of_the_game": bool(s.out >> p & 1),
                "certificate": s.cert == p,
                "bonuses": j.bonuses_of(s.mods[p]),
                "display_case": _display_case(s, p, j),
                "skills": _skills(s, p, j),
                "escrow": [item_json(x) for x in s.escrow[p]],
                "played": j.groups(played),
                "mojo": s.mojo if p == s.actor and not s.is_over else 0,
                "hand_size": len(s.hand[p]),
                "deck_size": len(s.deck[p]),
                "discard": j.groups(disc),
                "hand_and_deck": j.groups(hand_deck),
                "stat_total": _stat_total(hand_deck) + _stat_total(disc) + _stat_total(played),
                "kills": s.kills[p],
            }
        )
    trainer: list[JSON] = [skill_json(x) if x >= 0 else None for x in s.trainer]
    if g.class_trainer:
        piles = [0] * len(CLASS_WORDS)
        for x in s.skill_pile:
            piles[c.sclass[x]] += 1
        trainer = [
            {"class": CLASS_WORDS[k], "top": skill_json(x) if x >= 0 else None, "face_down": piles[k]}
            for k, x in enumerate(s.trainer)
        ]
    paying: JSON = None
    if s.phase == D_SPELLX and s.pending >= 0:
        paying = {"card": skill_json(s.pending), "cost": "X (1 or more)", "mojo_pool": s.mojo}
    march: JSON = None
    if s.mode == M_MARCH or s.announcer >= 0:
        march = {
            "announcer": names[s.announcer] if s.announcer >= 0 else None,
            "order": [names[p] for p in s.morder] if s.mode == M_MARCH else [],
            "totals": [
                {"player": names[p], "total": s.mtotal[p], "needs": s.mthresh[p]}
                for p in range(g.players)
                if s.mtotal[p] >= 0
            ],
            "eliminated": [names[p] for p in s.elim],
        }
    out: dict[str, JSON] = {
        "prompt": prompt(s, seat),
        "round": s.round,
        "turn_limit": g.turn_limit,
        "whose_turn": "the March on the Tower" if s.mode == M_MARCH else g.seat_name(s.active),
        "certificate": g.seat_name(s.cert),
        "phase": _phase_words(s),
        "map": locations,
        "sorceress": _sorceress(s),
        "nemesis": [_pile(s, li, j) for li in c.nemesis_locations] if g.nemesis else None,
        "quests": [boss_json(g, x) for x in s.quests] if g.bosses else None,
        "heap": [j.card_json(x) for x in s.heap],
        "trainer": trainer,
        "trainer_kind": (
            "six class piles, each top face up (only a bought pile turns up a new card)"
            if g.class_trainer
            else "a line of four, newest first"
        ),
        "skill_pile": len(s.skill_pile),
        "skill_discard": [skill_json(x) for x in s.skill_disc],
        "stat_piles": _stat_piles(s, j),
        "meat_pool": None if s.pool == NO_LIMIT else s.pool,
        "players": players,
        "hand": kind_groups(s.hand[seat]) if seat is not None else None,
        "deck": kind_groups(s.deck[seat]) if seat is not None else None,
        "combat": _combat(s),
        "paying": paying,
        "march": march,
        "store": [item_json(x) for x in s.store[seat]] if seat is not None and g.store else None,
        "middle": [class_json(g, x) for x in s.middle] if g.ascension and g.classes else None,
        "removed": [j.card_json(x) for x in s.gone],
        "layout": _layout(g),
        "result": result(s).to_json() if s.is_over else None,
    }
    return out


# -- snapshot and result -----------------------------------------------------------------------------


def snapshot(s: McgState) -> dict[str, JSON]:
    """Everything, for storage, debugging and tests (engine bookkeeping included), except the
    arrangements of equipment seen since the last other action (``eq_seen``): that follows from the
    history, and leaving it out keeps the fingerprints of records made before it existed."""
    return {
        "hand": [list(h) for h in s.hand],
        "deck": [list(d) for d in s.deck],
        "discard": [list(d) for d in s.disc],
        "played": [list(x) for x in s.played],
        "items": [list(x) for x in s.items],
        "skills": [list(x) for x in s.skills],
        "escrow": [list(x) for x in s.escrow],
        "lasting": [list(x) for x in s.lasting],
        "store": [list(x) for x in s.store],
        "meat": list(s.meat),
        "mods": [list(m) for m in s.mods],
        "kills": list(s.kills),
        "trained": list(s.trained),
        "piles": [list(x) for x in s.piles],
        "top": list(s.top),
        "below": [list(x) for x in s.below],
        "heap": list(s.heap),
        "trainer": list(s.trainer),
        "skill_pile": list(s.skill_pile),
        "skill_discard": list(s.skill_disc),
        "gone": list(s.gone),
        "pool": s.pool,
        "global_fx": [list(e) for e in s.global_fx],
        "equipped": s.eq,
        "buffs": s.buffs,
        "used": s.used,
        "taken": s.taken,
        "out": s.out,
        "eliminated": list(s.elim),
        "certificate": s.cert,
        "first": s.first,
        "round": s.round,
        "active": s.active,
        "actor": s.actor,
        "mode": s.mode,
        "step": s.step,
        "phase": s.phase,
        "queue": [list(q) for q in s.queue],
        "mojo": s.mojo,
        "pending": s.pending,
        "upg_left": s.upg_left,
        "upg_roll": s.upg_roll,
        "maneuver": s.man,
        "psum": s.psum,
        "plast": s.plast,
        "damage": s.dmg,
        "damage_vs": list(s.dmg_vs),
        "combat_bonus": list(s.cb),
        "reduce": s.red,
        "poll": list(s.poll),
        "march_order": list(s.morder),
        "midx": s.midx,
        "announcer": s.announcer,
        "march_totals": list(s.mtotal),
        "march_thresholds": list(s.mthresh),
        "winners": list(s.winners),
        "reason": s.reason,
        "box": list(s.box),
        "middle": list(s.middle),
        "quests": list(s.quests),
        "tower": s.tower,
        "tower_left": list(s.tower_left),
        "foil_pool": list(s.foil_pool),
        "store_aside": list(s.store_aside),
        "public_store": s.pub,
        "class": list(s.klass),
        "plain_side": s.plain,
        "runs": list(s.runs),
        "permed": s.permed,
        "cure_left": s.cure_left,
        "force": s.force,
        "asc_stage": s.asc_stage,
        "asc_card": s.asc_card,
        "hardcore": [s.hc, s.hc_type, s.hc_last, s.hc_target],
    }


def progress(s: McgState, p: int) -> tuple[int, ...]:
    """How far a player still in the game has come (for ranks): ascension runs completed, then stat
    values, then meat."""
    skind = s.game.cards.skind
    stats = sum((skind[x] & 3) + 1 for x in (*s.hand[p], *s.deck[p], *s.disc[p], *s.played[p]))
    return (s.runs[p], stats, s.meat[p])


def result(s: McgState) -> Result:
    """Winners share the win; the others rank by being still in, then progress; eliminated players
    last, an earlier elimination lower."""
    if not s.is_over:
        raise ValueError("the game is not over")
    g = s.game
    n = g.players
    winners = s.winners
    keys: list[tuple[float, ...]] = []
    for p in range(n):
        if p in winners:
            keys.append((2, 0, 0, 0, 0))
        elif s.out >> p & 1:
            keys.append((0, s.elim.index(p), 0, 0, 0))
        else:
            keys.append((1, 0, *progress(s, p)))
    scores = tuple(1.0 / len(winners) if p in winners else 0.0 for p in range(n))
    details: dict[str, JSON] = {
        "march_totals": {g.seat_name(p): s.mtotal[p] for p in range(n) if s.mtotal[p] >= 0},
        "announcer": g.seat_name(s.announcer) if s.announcer >= 0 else None,
        "eliminated": [g.seat_name(p) for p in s.elim],
        "rounds": s.round if s.reason != "turn-limit" else g.turn_limit,
        "kills": {g.seat_name(p): s.kills[p] for p in range(n)},
        "meat": {g.seat_name(p): s.meat[p] for p in range(n)},
        "skills_trained": {g.seat_name(p): s.trained[p] for p in range(n)},
    }
    if g.ascension:
        details["runs_completed"] = {g.seat_name(p): s.runs[p] for p in range(n)}
    if g.bosses:
        details["negative_effects"] = {
            g.seat_name(p): sum(1 for x in s.lasting[p] if g.cards.kind[x] == K_BOSS) for p in range(n)
        }
    return Result(
        scores=scores,
        ranks=ranks_from_keys(keys),
        winners=tuple(winners),
        reason=s.reason,
        turns=s.turn,
        truncated=s.reason == "turn-limit",
        details=details,
    )


# -- actions in words --------------------------------------------------------------------------------


def describe_action(g: MrCardGame, action: Action) -> str:
    kind = action.kind
    words = {
        "suffer": "take the counter-attack (do not block it)",
        "no-cure": "keep the negative effects",
        "no-perm": "perm no skill",
        "kill-sorceress": "defeat the Naughty Sorceress form of your run",
        "no-upgrade": "make no upgrade",
        "combat": "start a combat",
        "end-turn": "end the turn without a combat",
        "end-combat": "end the combat (no kill; in the March: announce your total)",
        "done": "done",
        "march": "march on the Tower",
        "pass": "pass (no March)",
    }
    if kind in words:
        return words[kind]
    value = action.args[0]
    if kind in ("mojo", "play", "discard", "block"):
        k = STAT_KINDS.index(str(value))
        verb = {"mojo": "discard for mojo", "play": "play", "discard": "discard", "block": "discard to block"}[kind]
        return f"{verb} {stat_words(g, k)}"
    if kind == "side":
        return "the class side up" if value == "class" else "the Mr. Card Game side up (the newbie gear)"
    if kind == "upgrade":
        a, b = STAT_KINDS.index(str(action.args[0])), STAT_KINDS.index(str(action.args[1]))
        return f"exchange {stat_words(g, a)} for {stat_words(g, b)}"
    if kind == "spend":
        return f"spend {value} mojo"
    if kind == "choose":
        return f"choose {STAT_WORDS[('mus', 'mys', 'mox').index(str(value))]}"
    if kind == "maneuver":
        man = MANEUVER_WORDS[MANEUVERS.index(str(value))]
        first = stat_words(g, STAT_KINDS.index(str(action.args[1])))
        return f"perform {'an' if man[0] in 'AEIOU' else 'a'} {man} with {first}"
    card = int(value)
    if kind == "kill":
        return f"kill {g.cards.mname[card]} (card {card})"
    if kind == "cure":
        return f"remove {g.cards.negative_name[card]} (card {card})"
    if kind == "reveal":
        return f"reveal the Mr. Store item {g.card_name(card)} for {g.cards.price[card]} meat"
    verb = {
        "equip": "equip",
        "unequip": "unequip",
        "autosell": "AutoSell",
        "use": "use",
        "dive": "Dumpster Dive",
        "target": "Pulverize",
        "perm": "perm",
        "class": "take the class",
        "train": "train",
        "skill": "activate",
        "buff": "activate the buff",
    }[kind]
    return f"{verb} {g.card_name(card)}"
