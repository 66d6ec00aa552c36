"""K4 the non-combat actions A-G in any number and order, O7 Pulverize, O8 AutoSell, K15.1/K15.2."""

from __future__ import annotations

import random

import pytest

from cardtable.engine import IllegalAction
from cardtable.games.mr_card_game.codes import D_NONCOMBAT

from .helpers import act, cid, conserved, finish_turn, give_item, give_skill, legal, new, set_hand, set_trainer, to_heap


def test_k4_1_equip_swaps_the_item_in_its_slot_and_unequipped_items_stay() -> None:
    s = new(3)
    cudgel = cid(s, "Turnip Cudgel")
    sword = s.items[0][0]
    give_item(s, 0, cudgel)
    assert s.view(0)["players"][0]["bonuses"]["melee"] == 1
    assert f"equip card={cudgel}" in legal(s) and f"unequip card={sword}" in legal(s)
    act(s, f"equip card={cudgel}")
    assert s.eq >> cudgel & 1 and not s.eq >> sword & 1
    assert sword in s.items[0]  # unequipped items stay in the display case, any number of them
    assert s.view(0)["players"][0]["bonuses"]["melee"] == 2
    case = {d["id"]: d for d in s.view(0)["players"][0]["display_case"]}
    assert case[cudgel]["equipped"] and not case[sword]["equipped"]
    act(s, f"unequip card={cudgel}")
    assert s.view(0)["players"][0]["bonuses"]["melee"] == 0
    # At most one weapon, hat and pants equipped at a time, whatever is done.
    c = s.game.cards
    for slot in (0, 1, 2):
        assert sum(1 for x in s.items[0] if s.eq >> x & 1 and c.slot[x] == slot) <= 1


def test_k15_1_unequipped_equipment_gives_nothing() -> None:
    s = new(3)
    helmet = cid(s, "Jar Lid Helmet")  # evade +1, passive: spooky resistance +2
    give_item(s, 0, helmet)
    bonuses = s.view(0)["players"][0]["bonuses"]
    assert bonuses["evade"] == 1 and "against" not in bonuses
    act(s, f"equip card={helmet}")
    bonuses = s.view(0)["players"][0]["bonuses"]
    assert bonuses["evade"] == 2 and bonuses["against"]["spooky"]["evade"] == 2
    # An unequipped item's ability cannot be used either.
    cap = cid(s, "Feathered Cap of Snark")
    give_item(s, 0, cap)
    assert f"use card={cap}" not in legal(s)
    act(s, f"equip card={cap}")
    assert f"use card={cap}" in legal(s)


def test_k4_3_autosell_puts_the_item_in_escrow_for_its_value() -> None:
    s = new(3)
    sword, hat = s.items[0][0], s.items[0][1]
    act(s, f"autosell card={sword}", f"autosell card={hat}")
    assert s.meat[0] == 5 + 1 + 1
    assert s.escrow[0] == (sword, hat) and sword not in s.items[0]
    assert [d["id"] for d in s.view(2)["players"][0]["escrow"]] == [sword, hat]  # escrow is public
    finish_turn(s)
    # K4.5, K8.2: escrow reaches the Heap at the end of the turn, in the order it was set aside.
    # mypy keeps s.escrow[0] narrowed to (sword, hat) across finish_turn, which empties it
    assert s.heap == (sword, hat) and s.escrow[0] == ()  # type: ignore[comparison-overlap]
    assert conserved(s)


def test_o8_an_item_without_an_autosell_value_cannot_be_sold() -> None:
    s = new(3)
    fedora = cid(s, "Pigeon-Feather Fedora")
    give_item(s, 0, fedora)
    assert f"autosell card={fedora}" not in legal(s)
    before = s.snapshot()
    with pytest.raises(IllegalAction):
        s.apply(f"autosell card={fedora}")
    assert s.snapshot() == before


def test_k4_4_using_a_food_sends_it_to_escrow_and_resolves_its_effect() -> None:
    s = new(3)
    cracker = cid(s, "Stale Cellar Cracker")  # food: gain a Muscle 1
    give_item(s, 0, cracker)
    mus1 = len(s.piles[0])
    act(s, f"use card={cracker}")
    assert cracker in s.escrow[0] and cracker not in s.items[0]
    assert len(s.piles[0]) == mus1 - 1 and s.game.cards.skind[s.disc[0][-1]] == 0


@pytest.mark.parametrize("mode", ["all", "consumables"])
def test_k4_4_use_consumes_decides_whether_equipment_abilities_use_up_the_item(mode: str) -> None:
    s = new(2, use_consumes=mode)
    cap = cid(s, "Feathered Cap of Snark")  # a hat with a non-combat ability: gain 1 meat
    give_item(s, 0, cap, equipped=True)
    act(s, f"use card={cap}")
    assert s.meat[0] == 6
    if mode == "all":
        assert cap in s.escrow[0] and cap not in s.items[0]
    else:
        assert cap in s.items[0] and s.eq >> cap & 1
        assert f"use card={cap}" not in legal(s)  # once a turn
        finish_turn(s)
        finish_turn(s)
        assert s.current_player == 0 and f"use card={cap}" in legal(s)


