"""Scenario helpers: build Mr. Card Game positions by moving cards between zones of a fresh state.

Every helper moves cards from one zone to another (never creates or drops one), so the card
conservation that the property tests check also holds in every scenario. Change a state only at a
decision point, then call :func:`ready` (it recomputes the bonuses and clears the legal-action cache).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import cardtable
from cardtable.engine import Game
from cardtable.games.mr_card_game import modifiers
from cardtable.games.mr_card_game.cards import STAT_KINDS
from cardtable.games.mr_card_game.state import McgState
from tests.support import typed
from tests.support.typed import determinize as determinize


def new(players: int = 3, seed: int = 0, **options: Any) -> McgState:
    """A fresh logged game (``first-player`` defaults to P1 so scenarios know who starts)."""
    options = {k.replace("_", "-"): v for k, v in options.items()}
    options.setdefault("first-player", "P1")
    return typed.deal(cardtable.load("mr-card-game", players=players, **options), McgState, seed)


def deal(g: Game, seed: int = 0, *, log: bool = True) -> McgState:
    """``g.new(seed, log=log)`` for a Mr. Card Game ``g``, typed as its state."""
    return typed.deal(g, McgState, seed, log=log)


def cid(s: McgState, name: str) -> int:
    """The id of the card whose item, monster or skill name is ``name`` (the first such card)."""
    c = s.game.cards
    for i in range(c.size):
        if name in (c.iname[i], c.mname[i]):
            return i
    raise KeyError(name)


def kind(code: str) -> int:
    return STAT_KINDS.index(code)


def ready(s: McgState) -> McgState:
    """After hand edits: recompute every player's bonuses and forget the cached legal actions."""
    for p in range(s.game.players):
        modifiers.refresh(s, p)
    s._legal = None
    return s


# -- where every card is -----------------------------------------------------------------------------


def zones(s: McgState) -> dict[str, list[int]]:
    """Every zone of the table with the card ids in it (the box holds the unused newbie sets)."""
    g = s.game
    c = g.cards
    out: dict[str, list[int]] = {}
    for p in range(g.players):
        for name, zone in (
            ("hand", s.hand[p]),
            ("deck", s.deck[p]),
            ("discard", s.disc[p]),
            ("played", s.played[p]),
            ("items", s.items[p]),
            ("skills", s.skills[p]),
            ("escrow", s.escrow[p]),
            ("lasting", s.lasting[p]),
            ("store", s.store[p]),
        ):
            out[f"P{p + 1}.{name}"] = list(zone)
    for k in range(12):
        out[f"pile.{STAT_KINDS[k]}"] = list(s.piles[k])
    for li in range(len(c.locations)):
        out[f"loc{li}"] = ([s.top[li]] if s.top[li] >= 0 else []) + list(s.below[li])
    out["heap"] = list(s.heap)
    out["trainer"] = [x for x in s.trainer if x >= 0]
    out["skill_pile"] = list(s.skill_pile)
    out["skill_discard"] = list(s.skill_disc)
    out["gone"] = list(s.gone)
    out["box"] = list(s.box)
    out["middle"] = list(s.middle)
    out["quests"] = list(s.quests)
    out["tower"] = [s.tower] if s.tower >= 0 else []
    out["foil_pool"] = list(s.foil_pool)
    out["store_aside"] = list(s.store_aside)
    if c.sorceress not in s.box:
        out["tower"].append(c.sorceress)
    out["classes"] = [k for k in s.klass if k >= 0]
    # Class board equipment is printed on its board: when not in a display case, it is on the board.
    held = {x for p in range(g.players) for x in s.items[p]}
    out["on_boards"] = [x for trio in c.board_items for x in trio if x not in held]
    out["certificate"] = [c.certificate]
    return out


def conserved(s: McgState) -> bool:
    """Every card id in exactly one zone."""
    every = [x for zone in zones(s).values() for x in zone]
    return sorted(every) == list(range(s.game.cards.size))


# -- moving cards ------------------------------------------------------------------------------------


