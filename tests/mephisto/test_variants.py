"""M10 free-for-all on the 3x3 dungeon, M11 2v2 teams, M12 solitaire, M13 Care Bear, lane views."""

from __future__ import annotations

import pytest

from cardtable.engine import IllegalAction, OptionError, Rng
from cardtable.games.mephisto.rules import MephistoState
from cardtable.games.mephisto.views import solo_ranking
from cardtable.testing.conformance import card_objects

from .helpers import (
    BAT,
    CANDLE,
    CHALICE,
    CORRODE,
    CROSSBOW,
    DAGGER,
    GHOUL,
    GREATAXE,
    HEX,
    IMP,
    LANTERN,
    LICH,
    MALLET,
    MEND,
    MORNINGSTAR,
    OFFERING,
    OGRE,
    PACT,
    SHARPEN,
    SHATTER,
    SKELETON,
    WARHAMMER,
    WHETSTONE,
    WITCH,
    apply,
    arrange,
    cid,
    determinize,
    legal,
    new,
    where,
)


# ---------------------------------------------------------------- M10 free-for-all, geometry
def test_m10_1_grid_with_deck_in_the_centre_and_two_blocked_opposite_corners() -> None:
    for players in (3, 4):
        s = new(players=players)
        b = s.game.board
        assert b.layout == "grid" and b.deck_at == (1, 1) and b.blocked == ((0, 0), (2, 2))
        assert len(set(b.coords)) == 6 and not {(1, 1), (0, 0), (2, 2)} & set(b.coords)
        for seat in range(players):
            rows = s.view(seat)["dungeon"]["rows"]
            assert len(rows) == 3 and all(len(row) == 3 for row in rows)
            assert rows[1][1] == {"lane": 2, "place": "middle", "deck": len(s.deck)}  # the deck in the centre
            corners = [(r, c) for r in range(3) for c in range(3) if "face_down" in rows[r][c]]
            assert corners in ([(0, 0), (2, 2)], [(0, 2), (2, 0)])  # opposite corners, from every side
            assert sum(1 for row in rows for cell in row if "card" in cell) == 6


def test_m10_1_corner_cards_come_from_the_dungeon_deck_unseen() -> None:
    """I17: the two face-down corner cards are dealt from the dungeon deck at setup; nobody sees
    them and they never come back (corner-cards=spare: spare components, all 60 cards in play)."""
    s = new(3, players=3)
    assert len(s.corners) == 2 and len(where(s)) == 60
    assert len(s.deck) == 60 - 6 - 3 * 3 - 2 - 1
    for seat in (0, 1, 2, None):
        assert not set(s.corners) & s.known_cards(seat)
        assert not set(s.corners) & {cid for cid, _ in card_objects(s.view(seat))}
    # hidden from everyone: a determinization may deal other cards face down
    assert any(determinize(s, 0, k).corners != s.corners for k in range(5))
    # they never come back: a whole game leaves them where they are
    corners = list(s.corners)
    rng = Rng(1)
    while not s.is_over:
        options = s.legal_actions()
        s.apply(options[rng.below(len(options))])
    assert s.corners == corners
    spare = new(3, players=3, **{"corner-cards": "spare"})
    assert spare.corners == [] and len(spare.deck) == 60 - 6 - 9 - 1
    with pytest.raises(OptionError, match="corner-cards"):
        new(players=2, **{"corner-cards": "spare"})


def test_m10_2_each_seat_numbers_the_lanes_from_its_own_side() -> None:
    b = new(players=4).game.board
    coords = b.coords
    assert b.sides == ("south", "west", "north", "east")
    # south: lane 1 is the west column; north (facing south): lane 1 is the east column
    assert {coords[sp][0] for sp in b.lane_spaces[0][1]} == {0}
    assert {coords[sp][0] for sp in b.lane_spaces[2][1]} == {2}
    # west (facing east): lane 1 is the north row; east (facing west): lane 1 is the south row
    assert {coords[sp][1] for sp in b.lane_spaces[1][1]} == {2}
    assert {coords[sp][1] for sp in b.lane_spaces[3][1]} == {0}
    for seat in range(4):
        assert sorted(sp for lane in (1, 2, 3) for sp in b.lane_spaces[seat][lane]) == list(range(6))


