"""A clause-by-clause audit of the rulebook against the engine: scenarios for the rules (and their exact
numbers) that the other modules show thinly, each naming its clause of docs/rules/mephisto.md."""

from __future__ import annotations

import pytest

from cardtable.engine import IllegalAction
from cardtable.games.mephisto.rules import MephistoState

from .helpers import (
    CANDLE,
    CHALICE,
    CORRODE,
    CULTIST,
    FORESIGHT,
    FURY,
    GHOUL,
    GREATAXE,
    IMP,
    LANTERN,
    LICH,
    MALLET,
    MEND,
    MORNINGSTAR,
    OFFERING,
    PACT,
    SHARPEN,
    SKELETON,
    SLIME,
    TROLL,
    WARDRUM,
    WHETSTONE,
    WITCH,
    apply,
    arrange,
    legal,
    new,
    where,
)

# A full dungeon of cards nobody in these scenarios needs: looting the deck then empties no space, so no
# refill (and no immediate effect) can change the numbers a test checks.
FULL = [CHALICE, LANTERN, SKELETON + 1, CULTIST, CULTIST + 1, CANDLE]


def _spends(s: MephistoState) -> list[str]:
    return sorted((a for a in legal(s) if a.startswith("spend")), key=lambda a: int(a.split("=")[1]))


# ---------------------------------------------------------------- M3 setup, M5 favor, M6 the turn
def test_m3_2_solitaire_is_dealt_like_any_game() -> None:
    """M3.2-M3.4 with M12 ("When playing solo, all normal rules apply"): a hand of 3 (the first turn's
    draw makes 4), 2 face-up cards in each of 3 columns, favor 5, the other 50 cards in the deck."""
    for seed in range(3):
        s = new(seed, players=1)
        assert len(s.hands[0]) == 3 + 1 and len(s.dungeon) == 6 and all(c >= 0 for c in s.dungeon)
        assert [len(s.game.board.lane_spaces[0][lane]) for lane in (1, 2, 3)] == [2, 2, 2]
        assert s.favor == [5] and len(s.deck) == 60 - 4 - 6 and s.corners == []
        assert len(where(s)) == 60


def test_m5_1_spend_any_favor_up_to_what_you_have_one_attack_each() -> None:
    """M5.1/M8.2 step 3: "You may spend any amount of Favor" - "gaining 1 attack per favor spent"; never
    more than you have (M5.2: favor never goes below 0)."""
    s = arrange(new(), dungeon=[-1, -1, SKELETON, -1, -1, -1], favor=[3, 5])
    apply(s, "fight lane=2")  # the lane's one monster is chosen; no weapon: straight to favor
    assert _spends(s) == [f"spend favor={k}" for k in range(4)]
    with pytest.raises(IllegalAction):
        s.apply("spend favor=4")
    apply(s, "spend favor=3")  # 3 favor = 3 attack = the Skeleton's 3
    assert s.souls[0] == [SKELETON] and s.favor[0] == 0


def test_m6_2_nothing_is_played_or_activated_once_the_action_has_begun() -> None:
    """M6.2/M6.3: "After you have finished playing and activating cards, you can move on to the action
    step": in the middle of a fight no card may be played or activated, and no second action begun."""
    s = arrange(new(), hands={0: [FURY]}, inplay={0: [MALLET, WARDRUM]}, dungeon=[-1, -1, WITCH, -1, -1, -1])
    apply(s, "fight lane=2")
    for text in (f"play card={FURY}", f"activate card={WARDRUM}", "loot-deck"):
        with pytest.raises(IllegalAction):
            s.apply(text)
    assert s.hands[0] == [FURY] and s.bonus[0] == 0 and s.dur[WARDRUM] == 2
    apply(s, f"weapon card={MALLET}", "spend favor=5")  # 3 + 5 < 12: the fight is lost
    assert s.souls[0] == [] and s.current_player == 1


# ---------------------------------------------------------------- M7 play and activate
def test_m7_10_a_weapon_its_own_activation_breaks_cannot_fight() -> None:
    """M7.10/M7.9: "Once an item or weapon has no durability left, it breaks and is put into the discard
    pile": activating a weapon with 1 durability left breaks it, so it is not there to fight with."""
    s = arrange(new(), inplay={0: [MORNINGSTAR]}, dungeon=[-1, -1, SKELETON, -1, -1, -1], favor=[1, 5])
    s.dur[MORNINGSTAR] = 1
    apply(s, f"activate card={MORNINGSTAR}")  # +2 attack this turn (I2), and it breaks
    assert s.inplay[0] == [] and s.discard[-1] == MORNINGSTAR
    apply(s, "fight lane=2")
    assert not any(a.startswith("weapon") for a in legal(s))
    assert _spends(s) == ["spend favor=0", "spend favor=1"]
    apply(s, "spend favor=1")  # the bonus 2 + 1 favor = 3
    assert s.souls[0] == [SKELETON]


