"""Scenario tests for setup and the turn (clauses AD2-AD6 of docs/rules/army-of-darkness.md)."""

from __future__ import annotations

import pytest

from cardtable.engine import IllegalAction, NotYourTurn
from cardtable.games.army_of_darkness.cards import MONSTER
from cardtable.games.army_of_darkness.codes import P_FREE, P_HIT, P_PLAY, P_SLAY
from tests.army_of_darkness.helpers import EVIL, GOOD, Cards, arrange, deal, live, load, necronomicon, run, texts

# -- AD2 setup --------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 6, 8])
def test_ad2_setup_each_player_good_with_one_monster_and_five_cards(players: int) -> None:
    g = load(players)
    for seed in range(5):
        st = deal(g, seed)
        assert st.side == [GOOD] * players
        for s in range(players):
            assert len(st.hands[s]) == 5
            assert len(st.mon[s]) == 1 and g.TYPE[st.mon[s][0]] == MONSTER
            assert st.ally[s] == [] and st.item[s] == []
        assert st.discard == []
        assert len(st.deck) == len(live(g)) - 6 * players


@pytest.mark.parametrize("players", [2, 4, 5, 8])
def test_ad2_characters_named_first_then_generic_extras_and_ash_starts(players: int) -> None:
    g = load(players)
    starters = set()
    for seed in range(12):
        st = deal(g, seed)
        assert sorted(st.char) == list(range(players))
        ash = st.char.index(g.cards.first_character)
        assert st.active == ash and st.current_player == ash
        assert g.cards.good_names[st.char[ash]] == "Ash"
        starters.add(ash)
        names = {g.cards.good_names[c] for c in st.char}
        assert {"Ash", "Arthur", "Henry the Red", "Sheila"}.issuperset(names) or players > 4
        assert sum(g.cards.extra[c] for c in st.char) == max(0, players - 4)
    assert len(starters) > 1, "characters are dealt at random, so Ash is not always seat 0"


def test_ad2_the_monster_dealt_in_front_is_random() -> None:
    g = load(4)
    seen = {g.cards.names[deal(g, seed).mon[0][0]] for seed in range(40)}
    assert len(seen) >= 4


def test_ad2_play_proceeds_clockwise() -> None:
    g = load(4)
    pool = Cards(g)
    names = ["Boomstick", "Chainsaw", "Gunpowder", "Henry's Man"]
    st = arrange(g, hands={s: pool.take(names[s], 2) for s in range(4)}, active=3)
    order = []
    for _ in range(5):
        order.append(st.active)
        c = st.hands[st.active][0]
        run(st, f"play card={c}", f"to seat=P{st.active + 1}", "done", "pass")
    assert order == [3, 0, 1, 2, 3]


# -- AD3 step 1: play ------------------------------------------------------------------------------


def test_ad3_1_must_play_one_card_when_able() -> None:
    g = load(2)
    pool = Cards(g)
    st = arrange(g, hands={0: pool.take("Knight of Arthur", 2), 1: pool.take("Deadite", 1)})
    assert st.phase == P_PLAY
    assert all(t.startswith("play ") for t in texts(st)), "no way to skip the first play"
    with pytest.raises(IllegalAction):
        st.apply("done")


def test_ad3_1_unable_to_play_she_is_still_asked_and_can_only_end_step_1() -> None:
    g = load(2)
    pool = Cards(g)
    # Shotgun Blast needs a tabled monster somewhere; there is none, so it cannot be played. Whether
    # she can play is hidden from the others, so step 1 still opens and `done` is her one choice.
    st = arrange(g, hands={0: [pool.one("Shotgun Blast")], 1: pool.take("Deadite", 1)})
    assert st.phase == P_PLAY and st.current_player == 0
    assert texts(st) == ["done"]
    assert st.view(0)["prompt"] == "P1: none of your cards can be played now: end step 1 (done)"
    assert "is playing cards (step 1" in st.view(1)["prompt"]
    st.apply("done")
    assert st.phase == P_FREE and st.hands[0] != []
    assert st.events(1)[-1].endswith("plays no card this turn")


def test_ad3_1_with_an_empty_hand_step_1_is_skipped_for_all_to_see() -> None:
    g = load(2)
    pool = Cards(g)
    st = arrange(g, hands={1: pool.take("Deadite", 1)})
    assert st.phase == P_FREE, "no hand card: public, so no decision is needed"


