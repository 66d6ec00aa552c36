"""The bonus components of the core box that fight: B1 nemesis/epic item cards, B2 quest bosses, O1
hardcore combat (the rulebook's own examples: Ed the Undying needs four of one type, the Hung Over
Half-Orc Hobo two Muscle, a Ranged Attack lowers the counter by the ranged weapon's power) and O2
negative effects."""

from __future__ import annotations

from collections import Counter

import pytest

from cardtable.engine import IllegalAction
from cardtable.games.mr_card_game import modifiers
from cardtable.games.mr_card_game.cards import CLASSES, K_NEMESIS, STAT_KINDS
from cardtable.games.mr_card_game.codes import D_BLOCK, D_CHOOSE, D_CURE, D_DISCARD, D_NONCOMBAT, D_POLL
from cardtable.games.mr_card_game.state import McgState

from .helpers import (
    act,
    boss_on_top,
    cid,
    conserved,
    empty_pile,
    finish_turn,
    give_item,
    give_lasting,
    give_skill,
    legal,
    new,
    on_top,
    only_targets,
    pass_round,
    set_deck,
    set_discard,
    set_hand,
    texts,
    to_heap,
)


def until_poll(s: McgState) -> None:
    """Quiet turns (no combat, no discards, no upgrade) until the March poll opens."""
    while s.phase != D_POLL and not s.is_over:
        options = legal(s)
        s.apply(next((t for t in ("end-turn", "done", "no-upgrade", "no-cure") if t in options), options[0]))


def _kill_ed(s: McgState, hand: list[str]) -> int:
    """P1 kills Ed the Undying (power 19) with four Muscle 4 and the Overseer's Cleaver (+5)."""
    ed = cid(s, "Ed the Undying")
    boss_on_top(s, ed)
    give_item(s, 0, cid(s, "Overseer's Cleaver"), equipped=True)
    set_hand(s, 0, hand)
    act(s, "combat", "maneuver kind=melee stat=mus4", "play stat=mus4", "play stat=mus4", "play stat=mus4", "done")
    act(s, f"kill card={ed}")
    return ed


# -- B1 nemesis / epic items -------------------------------------------------------------------------


def test_b1_1_b1_2_four_nemesis_piles_one_nemesis_of_each_class_each_with_its_top_turned_up() -> None:
    s = new(3, nemesis=True)
    c = s.game.cards
    assert len(c.nemesis_locations) == 4
    for li in c.nemesis_locations:
        pile = [s.top[li], *s.below[li]]
        assert s.top[li] >= 0 and len(pile) == 6
        assert sorted(c.sclass[x] for x in pile) == list(range(len(CLASSES)))
        assert all(c.kind[x] == K_NEMESIS and c.meat[x] == 0 for x in pile)
    view = s.view(1)
    assert [row["location"] for row in view["nemesis"]] == [c.locations[li].name for li in c.nemesis_locations]
    assert all(row["monster"]["item_side"]["type"].endswith("(epic item)") for row in view["nemesis"])
    assert all(row["hidden_cards"] == 5 for row in view["nemesis"])
    # Without the option they stay in the box.
    core = new(3)
    assert set(c.nemeses) <= set(core.box) and core.view(0)["nemesis"] is None
    assert all(core.top[li] < 0 and not core.below[li] for li in c.nemesis_locations)


def test_b1_3_b1_4_a_nemesis_may_be_chosen_instead_of_a_monster_and_drops_no_meat() -> None:
    s = new(3, nemesis=True)
    walrus = cid(s, "Grudge-Bearing Walrus")  # power 9, cold, Muscle 2, epic item Tusk-Forged Club
    on_top(s, walrus)
    give_skill(s, 0, cid(s, "Seal-Hunter's Haul"))  # +1 meat from every kill (A50: a nemesis too)
    set_hand(s, 0, ["mus4", "mus4", "mus1", "mox1", "mys1", "mys1"])
    act(s, "combat", "maneuver kind=melee stat=mus4", "play stat=mus4", "done")
    assert f"kill card={walrus}" in legal(s)
    meat = s.meat[0]
    act(s, f"kill card={walrus}")
    assert s.meat[0] == meat + 0 + 1  # no meat from a nemesis, the skill's bonus still applies
    assert walrus in s.items[0]
    assert Counter(STAT_KINDS[s.game.cards.skind[x]] for x in s.disc[0])["mus2"] == 1  # its stat drop
    assert conserved(s)