def test_k4_6_train_any_number_of_affordable_skills_a_buff_arrives_off() -> None:
    s = new(3)
    walrus, practice, haul = cid(s, "Rage of the Walrus"), cid(s, "Clubbing Practice"), cid(s, "Seal-Hunter's Haul")
    set_trainer(s, [walrus, practice, haul])
    s.meat[0] = 11
    s._legal = None
    # 6 + 4 = 10 <= 11; Seal-Hunter's Haul costs 7.
    assert {f"train card={walrus}", f"train card={practice}", f"train card={haul}"} <= set(legal(s))
    act(s, f"train card={walrus}", f"train card={practice}")
    assert s.meat[0] == 1 and s.skills[0] == (walrus, practice)
    assert f"train card={haul}" not in legal(s)  # not affordable any more
    assert not s.buffs >> walrus & 1
    skills = {d["name"]: d for d in s.view(1)["players"][0]["skills"]}
    assert skills["Rage of the Walrus"]["active"] is False
    assert s.view(0)["players"][0]["bonuses"]["melee"] == 2  # the passive works at once
    assert s.trainer == (-1, -1, haul)  # gaps until the map update


def test_k4_9_dumpster_dive_takes_the_top_of_the_heap_for_its_price() -> None:
    s = new(3)
    club, boots = cid(s, "Barrel Stave Club"), cid(s, "Burlap Breeches")
    to_heap(s, [club, boots])
    assert f"dive card={boots}" in legal(s) and f"dive card={club}" not in legal(s)
    act(s, f"dive card={boots}")
    assert s.meat[0] == 5 - 3 and boots in s.items[0] and s.heap == (club,)
    assert f"dive card={club}" not in legal(s)  # costs 4, 2 meat left


def test_k4_9_a_top_card_without_a_price_blocks_the_heap() -> None:
    s = new(3)
    leftovers = cid(s, "Questionable Leftovers")  # no meat cost
    to_heap(s, [cid(s, "Stale Cellar Cracker"), leftovers])
    assert not [t for t in legal(s) if t.startswith("dive")]


def test_k4_10_a_card_dived_from_the_heap_can_be_used_the_same_turn() -> None:
    s = new(3)
    salad = cid(s, "Daisy Chain Salad")
    to_heap(s, [salad])
    act(s, f"dive card={salad}", f"use card={salad}")
    assert salad in s.escrow[0]


def test_k4_10_an_item_used_this_turn_cannot_be_dived_back() -> None:
    s = new(3)
    salad = cid(s, "Daisy Chain Salad")
    give_item(s, 0, salad)
    act(s, f"use card={salad}")
    assert s.heap == () and f"dive card={salad}" not in legal(s)
    finish_turn(s)
    # On the Heap from the end of the turn: the next player may dive it. (mypy keeps s.heap narrowed to ()
    # across finish_turn, which fills it.)
    assert s.heap == (salad,)  # type: ignore[comparison-overlap]
    assert s.current_player == 1 and f"dive card={salad}" in legal(s)


@pytest.mark.parametrize("mode", ["equip-if-free", "unequipped"])
def test_k4_11_new_equipment_is_equipped_if_its_slot_is_free_by_option(mode: str) -> None:
    s = new(3, new_equipment=mode)
    hat = s.items[0][1]
    boater = cid(s, "Straw Boater")
    to_heap(s, [boater])
    act(s, f"autosell card={hat}", f"dive card={boater}")
    assert bool(s.eq >> boater & 1) == (mode == "equip-if-free")
    # An occupied slot: never equipped by itself.
    chaps = cid(s, "Badger-Fur Chaps")
    to_heap(s, [chaps])
    s.meat[0] = 10
    s._legal = None
    act(s, f"dive card={chaps}")
    assert not s.eq >> chaps & 1


def test_k4_any_number_in_any_order_then_combat_or_end_turn() -> None:
    s = new(3)
    sword, hat, pants = s.items[0]
    # (Putting the hat back on at once would return to an earlier arrangement: see the test below.)
    act(s, f"unequip card={hat}", f"autosell card={pants}", f"equip card={hat}", f"unequip card={sword}")
    assert s.current_player == 0 and {"combat", "end-turn"} <= set(legal(s))
    act(s, "end-turn")
    assert s.phase != 0 or s.current_player != 0 or "done" in legal(s)