def test_ad3_2_a_second_card_is_optional_and_two_is_the_most() -> None:
    g = load(2)
    pool = Cards(g)
    k = pool.take("Knight of Arthur", 3)
    st = arrange(g, hands={0: k, 1: pool.take("Deadite", 1)})
    run(st, f"play card={k[0]}", "to seat=P1")
    assert st.phase == P_PLAY and "done" in texts(st)
    run(st, f"play card={k[1]}", "to seat=P1")
    assert st.phase == P_FREE, "after two cards the play step is over"
    assert st.hands[0] == [k[2]]

    st2 = arrange(g, hands={0: k, 1: pool.take("Deadite", 1)})
    run(st2, f"play card={k[0]}", "to seat=P1", "done")
    assert st2.phase == P_FREE and len(st2.hands[0]) == 2


@pytest.mark.parametrize("name", ["Boomstick", "Knight of Arthur", "Deadite", "Necronomicon"])
def test_ad3_3_items_allies_monsters_and_the_necronomicon_go_to_any_player(name: str) -> None:
    g = load(3)
    for dest in range(3):
        pool = Cards(g)
        card = pool.one(name) if name != "Necronomicon" else necronomicon(g)
        st = arrange(g, hands={0: [card], 1: pool.take("Chainsaw", 1), 2: pool.take("Chainsaw", 1)})
        st.apply(f"play card={card}")
        assert texts(st) == ["to seat=P1", "to seat=P2", "to seat=P3"]
        st.apply(f"to seat=P{dest + 1}")
        tabled = st.mon[dest] + st.ally[dest] + st.item[dest]
        assert card in tabled and card not in st.hands[0]


def test_ad3_4_a_player_may_deliberately_empty_her_hand() -> None:
    g = load(2)
    pool = Cards(g)
    k = pool.take("Knight of Arthur", 2)
    st = arrange(g, hands={0: k, 1: pool.take("Deadite", 1)})
    run(st, f"play card={k[0]}", "to seat=P1", f"play card={k[1]}", "to seat=P1")
    assert st.hands[0] == []


def test_ad3_5_a_played_event_resolves_then_goes_to_the_discard_pile() -> None:
    g = load(2)
    pool = Cards(g)
    ev = pool.one("Shop Smart")
    st = arrange(g, hands={0: [ev], 1: pool.take("Deadite", 1)})
    st.apply(f"play card={ev}")
    assert st.discard[-1] == ev and len(st.hands[0]) == 2


# -- AD4 step 2: attack ----------------------------------------------------------------------------


def test_ad4_1_good_must_discard_a_monster_in_front_of_her() -> None:
    g = load(2)
    pool = Cards(g)
    d, s = pool.one("Deadite"), pool.one("Skeleton Warrior")
    st = arrange(g, hands={1: pool.take("Chainsaw", 1)}, mon={0: [d, s]})
    assert st.phase == P_SLAY
    assert texts(st) == [f"slay card={d}", f"slay card={s}"], "no draw, pass or character attack"
    st.apply(f"slay card={s}")
    assert st.mon[0] == [d] and st.discard[-1] == s


def test_ad4_1_evil_must_discard_an_ally_in_front_of_her() -> None:
    g = load(2)
    pool = Cards(g)
    k = pool.one("Knight of Arthur")
    d = pool.one("Deadite")
    st = arrange(g, hands={1: pool.take("Chainsaw", 1)}, mon={0: [d]}, ally={0: [k]}, sides={0: EVIL})
    assert st.phase == P_SLAY
    assert texts(st) == [f"slay card={k}"], "evil attacks allies, not her monsters"
    st.apply(f"slay card={k}")
    assert st.ally[0] == [] and st.mon[0] == [d]


def test_ad4_2_good_may_discard_exactly_three_monsters_of_the_same_name() -> None:
    g = load(2)
    pool = Cards(g)
    deadites = pool.take("Deadite", 4)
    skel = pool.one("Skeleton Warrior")
    witches = pool.take("Pit Witch", 2)
    st = arrange(g, hands={1: pool.take("Chainsaw", 1)}, mon={0: [*deadites, skel, *witches]})
    assert "slay-three name=Deadite" in texts(st)
    assert "slay-three name=Pit-Witch" not in texts(st), "two of a name are not enough"
    st.apply("slay-three name=Deadite")
    # Exactly three go; the fourth Deadite and the other monsters stay.
    assert sorted(st.mon[0]) == sorted([deadites[3], skel, *witches])
    assert sorted(st.discard[-3:]) == sorted(deadites[:3])


def test_ad4_2_the_three_same_name_power_is_good_only() -> None:
    g = load(2)
    pool = Cards(g)
    k = pool.one("Knight of Arthur")
    st = arrange(
        g, hands={1: pool.take("Chainsaw", 1)}, mon={0: pool.take("Deadite", 3)}, ally={0: [k]}, sides={0: EVIL}
    )
    assert texts(st) == [f"slay card={k}"]


