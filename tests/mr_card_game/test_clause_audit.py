"""Scenarios from a clause-by-clause audit of the tests against the rulebooks: each test shows a case
of a clause that the tests cited for it did not pin down (a boundary, a condition, the other seat or
maneuver), built from the rulebook's words (the clause is in the test's name)."""

from __future__ import annotations

from collections import Counter

import pytest

from cardtable.engine import IllegalAction
from cardtable.games.mr_card_game.cards import STAT_KINDS
from cardtable.games.mr_card_game.codes import D_BLOCK, D_DISCARD, D_POLL, D_UPGRADE
from cardtable.games.mr_card_game.state import McgState

from .helpers import (
    act,
    boss_on_top,
    cid,
    empty_pile,
    finish_turn,
    give_item,
    give_lasting,
    give_skill,
    give_store,
    kind,
    legal,
    new,
    on_top,
    only_targets,
    set_deck,
    set_discard,
    set_hand,
    targets,
    texts,
    to_heap,
    view_text,
)

WEAK = ["mus1", "mox1", "mox1", "mys1", "mys1", "mys1"]


def until_poll(s: McgState) -> None:
    """Quiet turns (no combat, no discards, no upgrade) until the March poll opens."""
    while s.phase != D_POLL and not s.is_over:
        options = legal(s)
        s.apply(next((t for t in ("end-turn", "done", "no-upgrade", "no-cure") if t in options), options[0]))


def melee_all(s: McgState) -> None:
    """The acting marcher plays every Muscle card of their hand as a Melee Attack and announces."""
    plays = [t for t in legal(s) if t.startswith("maneuver kind=melee")]
    if not plays:
        act(s, "end-combat")
        return
    act(s, plays[0])
    while more := [t for t in legal(s) if t.startswith("play")]:
        act(s, more[0])
    if not s.is_over and "done" in legal(s):
        act(s, "done")


# -- K14.6 the March's winner ------------------------------------------------------------------------


def test_k14_6_a_total_equal_to_the_sorceress_power_defeats_her() -> None:
    """K14.6 (core rules, March on the Tower): "Whoever has the highest total combat score and a total
    value equal to or greater than the power of the Naughty Sorceress defeats her... and wins." A
    total of exactly 20 against her 20 side wins; 19 does not."""
    for hand, wins in (
        (["mus4", "mus4", "mus4", "mus4", "mus3", "mys1"], True),
        (["mus4"] * 4 + ["mus2", "mys1"], False),
    ):
        s = new(2)
        until_poll(s)
        set_hand(s, 0, hand)  # 19 or 18 Muscle, +1 from the Sweet Ninja Sword: 20 or 19
        set_hand(s, 1, WEAK)
        act(s, "march", "done", "done")  # P1 announces: P2's phases first, then P1's
        act(s, "end-combat")  # P2 announces 0
        melee_all(s)
        assert s.mtotal[0] == (20 if wins else 19) and s.mthresh[0] == 20
        assert s.is_over is wins
        if wins:
            assert s.result().winners == (0,)
        else:
            assert s.out == 1  # the announcer fell short: out of the game (K14.7)


def test_k14_6_o2_a_negative_effect_raising_monster_power_raises_the_sorceress_for_its_holder_only() -> None:
    """Supplemental rules, Negative Effects: they may "increase the power of monsters during your turn";
    the March is "one last turn together" for every marcher, so Rat Fever (+1 to every monster's power)
    raises the Sorceress to 21 for its holder alone: their 20 falls short while another marcher's 20
    defeats her (clarification 8's "you (and only you)" works both ways)."""
    s = new(2)
    rat_fever = cid(s, "Baron von Ratsworth")  # the boss card; its back is Rat Fever
    until_poll(s)
    give_lasting(s, 1, rat_fever)
    twenty = ["mus4", "mus4", "mus4", "mus3", "mus3", "mus1"]  # 19 + 1 (three Muscle 4 each: the pile has six)
    set_hand(s, 0, twenty)
    set_hand(s, 1, twenty)
    act(s, "pass", "march", "done", "done")  # P2 announces: P1 first, P2 last
    melee_all(s)  # P1: 20 against 20
    melee_all(s)  # P2: 20 against 21
    assert s.mthresh == [20, 21] and s.mtotal == [20, 20]
    assert s.is_over and s.result().winners == (0,)


