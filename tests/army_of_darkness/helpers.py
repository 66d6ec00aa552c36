"""Scenario building for the Army of Darkness tests: a real dealt game whose zones are then set.

``arrange`` keeps every card of the deck somewhere (hands, tables, deck, discard), so card
conservation holds in every scenario; the removed events stay out as in a real game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import cardtable
from cardtable.games.army_of_darkness.codes import EVIL, GOOD, HAS_CARDS, REDUCED
from cardtable.games.army_of_darkness.game import ArmyOfDarkness
from cardtable.games.army_of_darkness.state import AodState
from tests.support import typed


def load(players: int = 2, **options: Any) -> ArmyOfDarkness:
    g = cardtable.load("army-of-darkness", players=players, **options)
    assert isinstance(g, ArmyOfDarkness)
    return g


def deal(g: ArmyOfDarkness, seed: int = 0, *, log: bool = True) -> AodState:
    """``g.new(seed, log=log)``, typed as the game's own state."""
    return typed.deal(g, AodState, seed, log=log)


def live(g: ArmyOfDarkness) -> list[int]:
    """Every card id in play (not removed by the Rules of Kalle)."""
    return [c for c in range(len(g.cards)) if not g.cards.removed[c]]


def necronomicon(g: ArmyOfDarkness) -> int:
    """The Necronomicon's card id (the deck holds exactly one)."""
    return g.cards.names.index("Necronomicon")


class Cards:
    """Hands out distinct live card ids by title: ``pool.take("Deadite", 3)``."""

    def __init__(self, g: ArmyOfDarkness) -> None:
        self.g = g
        self.free: dict[str, list[int]] = {}
        for c in live(g):
            self.free.setdefault(g.cards.names[c], []).append(c)

    def take(self, name: str, n: int = 1) -> list[int]:
        ids = self.free[name]
        if len(ids) < n:
            raise ValueError(f"only {len(ids)} {name!r} left")
        out, self.free[name] = ids[:n], ids[n:]
        return out

    def one(self, name: str) -> int:
        return self.take(name)[0]


def arrange(
    g: ArmyOfDarkness,
    *,
    hands: Mapping[int, Iterable[int]] | None = None,
    mon: Mapping[int, Iterable[int]] | None = None,
    ally: Mapping[int, Iterable[int]] | None = None,
    item: Mapping[int, Iterable[int]] | None = None,
    sides: Mapping[int, int] | None = None,
    discard: Iterable[int] = (),
    deck: Iterable[int] | None = None,
    active: int = 0,
    turn: int = 1,
    reduced: Mapping[int, int] | None = None,
    seed: int = 0,
    log: bool = True,
) -> AodState:
    """A state at the start of ``active``'s turn (step 1) with exactly the given zones.

    Every live card not placed goes to the deck; when ``deck`` is given it is the deck and the rest
    goes under the given discard pile. Reduction states default to REDUCED for an empty hand.
    """
    st = deal(g, seed, log=log)
    n = g.players
    placed: list[int] = []

    def zone(m: Mapping[int, Iterable[int]] | None) -> list[list[int]]:
        out: list[list[int]] = [[] for _ in range(n)]
        for s, cards in (m or {}).items():
            out[s] = list(cards)
            placed.extend(out[s])
        return out

    st.hands = zone(hands)
    st.mon = zone(mon)
    st.ally = zone(ally)
    st.item = zone(item)
    st.discard = list(discard)
    placed.extend(st.discard)
    rest = [c for c in live(g) if c not in set(placed)]
    if deck is None:
        st.deck = rest
    else:
        st.deck = list(deck)
        st.discard = [c for c in rest if c not in set(st.deck)] + st.discard
    assert sorted(all_cards(st)) == sorted(live(g)), "a card was placed twice"
    st.side = [GOOD] * n
    for s, side in (sides or {}).items():
        st.side[s] = side
    st.reduced = [HAS_CARDS if st.hands[s] else REDUCED for s in range(n)]
    for s, r in (reduced or {}).items():
        st.reduced[s] = r
    st.shown = set()
    st.active = active
    st.turn = turn
    st.plays = 0
    st.pending = st.chosen = st.victim = -1
    st._legal = None
    if st.log is not None:
        st.start_log()  # the set-up is not part of the log the test reads
    st._enter_play()
    return st


def all_cards(st: AodState) -> list[int]:
    """Every card id in the game's zones (hands, tables, deck, discard, the card being played)."""
    out = list(st.deck) + list(st.discard)
    for zones in (st.hands, st.mon, st.ally, st.item):
        for z in zones:
            out.extend(z)
    if st.pending >= 0:
        out.append(st.pending)
    if st.chosen >= 0:
        out.append(st.chosen)
    return out


def texts(st: AodState) -> list[str]:
    return [a.text for a in st.legal_actions()]


def run(st: AodState, *actions: str) -> None:
    for a in actions:
        st.apply(a)


def won_as_good(g: ArmyOfDarkness, pool: Cards, **zones: Any) -> AodState:
    """P1 (good) wins in turn 1: with the Necronomicon and two allies in front of her she plays a third
    ally from her hand and passes. P2 holds a Gunpowder; ``zones`` go to :func:`arrange` as well."""
    third = pool.one("Wise Man")
    st = arrange(
        g,
        hands={0: [third, pool.one("Chainsaw")], 1: pool.take("Gunpowder", 1)},
        ally={0: pool.take("Knight of Arthur", 2)},
        item={0: [pool.one("Necronomicon")]},
        **zones,
    )
    run(st, f"play card={third}", "to seat=P1", "done", "pass")
    return st


__all__ = ["EVIL", "GOOD", "Cards", "all_cards", "arrange", "deal", "live", "load", "run", "texts", "won_as_good"]
