"""Events: which events can be played now, the choices they open, and how they resolve.

Each event has one effect from the card file's vocabulary (see :mod:`.cards`). An event is offered
in step 1 only when it can be resolved completely (it has at least one legal choice), so a player
who starts an event can always finish it. Events never choose the Necronomicon unless the card has
``affects_necronomicon`` (Rules of Kalle, Preparations); events with a die roll need no roll.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardtable.games.army_of_darkness import said
from cardtable.games.army_of_darkness.cards import (
    DISCARD_TABLED,
    DRAW,
    FROM_DISCARD,
    NECRONOMICON,
    SET_SIDE,
    TAKE_TABLED,
    Effect,
)
from cardtable.games.army_of_darkness.codes import EVIL, GOOD, P_DEST, P_PICK, P_TARGET

if TYPE_CHECKING:
    from cardtable.games.army_of_darkness.state import AodState


def _seats(st: AodState, whose: str) -> range | tuple[int, ...]:
    """The seats an effect's ``whose`` allows, seen from the active player."""
    a = st.active
    if whose == "self":
        return (a,)
    if whose == "other":
        n = st.game.players
        return tuple(s for s in range(n) if s != a)
    return range(st.game.players)


def tabled_choices(st: AodState, eff: Effect, necro_ok: bool) -> list[int]:
    """Tabled cards the effect may choose, in seat order then table order."""
    types = st.game.TYPE
    kinds = eff.kinds
    out: list[int] = []
    for s in _seats(st, eff.whose):
        for zone in (st.mon[s], st.ally[s], st.item[s]):
            for c in zone:
                t = types[c]
                if t in kinds and (necro_ok or t != NECRONOMICON):
                    out.append(c)
    return out


def discard_choices(st: AodState, eff: Effect, necro_ok: bool) -> list[int]:
    """Cards in the discard pile the effect may choose (each id once, in pile order)."""
    types = st.game.TYPE
    kinds = eff.kinds
    return [c for c in st.discard if types[c] in kinds and (necro_ok or types[c] != NECRONOMICON)]


def side_choices(st: AodState, eff: Effect) -> list[int]:
    """Seats whose character the effect may turn (only characters not already on that side)."""
    want = GOOD if eff.side == "good" else EVIL if eff.side == "evil" else -1
    side = st.side
    return [s for s in _seats(st, eff.whose) if want < 0 or side[s] != want]


def playable(st: AodState, card: int) -> bool:
    """Whether the event ``card`` can be played (and so completed) now."""
    eff = st.game.cards.effects[card]
    assert eff is not None
    k = eff.kind
    if k == DRAW:
        return True
    necro_ok = st.game.cards.necro_ok[card]
    if k in (DISCARD_TABLED, TAKE_TABLED):
        return bool(tabled_choices(st, eff, necro_ok))
    if k == FROM_DISCARD:
        return bool(discard_choices(st, eff, necro_ok))
    return bool(side_choices(st, eff))


def choices(st: AodState) -> list[int]:
    """The open choices of the pending event: card ids (phase PICK) or seats (TARGET, DEST)."""
    card = st.pending
    eff = st.game.cards.effects[card]
    assert eff is not None
    if st.phase == P_DEST:
        return list(range(st.game.players))
    if eff.kind == SET_SIDE:
        return side_choices(st, eff)
    necro_ok = st.game.cards.necro_ok[card]
    if eff.kind == FROM_DISCARD:
        # The same id never repeats in the pile, so this is already a set.
        return discard_choices(st, eff, necro_ok)
    return tabled_choices(st, eff, necro_ok)


def start(st: AodState) -> bool:
    """Begin resolving the pending event. Returns True when it resolved at once (no choice)."""
    eff = st.game.cards.effects[st.pending]
    assert eff is not None
    k = eff.kind
    if k == DRAW:
        st.draw(st.active, eff.amount)
        return True
    st.phase = P_TARGET if k == SET_SIDE else P_PICK
    return False


def pick(st: AodState, x: int) -> bool:
    """The active player chose card ``x``. Returns True when the event is resolved."""
    eff = st.game.cards.effects[st.pending]
    assert eff is not None
    a = st.active
    if eff.kind == FROM_DISCARD:
        st.discard_take(x)
        if eff.to == "hand":
            st.hand_gain(a, x, public=True)
            if st.log is not None:
                st.tell3("event", said.said_from_discard, a, st.title_code(a), x)
            return True
        st.chosen = x
        st.phase = P_DEST
        return False
    owner = st.untable(x)
    if eff.kind == DISCARD_TABLED:
        st.discard_add(x)
        if st.log is not None:
            st.tell3("event", said.said_tabled_discarded, x, owner, st.title_code(owner))
    elif eff.to == "hand":
        st.hand_gain(a, x, public=True)
        if st.log is not None:
            st.tell5("event", said.said_take_to_hand, a, st.title_code(a), x, owner, st.title_code(owner))
    else:
        st.table(a, x)
        if st.log is not None:
            st.tell5("event", said.said_take, a, st.title_code(a), x, owner, st.title_code(owner))
    return True


def dest(st: AodState, seat: int) -> None:
    """The chosen discard-pile card goes in front of ``seat``."""
    x = st.chosen
    st.chosen = -1
    st.table(seat, x)
    if st.log is not None:
        st.tell3("event", said.said_back_in_play, x, seat, st.title_code(seat))


def target(st: AodState, seat: int) -> None:
    """Turn the character of ``seat`` as the pending event says."""
    eff = st.game.cards.effects[st.pending]
    assert eff is not None
    new = GOOD if eff.side == "good" else EVIL if eff.side == "evil" else 1 - st.side[seat]
    st.side[seat] = new
    st.note_seat(seat)
    if st.log is not None:
        st.tell3("event", said.said_turns, seat, st.title_code(seat), new == GOOD)