def test_b1_5_b1_6_a_nemesis_pile_turns_up_its_next_card_and_once_empty_stays_empty() -> None:
    s = new(3, nemesis=True)
    c = s.game.cards
    li = c.nemesis_locations[0]
    top, rest = s.top[li], s.below[li]
    # The whole pile but its top goes to the Heap (where kingdom cards would rebuild their pile).
    to_heap(s, rest)
    only_targets(s, [top])
    set_hand(s, 0, ["mus4", "mus4", "mus4", "mus3", "mox1", "mys1"])
    act(s, "combat", "maneuver kind=melee stat=mus4", "play stat=mus4", "play stat=mus4", "play stat=mus3", "done")
    act(s, f"kill card={top}")
    finish_turn(s)
    assert s.top[li] < 0 and not s.below[li]  # empty, and its epic items in the Heap do not rebuild it
    assert set(rest) <= set(s.heap)
    assert s.view(0)["nemesis"][0]["empty"] is True
    # A kingdom location in the same situation is rebuilt (K11.3), so the difference is the rule's.
    k = c.kingdom[0]
    cards = [s.top[k], *s.below[k]] if s.top[k] >= 0 else list(s.below[k])
    to_heap(s, cards)
    finish_turn(s)
    pass_round(s)
    finish_turn(s)
    assert s.top[k] >= 0 and s.top[li] < 0 and not s.below[li]


def test_b1_a_nemesis_pile_turns_up_its_next_card_at_the_map_update() -> None:
    s = new(3, nemesis=True)
    li = s.game.cards.nemesis_locations[0]
    top = s.top[li]
    only_targets(s, [top])
    set_hand(s, 0, ["mus4", "mus4", "mus4", "mus3", "mox1", "mys1"])
    act(s, "combat", "maneuver kind=melee stat=mus4", "play stat=mus4", "play stat=mus4", "play stat=mus3", "done")
    act(s, f"kill card={top}")
    assert s.top[li] < 0 and len(s.below[li]) == 5
    finish_turn(s)
    assert s.top[li] >= 0 and len(s.below[li]) == 4
    assert "is turned up" in texts(s)


# -- B2 quest bosses ---------------------------------------------------------------------------------


def test_b2_1_b2_2_eleven_bosses_ordered_by_power_lowest_on_top() -> None:
    s = new(3, bosses=True)
    c = s.game.cards
    powers = [c.mpower[x] for x in s.quests]
    assert len(s.quests) == 11 and powers == sorted(powers)
    assert c.mname[s.quests[-1]] == "Ed the Undying" and c.drop[s.quests[-1]] == -1 - 4  # 4 of any type
    quests = s.view(2)["quests"]
    assert [b["name"] for b in quests] == [c.mname[x] for x in s.quests]
    assert quests[-1]["stat_drop"] == "any type, value 4" and "Curse of the Undying" in quests[-1]["text"]
    assert {c.subtype[x] for x in s.quests} == {0, 1, 2}  # injuries, impairments and illnesses


def test_b2_3_b2_4_a_boss_drops_meat_and_a_stat_card_of_any_type_but_no_item() -> None:
    s = new(3, bosses=True)
    bat = s.quests[0]  # Boss Bat: power 6, 5 meat, stat value 1
    only_targets(s, [])
    set_hand(s, 0, ["mus3", "mus2", "mus1", "mys1", "mys1", "mox1"])
    act(s, "combat", "maneuver kind=melee stat=mus3", "play stat=mus2", "done")
    assert legal(s) == [f"kill card={bat}", "end-combat"]
    meat, items = s.meat[0], s.items[0]
    act(s, f"kill card={bat}")
    assert s.phase == D_BLOCK  # a boss combat is always hardcore
    act(s, "block stat=mys1")  # counter 1 of any type: one Mysticality 1 blocks it
    assert s.meat[0] == meat + 5 and s.items[0] == items  # meat, no item
    assert s.phase == D_CHOOSE and legal(s) == ["choose type=mus", "choose type=mys", "choose type=mox"]
    act(s, "choose type=mox")
    assert STAT_KINDS[s.game.cards.skind[s.disc[0][-1]]] == "mox1"
    assert s.phase == D_DISCARD and s.quests[0] != bat and conserved(s)


