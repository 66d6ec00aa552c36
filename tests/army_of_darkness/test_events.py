"""Scenario tests for the events (clauses AD1.1, AD1.2, AD1.6, AD3.5, AD10 of
docs/rules/army-of-darkness.md)."""

from __future__ import annotations

import pytest

from cardtable.games.army_of_darkness.codes import P_PLAY
from tests.army_of_darkness.helpers import EVIL, GOOD, Cards, arrange, deal, live, load, necronomicon, run, texts

REMOVED = [
    "Into the Pit",
    "Ignored!",
    "Payback's a Bitch",
    "Yer Screwed!",
    "Yer Screwed!",
    "Sucker Punch",
    "Suck It Up",
    "I'll Take That",
]


def test_ad1_2_the_removed_cards_never_enter_play() -> None:
    g = load(4)
    removed = [c for c in range(len(g.cards)) if g.cards.removed[c]]
    assert sorted(g.cards.names[c] for c in removed) == sorted(REMOVED)
    for seed in range(5):
        st = deal(g, seed)
        in_play = set(st.deck) | {c for h in st.hands for c in h} | {c for m in st.mon for c in m}
        assert not in_play & set(removed)
        assert sorted(in_play) == live(g)
        assert sorted(c["name"] for c in st.view(None)["removed"]) == sorted(REMOVED)


@pytest.mark.parametrize(("name", "start", "end"), [("I'm Bad", GOOD, EVIL), ("Goody-Goody Two-Shoes", EVIL, GOOD)])
def test_ad1_1_dice_roll_events_succeed_automatically(name: str, start: int, end: int) -> None:
    g = load(3)
    pool = Cards(g)
    ev = pool.one(name)
    assert g.cards.roll[ev]
    st = arrange(g, hands={0: [ev, pool.one("Chainsaw")], 1: pool.take("Gunpowder", 1)}, sides={1: start, 2: 1 - start})
    st.apply(f"play card={ev}")
    # Only characters not already on that side can be chosen; the active player may choose herself.
    expected = [s for s in range(3) if st.side[s] != end]
    assert texts(st) == [f"target seat=P{s + 1}" for s in expected]
    rng_before = st.rng.state
    st.apply("target seat=P2")
    assert st.side[1] == end, "no die roll: the event always works"
    assert st.rng.state == rng_before
    assert st.discard[-1] == ev and st.phase == P_PLAY


def test_ad1_1_a_side_event_with_no_character_to_turn_cannot_be_played() -> None:
    g = load(2)
    pool = Cards(g)
    ev = pool.one("Goody-Goody Two-Shoes")
    st = arrange(g, hands={0: [ev, pool.one("Chainsaw")], 1: pool.take("Gunpowder", 1)})
    assert f"play card={ev}" not in texts(st), "everybody is already good"


def test_ad1_6_double_crossed_cannot_take_the_necronomicon() -> None:
    g = load(2)
    pool = Cards(g)
    ev = pool.one("Double-Crossed")
    b, k = pool.one("Boomstick"), pool.one("Knight of Arthur")
    st = arrange(g, hands={0: [ev], 1: pool.take("Gunpowder", 1)}, item={1: [necronomicon(g), b]}, ally={1: [k]})
    st.apply(f"play card={ev}")
    assert sorted(texts(st)) == sorted([f"pick card={b}", f"pick card={k}"])
    st.apply(f"pick card={b}")
    assert st.item[0] == [b] and st.item[1] == [necronomicon(g)]


def test_ad1_6_an_event_whose_only_choice_is_the_necronomicon_cannot_be_played() -> None:
    g = load(2)
    pool = Cards(g)
    dc, smart = pool.one("Double-Crossed"), pool.one("S-Mart")
    st = arrange(
        g, hands={0: [dc, smart, pool.one("Chainsaw")], 1: pool.take("Gunpowder", 1)}, item={1: [necronomicon(g)]}
    )
    assert f"play card={dc}" not in texts(st)
    assert f"play card={smart}" not in texts(st)


def test_ad1_6_its_back_cannot_take_the_necronomicon_from_the_discard_pile() -> None:
    g = load(2)
    pool = Cards(g)
    ev = pool.one("It's Back")
    d = pool.one("Deadite")
    st = arrange(
        g, hands={0: [ev], 1: pool.take("Gunpowder", 1)}, discard=[necronomicon(g), d, pool.one("Shop Smart")], deck=[]
    )
    st.apply(f"play card={ev}")
    choices = texts(st)
    assert f"pick card={necronomicon(g)}" not in choices and f"pick card={d}" in choices
    assert all(g.TYPE[int(t.split("=")[1])] != 4 for t in choices), "events are not monsters, allies or items"
    st.apply(f"pick card={d}")
    assert d in st.hands[0] and d in st.shown, "it came from a face-up pile: everybody knows it is there"
    assert st.view(1)["players"][0]["known_in_hand"] == [g.card_json(d)]