def test_m10_2_a_west_seat_weapon_fights_in_its_own_lane() -> None:
    s = new(players=4)
    b = s.game.board
    space = b.lane_spaces[1][1][0]
    dungeon = [-1] * 6
    dungeon[space] = SKELETON
    arrange(s, seat=1, inplay={1: [DAGGER]}, dungeon=dungeon, favor=[5, 1, 5, 5])
    assert legal(s)[-1] == "fight lane=1" and "fight lane=2" not in legal(s)
    apply(s, "fight lane=1", f"weapon card={DAGGER}", "spend favor=1")
    assert s.souls[1] == [SKELETON]


def test_m10_3_setup_and_turn_order_for_three_and_four() -> None:
    for players in (3, 4):
        s = new(7, players=players)
        assert len(where(s)) == 60 and s.favor == [5] * players
        assert sorted(len(h) for h in s.hands) == [3] * (players - 1) + [4]
        assert s.game.passes == 2


def test_m10_2p_mirrored_lanes_and_the_shared_option() -> None:
    s = arrange(new(), seat=1, inplay={1: [DAGGER]}, dungeon=[-1, -1, -1, -1, SKELETON, -1], favor=[5, 1])
    assert "fight lane=1" in legal(s)  # seat 1 sits opposite: its lane 1 is seat 0's lane 3
    s = arrange(
        new(**{"lane-view": "shared"}),
        seat=1,
        inplay={1: [DAGGER]},
        dungeon=[-1, -1, -1, -1, SKELETON, -1],
        favor=[5, 1],
    )
    assert "fight lane=3" in legal(s) and "fight lane=1" not in legal(s)


# ---------------------------------------------------------------- M11 teams
def team() -> MephistoState:
    return new(players=4, teams=True)


def test_m11_1_team_mates_share_one_turn_and_interleave() -> None:
    s = arrange(
        team(),
        seat=0,
        hands={0: [PACT], 2: [CANDLE]},
        dungeon=[CHALICE, LANTERN, -1, -1, -1, -1],
        deck_top=[40, 41, 42, 43, 44, 45],
    )
    turn = s.turn
    apply(s, f"play card={PACT}", "target seat=P1")
    assert "switch" in legal(s)
    apply(s, "switch")
    assert s.current_player == 2 and s.turn == turn
    apply(s, f"play card={CANDLE}", f"loot card={LANTERN}")
    assert s.inplay[2] == [CANDLE] and s.current_player == 0 and s.turn == turn  # back to seat 0 for its own action
    assert s.dungeon[1] == -1  # refill waits for the whole team
    apply(s, f"loot card={CHALICE}")
    assert s.turn == turn + 1 and s.current_player in (1, 3) and s.side == 1
    assert s.dungeon[0] >= 0 and s.dungeon[1] >= 0


def test_m11_1_either_team_mate_may_act_first_and_hand_overs_never_loop() -> None:
    """I13: the hand-over is offered from the start of the team turn (so either team-mate may act
    first); after a hand-over with nothing done since, it is not offered back until the receiver has
    played or activated a card (so the decision can never bounce for ever)."""
    s = arrange(team(), seat=0, hands={0: [PACT], 2: [CANDLE]}, dungeon=[CHALICE, LANTERN, -1, -1, -1, -1])
    turn = s.turn
    assert "switch" in legal(s)  # the start of the team turn: P1 may let P3 go first
    events = s.apply("switch")
    assert s.current_player == 2 and [e.text for e in events] == ["P1 hands the decision to P3"]
    assert "switch" not in legal(s)  # nothing done since the hand-over: it cannot go straight back
    with pytest.raises(IllegalAction, match="just handed you the decision"):
        s.apply("switch")
    apply(s, f"play card={CANDLE}")
    assert "switch" in legal(s)  # P3 did something: it may hand back
    apply(s, "switch")
    assert s.current_player == 0 and "switch" in legal(s)  # P1 has done nothing since: one more hand-over
    apply(s, "switch")
    assert s.current_player == 2 and "switch" not in legal(s)
    apply(s, f"loot card={LANTERN}")  # P3's action: P1 continues, no hand-over (P3 is done)
    assert s.current_player == 0 and "switch" not in legal(s) and s.turn == turn
    apply(s, f"loot card={CHALICE}")
    assert s.turn == turn + 1


