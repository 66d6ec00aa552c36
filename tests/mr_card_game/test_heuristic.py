"""The heuristic player: it plays whole games that end with someone defeating the Sorceress after a
plausible number of rounds, marches only when it can win, kills the best monster it reaches, trains
skills and turns buffs on; rollout_rewards prefers the stronger position.

The supplemental options: it blocks a boss's counter-attack when the negative effect costs more than
the cards, takes a counter-attack that brings nothing, cures its worst negative effect, keeps within
three pieces of equipment, reveals Mr. Store items that help, picks the class that fits, perms its
best skill and goes for the Sorceress of its run in ascension; heuristic games over every
configuration end."""

from __future__ import annotations

import pytest

import cardtable
from cardtable.agents import Observation
from cardtable.agents.heuristics.mr_card_game import Heuristic, decide, rollout_rewards, strength
from cardtable.engine import OptionValue
from cardtable.games.mr_card_game.codes import (
    D_BLOCK,
    D_CLASS,
    D_CURE,
    D_PERM,
    D_POLL,
    D_SIDE,
    D_TARGET,
    D_UNEQUIP,
)
from cardtable.games.mr_card_game.game import MrCardGame
from cardtable.games.mr_card_game.state import McgState
from tests.agents.games import hero_share

from .helpers import (
    act,
    boss_on_top,
    cid,
    give_item,
    give_lasting,
    give_skill,
    give_store,
    legal,
    new,
    on_top,
    only_targets,
    set_deck,
    set_discard,
    set_hand,
)


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
    assert len(base) == 3 and all(0 < r < 1 for r in base)
    give_item(s, 0, cid(s, "Overseer's Cleaver"), equipped=True)  # +5 melee
    give_skill(s, 0, cid(s, "Pasta Thralldom"))
    better = rollout_rewards(s)
    assert better[0] > base[0] and better[1] < base[1]
    assert strength(s, 0) > strength(s, 1)
    s.out = 1 << 2
    assert rollout_rewards(s)[2] == 0.0


def test_rollout_rewards_a_lone_player_still_gains_by_growing_towards_the_sorceress() -> None:
    # With the others out, a share of the win against them says nothing: progress towards the
    # Sorceress must (else a lone searcher never improves, never marches, and the turn limit ends
    # the game with no winner).
    s = new(3)
    s.out = 0b110
    base = rollout_rewards(s)
    assert base[1] == base[2] == 0.0 and 0 < base[0] < 1
    give_item(s, 0, cid(s, "Overseer's Cleaver"), equipped=True)  # +5 melee
    assert base[0] < rollout_rewards(s)[0] < 1


def test_rollout_rewards_a_lone_player_values_the_kill_its_combat_is_heading_for() -> None:
    # Alone, the share of the win is 1 whatever happens, so the coming kill must count in the progress:
    # otherwise no step of a combat looks better than ending it, and strong (which scores the leaf at
    # once) ended combat after combat against a random opponent that had marched and failed, until the
    # turn limit (no winner: 3 of 20 games on the 2026-11-27 device ladder).
    s = new(3)
    s.out = 0b110
    boar, bunny = cid(s, "Sewer Gator"), cid(s, "Dust Bunny Brute")
    on_top(s, boar)
    on_top(s, bunny)
    set_hand(s, 0, ["mus3", "mus2", "mus1", "mox1", "mys1", "mys1"])
    before = rollout_rewards(s)[0]
    s.apply("combat")
    s.apply("maneuver kind=melee stat=mus3")
    fighting = rollout_rewards(s)[0]
    assert 0 < before < fighting < 1


