"""K5 mojo (one Mysticality card split over several costs, nothing carried to the next phase), K4.7
non-combat skills once a turn, K4.8/K6 buffs, K5.4 the Spell Attack ability's X."""

from __future__ import annotations

from cardtable.games.mr_card_game.state import McgState

from .helpers import act, cid, finish_turn, give_item, give_skill, legal, new, set_deck, set_discard, set_hand


def _mojo(s: McgState) -> int:
    view = s.view(0)
    return int(view["players"][0]["mojo"])


def test_k5_one_mysticality_card_pays_several_costs_in_the_same_phase() -> None:
    s = new(3)
    armor, walrus = cid(s, "Blubber Armor"), cid(s, "Rage of the Walrus")  # buffs: 1 and 2 mojo
    give_skill(s, 0, armor)
    give_skill(s, 0, walrus)
    set_hand(s, 0, ["mys3", "mus1", "mus1", "mus1", "mox1", "mox1"])
    assert f"buff card={armor}" not in legal(s)  # the pool is empty: make mojo first
    act(s, "mojo stat=mys3")
    assert _mojo(s) == 3 and len(s.disc[0]) == 1  # the card is in the discard pile
    act(s, f"buff card={armor}")
    assert _mojo(s) == 2
    act(s, f"buff card={walrus}")
    assert _mojo(s) == 0
    assert s.buffs >> armor & 1 and s.buffs >> walrus & 1
    assert len(s.disc[0]) == 1  # one card paid both costs


def test_k5_3_mojo_is_not_carried_into_the_next_phase() -> None:
    s = new(3)
    armor, smack = cid(s, "Blubber Armor"), cid(s, "Thrust-Smack")  # a 1-mojo buff, a 1-mojo combat skill
    give_skill(s, 0, armor)
    give_skill(s, 0, smack)
    set_hand(s, 0, ["mys3", "mus1", "mus1", "mus1", "mox1", "mox1"])
    act(s, "mojo stat=mys3", f"buff card={armor}")
    assert _mojo(s) == 2
    act(s, "combat")
    assert _mojo(s) == 0  # the non-combat phase ended: its pool is gone
    assert f"skill card={smack}" not in legal(s)


def test_k5_3_mojo_made_in_combat_is_gone_after_it() -> None:
    s = new(3)
    smack = cid(s, "Thrust-Smack")
    give_skill(s, 0, smack)
    set_hand(s, 0, ["mys2", "mus1", "mus1", "mus1", "mox1", "mox1"])
    act(s, "combat", "mojo stat=mys2", f"skill card={smack}")
    assert _mojo(s) == 1 and s.dmg == 1  # the Sweet Ninja Sword's power
    act(s, "end-combat")
    assert s.mojo == 0 and _mojo(s) == 0


def test_k5_mojo_is_offered_only_to_pay_for_something() -> None:
    s = new(3)
    set_hand(s, 0, ["mys3", "mys1", "mus1", "mus1", "mox1", "mox1"])
    assert not [t for t in legal(s) if t.startswith("mojo")]  # no skill that costs mojo
    give_skill(s, 0, cid(s, "Blubber Armor"))
    assert [t for t in legal(s) if t.startswith("mojo")] == ["mojo stat=mys1", "mojo stat=mys3"]


def test_k5_4_a_spell_attack_ability_costs_any_x_of_at_least_one() -> None:
    s = new(3)
    lance = cid(s, "Lasagna Lance")  # mojo X: X damage
    give_skill(s, 0, lance)
    set_hand(s, 0, ["mys3", "mys2", "mus1", "mus1", "mox1", "mox1"])
    act(s, "combat")
    assert f"skill card={lance}" not in legal(s)  # X must be at least 1
    act(s, "mojo stat=mys3", "mojo stat=mys2", f"skill card={lance}")
    assert legal(s) == [f"spend mojo={x}" for x in range(1, 6)]
    assert "choose X" in s.view(0)["prompt"]
    act(s, "spend mojo=4")
    assert s.dmg == 4 and _mojo(s) == 1
    assert f"skill card={lance}" not in legal(s)  # once a turn


