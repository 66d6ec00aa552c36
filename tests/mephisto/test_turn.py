"""M3 setup, M4 goal, M5 favor, M6 the four steps of a turn."""

from __future__ import annotations

from .helpers import CHALICE, IMP, MALLET, PACT, apply, arrange, cid, legal, new, where


def test_m3_1_first_player_is_random() -> None:
    firsts = {new(seed).first for seed in range(40)}
    assert firsts == {0, 1}
    for seed in range(10):
        s = new(seed)
        assert s.current_player == s.first == s.side


def test_m3_2_shuffled_deck_and_three_card_hands() -> None:
    s = new(5)
    for p in (0, 1):
        # the first player has already drawn the first card of their turn (M6.1)
        assert len(s.hands[p]) == 3 + (p == s.first)
    assert len(s.deck) == 60 - 6 - 6 - 1
    assert len(where(s)) == 60
    assert new(5).deck == s.deck and new(6).deck != s.deck


def test_m3_3_two_face_up_cards_in_each_of_three_columns() -> None:
    s = new(2)
    assert all(card >= 0 for card in s.dungeon)
    b = s.game.board
    assert [b.lane_spaces[0][lane] for lane in (1, 2, 3)] == [(0, 1), (2, 3), (4, 5)]
    for seat in (0, 1):
        rows = s.view(seat)["dungeon"]["rows"]  # drawn from the seat's side: far row, then near row
        assert [[cell["place"] for cell in row] for row in rows] == [["far"] * 3, ["near"] * 3]
        assert [[cell["lane"] for cell in row] for row in rows] == [[1, 2, 3]] * 2
        assert all(cell["card"] is not None for row in rows for cell in row)


def test_m3_4_favor_starts_at_five() -> None:
    assert new(1).favor == [5, 5]


def test_m4_soul_points_only_from_fighting() -> None:
    s = arrange(new(), hands={0: [PACT]}, dungeon=[-1, -1, IMP, -1, -1, -1], favor=[5, 5])
    apply(s, f"play card={PACT}")
    assert s.soul_pts == [0, 0]
    apply(s, "fight lane=2", "spend favor=2")
    assert s.soul_pts[0] == s.game.cards.souls[IMP]


def test_m5_2_favor_clamped_to_0_and_10() -> None:
    offering = cid(new(), "Offering")
    s = arrange(new(), hands={0: [offering, PACT, IMP]}, dungeon=[CHALICE, -1, -1, -1, -1, -1], favor=[8, 1])
    apply(s, f"play card={offering}", f"discard card={PACT}")
    assert s.favor[0] == 10
    hex_ = cid(s, "Hex")
    s = arrange(new(), hands={0: [hex_, PACT]}, dungeon=[CHALICE, -1, -1, -1, -1, -1], favor=[5, 1])
    apply(s, f"play card={hex_}")  # the Dark Pact pays (forced)
    assert s.favor[1] == 0
    # summoning's +3 favor is clamped too
    s = arrange(new(), hands={0: [cid(s, "Cultist")]}, dungeon=[CHALICE, -1, -1, -1, -1, -1], favor=[9, 5])
    apply(s, f"summon card={cid(s, 'Cultist')}")
    assert s.favor[0] == 10


def test_m6_1_turn_starts_by_drawing_the_top_card() -> None:
    s = arrange(new(), hands={0: [], 1: [IMP]}, dungeon=[CHALICE, -1, -1, -1, -1, -1], deck_top=[PACT, MALLET])
    apply(s, "loot-deck")  # seat 0 loots Dark Pact; refill takes Mallet; seat 1 then draws
    assert s.hands[0] == [PACT]
    assert s.current_player == 1 and s.turn == 2
    assert len(s.hands[1]) == 2 and s.dungeon[1] == MALLET


def test_m6_2_and_6_3_play_any_number_then_exactly_one_action() -> None:
    pact2 = cid(new(), "Dark Pact", 1)
    s = arrange(new(), hands={0: [PACT, pact2]}, dungeon=[CHALICE, -1, -1, -1, -1, -1])
    apply(s, f"play card={PACT}", f"play card={pact2}")
    assert s.current_player == 0 and s.favor[0] == 9
    assert "loot card=50" in legal(s)
    apply(s, f"loot card={CHALICE}")
    assert s.current_player == 1  # one action, then the turn is over


def test_m6_4_refill_empty_spaces_from_the_deck_in_space_order() -> None:
    s = arrange(new(), dungeon=[CHALICE, MALLET, -1, -1, IMP, -1], deck_top=[PACT, 40, 41, 42, 43])
    apply(s, f"loot card={MALLET}")
    # spaces 1, 2, 3, 5 were empty: filled in order; then seat 1 draws the next card
    assert s.dungeon == [CHALICE, PACT, 40, 41, IMP, 42]
    assert s.hands[1][-1] == 43


def test_m2_play_area_in_every_view() -> None:
    s = new(3)
    for seat in (0, 1, None):
        v = s.view(seat)
        assert sum(len(row) for row in v["dungeon"]["rows"]) == 6 and v["progress"]["deck"] == len(s.deck)
        assert v["discard_pile"] == [] and [p["favor"] for p in v["players"]] == [5, 5]
        assert [p["cards_in_hand"] for p in v["players"]] == [len(h) for h in s.hands]
    assert s.view(None)["hand"] is None
    assert [c["id"] for c in s.view(0)["hand"]] == sorted(s.hands[0])


def test_m3_setup_monsters_do_not_trigger_immediate_effects() -> None:
    seen = 0
    for seed in range(20):
        s = new(seed, players=4)
        seen += sum(1 for c in s.dungeon if s.game.cards.immediate[c])
        assert s.favor == [5, 5, 5, 5] and all(len(h) >= 3 for h in s.hands)
    assert seen  # the deals did put monsters with immediate effects in the dungeon
