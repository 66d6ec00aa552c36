"""K8 the end of a turn, K9 rollover, K13 stats (never above 4, empty piles)."""

from __future__ import annotations

from cardtable.games.mr_card_game.cards import STAT_KINDS
from cardtable.games.mr_card_game.codes import D_DISCARD, D_LIMIT, D_UPGRADE
from cardtable.games.mr_card_game.state import McgState

from .helpers import (
    act,
    cid,
    conserved,
    empty_pile,
    give_item,
    give_skill,
    kind,
    legal,
    new,
    on_top,
    set_deck,
    set_discard,
    set_hand,
)


def _kinds(s: McgState, cards: list[int]) -> list[str]:
    skind = s.game.cards.skind
    return sorted(STAT_KINDS[skind[x]] for x in cards)


def test_k8_1_k8_2_played_cards_are_discarded_and_escrow_goes_to_the_heap_in_order() -> None:
    s = new(3)
    salad, sword = cid(s, "Daisy Chain Salad"), s.items[0][0]
    give_item(s, 0, salad)
    bunny = cid(s, "Dust Bunny Brute")
    on_top(s, bunny)
    set_hand(s, 0, ["mus2", "mus1", "mox1", "mox1", "mys1", "mys1"])
    act(s, f"autosell card={sword}", f"use card={salad}")
    act(s, "combat", "maneuver kind=melee stat=mus2", "play stat=mus1", "done", f"kill card={bunny}")
    assert s.phase == D_DISCARD and s.played[0] == []
    assert _kinds(s, s.disc[0]) == ["mox1", "mus1", "mus1", "mus2"]  # the salad's Moxie, the kill's Muscle 1
    assert s.heap == (sword, salad)  # in the order set aside: the salad on top
    assert conserved(s)


def test_k8_3_k8_4_voluntary_discards_then_draw_up_to_six() -> None:
    s = new(3)
    set_hand(s, 0, ["mus1", "mus1", "mox1", "mox1", "mys1", "mys1"])
    act(s, "combat", "maneuver kind=ranged stat=mox1", "done", "end-combat")
    assert s.phase == D_DISCARD
    assert legal(s) == ["discard stat=mus1", "discard stat=mys1", "discard stat=mox1", "done"]
    act(s, "discard stat=mus1", "discard stat=mus1")
    assert len(s.hand[0]) == 3
    deck = len(s.deck[0])
    act(s, "done")
    assert len(s.hand[0]) == 6 and len(s.deck[0]) == deck - 3
    assert s.current_player == 1  # next player clockwise
    # The draw is private: the others read a count, the drawer the cards.
    drawn = [e for e in s.log or [] if e.kind == "draw"][-1]
    assert drawn.text == "P1 draws 3 cards" and drawn.private is not None and "(" in drawn.private
    assert s.events(1)[-10:] != s.events(0)[-10:]


def test_k8_4_more_than_six_cards_are_discarded_down_to_six() -> None:
    s = new(3)
    summoning = cid(s, "Spaghetti Summoning")  # 1 mojo: draw 2
    give_skill(s, 0, summoning)
    set_hand(s, 0, ["mys1", "mus1", "mus1", "mox1", "mox1", "mox2"])
    act(s, "mojo stat=mys1", f"skill card={summoning}")
    assert len(s.hand[0]) == 7
    act(s, "end-turn", "done")
    assert s.phase == D_LIMIT and "discard down to six" in s.view(0)["prompt"]
    assert "done" not in legal(s)
    act(s, legal(s)[0])
    assert len(s.hand[0]) == 6 and s.current_player == 1


def test_k9_rollover_offers_one_upgrade_or_exchange_never_above_4_nor_from_an_empty_pile() -> None:
    s = new(3)
    set_hand(s, 0, ["mus1", "mus1", "mox1", "mox1", "mys1"])
    set_deck(s, 0, [])
    set_discard(s, 0, ["mus4", "mys1", "mox2"])
    empty_pile(s, "mox3", to=2)
    act(s, "end-turn", "done")
    assert s.phase == D_UPGRADE and s.upg_roll
    options = set(legal(s))
    assert options == {
        "upgrade from=mus4 to=mys4",
        "upgrade from=mus4 to=mox4",
        "upgrade from=mys1 to=mys2",
        "upgrade from=mys1 to=mus1",
        "upgrade from=mys1 to=mox1",
        "upgrade from=mox2 to=mus2",
        "upgrade from=mox2 to=mys2",
        "no-upgrade",
    }
    # Never above 4 (clarification 6); not from the empty mox3 pile (K9.3).
    assert "upgrade from=mox2 to=mox3" not in options


