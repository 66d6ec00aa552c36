"""Army of Darkness log lines, worded when a seat reads them (``State.tell``: cardtable.engine.events).

Each function takes ``(game, args, seat)``: ``args`` were taken when the event happened (a character's
title is taken then too, since characters switch sides: as a number, ``State.title_code``, worded by
:func:`title`); ``seat`` is the reader when it may read the
fuller text (a draw's cards, to the drawer), else None.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from cardtable.games.army_of_darkness.codes import GOOD

if TYPE_CHECKING:
    from cardtable.games.army_of_darkness.game import ArmyOfDarkness


def title(game: ArmyOfDarkness, code: int) -> str:
    """The title that ``code`` (``State.title_code``: ``char << 1 | side``, taken when the event
    happened) stands for: ``Ash`` or ``Evil Ash``."""
    cs = game.cards
    return cs.good_names[code >> 1] if code & 1 == GOOD else cs.evil_names[code >> 1]


def named(game: ArmyOfDarkness, seat: int, character: str) -> str:
    """``P1 (Ash)``: a seat with a title given as text."""
    return f"{game.seat_name(seat)} ({character})"


def who(game: ArmyOfDarkness, seat: int, code: int) -> str:
    """``P1 (Ash)``: a seat with the title its character had then (``code``: see :func:`title`)."""
    return f"{game.seat_name(seat)} ({title(game, code)})"


def _said_characters(game: ArmyOfDarkness, args: tuple[tuple[str, ...], int], seat: int | None) -> str:
    titles, first = args
    listed = ", ".join(named(game, s, name) for s, name in enumerate(titles))
    return f"characters: {listed}; {named(game, first, titles[first])} goes first"


def _said_dealt(game: ArmyOfDarkness, args: tuple[int, str, int, tuple[int, ...]], seat: int | None) -> str:
    s, character, monster, hand = args
    line = f"{named(game, s, character)} gets {game.card_name(monster)} in front of them and {len(hand)} cards"
    if seat is None:
        return line
    return f"{line}: " + ", ".join(game.card_name(c) for c in hand)


def _said_draw(game: ArmyOfDarkness, args: tuple[Any, ...], seat: int | None) -> str:
    # (seat, title, card, card, ...): the cards drawn follow flat (State.tell_list).
    s: int = args[0]
    code: int = args[1]
    cards: tuple[int, ...] = args[2:]
    if seat is None:
        what = "a card" if len(cards) == 1 else f"{len(cards)} cards"
    else:
        # In id order: the order of one draw means nothing, and would differ between games that
        # deal the same cards.
        what = ", ".join(game.card_name(c) for c in sorted(cards))
    return f"{who(game, s, code)} draws {what}"


def _said_no_cards(game: ArmyOfDarkness, args: tuple[int, int], seat: int | None) -> str:
    return (
        f"{who(game, *args)} has no hand cards left: they switch sides at the end of their next turn "
        "if they still have none"
    )


def _said_hit_nothing(game: ArmyOfDarkness, args: tuple[int, int], seat: int | None) -> str:
    return f"{who(game, *args)} takes a hit but has nothing to discard"


def _said_switch(game: ArmyOfDarkness, args: tuple[int, int], seat: int | None) -> str:
    s, code = args
    return f"{game.seat_name(s)} has had no hand cards for a whole turn and switches: now {who(game, s, code)}"


def _said_turn(game: ArmyOfDarkness, args: tuple[int, int, int], seat: int | None) -> str:
    turn, s, code = args
    return f"turn {turn}: {who(game, s, code)}"


def _said_play_event(game: ArmyOfDarkness, args: tuple[int, int, int], seat: int | None) -> str:
    s, code, card = args
    return f"{who(game, s, code)} plays the event {game.card_name(card)}"


def _said_play(game: ArmyOfDarkness, args: tuple[int, int, int, int, int], seat: int | None) -> str:
    s, code, card, to, to_code = args
    where = "themselves" if to == s else who(game, to, to_code)
    return f"{who(game, s, code)} plays {game.card_name(card)} in front of {where}"


def _said_done(game: ArmyOfDarkness, args: tuple[int, int, bool], seat: int | None) -> str:
    s, code, played = args
    return f"{who(game, s, code)} plays {'no more cards' if played else 'no card'} this turn"


def _said_hit(game: ArmyOfDarkness, args: tuple[int, int, int], seat: int | None) -> str:
    s, code, card = args
    return f"{who(game, s, code)} takes a hit and discards {game.card_name(card)}"


def _said_attack_discard(game: ArmyOfDarkness, args: tuple[int, int, int], seat: int | None) -> str:
    s, code, card = args
    return f"{who(game, s, code)} attacks and discards {game.card_name(card)}"


def _said_slay3(game: ArmyOfDarkness, args: tuple[int, int, str], seat: int | None) -> str:
    s, code, name = args
    return f"{who(game, s, code)} attacks and discards three {name} monsters"


def _said_attack(game: ArmyOfDarkness, args: tuple[int, int, int, int], seat: int | None) -> str:
    s, code, target, target_code = args
    return f"{who(game, s, code)} attacks {who(game, target, target_code)}"


def _said_pass(game: ArmyOfDarkness, args: tuple[int, int], seat: int | None) -> str:
    return f"{who(game, *args)} neither draws nor attacks a character"


def _said_from_discard(game: ArmyOfDarkness, args: tuple[int, int, int], seat: int | None) -> str:
    s, code, card = args
    return f"{who(game, s, code)} takes {game.card_name(card)} from the discard pile into their hand"


def _said_tabled_discarded(game: ArmyOfDarkness, args: tuple[int, int, int], seat: int | None) -> str:
    card, owner, owner_code = args
    return f"{game.card_name(card)} in front of {who(game, owner, owner_code)} is discarded"


def _said_take_to_hand(game: ArmyOfDarkness, args: tuple[int, int, int, int, int], seat: int | None) -> str:
    s, code, card, owner, owner_code = args
    return f"{who(game, s, code)} takes {game.card_name(card)} from {who(game, owner, owner_code)} into their hand"


def _said_take(game: ArmyOfDarkness, args: tuple[int, int, int, int, int], seat: int | None) -> str:
    s, code, card, owner, owner_code = args
    return f"{who(game, s, code)} takes {game.card_name(card)} from {who(game, owner, owner_code)}"


def _said_back_in_play(game: ArmyOfDarkness, args: tuple[int, int, int], seat: int | None) -> str:
    card, s, code = args
    return f"{game.card_name(card)} comes back into play in front of {who(game, s, code)}"


def _said_turns(game: ArmyOfDarkness, args: tuple[int, int, bool], seat: int | None) -> str:
    s, code, good = args  # the title of the side it turned to
    return f"{who(game, s, code)} turns {'good' if good else 'evil'}"


def _said_nothing_to_draw(game: ArmyOfDarkness, args: tuple[()], seat: int | None) -> str:
    return "the deck and the discard pile are both empty: nothing to draw"


def _said_reshuffle(game: ArmyOfDarkness, args: tuple[int], seat: int | None) -> str:
    return f"the discard pile is shuffled into a new deck of {args[0]} cards"


def _said_win(game: ArmyOfDarkness, args: tuple[int, int], seat: int | None) -> str:
    return f"{who(game, *args)} wins with the Necronomicon"


def _said_limit(game: ArmyOfDarkness, args: tuple[int], seat: int | None) -> str:
    return f"the turn limit ({args[0]}) is reached; nobody wins"


# The words functions the game passes to ``tell``, under their public names as Final aliases: compiled
# code loads a Final name as a C static, where a function's own name is a dictionary lookup in the
# module's globals at every event (cardtable.engine.events, "Why Final aliases").
said_attack: Final = _said_attack
said_attack_discard: Final = _said_attack_discard
said_characters: Final = _said_characters
said_dealt: Final = _said_dealt
said_done: Final = _said_done
said_draw: Final = _said_draw
said_hit: Final = _said_hit
said_hit_nothing: Final = _said_hit_nothing
said_no_cards: Final = _said_no_cards
said_pass: Final = _said_pass
said_play: Final = _said_play
said_play_event: Final = _said_play_event
said_slay3: Final = _said_slay3
said_switch: Final = _said_switch
said_turn: Final = _said_turn
said_back_in_play: Final = _said_back_in_play
said_from_discard: Final = _said_from_discard
said_limit: Final = _said_limit
said_nothing_to_draw: Final = _said_nothing_to_draw
said_reshuffle: Final = _said_reshuffle
said_tabled_discarded: Final = _said_tabled_discarded
said_take: Final = _said_take
said_take_to_hand: Final = _said_take_to_hand
said_turns: Final = _said_turns
said_win: Final = _said_win