def test_a23_the_boss_stat_type_is_chosen_among_piles_that_are_not_empty() -> None:
    s = new(3, bosses=True)
    bat = s.quests[0]
    only_targets(s, [])
    set_hand(s, 0, ["mus3", "mus3", "mys1", "mys1", "mox1", "mox1"])
    empty_pile(s, "mus1", 2)
    act(s, "combat", "maneuver kind=melee stat=mus3", "play stat=mus3", "done", f"kill card={bat}", "suffer")
    assert legal(s) == ["choose type=mys", "choose type=mox"]


def test_b2_6_a_blocked_boss_leaves_the_game() -> None:
    s = new(3, bosses=True)
    ed = _kill_ed(s, ["mus4", "mus4", "mus4", "mus4", "mys2", "mys2"])
    act(s, "block stat=mys2", "block stat=mys2")  # 4 Mysticality: Ed's counter of 4 is blocked
    assert ed in s.gone and ed not in s.lasting[0] and ed not in s.quests
    act(s, "choose type=mus")
    assert [r["name"] for r in s.view(1)["removed"]] == ["Curse of the Undying"]
    assert conserved(s)


def test_b2_6_o2_an_unblocked_boss_puts_its_negative_effect_into_the_display_case() -> None:
    s = new(3, bosses=True)
    ed = _kill_ed(s, ["mus4", "mus4", "mus4", "mus4", "mys1", "mox3"])
    act(s, "suffer", "choose type=mys")
    assert s.lasting[0] == (ed,) and ed not in s.gone
    negative = s.view(2)["players"][0]["negative_effects"]
    assert [n["name"] for n in negative] == ["Curse of the Undying"] and negative[0][
        "type"
    ] == "negative effect (impairment)"
    assert "you may not autosell" in negative[0]["text"]
    # Its penalties: -1 melee, -1 spell, and no AutoSell.
    assert s.view(2)["players"][0]["bonuses"]["melee"] == 5 - 1  # the Cleaver's +5, then -1
    finish_turn(s)
    pass_round(s)
    while s.current_player != 0:
        finish_turn(s)
        pass_round(s)
    assert not [t for t in legal(s) if t.startswith("autosell")]


def test_b2_7_an_empty_boss_pile_stays_empty() -> None:
    s = new(2, bosses=True)
    ed = cid(s, "Ed the Undying")
    s.quests = (ed,)
    _kill_ed(s, ["mus4", "mus4", "mus4", "mus4", "mys2", "mys2"])
    act(s, "block stat=mys2", "block stat=mys2", "choose type=mys")
    finish_turn(s)
    pass_round(s)
    finish_turn(s)
    # mypy keeps s.quests narrowed to (ed,) across the turns played since, which end the quest
    assert s.quests == () and s.view(0)["quests"] == []  # type: ignore[comparison-overlap]


def test_b2_8_quests_before_march_no_march_while_a_boss_remains() -> None:
    s = new(2, bosses=True, quests_before_march=True)
    finish_turn(s)
    finish_turn(s)
    assert s.phase != D_POLL and s.round == 2  # round 1 over: no poll while the quests are not done
    assert "the quests are not done" in texts(s)
    s.quests = ()
    s.gone = (*s.gone, *s.game.cards.bosses)  # (every boss beaten)
    until_poll(s)
    assert s.round == 2 and legal(s) == ["march", "pass"]


# -- O1 hardcore combat ------------------------------------------------------------------------------