# -- AD5 step 3: nothing opposes her ---------------------------------------------------------------


def test_ad5_draw_attack_or_pass_when_nothing_opposes_her() -> None:
    g = load(3)
    pool = Cards(g)
    st = arrange(g, hands={1: pool.take("Chainsaw", 1), 2: pool.take("Chainsaw", 1)}, sides={2: EVIL})
    assert st.phase == P_FREE
    assert texts(st) == ["draw", "attack seat=P3", "pass"]
    st.apply("draw")
    assert len(st.hands[0]) == 1 + 1  # the step-3 draw, then the end-of-turn draw (AD8.1)


def test_ad5_option_step3_pass_false_forces_draw_or_attack() -> None:
    g = load(3, **{"step3-pass": False})
    pool = Cards(g)
    st = arrange(g, hands={1: pool.take("Chainsaw", 1), 2: pool.take("Chainsaw", 1)}, sides={2: EVIL})
    assert st.phase == P_FREE
    assert texts(st) == ["draw", "attack seat=P3"]
    before = st.snapshot()
    with pytest.raises(IllegalAction, match="not legal now"):
        st.apply("pass")
    assert st.snapshot() == before
    # With nothing to draw and nobody she may attack, pass is all that is left.
    st.deck.clear()
    st.discard.clear()
    st.side[2] = st.side[0]
    st._legal = None
    assert texts(st) == ["pass"]


def test_ad5_1_a_good_character_cannot_attack_another_good_character() -> None:
    g = load(3)
    pool = Cards(g)
    st = arrange(g, hands={1: pool.take("Chainsaw", 1), 2: pool.take("Chainsaw", 1)}, sides={2: EVIL})
    assert "attack seat=P2" not in texts(st)
    before = st.snapshot()
    with pytest.raises(IllegalAction, match="not legal now"):
        st.apply("attack seat=P2")
    assert st.snapshot() == before


def test_ad5_1_an_evil_character_may_attack_anyone() -> None:
    g = load(3)
    pool = Cards(g)
    st = arrange(g, hands={1: pool.take("Chainsaw", 1), 2: pool.take("Chainsaw", 1)}, sides={0: EVIL, 2: EVIL})
    assert texts(st) == ["draw", "attack seat=P2", "attack seat=P3", "pass"]


def test_ad5_2_the_attacked_good_character_discards_a_tabled_item_or_ally_of_her_choice() -> None:
    g = load(2)
    pool = Cards(g)
    k, b = pool.one("Knight of Arthur"), pool.one("Boomstick")
    hand = pool.take("Chainsaw", 2)
    st = arrange(g, hands={1: hand}, ally={1: [k]}, item={1: [b]}, mon={1: [pool.one("Deadite")]}, sides={0: EVIL})
    st.apply("attack seat=P2")
    assert st.phase == P_HIT and st.current_player == 1
    assert sorted(texts(st)) == sorted([f"discard card={b}", f"discard card={k}"]), "not a monster, not a hand card"
    st.apply(f"discard card={k}")
    assert st.ally[1] == [] and st.discard[-1] == k
    assert st.active == 1, "attacker had no allies in front: no hit for her, her turn ended"


def test_ad5_2_the_attacked_evil_character_discards_a_tabled_item_or_monster() -> None:
    g = load(2)
    pool = Cards(g)
    d, k = pool.one("Deadite"), pool.one("Knight of Arthur")
    st = arrange(g, hands={1: pool.take("Chainsaw", 1)}, mon={1: [d]}, ally={1: [k]}, sides={0: EVIL, 1: EVIL})
    st.apply("attack seat=P2")
    assert texts(st) == [f"discard card={d}"]


def test_ad5_2_without_tabled_cards_the_attacked_character_discards_a_hand_card() -> None:
    g = load(2)
    pool = Cards(g)
    hand = pool.take("Chainsaw", 2)
    st = arrange(g, hands={1: hand}, mon={1: [pool.one("Deadite")]}, sides={0: EVIL})
    st.apply("attack seat=P2")
    assert sorted(texts(st)) == sorted(f"discard card={c}" for c in hand)
    st.apply(f"discard card={hand[1]}")
    assert hand[1] in st.discard


def test_ad5_2_an_attacked_character_with_nothing_to_discard_loses_nothing() -> None:
    g = load(2)
    st = arrange(g, sides={0: EVIL})
    before_turn = st.turn
    st.apply("attack seat=P2")
    assert st.turn == before_turn + 1 and st.active == 1


# -- AD6 step 4: take a hit ------------------------------------------------------------------------


