"""Mojo, skills and buffs (clauses K4.7, K4.8, K5, K6, K7.1).

Mojo comes from Mysticality cards moved from the hand to the discard pile (``mojo stat=mys3``), each
adding its value to the player's pool; the pool pays mojo costs for the rest of the phase, so one
card's value can be split over several costs, and it empties at the end of every phase
(:func:`.flow.end_phase`). As the rulebook describes it, mojo is made first and spent after: a skill
or buff is offered when the pool covers its cost. (The ``mojo`` action is offered only while the
player owns an ability it could pay for in this phase; making mojo for nothing would only waste
cards.) Because a cost is never left half paid, no decision ever waits on what a hidden hand holds.

A Spell Attack ability costs X >= 1 mojo, chosen after activating it (``spend mojo=X``, X up to the
pool), and its damage scales with X.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardtable.engine import Action
from cardtable.games.mr_card_game import flow, modifiers, said
from cardtable.games.mr_card_game.cards import MOJO_X, S_BUFF, STAT_CODE
from cardtable.games.mr_card_game.codes import MAX_X
from cardtable.games.mr_card_game.endturn import kind_mask, take_kind

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


def mojo_actions(s: McgState, p: int, hand_mask: int = -1) -> list[Action]:
    """``mojo stat=mysV`` for each Mysticality kind in ``p``'s hand (``hand_mask``: its
    :func:`.endturn.kind_mask`, when the caller has it)."""
    if hand_mask < 0:
        hand_mask = kind_mask(s, s.hand[p])
    return list(s.game.MOJO_BY[hand_mask >> 4 & 15])


def cost_of(s: McgState, card: int) -> int:
    """The least mojo that activates ``card`` (1 for a Spell Attack ability)."""
    cost = s.game.cards.mojo[card]
    return 1 if cost == MOJO_X else cost


def legal_spell_x(s: McgState) -> list[Action]:
    return s.game.SPEND[: min(MAX_X, s.mojo)]


def do_mojo(s: McgState, action: Action) -> None:
    """``mojo stat=mysV``: a Mysticality card from hand to the discard pile, +V mojo (K5.1)."""
    p = s.actor
    kind = STAT_CODE[action.args[0]]
    s.disc[p].append(take_kind(s, s.hand[p], kind))
    s.marks[p] += 1  # the rl observer's change mark (McgState.marks)
    s.mojo += kind - 3
    if s.log is not None:
        s.tell3("mojo", said.said_mojo, p, kind - 3, s.mojo)
    flow.advance(s)


def do_skill(s: McgState, action: Action) -> None:
    """``skill card=N``: activate a non-combat (E) or combat (K7.1) skill, once per turn."""
    card = int(action.args[0])
    cost = s.game.cards.mojo[card]
    if cost == MOJO_X:
        s.pending = card  # X is chosen next (spend mojo=X)
        flow.advance(s)
        return
    s.mojo -= cost
    activate(s, card, cost)
    flow.advance(s)


def do_buff(s: McgState, action: Action) -> None:
    """``buff card=N`` (F): pay the buff cost and turn the buff on."""
    card = int(action.args[0])
    cost = s.game.cards.mojo[card]
    s.mojo -= cost
    activate(s, card, cost)
    flow.advance(s)


def do_spend(s: McgState, action: Action) -> None:
    """``spend mojo=X``: the X of a Spell Attack ability (K5.4)."""
    x = int(action.args[0])
    card = s.pending
    s.pending = -1
    s.mojo -= x
    activate(s, card, x)
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
        s.tell3("skill", said.said_skill, p, card, paid)
    x = paid if c.mojo[card] == MOJO_X else 0
    s.queue.extend((op, a, b, card, x) for op, a, b, _ in c.effects[card])