def test_o1_2_ed_the_undying_is_blocked_only_by_four_of_one_single_type() -> None:
    s = new(3, bosses=True)
    _kill_ed(s, ["mus4", "mus4", "mus4", "mus4", "mys2", "mys2", "mox3", "mox1"])
    assert sorted(legal(s)) == ["block stat=mox3", "block stat=mys2", "suffer"]
    assert "counter-attacks (hardcore)" in s.view(0)["prompt"]
    assert s.view(1)["combat"]["counter_attack"] == {
        "from": "Ed the Undying",
        "still_to_block": 4,
        "type": "any single type",
        "if_not_blocked": "Curse of the Undying",
    }
    act(s, "block stat=mys2")
    # The type is now Mysticality: the Moxie cards cannot be added (2 + 3 of two types is no block).
    assert legal(s) == ["block stat=mys2", "suffer"]
    act(s, "block stat=mys2", "choose type=mus")
    assert "blocks the counter-attack" in texts(s) and s.lasting[0] == ()
    # Two cards of two types worth 4 together block nothing, so neither is offered.
    s = new(3, bosses=True)
    _kill_ed(s, ["mus4", "mus4", "mus4", "mus4", "mys2", "mox2"])
    assert legal(s) == ["suffer"]
    # Told to P1 alone (its own hand); the others read the same prompt whatever P1 holds.
    assert "your hand cannot block it: suffer Curse of the Undying" in s.view(0)["prompt"]
    assert "discard cards of one stat type worth 4 or more" in s.view(1)["prompt"]
    act(s, "suffer", "choose type=mus")
    assert s.lasting[0] == (cid(s, "Ed the Undying"),)


def test_o1_2_a_card_that_cannot_complete_the_block_is_not_offered() -> None:
    """Blocking cards go from the highest down, so a card is offered only if it and the lower cards of
    its type can still reach the counter: against the Hobo (Muscle 2) with a Muscle 2 and a Muscle 1,
    discarding the Muscle 1 first would leave nothing that can follow it. The engine explains the
    refusal, and the legacy ``block-discards=any`` (records made before this reading) offers it."""
    for hand, offered in (
        (["mus3", "mus2", "mus1", "mox1", "mox1", "mys1"], ["block stat=mus2", "suffer"]),
        (["mus3", "mus1", "mus1", "mox1", "mox1", "mys1"], ["block stat=mus1", "suffer"]),
        (["mus3", "mus1", "mox2", "mox1", "mys2", "mys1"], ["suffer"]),
    ):
        s = new(3, hardcore="all")
        hobo = cid(s, "Hung Over Half-Orc Hobo")
        on_top(s, hobo)
        only_targets(s, [hobo])
        set_hand(s, 0, hand)
        act(s, "combat", "maneuver kind=melee stat=mus3", "done", f"kill card={hobo}")
        assert s.phase == D_BLOCK and legal(s) == offered, hand
    with pytest.raises(IllegalAction, match="the lower Muscle cards in your hand cannot reach the 2"):
        act(s, "block stat=mus1")
    assert s.phase == D_BLOCK and s.hc == 2  # the refusal changed nothing
    s = new(3, hardcore="all", block_discards="any")
    hobo = cid(s, "Hung Over Half-Orc Hobo")
    on_top(s, hobo)
    only_targets(s, [hobo])
    set_hand(s, 0, ["mus3", "mus2", "mus1", "mox1", "mox1", "mys1"])
    act(s, "combat", "maneuver kind=melee stat=mus3", "done", f"kill card={hobo}")
    assert legal(s) == ["block stat=mus2", "block stat=mus1", "suffer"]
    act(s, "block stat=mus1")
    assert legal(s) == ["suffer"]  # the Muscle 1 is gone and the block fell short


def test_o1_2_the_hung_over_half_orc_hobo_needs_two_muscle_under_hardcore_all() -> None:
    s = new(3, hardcore="all")
    hobo = cid(s, "Hung Over Half-Orc Hobo")  # power 3, stat drop Muscle 2
    on_top(s, hobo)
    only_targets(s, [hobo])
    set_hand(s, 0, ["mus2", "mus1", "mus1", "mox2", "mys2", "mys1"])
    act(s, "combat", "maneuver kind=melee stat=mus2", "done", f"kill card={hobo}")
    assert s.phase == D_BLOCK and legal(s) == ["block stat=mus1", "suffer"]  # Muscle only
    assert s.view(2)["combat"]["counter_attack"]["type"] == "Muscle"
    act(s, "block stat=mus1")
    assert s.hc == 1 and legal(s) == ["block stat=mus1", "suffer"]
    act(s, "block stat=mus1")
    assert "blocks the counter-attack" in texts(s) and hobo in s.items[0]
    assert s.phase == D_DISCARD


