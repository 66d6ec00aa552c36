"""DS1-DS5: components, setup, viability, the Mystic Arts and Summon phases."""

from __future__ import annotations

import pytest

from cardtable.engine import IllegalAction, OptionError
from cardtable.games.doctor_strange import state as S
from cardtable.games.doctor_strange.base import replaced
from cardtable.games.doctor_strange.cards import RULEBOOK_CARDS

from .helpers import EVIL, GOOD, act, cid, deal, game, goto, legal_cards, scenario, side_of, texts, where


def test_ds1_1_seats_and_sides() -> None:
    g = game()
    assert (g.evil, g.good) == (0, 1)
    assert g.seat_name(0) == "Evil" and g.seat_name(1) == "Good"
    # Option good-seat names the seat as people do: P1 (seat 0) or P2 (seat 1, the default).
    swapped = game(**{"good-seat": "P1"})
    assert (swapped.evil, swapped.good) == (1, 0)
    assert swapped.seat_name(0) == "Good" and swapped.seat_name(1) == "Evil"
    st = deal(swapped, 1)
    assert st.current_player == 1 and st.active == 1  # Evil (seat 1) goes first
    assert st.view(0)["seat_names"] == ["Good", "Evil"]
    assert "Good (P1)" in st.events(None)[0] and "Evil (P2)" in st.events(None)[0]
    assert game(**{"good-seat": "P2"}).good == 1
    with pytest.raises(OptionError):
        game(players=3)
    for bad in (2, 0, "P3", "p1", "Good", ""):
        with pytest.raises(OptionError, match="good-seat"):
            game(**{"good-seat": bad})
    option = next(o for o in g.OPTIONS if o.name == "good-seat")
    assert "P1 or P2" in option.doc and option.choices == ("P1", "P2")
    for bad_options in ({"victory-count": "weeks"}, {"turn-limit": 1}, {"victory-from": 0}, {"colour": "red"}):
        with pytest.raises(OptionError):
            game(**bad_options)


def test_ds1_2_deck_is_one_of_each_card() -> None:
    g = game()
    st = deal(g, 0)
    everything = sorted(st.deck + st.hands[0] + st.hands[1] + st.chars)
    assert everything == list(range(len(RULEBOOK_CARDS)))
    assert [g.NAMES[c] for c in range(g.N)] == list(RULEBOOK_CARDS)


def test_ds2_setup() -> None:
    g = game()
    for seed in range(5):
        st = deal(g, seed, log=False)
        assert side_of(st, "Doctor Strange") == GOOD
        assert side_of(st, "Baron Mordo") == EVIL
        assert st.turn == 1 and st.active == EVIL
        # Evil has drawn its 2 Mystic Arts cards on top of the 7 dealt (DS4.1); Good holds 7.
        assert len(st.hands[GOOD]) == 7


def test_ds2_deal_is_7_each() -> None:
    g = game()
    st = deal(g, 4)
    # Undo Evil's Mystic Arts draw by counting: 7 dealt + 2 drawn, minus anything played since (nothing yet
    # unless Evil has a decision in Mystic Arts, which does not change the hand size).
    assert len(st.hands[EVIL]) == 9
    assert len(st.deck) == g.N - 2 - 16


def test_ds4_1_draw_two_and_reshuffle() -> None:
    st = scenario({EVIL: ["Disciple"]})
    st.discard.extend(st.pool[:-1])
    del st.pool[:-1]
    st._draw(GOOD, 2)
    assert len(st.hands[GOOD]) == 2
    assert st.discard == [] and len(st.pool) > 0  # the discard became the deck


def test_ds4_1_draw_stops_when_no_cards_anywhere() -> None:
    st = scenario({EVIL: ["Disciple"]})
    st.hands[EVIL].extend(st.pool)
    st.pool.clear()
    n = len(st.hands[GOOD])
    st._draw(GOOD, 2)
    assert len(st.hands[GOOD]) == n


def test_ds4_2_learn_secrets_draws_3() -> None:
    st = scenario({EVIL: ["Learn Secrets"]}, phase=S.MYSTIC)
    act(st, "play", "Learn Secrets")
    assert len(st.hands[EVIL]) == 3 and where(st, "Learn Secrets") == "discard"


def test_ds4_2_experiment_discards_hand_and_draws_5() -> None:
    st = scenario({EVIL: ["Experiment", "Poison", "Incense"]}, phase=S.MYSTIC)
    act(st, "play", "Experiment")
    assert len(st.hands[EVIL]) == 5
    assert where(st, "Poison") == "discard" and where(st, "Incense") == "discard"


