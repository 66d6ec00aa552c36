"""Why an action of Mephisto's action space is not legal now, in words for the seat that must decide.

:func:`why_illegal` is the state's ``_why_illegal`` hook. It answers the common mistakes (a card that
is not in your hand, a monster you tried to loot, a fight in a lane without monsters, more favor than
you have, an action that belongs to another decision) and says what is being decided instead. Only
the deciding seat reads it, so it may name that seat's own cards; it never says where a card it
cannot see is (a card "not in your hand" may be anywhere), so it reads the same whatever the hidden
cards are.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardtable.engine import Action
from cardtable.games.mephisto.cards import MONSTER, WEAPON
from cardtable.games.mephisto.rules import (
    P_DISCARD,
    P_FAVOR,
    P_MON,
    P_PAY,
    P_PLAY,
    P_TARGET,
    P_WPN,
    PHASE_KINDS,
)

if TYPE_CHECKING:
    from cardtable.games.mephisto.rules import MephistoState


def why_illegal(s: MephistoState, action: Action) -> str | None:
    """The reason ``action`` cannot be taken now, or None to let the engine list what may be done."""
    from cardtable.games.mephisto.views import decision_words

    g = s.game
    seat = s.current_player
    if seat is None:
        return None
    kind = action.kind
    phase = s.phase
    if kind not in PHASE_KINDS[phase]:
        return f"that is not what is being decided: {decision_words(s, seat)}"
    card = action.args[0] if action.args and isinstance(action.args[0], int) else -1
    named = g.card_name(card) if 0 <= card < len(g.cards) else ""
    c = g.cards
    hand = s.hands[seat]
    if phase == P_PLAY:
        return _why_not_in_play_step(s, action, card, named)
    if phase in (P_PAY, P_DISCARD):
        if card == s.paying and phase == P_PAY:
            return f"{named} is the card you are paying for: discard another card"
        if card not in hand:
            return f"{named} is not in your hand"
        return None
    if phase == P_MON:
        if kind == "done":
            return "choose at least one monster to fight first"
        if card in s.fight_mons:
            return f"{named} is already chosen for this fight"
        return f"{named} is not a monster in the lane you are fighting in"
    if phase == P_WPN:
        if card in s.fight_wpns:
            return f"{named} is already fighting"
        return f"{named} is not one of your weapons in the lane you are fighting in (range {s.fight_lane})"
    if phase == P_FAVOR:
        return f"you have {s.favor[seat]} favor"
    if phase == P_TARGET:
        mates = f"{g.seat_name(seat)} (you) or {g.seat_name(g.partner[seat])}"
        return f"the choice is between {mates}"
    if kind in ("take", "attach", "repair", "damage", "remove"):
        if kind == "attach" and c.type[card] != WEAPON:
            return f"{named} is not a weapon"
        return f"{named} is not one of the cards to choose from now ({decision_words(s, seat)})"
    return None


def _why_not_in_play_step(s: MephistoState, action: Action, card: int, named: str) -> str | None:
    g = s.game
    c = g.cards
    seat = s.actor
    hand = s.hands[seat]
    kind = action.kind
    if kind == "play":
        if card not in hand:
            return f"{named} is not in your hand"
        if c.type[card] == MONSTER:
            return f"{named} is a monster: monsters are summoned into the dungeon as your action (summon card={card})"
        cost, others = c.cost[card], len(hand) - 1
        if cost > others:
            return (
                f"{named} costs {cost}: you need {cost} other card{'s' if cost != 1 else ''} in your hand to "
                f"discard and have {others}"
            )
        if c.attach[card]:
            return f"{named} attaches to a weapon and there is no weapon in play to attach it to"
        return None
    if kind == "activate":
        if card not in s.inplay[seat]:
            return f"{named} is not one of your items or weapons in play"
        if not c.activate[card]:
            return f"{named} has no ability to activate"
        if s.activated >> card & 1:
            return f"{named} was already activated this turn (once a turn)"
        return None
    if kind == "loot":
        if card not in s.dungeon:
            return f"{named} is not in the dungeon"
        if c.type[card] == MONSTER:
            return f"{named} is a monster: monsters are fought, not looted"
        return None
    if kind == "loot-deck":
        return "the deck and the discard pile are empty"
    if kind == "fight":
        return f"there is no monster in your lane {action.args[0]}"
    if kind == "summon":
        if card not in hand:
            return f"{named} is not in your hand"
        if c.type[card] != MONSTER:
            return f"{named} is not a monster: only monsters are summoned"
        return "the dungeon is empty: there is no card to take in exchange"
    if kind == "done":
        return "you still have an action to take (loot, fight or summon): `done` only passes when none is possible"
    if kind == "switch":
        if not g.teams:
            return "there are no teams in this game"
        partner = g.partner[seat]
        if s.team_done >> partner & 1:
            return f"{g.seat_name(partner)} has already taken their action this turn"
        return (
            f"{g.seat_name(partner)} just handed you the decision: play or activate a card, or take your action, "
            "before handing it back"
        )
    return None
