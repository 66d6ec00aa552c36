"""M8: the action step: loot, fight (with the rulebook's combat example), summon; monster abilities."""

from __future__ import annotations

from .helpers import (
    CANDLE,
    CHALICE,
    CULTIST,
    DAGGER,
    GREATAXE,
    HARPY,
    IMP,
    MALLET,
    PACT,
    SHORTBOW,
    SKELETON,
    TROLL,
    WITCH,
    WRAITH,
    apply,
    arrange,
    cid,
    legal,
    new,
)


def test_m8_1_loot_a_non_monster_dungeon_card() -> None:
    s = arrange(new(), dungeon=[IMP, CHALICE, -1, -1, -1, -1], deck_top=[PACT, CANDLE])
    assert f"loot card={IMP}" not in legal(s)
    apply(s, f"loot card={CHALICE}")
    assert CHALICE in s.hands[0]
    assert s.dungeon[1] == PACT  # the emptied space is refilled
    # everyone saw where the Chalice went
    assert [c["id"] for c in s.view(1)["players"][0]["known_in_hand"]] == [CHALICE]


def test_m8_1_loot_the_top_of_the_deck_privately() -> None:
    s = arrange(new(), hands={1: [IMP]}, dungeon=[IMP + 1, -1, -1, -1, -1, -1], deck_top=[PACT, CANDLE, CHALICE])
    events = s.apply("loot-deck")
    assert s.hands[0] == [PACT]
    assert s.view(1)["players"][0]["known_in_hand"] == []
    texts = [e.for_seat(1) for e in events]
    assert not any("Dark Pact" in t for t in texts)
    assert any("Dark Pact" in e.for_seat(0) for e in events)


def test_m8_2_combat_example_mallet_greataxe_witch() -> None:
    """Samantha has 8 favor, uses Mallet and Greataxe (7) against the 12-attack Witch, pays 5 favor."""
    s = arrange(new(), inplay={0: [MALLET, GREATAXE]}, dungeon=[-1, -1, WITCH, CHALICE, -1, -1], favor=[8, 5])
    apply(s, "fight lane=2")
    assert sorted(legal(s)) == sorted(["done", f"weapon card={GREATAXE}", f"weapon card={MALLET}"])
    apply(s, f"weapon card={MALLET}", f"weapon card={GREATAXE}")
    assert s.fight_attack(0, [MALLET, GREATAXE], 0) == 7
    assert "spend favor=5" in legal(s)
    apply(s, "spend favor=5")
    assert s.favor[0] == 3
    assert s.souls[0] == [WITCH] and s.soul_pts[0] == s.game.cards.souls[WITCH]
    assert s.dur[MALLET] == 2 and s.dur[GREATAXE] == 1  # each rotated once


def test_m8_2_not_enough_attack_collects_nothing() -> None:
    s = arrange(new(), inplay={0: [MALLET, GREATAXE]}, dungeon=[-1, -1, WITCH, CHALICE, -1, -1], favor=[8, 5])
    apply(s, "fight lane=2", f"weapon card={MALLET}", f"weapon card={GREATAXE}", "spend favor=4")
    assert s.souls[0] == [] and s.dungeon[2] == WITCH
    assert s.favor[0] == 4 and s.dur[MALLET] == 2  # the attempt still used the weapons and the favor


def test_m8_2_any_number_of_monsters_in_one_lane() -> None:
    s = arrange(new(), dungeon=[-1, -1, IMP, SKELETON, -1, -1], favor=[5, 5])
    apply(s, "fight lane=2")
    assert sorted(legal(s)) == [f"monster card={IMP}", f"monster card={SKELETON}"]
    apply(s, f"monster card={IMP}", f"monster card={SKELETON}", "spend favor=5")
    assert sorted(s.souls[0]) == [IMP, SKELETON] and s.favor[0] == 0


def test_m8_2_choose_fewer_monsters_with_done() -> None:
    s = arrange(new(), dungeon=[-1, -1, IMP, SKELETON, -1, -1], favor=[5, 5])
    apply(s, "fight lane=2", f"monster card={IMP}", "done", "spend favor=2")
    assert s.souls[0] == [IMP] and SKELETON in s.dungeon