def test_ad1_6_s_mart_takes_an_item_into_the_hand_but_never_the_necronomicon() -> None:
    g = load(2)
    pool = Cards(g)
    ev = pool.one("S-Mart")
    mine, theirs = pool.one("Boomstick"), pool.one("Chainsaw")
    st = arrange(g, hands={0: [ev], 1: pool.take("Gunpowder", 1)}, item={0: [mine], 1: [theirs, necronomicon(g)]})
    st.apply(f"play card={ev}")
    assert sorted(texts(st)) == sorted([f"pick card={mine}", f"pick card={theirs}"])
    st.apply(f"pick card={theirs}")
    assert st.hands[0] == [theirs] and theirs in st.shown


def test_ad1_6_an_event_that_says_so_may_take_the_necronomicon() -> None:
    g = load(2)
    pool = Cards(g)
    ev = pool.one("Klaatu Barada Nikto")
    assert g.cards.necro_ok[ev]
    st = arrange(g, hands={0: [ev], 1: pool.take("Gunpowder", 1)}, item={1: [necronomicon(g)]})
    run(st, f"play card={ev}", f"pick card={necronomicon(g)}")
    assert st.item[0] == [necronomicon(g)] and st.item[1] == []


def test_ad10_draw_event() -> None:
    g = load(2)
    pool = Cards(g)
    ev = pool.one("Shop Smart")
    st = arrange(g, hands={0: [ev], 1: pool.take("Gunpowder", 1)})
    deck = len(st.deck)
    st.apply(f"play card={ev}")
    assert len(st.hands[0]) == 2 and len(st.deck) == deck - 2
    assert "done" in texts(st), "the event was her first card; she may play a second"


def test_ad10_discard_tabled_any_player_including_herself() -> None:
    g = load(3)
    pool = Cards(g)
    ev = pool.one("Shotgun Blast")
    d0, d2 = pool.one("Deadite"), pool.one("Pit Witch")
    st = arrange(g, hands={0: [ev], 1: pool.take("Gunpowder", 1)}, mon={0: [d0], 2: [d2]})
    st.apply(f"play card={ev}")
    assert texts(st) == [f"pick card={d0}", f"pick card={d2}"]
    st.apply(f"pick card={d2}")
    assert st.mon[2] == [] and st.discard[-2:] == [d2, ev]


def test_ad10_discard_tabled_other_players_only() -> None:
    g = load(2)
    pool = Cards(g)
    ev = pool.one("Come Get Some")
    mine, theirs = pool.one("Knight of Arthur"), pool.one("Wise Man")
    st = arrange(g, hands={0: [ev, pool.one("Chainsaw")], 1: pool.take("Gunpowder", 1)}, ally={0: [mine], 1: [theirs]})
    st.apply(f"play card={ev}")
    assert texts(st) == [f"pick card={theirs}"]


def test_ad10_from_discard_to_any_table() -> None:
    g = load(3)
    pool = Cards(g)
    ev = pool.one("Rise Again")
    d = pool.one("Deadite")
    st = arrange(g, hands={0: [ev], 1: pool.take("Gunpowder", 1)}, discard=[d, pool.one("Chainsaw")])
    st.apply(f"play card={ev}")
    assert texts(st) == [f"pick card={d}"], "only monsters come back"

    st.apply(f"pick card={d}")
    assert texts(st) == ["to seat=P1", "to seat=P2", "to seat=P3"] and st.chosen == d
    st.apply("to seat=P3")
    assert d in st.mon[2] and d not in st.discard and st.chosen == -1


def test_ad10_take_tabled_to_own_table() -> None:
    g = load(2)
    pool = Cards(g)
    ev = pool.one("Double-Crossed")
    k = pool.one("Knight of Arthur")
    st = arrange(g, hands={0: [ev], 1: pool.take("Gunpowder", 1)}, ally={1: [k]})
    run(st, f"play card={ev}", f"pick card={k}")
    assert st.ally[0] == [k] and st.ally[1] == []


def test_ad3_5_an_event_with_nothing_to_choose_is_not_offered() -> None:
    g = load(2)
    pool = Cards(g)
    evs = [pool.one(n) for n in ("Shotgun Blast", "Come Get Some", "Double-Crossed", "It's Back", "Rise Again")]
    # Nothing is tabled and the discard pile is empty: none of these events has a choice.
    st = arrange(g, hands={0: [*evs, pool.one("Chainsaw")], 1: pool.take("Gunpowder", 1)})
    assert st.discard == [] and all(not m for m in st.mon)
    assert [t for t in texts(st) if t.startswith("play")] == [f"play card={st.hands[0][-1]}"]