# -- O1.3 the ranged weapon's protection -------------------------------------------------------------


def test_o1_3_only_a_ranged_attack_lowers_the_counter_not_an_evasion() -> None:
    """O1.3 (supplemental rules, Hardcore Combat): "If you perform a Ranged attack, reduce the value of
    any counter attack by the value of the power of the ranged weapon ... you have equipped." Evasion
    also plays Moxie, but it is not a Ranged attack: the Hung Over Half-Orc Hobo's Muscle 2 counter
    stays 2 with the Quarter Launcher (power 3) equipped, where a Ranged Attack turns it away."""
    for maneuver, blocked_by_weapon in (("evade", False), ("ranged", True)):
        s = new(3, hardcore="all")
        hobo = cid(s, "Hung Over Half-Orc Hobo")  # power 3, stat drop Muscle 2
        on_top(s, hobo)
        only_targets(s, [hobo])
        give_item(s, 0, cid(s, "Quarter Launcher"), equipped=True)
        set_hand(s, 0, ["mox2", "mox1", "mus1", "mus1", "mys1", "mys1"])
        act(s, "combat", f"maneuver kind={maneuver} stat=mox2", "play stat=mox1", "done", f"kill card={hobo}")
        if blocked_by_weapon:
            assert s.phase == D_DISCARD and "turned away by the ranged weapon" in texts(s)
        else:
            assert s.phase == D_BLOCK and s.hc == 2
            assert legal(s) == ["block stat=mus1", "suffer"]


def test_o1_2_a_boss_counter_is_blocked_by_one_card_worth_more_than_it() -> None:
    """O1.2 (supplemental rules): the counter is avoided by discarding cards "whose total value is equal
    to or greater than" it. Baron von Ratsworth's counter of 2 of any type is blocked by a single
    Moxie 3, and the block ends there: the Moxie 1 left in hand is not discarded."""
    s = new(3, bosses=True)
    baron = cid(s, "Baron von Ratsworth")  # power 8, stat value 2 (any type)
    boss_on_top(s, baron)
    only_targets(s, [])
    set_hand(s, 0, ["mus4", "mus4", "mox3", "mox1", "mys1", "mys1"])
    act(s, "combat", "maneuver kind=melee stat=mus4", "play stat=mus4", "done")  # 8 + 1
    act(s, f"kill card={baron}")
    assert s.phase == D_BLOCK
    act(s, "block stat=mox3")
    assert baron in s.gone and baron not in s.lasting[0]  # blocked: the boss card leaves the game
    assert sorted(legal(s)) == ["choose type=mox", "choose type=mus", "choose type=mys"]
    assert len(s.hand[0]) == 3  # the Moxie 1 and the two Mysticality 1 stay in hand


# -- K9.3 rollover -----------------------------------------------------------------------------------


def test_k9_3_an_exchange_for_another_type_is_never_from_an_empty_pile() -> None:
    """K9.3 (core rules, Rollover): a card may be replaced "with a character stat card of a different
    type that is the same value ... If one or more of the stat piles is empty, you may not select that
    stat." With the Moxie 4 pile empty, a Muscle 4 may become a Mysticality 4 but not a Moxie 4."""
    s = new(3)
    set_hand(s, 0, ["mus1", "mus1", "mox1", "mox1", "mys1"])
    set_deck(s, 0, [])
    set_discard(s, 0, ["mus4"])
    empty_pile(s, "mox4", to=2)
    act(s, "end-turn", "done")
    assert s.phase == D_UPGRADE
    options = legal(s)
    assert "upgrade from=mus4 to=mys4" in options
    assert "upgrade from=mus4 to=mox4" not in options


