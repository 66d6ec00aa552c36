"""S1 Mr. Store items, O5 accessories and the three-equipment limit, and the O7 Pulverize and O8
AutoSell clarifications as the supplemental rules give them (the rulebook's own examples: Boris'
Helm left out without familiars, a pulverized Mr. Store item returning face down, a fourth equipment
forcing an unequip)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cardtable.engine import IllegalAction, MalformedAction, Rng
from cardtable.games.mr_card_game.cards import K_STORE
from cardtable.games.mr_card_game.codes import D_COMBAT, D_NONCOMBAT, D_POLL, D_UNEQUIP
from cardtable.games.mr_card_game.state import McgState

from .helpers import (
    act,
    cid,
    conserved,
    finish_turn,
    give_item,
    give_skill,
    give_store,
    legal,
    new,
    ready,
    set_hand,
    texts,
    view_text,
)

STORE: dict[str, Any] = {"mr-store": True}


def _names(s: McgState, cards: Any) -> list[str]:
    return [s.game.cards.iname[x] for x in cards]


def _snapshot(s: McgState) -> tuple[str, list[str], int]:
    return view_text(s, None), legal(s), len(s.history)


def _refused(s: McgState, text: str, error: type[Exception] = IllegalAction) -> str:
    """``text`` is refused with ``error`` and the state is unchanged; returns the message."""
    before = _snapshot(s)
    with pytest.raises(error) as info:
        s.apply(text)
    assert _snapshot(s) == before
    return str(info.value)


def _until_poll(s: McgState) -> None:
    while s.phase != D_POLL and not s.is_over:
        options = legal(s)
        s.apply(next((t for t in ("end-turn", "done", "no-upgrade") if t in options), options[0]))


# -- S1.1 setup and hidden information ---------------------------------------------------------------


def test_s1_1_three_store_items_dealt_face_down_to_each_player_and_the_rest_set_aside() -> None:
    s = new(4, **STORE)
    c = s.game.cards
    dealt = [x for p in range(4) for x in s.store[p]]
    assert all(len(s.store[p]) == 3 for p in range(4))
    assert all(c.kind[x] == K_STORE for x in dealt)
    assert sorted(dealt + list(s.store_aside)) == sorted(s.game.in_store)
    assert len(s.store_aside) == len(s.game.in_store) - 12
    assert not any(s.items[p] for p in range(4) if set(s.items[p]) & set(dealt))
    assert conserved(s)
    # Without the option, every Mr. Store item stays in the box.
    core = new(4)
    assert set(c.store) <= set(core.box) and not any(core.store)


def test_s1_1_s1_5_face_down_store_items_are_hidden_from_the_other_seats() -> None:
    s = new(3, **STORE)
    mine = _names(s, s.store[0])
    # The owner sees them in the view and in the setup event; nobody else does.
    assert [d["name"] for d in s.view(0)["store"]] == mine
    assert s.view(0)["players"][0]["store_face_down"] == 3
    for seat in (1, 2, None):
        text = view_text(s, seat)
        assert not any(name in text for name in mine), seat
        row = s.view(seat)["players"][0]
        assert row["store_face_down"] == 3 and row["store_known_face_down"] == []
        assert not any(name in texts(s, seat) for name in mine)
        assert not set(s.store[0]) & s.known_cards(seat)
    assert all(name in texts(s, 0) for name in mine)
    assert set(s.store[0]) <= s.known_cards(0)
    assert not set(s.store_aside) & s.known_cards(0)  # the items set aside: nobody has seen them


def test_s1_1_determinize_pools_the_store_items_nobody_else_has_seen() -> None:
    s = new(3, **STORE)
    own = s.store[1]
    others = sorted((*s.store[0], *s.store[2], *s.store_aside))
    moved = False
    for seed in range(12):
        d = s.determinize(1, Rng(seed))
        assert isinstance(d, McgState)
        assert d.store[1] == own  # the seat's own items stay
        assert [len(d.store[p]) for p in range(3)] == [3, 3, 3] and len(d.store_aside) == len(s.store_aside)
        assert sorted((*d.store[0], *d.store[2], *d.store_aside)) == others
        assert view_text(d, 1) == view_text(s, 1)
        moved |= d.store[0] != s.store[0]
    assert moved  # the hidden items really are resampled


def test_s1_1_store_filter_leaves_out_boris_helm_without_familiars() -> None:
    """The rulebook's example: Boris' Helm gives +1 to a familiar's weight; with no familiars in play
    ``store-filter`` (the default) leaves it out, and the other items needing absent components."""
    s = new(3, **STORE)
    c = s.game.cards
    helm = cid(s, "Boris' Helm")
    kit = cid(s, "Cure-All Apothecary Kit")  # needs the bosses (a cure for negative effects)
    assert helm not in s.game.in_store and helm in s.box
    assert kit not in s.game.in_store and kit in s.box
    assert all("familiars" not in c.requires[x] for x in s.game.in_store)
    # With the bosses in play the kit is in; the helm never is (familiars are never in play, A49).
    with_bosses = new(3, bosses=True, **STORE)
    assert kit in with_bosses.game.in_store and helm not in with_bosses.game.in_store
    # store-filter=false plays with every item.
    unfiltered = new(3, **{"store-filter": False}, **STORE)
    assert set(unfiltered.game.in_store) == set(c.store)
    assert helm not in unfiltered.box and kit not in unfiltered.box
    # Five players need fifteen items after the filter: exactly enough.
    five = new(5, **STORE)
    assert sum(len(x) for x in five.store) == 15 and five.store_aside == ()


# -- S1.2 revealing ----------------------------------------------------------------------------------


def _store_setup(s: McgState, name: str, meat: int) -> int:
    """Give P1 the named Mr. Store item face down and ``meat`` meat."""
    card = cid(s, name)
    give_store(s, 0, card)
    s.meat[0] = meat
    ready(s)
    return card


def test_s1_2_a_face_down_item_is_revealed_into_the_display_case_for_its_meat_cost() -> None:
    s = new(3, **STORE)
    pendant = _store_setup(s, "Li'l Ninja Pendant", 4)  # costs 5
    assert s.game.cards.price[pendant] == 5
    assert f"reveal card={pendant}" not in legal(s)
    message = _refused(s, f"reveal card={pendant}")
    assert "costs 5 meat and you have 4" in message
    s.meat[0] = 6
    ready(s)
    assert f"reveal card={pendant}" in legal(s)
    act(s, f"reveal card={pendant}")
    assert s.meat[0] == 1 and pendant in s.items[0] and pendant not in s.store[0]
    assert len(s.store[0]) == 3  # the three dealt plus the one given, less the one revealed
    # Public once revealed: every seat sees it in P1's display case and the event names it.
    for seat in (1, 2, None):
        assert pendant in [d["id"] for d in s.view(seat)["players"][0]["display_case"]]
        assert "Li'l Ninja Pendant" in texts(s, seat)
        assert pendant in s.known_cards(seat)
    assert conserved(s)


def test_s1_2_bad_reveals_are_refused_and_change_nothing() -> None:
    s = new(3, **STORE)
    theirs = s.store[1][0]
    s.meat[0] = 30
    ready(s)
    # Another player's item and an item set aside get the same words, naming neither.
    for card in (theirs, s.store_aside[0]):
        message = _refused(s, f"reveal card={card}")
        assert message.endswith(f"card {card} is not one of your face-down Mr. Store items")
        assert s.game.cards.iname[card] not in message
    _refused(s, "reveal card=banana", MalformedAction)
    _refused(s, "reveal", MalformedAction)
    # Not in combat: the combat phase is no non-combat opportunity.
    act(s, "combat")
    assert s.phase == D_COMBAT and not any(t.startswith("reveal") for t in legal(s))
    assert "only in a non-combat phase" in _refused(s, f"reveal card={s.store[0][0]}")


def test_s1_2_a28_store_items_can_be_revealed_in_the_march_non_combat_phase() -> None:
    s = new(3, **STORE)
    _until_poll(s)
    act(s, "march")  # P1 announces; the March's non-combat phases begin with P2
    p = s.current_player
    assert p is not None
    assert s.phase == D_NONCOMBAT
    s.meat[p] = 20
    ready(s)
    cards = s.store[p]
    assert {f"reveal card={x}" for x in cards} <= set(legal(s))
    act(s, f"reveal card={cards[0]}")
    assert cards[0] in s.items[p]


# -- S1.3 never AutoSold, never in the Heap ----------------------------------------------------------


def test_s1_3_o8_a_revealed_store_item_is_never_autosold() -> None:
    s = new(3, **STORE)
    boots = _store_setup(s, "Boots of Backwards Walking", 10)
    act(s, f"reveal card={boots}")
    assert not any(t == f"autosell card={boots}" for t in legal(s))
    assert "can never be sold" in _refused(s, f"autosell card={boots}")
    # It works like any pants: equipped in place of the newbie pants.
    act(s, f"equip card={boots}")
    assert s.view(0)["players"][0]["bonuses"]["ranged"] == 2
    case = {d["id"]: d for d in s.view(0)["players"][0]["display_case"]}
    assert case[boots]["autosell"] is None


@pytest.mark.parametrize("used", ["facedown", "removed"])
def test_s1_3_a44_a_used_store_consumable_never_reaches_the_heap(used: str) -> None:
    s = new(3, store_used=used, **STORE)
    lunch = _store_setup(s, "Bottomless Lunchbox", 5)  # food: gain a stat card of value 2
    act(s, f"reveal card={lunch}", f"use card={lunch}")
    assert lunch not in s.items[0] and lunch not in s.escrow[0]
    act(s, "choose type=mus")
    finish_turn(s)
    assert lunch not in s.heap
    if used == "facedown":
        # Back face down to its owner, its identity now public; it may be bought again.
        assert lunch in s.store[0] and lunch not in s.gone
        assert lunch in s.known_cards(1)
        assert [d["id"] for d in s.view(1)["players"][0]["store_known_face_down"]] == [lunch]
        d = s.determinize(1, Rng(3))
        assert isinstance(d, McgState) and lunch in d.store[0]
    else:
        assert lunch in s.gone and lunch not in s.store[0]
    assert conserved(s)


def test_s1_3_a44_a_store_combat_item_used_in_combat_goes_back_face_down() -> None:
    s = new(3, **STORE)
    storm = _store_setup(s, "Pocket Thunderstorm", 5)  # combat item: 5 damage
    act(s, f"reveal card={storm}", "combat")
    assert f"use card={storm}" in legal(s)
    act(s, f"use card={storm}")
    assert storm in s.store[0] and storm not in s.items[0] and s.pub >> storm & 1
    assert s.view(0)["combat"]["damage"] == 5  # it did its work before going back
    finish_turn(s)
    assert storm not in s.heap and storm in s.store[0]
    assert conserved(s)


def test_s1_2_a16_the_reveal_price_goes_back_to_a_finite_meat_pool() -> None:
    s = new(3, meat_supply=40, **STORE)
    pendant = cid(s, "Li'l Ninja Pendant")  # costs 5
    give_store(s, 0, pendant)
    s.pool -= 5 - s.meat[0]  # P1 takes 5 meat from the supply
    s.meat[0] = 5
    ready(s)
    pool = s.pool
    assert s.pool + sum(s.meat) == 40
    act(s, f"reveal card={pendant}")
    assert s.meat[0] == 0 and s.pool == pool + 5
    assert s.pool + sum(s.meat) == 40


def test_s1_3_store_items_never_reach_the_heap_in_random_games() -> None:
    """Whatever happens (pulverized, used, sold items, ascension-free games with every component),
    no Mr. Store item ever lies in the Heap, in escrow or in a location pile."""
    game_options = {"mr-store": True, "store-filter": False, "bosses": True, "nemesis": True}
    for seed in range(3):
        s = new(3, seed=seed, **game_options)
        store = set(s.game.cards.store)
        r = Rng(seed)
        while not s.is_over and len(s.history) < 500:
            actions = s.legal_actions()
            # Reveal whenever possible so the items do get played with.
            reveals = [a for a in actions if a.text.startswith("reveal")]
            s.apply(reveals[0] if reveals else actions[r.below(len(actions))])
            assert not store & set(s.heap)
            assert not any(store & set(s.escrow[p]) for p in range(3))
            assert not any(store & set(pile) for pile in s.below)
        assert conserved(s)


# -- O7 Pulverize ------------------------------------------------------------------------------------


def _pulverize(s: McgState) -> int:
    pulverize = cid(s, "Pulverize")
    give_skill(s, 0, pulverize)
    set_hand(s, 0, ["mys1", "mus1", "mus1", "mox1", "mox1", "mox1"])
    act(s, "mojo stat=mys1", f"skill card={pulverize}")
    return pulverize


def test_o7_3_s1_4_a_pulverized_store_item_returns_face_down_to_its_owner() -> None:
    s = new(3, **STORE)
    crossbow = _store_setup(s, "Clockwork Crossbow of Ages", 9)  # anvil 3
    act(s, f"reveal card={crossbow}")
    assert s.meat[0] == 0
    _pulverize(s)
    assert f"target card={crossbow}" in legal(s)
    act(s, f"target card={crossbow}", "choose type=mox")
    assert s.game.cards.skind[s.disc[0][-1]] == 8 + 2  # Moxie 3: the item's power (O7.2)
    assert crossbow in s.store[0] and crossbow not in s.items[0] and crossbow not in s.escrow[0]
    # Face down again, but everyone saw it go back: its identity is public now.
    for seat in (1, 2):
        known = s.view(seat)["players"][0]["store_known_face_down"]
        assert [d["id"] for d in known] == [crossbow]
        assert crossbow in s.known_cards(seat)
    finish_turn(s)
    assert crossbow not in s.heap and crossbow in s.store[0]
    # S1.4 (interp.): it may be bought again for its cost.
    while s.current_player != 0:
        finish_turn(s)
    s.meat[0] = 9
    ready(s)
    assert f"reveal card={crossbow}" in legal(s)
    assert conserved(s)


def test_o7_1_pulverize_targets_any_anvil_item_equipped_or_not_but_never_board_equipment() -> None:
    s = new(3, classes="boards")
    act(s, "side face=class", "side face=plain", "side face=plain")
    board_items = [x for x in s.items[0] if s.game.cards.kind[x] != K_STORE]
    cleaver = cid(s, "Overseer's Cleaver")
    give_item(s, 0, cleaver)  # unequipped
    _pulverize(s)
    targets = [t for t in legal(s) if t.startswith("target")]
    assert targets == [f"target card={cleaver}"]  # board equipment is printed on the board (A43)
    before = s.snapshot()
    with pytest.raises(IllegalAction, match=r"is printed on your class board and cannot be destroyed \(A43\)"):
        s.apply(f"target card={board_items[0]}")
    assert s.snapshot() == before
    assert all(s.eq >> x & 1 for x in board_items)


# -- O8 AutoSell -------------------------------------------------------------------------------------


def test_o8_1_only_items_with_an_autosell_value_are_sold_whenever_non_combat_actions_are_allowed() -> None:
    s = new(3, **STORE)
    c = s.game.cards
    accessory = _store_setup(s, "Mr. Accessory", 10)
    act(s, f"reveal card={accessory}")
    sells = {t for t in legal(s) if t.startswith("autosell")}
    assert sells == {f"autosell card={x}" for x in s.items[0] if c.autosell[x] >= 0}
    assert f"autosell card={accessory}" not in sells and len(sells) == 3
    # In the March's non-combat phase too.
    _until_poll(s)
    act(s, "march")
    p = s.current_player
    assert p is not None
    assert {f"autosell card={x}" for x in s.items[p] if c.autosell[x] >= 0} <= set(legal(s))


# -- O5 accessories and the three-equipment limit ----------------------------------------------------


def test_o5_2_a_fourth_equipment_forces_an_unequip_at_once() -> None:
    s = new(3, **STORE)
    accessory = _store_setup(s, "Mr. Accessory", 10)
    sword, hat, pants = s.items[0][:3]
    act(s, f"reveal card={accessory}")
    # Three pieces of newbie gear are equipped: the accessory arrives unequipped.
    assert not s.eq >> accessory & 1 and all(s.eq >> x & 1 for x in (sword, hat, pants))
    act(s, f"equip card={accessory}")
    assert s.phase == D_UNEQUIP and s.current_player == 0
    assert sorted(legal(s)) == sorted(f"unequip card={x}" for x in (sword, hat, pants))
    assert "P1" in s.view(1)["prompt"] and "unequip" in s.view(0)["prompt"]
    # Nothing else may happen first, and the new accessory is not among the choices.
    _refused(s, "end-turn")
    assert "was just equipped" in _refused(s, f"unequip card={accessory}")
    assert "first unequip one of the others" in _refused(s, f"equip card={sword}")
    act(s, f"unequip card={hat}")
    assert s.phase == D_NONCOMBAT
    assert {x for x in s.items[0] if s.eq >> x & 1} == {sword, pants, accessory}
    assert s.view(0)["players"][0]["bonuses"]["melee"] == 1 + 1  # the sword and the accessory
    assert s.view(0)["players"][0]["bonuses"]["spell"] == 1  # the accessory (the hat is off)


def test_o5_2_any_number_of_accessories_within_three_equipment() -> None:
    s = new(3, **{"store-filter": False}, **STORE)
    pendant = _store_setup(s, "Li'l Ninja Pendant", 0)
    signet = _store_setup(s, "Brushed Tin Signet", 12)
    sword, hat, pants = s.items[0][:3]
    act(s, f"reveal card={pendant}", f"reveal card={signet}")
    act(s, f"unequip card={hat}", f"unequip card={pants}")
    act(s, f"equip card={pendant}", f"equip card={signet}")
    assert s.phase == D_NONCOMBAT  # three pieces: no forced choice
    assert {x for x in s.items[0] if s.eq >> x & 1} == {sword, pendant, signet}
    # Equipping a hat now swaps nothing out of its (empty) slot but makes four: a forced unequip.
    act(s, f"equip card={hat}")
    assert s.phase == D_UNEQUIP
    act(s, f"unequip card={pendant}")
    assert {x for x in s.items[0] if s.eq >> x & 1} == {sword, hat, signet}
    # A weapon, hat or pants for an occupied slot only swaps: still three, no forced choice.
    cudgel = cid(s, "Turnip Cudgel")
    give_item(s, 0, cudgel)
    act(s, f"equip card={cudgel}")
    assert s.phase == D_NONCOMBAT and {x for x in s.items[0] if s.eq >> x & 1} == {cudgel, hat, signet}


def test_o5_2_a4_new_equipment_is_not_equipped_by_itself_when_three_are_already_equipped() -> None:
    s = new(3, **STORE)
    accessory = _store_setup(s, "Mr. Accessory", 10)
    sword = s.items[0][0]
    act(s, f"unequip card={sword}", f"reveal card={accessory}")
    assert s.eq >> accessory & 1  # a free place: equipped at once (new-equipment=equip-if-free)
    cudgel = cid(s, "Turnip Cudgel")
    s.heap = (cudgel,)
    s.box = tuple(x for x in s.box if x != cudgel)
    for li in range(len(s.top)):
        if s.top[li] == cudgel:
            s.top[li] = -1
        s.below[li] = tuple(x for x in s.below[li] if x != cudgel)
    s.meat[0] = 10
    ready(s)
    assert conserved(s)
    act(s, f"dive card={cudgel}")
    # Its weapon slot is empty, but three pieces are equipped: it arrives unequipped, no choice.
    assert s.phase == D_NONCOMBAT and not s.eq >> cudgel & 1
    assert sum(1 for x in s.items[0] if s.eq >> x & 1) == 3


def test_o5_1_accessories_are_equipped_only_in_a_non_combat_phase_and_work_only_equipped() -> None:
    s = new(3, **STORE)
    accessory = _store_setup(s, "Mr. Accessory", 10)
    act(s, f"reveal card={accessory}")
    before = s.view(0)["players"][0]["bonuses"]
    assert before["ranged"] == 0  # unequipped: no bonus
    act(s, "combat")
    assert not any(t.startswith("equip") for t in legal(s))
    _refused(s, f"equip card={accessory}")


def test_a27_class_board_equipment_counts_towards_the_three() -> None:
    s = new(3, classes="boards", **STORE)
    act(s, "side face=class", "side face=plain", "side face=plain")
    board = [x for x in s.items[0] if s.eq >> x & 1]
    assert len(board) == 3
    accessory = _store_setup(s, "Mr. Accessory", 10)
    act(s, f"reveal card={accessory}", f"equip card={accessory}")
    assert s.phase == D_UNEQUIP
    assert sorted(legal(s)) == sorted(f"unequip card={x}" for x in board)


def test_s1_view_json_names_no_face_down_card_of_another_seat_in_play() -> None:
    """Over a random game with reveals and pulverizes, another seat never sees a face-down item whose
    identity is not public."""
    s = new(3, seed=4, **STORE)
    r = Rng(9)
    while not s.is_over and len(s.history) < 300:
        for seat in range(3):
            shown = json.dumps(s.view(seat))
            for p in range(3):
                if p == seat:
                    continue
                for x in s.store[p]:
                    if not s.pub >> x & 1:
                        assert f'"id": {x},' not in shown, (seat, x)
        actions = s.legal_actions()
        s.apply(actions[r.below(len(actions))])


def test_s1_the_terminal_shows_the_own_face_down_items_and_only_counts_of_the_others() -> None:
    import io

    from rich.console import Console

    from cardtable.cli.render import RenderContext, renderer_for

    s = new(3, **STORE)

    def screen(seat: int) -> str:
        out = io.StringIO()
        Console(file=out, width=120, force_terminal=False).print(
            renderer_for("mr-card-game")(s.view(seat), RenderContext(s.game, seat))
        )
        return out.getvalue()

    mine = _names(s, s.store[0])
    assert all(name[:12] in screen(0) for name in mine) and "Mr. Store, face down" in screen(0)
    assert not any(name[:12] in screen(1) for name in mine) and "P1 ★ [3 MrS]" in screen(1)
