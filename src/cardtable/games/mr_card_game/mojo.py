"""Mojo, skills and buffs (clauses K4.7, K4.8, K5, K6, K7.1).

Mojo comes from Mysticality cards moved from the hand to the discard pile, each adding its value to
the pool; the pool pays mojo costs for the rest of the phase, one card's value split over several
costs, and empties at the end of every phase (:func:`flow.end_phase`). Mojo is made only while paying
(interpretation A22): activating a skill or buff whose cost is more than the pool opens the payment
(``mojo stat=mys3``, one card at a time) until it is covered; what is left over stays in the pool.

A Spell Attack ability costs X >= 1 mojo chosen first (``spend mojo=X``). A skill is offered only
when the pool plus the Mysticality in hand can pay for it (X = 1 at least).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardtable.engine import Action
from cardtable.games.mr_card_game import flow, modifiers
from cardtable.games.mr_card_game.cards import MOJO_X, S_BUFF, STAT_KINDS
from cardtable.games.mr_card_game.codes import MAX_X
from cardtable.games.mr_card_game.endturn import take_kind

if TYPE_CHECKING:
    from cardtable.games.mr_card_game.state import McgState


def mys_in_hand(s: McgState, p: int) -> int:
    """The total Mysticality value in ``p``'s hand (the mojo it could still make)."""
    skind = s.game.cards.skind
    total = 0
    for card in s.hand[p]:
        k = skind[card]
        if 4 <= k < 8:
            total += k - 3
    return total


def legal_pay(s: McgState) -> list[Action]:
    g = s.game
    skind = g.cards.skind
    have = {skind[c] for c in s.hand[s.actor]}
    return [g.MOJO[k - 4] for k in (4, 5, 6, 7) if k in have]


def legal_spell_x(s: McgState) -> list[Action]:
    available = min(MAX_X, s.mojo + mys_in_hand(s, s.actor))
    return s.game.SPEND[:available]


def _begin(s: McgState, card: int, cost: int) -> None:
    if s.mojo >= cost:
        s.mojo -= cost
        activate(s, card, cost)
    else:
        s.pending = card
        s.pend_cost = cost
    flow.advance(s)


def do_skill(s: McgState, action: Action) -> None:
    """``skill card=N``: activate a non-combat (E) or combat (K7.1) skill, once per turn."""
    card = int(action.args[0])
    cost = s.game.cards.mojo[card]
    if cost == MOJO_X:
        s.pending = card
        s.pend_cost = -1
        flow.advance(s)
        return
    _begin(s, card, cost)


def do_buff(s: McgState, action: Action) -> None:
    """``buff card=N`` (F): pay the buff cost and turn the buff on."""
    card = int(action.args[0])
    _begin(s, card, s.game.cards.mojo[card])


def do_spend(s: McgState, action: Action) -> None:
    """``spend mojo=X``: the X of a Spell Attack ability (K5.4)."""
    x = int(action.args[0])
    card = s.pending
    s.pending = -1
    _begin(s, card, x)


def do_mojo(s: McgState, action: Action) -> None:
    """``mojo stat=mysV``: a Mysticality card from hand to the discard pile, +V mojo (K5.1)."""
    p = s.actor
    kind = STAT_KINDS.index(str(action.args[0]))
    s.disc[p].append(take_kind(s, s.hand[p], kind))
    s.mojo += kind - 3
    if s.log is not None:
        s.emit("mojo", f"{s.game.seat_name(p)} discards a Mysticality {kind - 3} for mojo (pool {s.mojo})")
    if s.mojo >= s.pend_cost:
        card, cost = s.pending, s.pend_cost
        s.pending = -1
        s.mojo -= cost
        activate(s, card, cost)
    flow.advance(s)


def activate(s: McgState, card: int, paid: int) -> None:
    """The cost is paid: turn a buff on, or mark a skill used and queue its instants."""
    c = s.game.cards
    p = s.actor
    if c.stype[card] == S_BUFF:
        s.buffs |= 1 << card
        modifiers.refresh(s, p)
        if s.log is not None:
            s.emit("buff", f"{s.game.seat_name(p)} activates the buff {s.game.card_name(card)} ({paid} mojo)")
        return
    s.used |= 1 << card
    if s.log is not None:
        s.emit("skill", f"{s.game.seat_name(p)} uses {s.game.card_name(card)} ({paid} mojo)")
    x = paid if c.mojo[card] == MOJO_X else 0
    s.queue.extend((op, a, b, card, x) for op, a, b, _ in c.effects[card])