# -- K4.9 Dumpster Dive ------------------------------------------------------------------------------


def test_k4_9_a_dive_costs_exactly_the_price_in_the_meat_icon() -> None:
    """K4.9 (core rules, G): "you may return a number of meat tokens equal to the numerical value listed
    in the meat icon ... to take that item". Meat equal to the price is enough, and all of it goes."""
    s = new(3)
    boots = cid(s, "Burlap Breeches")  # Heap price 3
    to_heap(s, [boots])
    s.meat[0] = 3
    assert f"dive card={boots}" in legal(s)
    act(s, f"dive card={boots}")
    assert s.meat[0] == 0 and boots in s.items[0] and s.heap == ()


# -- O3.3 the Sorceress of a run in ascension --------------------------------------------------------


def test_o3_3_k15_8_a_power_reduction_lowers_the_sorceress_of_the_run_for_the_reducer() -> None:
    """O3.3 with clarification 8 (core rules): "Reducing the power of the Naughty Sorceress ... does
    reduce the threshold you (and only you) need to achieve in order to defeat her." In ascension the
    player defeats her in their own combat: the Snow Globe of Stasis (-4) lets 16 Muscle + 1 beat the
    first form's 20; without it the same 17 does not."""
    for globe_used in (False, True):
        s = new(3, ascension=True)
        globe = cid(s, "Snow Globe of Stasis")  # combat item: reduce power by 4
        give_item(s, 0, globe)
        set_hand(s, 0, ["mus4", "mus4", "mus4", "mus4", "mys1", "mox1"])
        act(s, "combat")
        if globe_used:
            act(s, f"use card={globe}")
        act(s, "maneuver kind=melee stat=mus4", "play stat=mus4", "play stat=mus4", "play stat=mus4", "done")
        assert ("kill-sorceress" in legal(s)) is globe_used
    act(s, "kill-sorceress")
    assert s.runs[0] == 1


def test_o3_3_o2_a_negative_effect_raising_monster_power_raises_the_sorceress_of_the_run() -> None:
    """O3.3 with the Negative Effects rule (supplemental rules): a negative effect may "increase the
    power of monsters during your turn". With Rat Fever (+1) the first form's 20 is 21 for its holder:
    a score of 20 no longer defeats her, 21 does."""
    for last, beats in (("mus3", False), ("mus4", True)):
        s = new(3, ascension=True)
        give_lasting(s, 0, cid(s, "Baron von Ratsworth"))  # its back: Rat Fever, monsters +1 power
        set_hand(s, 0, ["mus4", "mus4", "mus4", "mus4", last, "mys1"])  # 19 or 20, +1 from the sword
        act(s, "combat", "maneuver kind=melee stat=mus4", "play stat=mus4", "play stat=mus4", "play stat=mus4")
        act(s, f"play stat={last}", "done")
        assert ("kill-sorceress" in legal(s)) is beats


# -- B2.4 / A50 a boss's meat ------------------------------------------------------------------------


def test_b2_4_a50_a_meat_drop_skill_adds_to_a_boss_meat() -> None:
    """B2.4 with K7.7 (core rules, Loot the Monster): "If you have a skill that increases your meat drop
    when you kill a monster, collect extra meat at this point." A50: that holds for every kill, a boss
    too: Boss Bat's 5 meat plus the Seal-Hunter's Haul's 1."""
    s = new(3, bosses=True)
    bat = s.quests[0]  # Boss Bat: power 6, 5 meat, stat value 1
    only_targets(s, [])
    give_skill(s, 0, cid(s, "Seal-Hunter's Haul"))  # +1 meat from every kill
    set_hand(s, 0, ["mus3", "mus2", "mus1", "mys1", "mys1", "mox1"])
    meat = s.meat[0]
    act(s, "combat", "maneuver kind=melee stat=mus3", "play stat=mus2", "done", f"kill card={bat}", "block stat=mys1")
    assert s.meat[0] == meat + 5 + 1