# ---------------------------------------------------------------- M8 the action step
def test_m8_2_a_weapon_loses_one_durability_per_fight_however_many_monsters() -> None:
    """M8.2: "Remove a durability each time it is used": one fight against two monsters is one use."""
    s = arrange(new(), inplay={0: [MALLET]}, dungeon=[-1, -1, IMP, SKELETON, -1, -1], favor=[2, 5])
    apply(s, "fight lane=2", f"monster card={IMP}", f"monster card={SKELETON}", f"weapon card={MALLET}")
    apply(s, "spend favor=2")  # 3 + 2 = 5 = 2 + 3
    assert sorted(s.souls[0]) == [IMP, SKELETON] and s.soul_pts[0] == 2
    assert s.dur[MALLET] == 2


def test_m8_2_falling_short_of_the_total_collects_none_of_the_monsters() -> None:
    """M8.2 step 4: "If your total attack is equal to or greater than the monsters you fight": one short
    of the total wins nothing, not even the weaker monster that the attack alone would beat (I8)."""
    s = arrange(new(), dungeon=[-1, -1, IMP, SKELETON, -1, -1], favor=[4, 5])
    apply(s, "fight lane=2", f"monster card={IMP}", f"monster card={SKELETON}", "spend favor=4")
    assert s.souls[0] == [] and s.soul_pts[0] == 0 and s.favor[0] == 0
    assert s.dungeon[2:4] == [IMP, SKELETON]


def test_m8_3_favor_is_gained_before_the_immediate_effect_triggers() -> None:
    """M8.3: "replace it with a monster from your hand, then gain 3 favor. If the monster ... has an
    immediate effect ..., that will now trigger": at 9 favor an Imp gives 9 + 3 = 10 (capped), then
    "lose 1" leaves 9 (the other order would leave 10)."""
    s = arrange(new(), hands={0: [IMP]}, dungeon=[CHALICE, -1, -1, -1, -1, -1], favor=[9, 5])
    apply(s, f"summon card={IMP}")
    assert s.dungeon[0] == IMP and s.hands[0] == [CHALICE]
    assert s.favor == [9, 5]


# ---------------------------------------------------------------- M9 ending the game
def test_m9_1_the_turns_draw_can_run_the_deck_out() -> None:
    """M9.1/M6.1: "Once the Dungeon Deck runs out of cards" - also when the last card is the next player's
    draw; that player (the last of the round) finishes the turn and the game ends."""
    s = arrange(new(), seat=0, first=0, deck=[PACT, OFFERING], dungeon=FULL)
    apply(s, f"loot card={CHALICE}")  # refill takes the Dark Pact; P2 draws the Offering, the last card
    assert s.dungeon[0] == PACT and OFFERING in s.hands[1]
    assert s.runouts == 1 and s.end_turn == s.turn == 2 and not s.is_over
    apply(s, "loot-deck")
    assert s.is_over


def test_m9_2_when_p2_started_the_game_ends_after_p1s_turn() -> None:
    """M9.2: "play continues until the player to the left of the starting player finishes their turn":
    with P2 starting, that player is P1."""
    s = arrange(new(), seat=0, first=1, deck=[PACT], dungeon=FULL)
    apply(s, "loot-deck")  # P1, the last of the round, empties the deck
    assert s.is_over and s.turn == 1
    s = arrange(new(), seat=1, first=1, deck=[PACT], dungeon=FULL)
    apply(s, "loot-deck")  # P2, the starting player, empties the deck: P1 still plays
    assert not s.is_over and s.current_player == 0
    apply(s, "loot-deck")
    assert s.is_over and s.turn == 2


