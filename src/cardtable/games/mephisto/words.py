"""What people read about Mephisto: cards in words, lanes and spaces from the reader's side, team names.

Nothing here changes a state; the rules module and the views call these to build log lines, prompts
and card objects. Log lines are kept as data and worded here when a seat reads them (the ``said_*``
functions). Lane and space names depend on who reads them (the table is seen from four sides), so
such a line is worded for each seat (``State.tell_seated``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from cardtable.engine import JSON
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
    from cardtable.games.mephisto.rules import MephistoState


# -- log lines, worded when a seat reads them (State.tell / tell_seated: cardtable.engine.events) -------
# Each takes (game, args, seat): ``args`` were taken when the event happened; ``seat`` is the reader
# when it may read the fuller text (or, for a line naming lanes or spaces, every seat: each numbers
# them from its own side), else None. Spectators read a lane or space as P1 does.


def _said_first(game: Mephisto, args: tuple[int], seat: int | None) -> str:
    return f"{team_name(game, args[0])} {'go' if game.teams else 'goes'} first"


def _said_deal(game: Mephisto, args: tuple[int, tuple[int, ...]], seat: int | None) -> str:
    who, hand = args
    if seat is None:
        return f"{game.seat_name(who)} is dealt {len(hand)} cards"
    return "you are dealt " + ", ".join(game.card_name(c) for c in hand)


def _said_over(game: Mephisto, args: tuple[MephistoState], seat: int | None) -> str:
    from cardtable.games.mephisto.views import outcome_words

    return "the game is over: " + outcome_words(args[0])


def source_words(game: Mephisto, src: int) -> str:
    """``Witch: `` — the card an effect line comes from (nothing for -1)."""
    return f"{game.cards.names[src]}: " if src >= 0 else ""


def whose_words(game: Mephisto, owner: int, card: int) -> str:
    """``P2's Greataxe (card 25)``."""
    return f"{game.seat_name(owner)}'s {game.card_name(card)}"


def _said_draw(game: Mephisto, args: tuple[int, int, int], seat: int | None) -> str:
    src, who, card = args
    what = game.card_name(card) if seat is not None else "a card"
    return f"{source_words(game, src)}{game.seat_name(who)} draws {what}"


def _said_discard(game: Mephisto, args: tuple[int, int, int, int], seat: int | None) -> str:
    src, who, card, paying = args
    purpose = f" to pay for {game.cards.names[paying]}" if paying >= 0 else ""
    return f"{source_words(game, src)}{game.seat_name(who)} discards {game.card_name(card)}{purpose}"


def _said_turn(game: Mephisto, args: tuple[int, int], seat: int | None) -> str:
    turn, side = args
    return f"turn {turn}: {team_name(game, side)}'s turn"


def _said_favor(game: Mephisto, args: tuple[int, int, int, int], seat: int | None) -> str:
    src, who, old, new = args
    return source_words(game, src) + favor_change(game.seat_name(who), old, new)


def _said_bonus(game: Mephisto, args: tuple[int, int, int], seat: int | None) -> str:
    src, who, n = args
    return f"{source_words(game, src)}{game.seat_name(who)} gets +{n} attack for this turn's fight"


def _said_repair(game: Mephisto, args: tuple[int, int, int, int, int], seat: int | None) -> str:
    src, owner, card, old, new = args
    return f"{source_words(game, src)}{whose_words(game, owner, card)} is repaired ({old} -> {new} durability)"


def _said_damage(game: Mephisto, args: tuple[int, int, int, int, int, int], seat: int | None) -> str:
    src, owner, card, n, old, new = args
    return f"{source_words(game, src)}{whose_words(game, owner, card)} loses {n} durability ({old} -> {new})"


def _said_break(game: Mephisto, args: tuple[int, int], seat: int | None) -> str:
    owner, card = args
    return f"{whose_words(game, owner, card)} breaks and goes to the discard pile"


def _said_pay(game: Mephisto, args: tuple[int, int, int], seat: int | None) -> str:
    who, card, cost = args
    price = f"cost {cost}" if cost else "free"
    return f"{game.seat_name(who)} plays {game.cards.names[card]} (card {card}, {price})"


def _said_into_lane(game: Mephisto, args: tuple[int, int, int], seat: int | None) -> str:
    who, card, lane = args
    return f"{game.seat_name(who)}'s {game.card_name(card)} goes into {lane_phrase(game, seat, who, lane)}"


def _said_beside(game: Mephisto, args: tuple[int, int], seat: int | None) -> str:
    who, card = args
    return f"{game.seat_name(who)}'s {game.card_name(card)} goes beside their lanes"


def _said_attach(game: Mephisto, args: tuple[int, int, int], seat: int | None) -> str:
    spell, owner, weapon = args
    return f"{game.card_name(spell)} is attached to {whose_words(game, owner, weapon)}"


