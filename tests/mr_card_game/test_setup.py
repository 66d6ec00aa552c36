"""K2 setup and O4 the fifth player: the rulebook's own examples (starting meat 5, 6, 7, 8 by seat
order, the starting kit named card by card, the 20 and 25 Sorceress) and the table layout."""

from __future__ import annotations

from collections import Counter

import pytest

import cardtable
from cardtable.engine import OptionError
from cardtable.games.mr_card_game.cards import STAT_KINDS
from cardtable.games.mr_card_game.game import MrCardGame

from .helpers import conserved, deal, new


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("first", ["P1", "P2"])
def test_k2_11_starting_meat_is_five_plus_one_per_player_before_you(players: int, first: str) -> None:
    s = new(players, first_player=first)
    f = int(first[1:]) - 1
    for seat in range(players):
        position = (seat - f) % players
        assert s.meat[seat] == 5 + position  # 5, 6, 7, 8 (core L60) and 9 for a fifth (supp L184)
    assert sorted(s.meat) == list(range(5, 5 + players))


def test_k2_8_k2_9_the_starting_kit() -> None:
    s = new(4)
    c = s.game.cards
    for p in range(4):
        names = [c.iname[x] for x in s.items[p]]
        assert names == ["Sweet Ninja Sword", "Kentucky-Style Derby", "Studded Leather Boxer Shorts"]
        # "a Melee Weapon, a Hat and Pants", all equipped.
        assert [c.slot[x] for x in s.items[p]] == [0, 1, 2] and not c.ranged[s.items[p][0]]
        assert all(s.eq >> x & 1 for x in s.items[p])
        kinds = Counter(STAT_KINDS[c.skind[x]] for x in (*s.hand[p], *s.deck[p]))
        assert kinds == {"mus1": 4, "mys1": 4, "mox1": 4}
        assert {c.stat_names[c.skind[x]] for x in s.hand[p] + s.deck[p]} == {"Strengthliness", "Enchantedness", "Cheek"}
        assert len(s.hand[p]) == 6 and len(s.deck[p]) == 6
        assert s.skills[p] == () and s.disc[p] == []
    # The starting cards came from the piles (4 of each level-1 card per player).
    assert [len(s.piles[k]) for k in (0, 4, 8)] == [28 - 16] * 3
    assert conserved(s)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_o4_newbie_sets_by_turn_order_the_fifth_is_noblesse_oblige(players: int) -> None:
    s = new(players, first_player="P2")
    c = s.game.cards
    for seat in range(players):
        position = (seat - 1) % players
        assert s.items[seat] == c.newbie[position]
    if players == 5:
        fifth = (1 + 4) % 5
        assert c.newbie_set_names[4] == "Noblesse Oblige" and s.items[fifth] == c.newbie[4]
    # Spare sets stay in the box: nobody has them.
    spare = {x for gear in c.newbie[players:] for x in gear}
    assert not spare & {x for p in range(players) for x in s.items[p]}


def test_k2_10_k2_12_the_certificate_holder_goes_first() -> None:
    for fp, seat in (("P1", 0), ("P3", 2)):
        s = new(3, first_player=fp)
        assert s.cert == seat and s.current_player == seat and s.first == seat
        assert s.view(0)["certificate"] == f"P{seat + 1}"
    g = cardtable.load("mr-card-game", players=3)
    firsts = Counter(deal(g, seed).cert for seed in range(90))
    assert set(firsts) == {0, 1, 2}  # first-player=random: any seat


@pytest.mark.parametrize(("side", "power"), [("20", 20), ("25", 25)])
def test_k2_2_the_sorceress_side(side: str, power: int) -> None:
    s = new(2, sorceress=side)
    assert s.game.sorceress_power == power
    view = s.view(0)["sorceress"]
    assert view["power"] == power and view["name"] == "Naughty Sorceress"
    first_game = cardtable.load("mr-card-game")
    assert isinstance(first_game, MrCardGame)
    assert first_game.sorceress_power == 20  # the first-game side by default


def test_k2_1_k2_4_nine_location_piles_in_a_3x3_grid_each_with_its_top_revealed() -> None:
    s = new(3)
    c = s.game.cards
    view = s.view(1)
    cells = sorted((loc["row"], loc["column"]) for loc in view["map"])
    assert cells == [(r, col) for r in range(3) for col in range(3)]
    for li in c.kingdom:
        assert s.top[li] in c.location_cards[li]
        assert len(s.below[li]) == 7 and set(s.below[li]) | {s.top[li]} == set(c.location_cards[li])
    for loc in view["map"]:
        assert loc["monster"]["item_side"]["name"]  # both sides of the top card are public
        assert loc["hidden_cards"] == 7 and len(loc["still_below"]) == 7


def test_k2_3_k2_5_k2_6_k2_7_heap_trainer_piles_pool() -> None:
    s = new(3, meat_supply=100)
    assert s.heap == ()
    assert len(s.trainer) == 4 and len(s.skill_pile) == 56 and s.skill_disc == ()
    assert [len(p) for p in s.piles] == [28 - 12, 10, 8, 6] * 3
    assert s.pool == 100 - (5 + 6 + 7)
    assert new(3).view(0)["meat_pool"] is None  # unlimited by default


def test_k2_first_turn_is_the_first_players_non_combat_phase() -> None:
    s = new(3, first_player="P2")
    assert s.round == 1 and s.turn == 1 and s.current_player == 1
    assert {"combat", "end-turn"} <= {a.text for a in s.legal_actions()}
    assert s.view(1)["prompt"].startswith("P2 (you): non-combat phase")


def test_o4_five_players_need_five_sets_and_play() -> None:
    s = new(5, seed=4)
    assert len({x for p in range(5) for x in s.items[p]}) == 15
    assert conserved(s)
    with pytest.raises(OptionError):
        cardtable.load("mr-card-game", players=6)
