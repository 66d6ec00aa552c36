"""K10 the Heap, K11 the map update (locations revealed and rebuilt), K12 the skill trainer."""

from __future__ import annotations

import pytest

from cardtable.games.mr_card_game.state import McgState

from .helpers import act, cid, conserved, finish_turn, give_item, legal, new, on_top, set_hand, set_trainer, to_heap


def _four(s: McgState) -> list[int]:
    c = s.game.cards
    return list(c.skills)[:4]


def test_k12_2_bought_skills_leave_gaps_filled_from_the_draw_pile_at_the_start() -> None:
    s = new(3)
    a, b, c, d = _four(s)
    set_trainer(s, [a, b, c, d])
    s.meat[0] = 30
    s._legal = None
    act(s, f"train card={b}", f"train card={d}")
    assert s.trainer == (a, -1, c, -1)
    assert [x["name"] if x else None for x in s.view(1)["trainer"]][1] is None
    discarded = s.skill_disc
    finish_turn(s)
    assert len(s.trainer) == 4 and s.trainer[2:] == (a, c)  # the rest slid toward the end
    assert not {s.trainer[0], s.trainer[1]} & {a, b, c, d}  # two new skills at the start
    assert s.skill_disc == discarded  # nothing discarded


def test_k12_3_without_a_purchase_the_oldest_skill_is_discarded() -> None:
    s = new(3)
    a, b, c, d = _four(s)
    set_trainer(s, [a, b, c, d])
    finish_turn(s)
    assert s.trainer[1:] == (a, b, c) and s.trainer[0] not in (a, b, c, d)
    assert s.skill_disc[-1] == d
    assert s.view(0)["skill_discard"][-1]["id"] == d
    assert conserved(s)


@pytest.mark.parametrize("mode", ["reshuffle", "shrink"])
def test_k12_4_a8_when_the_skill_draw_pile_runs_out(mode: str) -> None:
    s = new(3, skill_pile_empty=mode)
    a, b, c, d = _four(s)
    set_trainer(s, [a, b, c, d])
    s.skill_disc, s.skill_pile = tuple(sorted(s.skill_pile)), ()
    s._legal = None
    before = set(s.skill_disc)
    finish_turn(s)
    if mode == "shrink":
        assert s.trainer == (a, b, c) and s.skill_disc[-1] == d
        assert "fewer skills" in " ".join(s.events(0))
    else:
        assert len(s.trainer) == 4 and s.trainer[1:] == (a, b, c)
        assert s.trainer[0] in before | {d} and len(s.skill_pile) == len(before)  # d went back in too
    assert conserved(s)


def test_k11_3_an_emptied_location_is_rebuilt_from_its_cards_in_the_heap() -> None:
    s = new(3)
    c = s.game.cards
    li = c.kingdom[0]
    cellar = list(c.location_cards[li])
    last, in_heap, elsewhere = cellar[0], cellar[1:4], cellar[4:]
    other = cid(s, "Daisy Chain Salad")  # from another location
    for card in elsewhere:
        give_item(s, 1, card)
    to_heap(s, [in_heap[0], other, in_heap[1], in_heap[2]])
    on_top(s, last)
    assert s.below[li] == () and s.top[li] == last
    set_hand(s, 0, ["mus4", "mus4", "mox1", "mox1", "mys1", "mys1"])
    act(s, "combat", "maneuver kind=melee stat=mus4", "play stat=mus4", "done", f"kill card={last}")
    assert s.top[li] == -1
    finish_turn(s)
    # Its three cards left the Heap (the rest keeps its order), shuffled into a new pile, one turned up.
    assert s.heap == (other,)
    assert {s.top[li], *s.below[li]} == set(in_heap)
    loc = next(x for x in s.view(0)["map"] if x["location"] == c.locations[li].name)
    assert loc["monster"]["id"] == s.top[li] and loc["hidden_cards"] == 2 and not loc["empty"]
    assert conserved(s)


def test_k11_3_a7_items_escrowed_this_turn_rebuild_the_pile_and_an_empty_one_waits() -> None:
    s = new(3)
    c = s.game.cards
    li = c.kingdom[1]
    meadow = list(c.location_cards[li])
    for card in meadow:
        give_item(s, 2, card)  # P3 holds every meadow card: the location is empty
    assert s.top[li] == -1 and s.below[li] == ()
    finish_turn(s)
    assert s.top[li] == -1  # none in the Heap: it stays empty (A7) ...
    assert next(x for x in s.view(0)["map"] if x["location"] == c.locations[li].name)["empty"] is True
    finish_turn(s)  # P2
    # ... and is checked again at every update: P3 sells two meadow items; at its end of turn they
    # reach the Heap, and the map update that follows rebuilds the location from them.
    salad, slingshot = meadow[0], meadow[1]
    act(s, f"autosell card={salad}", f"autosell card={slingshot}")
    finish_turn(s)
    assert {s.top[li], *s.below[li]} == {salad, slingshot}
    assert s.heap == ()


def test_k10_the_heap_is_public_and_ordered() -> None:
    s = new(3)
    a, b = cid(s, "Barrel Stave Club"), cid(s, "Questionable Leftovers")
    to_heap(s, [a, b])
    heap = s.view(2)["heap"]
    assert [x["id"] for x in heap] == [a, b]  # bottom first, top last
    assert heap[0]["meat_cost"] == 4 and heap[1]["meat_cost"] is None
    assert not [t for t in legal(s) if t.startswith("dive")]