def test_o1_a_monster_does_not_counter_attack_unless_hardcore_is_all() -> None:
    s = new(3, bosses=True)  # hardcore=bosses: only bosses
    hobo = cid(s, "Hung Over Half-Orc Hobo")
    on_top(s, hobo)
    set_hand(s, 0, ["mus2", "mus1", "mus1", "mox2", "mys2", "mys1"])
    act(s, "combat", "maneuver kind=melee stat=mus2", "done", f"kill card={hobo}")
    assert s.phase == D_DISCARD and hobo in s.items[0]


def test_o1_3_a26_a_ranged_attack_lowers_the_counter_by_the_equipped_ranged_weapon_power() -> None:
    s = new(3, bosses=True, hardcore="all")
    ed = cid(s, "Ed the Undying")
    boss_on_top(s, ed)
    launcher = cid(s, "Quarter Launcher")  # a ranged weapon, power 3, +3 ranged
    give_item(s, 0, launcher, equipped=True)
    give_item(s, 0, cid(s, "Overseer's Cleaver"))  # a melee weapon (not equipped)
    set_hand(s, 0, ["mox4", "mox4", "mox4", "mox4", "mys1", "mus1"])
    act(s, "combat", "maneuver kind=ranged stat=mox4", "play stat=mox4", "play stat=mox4", "play stat=mox4", "done")
    row = next(r for r in s.view(0)["combat"]["targets"] if r["monster"] == "Ed the Undying")
    assert row["score"] == 16 + 3 and row["counter_attack"] == "1 of any single type"  # 4 - 3
    act(s, f"kill card={ed}")
    assert s.hc == 1 and sorted(legal(s)) == ["block stat=mus1", "block stat=mys1", "suffer"]
    # A counter the ranged weapon covers entirely needs no block at all (the Hobo: Muscle 2 - 3).
    s2 = new(3, hardcore="all")
    hobo = cid(s2, "Hung Over Half-Orc Hobo")
    on_top(s2, hobo)
    give_item(s2, 0, cid(s2, "Quarter Launcher"), equipped=True)
    set_hand(s2, 0, ["mox1", "mox1", "mus1", "mys1", "mys1", "mus1"])
    act(s2, "combat", "maneuver kind=ranged stat=mox1", "done", f"kill card={hobo}")
    assert s2.phase == D_DISCARD and "turned away by the ranged weapon" in texts(s2)
    # A26: a melee weapon lowers nothing, and a Melee Attack gets no reduction.
    s3 = new(3, hardcore="all")
    hobo = cid(s3, "Hung Over Half-Orc Hobo")
    on_top(s3, hobo)
    give_item(s3, 0, cid(s3, "Quarter Launcher"), equipped=True)
    set_hand(s3, 0, ["mus3", "mox1", "mus1", "mys1", "mys1", "mus1"])
    act(s3, "combat", "maneuver kind=melee stat=mus3", "done", f"kill card={hobo}")
    assert s3.phase == D_BLOCK and s3.hc == 2


def test_o1_4_retaliation_never_prevents_the_kill() -> None:
    s = new(3, hardcore="all")
    hobo = cid(s, "Hung Over Half-Orc Hobo")
    on_top(s, hobo)
    set_hand(s, 0, ["mus3", "mox1", "mox1", "mys1", "mys1", "mox1"])
    meat = s.meat[0]
    act(s, "combat", "maneuver kind=melee stat=mus3", "done", f"kill card={hobo}", "suffer")
    assert hobo in s.items[0] and s.meat[0] == meat + 1 and s.kills[0] == 1


def test_o1_the_block_step_opens_whatever_the_hand_holds_and_a45_an_unblocked_monster_brings_nothing() -> None:
    s = new(3, hardcore="all")
    hobo = cid(s, "Hung Over Half-Orc Hobo")
    on_top(s, hobo)
    set_hand(s, 0, ["mus3", "mox1", "mox1", "mys1", "mys1", "mox1"])  # no Muscle left to block with
    act(s, "combat", "maneuver kind=melee stat=mus3", "done", f"kill card={hobo}")
    assert s.phase == D_BLOCK and legal(s) == ["suffer"]  # offered all the same (the hand is hidden)
    lasting = s.lasting[0]
    act(s, "suffer")
    assert s.lasting[0] == lasting and "no negative effect" in texts(s)


