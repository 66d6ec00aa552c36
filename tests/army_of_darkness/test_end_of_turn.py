"""Scenario tests for the victory check, drawing and side switching, deck exhaustion and the turn
limit (clauses AD1.4, AD1.5, AD7, AD8, AD9 of docs/rules/army-of-darkness.md)."""

from __future__ import annotations

import pytest

from cardtable.games.army_of_darkness.codes import ARMED, HAS_CARDS, REDUCED
from tests.army_of_darkness.helpers import EVIL, GOOD, Cards, all_cards, arrange, deal, live, load, necronomicon, run

# -- AD7 victory ------------------------------------------------------------------------------------


def test_ad7_2_good_wins_with_the_necronomicon_three_allies_no_monster_and_a_hand_card() -> None:
    g = load(3)
    pool = Cards(g)
    allies = pool.take("Knight of Arthur", 2)
    third = pool.one("Wise Man")
    hand = [third, pool.one("Chainsaw")]
    st = arrange(g, hands={0: hand, 1: pool.take("Gunpowder", 1)}, ally={0: allies}, item={0: [necronomicon(g)]})
    run(st, f"play card={third}", "to seat=P1", "done", "pass")
    assert st.is_over
    r = st.result()
    assert r.winners == (0,) and r.reason == "necronomicon-good" and not r.truncated
    assert r.ranks == (1, 2, 2) and r.turns == 1


def test_ad7_1_no_victory_without_a_hand_card() -> None:
    g = load(2)
    pool = Cards(g)
    last = pool.one("Wise Man")
    st = arrange(
        g,
        hands={0: [last], 1: pool.take("Gunpowder", 1)},
        ally={0: pool.take("Knight of Arthur", 2)},
        item={0: [necronomicon(g)]},
    )
    run(st, f"play card={last}", "to seat=P1", "pass")
    assert not st.is_over and len(st.ally[0]) == 3 and st.hands[0] == []


def test_ad7_1_no_victory_without_the_necronomicon_in_front_of_her() -> None:
    g = load(2)
    pool = Cards(g)
    necro = necronomicon(g)
    st = arrange(
        g,
        hands={0: [*pool.take("Chainsaw", 2), necro], 1: pool.take("Gunpowder", 1)},
        ally={0: pool.take("Knight of Arthur", 3)},
    )
    c = st.hands[0][0]
    run(st, f"play card={c}", "to seat=P1", "done", "pass")
    assert not st.is_over, "a Necronomicon in the hand does not count"


def test_ad7_3_evil_wins_with_five_monsters_of_different_names_and_no_ally() -> None:
    g = load(2)
    pool = Cards(g)
    mons = [pool.one(n) for n in ("Deadite", "Skeleton Warrior", "Pit Witch", "Mini-Ash")]
    fifth = pool.one("Deadite Captain")
    st = arrange(
        g,
        hands={0: [fifth, pool.one("Chainsaw")], 1: pool.take("Gunpowder", 1)},
        mon={0: [*mons, pool.one("Deadite")]},
        item={0: [necronomicon(g)]},
        sides={0: EVIL},
    )
    run(st, f"play card={fifth}", "to seat=P1", "done", "pass")
    assert st.is_over
    r = st.result()
    assert r.winners == (0,) and r.reason == "necronomicon-evil"


def test_ad7_3_evil_needs_five_different_names_not_five_monsters() -> None:
    g = load(2)
    pool = Cards(g)
    mons = [*pool.take("Deadite", 3), pool.one("Pit Witch")]
    fifth = pool.one("Skeleton Warrior")
    st = arrange(
        g,
        hands={0: [fifth, pool.one("Chainsaw")], 1: pool.take("Gunpowder", 1)},
        mon={0: mons},
        item={0: [necronomicon(g)]},
        sides={0: EVIL},
    )
    run(st, f"play card={fifth}", "to seat=P1", "done", "pass")
    assert not st.is_over and len(st.mon[0]) == 5


def test_ad7_only_the_active_player_can_win() -> None:
    g = load(2)
    pool = Cards(g)
    st = arrange(
        g,
        hands={0: pool.take("Chainsaw", 2), 1: pool.take("Gunpowder", 2)},
        ally={1: pool.take("Knight of Arthur", 3)},
        item={1: [necronomicon(g)]},
    )
    c = st.hands[0][0]
    run(st, f"play card={c}", "to seat=P1", "done", "pass")
    assert not st.is_over and st.active == 1


# -- AD8 draw or switch sides ----------------------------------------------------------------------


def test_ad8_1_with_hand_cards_she_draws_one_at_the_end_of_her_turn() -> None:
    g = load(2)
    pool = Cards(g)
    st = arrange(g, hands={0: pool.take("Chainsaw", 3), 1: pool.take("Gunpowder", 1)})
    deck = len(st.deck)
    c = st.hands[0][0]
    run(st, f"play card={c}", "to seat=P1", "done", "pass")
    assert len(st.hands[0]) == 3 and len(st.deck) == deck - 1


