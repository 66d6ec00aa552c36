"""Scenario tests for the interpretations of docs/rules/mephisto.md (I1-I20) that no clause test already
shows."""

from __future__ import annotations

from typing import Any

from cardtable.engine import Rng
from cardtable.games.mephisto.rules import MephistoState

from .helpers import (
    BAT,
    CANDLE,
    CHALICE,
    FURY,
    GHOUL,
    GREATAXE,
    IMP,
    LANTERN,
    LICH,
    LONGBOW,
    MALLET,
    MEND,
    OFFERING,
    PACT,
    SKELETON,
    WITCH,
    apply,
    arrange,
    legal,
    new,
)


def _determinized(s: MephistoState, k: int) -> MephistoState:
    """P2's determinization of ``s`` with generator ``k``."""
    d = s.determinize(1, Rng(k))
    assert isinstance(d, MephistoState)
    return d


def test_i2_a_spells_attack_bonus_adds_to_a_fight_in_any_lane_this_turn_only() -> None:
    """I2: "An `attack_bonus` from a played spell or an activation adds to *your* fight this turn (whatever
    lane)"."""
    # Battle Fury (+3) and no weapon, no favor: the bonus alone beats the Skeleton (3) in lane 3.
    s = arrange(new(), hands={0: [FURY]}, dungeon=[-1, -1, -1, -1, SKELETON, -1], favor=[0, 5])
    apply(s, f"play card={FURY}", "fight lane=3")
    assert s.souls[0] == [SKELETON]
    # Played, then no fight this turn: by P1's next turn the bonus is gone and the same fight is lost.
    s = arrange(new(), hands={0: [FURY]}, dungeon=[CHALICE, LANTERN, -1, -1, SKELETON, -1], favor=[0, 5])
    apply(s, f"play card={FURY}", f"loot card={CHALICE}")
    assert s.current_player == 1
    apply(s, f"loot card={LANTERN}")
    assert s.current_player == 0 and s.bonus[0] == 0
    apply(s, "fight lane=3")
    assert s.souls[0] == [] and SKELETON in s.dungeon


def test_i4_every_lane_holds_two_spaces_for_every_seat_and_three_players_leave_the_east_side_empty() -> None:
    """I4: "seats sit south, west, north, east in seat order ... Every lane then holds two live spaces for
    every seat. In 3-player games the east side is empty"."""
    for players, sides in ((3, ("south", "west", "north")), (4, ("south", "west", "north", "east"))):
        b = new(players=players).game.board
        assert b.sides == sides
        for seat in range(players):
            lanes = [b.lane_spaces[seat][lane] for lane in (1, 2, 3)]
            assert [len(spaces) for spaces in lanes] == [2, 2, 2]
            assert sorted(sp for spaces in lanes for sp in spaces) == list(range(6))


def test_i7_an_empty_reformed_deck_counts_as_the_next_pass_running_out() -> None:
    """I7: "If the discard pile is empty too, the re-formed deck is empty: that counts as the next pass
    running out at once (so the end is always triggered)"."""
    s = arrange(new(players=3), seat=0, first=0, deck=[PACT], dungeon=[CHALICE, LANTERN, IMP, 3, 4, 5])
    assert s.game.passes == 2
    s.hands[1].extend(s.discard)  # nothing left to re-form a deck from
    s.discard = []
    apply(s, "loot-deck")  # the first pass runs out, and at once the (empty) second one
    assert s.runouts == 2 and s.end_turn == 3 and not s.is_over  # the round is finished: P3 is last
    assert s.deck == [] and s.discard == []


def test_i9_a_repair_with_no_damaged_target_does_nothing() -> None:
    """I9: "a repair with no damaged target does nothing"."""
    s = arrange(new(), hands={0: [MEND]}, inplay={0: [MALLET, CANDLE]})
    events = s.apply(f"play card={MEND}")
    assert s.dur[MALLET] == 3 and s.dur[CANDLE] == 2
    assert s.current_player == 0 and not any(a.startswith("repair") for a in legal(s))
    assert not any("repair" in e.text for e in events)


def test_i10_a_turn_start_ability_works_after_the_turns_draw() -> None:
    """I10: "Triggers: `fighting`, `fight_won`, `loot`, `summon`, `turn_start` (after the turn's draw)"."""
    s = arrange(new(), souls={1: [LICH]}, dungeon=[CHALICE, -1, -1, -1, -1, -1])
    texts = [e.for_seat(1) for e in s.apply(f"loot card={CHALICE}")]
    start = texts.index("turn 2: P2's turn")
    drawn = [t for t in texts[start + 1 :] if " draws " in t]
    assert len(drawn) == 2 and drawn[0].startswith("P2 draws ") and drawn[1].startswith("Lich: P2 draws ")
    assert len(s.hands[1]) == 2