# -- K14.4 / K4.7 the March is a new turn --------------------------------------------------------------


def test_k14_4_k4_7_a_non_combat_skill_used_in_the_last_turn_works_again_in_the_march() -> None:
    """K4.7 (core rules, E): "Each Non-Combat skill may only be activated once per turn"; K14.4: at the
    March "all players take one last turn together". P2 plays the last turn of the round and uses Street
    Busking; P1 announces the March, and in P2's March non-combat phase the skill works again."""
    s = new(2)
    busking = cid(s, "Street Busking")  # non-combat skill, 1 mojo: gain 2 meat
    finish_turn(s)  # P1's turn
    assert s.current_player == 1
    give_skill(s, 1, busking)
    set_hand(s, 1, ["mys1", "mys1", "mus1", "mus1", "mox1", "mox1"])
    act(s, "mojo stat=mys1", f"skill card={busking}")
    assert f"skill card={busking}" not in legal(s)
    until_poll(s)
    act(s, "march")  # P1 announces: P2's non-combat phase comes first
    assert s.current_player == 1
    set_hand(s, 1, ["mys1", "mus1", "mus1", "mus1", "mox1", "mox1"])
    meat = s.meat[1]
    act(s, "mojo stat=mys1", f"skill card={busking}")
    assert s.meat[1] == meat + 2


# -- O1.1 a nemesis counter-attacks under hardcore=all -----------------------------------------------


def test_o1_1_b1_a_nemesis_counter_attacks_with_its_stat_drop_when_every_combat_is_hardcore() -> None:
    """O1.1 (supplemental rules, Hardcore Combat): "Each monster, nemesis or boss has a counter attack
    value equal to the type and number of the stat drop listed on the bottom of the card." With every
    combat hardcore, the Grudge-Bearing Walrus (a nemesis, stat drop Muscle 2) counter-attacks for 2
    Muscle; with only boss combats hardcore it does not."""
    for mode, hardcore in (("all", True), ("bosses", False)):
        s = new(3, nemesis=True, hardcore=mode)
        walrus = cid(s, "Grudge-Bearing Walrus")  # power 9, cold, Muscle 2
        on_top(s, walrus)
        only_targets(s, [walrus])
        set_hand(s, 0, ["mus4", "mus4", "mus1", "mus1", "mox2", "mys1"])
        act(s, "combat", "maneuver kind=melee stat=mus4", "play stat=mus4", "done", f"kill card={walrus}")
        if hardcore:
            assert s.phase == D_BLOCK and s.hc == 2
            assert s.view(1)["combat"]["counter_attack"]["type"] == "Muscle"
            assert legal(s) == ["block stat=mus1", "suffer"]  # the Moxie 2 is of the wrong type
        else:
            assert s.phase == D_DISCARD and walrus in s.items[0]


# -- O7.3 / S1.4 Pulverize on a Mr. Store item, whatever store-used says ------------------------------


def test_o7_3_s1_4_a_pulverized_store_item_goes_back_face_down_even_when_used_ones_leave_the_game() -> None:
    """S1 clarifications and O7.3 (supplemental rules): "If you Pulverize a Mr. Store item, return it to
    your collection face-down." The option `store-used=removed` is only about a *used* Mr. Store item
    (A44); a pulverized one still goes back face down to its owner, not out of the game."""
    s = new(3, mr_store=True, store_used="removed")
    crossbow = cid(s, "Clockwork Crossbow of Ages")  # a Mr. Store ranged weapon, anvil 3, costs 9
    give_store(s, 0, crossbow)
    s.meat[0] = 9
    act(s, f"reveal card={crossbow}")
    pulverize = cid(s, "Pulverize")
    give_skill(s, 0, pulverize)
    set_hand(s, 0, ["mys1", "mus1", "mus1", "mox1", "mox1", "mox1"])
    act(s, "mojo stat=mys1", f"skill card={pulverize}", f"target card={crossbow}", "choose type=mox")
    assert crossbow in s.store[0] and crossbow not in s.gone and crossbow not in s.items[0]


