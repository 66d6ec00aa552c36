"""Mr. Card Game log lines, worded when a seat reads them (``State.tell``: cardtable.engine.events).

Each function takes ``(game, args, seat)``: ``args`` were taken when the event happened (numbers,
names, tuples of card ids); ``seat`` is the reader when it may read the fuller text (the stat cards
a player drew, to that player), else None. The rarer lines are still given as text (``emit``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from cardtable.games.mr_card_game.cards import CLASS_WORDS
from cardtable.games.mr_card_game.effects import MANEUVER_WORDS
from cardtable.games.mr_card_game.text import kind_words, kinds_words

if TYPE_CHECKING:
    from cardtable.games.mr_card_game.game import MrCardGame

EVADE_MANEUVER: Final = 3


def said_newbie(game: MrCardGame, args: tuple[int, int, int, tuple[int, ...]], seat: int | None) -> str:
    p, pos, meat, hand = args
    drawn = kinds_words(game, hand) if seat is not None else f"{len(hand)} cards"
    return (
        f"{game.seat_name(p)} takes the {game.cards.newbie_set_names[pos]} newbie gear, {meat} meat, and draws {drawn}"
    )


def said_turn(game: MrCardGame, args: tuple[int, int, int], seat: int | None) -> str:
    rnd, turn, p = args
    return f"round {rnd}, turn {turn}: {game.seat_name(p)}'s turn"


def said_discard_played(game: MrCardGame, args: tuple[int, tuple[int, ...]], seat: int | None) -> str:
    p, played = args
    return f"{game.seat_name(p)} discards the played cards ({kinds_words(game, played)})"


def said_escrow(game: MrCardGame, args: tuple[int, tuple[int, ...]], seat: int | None) -> str:
    p, escrow = args
    return f"{game.seat_name(p)}'s escrow goes onto the Heap, in order: {', '.join(game.card_name(c) for c in escrow)}"


def said_discard(game: MrCardGame, args: tuple[int, int], seat: int | None) -> str:
    p, kind = args
    return f"{game.seat_name(p)} discards {kind_words(game, kind)}"


def said_draws(game: MrCardGame, args: tuple[int, tuple[int, ...]], seat: int | None) -> str:
    p, drawn = args
    if seat is not None:
        return f"{game.seat_name(p)} draws {kinds_words(game, drawn)}"
    n = len(drawn)
    return f"{game.seat_name(p)} draws {n} card{'s' if n != 1 else ''}"


def said_rollover(game: MrCardGame, args: tuple[int, bool], seat: int | None) -> str:
    p, buffs_off = args
    return f"{game.seat_name(p)} hits rollover{' (their buffs turn off)' if buffs_off else ''}"


def said_reshuffle(game: MrCardGame, args: tuple[int, int], seat: int | None) -> str:
    p, size = args
    return f"{game.seat_name(p)} shuffles the discard pile into a new deck of {size} cards"


def said_upgrade(game: MrCardGame, args: tuple[int, int, int], seat: int | None) -> str:
    p, old, new = args
    return f"{game.seat_name(p)} exchanges {kind_words(game, old)} for {kind_words(game, new)}"


def said_play(game: MrCardGame, args: tuple[int, int], seat: int | None) -> str:
    p, kind = args
    return f"{game.seat_name(p)} plays {kind_words(game, kind)}"


def said_combat(game: MrCardGame, args: tuple[int], seat: int | None) -> str:
    return f"{game.seat_name(args[0])} starts a combat"


def said_no_kill(game: MrCardGame, args: tuple[int], seat: int | None) -> str:
    return f"{game.seat_name(args[0])} ends the combat without a kill"


def said_no_combat(game: MrCardGame, args: tuple[int], seat: int | None) -> str:
    return f"{game.seat_name(args[0])} ends the turn without a combat"


def said_maneuver(game: MrCardGame, args: tuple[int, int], seat: int | None) -> str:
    p, man = args
    return f"{game.seat_name(p)} performs {'an' if man == EVADE_MANEUVER else 'a'} {MANEUVER_WORDS[man]}"


def said_kill(game: MrCardGame, args: tuple[int, int, int, int], seat: int | None) -> str:
    p, monster, power, score = args
    return f"{game.seat_name(p)} kills {game.cards.mname[monster]} (power {power}, score {score})"


def said_loot_meat(game: MrCardGame, args: tuple[int, int], seat: int | None) -> str:
    p, got = args
    return f"{game.seat_name(p)} loots {got} meat"


def said_loot_item(game: MrCardGame, args: tuple[int, int], seat: int | None) -> str:
    p, card = args
    return f"{game.seat_name(p)} takes {game.card_name(card)} into the display case"


def said_equip(game: MrCardGame, args: tuple[int, int], seat: int | None) -> str:
    p, card = args
    return f"{game.seat_name(p)} equips {game.card_name(card)}"


def said_unequip(game: MrCardGame, args: tuple[int, int], seat: int | None) -> str:
    p, card = args
    return f"{game.seat_name(p)} unequips {game.card_name(card)}"


def said_autosell(game: MrCardGame, args: tuple[int, int, int], seat: int | None) -> str:
    p, card, got = args
    return f"{game.seat_name(p)} AutoSells {game.card_name(card)} for {got} meat"


def said_train(game: MrCardGame, args: tuple[int, int, int], seat: int | None) -> str:
    p, card, cost = args
    return f"{game.seat_name(p)} trains {game.card_name(card)} for {cost} meat"


def said_dive(game: MrCardGame, args: tuple[int, int, int], seat: int | None) -> str:
    p, card, price = args
    return f"{game.seat_name(p)} dives {game.card_name(card)} from the Heap for {price} meat"


def said_mojo(game: MrCardGame, args: tuple[int, int, int], seat: int | None) -> str:
    p, value, pool = args
    return f"{game.seat_name(p)} discards a Mysticality {value} for mojo (pool {pool})"


def said_skill(game: MrCardGame, args: tuple[int, int, int], seat: int | None) -> str:
    p, card, paid = args
    return f"{game.seat_name(p)} uses {game.card_name(card)} ({paid} mojo)"


def said_stat(game: MrCardGame, args: tuple[int, int], seat: int | None) -> str:
    p, kind = args
    return f"{game.seat_name(p)} gains {kind_words(game, kind)} (into the discard pile)"


def said_joins(game: MrCardGame, args: tuple[int], seat: int | None) -> str:
    return f"{game.card_name(args[0])} joins the trainer"


def said_turned_up(game: MrCardGame, args: tuple[int, int], seat: int | None) -> str:
    card, k = args
    return f"{game.card_name(card)} is turned up on the {CLASS_WORDS[k]} pile"


def said_march_phase(game: MrCardGame, args: tuple[int, bool], seat: int | None) -> str:
    p, noncombat = args
    return f"the March: {game.seat_name(p)}'s {'non-combat' if noncombat else 'combat'} phase"


def said_announce(game: MrCardGame, args: tuple[int, int, int], seat: int | None) -> str:
    p, total, need = args
    return f"{game.seat_name(p)} announces a total of {total} (needs {need})"
