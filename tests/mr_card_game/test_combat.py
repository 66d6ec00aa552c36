"""K7 combat (the four steps, the score against each target, loot) and clarifications K15.3-K15.7."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardtable.games.mr_card_game.cards import BUNDLED, load_cards
from cardtable.games.mr_card_game.codes import D_DISCARD, D_TARGET
from cardtable.games.mr_card_game.effects import COMBAT_BONUS

from .helpers import act, cid, empty_pile, finish_turn, give_item, give_skill, legal, new, on_top, set_hand, targets


def test_k7_2_k15_4_a_maneuver_needs_a_stat_card_of_its_type() -> None:
    s = new(3)
    set_hand(s, 0, ["mus2", "mus1", "mus1", "mus1", "mus3", "mus1"])
    act(s, "combat")
    maneuvers = [t for t in legal(s) if t.startswith("maneuver")]
    assert maneuvers == [f"maneuver kind=melee stat=mus{v}" for v in (3, 2, 1)]
    set_hand(s, 0, ["mox2", "mys1", "mys1", "mys1", "mys1", "mys1"])
    maneuvers = [t for t in legal(s) if t.startswith("maneuver")]
    assert maneuvers == [
        "maneuver kind=spell stat=mys1",
        "maneuver kind=ranged stat=mox2",
        "maneuver kind=evade stat=mox2",
    ]


def test_k7_2_one_maneuver_of_one_type_its_cards_in_non_increasing_value() -> None:
    s = new(3)
    set_hand(s, 0, ["mus3", "mus1", "mus2", "mox2", "mys1", "mus3"])
    give_item(s, 0, cid(s, "Rat Trap Grenade"))
    act(s, "combat", "maneuver kind=melee stat=mus2")
    assert s.played[0] and s.psum == 2
    # No more combat items or skills, no other type: only Muscle of value 2 or less, or done.
    assert legal(s) == ["play stat=mus2", "play stat=mus1", "done"] or legal(s) == ["play stat=mus1", "done"]
    assert legal(s) == ["play stat=mus1", "done"]  # the only other mus2 was played
    act(s, "play stat=mus1")
    assert legal(s) == ["done"]
    assert s.psum == 3


def test_k7_3_an_attack_adds_cards_display_case_bonuses_and_step_1_damage() -> None:
    s = new(3)
    set_hand(s, 0, ["mus3", "mus2", "mox1", "mox1", "mys1", "mys1"])
    give_item(s, 0, cid(s, "Rat Trap Grenade"))
    give_skill(s, 0, cid(s, "Clubbing Practice"))  # passive: +1 melee
    act(s, "combat", f"use card={cid(s, 'Rat Trap Grenade')}", "maneuver kind=melee stat=mus3", "play stat=mus2")
    # 3 + 2 (cards) + 1 (Sweet Ninja Sword) + 1 (Clubbing Practice) + 3 (grenade damage).
    act(s, "done")
    scores = {row["score"] for row in targets(s).values() if row["element"] == "none"}
    assert scores == {10}


@pytest.mark.parametrize("adds", [False, True])
def test_k7_4_a2_evasion_adds_the_step_1_damage_only_by_option(adds: bool) -> None:
    s = new(3, evasion_adds_damage=adds)
    grenade = cid(s, "Rat Trap Grenade")
    give_item(s, 0, grenade)
    set_hand(s, 0, ["mox3", "mus1", "mus1", "mus1", "mys1", "mys1"])
    act(s, "combat", f"use card={grenade}", "maneuver kind=evade stat=mox3", "done")
    # 3 (Moxie) + 1 (Studded Leather Boxer Shorts: defense) [+ 3 damage].
    expected = 4 + (3 if adds else 0)
    assert {row["score"] for row in targets(s).values() if row["element"] == "none"} == {expected}
    # A1: Evasion plays Moxie, like a Ranged Attack.
    assert s.game.cards.skind[s.played[0][0]] == 8 + 2


def test_k7_6_the_score_differs_by_target_element_and_the_target_is_chosen_after_it() -> None:
    s = new(3)
    hamper, sasquatch = cid(s, "Haunted Hamper"), cid(s, "Strongman Sasquatch")  # 9 spooky, 9 no element
    on_top(s, hamper)
    on_top(s, sasquatch)
    give_item(s, 0, cid(s, "Jar Lid Helmet"), equipped=True)  # +1 defense, +2 defense against spooky
    set_hand(s, 0, ["mox3", "mox3", "mus1", "mus1", "mys1", "mys1"])
    act(s, "combat", "maneuver kind=evade stat=mox3", "play stat=mox3", "done")
    assert s.phase == D_TARGET
    rows = targets(s)
    # 6 (Moxie) + 1 (helmet) + 1 (boxer shorts) = 8; +2 against a spooky monster.
    assert rows["Haunted Hamper"]["score"] == 10 and rows["Haunted Hamper"]["beaten"] is True
    assert rows["Strongman Sasquatch"]["score"] == 8 and rows["Strongman Sasquatch"]["beaten"] is False
    assert f"kill card={hamper}" in legal(s) and f"kill card={sasquatch}" not in legal(s)
    assert legal(s)[-1] == "end-combat"


def test_k7_6_k15_7_a_monster_reduced_to_zero_is_beaten_without_a_score() -> None:
    s = new(3)
    ghost = cid(s, "Pickled Ghost")  # power 4
    on_top(s, ghost)
    globe = cid(s, "Snow Globe of Stasis")  # combat: reduce the power by 4
    give_item(s, 0, globe)
    act(s, "combat")
    assert f"kill card={ghost}" not in legal(s)
    act(s, f"use card={globe}")
    assert targets(s)["Pickled Ghost"]["power"] == 0
    assert f"kill card={ghost}" in legal(s)  # no maneuver, no score at all
    act(s, f"kill card={ghost}")
    assert ghost in s.items[0]


def test_k15_5_without_a_maneuver_the_score_is_the_damage_alone() -> None:
    s = new(3)
    grenade = cid(s, "Rat Trap Grenade")  # 3 damage
    # (the grenade is the item side of the Root Cellar Rat, so other monsters are the targets here)
    rat, cobweb = cid(s, "Cranky Potato Sack"), cid(s, "Lawn Gnome Militia")  # powers 3 and 4
    give_item(s, 0, grenade)
    on_top(s, rat)
    on_top(s, cobweb)
    give_skill(s, 0, cid(s, "Clubbing Practice"))  # +1 melee: does not count without a maneuver
    act(s, "combat", f"use card={grenade}")
    kills = [t for t in legal(s) if t.startswith("kill")]
    assert f"kill card={rat}" in kills and f"kill card={cobweb}" not in kills
    assert all(row["score"] == 3 for row in targets(s).values())


def test_k7_7_loot_meat_the_stat_card_and_the_item() -> None:
    s = new(3)
    bunny = cid(s, "Dust Bunny Brute")  # power 1, meat 1, drops a Muscle 1, item: a food
    on_top(s, bunny)
    li = s.game.cards.loc[bunny]
    set_hand(s, 0, ["mus1", "mus1", "mox1", "mox1", "mys1", "mys1"])
    mus1 = len(s.piles[0])
    act(s, "combat", "maneuver kind=melee stat=mus1", "done", f"kill card={bunny}")
    assert s.meat[0] == 6
    assert len(s.piles[0]) == mus1 - 1 and s.game.cards.skind[s.disc[0][-1]] == 0  # into the discard pile
    assert bunny in s.items[0] and s.top[li] == -1  # the location card shows until the map update
    assert s.phase == D_DISCARD  # one kill, then the end of the turn
    finish_turn(s)
    assert s.top[li] >= 0 and len(s.below[li]) == 6  # K11.2: the bottom card turned up


def test_k7_7_k13_2_an_empty_stat_pile_gives_nothing() -> None:
    s = new(3)
    boar = cid(s, "Barrel Boar")  # power 5, drops a Muscle 2
    on_top(s, boar)
    set_hand(s, 0, ["mus3", "mus2", "mox1", "mox1", "mys1", "mys1"])
    empty_pile(s, "mus2", to=2)
    hand = set(s.hand[0])
    act(s, "combat", "maneuver kind=melee stat=mus3", "play stat=mus2", "done", f"kill card={boar}")
    assert set(s.disc[0]) <= hand  # only the two played cards, now discarded: nothing gained
    assert boar in s.items[0] and s.meat[0] == 5 + 2
    assert any("pile is empty" in e for e in s.events(0))


def test_k7_7_a_skill_that_raises_meat_drops() -> None:
    s = new(3)
    bunny = cid(s, "Dust Bunny Brute")
    on_top(s, bunny)
    give_skill(s, 0, cid(s, "Seal-Hunter's Haul"))  # +1 meat per kill
    set_hand(s, 0, ["mus1", "mus1", "mox1", "mox1", "mys1", "mys1"])
    act(s, "combat", "maneuver kind=melee stat=mus1", "done", f"kill card={bunny}")
    assert s.meat[0] == 5 + 1 + 1


def test_k7_6_nothing_beaten_means_no_kill() -> None:
    s = new(3)
    set_hand(s, 0, ["mox1", "mus1", "mus1", "mus1", "mys1", "mys1"])
    for li in s.game.cards.kingdom:
        s.top[li], s.below[li] = -1, (s.top[li], *s.below[li])
    act(s, "combat", "maneuver kind=ranged stat=mox1", "done")
    assert legal(s) == ["end-combat"]


def test_damage_equal_to_equipment_power() -> None:
    s = new(3)
    smack, hammer = cid(s, "Thrust-Smack"), cid(s, "Forge Hammer of Reckoning")  # anvil 4
    give_skill(s, 0, smack)
    give_item(s, 0, hammer, equipped=True)
    set_hand(s, 0, ["mys1", "mus1", "mus1", "mus1", "mox1", "mox1"])
    act(s, "combat", "mojo stat=mys1", f"skill card={smack}")
    assert s.dmg == 4


def test_icons_on_a_combat_skill_count_in_the_combat_it_is_used(tmp_path: Path) -> None:
    skill = 'name = "Mirrorball Flash"\nclass = "disco-bandit"\nsubtype = "skill"\ncost = 4\n'
    assert skill in BUNDLED.read_text()
    text = BUNDLED.read_text().replace(skill, skill + "bonus = { ranged = 2 }\n")
    path = tmp_path / "icons.toml"
    path.write_text(text)
    cards = load_cards(path)
    flash = next(i for i in cards.skills if cards.iname[i] == "Mirrorball Flash")
    assert (COMBAT_BONUS, 2, 2, 0) in cards.effects[flash] and cards.icons[flash] == (0, 0, 0, 0)


def test_k3_4_once_combat_has_started_no_non_combat_action_is_possible() -> None:
    s = new(3)
    give_skill(s, 0, cid(s, "Blubber Armor"))
    give_item(s, 0, cid(s, "Daisy Chain Salad"))
    set_hand(s, 0, ["mys2", "mus1", "mus1", "mox1", "mox1", "mox1"])
    assert any(t.startswith(("equip", "unequip", "autosell", "use", "train", "buff")) for t in legal(s))
    act(s, "combat")
    kinds = {t.split()[0] for t in legal(s)}
    assert kinds <= {"use", "skill", "mojo", "maneuver", "kill", "end-combat"}
    assert not [t for t in legal(s) if t.startswith("use")]  # the salad is a non-combat item