# -- K15.1 an unequipped weapon's combat ability -----------------------------------------------------


def test_k15_1_an_unequipped_weapons_combat_ability_cannot_be_used() -> None:
    """Clarification 1 (core rules): "An equipment item must be equipped in order to benefit from any of
    its effects." The Lint Roller Mace (a melee weapon with a Combat ability: 2 damage to spooky
    monsters) can be used in combat only while it is equipped."""
    for equipped in (False, True):
        s = new(3)
        mace = cid(s, "Lint Roller Mace")
        give_item(s, 0, mace, equipped=equipped)
        set_hand(s, 0, ["mus1", "mus1", "mys1", "mys1", "mox1", "mox1"])
        act(s, "combat")
        assert (f"use card={mace}" in legal(s)) is equipped


# -- O3.4 the ascension reset ------------------------------------------------------------------------


def test_o3_4_the_new_deck_has_exactly_four_of_each_level_one_card_extras_go_back() -> None:
    """O3.4 (supplemental rules, Ascension): after defeating a form "create a new character stat deck for
    you with four copies of each type of first level character stat card". A player holding six
    Strengthliness (Muscle 1) keeps four; the other two go back to their pile."""
    s = new(3, ascension=True)
    give_item(s, 0, cid(s, "Sweet Ninja Sword"), equipped=True)
    set_hand(s, 0, ["mus4", "mus4", "mus4", "mus4", "mus4", "mys1"])
    set_deck(s, 0, ["mus1", "mus1", "mus1", "mys1", "mys1", "mys1", "mox1", "mox1", "mox1", "mox1"])
    set_discard(s, 0, ["mus1", "mus1", "mus1"])  # six Muscle 1, four Mysticality 1 (one in hand)
    pile = len(s.piles[kind("mus1")])
    act(s, "combat", "maneuver kind=melee stat=mus4", *["play stat=mus4"] * 4, "done", "kill-sorceress")
    assert s.runs[0] == 1
    deck = Counter(STAT_KINDS[s.game.cards.skind[x]] for x in s.deck[0])
    assert deck == Counter({"mus1": 4, "mys1": 4, "mox1": 4})
    assert len(s.piles[kind("mus1")]) == pile + 2


def test_o3_4_a_permed_buff_is_turned_off_by_the_reset() -> None:
    """O3.4 (supplemental rules, Ascension): "you must reset your character to its base stats and items"
    and may keep one permed skill. The reset turns every buff off (interpretation: the base character
    has no buff running), so a permed buff that was on comes back off and must be activated again."""
    s = new(3, ascension=True)
    walrus = cid(s, "Rage of the Walrus")  # buff: +3 melee
    give_skill(s, 0, walrus, active=True)
    give_item(s, 0, cid(s, "Sweet Ninja Sword"), equipped=True)
    set_hand(s, 0, ["mus4", "mus4", "mus4", "mus4", "mys1", "mys1"])  # 16 + 1 + 3 = 20
    act(s, "combat", "maneuver kind=melee stat=mus4", *["play stat=mus4"] * 3, "done", "kill-sorceress")
    act(s, f"perm card={walrus}")
    assert walrus in s.skills[0] and not s.buffs >> walrus & 1
    assert s.view(0)["players"][0]["bonuses"]["melee"] == 1  # the Sweet Ninja Sword's alone


# -- bad input in the March ----------------------------------------------------------------------------


