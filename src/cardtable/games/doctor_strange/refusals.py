"""Why an action is not legal now, in words for the seat to decide (``State._why_illegal``).

The message may name that seat's own cards and anything public; it never depends on a card the seat
cannot see (the opponent's hand, the deck outside its own Go Back in Time search), so the same
mistake gets the same answer whatever the hidden cards are.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from cardtable.engine import Action
from cardtable.games.doctor_strange import base as S
from cardtable.games.doctor_strange import cards as C
from cardtable.games.doctor_strange import fates as F
from cardtable.games.doctor_strange.words import NEGATE_WORDS, STEP

if TYPE_CHECKING:
    from cardtable.games.doctor_strange.state import DSState

PLAYING: Final = frozenset(
    (S.MYSTIC, S.XWIN, S.XANY, S.SUMMON, S.DECLARE, S.WEAPON, S.COUNTER, S.EXCHANGE, S.REST, S.OREST)
)
"""Decisions in which cards are played from the hand."""


def must(st: DSState) -> str:
    """What the seat to decide has to do now, with the action that does it."""
    g = st.game
    ph = st.phase
    if ph == S.ONTO:
        return f"choose the character that takes {g.card_name(st.pending)} (onto card=N)"
    if ph == S.TARGET:
        return f"choose the target of {g.card_name(st.decl_a)} (target card=N)"
    if ph == S.WEAPON:
        return "choose the Attack card for the attack you declared (play card=N)"
    if ph == S.HELPER:
        return "choose the character that helps the defense (helper card=N)"
    if ph == S.NEGATE:
        return f"choose the target of {g.card_name(st.evcard)} (negate card=N)"
    if ph == S.TAKE:
        return "choose a card from the deck (take card=N)"
    if ph == S.DISCARD:
        return "discard down to 7 cards (discard card=N)"
    return f"play a card or pass ({STEP[ph]})"


def _kind_words(st: DSState, c: int) -> str:
    """When a card of this kind is played, for a refusal."""
    g = st.game
    t = g.TYPE[c]
    if t == C.CHARACTER or g.IS_ATTACH[c]:
        return "characters and attachments are put into play in your Summon phase"
    if t == C.POWER:
        return "Power cards are played during a fight"
    if t == C.ATTACK:
        return "an Attack card is played after choosing an attacker (attacker card=N) and its target"
    return f"{g.NAMES[c]} is played in {g.CARD_OBJ[c]['timing']}"


def _play(st: DSState, seat: int, c: int) -> str:
    g = st.game
    name = g.card_name(c)
    ph = st.phase
    if ph not in PLAYING:
        return f"no card is played now: {must(st)}"
    if c not in st.hands[seat]:
        return f"{name} is not in your hand"
    if not g.USE[seat][c]:
        return f"{name} is for the {'Good' if g.cards.only[c] == C.GOOD else 'Evil'} player only"
    t = g.TYPE[c]
    kind = g.EVENT_KIND[c]
    if t == C.EVENT and g.TIMING[c] == C.ANY_TIME and ph != S.WEAPON:
        return f"{name} would have no effect now"
    if ph == S.WEAPON:
        return f"choose an Attack card for this attack; {name} is a {g.CARD_OBJ[c]['type']} card"
    if ph in (S.XWIN, S.XANY):
        return f"only any-time (X) events are played in this window; {_kind_words(st, c)}"
    if ph == S.COUNTER:
        return f"only a Counter card or an any-time (X) event is played now; {_kind_words(st, c)}"
    if ph == S.EXCHANGE:
        defending = seat != st.active
        if t == C.POWER:
            return f"{name} is for the {'attacker' if defending else 'defender'} only"
        if kind == "call_defender":
            if not defending:
                return f"{name} is played by the defender"
            return "no unmarked viable character of yours can help the defense"
        return f"only Power cards (and the defender's Call Defender cards) are played in a fight; {_kind_words(st, c)}"
    if ph == S.SUMMON:
        if t == C.CHARACTER:
            return f"{name} cannot be put into play now"
        if g.IS_ATTACH[c]:
            if t == C.LOCATION:
                return f"none of your characters can take {name}: each has a Location already"
            return f"none of your characters can take {name}"
        return _kind_words(st, c)
    if ph == S.DECLARE:
        return f"declare an attack by choosing an attacker first (attacker card=N); {_kind_words(st, c)}"
    timing = C.MYSTIC_ARTS if ph == S.MYSTIC else C.REST
    if t == C.EVENT and g.TIMING[c] == timing:
        return f"{name} would have no effect now (it has no target, or the deck is empty)"
    return _kind_words(st, c)


def why_illegal(st: DSState, action: Action) -> str | None:
    """A reason ``action`` (an action of the game's space) is not legal for the seat to decide."""
    seat = st.current_player
    if seat is None:
        return None
    g = st.game
    kind = action.kind
    ph = st.phase
    if kind == "pass":
        return f"you cannot pass now: {must(st)}"
    c = action.args[0]
    assert isinstance(c, int)
    name = g.card_name(c)
    if kind == "play":
        return _play(st, seat, c)
    if kind == "discard":
        if ph != S.DISCARD:
            return f"cards are discarded only down to the hand limit at the end of your turn; now {must(st)}"
        return f"{name} is not in your hand"
    if kind == "attacker":
        if ph != S.DECLARE:
            return f"attacks are declared in your Attack phase; now {must(st)}"
        s = g.SLOT[c]
        if s < 0 or c not in st.chars or st.side[s] != seat:
            return f"{name} is not one of your characters in play"
        if not F.viable(st, c):
            return f"{name} is not viable"
        if st.attacked >> s & 1:
            return f"{name} has already attacked this turn"
        if not st._viable_on(1 - seat):
            return "your opponent has no viable character to attack"
        return "you hold no Attack card you may play"
    if kind == "target":
        if ph != S.TARGET:
            return f"a target is chosen after the attacker (attacker card=N); now {must(st)}"
        return f"{name} is not an opposing viable character"
    if kind == "onto":
        if ph != S.ONTO:
            return f"no attachment is waiting for its character; now {must(st)}"
        s = g.SLOT[c]
        if s >= 0 and c in st.chars and st.side[s] == seat and st.cap[s] < 0 and st.loc[s] >= 0:
            return (
                f"{name} cannot take {g.card_name(st.pending)}: it has a Location already, "
                f"{g.card_name(st.loc[s])}, and a character may have only one"
            )
        return f"{name} cannot take {g.card_name(st.pending)}: it must be a character on your side, not a captive"
    if kind == "helper":
        if ph != S.HELPER:
            return f"a helper is chosen after playing a Call Defender card; now {must(st)}"
        s = g.SLOT[c]
        if s < 0 or c not in st.chars or st.side[s] != seat:
            why = "it is not one of your characters in play"
        elif c == st.attacks[st.ares * 3 + 1]:
            why = "it is the target of this attack"
        elif not F.viable(st, c):
            why = f"it is not viable ({'captive' if st.cap[s] >= 0 else 'incapacitated'})"
        elif st.marked >> s & 1:
            why = "it is marked (the target of an attack this turn)"
        elif st.helpers >> s & 1:
            why = "it is helping this defense already"
        else:
            why = "it must be an unmarked viable character of yours, not already helping"
        return f"{name} cannot help: {why}"
    if kind == "negate":
        if ph != S.NEGATE:
            return f"no Negate card is waiting for its target; now {must(st)}"
        return f"{name} is not a target of {g.card_name(st.evcard)} ({NEGATE_WORDS[g.NEGATE[st.evcard]]})"
    # take
    if ph != S.TAKE:
        return f"you are not searching the deck (Go Back in Time); now {must(st)}"
    return f"{name} is not in the deck"