def test_ad6_still_opposed_good_discards_her_item_or_ally_first() -> None:
    g = load(2)
    pool = Cards(g)
    d = pool.take("Deadite", 2)
    k, b = pool.one("Knight of Arthur"), pool.one("Boomstick")
    hand = pool.take("Chainsaw", 1)
    st = arrange(g, hands={0: hand, 1: pool.take("Gunpowder", 1)}, mon={0: d}, ally={0: [k]}, item={0: [b]})
    st.apply(f"play card={hand[0]}")
    st.apply("to seat=P2")
    st.apply(f"slay card={d[0]}")
    assert st.phase == P_HIT and st.victim == 0
    assert sorted(texts(st)) == sorted([f"discard card={b}", f"discard card={k}"])


def test_ad6_still_opposed_evil_discards_her_item_or_monster_first() -> None:
    g = load(2)
    pool = Cards(g)
    k = pool.take("Knight of Arthur", 2)
    d = pool.one("Deadite")
    st = arrange(g, hands={1: pool.take("Gunpowder", 1)}, mon={0: [d]}, ally={0: k}, sides={0: EVIL})
    st.apply(f"slay card={k[0]}")
    assert texts(st) == [f"discard card={d}"]


def test_ad6_with_no_tabled_support_she_discards_a_hand_card_and_without_one_nothing() -> None:
    g = load(2)
    pool = Cards(g)
    d = pool.take("Deadite", 2)
    c = pool.take("Chainsaw", 2)
    st = arrange(g, hands={0: c, 1: pool.take("Gunpowder", 1)}, mon={0: d})
    run(st, f"play card={c[0]}", "to seat=P2", "done", f"slay card={d[0]}")
    assert texts(st) == [f"discard card={c[1]}"]
    # Without a hand card there is nothing to lose: the turn simply ends.
    st2 = arrange(g, hands={1: pool.take("Gunpowder", 1)}, mon={0: d})
    st2.apply(f"slay card={d[0]}")
    assert st2.active == 1


def test_ad6_no_hit_when_the_attack_removed_the_last_opponent() -> None:
    g = load(2)
    pool = Cards(g)
    d = pool.one("Deadite")
    hand = pool.take("Chainsaw", 2)
    st = arrange(g, hands={0: hand, 1: pool.take("Gunpowder", 1)}, mon={0: [d]})
    run(st, f"play card={hand[0]}", "to seat=P1", "done", f"slay card={d}")
    assert st.active == 1 and st.item[0] == [hand[0]] and len(st.hands[0]) == 2


# -- events never out of turn (AD1.7) --------------------------------------------------------------


def test_ad1_7_no_event_is_offered_to_a_player_outside_her_turn() -> None:
    g = load(2)
    pool = Cards(g)
    hand1 = [pool.one("Shop Smart"), pool.one("Shotgun Blast")]
    st = arrange(g, hands={1: hand1}, mon={1: [pool.one("Deadite")]}, sides={0: EVIL})
    st.apply("attack seat=P2")
    assert st.current_player == 1 and st.active == 0
    assert all(not t.startswith("play") for t in texts(st))
    before = st.snapshot()
    with pytest.raises(IllegalAction, match="not legal now"):
        st.apply(f"play card={hand1[0]}")
    with pytest.raises(NotYourTurn):
        st.apply(f"play card={hand1[0]}", seat=0)
    assert st.snapshot() == before


@pytest.mark.parametrize("step3", ["instead", "after-clearing"])
def test_ad5_3_step_3_after_an_attack_that_cleared_her_table_is_an_option(step3: str) -> None:
    g = load(2, step3=step3)
    pool = Cards(g)
    d = pool.one("Deadite")
    st = arrange(g, hands={1: pool.take("Chainsaw", 1)}, mon={0: [d]}, sides={1: EVIL})
    st.apply(f"slay card={d}")
    if step3 == "instead":
        assert st.active == 1, "the default: step 3 replaces the attack, it does not follow it"
    else:
        assert st.active == 0 and st.phase == P_FREE
        assert texts(st) == ["draw", "attack seat=P2", "pass"]


def test_ad5_3_after_clearing_does_not_apply_while_something_still_opposes_her() -> None:
    g = load(2, step3="after-clearing")
    pool = Cards(g)
    d = pool.take("Deadite", 2)
    b = pool.one("Boomstick")
    st = arrange(g, hands={1: pool.take("Chainsaw", 1)}, mon={0: d}, item={0: [b]})
    st.apply(f"slay card={d[0]}")
    assert st.phase == P_HIT and st.victim == 0 and texts(st) == [f"discard card={b}"]