def test_i13_a_random_team_starts_and_its_lower_numbered_seat_holds_the_decision() -> None:
    """I13: "P1 and P3 form one team, P2 and P4 the other ...; a random team starts. In a team turn both
    team-mates draw, then the lower-numbered one holds the decision"."""
    starters = set()
    for seed in range(12):
        s = new(seed, players=4, teams=True)
        starters.add(s.side)
        assert s.current_player == s.side  # P1 for P1+P3, P2 for P2+P4
        assert len(s.hands[s.side]) == len(s.hands[s.side + 2]) == 4  # three dealt, one drawn each
    assert starters == {0, 1}


def test_i13_team_scores_are_team_totals_and_details_keep_each_seats_souls() -> None:
    """I13: "Team score = combined souls; ... result `scores` give each seat its team's total and
    `details.soul_points` each seat's own"."""
    s = arrange(
        new(players=4, teams=True),
        seat=1,
        first=0,
        deck=[PACT],
        dungeon=[CHALICE, LANTERN, IMP, 3, 4, 5],
        souls={0: [WITCH], 2: [IMP + 1], 1: [GHOUL]},
    )
    s.runouts = 1  # the first of the two passes is over
    apply(s, "loot-deck")  # P2 takes the last card; P4 still acts in this team turn
    apply(s, f"loot card={CHALICE}")
    assert s.is_over
    r = s.result()
    assert r.scores == (6.0, 2.0, 6.0, 2.0) and r.winners == (0, 2)
    assert r.details["soul_points"] == [5, 2, 1, 0] and r.details["team_soul_points"] == [6, 2]


def test_i15_a_card_taken_by_summoning_and_a_card_being_paid_for_are_public_until_they_leave() -> None:
    """I15: "A card taken from the dungeon into a hand (loot, summon) and a card announced while its cost is
    being paid are public until they leave the hand; views list them ... and determinize never moves
    them"."""
    s = arrange(new(), hands={0: [IMP, GREATAXE, PACT, OFFERING]}, dungeon=[CHALICE, LANTERN, -1, -1, -1, -1])
    apply(s, f"play card={GREATAXE}")  # cost 1, two other cards: the payment is a decision
    assert [c["id"] for c in s.view(1)["players"][0]["known_in_hand"]] == [GREATAXE]
    assert all(GREATAXE in _determinized(s, k).hands[0] for k in range(6))
    apply(s, f"discard card={PACT}")
    assert s.inplay[0] == [GREATAXE] and s.view(1)["players"][0]["known_in_hand"] == []
    apply(s, f"summon card={IMP}", f"take card={CHALICE}")
    assert [c["id"] for c in s.view(1)["players"][0]["known_in_hand"]] == [CHALICE]
    assert all(CHALICE in _determinized(s, k).hands[0] for k in range(6))


def test_i16_the_solitaire_seat_is_ranked_first_and_the_winner_even_unranked() -> None:
    """I16: "The single seat is ranked 1 and listed as winner; `details.ranking` gives the rulebook ranking,
    and 0 souls is "Unranked""."""
    s = arrange(new(players=1), deck=[PACT], dungeon=[CHALICE, LANTERN, IMP, SKELETON, GHOUL, BAT])
    apply(s, "loot-deck", "loot-deck")
    assert s.is_over
    r = s.result()
    assert r.winners == (0,) and r.ranks == (1,) and r.scores == (0.0,)
    assert r.details["ranking"] == "Unranked"


def test_i19_with_shared_lanes_both_players_of_a_duel_read_the_table_as_p1() -> None:
    """I19: "With `lane-view=shared` both players of a duel read the table as P1 does"."""
    options: dict[str, Any] = {"lane-view": "shared"}
    s = arrange(
        new(**options),
        hands={0: [LONGBOW, PACT]},
        dungeon=[CHALICE, LANTERN, IMP, 3, 4, 5],
        deck_top=[OFFERING],
    )
    events = [*s.apply(f"play card={LONGBOW}"), *s.apply(f"loot card={CHALICE}")]
    assert "P1's Longbow (card 33) goes into lane 3" in [e.for_seat(1) for e in events]
    assert "P1 loots Chalice (card 50) from lane 1, near" in [e.for_seat(1) for e in events]
    assert [e.for_seat(1) for e in events if e.kind != "draw"] == [e.for_seat(0) for e in events if e.kind != "draw"]
    assert s.view(1)["dungeon"]["rows"] == s.view(0)["dungeon"]["rows"]
