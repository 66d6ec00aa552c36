"""What people read about Mephisto: cards in words, lanes and spaces from the reader's side, team names.

Nothing here changes a state; the rules module and the views call these to build log lines, prompts
and card objects. Lane and space names depend on who reads them (the table is seen from four sides),
so the log uses :class:`SeatedEvent`, an event with one text per seat.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from cardtable.engine import JSON
from cardtable.engine.game import Event
from cardtable.games.mephisto.cards import (
    BONUS,
    DAMAGE,
    DISCARD,
    DRAW,
    GAIN,
    ITEM,
    LOSE,
    MONSTER,
    REPAIR,
    SPELL,
    T_FIGHT_WON,
    T_FIGHTING,
    T_LOOT,
    T_SUMMON,
    T_TURN_START,
    TYPE_NAMES,
    WEAPON,
    CardSet,
    Effect,
)

if TYPE_CHECKING:
    from cardtable.games.mephisto.game import Mephisto


@dataclass(frozen=True, slots=True)
class SeatedEvent(Event):
    """An event worded for each seat (``by_seat[s]`` is what seat ``s`` reads): a line naming lanes or
    dungeon spaces, which every seat numbers from its own side. Spectators read ``text`` (worded as
    for P1, whose side a spectator is shown). Carries nothing private."""

    by_seat: tuple[str, ...] = ()

    def for_seat(self, seat: int | None) -> str:
        if seat is not None and 0 <= seat < len(self.by_seat):
            return self.by_seat[seat]
        return self.text


def _verb(subject: str, verb: str) -> str:
    """``you gain`` / ``each opponent gains``."""
    return f"{subject} {verb}" if subject == "you" else f"{subject} {verb}s"


def effect_words(effect: Effect, where: str = "turn") -> str:
    """Plain words for a printed effect ("each opponent loses 2 favor").

    ``where`` says what an attack bonus adds to: ``turn`` (a spell or activation: your fight this
    turn), ``host`` (an attached spell: the weapon it is under) or ``always`` (a defeated monster:
    every fight of its owner)."""
    op, n, who = effect
    subject = ("you", "each opponent", "every player")[who]
    cards = "a card" if n == 1 else f"{n} cards"
    if op == GAIN:
        return f"{_verb(subject, 'gain')} {n} favor"
    if op == LOSE:
        return f"{_verb(subject, 'lose')} {n} favor"
    if op == DRAW:
        return f"{_verb(subject, 'draw')} {cards}"
    if op == DISCARD:
        return f"{_verb(subject, 'discard')} {cards}"
    if op == REPAIR:
        return f"repair one of your items or weapons by {n}"
    if op == DAMAGE:
        return f"remove {n} durability from an opponent's item or weapon"
    assert op == BONUS
    return {"turn": f"+{n} attack in your fight this turn", "host": f"+{n} attack for this weapon"}.get(
        where, f"+{n} attack in every fight you make"
    )


def _effects(effects: tuple[Effect, ...], where: str = "turn") -> str:
    return "; ".join(effect_words(e, where) for e in effects)


TRIGGER_WORDS = {
    T_FIGHTING: "whenever you fight",
    T_FIGHT_WON: "whenever you win a fight",
    T_LOOT: "whenever you loot",
    T_SUMMON: "whenever you summon",
    T_TURN_START: "at the start of each of your turns",
}


def card_text(cards: CardSet, card: int) -> str:
    """A card's printed abilities in words ("" for a card with none)."""
    kind = cards.type[card]
    parts: list[str] = []
    if kind == MONSTER:
        if cards.immediate[card]:
            parts.append("When it enters the dungeon: " + _effects(cards.immediate[card]) + ".")
        if cards.trigger[card]:
            effects = cards.ability[card]
            words = _effects(effects, "always")
            if cards.trigger[card] == T_FIGHTING:
                parts.append(f"Once you have defeated it: {words}.")
            else:
                parts.append(f"Once you have defeated it, {TRIGGER_WORDS[cards.trigger[card]]}: {words}.")
        return " ".join(parts)
    if kind == SPELL:
        if cards.attach[card]:
            parts.append(f"Attach to a weapon: +{cards.attach_bonus[card]} attack for it until it breaks.")
        if cards.effects[card]:
            parts.append(_effects(cards.effects[card]).capitalize() + ".")
        return " ".join(parts)
    if cards.on_play[card]:
        parts.append("When played: " + _effects(cards.on_play[card]) + ".")
    if cards.activate[card]:
        parts.append("Activate (1 durability, once a turn): " + _effects(cards.activate[card]) + ".")
    return " ".join(parts)


def card_object(cards: CardSet, card: int) -> dict[str, JSON]:
    """A visible card as a view shows it: id, name, type, its text in words and its printed numbers
    (monster: attack, souls; weapon: cost, attack, durability, range; spell: cost; item: cost,
    durability)."""
    kind = cards.type[card]
    out: dict[str, JSON] = {
        "id": card,
        "name": cards.names[card],
        "type": TYPE_NAMES[kind],
        "text": card_text(cards, card),
    }
    if kind == MONSTER:
        out["attack"] = cards.attack[card]
        out["souls"] = cards.souls[card]
        return out
    out["cost"] = cards.cost[card]
    if kind == WEAPON:
        out["attack"] = cards.attack[card]
    if kind in (WEAPON, ITEM):
        out["durability"] = cards.durability[card]
    if kind == WEAPON:
        out["range"] = cards.range[card]
    return out


def team_name(game: Mephisto, side: int) -> str:
    """``P1+P3``: a team (teams: side 0 is seats 0 and 2), or the seat's name without teams."""
    if game.teams:
        return f"{game.seat_name(side)}+{game.seat_name(side + 2)}"
    return game.seat_name(side)


ROW_WORDS = {"near": "the row nearest you", "middle": "the middle row", "far": "the row farthest from you"}


def lane_phrase(game: Mephisto, reader: int | None, owner: int, lane: int) -> str:
    """``owner``'s lane ``lane`` as ``reader`` calls it (spectators read as P1 does):

    ``lane 2`` (the reader's own lane, or the same number from both sides), ``lane 3 (P2's lane 1)``
    (a mirrored lane), or ``P2's lane 1 (the row nearest you)`` (the lane of a seat at the reader's
    left or right, which crosses the reader's lanes)."""
    me = 0 if reader is None else reader
    if me == owner:
        return f"lane {lane}"
    mine, place = game.board.lane_as_seen(me, owner, lane)
    name = game.seat_name(owner)
    if mine == lane:
        return f"lane {lane}"
    if mine:
        return f"lane {mine} ({name}'s lane {lane})"
    return f"{name}'s lane {lane} ({ROW_WORDS[place]})"


def space_phrase(game: Mephisto, reader: int | None, space: int) -> str:
    """``lane 2, far``: a dungeon space as ``reader`` names it (spectators: as P1 does)."""
    return game.board.space_name(0 if reader is None else reader, space)


def favor_change(name: str, old: int, new: int) -> str:
    """``P2 loses 2 favor (5 -> 3)``; callers log nothing when ``old == new``."""
    if new > old:
        return f"{name} gains {new - old} favor ({old} -> {new})"
    return f"{name} loses {old - new} favor ({old} -> {new})"


def ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third"}.get(n, f"{n}th")