def test_ad8_2_emptied_in_her_own_turn_she_switches_only_at_the_end_of_her_next_turn() -> None:
    g = load(2)
    pool = Cards(g)
    k = pool.take("Knight of Arthur", 2)
    st = arrange(g, hands={0: k, 1: pool.take("Gunpowder", 3)})
    run(st, f"play card={k[0]}", "to seat=P1", f"play card={k[1]}", "to seat=P1", "pass")
    # End of the turn in which she emptied her hand: no switch, no draw.
    assert st.side[0] == GOOD and st.hands[0] == [] and st.reduced[0] == REDUCED and st.switches[0] == 0
    c = st.hands[1][0]
    run(st, f"play card={c}", "to seat=P2", "done", "pass")
    # Her next turn starts; she still has no cards.
    assert st.active == 0 and st.reduced[0] == ARMED
    st.apply("pass")
    assert st.side[0] == EVIL and st.switches[0] == 1
    assert len(st.hands[0]) == 5 and st.reduced[0] == HAS_CARDS


def test_ad8_2_emptied_in_another_turn_she_switches_at_the_end_of_her_next_turn() -> None:
    g = load(2)
    pool = Cards(g)
    last = pool.one("Chainsaw")
    c = pool.one("Gunpowder")
    st2 = arrange(g, hands={0: [last], 1: [c, pool.one("Gunpowder")]}, sides={1: EVIL}, active=1)
    run(st2, f"play card={c}", "to seat=P2", "done", "attack seat=P1", f"discard card={last}")
    assert st2.hands[0] == [] and st2.reduced[0] == ARMED, "her next turn has begun"
    assert st2.active == 0 and st2.side[0] == GOOD
    st2.apply("pass")
    assert st2.side[0] == EVIL and len(st2.hands[0]) == 5


def test_ad8_3_a_card_regained_before_the_end_of_her_next_turn_cancels_the_switch() -> None:
    g = load(2)
    pool = Cards(g)
    k = pool.take("Knight of Arthur", 2)
    st = arrange(g, hands={0: k, 1: pool.take("Gunpowder", 3)})
    run(st, f"play card={k[0]}", "to seat=P1", f"play card={k[1]}", "to seat=P1", "pass")
    c = st.hands[1][0]
    run(st, f"play card={c}", "to seat=P2", "done", "pass")
    assert st.reduced[0] == ARMED
    st.apply("draw")  # step 3: she draws instead of attacking
    assert st.side[0] == GOOD and st.switches[0] == 0
    assert len(st.hands[0]) == 2, "one card from step 3, one at the end of the turn"


def test_ad8_2_switching_evil_to_good_works_the_same_way() -> None:
    g = load(2)
    pool = Cards(g)
    st = arrange(g, hands={1: pool.take("Gunpowder", 3)}, sides={0: EVIL}, reduced={0: ARMED})
    st.apply("pass")
    assert st.side[0] == GOOD and len(st.hands[0]) == 5


# -- AD1.4 / AD1.5 deck -----------------------------------------------------------------------------


def test_ad1_5_an_empty_deck_is_remade_from_the_discard_pile() -> None:
    g = load(2)
    pool = Cards(g)
    st = arrange(g, hands={0: pool.take("Chainsaw", 2), 1: pool.take("Gunpowder", 1)}, deck=[])
    pile = len(st.discard)
    assert pile > 0 and st.deck == []
    c = st.hands[0][0]
    run(st, f"play card={c}", "to seat=P1", "done", "draw")
    # The step-3 draw remade the deck from the whole pile, then the end-of-turn draw took another.
    assert st.discard == [] and len(st.deck) == pile - 2 and len(st.hands[0]) == 3
    assert any("shuffled into a new deck" in e for e in st.events(None))


def test_ad1_5_with_deck_and_discard_pile_empty_nothing_is_drawn() -> None:
    g = load(2)
    pool = Cards(g)
    everything = live(g)
    necro = necronomicon(g)
    # Put every card in hands or on the table so that deck and pile are both empty.
    k = pool.take("Knight of Arthur", 2)
    rest = [c for c in everything if c not in k and c != necro]
    st = arrange(g, hands={0: k, 1: [necro]}, item={1: rest}, deck=[])
    assert st.deck == [] and st.discard == []
    run(st, f"play card={k[0]}", "to seat=P1", "done")
    assert st.legal_actions()[0].text != "draw", "no draw offered when nothing can be drawn"
    st.apply("pass")
    assert len(st.hands[0]) == 1 and not st.is_over
    assert sorted(all_cards(st)) == sorted(live(g))


def test_ad1_4_draws_are_uniform_over_the_deck() -> None:
    g = load(2)
    seen = set()
    for seed in range(60):
        st = deal(g, seed)
        seen.add(g.cards.names[st.hands[0][0]])
    assert len(seen) > 10


# -- AD9 turn limit ---------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4, 6])
def test_ad9_turn_limit_stops_the_game_truncated(players: int) -> None:
    g = load(players, **{"turn-limit": 3})
    pool = Cards(g)
    names = ["Chainsaw", "Gunpowder", "Boomstick", "Henry's Man", "Knight of Arthur", "Village Archer"]
    st = arrange(g, hands={s: pool.take(names[s], 2) for s in range(players)})
    for _ in range(3):
        c = st.hands[st.active][0]
        run(st, f"play card={c}", f"to seat=P{st.active + 1}", "done", "pass")
    assert st.is_over and st.current_player is None
    r = st.result()
    assert r.reason == "turn-limit" and r.truncated and r.winners == () and r.turns == 3
    assert r.details["turn_limit"] == 3
