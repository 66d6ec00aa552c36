"""The heuristic player: it plays whole games that end with someone defeating the Sorceress after a
plausible number of rounds, marches only when it can win, kills the best monster it reaches, trains
skills and turns buffs on; rollout_rewards prefers the stronger position."""

from __future__ import annotations

import pytest

import cardtable
from cardtable.agents import Observation
from cardtable.agents.heuristics.mr_card_game import Heuristic, decide, rollout_rewards, strength
from cardtable.games.mr_card_game.codes import D_POLL, D_TARGET
from cardtable.games.mr_card_game.state import McgState

from .helpers import cid, give_item, give_skill, legal, new, on_top, set_hand


def _play(players: int, seed: int, **options: object) -> tuple[McgState, int, int]:
    s = cardtable.load("mr-card-game", players=players, **options).new(seed, log=False)
    assert isinstance(s, McgState)
    agents = [Heuristic(seed * 10 + p) for p in range(players)]
    marches = trains = 0
    while not s.is_over:
        p = s.current_player
        assert p is not None
        a = agents[p].choose(Observation(s, p))
        marches += a.kind == "march"
        trains += a.kind == "train"
        s.apply(a)
    return s, marches, trains


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_heuristic_games_end_with_a_defeated_sorceress_in_a_plausible_number_of_rounds(players: int, seed: int) -> None:
    s, marches, trains = _play(players, seed)
    r = s.result()
    assert r.reason == "sorceress-defeated" and r.winners
    assert 5 <= s.round <= 40
    assert marches >= 1 and trains >= players  # everyone trains along the way
    assert s.elim == []  # it marched only when it could win


def test_it_marches_only_when_it_can_reach_the_sorceress() -> None:
    s = new(2)
    while s.phase != D_POLL:
        s.apply("end-turn" if "end-turn" in legal(s) else "done")
    set_hand(s, 0, ["mus1", "mus1", "mox1", "mox1", "mys1", "mys1"])
    assert decide(s, 0, s.legal_actions()).text == "pass"
    set_hand(s, 0, ["mus4", "mus4", "mus4", "mus3", "mus3", "mus3"])  # 21 + 1 >= 20
    assert decide(s, 0, s.legal_actions()).text == "march"


def test_it_kills_the_best_monster_it_can_reach_with_few_cards() -> None:
    s = new(3)
    boar, bunny = cid(s, "Sewer Gator"), cid(s, "Dust Bunny Brute")  # powers 5 and 1
    on_top(s, boar)
    on_top(s, bunny)
    for li in s.game.cards.kingdom:  # only these two monsters on the map
        if s.top[li] not in (boar, bunny):
            s.top[li], s.below[li] = -1, tuple(sorted((s.top[li], *s.below[li])))
    set_hand(s, 0, ["mus3", "mus2", "mus1", "mox1", "mys1", "mys1"])
    s.apply("combat")
    first = decide(s, 0, s.legal_actions())
    assert first.text == "maneuver kind=melee stat=mus3"
    s.apply(first)
    while s.phase != D_TARGET:
        s.apply(decide(s, 0, s.legal_actions()))
    kill = decide(s, 0, s.legal_actions())
    assert kill.text == f"kill card={boar}"
    assert len(s.played[0]) == 2  # 3 + 1 (sword) + 1: enough for power 5, the Muscle 1 kept


def test_it_turns_on_a_buff_that_helps_its_maneuver() -> None:
    s = new(3)
    walrus = cid(s, "Rage of the Walrus")
    give_skill(s, 0, walrus)
    set_hand(s, 0, ["mys2", "mus3", "mus3", "mus2", "mus1", "mox1"])
    s.meat[0] = 0  # nothing to train
    s._legal = None
    a = decide(s, 0, s.legal_actions())
    assert a.text == "mojo stat=mys2"
    s.apply(a)
    assert decide(s, 0, s.legal_actions()).text == f"buff card={walrus}"


def test_it_trains_the_affordable_skill_that_helps_most() -> None:
    s = new(3)
    practice, haul = cid(s, "Clubbing Practice"), cid(s, "Bash-Bandage")  # +1 melee, or a cure
    s.trainer = (practice, haul, -1, -1)
    set_hand(s, 0, ["mus3", "mus3", "mus2", "mus1", "mox1", "mys1"])
    assert decide(s, 0, s.legal_actions()).text == f"train card={practice}"


def test_rollout_rewards_prefer_the_stronger_position() -> None:
    s = new(3)
    base = rollout_rewards(s)
    assert len(base) == 3 and abs(sum(base) - 1) < 1e-9
    give_item(s, 0, cid(s, "Overseer's Cleaver"), equipped=True)  # +5 melee
    give_skill(s, 0, cid(s, "Pasta Thralldom"))
    better = rollout_rewards(s)
    assert better[0] > base[0] and better[1] < base[1]
    assert strength(s, 0) > strength(s, 1)
    s.out = 1 << 2
    assert rollout_rewards(s)[2] == 0.0