def _take_from_anywhere(s: McgState, card: int) -> None:
    """Remove ``card`` from the zone holding it (a table zone or a player's zone)."""
    for p in range(s.game.players):
        for zone in (s.hand[p], s.deck[p], s.disc[p], s.played[p]):
            if card in zone:
                zone.remove(card)
                return
        for attr in ("items", "skills", "escrow", "lasting", "store"):
            tup = getattr(s, attr)[p]
            if card in tup:
                getattr(s, attr)[p] = tuple(x for x in tup if x != card)
                s.eq &= ~(1 << card)
                s.buffs &= ~(1 << card)
                return
    for k in range(12):
        if card in s.piles[k]:
            s.piles[k] = tuple(x for x in s.piles[k] if x != card)
            return
    for li in range(len(s.top)):
        if s.top[li] == card:
            s.top[li] = -1
            return
        if card in s.below[li]:
            s.below[li] = tuple(x for x in s.below[li] if x != card)
            return
    for attr in ("heap", "skill_pile", "skill_disc", "quests", "box", "middle", "store_aside", "foil_pool", "gone"):
        tup = getattr(s, attr)
        if card in tup:
            setattr(s, attr, tuple(x for x in tup if x != card))
            return
    if s.tower == card:
        s.tower = -1
        return
    if card in s.trainer:
        s.trainer = tuple(-1 if x == card else x for x in s.trainer)
        return
    raise KeyError(f"card {card} is nowhere")


def set_hand(s: McgState, p: int, kinds: Sequence[str]) -> list[int]:
    """Make ``p``'s hand exactly these stat kinds (``["mus2", "mys1"]``). The old hand goes back to
    the deck; each card comes from the deck if one of that kind is there, else from its pile (a card
    of the deck then goes back to a pile of its own kind, so the deck keeps its size). Returns the
    ids now in hand."""
    c = s.game.cards
    s.deck[p].extend(s.hand[p])
    s.hand[p].clear()
    for code in kinds:
        k = kind(code)
        found = [x for x in s.deck[p] if c.skind[x] == k]
        if found:
            card = found[-1]
            s.deck[p].remove(card)
        else:
            card = s.piles[k][-1]
            s.piles[k] = s.piles[k][:-1]
            if s.deck[p]:
                back = s.deck[p].pop()
                s.piles[c.skind[back]] = (*s.piles[c.skind[back]], back)
        s.hand[p].append(card)
    s.deck[p].sort()
    ready(s)
    return list(s.hand[p])


def set_deck(s: McgState, p: int, kinds: Sequence[str]) -> None:
    """Make ``p``'s deck exactly these kinds (cards from/to the piles as needed)."""
    c = s.game.cards
    for card in s.deck[p]:
        s.piles[c.skind[card]] = (*s.piles[c.skind[card]], card)
    s.deck[p] = []
    for code in kinds:
        k = kind(code)
        s.deck[p].append(s.piles[k][-1])
        s.piles[k] = s.piles[k][:-1]
    s.deck[p].sort()
    ready(s)


def set_discard(s: McgState, p: int, kinds: Sequence[str]) -> None:
    """Make ``p``'s discard pile exactly these kinds (cards from/to the piles as needed)."""
    c = s.game.cards
    for card in s.disc[p]:
        s.piles[c.skind[card]] = (*s.piles[c.skind[card]], card)
    s.disc[p] = []
    for code in kinds:
        k = kind(code)
        s.disc[p].append(s.piles[k][-1])
        s.piles[k] = s.piles[k][:-1]
    ready(s)


def empty_pile(s: McgState, code: str, to: int) -> None:
    """Move every card of a stat pile into player ``to``'s deck (so the pile is empty)."""
    k = kind(code)
    s.deck[to].extend(s.piles[k])
    s.deck[to].sort()
    s.piles[k] = ()
    ready(s)


def give_item(s: McgState, p: int, card: int, equipped: bool = False) -> None:
    """Put ``card`` (item side up) into ``p``'s display case; equipping it unequips its slot."""
    c = s.game.cards
    _take_from_anywhere(s, card)
    s.items[p] = (*s.items[p], card)
    if equipped:
        for x in s.items[p]:
            if c.slot[x] == c.slot[card]:
                s.eq &= ~(1 << x)
        s.eq |= 1 << card
    ready(s)