def test_k14_4_combat_or_end_turn_in_a_march_non_combat_phase_is_refused_saying_the_phase_ends_with_done() -> None:
    """K14.4-K14.5 (core rules, March on the Tower): every marcher performs a non-combat phase, and only
    then, "in the same order, each player performs a combat phase". Starting a combat, ending the turn
    or playing a maneuver in a March non-combat phase is refused, the error saying that the phase ends
    with `done` (not "start a combat first", which the March never offers), and nothing changes."""
    s = new(3)
    until_poll(s)
    act(s, "march")  # P1 announces: P2's non-combat phase first
    before, history = view_text(s, None), len(s.history)
    for text in ("combat", "end-turn", "maneuver kind=melee stat=mus1", f"kill card={s.top[0]}"):
        with pytest.raises(IllegalAction) as err:
            s.apply(text)
        assert "March on the Tower" in str(err.value) and "done" in str(err.value)
        assert "start one first" not in str(err.value)
    assert view_text(s, None) == before and len(s.history) == history
    act(s, "done")
    assert s.current_player == 2


def test_o1_3_a26_only_an_equipped_ranged_weapon_lowers_the_counter() -> None:
    """O1.3 (supplemental rules): after a Ranged attack the counter is reduced "by the value of the power
    of the ranged weapon (the numeral listed in its anvil) you have equipped". With the Quarter Launcher
    (ranged, power 3) only in the display case, unequipped, and the Overseer's Cleaver (a melee weapon,
    power 5) equipped, a Ranged Attack leaves the Hung Over Half-Orc Hobo's Muscle 2 counter at 2 (A26:
    a melee weapon lowers nothing)."""
    s = new(3, hardcore="all")
    hobo = cid(s, "Hung Over Half-Orc Hobo")  # power 3, stat drop Muscle 2
    on_top(s, hobo)
    only_targets(s, [hobo])
    launcher = cid(s, "Quarter Launcher")
    give_item(s, 0, launcher)
    give_item(s, 0, cid(s, "Overseer's Cleaver"), equipped=True)
    assert not s.eq >> launcher & 1
    set_hand(s, 0, ["mox2", "mox1", "mus1", "mus1", "mys1", "mys1"])
    act(s, "combat", "maneuver kind=ranged stat=mox2", "play stat=mox1", "done", f"kill card={hobo}")
    assert s.phase == D_BLOCK and s.hc == 2


# -- K7.6 an attack's elemental bonus decides the kill ----------------------------------------------


def test_k7_6_an_attacks_elemental_bonus_decides_which_monster_may_be_killed() -> None:
    """K7.6 (core rules, Select a Monster to Kill): "If you have an attack which deals different damage
    depending upon the elemental type of a monster ... your total combat score may vary depending upon
    the monster you select", and a monster may be chosen only if its power is at most that score. A
    Spell Attack of 4 with the Crisp Origami Wizard Hat (+3 spell, +2 spell against spooky) scores 9
    against the Haunted Hamper (9, spooky), which may be killed, and 7 against the Strongman Sasquatch
    (9, no element), which may not."""
    s = new(3)
    hamper, sasquatch = cid(s, "Haunted Hamper"), cid(s, "Strongman Sasquatch")
    on_top(s, hamper)
    on_top(s, sasquatch)
    only_targets(s, [hamper, sasquatch])
    give_item(s, 0, cid(s, "Crisp Origami Wizard Hat"), equipped=True)
    set_hand(s, 0, ["mys3", "mys1", "mus1", "mus1", "mox1", "mox1"])
    act(s, "combat", "maneuver kind=spell stat=mys3", "play stat=mys1", "done")
    rows = targets(s)
    assert rows["Haunted Hamper"]["score"] == 9 and rows["Strongman Sasquatch"]["score"] == 7
    assert f"kill card={hamper}" in legal(s) and f"kill card={sasquatch}" not in legal(s)
