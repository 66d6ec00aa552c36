"""M9: the end of the game (deck runs out, reshuffle, finish the round; second pass with 3+) and scoring."""

from __future__ import annotations

import pytest

from cardtable.engine import GameOver
from cardtable.games.mephisto.rules import MephistoState

from .helpers import CANDLE, CHALICE, IMP, LANTERN, MALLET, PACT, TROLL, WITCH, apply, arrange, legal, new, where


def _last_card(seat: int, first: int, **opts: object) -> MephistoState:
    s = new(**opts)  # two players unless opts say otherwise
    return arrange(s, seat=seat, first=first, deck=[PACT], dungeon=[CHALICE, IMP, IMP + 1, 3, 4, 5])


def test_m9_1_deck_runs_out_the_discard_pile_becomes_the_new_deck() -> None:
    s = _last_card(0, 0)
    pile = len(s.discard)
    apply(s, "loot-deck")
    assert s.runouts == 1
    # the discard pile was shuffled into a new deck; refill and seat 1's draw came from it
    assert len(s.deck) + len(s.discard) == pile - 1  # one card refilled nothing (dungeon full) ... and one drawn
    assert len(where(s)) == 60


def test_m9_2_play_continues_until_the_round_is_complete() -> None:
    s = _last_card(0, 0)
    apply(s, "loot-deck")
    assert s.end_turn == 2 and not s.is_over and s.current_player == 1
    apply(s, "loot-deck")
    assert s.is_over and s.result().reason == "deck-exhausted"
    with pytest.raises(GameOver):
        s.apply("loot-deck")


def test_m9_2_when_the_last_seat_empties_the_deck_the_game_ends_after_that_turn() -> None:
    s = _last_card(1, 0)  # seat 1 is the last seat of the round (seat 0 started)
    apply(s, "loot-deck")
    assert s.is_over


def test_m9_2_option_end_after_the_current_turn() -> None:
    s = _last_card(0, 0, **{"final-round": "current-turn"})
    apply(s, "loot-deck")
    assert s.is_over


def test_m9_2_option_left_of_start_ends_after_the_second_seat_in_turn_order() -> None:
    s = _last_card(0, 0, players=3, **{"final-round": "left-of-start"})
    apply(s, "loot-deck")
    assert s.runouts == 1 and s.end_turn == 0
    keep = s.deck[-1]
    s.discard.extend(s.deck[:-1])
    s.deck = [keep]
    s._legal = None
    apply(s, "loot-deck")  # the deck runs out the second time on seat 1's turn: seat 1 is left of seat 0
    assert s.runouts == 2 and s.is_over and s.turn == 2


def test_m9_3_three_players_play_through_the_deck_twice() -> None:
    s = _last_card(0, 0, players=3)
    apply(s, "loot-deck")
    assert s.runouts == 1 and s.end_turn == 0 and len(s.deck) > 0
    # empty the new deck down to one card on seat 1's turn
    keep = s.deck[-1]
    s.discard.extend(s.deck[:-1])
    s.deck = [keep]
    s._legal = None
    apply(s, "loot-deck")
    assert s.runouts == 2 and s.end_turn == 3  # seat 1 finishes; seat 2 completes the round
    assert not s.is_over and s.current_player == 2
    apply(s, "loot-deck")
    assert s.is_over


def test_m9_deck_exhausted_mid_refill_reshuffles_and_keeps_filling() -> None:
    s = arrange(new(), deck=[PACT], dungeon=[CHALICE, LANTERN, IMP, 3, 4, 5])
    apply(s, f"loot card={CHALICE}")
    assert s.dungeon[0] == PACT and s.runouts == 1
    s = arrange(new(), deck=[PACT], dungeon=[CHALICE, -1, IMP, 3, 4, 5])
    apply(s, f"loot card={CHALICE}")
    # space 0 took the last card; the deck was re-formed from the discard pile and space 1 filled from it
    assert s.dungeon[0] == PACT and s.dungeon[1] >= 0


def test_m9_no_cards_anywhere_leaves_spaces_empty() -> None:
    s = arrange(new(), deck=[PACT], dungeon=[CHALICE, -1, IMP, 3, 4, 5])
    s.hands[1].extend(s.discard)  # nothing left to re-form a deck from
    s.discard = []
    apply(s, f"loot card={CHALICE}")
    assert s.dungeon[0] == PACT and s.dungeon[1] == -1
    assert s.end_turn == 2  # the run-out still triggers the end
    assert len(where(s)) == 60


def _finished(
    souls: tuple[list[int], list[int]], favor: list[int], inplay: tuple[list[int], list[int]]
) -> MephistoState:
    s = _last_card(1, 0)
    s.souls = [list(souls[0]), list(souls[1])]
    s.soul_pts = [sum(s.game.cards.souls[m] for m in x) for x in s.souls]
    for p in (0, 1):
        s.inplay[p] = list(inplay[p])
        for c in inplay[p]:
            s.discard.remove(c)
            s.dur[c] = 1
    for m in souls[0] + souls[1]:
        s.discard.remove(m)
    s.favor = list(favor)
    apply(s, "loot-deck")  # seat 1, the last seat, empties the deck: the game ends
    assert s.is_over
    return s


def test_m9_4_most_soul_points_wins() -> None:
    r = _finished(([WITCH], [TROLL]), [0, 9], ([], [])).result()
    assert r.winners == (0,) and r.ranks == (1, 2) and r.scores == (5.0, 4.0)
    assert r.details["decided_by"] == "soul points"


def test_m9_4_ties_broken_by_favor_then_equipment_then_draw() -> None:
    r = _finished(([6], [7]), [3, 4], ([], [])).result()
    assert r.winners == (1,) and r.details["decided_by"] == "favor"
    r = _finished(([6], [7]), [4, 4], ([MALLET], [])).result()
    assert r.winners == (0,) and r.details["decided_by"] == "weapons and items"
    r = _finished(([6], [7]), [4, 4], ([MALLET], [CANDLE])).result()
    assert r.draw and r.winners == () and r.ranks == (1, 1) and r.details["decided_by"] == "draw"


def test_passes_option_delays_the_end_in_a_duel() -> None:
    s = _last_card(0, 0, passes=2)
    apply(s, "loot-deck")
    assert s.runouts == 1 and s.end_turn == 0


def test_no_action_possible_passes_with_done() -> None:
    s = arrange(new(), hands={0: [IMP]}, dungeon=[-1] * 6)
    s.souls[1].extend(s.deck)  # every other card is out of reach (as if collected)
    s.deck = []
    assert legal(s) == ["done"]
    apply(s, "done")
    assert s.current_player == 1 and s.end_turn == 0