def test_equipment_changes_never_return_to_an_earlier_arrangement() -> None:
    """Interpretation (docs/rules/mr-card-game.md, "Equipment changes never return to an earlier
    arrangement"): equipping and unequipping change nothing else, so going back to an arrangement
    held since the player's last other action is refused, and a turn can never cycle (issue 22:
    ``unequip card=100`` / ``equip card=100`` forever). Any other action makes every arrangement
    available again."""
    s = new(3)
    sword, hat, pants = s.items[0]
    act(s, f"unequip card={hat}")
    assert f"equip card={hat}" not in legal(s)  # the arrangement of a moment ago
    act(s, f"unequip card={sword}")
    assert f"equip card={hat}" in legal(s)  # sword off, hat on: not held yet this phase
    assert f"equip card={sword}" not in legal(s)
    act(s, f"equip card={hat}")  # hat and pants on
    assert f"unequip card={hat}" not in legal(s)  # pants alone: held a moment ago
    assert f"equip card={sword}" not in legal(s)  # all three: the arrangement the phase began with
    assert f"unequip card={pants}" in legal(s)  # the hat alone: new
    before = s.snapshot()
    circle = "would bring back an arrangement of equipment you have held since your last other action"
    with pytest.raises(IllegalAction, match=f"equipping Sweet Ninja Sword \\(card {sword}\\) {circle}"):
        s.apply(f"equip card={sword}")
    with pytest.raises(IllegalAction, match=f"unequipping .* \\(card {hat}\\) {circle}"):
        s.apply(f"unequip card={hat}")
    assert s.snapshot() == before
    act(s, f"autosell card={pants}")  # anything else: the arrangements are free again
    assert {f"unequip card={hat}", f"equip card={sword}"} <= set(legal(s))


def test_equipment_repeats_allowed_offers_every_change() -> None:
    """``equipment-repeats=allowed``: the rule as read before the reading above (records made then
    replay under it): unequipping and equipping the same piece back is offered again and again."""
    s = new(3, equipment_repeats="allowed")
    hat = s.items[0][1]
    for _ in range(3):
        act(s, f"unequip card={hat}")
        assert f"equip card={hat}" in legal(s)
        act(s, f"equip card={hat}")
        assert f"unequip card={hat}" in legal(s)


def test_a_turn_of_random_non_combat_actions_always_ends() -> None:
    """Whatever a player does in a non-combat phase, it never returns to an earlier position: a
    random player, never ending the phase, runs out of non-combat actions within a bound."""
    for seed in range(12):
        s = new(3, seed)
        rng = random.Random(seed)
        steps = 0
        while True:
            options = [a for a in legal(s) if a not in ("combat", "end-turn", "done")]
            if not options or s.current_player != 0 or s.phase != D_NONCOMBAT:
                break
            act(s, rng.choice(options))
            steps += 1
            assert steps < 200, "a non-combat phase went on for 200 decisions"


def test_o7_pulverize_destroys_an_anvil_item_for_a_stat_card_of_its_power() -> None:
    s = new(3)
    pulverize = cid(s, "Pulverize")
    give_skill(s, 0, pulverize)
    set_hand(s, 0, ["mys1", "mus1", "mus1", "mox1", "mox1", "mox1"])
    cleaver = cid(s, "Overseer's Cleaver")  # anvil 5
    give_item(s, 0, cleaver)
    act(s, "mojo stat=mys1", f"skill card={pulverize}")
    targets = [t for t in legal(s) if t.startswith("target")]
    assert f"target card={cleaver}" in targets and len(targets) == 4  # any item with an anvil (O7.1)
    theirs, grenade = s.items[1][0], cid(s, "Rat Trap Grenade")  # a combat item: no anvil
    give_item(s, 0, grenade)
    before = s.snapshot()
    with pytest.raises(IllegalAction, match=f"card {theirs} is not in your display case: Pulverize destroys one"):
        s.apply(f"target card={theirs}")
    with pytest.raises(IllegalAction, match=r"Rat Trap Grenade \(card 3\) has no power \(anvil\)"):
        s.apply(f"target card={grenade}")
    assert s.snapshot() == before
    act(s, f"target card={cleaver}")
    assert cleaver in s.escrow[0] and cleaver not in s.items[0]
    assert legal(s) == ["choose type=mus", "choose type=mys", "choose type=mox"]
    act(s, "choose type=mox")
    assert s.game.cards.skind[s.disc[0][-1]] == 8 + 3  # Moxie 4: its power 5, never above 4
    finish_turn(s)
    assert cleaver in s.heap  # through escrow to the Heap (O7.3)


def test_k15_2_pulverize_with_no_item_that_has_an_anvil_does_nothing() -> None:
    s = new(3)
    pulverize = cid(s, "Pulverize")
    give_skill(s, 0, pulverize)
    set_hand(s, 0, ["mys1", "mus1", "mus1", "mox1", "mox1", "mox1"])
    for card in s.items[0]:
        act(s, f"autosell card={card}")
    discard = list(s.disc[0])
    act(s, "mojo stat=mys1", f"skill card={pulverize}")
    assert s.current_player == 0 and "combat" in legal(s)  # ignored: no decision opened
    assert len(s.disc[0]) == len(discard) + 1  # only the Mysticality paid as mojo
    assert any("Pulverize does nothing" in e for e in s.events(0))