def give_skill(s: McgState, p: int, card: int, active: bool = False) -> None:
    _take_from_anywhere(s, card)
    s.skills[p] = (*s.skills[p], card)
    if active:
        s.buffs |= 1 << card
    ready(s)


def to_heap(s: McgState, cards: Iterable[int]) -> None:
    """Put cards onto the Heap, in order (the last one on top)."""
    for card in cards:
        _take_from_anywhere(s, card)
        s.heap = (*s.heap, card)
    ready(s)


def on_top(s: McgState, card: int) -> None:
    """Make monster ``card`` the revealed top of its location (the old top goes below)."""
    li = s.game.cards.loc[card]
    old = s.top[li]
    _take_from_anywhere(s, card)
    if old >= 0 and old != card:
        s.below[li] = tuple(sorted((*s.below[li], old)))
    s.top[li] = card
    ready(s)


def set_trainer(s: McgState, cards: Sequence[int]) -> None:
    """The trainer line (newest first); the skills that were there go back to the draw pile."""
    old = [x for x in s.trainer if x >= 0]
    s.trainer = ()
    s.skill_pile = tuple(sorted((*s.skill_pile, *old)))
    for card in cards:
        _take_from_anywhere(s, card)
    s.trainer = tuple(cards)
    ready(s)


# -- playing -----------------------------------------------------------------------------------------


def targets(s: McgState, seat: int = 0) -> dict[str, dict[str, Any]]:
    """The combat's target rows in ``seat``'s view, by monster name."""
    return {row["monster"]: row for row in s.view(seat)["combat"]["targets"]}


def legal(s: McgState) -> list[str]:
    return [a.text for a in s.legal_actions()]


def act(s: McgState, *texts: str) -> McgState:
    """Apply actions by text, in order (each must be legal)."""
    for t in texts:
        s.apply(t)
    return s


def finish_turn(s: McgState) -> McgState:
    """End the acting player's turn making no choice (no combat, no discards, no upgrade at a
    rollover; everyone passes at a March poll), until the next turn begins."""
    start = s.turn
    while not s.is_over and s.turn == start:
        texts = legal(s)
        for t in ("end-turn", "end-combat", "done", "no-upgrade", "pass"):
            if t in texts:
                s.apply(t)
                break
        else:
            s.apply(texts[0])
    return s


def pass_round(s: McgState) -> McgState:
    """Everyone passes at the March poll (when it is open)."""
    while not s.is_over and "pass" in legal(s):
        s.apply("pass")
    return s


def view_text(s: McgState, seat: int | None) -> str:
    import json

    return json.dumps(s.view(seat), sort_keys=True)


def give_store(s: McgState, p: int, card: int) -> None:
    """Put Mr. Store item ``card`` face down into ``p``'s collection."""
    _take_from_anywhere(s, card)
    s.store[p] = tuple(sorted((*s.store[p], card)))
    ready(s)


def give_lasting(s: McgState, p: int, card: int) -> None:
    """Put ``card`` (a boss's negative effect, or an Instant Karma) into ``p``'s display case."""
    _take_from_anywhere(s, card)
    s.lasting[p] = (*s.lasting[p], card)
    ready(s)


def boss_on_top(s: McgState, boss: int) -> None:
    """Make ``boss`` the top of the quest pile (the rest keeps its order)."""
    _take_from_anywhere(s, boss)
    s.quests = (boss, *s.quests)
    ready(s)


def only_targets(s: McgState, keep: Iterable[int]) -> None:
    """Hide every location top but those in ``keep`` (they go back under their location card)."""
    keep = set(keep)
    for li in range(len(s.top)):
        t = s.top[li]
        if t >= 0 and t not in keep:
            s.top[li], s.below[li] = -1, tuple(sorted((t, *s.below[li])))
    ready(s)


def texts(s: McgState, seat: int | None = None) -> str:
    """Every event so far as ``seat`` reads it, one per line."""
    return "\n".join(s.events(seat))