def test_m11_1_hand_overs_are_bounded_in_random_team_games() -> None:
    """However the team-mates hand the decision back and forth, a team turn ends: in random team
    games (switch chosen whenever offered), the hand-overs between two things done are at most one."""
    for seed in range(4):
        s = team()
        s = type(s)(s.game, seed, False)
        rng = Rng(seed)
        idle = 0
        while not s.is_over:
            options = s.legal_actions()
            switch = [a for a in options if a.kind == "switch"]
            action = switch[0] if switch and rng.below(2) else options[rng.below(len(options))]
            idle = idle + 1 if action.kind == "switch" else 0
            assert idle <= 2
            s.apply(action)


def test_m11_1_both_team_mates_draw_at_the_start_of_the_team_turn() -> None:
    s = arrange(team(), seat=0, dungeon=[CHALICE, LANTERN, -1, -1, -1, -1])
    apply(s, f"loot card={CHALICE}", f"loot card={LANTERN}")
    assert len(s.hands[1]) == 1 and len(s.hands[3]) == 1 and s.hands[0] == [CHALICE]


def test_m11_3_team_scoring_result() -> None:
    s = arrange(
        team(),
        seat=1,
        first=0,
        deck=[PACT],
        dungeon=[CHALICE, LANTERN, IMP, 3, 4, 5],
        souls={0: [WITCH], 1: [GHOUL], 3: [OGRE]},
    )
    assert s.game.passes == 2  # M11.8: the deck is played through twice
    s.runouts = 1  # the first pass is over: this run-out is the second
    apply(s, "loot-deck")
    assert s.end_turn == s.turn and not s.is_over
    apply(s, f"loot card={CHALICE}")
    assert s.is_over
    r = s.result()
    assert r.teams == ((0, 2), (1, 3))
    assert r.details["team_soul_points"] == [5, 5]
    # tied on souls: favor decides (team totals)
    assert r.scores == (5.0, 5.0, 5.0, 5.0)
    assert set(r.winners) in ({0, 2}, {1, 3}) or r.draw


def test_m11_4_effects_hit_players_individually_and_m11_6_help_your_partner() -> None:
    s = arrange(team(), seat=0, hands={0: [HEX, PACT, OFFERING, CANDLE]}, favor=[5, 5, 5, 5])
    apply(s, f"play card={HEX}", f"discard card={CANDLE}")
    assert s.favor == [5, 2, 5, 2]
    apply(s, f"play card={PACT}")
    assert sorted(legal(s)) == ["target seat=P1", "target seat=P3"]
    apply(s, "target seat=P3")
    assert s.favor == [5, 2, 7, 2]


def test_m11_6_activate_for_partner_and_attach_to_partner_weapon() -> None:
    s = arrange(team(), seat=0, hands={0: [SHARPEN]}, inplay={0: [CHALICE], 2: [MALLET]})
    apply(s, f"activate card={CHALICE}", "target seat=P3")
    assert s.favor[2] == 7 and s.favor[0] == 5
    apply(s, f"play card={SHARPEN}")  # the only weapon on the team is the partner's
    assert s.host[SHARPEN] == MALLET


def test_m11_5_no_trading_between_team_mates() -> None:
    kinds = set(team().game.actions.params)
    assert not {"give", "trade", "pass-card"} & kinds
    s = arrange(team(), seat=0, hands={0: [PACT, CANDLE], 2: []})
    for text in legal(s):
        before = list(s.hands[2])
        s2 = s.clone()
        s2.apply(text)
        assert s2.hands[2] == before