def test_a19_the_sorceress_does_not_counter_attack() -> None:
    s = new(2, hardcore="all")
    until_poll(s)
    set_hand(s, 0, ["mus4", "mus4", "mus4", "mus4", "mus4", "mus4"])
    act(s, "march", "done", "done", "end-combat", "maneuver kind=melee stat=mus4")  # P2 first, then P1
    while "play stat=mus4" in legal(s):
        act(s, "play stat=mus4")
    act(s, "done")  # the total is announced: no block step against the Sorceress
    assert s.is_over and s.winners == (0,)


# -- O2 negative effects -----------------------------------------------------------------------------


def test_o2_1_negative_effects_impose_their_penalties_and_an_unequip_when_they_arrive() -> None:
    s = new(3, bosses=True)
    treant = cid(s, "Gnarlwood the Treant")  # Splinters Everywhere: -2 ranged, unequip your pants
    boss_on_top(s, treant)
    shorts = s.items[0][2]
    assert s.eq >> shorts & 1
    give_item(s, 0, cid(s, "Overseer's Cleaver"), equipped=True)
    set_hand(s, 0, ["mus4", "mus2", "mox1", "mox1", "mys1", "mus1"])
    act(s, "combat", "maneuver kind=melee stat=mus4", "play stat=mus2", "done", f"kill card={treant}", "suffer")
    assert not s.eq >> shorts & 1  # unequipped when the negative effect arrived
    assert s.mods[0][2] == -2  # -2 ranged damage
    goblin = cid(s, "Chieftain Grubbelgrunt")  # Goblin Hex: you may not dive
    give_lasting(s, 1, goblin)
    to_heap(s, [cid(s, "Stale Cellar Cracker")])
    act(s, "choose type=mus")
    finish_turn(s)
    s.meat[1] = 20
    s._legal = None
    assert s.current_player == 1 and not [t for t in legal(s) if t.startswith("dive")]
    assert conserved(s)


def test_o2_2_o2_3_a_cure_skill_removes_a_negative_effect_of_its_sub_type_out_of_the_game() -> None:
    s = new(3, bosses=True)
    splinters, curse = cid(s, "Gnarlwood the Treant"), cid(s, "Ed the Undying")  # an injury, an impairment
    give_lasting(s, 0, curse)
    give_lasting(s, 0, splinters)
    bandage = cid(s, "Bash-Bandage")  # 1 mojo: cure an injury, draw a card
    give_skill(s, 0, bandage)
    set_hand(s, 0, ["mys1", "mus1", "mus1", "mox1", "mox1", "mox1"])
    act(s, "mojo stat=mys1", f"skill card={bandage}")
    assert s.lasting[0] == (curse,) and splinters in s.gone
    assert "is cured of Splinters Everywhere" in texts(s)


def test_o2_2_a_cure_skill_lets_the_player_choose_among_negative_effects_of_its_sub_type() -> None:
    """A skill "that cures a negative effect sub-type" removes one of that sub-type: with two of them
    in the display case (public), which one goes is the player's choice, not the engine's; with one,
    it goes by itself."""
    s = new(3, bosses=True)
    ankle, splinters, curse = cid(s, "Boss Bat"), cid(s, "Gnarlwood the Treant"), cid(s, "Ed the Undying")
    for boss in (ankle, splinters, curse):  # two injuries and an impairment
        give_lasting(s, 0, boss)
    bandage = cid(s, "Bash-Bandage")  # 1 mojo: cure an injury, draw a card
    give_skill(s, 0, bandage)
    set_hand(s, 0, ["mys1", "mus1", "mus1", "mox1", "mox1", "mox1"])
    act(s, "mojo stat=mys1", f"skill card={bandage}")
    assert s.phase == D_CURE and legal(s) == [f"cure card={ankle}", f"cure card={splinters}"]  # no declining
    assert "Bash-Bandage" in s.view(0)["prompt"] and "injury" in s.view(1)["prompt"]
    before = s.snapshot()
    with pytest.raises(IllegalAction, match="Curse of the Undying is an impairment: Bash-Bandage cures an injury"):
        s.apply(f"cure card={curse}")  # an impairment: not this cure's sub-type
    assert s.snapshot() == before
    hand = len(s.hand[0])
    act(s, f"cure card={splinters}")  # the newer one, which the player chose
    assert s.lasting[0] == (ankle, curse) and splinters in s.gone
    assert "P1 is cured of Splinters Everywhere" in texts(s, 2)
    assert len(s.hand[0]) == hand + 1 and s.phase == D_NONCOMBAT  # then the skill's draw
    assert s.mods[0] == modifiers.compute(s, 0) and conserved(s)