def test_ds4_2_investigate_reveals_next_7_to_its_player_only() -> None:
    st = scenario({EVIL: ["Investigate", "Learn Secrets"], GOOD: ["Experiment"]}, phase=S.MYSTIC)
    act(st, "play", "Investigate")
    top = st.stack[-7:]
    assert len(top) == 7
    v = st.view(EVIL)
    assert {d["card"]["id"] for d in v["known_deck"]} == set(top)
    assert {d["from_top"] for d in v["known_deck"]} == set(range(1, 8))  # 1 = the top card
    assert st.view(GOOD)["known_deck"] == []
    assert set(top) <= st.known_cards(EVIL)
    assert not set(top) & st.known_cards(GOOD)
    # Evil passes through its turn; Good draws the top 2 known cards, which Evil then knows in Good's hand.
    act(st, "pass")
    assert st.active == GOOD
    drawn = set(top[-2:])
    assert drawn <= set(st.hands[GOOD])
    assert {c["id"] for c in st.view(EVIL)["known_opponent_hand"]} == drawn
    assert len(st.view(EVIL)["known_deck"]) == 5


def test_ds4_3_go_back_in_time_search_and_keep() -> None:
    st = scenario({EVIL: ["Go Back in Time"]}, phase=S.MYSTIC)
    act(st, "play", "Go Back in Time")
    assert st.phase == S.TAKE and st.current_player == EVIL
    assert len(st.legal_actions()) == len(st.deck)
    assert sorted(c["id"] for c in st.view(EVIL)["search"]) == sorted(st.deck)
    assert st.view(GOOD)["search"] is None
    act(st, "take", "Loki")
    assert where(st, "Loki") == "hand0"
    assert st.phase != S.TAKE


def test_ds4_2_e_events_only_in_mystic_arts() -> None:
    st = scenario({EVIL: ["Learn Secrets", "Disciple"]})
    # Summon phase: Learn Secrets is not offered.
    assert legal_cards(st, "play") == {"Disciple"}


def test_ds5_1_summon_character() -> None:
    st = scenario({EVIL: ["Nightmare", "Disciple"]})
    act(st, "play", "Nightmare")
    assert where(st, "Nightmare") == "play" and side_of(st, "Nightmare") == EVIL
    assert st.owner[st.game.SLOT[cid("Nightmare")]] == EVIL


def test_ds5_2_attachment_adds_power_to_own_character() -> None:
    st = scenario({EVIL: ["Magic Amulet"]})
    act(st, "play", "Magic Amulet")
    assert st.phase == S.ONTO
    # Only Evil's own characters are offered.
    assert legal_cards(st, "onto") == {"Baron Mordo"}
    act(st, "onto", "Baron Mordo")
    g = st.game
    assert st.mpow[g.SLOT[cid("Baron Mordo")]] == 7
    assert where(st, "Magic Amulet") == "attached"


def test_ds5_3_one_location_per_character() -> None:
    st = scenario({EVIL: ["Hidden Temple", "Hostile Dimension", "Sinister Gem"]})
    act(st, "play", "Hidden Temple")
    act(st, "onto", "Baron Mordo")
    # Mordo has a Location: the second one has no host, so it cannot be played; an Item still can.
    assert legal_cards(st, "play") == {"Sinister Gem"}
    act(st, "play", "Sinister Gem")
    act(st, "onto", "Baron Mordo")
    assert st.mpow[st.game.SLOT[cid("Baron Mordo")]] == 8


def test_ds5_4_gpo_refused_to_evil_and_epo_to_good() -> None:
    st = scenario({EVIL: ["The Ancient One", "Loki", "Desperate Cry"], GOOD: ["Zota", "Topaz"]})
    assert legal_cards(st, "play") == {"Loki"}
    snap = st.snapshot()
    with pytest.raises(IllegalAction):
        act(st, "play", "The Ancient One")
    assert st.snapshot() == snap
    # Good's turn: Zota (EPO) refused, Topaz offered.
    goto(st, S.SUMMON, GOOD)
    assert legal_cards(st, "play") == {"Topaz"}
    with pytest.raises(IllegalAction):
        act(st, "play", "Zota")


def test_ds5_4_epo_attachments() -> None:
    st = scenario({GOOD: ["Nightmare World", "Guards", "Shadow World"]}, active=GOOD)
    assert legal_cards(st, "play") == {"Shadow World"}


def test_ds3_viable() -> None:
    st = scenario(play={EVIL: ["Zota", "Disciple"]})
    g = st.game
    from cardtable.games.doctor_strange.fates import viable

    assert viable(st, cid("Zota"))
    st.incap = replaced(st.incap, g.SLOT[cid("Zota")], 1)
    assert not viable(st, cid("Zota"))
    st.cap = replaced(st.cap, g.SLOT[cid("Disciple")], cid("Doctor Strange"))
    assert not viable(st, cid("Disciple"))
    assert st._viable_on(EVIL) == [cid("Baron Mordo")]


def test_summon_pass_moves_to_attack() -> None:
    st = scenario({EVIL: ["Disciple", "Poison"]})
    assert "pass" in texts(st)
    act(st, "pass")
    assert st.phase == S.DECLARE