def test_m11_7_refill_after_both_and_immediate_effect_hits_who_caused_it() -> None:
    s = arrange(team(), seat=0, dungeon=[CHALICE, LANTERN, IMP, 3, 4, 5], deck_top=[GHOUL, IMP + 1], favor=[5, 5, 5, 5])
    apply(s, f"loot card={CHALICE}")  # seat 0 empties space 0
    apply(s, f"loot card={LANTERN}")  # seat 2 empties space 1
    # space 0 <- Ghoul (no target for its damage), space 1 <- Imp: seat 2 caused it and loses 1 favor
    assert s.dungeon[:2] == [GHOUL, IMP + 1]
    assert s.favor == [5, 5, 4, 5]


# ---------------------------------------------------------------- M12 solitaire
def solo(**opts: object) -> MephistoState:
    return new(players=1, **opts)


def test_m12_1_extra_step_discards_top_card_and_highest_attack_monster() -> None:
    s = arrange(solo(), dungeon=[CHALICE, IMP, SKELETON, GHOUL, -1, -1], deck_top=[BAT, 40, 41, 42, 43])
    apply(s, f"loot card={CHALICE}")
    assert BAT in s.discard and GHOUL in s.discard  # Bat Swarm (monster) -> Ghoul, the strongest
    assert s.dungeon.count(-1) == 0


def test_m12_2_weapon_ties_go_to_higher_cost_then_you_decide() -> None:
    s = arrange(
        solo(),
        dungeon=[CHALICE, WARHAMMER, cid(solo(), "Demon Sword"), GREATAXE, -1, -1],
        deck_top=[DAGGER, 40, 41, 42],
    )
    apply(s, f"loot card={CHALICE}")
    assert cid(s, "Demon Sword") in s.discard
    dagger2 = cid(solo(), "Dagger", 1)
    s = arrange(solo(), dungeon=[CHALICE, MORNINGSTAR, CROSSBOW, GREATAXE, -1, -1], deck_top=[dagger2, 40, 41, 42])
    apply(s, f"loot card={CHALICE}")  # Morningstar and Crossbow: 5 attack, cost 2 -> you decide
    assert sorted(legal(s)) == sorted([f"remove card={MORNINGSTAR}", f"remove card={CROSSBOW}"])
    apply(s, f"remove card={CROSSBOW}")
    assert CROSSBOW in s.discard and MORNINGSTAR in s.dungeon


def test_m12_2_spells_and_items_by_highest_cost() -> None:
    s = arrange(solo(), dungeon=[CHALICE, PACT, OFFERING, SHATTER, CANDLE, -1], deck_top=[MEND, 57, 58, 59])
    apply(s, f"loot card={CHALICE}")
    assert SHATTER in s.discard  # cost 2
    s = arrange(solo(), dungeon=[PACT, CANDLE, LANTERN, CHALICE, -1, -1], deck_top=[WHETSTONE, 41, 42, 43])
    apply(s, f"loot card={PACT}")
    assert CHALICE in s.discard


def test_m12_3_no_match_discards_one_more_card_and_no_more() -> None:
    s = arrange(solo(), dungeon=[CHALICE, IMP, SKELETON, -1, -1, -1], deck_top=[PACT, MALLET, 41, 42, 43, 45, 46])
    apply(s, f"loot card={CHALICE}")
    # Dark Pact: no spell in the dungeon -> the Mallet is discarded too, and nothing from the dungeon
    assert s.discard[-2:] == [PACT, MALLET]
    assert IMP in s.dungeon and SKELETON in s.dungeon