def test_o2_2_at_a_rollover_one_negative_effect_may_be_removed() -> None:
    s = new(3, bosses=True)
    bat, ed = cid(s, "Boss Bat"), cid(s, "Ed the Undying")
    give_lasting(s, 0, bat)
    give_lasting(s, 0, ed)
    set_deck(s, 0, [])
    set_discard(s, 0, ["mus1", "mus1", "mus1", "mys1", "mys1", "mys1"])
    act(s, "end-turn", "discard stat=mus1", "done")  # drawing from an empty deck: rollover
    assert s.phase == D_CURE and legal(s) == [f"cure card={bat}", f"cure card={ed}", "no-cure"]
    assert "remove one negative effect" in s.view(0)["prompt"]
    act(s, f"cure card={ed}")
    assert s.lasting[0] == (bat,) and ed in s.gone
    assert legal(s)[-1] == "no-upgrade"  # then the usual rollover exchange
    # No negative effect: no such decision (public: the display case is public).
    s2 = new(3, bosses=True)
    set_deck(s2, 0, [])
    set_discard(s2, 0, ["mus1", "mus1", "mus1", "mys1", "mys1", "mys1"])
    act(s2, "end-turn", "discard stat=mus1", "done")
    assert s2.phase != D_CURE


def test_bad_input_for_the_hardcore_and_negative_effect_decisions() -> None:
    s = new(3, bosses=True)
    _kill_ed(s, ["mus4", "mus4", "mus4", "mus4", "mys2", "mys2", "mox3", "mox1"])
    before = s.snapshot()
    bat = cid(s, "Boss Bat")
    for text in ("block stat=mys3", "block stat=mus4", f"cure card={bat}", "no-cure", "choose type=mus"):
        with pytest.raises(IllegalAction, match="not legal now"):
            s.apply(text)
        assert s.snapshot() == before
    assert Counter(legal(s)) == Counter(["block stat=mys2", "block stat=mox3", "suffer"])


def test_o1_2_o2_2_a_refused_block_or_cure_says_why() -> None:
    """A player told only "not legal now" cannot tell a wrong type from a wrong order: the refusal
    names what is wrong (their own hand and display case, nothing hidden) and changes nothing."""
    s = new(3, bosses=True)
    _kill_ed(s, ["mus4", "mus4", "mus4", "mus4", "mys2", "mys1", "mys1", "mys1", "mys1", "mox1"])
    refusals = (
        ("block stat=mox2", "you have no Sass \\(Moxie 2\\) in your hand"),
        ("block stat=mox1", "the .* and the lower Moxie cards in your hand cannot reach the 4 still to block"),
        ("cure card=147", "only at a rollover"),
    )
    for text, why in refusals:
        before = s.snapshot()
        with pytest.raises(IllegalAction, match=f"not legal now: {why}"):
            s.apply(text)
        assert s.snapshot() == before
    act(s, "block stat=mys1")
    before = s.snapshot()
    with pytest.raises(IllegalAction, match="from the highest down: next, a card of value 1 or less"):
        s.apply("block stat=mys2")
    assert s.snapshot() == before
    # The first card set the block's type: Moxie no longer counts against Ed's "any single type".
    s2 = new(3, bosses=True)
    _kill_ed(s2, ["mus4", "mus4", "mus4", "mus4", "mys2", "mys2", "mox3", "mox1"])
    act(s2, "block stat=mys2")
    with pytest.raises(IllegalAction, match=r"this block is of Mysticality cards \(one single type\)"):
        s2.apply("block stat=mox3")
    # The Hobo's counter-attack is Muscle only.
    s3 = new(3, hardcore="all")
    hobo = cid(s3, "Hung Over Half-Orc Hobo")
    on_top(s3, hobo)
    only_targets(s3, [hobo])
    set_hand(s3, 0, ["mus2", "mus1", "mus1", "mox2", "mys2", "mys1"])
    act(s3, "combat", "maneuver kind=melee stat=mus2", "done", f"kill card={hobo}")
    with pytest.raises(IllegalAction, match="Hung Over Half-Orc Hobo counter-attacks with Muscle: only Muscle cards"):
        s3.apply("block stat=mox2")
    # At a rollover, a card that is not one of your negative effects.
    s4 = new(3, bosses=True)
    give_lasting(s4, 0, cid(s4, "Boss Bat"))
    give_lasting(s4, 1, cid(s4, "Ed the Undying"))
    set_deck(s4, 0, [])
    set_discard(s4, 0, ["mus1", "mus1", "mus1", "mys1", "mys1", "mys1"])
    act(s4, "end-turn", "discard stat=mus1", "done")  # drawing from an empty deck: rollover
    assert s4.phase == D_CURE
    ed = cid(s4, "Ed the Undying")  # in P2's display case
    before = s4.snapshot()
    with pytest.raises(IllegalAction, match=f"card {ed} is not a negative effect in your display case"):
        s4.apply(f"cure card={ed}")
    assert s4.snapshot() == before