def _said_target(game: Mephisto, args: tuple[int, int, int], seat: int | None) -> str:
    who, target, card = args
    return f"{game.seat_name(who)} chooses {game.seat_name(target)} for {game.cards.names[card]}"


def _said_activate(game: Mephisto, args: tuple[int, int, int], seat: int | None) -> str:
    who, card, left = args
    return f"{game.seat_name(who)} activates {game.card_name(card)} ({left + 1} -> {left} durability)"


def _said_refill(game: Mephisto, args: tuple[int, int], seat: int | None) -> str:
    card, space = args
    return f"{game.card_name(card)} enters the dungeon at {space_phrase(game, seat, space)}"


def _said_loot(game: Mephisto, args: tuple[int, int, int], seat: int | None) -> str:
    who, card, space = args
    return f"{game.seat_name(who)} loots {game.card_name(card)} from {space_phrase(game, seat, space)}"


def _said_loot_deck(game: Mephisto, args: tuple[int], seat: int | None) -> str:
    return f"{game.seat_name(args[0])} loots the top card of the deck"


def _said_fight(game: Mephisto, args: tuple[int, int], seat: int | None) -> str:
    who, lane = args
    return f"{game.seat_name(who)} fights in {lane_phrase(game, seat, who, lane)}"


def _said_fight_over(
    game: Mephisto,
    args: tuple[int, int, int, int, tuple[tuple[str, int], ...], tuple[int, ...], bool],
    seat: int | None,
) -> str:
    """How a fight ended: the attack and its parts (label and amount each, taken at the time) against
    the need."""
    who, lane, attack, need, parts, monsters, won = args
    made = " + ".join(f"{label} {n}" for label, n in parts) or "nothing"
    c = game.cards
    name = game.seat_name(who)
    listed = ", ".join(f"{c.names[m]} (card {m}, attack {c.attack[m]})" for m in monsters)
    if won:
        pts = sum(c.souls[m] for m in monsters)
        verb = "wins"
        rest = f"against {need}; {name} collects {listed}: {pts} soul point{'s' if pts != 1 else ''}"
    else:
        verb = "loses"
        rest = f"against {need} ({listed}); nothing is collected"
    return f"{name} {verb} the fight in {lane_phrase(game, seat, who, lane)}: attack {attack} ({made}) {rest}"


def _said_summon(game: Mephisto, args: tuple[int, int], seat: int | None) -> str:
    who, monster = args
    return f"{game.seat_name(who)} summons {game.card_name(monster)}"


def _said_summon_take(game: Mephisto, args: tuple[int, int, int, int, int, int], seat: int | None) -> str:
    who, taken, monster, space, old, new = args
    name = game.seat_name(who)
    gain = favor_change(name, old, new) if new != old else f"{name}'s favor stays at 10"
    return (
        f"{name} takes {game.card_name(taken)} into their hand and puts {game.card_name(monster)} in its place "
        f"({space_phrase(game, seat, space)}); summoning: {gain}"
    )


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


def _said_solo_top(game: Mephisto, args: tuple[int], seat: int | None) -> str:
    return f"the solitaire step discards {game.card_name(args[0])} from the top of the deck"


def _said_solo_none(game: Mephisto, args: tuple[int], seat: int | None) -> str:
    return f"nothing in the dungeon matches; {game.card_name(args[0])} is discarded too"


def _said_solo_remove(game: Mephisto, args: tuple[int, int], seat: int | None) -> str:
    # Solitaire has one seat: the space is named from its side whoever reads (a spectator reads as P1).
    card, space = args
    return f"{game.card_name(card)} is discarded from the dungeon ({space_phrase(game, 0, space)})"


# The words functions the game passes to ``tell``, under their public names as Final aliases: compiled
# code loads a Final name as a C static, where a function's own name is a dictionary lookup in the
# module's globals at every event (cardtable.engine.events, "Why Final aliases").
said_activate: Final = _said_activate
said_attach: Final = _said_attach
said_beside: Final = _said_beside
said_bonus: Final = _said_bonus
said_break: Final = _said_break
said_damage: Final = _said_damage
said_deal: Final = _said_deal
said_discard: Final = _said_discard
said_draw: Final = _said_draw
said_favor: Final = _said_favor
said_fight: Final = _said_fight
said_fight_over: Final = _said_fight_over
said_first: Final = _said_first
said_into_lane: Final = _said_into_lane
said_loot: Final = _said_loot
said_loot_deck: Final = _said_loot_deck
said_over: Final = _said_over
said_pay: Final = _said_pay
said_refill: Final = _said_refill
said_repair: Final = _said_repair
said_solo_none: Final = _said_solo_none
said_solo_remove: Final = _said_solo_remove
said_solo_top: Final = _said_solo_top
said_summon: Final = _said_summon
said_summon_take: Final = _said_summon_take
said_target: Final = _said_target
said_turn: Final = _said_turn