def test_m12_4_refill_immediate_effects_as_if_it_is_not_your_turn() -> None:
    # Imp ("you lose 1") does nothing; Witch ("each opponent loses 2") hits you.
    s = arrange(
        solo(), dungeon=[CHALICE, SKELETON, -1, -1, -1, -1], deck_top=[MALLET, IMP, WITCH, 40, 41, 42, 43], favor=[5]
    )
    apply(s, f"loot card={CHALICE}")  # solo step: Mallet -> no weapon -> one more card (Imp) discarded
    assert s.discard[-2:] == [MALLET, IMP]
    assert WITCH in s.dungeon and s.favor[0] == 3
    s = arrange(
        solo(), dungeon=[CHALICE, SKELETON, -1, -1, -1, -1], deck_top=[MALLET, GHOUL, IMP, 40, 41, 42, 43], favor=[5]
    )
    apply(s, f"loot card={CHALICE}")
    assert IMP in s.dungeon and s.favor[0] == 5


def test_m12_4_option_skip_refill_effects() -> None:
    s = arrange(
        solo(**{"solo-refill-effects": "skip"}),
        dungeon=[CHALICE, SKELETON, -1, -1, -1, -1],
        deck_top=[MALLET, IMP, WITCH, 40, 41, 42, 43],
        favor=[5],
    )
    apply(s, f"loot card={CHALICE}")
    assert WITCH in s.dungeon and s.favor[0] == 5


def test_m12_4_immediate_effects_during_your_turn_work_normally() -> None:
    s = arrange(
        solo(),
        hands={0: [IMP]},
        dungeon=[CHALICE, -1, -1, -1, -1, -1],
        favor=[5],
        deck_top=[PACT, 57, 59, 58, 56, 55, 54, 53],
    )
    apply(s, f"summon card={IMP}")
    assert s.favor[0] == 7  # +3, then the Imp's "you lose 1": it is your turn
    assert s.dungeon[0] == IMP and s.discard[-2:] == [PACT, 57]


def test_m12_5_durability_removal_repairs_your_own_instead() -> None:
    s = arrange(solo(), hands={0: [CORRODE]}, inplay={0: [MALLET]}, dungeon=[CHALICE, -1, -1, -1, -1, -1])
    s.dur[MALLET] = 1
    apply(s, f"play card={CORRODE}")
    assert s.dur[MALLET] == 2


def test_m12_6_opponent_favor_loss_becomes_your_gain() -> None:
    s = arrange(solo(), hands={0: [HEX, PACT]}, favor=[4])
    apply(s, f"play card={HEX}")  # the Dark Pact pays (forced)
    assert s.favor[0] == 7


def test_m12_7_one_more_turn_after_the_deck_runs_out() -> None:
    s = arrange(solo(), deck=[PACT], dungeon=[CHALICE, LANTERN, IMP, SKELETON, GHOUL, BAT])
    apply(s, "loot-deck")
    assert s.end_turn == 2 and not s.is_over and s.turn == 2
    apply(s, "loot-deck")
    assert s.is_over


@pytest.mark.parametrize(
    ("souls", "rank"),
    [
        (0, "Unranked"),
        (1, "Easy"),
        (10, "Easy"),
        (11, "Medium"),
        (15, "Medium"),
        (16, "Hard"),
        (19, "Hard"),
        (20, "Expert"),
    ],
)
def test_m12_8_rankings(souls: int, rank: str) -> None:
    assert solo_ranking(souls) == rank


def test_m12_8_ranking_in_result_details() -> None:
    s = arrange(solo(), deck=[PACT], dungeon=[CHALICE, LANTERN, IMP, SKELETON, GHOUL, BAT], souls={0: [WITCH, LICH]})
    apply(s, "loot-deck", "loot-deck")
    r = s.result()
    assert r.details["ranking"] == "Medium" and r.scores == (11.0,)


# ---------------------------------------------------------------- M13 care bear
def test_m13_care_bear_repairs_your_own_instead() -> None:
    s = arrange(new(), hands={0: [CORRODE]}, inplay={0: [MALLET], 1: [GREATAXE]})
    apply(s, f"play card={CORRODE}")
    assert s.dur[GREATAXE] == 1  # standard: the opponent's only item loses durability
    s = arrange(new(variant="care-bear"), hands={0: [CORRODE]}, inplay={0: [MALLET], 1: [GREATAXE]})
    s.dur[MALLET] = 1
    apply(s, f"play card={CORRODE}")
    assert s.dur[GREATAXE] == 2 and s.dur[MALLET] == 2