def test_m8_2_weapons_only_fight_in_their_own_lane() -> None:
    s = arrange(new(), inplay={0: [DAGGER, SHORTBOW, MALLET]}, dungeon=[IMP, -1, -1, -1, SKELETON, -1])
    apply(s, "fight lane=1")
    assert sorted(legal(s)) == ["done", f"weapon card={DAGGER}"]
    s = arrange(new(), inplay={0: [DAGGER, SHORTBOW, MALLET]}, dungeon=[IMP, -1, -1, -1, SKELETON, -1])
    assert "fight lane=2" not in legal(s)  # no monster in lane 2
    apply(s, "fight lane=3")
    assert sorted(legal(s)) == ["done", f"weapon card={SHORTBOW}"]


def test_m14_3_two_weapons_of_the_same_range() -> None:
    dagger2 = cid(new(), "Dagger", 1)
    s = arrange(new(), inplay={0: [DAGGER, dagger2]}, dungeon=[SKELETON, -1, -1, -1, -1, -1], favor=[0, 5])
    apply(s, "fight lane=1", f"weapon card={DAGGER}", f"weapon card={dagger2}")
    assert s.souls[0] == [SKELETON]  # 2 + 2 >= 3, no favor to spend


def test_m8_3_summon_takes_a_dungeon_card_places_the_monster_gains_3_favor() -> None:
    s = arrange(new(), hands={0: [IMP, PACT]}, dungeon=[CHALICE, WITCH, -1, -1, -1, -1], favor=[5, 5])
    apply(s, f"summon card={IMP}")
    assert sorted(legal(s)) == sorted([f"take card={CHALICE}", f"take card={WITCH}"])
    apply(s, f"take card={WITCH}")
    assert s.dungeon[1] == IMP and WITCH in s.hands[0] and IMP not in s.hands[0]
    # +3 favor, then the Imp's immediate effect: you lose 1 favor
    assert s.favor[0] == 7


def test_m8_3_summoned_monster_immediate_effect_targets_opponents() -> None:
    s = arrange(new(), hands={0: [WITCH]}, dungeon=[CHALICE, -1, -1, -1, -1, -1], favor=[5, 5])
    apply(s, f"summon card={WITCH}")  # single dungeon card: taken without a choice
    assert s.favor == [8, 3]


def test_m8_4_monster_abilities_keep_working_for_the_defeater() -> None:
    skeleton2 = SKELETON + 1
    s = arrange(new(), souls={0: [SKELETON, skeleton2]}, dungeon=[-1, -1, IMP, -1, -1, -1], favor=[0, 5])
    apply(s, "fight lane=2")  # two Skeletons: +1 attack each, enough for the 2-attack Imp
    assert s.souls[0][-1] == IMP
    s = arrange(new(), souls={0: [TROLL]}, dungeon=[-1, -1, IMP, -1, -1, -1], favor=[5, 5])
    apply(s, "fight lane=2", "spend favor=2")
    assert s.favor[0] == 5  # 5 - 2 + 2 from the Troll's fight_won
    s = arrange(new(), souls={0: [CULTIST]}, hands={0: [IMP]}, dungeon=[CHALICE, -1, -1, -1, -1, -1], favor=[5, 5])
    apply(s, f"summon card={IMP}")
    assert s.favor[0] == 5 + 3 - 1 + 1
    s = arrange(new(), souls={0: [HARPY]}, dungeon=[CHALICE, -1, -1, -1, -1, -1])
    apply(s, f"loot card={CHALICE}")
    assert s.favor[0] == 6
    s = arrange(new(), souls={1: [WRAITH]}, dungeon=[CHALICE, -1, -1, -1, -1, -1])
    apply(s, f"loot card={CHALICE}")
    assert s.favor[1] == 6  # seat 1's turn started: the Wraith gives its owner 1 favor


def test_m8_4_a_monster_ability_does_not_fire_for_the_fight_that_won_it() -> None:
    s = arrange(new(), dungeon=[-1, -1, TROLL, -1, -1, -1], favor=[9, 5])
    apply(s, "fight lane=2", "spend favor=9")
    assert s.favor[0] == 0


def test_m8_5_immediate_effect_when_a_monster_enters_on_refill() -> None:
    s = arrange(new(), dungeon=[CHALICE, IMP, IMP + 1, SKELETON, SKELETON + 1, CULTIST], deck_top=[WITCH], favor=[5, 5])
    apply(s, f"loot card={CHALICE}")
    assert s.dungeon[0] == WITCH
    assert s.favor == [5, 3]  # the active player caused it: the opponent loses 2
