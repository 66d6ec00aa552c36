"""Why an action of the game's space is not legal now, in words for the seat that must decide.

:func:`why` backs ``State._why_illegal``. Its answers read only public facts and the deciding seat's
own hand (never another seat's hidden cards), so the message a seat gets never depends on what it
cannot see.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardtable.engine import Action
from cardtable.games.army_of_darkness.cards import MONSTER, NECRONOMICON
from cardtable.games.army_of_darkness.codes import (
    A_ATTACK,
    A_DISCARD,
    A_DONE,
    A_DRAW,
    A_PASS,
    A_PICK,
    A_PLAY,
    A_SLAY,
    A_SLAY3,
    A_TARGET,
    A_TO,
    GOOD,
    P_FREE,
    P_HIT,
    P_PICK,
    P_PLAY,
    P_SLAY,
    P_TARGET,
)
from cardtable.games.army_of_darkness.view import step_text

if TYPE_CHECKING:
    from cardtable.games.army_of_darkness.state import AodState


def why(st: AodState, action: Action) -> str | None:
    """The reason ``action`` is not legal now, for the deciding seat (``None``: no better reason than
    the engine's list of what may be done)."""
    g = st.game
    cs = g.cards
    i = action.index
    op, arg = g.CODE[i], g.ARG[i]
    ph = st.phase
    a = st.active
    now = f"now: {step_text(st)}"
    if op == A_PLAY:
        if ph != P_PLAY:
            return f"cards are played only in step 1 of your own turn ({now})"
        if arg not in st.hands[a]:
            return f"{g.card_name(arg)} is not in your hand"
        return f"{g.card_name(arg)} has nothing it can act on now ({cs.texts[arg]})"
    if op == A_DONE:
        if ph == P_PLAY:
            return "you must play a card when you can (step 1); `done` ends step 1 after your first card"
        return f"`done` ends step 1, which is not open ({now})"
    if op == A_TO:
        return f"no card is waiting for the player in front of whom it goes ({now})"
    if op == A_TARGET:
        if ph != P_TARGET:
            return f"no event asks you to choose a character ({now})"
        eff = cs.effects[st.pending]
        assert eff is not None
        if eff.whose == "other" and arg == a:
            return f"{cs.names[st.pending]} turns another player's character, not yours"
        if eff.whose == "self" and arg != a:
            return f"{cs.names[st.pending]} turns only your own character"
        return f"{g.seat_name(arg)}'s character is {eff.side} already"
    if op == A_PICK:
        if ph != P_PICK:
            return f"no event asks you to choose a card ({now})"
        eff = cs.effects[st.pending]
        assert eff is not None
        event = cs.names[st.pending]
        if g.TYPE[arg] == NECRONOMICON and not cs.necro_ok[st.pending]:
            return f"events cannot affect the Necronomicon unless they say so (Rules of Kalle), and {event} does not"
        return f"{g.card_name(arg)} is not among what {event} may choose: {cs.texts[st.pending]}"
    if op in (A_SLAY, A_SLAY3):
        if ph != P_SLAY:
            return f"you attack a card in front of you only in step 2, when something opposes you ({now})"
        good = st.side[a] == GOOD
        if op == A_SLAY:
            foe = "a monster" if good else "an ally"
            return f"{g.card_name(arg)} is not {foe} in front of you"
        if not good:
            return "only a good character may discard three monsters of one name"
        return f"you do not have three {cs.monster_names[arg]} monsters in front of you"
    if op in (A_DRAW, A_ATTACK, A_PASS):
        if ph != P_FREE:
            return f"you may draw, attack a character or pass only in step 3, when nothing opposes you ({now})"
        if op == A_DRAW:
            return "the deck and the discard pile are both empty"
        if op == A_PASS:
            return "you must draw or attack a character when you can (option step3-pass=false)"
        if arg == a:
            return "you cannot attack yourself"
        return f"a good character cannot attack another good character ({g.seat_name(arg)} is good)"
    assert op == A_DISCARD
    if ph != P_HIT:
        return f"you discard a card only when you take a hit ({now})"
    v = st.victim
    support = st.item[v] + (st.ally[v] if st.side[v] == GOOD else st.mon[v])
    if support:
        what = "a tabled item or ally" if st.side[v] == GOOD else "a tabled item or monster"
        if arg in st.hands[v]:
            return f"you must discard {what} while you have one; a hand card only when you have none"
        return f"{g.card_name(arg)} is not {what} of yours"
    if g.TYPE[arg] == MONSTER and arg in st.mon[v]:
        return f"{g.card_name(arg)} fights you: a hit costs you a card of your own side, here a hand card"
    return f"{g.card_name(arg)} is not in your hand"


__all__ = ["why"]
