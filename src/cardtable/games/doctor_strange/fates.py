"""Fates of characters: kill, exile, incapacitate, control, capture, leaving play, and the reversal
of control and capture (rules DS7-DS9 in docs/rules/doctor-strange.md).

Per-character state lives in short tuples indexed by the character's *slot* (``game.SLOT[card]``),
replaced whole (:func:`.base.replaced`), never changed in place: ``side`` (the seat that has it, -1
when not in play), ``owner`` (the seat that put it into play), ``incap`` (token), ``ctl`` (card id
of the character that controls it, -1) and ``cap`` (card id of its captor, -1). A dependent link
(control or capture) holds only while the linking character is in play, viable and on the same side
as its dependent; :func:`settle` enforces that invariant after every change, which is how chains
resolve (A controls B, then A is captured: B is released).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardtable.games.doctor_strange import cards as C
from cardtable.games.doctor_strange.base import replaced
from cardtable.games.doctor_strange.changes import Z_ATT, Z_CHAR, Z_DISCARD, Z_EXILED, Z_KILLED

if TYPE_CHECKING:
    from cardtable.games.doctor_strange.base import DSBase as DSState


def viable(st: DSState, card: int) -> bool:
    """In play, not incapacitated, not captured (killed/exiled characters are not in play)."""
    s = st.game.SLOT[card]
    return st.side[s] >= 0 and not st.incap[s] and st.cap[s] < 0


def attachments(st: DSState, card: int) -> list[int]:
    """The cards attached to character ``card``, in card-id order."""
    att_on = st.att_on
    return [c for c in range(len(att_on)) if att_on[c] == card]


def discard_attachment(st: DSState, card: int) -> None:
    """Move an attached card to the discard pile and take its power off its character."""
    g = st.game
    host = st.att_on[card]
    hs = g.SLOT[host]
    st.own_att_on()[card] = -1
    st.mpow = replaced(st.mpow, hs, st.mpow[hs] - g.POW[card])
    if st.loc[hs] == card:
        st.loc = replaced(st.loc, hs, -1)
    st.discard.append(card)
    if st.changes is not None:
        st.note(Z_ATT, 0, card, 0)
        st.note(Z_CHAR, 0, host, 0)
        st.note(Z_DISCARD, 0, card, 1)


def remove_from_play(st: DSState, card: int, pile: list[int], why: str) -> None:
    """The character leaves play to ``pile`` (killed, exiled or discard); attachments are discarded.

    Its owner is remembered (a Negate of Kill/Exile returns it to that owner). Links are cleared;
    the caller runs :func:`settle` to release whatever depended on it.
    """
    g = st.game
    s = g.SLOT[card]
    for a in attachments(st, card):
        discard_attachment(st, a)
    st.side = replaced(st.side, s, -1)
    st.ctl = replaced(st.ctl, s, -1)
    st.cap = replaced(st.cap, s, -1)
    st.incap = replaced(st.incap, s, 0)
    st.mpow = replaced(st.mpow, s, g.POW[card])
    st.loc = replaced(st.loc, s, -1)
    st.chars.remove(card)
    pile.append(card)
    if st.changes is not None:
        st.note(Z_CHAR, 0, card, 0)
        st.note(Z_KILLED if pile is st.killed else Z_EXILED if pile is st.exiled else Z_DISCARD, 0, card, 1)
    st.emit("leave", f"{g.card_name(card)} is {why}")


def release(st: DSState, card: int, why: str) -> None:
    """Control lost / captive freed: the character returns to its owner fully viable."""
    g = st.game
    s = g.SLOT[card]
    st.side = replaced(st.side, s, st.owner[s])
    st.ctl = replaced(st.ctl, s, -1)
    st.cap = replaced(st.cap, s, -1)
    st.incap = replaced(st.incap, s, 0)
    if st.changes is not None:
        st.note(Z_CHAR, 0, card, 0)
    st.emit("release", f"{g.card_name(card)} returns to {g.seat_name(st.owner[s])}, fully viable ({why})")


def settle(st: DSState) -> None:
    """Release every controlled or captured character whose controller/captor no longer holds it.

    A link from dependent D to linker L holds while L is in play, viable and on D's side. L changes
    side when it is controlled (or itself released), which is how "controlled or made unviable"
    propagates down a chain. Repeats until nothing changes (releases can break further links).
    """
    slot = st.game.SLOT
    changed = True
    while changed:
        changed = False
        for d in st.chars:
            # Read afresh for every character: a release replaces these tables (they are tuples).
            side, ctl, cap, incap = st.side, st.ctl, st.cap, st.incap
            ds = slot[d]
            link = ctl[ds] if ctl[ds] >= 0 else cap[ds]
            if link < 0:
                continue
            ls = slot[link]
            if side[ls] == side[ds] and not incap[ls] and cap[ls] < 0:
                continue
            what = "control" if ctl[ds] >= 0 else "capture"
            release(st, d, f"the {what} by {st.game.NAMES[link]} ended")
            changed = True


def apply_fate(st: DSState, attacker: int, target: int, fate: int) -> None:
    """The target of a successful attack suffers ``fate`` (attacker's seat = ``st.active``)."""
    g = st.game
    ts = g.SLOT[target]
    seat = st.side[g.SLOT[attacker]]
    name = g.card_name(target)
    if fate == C.KILL:
        remove_from_play(st, target, st.killed, "killed")
    elif fate == C.EXILE:
        remove_from_play(st, target, st.exiled, "exiled")
    elif fate == C.INCAPACITATE:
        st.incap = replaced(st.incap, ts, 1)
        if st.changes is not None:
            st.note(Z_CHAR, 0, target, 0)
        st.emit("fate", f"{name} is incapacitated")
    elif st.owner[ts] == seat:
        # Control or capture of one's own character (held by the opponent): it simply comes home.
        release(st, target, f"{g.NAMES[attacker]} won it back")
    elif fate == C.CONTROL:
        st.side = replaced(st.side, ts, seat)
        st.ctl = replaced(st.ctl, ts, attacker)
        st.cap = replaced(st.cap, ts, -1)
        if st.changes is not None:
            st.note(Z_CHAR, 0, target, 0)
        st.emit("fate", f"{name} is controlled by {g.seat_name(seat)} through {g.NAMES[attacker]}")
    else:  # capture
        st.side = replaced(st.side, ts, seat)
        st.cap = replaced(st.cap, ts, attacker)
        st.ctl = replaced(st.ctl, ts, -1)
        if st.changes is not None:
            st.note(Z_CHAR, 0, target, 0)
        for a in attachments(st, target):
            if g.TYPE[a] != C.MODIFIER:
                discard_attachment(st, a)
        st.emit("fate", f"{name} is captured by {g.NAMES[attacker]} ({g.seat_name(seat)})")
    settle(st)