def test_m9_3_four_players_finish_the_round_after_the_second_pass() -> None:
    """M9.2/M9.3: with 4 players "play through the deck a second time", then the round completes: P3
    started, so the deck running out on P4's turn leaves P1 and P2 to play, and P3 plays no more."""
    s = arrange(new(players=4), seat=3, first=2, deck=[PACT], dungeon=FULL)
    s.runouts = 1  # the first pass is over
    apply(s, "loot-deck")
    assert s.runouts == 2 and not s.is_over and s.current_player == 0
    apply(s, "loot-deck")
    assert not s.is_over and s.current_player == 1
    apply(s, "loot-deck")
    assert s.is_over and s.turn == 3


def _ended(s: MephistoState) -> MephistoState:
    """The last seat of the round takes the deck's last card: the game is over."""
    apply(s, "loot-deck")
    assert s.is_over
    return s


def test_m9_4_soul_points_are_added_up_not_monsters_counted() -> None:
    """M9.4: "each player counts their total Soul Points": one Witch (5) beats three smaller monsters (3),
    whatever the favor."""
    s = arrange(
        new(),
        seat=1,
        first=0,
        deck=[PACT],
        dungeon=FULL,
        souls={0: [WITCH], 1: [IMP, IMP + 1, SKELETON]},
        favor=[0, 10],
    )
    r = _ended(s).result()
    assert r.winners == (0,) and r.scores == (5.0, 3.0) and r.details["decided_by"] == "soul points"


def test_m9_4_with_three_players_only_the_tied_leaders_compare_favor() -> None:
    """M9.4: "In the case of a tie, whoever has most favor wins": the tie is between the leaders; a trailing
    player's greater favor changes nothing."""
    s = arrange(
        new(players=3),
        seat=2,
        first=0,
        deck=[PACT],
        dungeon=FULL,
        souls={0: [WITCH], 1: [TROLL, IMP], 2: [IMP + 1]},
        favor=[2, 4, 10],
    )
    s.runouts = 1  # the first of the two passes is over
    r = _ended(s).result()
    assert r.winners == (1,) and r.ranks == (2, 1, 3) and r.details["decided_by"] == "favor"


def test_m9_4_spells_attached_to_a_weapon_are_not_weapons_or_items() -> None:
    """M9.4: "whoever has the most combined weapons and items in play wins": a weapon with a spell under it
    is one card in play, fewer than two items."""
    s = arrange(
        new(),
        seat=1,
        first=0,
        deck=[PACT],
        dungeon=FULL,
        souls={0: [TROLL], 1: [SLIME, SLIME + 1]},
        inplay={0: [MALLET], 1: [WHETSTONE, WARDRUM]},
        favor=[4, 4],
    )
    s.discard.remove(SHARPEN)  # a spell under the Mallet
    s.attached, s.host[SHARPEN] = [SHARPEN], MALLET
    r = _ended(s).result()
    assert r.details["in_play"] == [1, 2]
    assert r.winners == (1,) and r.details["decided_by"] == "weapons and items"


# ---------------------------------------------------------------- M11 teams
def test_m11_3_a_team_tie_on_souls_goes_to_the_team_with_more_favor_together() -> None:
    """M11.3 (I13): "our team wins by having the most combined Soul Points"; "the tie-breaks use team
    totals of favor": 9 + 0 favor loses to 5 + 5, although P1 alone has the most."""
    s = arrange(
        new(players=4, teams=True),
        seat=1,
        first=0,
        deck=[PACT],
        dungeon=FULL,
        souls={0: [WITCH], 1: [TROLL], 3: [IMP]},
        favor=[9, 5, 0, 5],
    )
    s.runouts = 1  # the first of the two passes is over
    apply(s, "loot-deck")  # P2 takes the last card; P4 still acts in this team turn
    apply(s, "loot-deck")
    assert s.is_over
    r = s.result()
    assert r.details["team_soul_points"] == [5, 5] and r.details["favor"] == [9, 5, 0, 5]
    assert r.winners == (1, 3) and r.details["decided_by"] == "favor"


def test_m11_4_take_that_never_hits_your_partner() -> None:
    """M11.4 (I1): "Monster effects, spells and abilities affect each player individually, not as a team";
    a `damage` is chosen "among all opponents' items and weapons" - never the partner's, so with one
    opponent's weapon in play there is nothing to choose."""
    s = arrange(new(players=4, teams=True), seat=0, hands={0: [CORRODE]}, inplay={2: [MALLET], 1: [GREATAXE]})
    apply(s, f"play card={CORRODE}")
    assert s.dur[GREATAXE] == 1 and s.dur[MALLET] == 3
    assert s.current_player == 0 and not any(a.startswith("damage") for a in legal(s))