def test_k4_7_a_non_combat_skill_works_once_per_turn() -> None:
    s = new(2)
    busking = cid(s, "Street Busking")  # 1 mojo: gain 2 meat
    give_skill(s, 0, busking)
    set_hand(s, 0, ["mys1", "mys1", "mys1", "mus1", "mox1", "mox1"])
    act(s, "mojo stat=mys1", "mojo stat=mys1", f"skill card={busking}")
    assert s.meat[0] == 7
    assert f"skill card={busking}" not in legal(s) and _mojo(s) == 1
    finish_turn(s)
    finish_turn(s)
    set_hand(s, 0, ["mys1", "mus1", "mus1", "mus1", "mox1", "mox1"])
    act(s, "mojo stat=mys1")
    assert f"skill card={busking}" in legal(s)


def test_k4_8_k6_1_a_buff_adds_its_bonus_while_on_and_cannot_be_turned_on_twice() -> None:
    s = new(3)
    walrus = cid(s, "Rage of the Walrus")  # buff, 2 mojo: +3 melee
    give_skill(s, 0, walrus)
    set_hand(s, 0, ["mys4", "mys2", "mus1", "mus1", "mox1", "mox1"])
    assert s.view(0)["players"][0]["bonuses"]["melee"] == 1
    act(s, "mojo stat=mys4", f"buff card={walrus}")
    assert s.view(0)["players"][0]["bonuses"]["melee"] == 4
    assert _mojo(s) == 2 and f"buff card={walrus}" not in legal(s)
    # It stays on through the following turns (until a rollover or the March).
    finish_turn(s)
    assert s.buffs >> walrus & 1


def test_k6_2_buffs_turn_off_at_rollover() -> None:
    s = new(2)
    walrus = cid(s, "Rage of the Walrus")
    give_skill(s, 0, walrus, active=True)
    set_hand(s, 0, ["mus1", "mus1", "mox1", "mox1", "mys1"])
    set_deck(s, 0, [])  # the end-of-turn draw must roll over
    set_discard(s, 0, ["mus1", "mus1", "mox1", "mox1", "mys1", "mys1"])
    act(s, "end-turn", "done")
    assert s.upg_roll and not s.buffs >> walrus & 1
    assert "rollover" in s.view(0)["prompt"]
    assert s.view(0)["players"][0]["bonuses"]["melee"] == 1


def test_k6_3_a18_a_buff_turned_off_mid_turn_may_be_turned_on_again() -> None:
    s = new(2)
    walrus, encore = cid(s, "Rage of the Walrus"), cid(s, "Encore Performance")  # Encore: 2 mojo, draw 2
    give_skill(s, 0, walrus, active=True)
    give_skill(s, 0, encore)
    set_hand(s, 0, ["mys4", "mys2", "mus1", "mus1", "mox1", "mox1"])
    set_deck(s, 0, [])
    set_discard(s, 0, ["mus3", "mus3"])
    act(s, "mojo stat=mys4", f"skill card={encore}")
    # The draw hits rollover in the middle of the phase: buffs off, the upgrade decision, then drawing.
    assert s.upg_roll and not s.buffs >> walrus & 1
    act(s, "no-upgrade")
    assert len(s.hand[0]) == 5 + 2 and s.current_player == 0
    assert f"buff card={walrus}" in legal(s)  # 2 mojo left in the pool
    act(s, f"buff card={walrus}")
    assert s.buffs >> walrus & 1


def test_k7_1_a_combat_item_goes_to_escrow() -> None:
    s = new(3)
    grenade = cid(s, "Rat Trap Grenade")  # combat: 3 damage
    give_item(s, 0, grenade)
    assert f"use card={grenade}" not in legal(s)  # combat items only in combat
    act(s, "combat", f"use card={grenade}")
    assert s.dmg == 3 and grenade in s.escrow[0]