def test_m13_care_bear_keeps_other_effects() -> None:
    s = arrange(new(variant="care-bear"), hands={0: [HEX, PACT]}, favor=[5, 5])
    apply(s, f"play card={HEX}")  # the Dark Pact pays (forced)
    assert s.favor == [5, 2]


def test_damage_chooses_among_opponent_equipment_and_breaks() -> None:
    s = arrange(new(), hands={0: [SHATTER, PACT, CANDLE]}, inplay={1: [MALLET, GREATAXE]})
    apply(s, f"play card={SHATTER}")  # cost 2: both other cards pay (forced)
    assert sorted(legal(s)) == sorted([f"damage card={MALLET}", f"damage card={GREATAXE}"])
    apply(s, f"damage card={GREATAXE}")
    assert GREATAXE in s.discard and s.inplay[1] == [MALLET]


def test_repair_is_capped_at_printed_durability_unless_option() -> None:
    s = arrange(new(), hands={0: [MEND]}, inplay={0: [MALLET]})
    apply(s, f"play card={MEND}")
    assert s.dur[MALLET] == 3
    s = arrange(new(**{"repair-cap": False}), hands={0: [MEND]}, inplay={0: [MALLET]})
    apply(s, f"play card={MEND}")
    assert s.dur[MALLET] == 5


def test_opponent_discard_is_the_opponents_decision() -> None:
    rot = cid(new(), "Mind Rot")
    s = arrange(new(), hands={0: [rot, PACT], 1: [CANDLE, LANTERN]})
    apply(s, f"play card={rot}")  # the Dark Pact pays (forced)
    assert s.current_player == 1 and sorted(legal(s)) == sorted([f"discard card={CANDLE}", f"discard card={LANTERN}"])
    assert s.view(0)["prompt"] == "P2 is choosing a card to discard (Mind Rot's effect)"
    assert s.view(1)["prompt"] == "P2: discard a card (Mind Rot's effect)"
    assert "Candle" not in str(s.view(0)) and "Lantern" not in str(s.view(0))
    apply(s, f"discard card={LANTERN}")
    assert s.current_player == 0 and s.hands[1] == [CANDLE]
    assert "Candle" not in str(s.view(0))  # the finished choice does not show seat 1's hand


def test_m11_6_repair_for_partner_is_chosen_by_the_caster() -> None:
    s = arrange(team(), seat=0, hands={0: [MEND]}, inplay={2: [MALLET, GREATAXE]})
    s.dur[MALLET] = 1
    s.dur[GREATAXE] = 1
    apply(s, f"play card={MEND}", "target seat=P3")
    assert s.current_player == 0
    assert sorted(legal(s)) == sorted([f"repair card={MALLET}", f"repair card={GREATAXE}"])
    apply(s, f"repair card={MALLET}")
    assert s.dur[MALLET] == 3 and s.dur[GREATAXE] == 1


def test_m12_4_refill_damage_hits_your_own_equipment_of_your_choice() -> None:
    s = arrange(
        solo(),
        inplay={0: [MALLET, CANDLE]},
        dungeon=[CHALICE, SKELETON, -1, -1, -1, -1],
        deck_top=[DAGGER, PACT, GHOUL, 40, 41, 57, 58, 59],
    )
    apply(s, f"loot card={CHALICE}")  # solo step: Dagger, no weapon -> Dark Pact too; refill: Ghoul enters
    assert s.dungeon[0] == GHOUL and s.current_player == 0
    assert sorted(legal(s)) == sorted([f"damage card={MALLET}", f"damage card={CANDLE}"])
    apply(s, f"damage card={CANDLE}")
    assert s.dur[CANDLE] == 1 and s.dur[MALLET] == 3
