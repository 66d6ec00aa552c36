"""Doctor Strange in words: every card's printed data as views show it, and where a turn is.

The rulebook prints, for each card, a type letter, a power and a notes column (GPO/EPO, DO/AO, the
fate of an Attack card, what an event does). :func:`card_objects` turns the loaded card data into
one dict per card with those facts as named fields and a ``text`` sentence saying what the card
does; the sentences are written here from the card's data (the rulebook gives no card text to copy).
``notes`` is the card list's Notes column (GPO/EPO, DO/AO, the fate, what an event does); a
character's parenthesised aside ("Servant") goes into its text instead.
:data:`STEP` names each decision of a turn for people (a view's ``step``); :data:`RULEBOOK_PHASE`
says which of the rulebook's four phases it belongs to.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardtable.games.doctor_strange import base as B
from cardtable.games.doctor_strange import cards as C

TYPE_WORDS = ("Character", "Companion", "Location", "Item", "Modifier", "Power", "Attack", "Event")
PLAYER_WORDS = ("either player", "Good player only (GPO)", "Evil player only (EPO)")
ROLE_WORDS = ("attacker or defender", "attacker only (AO)", "defender only (DO)")
FATE_DONE = ("killed", "incapacitated", "controlled", "exiled", "captured")
"""What happens to the target of a winning attack, by fate (``cards.KILL`` ...)."""

NEGATE_WORDS = {
    "kill": "return one of your killed characters from the Killed pile to play, viable",
    "exile": "return one of your exiled characters from the Exiled pile to play, viable",
    "incapacitate": "remove the Incapacitated token from one of your characters",
    "capture": "free one of your captured characters: it comes back to you fully viable",
    "item": "discard an Item attached to any character",
}


def timing_words(timing: int, effects: tuple[Mapping[str, Any], ...]) -> str:
    """When an event is played, with the rulebook's letter: ``"Rest phase (R)"``."""
    if timing == C.MYSTIC_ARTS:
        return "your Mystic Arts phase (E)"
    if timing == C.REST:
        return "Rest phase (R)"
    if timing == C.ANY_TIME:
        return "any time (X)"
    if effects and effects[0]["do"] == "call_defender":
        return "Attack phase, as the defender (D)"
    return "Attack phase (B)"


def effect_words(effects: tuple[Mapping[str, Any], ...]) -> str:
    """What an event does, in one sentence."""
    parts: list[str] = []
    for i, eff in enumerate(effects):
        do = eff["do"]
        if do == "draw":
            n = int(eff["amount"])
            parts.append(f"{'then ' if i else ''}draw {n} card{'s' if n != 1 else ''}")
        elif do == "discard_hand":
            parts.append("discard the rest of your hand")
        elif do == "search_deck":
            parts.append("search the deck for a card and keep it; the deck is then shuffled")
        elif do == "look_deck":
            parts.append(f"look at the next {int(eff['count'])} cards of the deck (their order stays)")
        elif do == "look_hand":
            parts.append("look at your opponent's hand")
        elif do == "negate":
            parts.append(NEGATE_WORDS[str(eff["target"])])
        elif do == "counter":
            parts.append("counter an Attack card as it is played: that attack is cancelled")
        else:  # call_defender
            parts.append("call Defender: an unmarked friendly viable character adds its power to the Defense Total")
    text = ", ".join(parts)
    return text[:1].upper() + text[1:] + "."


def card_text(data: C.CardData, c: int) -> str:
    """What card ``c`` does, in words (written from its data)."""
    t, p = data.types[c], data.power[c]
    if t == C.CHARACTER:
        text = f"A character of power {p}."
        aside = data.note[c]
        if aside:
            # The card list's aside ("Servant") has no rules effect. One that is also a card's name
            # ("Sorcerer") is written in lower case, so it is not read as that card.
            if aside in data.names:
                aside = aside.lower()
            text = f"A character of power {p} ({aside})."
        if p >= 10:
            text += " Power 10 or more: in its player's Rest phase it rolls a D12 and leaves play on 11 or 12."
        return text
    if t == C.POWER:
        who = ("", " (attacker only)", " (defender only)")[data.role[c]]
        return f"Play during a fight to add +{p} to your total{who}."
    if t == C.ATTACK:
        return (
            "Play to declare an attack by one of your viable characters on an opposing viable character; "
            f"if the attack wins, the target is {FATE_DONE[data.fate[c]]}."
        )
    if t == C.EVENT:
        return effect_words(data.effects[c])
    text = f"Attach to one of your characters: +{p} power while attached."
    if t == C.LOCATION:
        text += " A character may have only one Location."
    elif t == C.MODIFIER:
        text += " Stays attached when its character is captured."
    return text


def _marks(data: C.CardData, c: int) -> str:
    """The card list's Notes column without a character's aside (which the text carries)."""
    notes = data.notes[c]
    if data.note[c]:
        notes = notes.replace(f"({data.note[c]})", "").strip() or "-"
    return notes


def card_objects(data: C.CardData) -> tuple[dict[str, Any], ...]:
    """Every card as a view shows it: id, name, type, text, the rulebook's notes, who may use it, and
    the printed numbers and marks that apply to it (power, fate, role, timing)."""
    out = []
    for c in range(len(data)):
        t = data.types[c]
        card: dict[str, Any] = {
            "id": c,
            "name": data.names[c],
            "type": TYPE_WORDS[t],
            "text": card_text(data, c),
            "notes": _marks(data, c),
            "player": PLAYER_WORDS[data.only[c]],
        }
        if t not in (C.ATTACK, C.EVENT):
            card["power"] = data.power[c]
        if t == C.ATTACK:
            card["fate"] = FATE_DONE[data.fate[c]]
        if t == C.POWER:
            card["role"] = ROLE_WORDS[data.role[c]]
        if t == C.EVENT:
            card["timing"] = timing_words(data.timing[c], data.effects[c])
        out.append(card)
    return tuple(out)


STEP = {
    B.MYSTIC: "Mystic Arts phase",
    B.XWIN: "any-time window after the Mystic Arts phase",
    B.SUMMON: "Summon phase",
    B.ONTO: "Summon phase: choosing the character for an attachment",
    B.DECLARE: "Attack phase: declaring attacks",
    B.TARGET: "Attack phase: choosing a target",
    B.WEAPON: "Attack phase: choosing an Attack card",
    B.COUNTER: "Attack phase: counter window",
    B.EXCHANGE: "Attack phase: fight",
    B.HELPER: "Attack phase: calling a defender",
    B.REST: "Rest phase",
    B.OREST: "Rest phase: the other player's window",
    B.DISCARD: "Rest phase: discarding down to 7 cards",
    B.NEGATE: "choosing a Negate card's target",
    B.TAKE: "Go Back in Time: choosing a card from the deck",
    B.XANY: "any-time window",
    B.OVER: "game over",
}
"""Each decision of a turn in words (a view's ``step``); the heuristic agent reads these too."""

RULEBOOK_PHASE = {
    B.MYSTIC: "Mystic Arts",
    B.XWIN: "Mystic Arts",
    B.SUMMON: "Summon",
    B.ONTO: "Summon",
    B.DECLARE: "Attack",
    B.TARGET: "Attack",
    B.WEAPON: "Attack",
    B.COUNTER: "Attack",
    B.EXCHANGE: "Attack",
    B.HELPER: "Attack",
    B.REST: "Rest",
    B.OREST: "Rest",
    B.DISCARD: "Rest",
}
"""Which of the rulebook's four phases a decision belongs to (events and any-time windows: the phase
they interrupt)."""