# ---------------------------------------------------------------- M12 solitaire, M13 Care Bear
def solo() -> MephistoState:
    return new(players=1)


def test_m12_1_the_turned_up_monster_is_only_discarded_its_effect_does_not_trigger() -> None:
    """M12.1: "Discard the top card of the deck. If the discarded card is a: Monster: Discard the highest
    attack monster in the dungeon": the turned-up Witch never enters the dungeon, so its immediate effect
    (which would cost you 2 favor, I12) does not trigger; the Cultist (4) goes, not the Skeleton (3)."""
    s = arrange(
        solo(),
        dungeon=[CHALICE, SKELETON, CULTIST, LANTERN, CANDLE, MALLET],
        deck_top=[WITCH, PACT, OFFERING, MEND],
        favor=[5],
    )
    apply(s, f"loot card={CHALICE}")
    assert s.discard[-2:] == [WITCH, CULTIST]
    assert s.dungeon[:3] == [PACT, SKELETON, OFFERING] and s.favor == [5]


def test_m12_6_an_effect_on_every_player_costs_you_your_own_share_in_solitaire() -> None:
    """M12.6: "Effects that cause an opponent to lose favor now gains you that much favor instead." The
    Lich makes every player lose 2: in solitaire no opponent loses anything, so nothing turns into a
    gain, and you lose your own 2 (interpretation I21): 5 + 3 for the summon, then 8 - 2 = 6. With two
    players the same summon costs both seats 2."""
    s = arrange(solo(), hands={0: [LICH]}, dungeon=[CHALICE, -1, -1, -1, -1, -1], favor=[5])
    apply(s, f"summon card={LICH}")
    assert s.dungeon[0] == LICH and s.favor == [6]
    s = arrange(new(), hands={0: [LICH]}, dungeon=[CHALICE, -1, -1, -1, -1, -1], favor=[5, 5])
    apply(s, f"summon card={LICH}")
    assert s.favor == [6, 3]


def test_m12_2_tied_items_are_yours_to_choose() -> None:
    """M12.2: "Item: Discard the highest cost item in the dungeon. If multiple any are tied, you may decide
    which is discarded": Chalice and War Drum both cost 1 (the Candle costs 0)."""
    s = arrange(
        solo(),
        dungeon=[PACT, CHALICE, WARDRUM, CANDLE, SKELETON, MALLET],
        deck_top=[WHETSTONE, OFFERING, FORESIGHT, MEND],
    )
    apply(s, f"loot card={PACT}")
    assert sorted(legal(s)) == sorted([f"remove card={CHALICE}", f"remove card={WARDRUM}"])
    apply(s, f"remove card={WARDRUM}")
    assert s.discard[-2:] == [WHETSTONE, WARDRUM]
    assert s.dungeon[:3] == [OFFERING, CHALICE, FORESIGHT]


def test_m12_7_the_deck_running_out_at_the_solitaire_step_still_gives_one_more_turn() -> None:
    """M12.7: "Once the deck runs out of cards, you get one more turn then count your total Soul Points":
    here the solitaire step turns up the last card."""
    s = arrange(solo(), deck=[PACT], dungeon=[CHALICE, SKELETON, CULTIST, LANTERN, CANDLE, MALLET])
    apply(s, f"loot card={CHALICE}")
    assert s.runouts == 1 and s.end_turn == 2 and s.turn == 2 and not s.is_over
    apply(s, "loot-deck")
    while not s.is_over:  # any decision the last turn's solitaire step or refill opens
        assert s.turn == 2
        apply(s, legal(s)[0])
    assert s.turn == 2


def test_m13_care_bear_monster_damage_on_refill_repairs_your_own_instead() -> None:
    """M13: "Effects that remove a durability from an opponent's item or weapon now repair your own item or
    weapon instead" - a monster's immediate effect too: a Ghoul refilled on P1's turn repairs P1's
    Mallet and leaves P2's Greataxe alone (standard rules: the Greataxe loses 1)."""
    for variant, mallet, greataxe in (("care-bear", 2, 2), ("standard", 1, 1)):
        s = arrange(new(variant=variant), inplay={0: [MALLET], 1: [GREATAXE]}, dungeon=FULL, deck_top=[GHOUL])
        s.dur[MALLET] = 1
        apply(s, f"loot card={CHALICE}")
        assert s.dungeon[0] == GHOUL
        assert (s.dur[MALLET], s.dur[GREATAXE]) == (mallet, greataxe), variant
