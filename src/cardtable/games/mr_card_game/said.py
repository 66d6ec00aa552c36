"""Mr. Card Game log lines, worded when a seat reads them (``State.tell``: cardtable.engine.events).

Each function takes ``(game, args, seat)``: ``args`` were taken when the event happened (numbers,
names, tuples of card ids); ``seat`` is the reader when it may read the fuller text (the stat cards
a player drew, to that player), else None. The rarer lines are still given as text (``emit``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from cardtable.games.mr_card_game.cards import CLASS_WORDS
from cardtable.games.mr_card_game.effects import MANEUVER_WORDS, STAT_WORDS
from cardtable.games.mr_card_game.text import kind_words, kinds_words

if TYPE_CHECKING:
    from cardtable.games.mr_card_game.game import MrCardGame

EVADE_MANEUVER: Final = 3


def _said_newbie(game: MrCardGame, args: tuple[int, int, int, tuple[int, ...]], seat: int | None) -> str:
    p, pos, meat, hand = args
    drawn = kinds_words(game, hand) if seat is not None else f"{len(hand)} cards"
    return (
        f"{game.seat_name(p)} takes the {game.cards.newbie_set_names[pos]} newbie gear, {meat} meat, and draws {drawn}"
    )


def _said_turn(game: MrCardGame, args: tuple[int, int, int], seat: int | None) -> str:
    rnd, turn, p = args
    return f"round {rnd}, turn {turn}: {game.seat_name(p)}'s turn"


def _said_discard_played(game: MrCardGame, args: tuple[int, tuple[int, ...]], seat: int | None) -> str:
    p, played = args
    return f"{game.seat_name(p)} discards the played cards ({kinds_words(game, played)})"


def _said_escrow(game: MrCardGame, args: tuple[int, tuple[int, ...]], seat: int | None) -> str:
    p, escrow = args
    return f"{game.seat_name(p)}'s escrow goes onto the Heap, in order: {', '.join(game.card_name(c) for c in escrow)}"


def _said_discard(game: MrCardGame, args: tuple[int, int], seat: int | None) -> str:
    p, kind = args
    return f"{game.seat_name(p)} discards {kind_words(game, kind)}"


def _said_draws(game: MrCardGame, args: tuple[Any, ...], seat: int | None) -> str:
    # (seat, card, card, ...): the cards drawn follow flat (State.tell_list1).
    p: int = args[0]
    drawn: tuple[int, ...] = args[1:]
    if seat is not None:
        return f"{game.seat_name(p)} draws {kinds_words(game, drawn)}"
    n = len(drawn)
    return f"{game.seat_name(p)} draws {n} card{'s' if n != 1 else ''}"


def _said_rollover(game: MrCardGame, args: tuple[int, bool], seat: int | None) -> str:
    p, buffs_off = args
    return f"{game.seat_name(p)} hits rollover{' (their buffs turn off)' if buffs_off else ''}"


def _said_reshuffle(game: MrCardGame, args: tuple[int, int], seat: int | None) -> str:
    p, size = args
    return f"{game.seat_name(p)} shuffles the discard pile into a new deck of {size} cards"


def _said_upgrade(game: MrCardGame, args: tuple[int, int, int], seat: int | None) -> str:
    p, old, new = args
    return f"{game.seat_name(p)} exchanges {kind_words(game, old)} for {kind_words(game, new)}"


def _said_play(game: MrCardGame, args: tuple[int, int], seat: int | None) -> str:
    p, kind = args
    return f"{game.seat_name(p)} plays {kind_words(game, kind)}"


def _said_combat(game: MrCardGame, args: tuple[int], seat: int | None) -> str:
    return f"{game.seat_name(args[0])} starts a combat"


def _said_no_kill(game: MrCardGame, args: tuple[int], seat: int | None) -> str:
    return f"{game.seat_name(args[0])} ends the combat without a kill"


def _said_no_combat(game: MrCardGame, args: tuple[int], seat: int | None) -> str:
    return f"{game.seat_name(args[0])} ends the turn without a combat"


def _said_maneuver(game: MrCardGame, args: tuple[int, int], seat: int | None) -> str:
    p, man = args
    return f"{game.seat_name(p)} performs {'an' if man == EVADE_MANEUVER else 'a'} {MANEUVER_WORDS[man]}"


def _said_kill(game: MrCardGame, args: tuple[int, int, int, int], seat: int | None) -> str:
    p, monster, power, score = args
    return f"{game.seat_name(p)} kills {game.cards.mname[monster]} (power {power}, score {score})"


def _said_loot_meat(game: MrCardGame, args: tuple[int, int], seat: int | None) -> str:
    p, got = args
    return f"{game.seat_name(p)} loots {got} meat"


def _said_loot_item(game: MrCardGame, args: tuple[int, int], seat: int | None) -> str:
    p, card = args
    return f"{game.seat_name(p)} takes {game.card_name(card)} into the display case"


def _said_equip(game: MrCardGame, args: tuple[int, int], seat: int | None) -> str:
    p, card = args
    return f"{game.seat_name(p)} equips {game.card_name(card)}"


def _said_unequip(game: MrCardGame, args: tuple[int, int], seat: int | None) -> str:
    p, card = args
    return f"{game.seat_name(p)} unequips {game.card_name(card)}"


def _said_autosell(game: MrCardGame, args: tuple[int, int, int], seat: int | None) -> str:
    p, card, got = args
    return f"{game.seat_name(p)} AutoSells {game.card_name(card)} for {got} meat"


def _said_train(game: MrCardGame, args: tuple[int, int, int], seat: int | None) -> str:
    p, card, cost = args
    return f"{game.seat_name(p)} trains {game.card_name(card)} for {cost} meat"


def _said_dive(game: MrCardGame, args: tuple[int, int, int], seat: int | None) -> str:
    p, card, price = args
    return f"{game.seat_name(p)} dives {game.card_name(card)} from the Heap for {price} meat"


def _said_mojo(game: MrCardGame, args: tuple[int, int, int], seat: int | None) -> str:
    p, value, pool = args
    return f"{game.seat_name(p)} discards a Mysticality {value} for mojo (pool {pool})"


def _said_skill(game: MrCardGame, args: tuple[int, int, int], seat: int | None) -> str:
    p, card, paid = args
    return f"{game.seat_name(p)} uses {game.card_name(card)} ({paid} mojo)"


def _said_stat(game: MrCardGame, args: tuple[int, int], seat: int | None) -> str:
    p, kind = args
    return f"{game.seat_name(p)} gains {kind_words(game, kind)} (into the discard pile)"


def _said_joins(game: MrCardGame, args: tuple[int], seat: int | None) -> str:
    return f"{game.card_name(args[0])} joins the trainer"


def _said_turned_up(game: MrCardGame, args: tuple[int, int], seat: int | None) -> str:
    card, k = args
    return f"{game.card_name(card)} is turned up on the {CLASS_WORDS[k]} pile"


def _said_march_phase(game: MrCardGame, args: tuple[int, bool], seat: int | None) -> str:
    p, noncombat = args
    return f"the March: {game.seat_name(p)}'s {'non-combat' if noncombat else 'combat'} phase"


def _said_announce(game: MrCardGame, args: tuple[int, int, int], seat: int | None) -> str:
    p, total, need = args
    return f"{game.seat_name(p)} announces a total of {total} (needs {need})"


def _said_poll(game: MrCardGame, args: tuple[int], seat: int | None) -> str:
    return f"round {args[0]} is over: who marches on the Tower?"


def _said_poll_quests(game: MrCardGame, args: tuple[int], seat: int | None) -> str:
    return f"round {args[0]} is over; the quests are not done, so nobody may march yet"


def _said_passes(game: MrCardGame, args: tuple[int], seat: int | None) -> str:
    return f"{game.seat_name(args[0])} passes"


def _said_certificate(game: MrCardGame, args: tuple[int], seat: int | None) -> str:
    return f"the {game.cards.certificate_name} passes to {game.seat_name(args[0])}"


def _said_untrained(game: MrCardGame, args: tuple[int], seat: int | None) -> str:
    return f"no skill was trained: the oldest, {game.card_name(args[0])}, is discarded"


def _said_turned_away(game: MrCardGame, args: tuple[int], seat: int | None) -> str:
    return f"the counter-attack of {game.cards.mname[args[0]]} is turned away by the ranged weapon"


def _said_counter(game: MrCardGame, args: tuple[int, int, int, int], seat: int | None) -> str:
    target, actor, typ, value = args
    # typ -1 is hardcore.ANY_TYPE (a boss's counter of any single type).
    what = "cards of any single type" if typ == -1 else f"{STAT_WORDS[typ]} cards"
    return (
        f"{game.cards.mname[target]} counter-attacks: {game.seat_name(actor)} must discard {what} "
        f"worth {value} or more to block it"
    )


def _said_block_discard(game: MrCardGame, args: tuple[int, int], seat: int | None) -> str:
    return f"{game.seat_name(args[0])} discards {kind_words(game, args[1])} to block"


def _said_blocks(game: MrCardGame, args: tuple[int], seat: int | None) -> str:
    return f"{game.seat_name(args[0])} blocks the counter-attack"


def _said_no_block(game: MrCardGame, args: tuple[int], seat: int | None) -> str:
    return f"{game.seat_name(args[0])} does not block the counter-attack"


# The words functions the game passes to ``tell``, under their public names as Final aliases: compiled
# code loads a Final name as a C static, where a function's own name is a dictionary lookup in the
# module's globals at every event (cardtable.engine.events, "Why Final aliases").
said_announce: Final = _said_announce
said_autosell: Final = _said_autosell
said_certificate: Final = _said_certificate
said_combat: Final = _said_combat
said_discard: Final = _said_discard
said_discard_played: Final = _said_discard_played
said_dive: Final = _said_dive
said_draws: Final = _said_draws
said_equip: Final = _said_equip
said_escrow: Final = _said_escrow
said_joins: Final = _said_joins
said_kill: Final = _said_kill
said_loot_item: Final = _said_loot_item
said_loot_meat: Final = _said_loot_meat
said_maneuver: Final = _said_maneuver
said_march_phase: Final = _said_march_phase
said_mojo: Final = _said_mojo
said_newbie: Final = _said_newbie
said_no_combat: Final = _said_no_combat
said_no_kill: Final = _said_no_kill
said_passes: Final = _said_passes
said_play: Final = _said_play
said_poll: Final = _said_poll
said_poll_quests: Final = _said_poll_quests
said_reshuffle: Final = _said_reshuffle
said_rollover: Final = _said_rollover
said_skill: Final = _said_skill
said_stat: Final = _said_stat
said_train: Final = _said_train
said_turn: Final = _said_turn
said_turned_up: Final = _said_turned_up
said_unequip: Final = _said_unequip
said_untrained: Final = _said_untrained
said_upgrade: Final = _said_upgrade
said_turned_away: Final = _said_turned_away
said_counter: Final = _said_counter
said_block_discard: Final = _said_block_discard
said_blocks: Final = _said_blocks
said_no_block: Final = _said_no_block