def test_k9_3_k9_4_the_old_card_goes_back_to_its_pile_and_the_discard_pile_becomes_the_deck() -> None:
    s = new(3)
    set_hand(s, 0, ["mus1", "mus1", "mox1", "mox1", "mys1"])
    set_deck(s, 0, [])
    set_discard(s, 0, ["mys1", "mox2", "mus3"])
    mys1, mys2 = len(s.piles[kind("mys1")]), len(s.piles[kind("mys2")])
    act(s, "end-turn", "done", "upgrade from=mys1 to=mys2")
    assert len(s.piles[kind("mys1")]) == mys1 + 1 and len(s.piles[kind("mys2")]) == mys2 - 1
    # Shuffled into a new deck, and the draw went on: six in hand, the other two in the deck.
    assert len(s.hand[0]) == 6 and len(s.deck[0]) == 2 and s.disc[0] == []
    assert sorted(_kinds(s, s.hand[0][5:] + s.deck[0])) == ["mox2", "mus3", "mys2"]
    assert conserved(s)


def test_k9_5_with_deck_and_discard_pile_both_empty_the_draw_stops_short() -> None:
    s = new(3)
    set_hand(s, 0, ["mus1", "mus1", "mox1"])
    set_deck(s, 0, [])
    set_discard(s, 0, [])
    act(s, "end-turn", "done")
    assert len(s.hand[0]) == 3 and s.current_player == 1


def test_k9_1_k9_5_a_draw_from_an_empty_deck_is_a_rollover_even_with_nothing_to_shuffle() -> None:
    # K9.1: "whenever you must draw a card and you do not have cards in your character stat deck to
    # draw, you have hit rollover. At rollover, you deactivate any Buffs" -- the discard pile being
    # empty too leaves nothing to upgrade or shuffle, but the buffs still go off.
    s = new(3)
    walrus = cid(s, "Rage of the Walrus")
    give_skill(s, 0, walrus, active=True)
    set_hand(s, 0, ["mus1", "mus1", "mox1"])
    set_deck(s, 0, [])
    set_discard(s, 0, [])
    act(s, "end-turn", "done")
    assert not s.buffs >> walrus & 1
    assert len(s.hand[0]) == 3 and s.current_player == 1
    assert "P1 hits rollover (their buffs turn off)" in s.events(1)


def test_k9_an_extra_upgrade_at_each_rollover() -> None:
    s = new(3)
    give_skill(s, 0, cid(s, "Rollover Reprise"))  # passive: one extra upgrade at each rollover
    set_hand(s, 0, ["mus1", "mus1", "mox1", "mox1", "mys1"])
    set_deck(s, 0, [])
    set_discard(s, 0, ["mys1", "mox2", "mus3"])
    act(s, "end-turn", "done", "upgrade from=mus3 to=mus4")
    assert s.phase == D_UPGRADE  # a second one
    act(s, "upgrade from=mox2 to=mox3")
    assert len(s.hand[0]) == 6 and s.current_player == 1


def test_k13_1_an_upgrade_from_an_effect_has_no_shuffle() -> None:
    s = new(3)
    steady = cid(s, "Slow and Steady")  # 2 mojo: upgrade one card of your discard pile
    give_skill(s, 0, steady)
    set_hand(s, 0, ["mys2", "mus1", "mus1", "mox1", "mox1", "mox1"])
    set_discard(s, 0, ["mus2"])
    act(s, "mojo stat=mys2", f"skill card={steady}")
    assert s.phase == D_UPGRADE and not s.upg_roll
    assert "upgrade from=mus2 to=mus3" in legal(s)
    assert "upgrade from=mys2 to=mys3" in legal(s)  # the card just paid as mojo is in the pile too
    deck = list(s.deck[0])
    act(s, "upgrade from=mus2 to=mus3")
    assert s.deck[0] == deck and "mus3" in _kinds(s, s.disc[0])
    assert "combat" in legal(s)  # back to the non-combat phase