def test_a_lone_player_is_handed_to_the_heuristic_and_the_search_stays_as_it_was() -> None:
    from cardtable.agents import make_agent
    from cardtable.agents.heuristics.mr_card_game import search_defers
    from cardtable.agents.ismcts import Ismcts

    s = new(2)
    assert not search_defers(s.view(0), 0)
    s.out = 0b10  # P2 marched and failed
    s._legal = None
    assert search_defers(s.view(0), 0) and not search_defers(s.view(1), 1)
    assert not search_defers({"players": "nonsense"}, 0) and not search_defers({}, 0)
    # Alone, strong plays the heuristic's move without a search ...
    alone = make_agent("strong:iterations=50", s.game, 7)
    assert isinstance(alone, Ismcts)
    move = alone.choose(Observation(s, 0))
    assert alone.last_iterations == 0 and move in s.legal_actions()
    assert move.text == decide(s, 0, s.legal_actions()).text
    # ... and that leaves its own generator alone: its next searched decision is the one an agent
    # that never met a lone position makes.
    fresh = make_agent("strong:iterations=50", s.game, 7)
    assert isinstance(fresh, Ismcts)
    other = new(2, seed=3)
    a, b = alone.choose(Observation(other, 0)), fresh.choose(Observation(other, 0))
    assert alone.last_iterations == fresh.last_iterations == 50
    assert (a.text, alone.last_stats) == (b.text, fresh.last_stats)
    # A search without the game's prior (plain ISMCTS) has no heuristic to hand it to.
    plain = make_agent("ismcts:iterations=20,prior=none", s.game, 7)
    assert isinstance(plain, Ismcts)
    plain.choose(Observation(s, 0))
    assert plain.last_iterations == 20


def test_rollout_rewards_play_a_march_out_a_hopeless_announcer_is_out_a_sure_one_wins() -> None:
    from .test_march import STRONG, WEAK, until_poll

    for hand, expected in ((WEAK, 0.0), (STRONG, 1.0)):
        s = new(2)
        until_poll(s)
        assert s.phase == D_POLL and s.current_player == 0
        set_hand(s, 0, hand)
        set_hand(s, 1, WEAK)
        before = rollout_rewards(s)
        assert 0 < before[0] < 1
        act(s, "march")  # P1 announces: the March is played to its end before scoring
        assert rollout_rewards(s)[0] == expected


# -- the supplemental options ------------------------------------------------------------------------


def _heuristic(s: McgState) -> str:
    p = s.current_player
    assert p is not None
    return decide(s, p, s.legal_actions()).text


def _kill_ed(s: McgState, rest: list[str]) -> int:
    """P1 kills Ed the Undying (power 19, counter 4 of any type) with four Muscle 4 and the Cleaver."""
    ed = cid(s, "Ed the Undying")
    boss_on_top(s, ed)
    give_item(s, 0, cid(s, "Overseer's Cleaver"), equipped=True)
    set_hand(s, 0, ["mus4", "mus4", "mus4", "mus4", *rest])
    act(s, "combat", "maneuver kind=melee stat=mus4", "play stat=mus4", "play stat=mus4", "play stat=mus4", "done")
    act(s, f"kill card={ed}")
    assert s.phase == D_BLOCK
    return ed


def test_o1_it_blocks_a_boss_counter_attack_with_cards_it_does_not_fight_with() -> None:
    s = new(3, bosses=True)
    ed = _kill_ed(s, ["mys2", "mys2"])  # Curse of the Undying: -1 melee for a melee player, no AutoSell
    assert _heuristic(s) == "block stat=mys2"
    act(s, "block stat=mys2")
    assert _heuristic(s) == "block stat=mys2"
    act(s, "block stat=mys2")
    assert ed in s.gone and not s.lasting[0]


def test_o1_it_takes_a_counter_attack_it_cannot_block_or_that_brings_nothing() -> None:
    s = new(3, bosses=True)
    _kill_ed(s, ["mys1", "mox3"])  # no single type reaches 4: no card is offered
    assert legal(s) == ["suffer"] and _heuristic(s) == "suffer"
    # Under the legacy block-discards=any the cards are offered, and the heuristic still keeps them.
    s = new(3, bosses=True, block_discards="any")
    _kill_ed(s, ["mys1", "mox3"])
    assert sorted(legal(s)) == ["block stat=mox3", "block stat=mys1", "suffer"]
    assert _heuristic(s) == "suffer"
    # Under hardcore=all a monster's counter-attack brings no negative effect (A45): never worth cards.
    s = new(3, hardcore="all")
    hobo = cid(s, "Hung Over Half-Orc Hobo")
    on_top(s, hobo)
    only_targets(s, [hobo])
    set_hand(s, 0, ["mus2", "mus2", "mus2", "mox2", "mys2", "mys1"])
    act(s, "combat", "maneuver kind=melee stat=mus2", "done", f"kill card={hobo}")
    assert "block stat=mus2" in legal(s) and _heuristic(s) == "suffer"