def test_o2_1_an_action_a_negative_effect_forbids_is_refused_naming_the_negative_effect() -> None:
    """O2.1 "limit what kind of actions you can perform": the refusal says which negative effect (a
    public card of the display case) takes the action away, and changes nothing."""
    s = new(3, bosses=True)
    for boss in ("Professor Backwards", "The Castle Giant", "Ed the Undying"):
        give_lasting(s, 0, cid(s, boss))
    s.meat[0] = 40
    trainee = next(x for x in s.trainer if x >= 0)
    set_hand(s, 0, ["mox2", "mox2", "mus1", "mus1", "mys1", "mys1"])
    refusals = (
        (f"train card={trainee}", "Garbled Speech .*you may not train"),
        (f"autosell card={s.items[0][0]}", "Curse of the Undying .*you may not autosell"),
    )
    for text, why in refusals:
        before = s.snapshot()
        with pytest.raises(IllegalAction, match=f"not legal now: {why}"):
            s.apply(text)
        assert s.snapshot() == before
    act(s, "combat")
    assert "maneuver kind=ranged stat=mox2" in legal(s) and "maneuver kind=evade stat=mox2" not in legal(s)
    before = s.snapshot()
    with pytest.raises(IllegalAction, match=r"Crushed Foot .*you may not perform a maneuver: evade"):
        s.apply("maneuver kind=evade stat=mox2")
    assert s.snapshot() == before


def test_o2_2_a18_every_rollover_even_in_the_middle_of_a_turn_offers_one_removal() -> None:
    """O2.2 "whenever you roll over": a rollover in the middle of a turn (A18: a draw effect) offers
    the removal before the upgrade, and a second rollover in the same turn offers it again."""
    s = new(3, bosses=True, mr_store=True, store_filter=False)
    bat, ed = cid(s, "Boss Bat"), cid(s, "Ed the Undying")
    give_lasting(s, 0, bat)
    give_lasting(s, 0, ed)
    tonic = cid(s, "Vintage Fizzy Tonic")  # 3 mojo and draw a card
    give_item(s, 0, tonic)
    set_deck(s, 0, [])
    set_discard(s, 0, ["mus1"])
    act(s, f"use card={tonic}")  # the draw finds the deck empty: rollover
    assert s.phase == D_CURE and legal(s) == [f"cure card={bat}", f"cure card={ed}", "no-cure"]
    act(s, f"cure card={bat}")
    assert bat in s.gone and legal(s)[-1] == "no-upgrade"
    act(s, "no-upgrade")
    assert len(s.hand[0]) == 7 and not s.deck[0]
    act(s, "end-turn", "discard stat=mus1", "discard stat=mus1", "done")  # 5 cards: draw, rollover again
    assert s.phase == D_CURE and legal(s) == [f"cure card={ed}", "no-cure"]
