"""Doctor Strange log lines, worded when a seat reads them (``State.tell``: cardtable.engine.events).

Each function takes ``(game, args, seat)``: ``args`` were taken when the event happened (numbers and
card ids; a fight's totals are taken then); ``seat`` is the reader when it may read the fuller text
(the cards a player drew, to that player), else None. The rarer lines are still given as text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from cardtable.games.doctor_strange import cards as C

if TYPE_CHECKING:
    from cardtable.games.doctor_strange.game import DoctorStrange


def _said_draw(game: DoctorStrange, args: tuple[int, tuple[int, ...]], seat: int | None) -> str:
    who, got = args
    if seat is None:
        return f"{game.seat_name(who)} draws {len(got)} card{'s' if len(got) != 1 else ''}"
    # Sorted: the order of a draw from the unordered pool is not something to show.
    return f"you draw {', '.join(game.card_name(c) for c in sorted(got)) or 'nothing'}"


def _said_deal(game: DoctorStrange, args: tuple[int, tuple[int, ...]], seat: int | None) -> str:
    who, hand = args
    if seat is None:
        return f"{game.seat_name(who)} is dealt {len(hand)} cards"
    return "you hold: " + ", ".join(game.card_name(c) for c in sorted(hand))


def _said_turn(game: DoctorStrange, args: tuple[int, int], seat: int | None) -> str:
    turn, active = args
    rnd = f" (round {(turn + 1) // 2})" if game.rounds else ""
    return f"turn {turn}{rnd}: {game.seat_name(active)}'s turn"


def _said_play(game: DoctorStrange, args: tuple[int, int], seat: int | None) -> str:
    who, card = args
    return f"{game.seat_name(who)} plays {game.card_name(card)}"


def _said_hand_limit(game: DoctorStrange, args: tuple[int, int], seat: int | None) -> str:
    who, card = args
    return f"{game.seat_name(who)} discards {game.card_name(card)} (hand limit 7)"


def _said_attach(game: DoctorStrange, args: tuple[int, int, int, int], seat: int | None) -> str:
    card, host, before, after = args
    return f"{game.card_name(card)} is attached to {game.card_name(host)} (power {before} -> {after})"


def _said_declare(game: DoctorStrange, args: tuple[int, int, int, int], seat: int | None) -> str:
    who, a, t, weapon = args
    fate = C.FATE_NAMES[game.FATE[weapon]]
    return (
        f"{game.seat_name(who)}: {game.card_name(a)} attacks {game.card_name(t)} with {game.card_name(weapon)} "
        f"(if it wins: {fate})"
    )


def _said_roll(game: DoctorStrange, args: tuple[int, int, int, int, int, int, int, int], seat: int | None) -> str:
    a, ra, pa, atk, t, rd, pt, dfn = args
    return (
        f"fight: {game.NAMES[a]} rolls {ra} + power {pa} = Attack Total {atk}; "
        f"{game.NAMES[t]} rolls {rd} + power {pt} = Defense Total {dfn}"
    )


def _said_power(game: DoctorStrange, args: tuple[int, int, int, bool, int, int], seat: int | None) -> str:
    who, card, bonus, attacking, atk, dfn = args
    return (
        f"{game.seat_name(who)} plays {game.card_name(card)}: +{bonus} "
        f"({'attack' if attacking else 'defense'}); Attack Total {atk}, Defense Total {dfn}"
    )


def _said_won(game: DoctorStrange, args: tuple[int, int, int, int], seat: int | None) -> str:
    atk, dfn, a, weapon = args
    tie = "a tie goes to the attacker; " if atk == dfn else ""
    return (
        f"Attack Total {atk} against Defense Total {dfn}: {game.NAMES[a]} wins ({tie}{C.FATE_NAMES[game.FATE[weapon]]})"
    )


def _said_failed(game: DoctorStrange, args: tuple[int, int, int], seat: int | None) -> str:
    atk, dfn, t = args
    return f"Attack Total {atk} against Defense Total {dfn}: the attack on {game.NAMES[t]} fails"


# The words functions the game passes to ``tell``, under their public names as Final aliases: compiled
# code loads a Final name as a C static, where a function's own name is a dictionary lookup in the
# module's globals at every event (cardtable.engine.events, "Why Final aliases").
said_attach: Final = _said_attach
said_deal: Final = _said_deal
said_declare: Final = _said_declare
said_draw: Final = _said_draw
said_failed: Final = _said_failed
said_hand_limit: Final = _said_hand_limit
said_play: Final = _said_play
said_power: Final = _said_power
said_roll: Final = _said_roll
said_turn: Final = _said_turn
said_won: Final = _said_won
