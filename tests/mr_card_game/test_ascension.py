"""O3 ascension (supplemental rules "Ascension", with the foils' ascension setup, S2.3 and S3.5): the
Tower of N first forms, N second forms and the third form; no March; the Sorceress of your run in your
combat phase, digging past lower forms; the reset and what it keeps; Instant Karma; bosses and nemesis
piles rebuilt (O3.7); a new class after each run; the first to free King Ralph wins."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

import cardtable
from cardtable.engine import IllegalAction, OptionError, Rng
from cardtable.games.mr_card_game import modifiers
from cardtable.games.mr_card_game.cards import K_BOSS, STAT_KINDS
from cardtable.games.mr_card_game.codes import D_CLASS, D_PERM, D_POLL
from cardtable.games.mr_card_game.effects import EXTRA_UPGRADE
from cardtable.games.mr_card_game.state import McgState

from .helpers import (
    act,
    cid,
    conserved,
    empty_pile,
    finish_turn,
    give_item,
    give_lasting,
    give_skill,
    kind,
    legal,
    new,
    ready,
    set_deck,
    set_discard,
    set_hand,
    texts,
    to_heap,
)

STRONG = ["mus4"] * 6  # 24 Muscle, +1 with the Sweet Ninja Sword (P1's newbie weapon)


def kinds_of(s: McgState, cards: list[int]) -> Counter[str]:
    return Counter(STAT_KINDS[s.game.cards.skind[x]] for x in cards)


def fight_sorceress(s: McgState, p: int, hand: list[str], plays: int) -> None:
    """``p`` (the acting player, in their non-combat phase) starts a combat with a Melee Attack of
    Muscle 4 and plays ``plays`` more Muscle 4 (a Sweet Ninja Sword equipped: +1)."""
    assert s.actor == p
    give_item(s, p, cid(s, "Sweet Ninja Sword"), equipped=True)
    set_hand(s, p, hand)
    act(s, "combat", "maneuver kind=melee stat=mus4", *["play stat=mus4"] * plays, "done")


def set_runs(s: McgState, p: int, runs: int) -> None:
    s.runs[p] = runs
    ready(s)


# -- O3.2 the Tower ----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 5])
def test_o3_2_the_tower_holds_n_first_forms_n_second_forms_and_the_third_form(players: int) -> None:
    s = new(players, ascension=True)
    c = s.game.cards
    # The top is a first form, face up, and its global effect is on; below it N-1 first forms, N
    # second forms and the third form, hidden; the foils left over are removed unseen (pooled with
    # the hidden ones: nobody can tell which are which).
    assert c.form[s.tower] == 1 and s.global_fx == c.gfx[s.tower]
    assert s.tower_left == (players - 1, players, 1)
    assert sorted((s.tower, *s.foil_pool)) == sorted(c.foils)
    assert s.view(0)["sorceress"]["hidden_in_tower"] == {"form 1": players - 1, "form 2": players, "form 3": 1}
    assert c.sorceress in s.box and conserved(s)
    for seat in (None, *range(players)):
        shown = json.dumps(s.view(seat)) + texts(s, seat)
        assert c.mname[s.tower] in shown
        assert all(c.mname[x] not in shown for x in s.foil_pool)
        assert not set(s.foil_pool) & s.known_cards(seat)
    d = s.determinize(1, Rng(7))
    assert isinstance(d, McgState) and d.view(1) == s.view(1) and d.tower_left == s.tower_left


def test_o3_2_the_tower_turns_up_every_first_form_before_any_second_form() -> None:
    """The foils turned up one after the other: N first forms (the top, then N-1 more), then second
    forms, then the third (each a random hidden one of its form: the same as shuffling each form)."""
    from cardtable.games.mr_card_game.setup import reveal_tower

    s = new(3, ascension=True)
    c = s.game.cards
    shown = [s.tower]
    while True:
        reveal_tower(s)
        if s.tower < 0:
            break
        shown.append(s.tower)
    assert [c.form[x] for x in shown] == [1, 1, 1, 2, 2, 2, 3] and len(set(shown)) == 7
    assert len(s.foil_pool) == 4 and s.tower_left == (0, 0, 0)  # two of each first two forms removed


def test_o3_options_ascension_rejects_a_sorceress_choice_and_quests_before_march() -> None:
    with pytest.raises(OptionError, match="sorceress"):
        cardtable.load("mr-card-game", players=3, ascension=True, sorceress="foil-2")
    with pytest.raises(OptionError, match="quests-before-march"):
        cardtable.load("mr-card-game", players=3, ascension=True, bosses=True, **{"quests-before-march": True})
    with pytest.raises(OptionError, match="boss-reset"):
        cardtable.load("mr-card-game", players=3, **{"boss-reset": "all"})


# -- O3.1, O3.3 no March: the Sorceress of your run in your combat phase -----------------------------


def test_o3_1_there_is_no_march_poll() -> None:
    s = new(3, ascension=True)
    for _ in range(7):  # more than two rounds of quiet turns
        finish_turn(s)
        assert s.phase != D_POLL and "march" not in legal(s)
    assert s.round == 3 and s.current_player == 1


def test_o3_3_a19_whoever_beats_the_form_of_their_run_defeats_it_in_their_combat() -> None:
    s = new(3, ascension=True)
    top = s.tower
    fight_sorceress(s, 0, STRONG, 3)  # 16 Muscle + 1 < 20
    assert "kill-sorceress" not in legal(s)
    with pytest.raises(IllegalAction):
        s.apply("kill-sorceress")
    s = new(3, ascension=True)
    fight_sorceress(s, 0, STRONG, 4)  # 20 + 1 beats 20
    assert "kill-sorceress" in legal(s)
    act(s, "kill-sorceress")  # A19: no counter-attack, no loot but the reset and Instant Karma
    assert s.runs[0] == 1 and top in s.lasting[0] and s.tower == -1
    assert f"P1 defeats {s.game.cards.mname[top]} (form 1, power 20)" in texts(s, 2)


# -- O3.4, O3.5 the reset and Instant Karma ----------------------------------------------------------


def test_o3_4_o3_5_the_reset_keeps_exactly_what_the_rules_keep() -> None:
    s = new(3, ascension=True, bosses=True, **{"mr-store": True})
    c = s.game.cards
    top = s.tower
    # P1's run: stat cards of every level in deck, hand and discard pile, acquired items, two trained
    # skills and one permed in an earlier run, an Instant Karma from before, a negative effect,
    # Mr. Store items face up and face down, and meat.
    earlier_karma = next(x for x in s.foil_pool if c.form[x] == 1)
    s.tower_left = (s.tower_left[0] - 1, *s.tower_left[1:])  # (it was one of the Tower's first forms)
    give_lasting(s, 0, earlier_karma)
    treant = cid(s, "Gnarlwood the Treant")
    give_lasting(s, 0, treant)
    set_deck(s, 0, ["mus1", "mus2", "mox3", "mys1", "mys4", "mox1", "mus3"])
    set_discard(s, 0, ["mox2", "mus1", "mys2"])
    old_perm, keep, drop = cid(s, "Spiky Shell"), cid(s, "Smooth Operator"), cid(s, "Tortoise Meditation")
    for skill in (old_perm, keep, drop):
        give_skill(s, 0, skill)
    s.permed |= 1 << old_perm
    club = cid(s, "Tumble Dryer Djinn")  # its item side, the Lint Roller Mace
    give_item(s, 0, club)
    helmet = cid(s, "Bellows Banshee")  # its item side, the Heat-Shield Helmet
    give_item(s, 0, helmet, equipped=True)
    shown_store, hidden_store = s.store[0][0], s.store[0][1]
    give_item(s, 0, shown_store)
    s.meat[0] = 13
    heap_before = s.heap
    fight_sorceress(s, 0, STRONG, 4)
    played = list(s.played[0])
    act(s, "kill-sorceress")
    # 1-2: every stat card above level one back to its pile, the deck exactly four of each level-one
    # card; hand, discard pile and played cards emptied (the hand is drawn at the end of the turn).
    assert kinds_of(s, s.deck[0]) == Counter({"mus1": 4, "mys1": 4, "mox1": 4})
    assert s.hand[0] == [] and s.disc[0] == [] and s.played[0] == []
    assert all(x in s.piles[c.skind[x]] for x in played)
    # 3: acquired items into the Heap (display-case order, A51), the newbie gear back and equipped.
    newbie = c.newbie[0]
    assert s.heap == (*heap_before, club, helmet)
    assert set(newbie) <= set(s.items[0]) and all(s.eq >> x & 1 for x in newbie)
    # 5: kept: meat, Mr. Store items face up and face down, Instant Karmas, the permed skill; A38: the
    # negative effect is gone.
    assert s.meat[0] == 13
    assert shown_store in s.items[0] and hidden_store in s.store[0]
    assert set(s.items[0]) == {*newbie, shown_store}
    assert earlier_karma in s.lasting[0] and top in s.lasting[0] and treant not in s.lasting[0]
    assert treant in s.gone
    # 4: perm one trained skill; the others go to the skill discard pile.
    assert s.phase == D_PERM and s.current_player == 0
    assert legal(s) == [f"perm card={keep}", f"perm card={drop}", "no-perm"]
    act(s, f"perm card={keep}")
    assert set(s.skills[0]) == {old_perm, keep} and drop in s.skill_disc
    assert conserved(s)
    # Every seat sees which of P1's skills are permed (perming is announced).
    for seat in (0, 1, None):
        shown = {d["id"]: d.get("permed", False) for d in s.view(seat)["players"][0]["skills"]}
        assert shown == {old_perm: True, keep: True}
    # The turn ends; the hand is drawn from the new deck.
    finish_turn(s)
    assert len(s.hand[0]) == 6 and kinds_of(s, s.hand[0] + s.deck[0]) == Counter({"mus1": 4, "mys1": 4, "mox1": 4})


def test_o3_5_instant_karma_gives_an_extra_upgrade_and_the_next_foil_comes_at_the_map_update() -> None:
    s = new(3, ascension=True)
    c = s.game.cards
    top = s.tower
    fx = c.gfx[top]
    fight_sorceress(s, 0, STRONG, 4)
    upgrades = s.mods[0][modifiers.UPGRADES]
    act(s, "kill-sorceress")
    # Her global effect stops at once; the Tower shows its location card until the map update.
    assert s.global_fx == () and s.tower == -1 and fx
    karma = s.view(1)["players"][0]["instant_karma"]
    assert [k["name"] for k in karma] == ["Instant Karma"]
    gone_fx: int = sum(int(e[1]) for e in fx if e[0] == EXTRA_UPGRADE)  # her own upgrade change, if any
    assert s.mods[0][modifiers.UPGRADES] == upgrades + 1 - gone_fx  # Instant Karma: +1 upgrade at a rollover
    finish_turn(s)
    assert c.form[s.tower] == 1 and s.tower != top and s.global_fx == c.gfx[s.tower]
    assert s.tower_left == (1, 3, 1)
    assert f"the Sorceress' Tower shows {c.mname[s.tower]}" in texts(s, 2)


# -- O3.3 digging past lower forms, O3.6 King Ralph --------------------------------------------------


def test_o3_3_a_player_on_a_later_run_digs_past_the_lower_forms_on_top() -> None:
    s = new(3, ascension=True)
    c = s.game.cards
    top = s.tower
    set_runs(s, 0, 1)  # P1 faces the second form (power 25) while a first form is on top
    fight_sorceress(s, 0, STRONG, 4)  # 21 < 25
    assert "kill-sorceress" not in legal(s)
    s = new(3, ascension=True)
    set_runs(s, 0, 1)
    assert s.view(0)["players"][0]["faces_form"] == 2
    hidden = set(s.foil_pool)
    fight_sorceress(s, 0, STRONG, 5)  # 25
    act(s, "kill-sorceress")
    found = s.lasting[0][-1]
    assert c.form[found] == 2 and found in hidden and s.runs[0] == 2
    # The lower forms go back: the first form stays on top with its global effect.
    assert s.tower == top and s.global_fx == c.gfx[top] and s.tower_left == (2, 2, 1)
    assert f"P1 sets the lower forms aside and finds {c.mname[found]}" in texts(s, 1)


def test_o3_6_the_first_to_defeat_the_third_form_frees_king_ralph_and_wins() -> None:
    s = new(3, ascension=True)
    c = s.game.cards
    set_runs(s, 0, 2)
    give_skill(s, 0, cid(s, "Spiky Shell"))
    fight_sorceress(s, 0, STRONG, 5)  # 25 + 1 < 30
    assert "kill-sorceress" not in legal(s)
    s = new(3, ascension=True)
    set_runs(s, 0, 2)
    fight_sorceress(s, 0, [*STRONG[:5], "mys1"], 4)
    s.dmg = 9  # (damage from step 1 adds to the attack: 20 + 1 + 9 = 30)
    ready(s)
    act(s, "kill-sorceress")
    king = c.foil_forms[2][0]
    assert s.is_over and s.winners == (0,) and s.reason == "king-freed"
    assert king in s.lasting[0] and s.tower_left[2] == 0
    assert "P1 frees King Ralph" in texts(s, 1)
    assert s.view(1)["result"] is not None


# -- O3.7 bosses and nemesis piles built again -------------------------------------------------------


def _beat_last_boss(s: McgState, blocked: bool) -> int:
    """Every boss but Boss Bat is gone (beaten and blocked) except Ed the Undying, whose negative
    effect P2 suffers; P1 kills the Bat, the last boss of the pile."""
    from .helpers import _take_from_anywhere, only_targets

    c = s.game.cards
    bat, ed = cid(s, "Boss Bat"), cid(s, "Ed the Undying")
    for b in c.bosses:
        if b not in (bat, ed):
            _take_from_anywhere(s, b)
            s.gone = (*s.gone, b)
    give_lasting(s, 1, ed)
    assert s.quests == (bat,)
    only_targets(s, [])
    set_hand(s, 0, ["mus3", "mus3", "mys1", "mys1", "mox1", "mox1"])
    act(s, "combat", "maneuver kind=melee stat=mus3", "play stat=mus3", "done", f"kill card={bat}")
    act(s, "block stat=mys1" if blocked else "suffer")
    return bat


@pytest.mark.parametrize("reset", ["removed-only", "all"])
def test_o3_7_a39_once_every_boss_is_beaten_the_bosses_return_in_power_order(reset: str) -> None:
    s = new(2, ascension=True, bosses=True, boss_reset=reset)
    c = s.game.cards
    ed = cid(s, "Ed the Undying")
    bat = _beat_last_boss(s, blocked=True)
    # At once (before the stat choice), lowest power on top.
    assert s.quests[0] == bat and [c.mpower[b] for b in s.quests] == sorted(c.mpower[b] for b in s.quests)
    if reset == "removed-only":
        assert s.quests == tuple(b for b in c.bosses if b != ed) and ed in s.lasting[1]
    else:
        assert s.quests == c.bosses and ed not in s.lasting[1]  # the negative effect is cleared
    assert not [x for x in s.gone if c.kind[x] == K_BOSS]
    assert "boss cards return to the quest pile" in texts(s, 1)
    act(s, "choose type=mus")
    assert conserved(s)


def test_o3_7_the_last_boss_suffered_stays_a_negative_effect_under_removed_only() -> None:
    s = new(2, ascension=True, bosses=True)
    bat = _beat_last_boss(s, blocked=False)
    assert bat in s.lasting[0] and bat not in s.quests and len(s.quests) == 9


@pytest.mark.parametrize("rebuild", ["heap", "all"])
def test_o3_7_a40_an_emptied_nemesis_pile_is_built_again(rebuild: str) -> None:
    from .helpers import only_targets, to_heap

    s = new(3, ascension=True, nemesis=True, nemesis_rebuild=rebuild)
    c = s.game.cards
    li = c.nemesis_locations[0]
    top, rest = s.top[li], list(s.below[li])
    held = rest.pop()
    give_item(s, 1, held)  # P2 holds one of its epic items; the other four are in the Heap
    to_heap(s, rest)
    only_targets(s, [top])
    set_hand(s, 0, ["mus4", "mus4", "mus4", "mus4", "mox1", "mys1"])
    act(s, "combat", "maneuver kind=melee stat=mus4", "play stat=mus4", "play stat=mus4", "play stat=mus4", "done")
    act(s, f"kill card={top}")
    assert s.top[li] < 0 and not s.below[li]
    finish_turn(s)  # the map update
    pile = {s.top[li], *s.below[li]}
    assert s.top[li] >= 0 and not set(rest) & set(s.heap)
    if rebuild == "heap":
        assert pile == set(rest) and held in s.items[1] and top in s.items[0]
    else:
        assert pile == {*rest, held, top} and held not in s.items[1] and top not in s.items[0]
    assert "is built again" in texts(s, 2) and conserved(s)


def test_o3_7_without_ascension_an_emptied_nemesis_pile_stays_empty() -> None:
    from .helpers import only_targets, to_heap

    s = new(3, nemesis=True)
    li = s.game.cards.nemesis_locations[0]
    top, rest = s.top[li], list(s.below[li])
    to_heap(s, rest)
    only_targets(s, [top])
    set_hand(s, 0, ["mus4", "mus4", "mus4", "mus4", "mox1", "mys1"])
    act(s, "combat", "maneuver kind=melee stat=mus4", "play stat=mus4", "play stat=mus4", "play stat=mus4", "done")
    act(s, f"kill card={top}")
    finish_turn(s)
    assert s.top[li] < 0 and not s.below[li]


# -- O3.8 a new class after each run (S2.3, S3.5) ----------------------------------------------------


def _complete_run(s: McgState) -> None:
    """P1 (who trained nothing: no perm to choose) defeats the first form."""
    fight_sorceress(s, 0, STRONG, 4)
    act(s, "kill-sorceress")


def test_s2_3_a_class_card_goes_back_to_the_middle_and_another_is_chosen() -> None:
    s = new(3, ascension=True, classes="cards")
    c = s.game.cards
    old = s.klass[0]
    middle = s.middle
    assert len(middle) == 3 and s.view(2)["middle"] is not None
    _complete_run(s)
    assert s.phase == D_CLASS and s.current_player == 0
    assert old in s.middle and s.klass[0] == -1
    assert legal(s) == [f"class card={x}" for x in middle]  # any other one, not the one returned
    with pytest.raises(IllegalAction):
        s.apply(f"class card={old}")
    new_class = middle[1]
    act(s, f"class card={new_class}")
    assert s.klass[0] == new_class and s.middle == tuple(sorted((*middle[:1], *middle[2:], old)))
    assert s.mods[0] == modifiers.compute(s, 0)
    assert f"P1 takes the {c.iname[new_class]}" in texts(s, 1) and conserved(s)


def test_s2_3_ascension_with_class_cards_needs_one_card_more_than_the_players(tmp_path: Path) -> None:
    # After a run the class card goes back and one of the *other* cards in the middle is taken: a
    # transcription with only as many class cards as players would leave nothing to take (a game
    # with no legal action), so such a file is refused when the game is loaded.
    text = (Path(modifiers.__file__).parent / "cards.toml").read_text()
    fifth = [i for i in range(len(text)) if text.startswith("\n[[class_card]]", i)][4]
    end = text.index("\n[[class_board]]")
    path = tmp_path / "four-classes.toml"
    path.write_text(text[:fifth] + text[end:])
    four = new(4, cards=str(path), classes="cards")  # without ascension four cards serve four players
    assert len(four.game.cards.class_cards) == 4 and all(k >= 0 for k in four.klass)
    new(3, cards=str(path), classes="cards", ascension=True)  # three players: one card to spare
    with pytest.raises(
        OptionError,
        match="lacks what these options need: at least 5 class cards \\(ascension: a new class after each run\\)",
    ):
        cardtable.load("mr-card-game", players=4, cards=str(path), classes="cards", ascension=True)


@pytest.mark.parametrize("choice", ["board", "plain"])
def test_s3_5_a_class_board_goes_back_and_another_or_the_mr_card_game_side_is_taken(choice: str) -> None:
    s = new(3, ascension=True, classes="boards")
    c = s.game.cards
    act(s, "side face=class", "side face=plain", "side face=class")
    old = s.klass[0]
    old_gear = c.board_items[c.class_boards.index(old)]
    assert set(old_gear) <= set(s.items[0])
    middle = s.middle
    _complete_run(s)
    assert s.phase == D_CLASS and old in s.middle
    assert not set(old_gear) & set(s.items[0])  # the board took its equipment back to the middle
    assert legal(s) == [*(f"class card={x}" for x in middle), "side face=plain"]
    newbie = set(c.newbie[0])
    if choice == "board":
        board = middle[0]
        act(s, f"class card={board}")
        gear = c.board_items[c.class_boards.index(board)]
        assert s.klass[0] == board and set(gear) <= set(s.items[0]) and all(s.eq >> x & 1 for x in gear)
        assert not newbie & set(s.items[0])
    else:
        act(s, "side face=plain")
        assert newbie <= set(s.items[0]) and all(s.eq >> x & 1 for x in newbie)
        assert s.klass[0] == -1 and old in s.middle
    assert conserved(s)


def _win_run_without_the_sword(s: McgState) -> None:
    """P1 (in their non-combat phase, its newbie weapon elsewhere) beats the form-1 Sorceress (20)
    with six Muscle 4 (24) and completes run 1."""
    set_hand(s, 0, ["mus4"] * 6)
    act(s, "combat", "maneuver kind=melee stat=mus4", *["play stat=mus4"] * 5, "done", "kill-sorceress")
    assert s.runs[0] == 1


def test_o3_4_a37_newbie_gear_held_by_another_player_is_replaced_by_a_spare_set_card_from_the_box() -> None:
    """A37: P1's Sweet Ninja Sword lies in P2's display case when P1 ascends; P1 takes the weapon of
    a spare newbie set still in the box (3 players: sets 4 and 5 stay boxed, the first one found is
    taken), and P2 keeps the sword. P1's hat and pants come back from P1's own case and the Heap."""
    s = new(3, ascension=True)
    c = s.game.cards
    sword, hat, pants = c.newbie[0]
    give_item(s, 1, sword, equipped=True)  # held by another player (set up directly)
    to_heap(s, [pants])
    spare_weapons = [gear[0] for gear in c.newbie[3:]]
    assert all(x in s.box for x in spare_weapons)
    _win_run_without_the_sword(s)
    spare = spare_weapons[0]
    assert sword in s.items[1] and sword not in s.items[0]
    assert {spare, hat, pants} <= set(s.items[0]) and all(s.eq >> x & 1 for x in (spare, hat, pants))
    assert spare not in s.box and pants not in s.heap and spare_weapons[1] in s.box
    assert conserved(s)


def test_o3_4_a37_with_no_spare_set_card_in_the_box_the_player_does_without() -> None:
    """A37: 5 players, no spare set left in the box: P1's sword held by P3 is not replaced; P1 comes
    back with only the hat and pants (and no weapon equipped)."""
    s = new(5, ascension=True)
    c = s.game.cards
    sword, hat, pants = c.newbie[0]
    assert not any(gear[0] in s.box for gear in c.newbie)
    give_item(s, 2, sword, equipped=True)
    _win_run_without_the_sword(s)
    weapons = [x for x in s.items[0] if c.slot[x] == c.slot[sword]]
    assert weapons == [] and {hat, pants} <= set(s.items[0]) and sword in s.items[2]
    assert conserved(s)


# -- bad input ---------------------------------------------------------------------------------------


def test_bad_input_for_the_ascension_decisions() -> None:
    from cardtable.engine import MalformedAction

    s = new(3, ascension=True, classes="cards")
    with pytest.raises(IllegalAction, match="not legal now"):
        s.apply("kill-sorceress")  # not in the non-combat phase
    give_skill(s, 0, cid(s, "Spiky Shell"))
    other = cid(s, "Smooth Operator")
    give_skill(s, 1, other)
    _complete_run(s)
    assert s.phase == D_PERM
    before = s.snapshot()
    for text in (f"perm card={other}", "class card=387", "kill-sorceress", "end-turn"):
        with pytest.raises(IllegalAction):
            s.apply(text)
        assert s.snapshot() == before
    for text in ("perm card=abc", "perm", "perm card=99999", "class"):
        with pytest.raises(MalformedAction):
            s.apply(text)
        assert s.snapshot() == before
    act(s, "no-perm")
    assert s.phase == D_CLASS
    before = s.snapshot()
    for text in (f"class card={s.klass[0] if s.klass[0] >= 0 else s.asc_card}", "no-perm", "side face=plain"):
        with pytest.raises(IllegalAction):
            s.apply(text)
        assert s.snapshot() == before


def test_o3_a_refused_ascension_choice_says_why() -> None:
    """Each refusal at the Sorceress, the perm and the class choice names what is wrong (public facts
    and the player's own cards only) and changes nothing."""
    s = new(3, ascension=True, classes="cards")
    fight_sorceress(s, 0, STRONG, 1)  # 4 + 4 + 1 = 9 against the first form's 20
    before = s.snapshot()
    with pytest.raises(IllegalAction, match="not legal now: your score 9 is below the power 20 of the Sorceress"):
        s.apply("kill-sorceress")
    assert s.snapshot() == before
    s = new(3, ascension=True, classes="cards")
    give_skill(s, 0, cid(s, "Spiky Shell"))
    other = cid(s, "Smooth Operator")
    give_skill(s, 1, other)
    _complete_run(s)
    assert s.phase == D_PERM
    before = s.snapshot()
    with pytest.raises(IllegalAction, match=f"not legal now: card {other} is not a skill in your display case"):
        s.apply(f"perm card={other}")
    assert s.snapshot() == before
    act(s, "no-perm")
    assert s.phase == D_CLASS
    returned = s.asc_card
    held = s.klass[1]
    before = s.snapshot()
    for text, why in (
        (f"class card={returned}", "is the class you just returned: take one of the others"),
        (f"class card={held}", f"card {held} is not a class in the middle of the table"),
    ):
        with pytest.raises(IllegalAction, match=f"not legal now: .*{why}"):
            s.apply(text)
        assert s.snapshot() == before
    # Without ascension the Sorceress is fought in the March, never with kill-sorceress.
    core = new(3)
    with pytest.raises(IllegalAction, match="only in ascension"):
        core.apply("kill-sorceress")


def test_o3_4_o5_a_kept_accessory_steps_aside_for_the_newbie_gear_to_respect_three_equipment() -> None:
    from cardtable.games.mr_card_game.noncombat import equipped_count

    s = new(3, ascension=True, mr_store=True)
    accessory = cid(s, "Mr. Accessory")
    pants = s.items[0][2]
    s.eq &= ~(1 << pants)
    give_item(s, 0, accessory, equipped=True)  # weapon, hat and Mr. Accessory equipped: three
    assert equipped_count(s, 0) == 3
    _complete_run(s)
    assert accessory in s.items[0] and not s.eq >> accessory & 1  # kept (a Mr. Store item), unequipped
    assert equipped_count(s, 0) == 3 and all(s.eq >> x & 1 for x in s.game.cards.newbie[0])


def test_o3_an_all_options_ascension_game_between_heuristics_finishes() -> None:
    """Every option on (5 players seed 0: King Ralph freed in round 57 after about 3,000 decisions;
    4 players seed 0: round 25)."""
    from cardtable.agents import Observation
    from cardtable.agents.heuristics.mr_card_game import Heuristic

    every = {"nemesis": True, "bosses": True, "hardcore": "all", "ascension": True, "mr-store": True}
    every |= {"classes": "boards", "class-trainer": True, "playmat": True, "turn-limit": 100}
    s = cardtable.load("mr-card-game", players=4, **every).new(0, log=False)
    assert isinstance(s, McgState)
    agents = [Heuristic(p) for p in range(4)]
    kinds: Counter[str] = Counter()
    while not s.is_over:
        p = s.current_player
        assert p is not None
        a = agents[p].choose(Observation(s, p))
        kinds[a.kind] += 1
        s.apply(a)
    assert s.reason == "king-freed" and s.runs[s.winners[0]] == 3 and s.round < 100
    assert kinds["kill-sorceress"] == sum(s.runs) and conserved(s)


def test_o3_4_a37_a_kept_store_weapon_stays_equipped_when_no_newbie_weapon_comes_back() -> None:
    """O3.4 keeps Mr. Store items in the display case; only the newbie gear that comes back takes its
    slot. 5 players, no spare set in the box, P1's sword held by P3: P1 comes back without a newbie
    weapon, so the revealed Origami Cutlass P1 had equipped stays equipped (its slot is free), while
    a kept Mr. Store hat steps aside for the newbie hat that does come back."""
    s = new(5, ascension=True, mr_store=True, store_filter=False)
    c = s.game.cards
    sword, hat, _pants = c.newbie[0]
    give_item(s, 2, sword, equipped=True)
    cutlass, helm = cid(s, "Origami Cutlass"), cid(s, "Star-Chart Headlamp")
    assert c.slot[cutlass] == c.slot[sword] and c.slot[helm] == c.slot[hat]
    give_item(s, 0, cutlass, equipped=True)
    give_item(s, 0, helm, equipped=True)
    _win_run_without_the_sword(s)
    assert cutlass in s.items[0] and s.eq >> cutlass & 1
    assert helm in s.items[0] and not s.eq >> helm & 1 and s.eq >> hat & 1
    assert s.view(0)["players"][0]["bonuses"]["melee"] >= 3  # the Cutlass still counts
    assert conserved(s)


def test_o3_4_a37_newbie_gear_sold_this_turn_comes_back_from_escrow() -> None:
    """A37: the player's own newbie gear comes back from wherever it is on its way to the Heap. P1
    AutoSells the Sweet Ninja Sword (into escrow, bound for the Heap at the end of the turn) and then
    defeats form 1 in the same turn: the sword comes back out of escrow, equipped, as it would from
    the Heap had it been sold a turn earlier (5 players: no spare set in the box to take instead)."""
    s = new(5, ascension=True)
    c = s.game.cards
    sword = c.newbie[0][0]
    meat = s.meat[0]
    act(s, f"autosell card={sword}")
    assert s.escrow[0] == (sword,) and s.meat[0] == meat + c.autosell[sword]
    _win_run_without_the_sword(s)
    assert sword in s.items[0] and s.eq >> sword & 1 and sword not in s.escrow[0]
    finish_turn(s)
    assert sword in s.items[0] and sword not in s.heap and s.meat[0] == meat + c.autosell[sword]
    assert conserved(s)


def test_o3_4_a38_the_negative_effects_removed_at_the_reset_are_announced() -> None:
    """A38: the reset removes the negative effects out of the game, and every seat reads which."""
    s = new(3, ascension=True, bosses=True)
    bat = cid(s, "Boss Bat")
    give_lasting(s, 0, bat)
    give_item(s, 0, cid(s, "Sweet Ninja Sword"), equipped=True)
    set_hand(s, 0, STRONG)
    act(s, "combat", "maneuver kind=melee stat=mus4", *["play stat=mus4"] * 5, "done", "kill-sorceress")
    assert bat in s.gone and bat not in s.lasting[0]
    for seat in (None, 0, 1, 2):
        assert "P1's negative effects leave the game: Bat-Bitten Ankle" in texts(s, seat)


def test_o3_4_the_new_deck_takes_the_missing_level_one_cards_from_the_piles_as_far_as_they_go() -> None:
    """O3.4 "create a new character stat deck with four copies of each type of first level character
    stat card": P1 holds only two Muscle 1 of their own and the Muscle 1 pile is empty (P3 holds
    the rest), so the new deck has two Muscle 1 (clarification 2: nothing to take from an empty pile)
    and four of each other type; every card stays in exactly one place."""
    s = new(3, ascension=True)
    fight_sorceress(s, 0, STRONG, 4)  # (one Muscle 4 left in hand)
    set_deck(s, 0, ["mus1", "mus1", "mys1", "mys1", "mys1", "mox1", "mox1", "mox1", "mox1", "mys2"])
    set_discard(s, 0, [])
    empty_pile(s, "mus1", 2)
    act(s, "kill-sorceress")
    assert kinds_of(s, s.deck[0]) == Counter({"mus1": 2, "mys1": 4, "mox1": 4})
    assert s.piles[kind("mys2")] and conserved(s)