def test_o2_at_a_rollover_it_removes_its_worst_negative_effect() -> None:
    s = new(3, bosses=True)
    bat, ed = cid(s, "Boss Bat"), cid(s, "Ed the Undying")  # -1 melee; -1 melee, -1 spell, no AutoSell
    give_lasting(s, 0, bat)
    give_lasting(s, 0, ed)
    set_deck(s, 0, [])
    set_discard(s, 0, ["mus1", "mus1", "mus1", "mys1", "mys1", "mys1"])
    act(s, "end-turn", "discard stat=mus1", "done")
    assert s.phase == D_CURE and _heuristic(s) == f"cure card={ed}"


def test_o5_over_three_pieces_of_equipment_it_takes_off_the_least_useful_and_does_not_loop() -> None:
    s = new(3, mr_store=True)
    c = s.game.cards
    sword = cid(s, "Sweet Ninja Sword")
    assert sword in s.items[0] and len(s.items[0]) == 3  # the newbie gear, equipped
    pendant, accessory = cid(s, "Li'l Ninja Pendant"), cid(s, "Mr. Accessory")  # +1 ranged/evade; +1 to all
    give_item(s, 0, pendant)
    give_item(s, 0, accessory)
    set_hand(s, 0, ["mus3", "mus3", "mus2", "mus1", "mox1", "mys1"])
    s.meat[0] = 0
    s._legal = None
    assert _heuristic(s) == f"equip card={accessory}"  # the better accessory first
    act(s, f"equip card={accessory}")
    assert s.phase == D_UNEQUIP
    worst = min(
        (x for x in s.items[0] if s.eq >> x & 1 and x != accessory),
        key=lambda x: (sum(c.icons[x]), c.anvil[x], c.icons[x][0]),
    )
    assert c.icons[worst][0] == 0 and _heuristic(s) == f"unequip card={worst}"
    for _ in range(6):  # the pendant over the other newbie piece without a melee bonus, then done
        a = _heuristic(s)
        if a == "combat":
            break
        act(s, a)
    assert a == "combat"
    assert {x for x in s.items[0] if s.eq >> x & 1} == {sword, pendant, accessory}


def test_s1_it_reveals_a_mr_store_item_that_helps_and_it_can_afford() -> None:
    s = new(3, mr_store=True)
    storm, lamp = cid(s, "Pocket Thunderstorm"), cid(s, "Star-Chart Headlamp")  # 5 damage; a spooky resist
    for x in s.store[0]:
        s.store[0] = tuple(y for y in s.store[0] if y != x)
        s.store_aside = (*s.store_aside, x)
    give_store(s, 0, lamp)
    set_hand(s, 0, ["mus3", "mus3", "mus2", "mus1", "mox1", "mys1"])
    s.meat[0] = 10
    s.trainer = (-1, -1, -1, -1)
    s._legal = None
    assert f"reveal card={lamp}" in legal(s) and _heuristic(s) == "combat"
    give_store(s, 0, storm)
    assert _heuristic(s) == f"reveal card={storm}"
    s.meat[0] = 4  # it cannot pay the 5 meat
    s._legal = None
    assert _heuristic(s) == "combat"


def test_s3_it_plays_the_class_side_of_a_board_that_beats_the_newbie_gear() -> None:
    s = new(3, classes="boards")
    assert s.phase == D_SIDE and s.current_player == 0
    assert _heuristic(s) == "side face=class"


def test_o3_it_defeats_the_sorceress_of_its_run_perms_its_best_skill_and_takes_the_class_that_fits() -> None:
    s = new(3, ascension=True, classes="cards")
    c = s.game.cards
    seal, turtle, disco = (cid(s, f"{name} Class Card") for name in ("Seal Clubber", "Turtle Tamer", "Disco Bandit"))
    s.middle = (seal, turtle)  # its own class goes back there too; the others are dealt
    for p in range(3):
        if s.klass[p] in (seal, turtle, disco):
            s.klass[p] = next(x for x in c.class_cards if x not in (seal, turtle, disco, *s.klass))
    s.klass[0] = disco
    practice, bandage = cid(s, "Clubbing Practice"), cid(s, "Bash-Bandage")  # +1 melee; a cure
    give_skill(s, 0, practice)
    give_skill(s, 0, bandage)
    give_item(s, 0, cid(s, "Overseer's Cleaver"), equipped=True)  # +5 melee
    set_hand(s, 0, ["mus4", "mus4", "mus4", "mus3", "mys1", "mox1"])  # 15 + 6 >= 20: form 1 is in reach
    s.meat[0] = 0
    s._legal = None
    while s.phase != D_TARGET:
        act(s, _heuristic(s))
    assert _heuristic(s) == "kill-sorceress"
    act(s, "kill-sorceress")
    assert s.runs[0] == 1 and s.phase == D_PERM
    assert _heuristic(s) == f"perm card={practice}"
    act(s, f"perm card={practice}")
    assert s.phase == D_CLASS and sorted(legal(s)) == sorted([f"class card={seal}", f"class card={turtle}"])
    assert _heuristic(s) == f"class card={seal}"  # +1 melee fits a melee player with Clubbing Practice


def test_rollout_rewards_count_ascension_runs_and_penalise_negative_effects() -> None:
    s = new(3, bosses=True)
    base = rollout_rewards(s)
    give_lasting(s, 0, cid(s, "Ed the Undying"))
    assert rollout_rewards(s)[0] < base[0]
    s = new(3, ascension=True)
    base = rollout_rewards(s)
    s.runs[1] = 1  # a run completed, the character reset: still ahead
    assert rollout_rewards(s)[1] > base[1]


def _heuristic_game(options: dict[str, OptionValue], seed: int) -> McgState:
    s = cardtable.load("mr-card-game", **options).new(seed, log=False)
    assert isinstance(s, McgState)
    agents = [Heuristic(seed * 10 + p) for p in range(s.game.players)]
    while not s.is_over:
        p = s.current_player
        assert p is not None
        s.apply(agents[p].choose(Observation(s, p)))
    return s


@pytest.mark.parametrize("index", range(len(MrCardGame.CONFIGURATIONS)))
def test_heuristic_games_over_every_configuration_end(index: int) -> None:
    options = dict(MrCardGame.CONFIGURATIONS[index])
    s = _heuristic_game(options, index)
    r = s.result()
    limit = int(options.get("turn-limit", 100))
    if r.reason == "turn-limit":
        assert s.round == limit + 1 and not r.winners
    else:
        assert r.winners and s.round <= limit
        assert r.reason == ("king-freed" if options.get("ascension") else "sorceress-defeated")


def test_an_all_options_ascension_game_between_heuristics_frees_the_king() -> None:
    options = dict(MrCardGame.CONFIGURATIONS[-1])
    assert options["ascension"] and options["mr-store"] and options["classes"] == "boards"
    del options["turn-limit"]  # no limit: the game must end by itself
    s = _heuristic_game(options, 1)
    r = s.result()
    assert r.reason == "king-freed" and len(r.winners) == 1 and s.runs[r.winners[0]] == 3
    assert 20 <= s.round <= 80


def test_ismcts_guided_by_the_heuristic_plays_the_game() -> None:
    """With the heuristic as its tree's prior (``search_prior``), a small search budget beats random
    in most of 4 games and holds its own against the heuristic (fixed seeds: it won 2 of these 4;
    without the prior the same budget won none of them, and 200 iterations none of 4 against
    random). The README's ladder measures it over more games."""
    game = cardtable.load("mr-card-game", players=2)
    assert hero_share(game, "ismcts:iterations=30", "random", 4, other_offset=1) > 0.5
    assert hero_share(game, "ismcts:iterations=30", "heuristic", 4, other_offset=1) >= 0.25
