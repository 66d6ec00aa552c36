"""B3 the Naughty Sorceress foil cards in a single game (supplemental rules "Naughty Sorceress Foil
Cards"): 11 foils in three forms, the chosen form's foil under the Tower and the rest removed unseen,
its global effect changing monsters, items, stats and skills while it is on top, and defeating it in
the March wins."""

from __future__ import annotations

import json

import pytest

from cardtable.engine import OptionError, Rng
from cardtable.games.mr_card_game import modifiers
from cardtable.games.mr_card_game.cards import K_FOIL
from cardtable.games.mr_card_game.codes import D_POLL
from cardtable.games.mr_card_game.combat import power_of
from cardtable.games.mr_card_game.state import McgState

from .helpers import act, cid, conserved, give_item, legal, new, on_top, only_targets, ready, set_hand, texts


def until_poll(s: McgState) -> None:
    """Quiet turns (no combat, no discards, no upgrade) until the March poll opens."""
    while s.phase != D_POLL and not s.is_over:
        options = legal(s)
        s.apply(next((t for t in ("end-turn", "done", "no-upgrade") if t in options), options[0]))


def put_on_tower(s: McgState, foil: int) -> None:
    """Make ``foil`` the single game's Sorceress (the one there goes back among the removed ones, which
    must be of the same form)."""
    c = s.game.cards
    assert c.form[foil] == c.form[s.tower]
    if foil != s.tower:
        s.foil_pool = tuple(sorted((*[x for x in s.foil_pool if x != foil], s.tower)))
        s.tower = foil
    s.global_fx = c.gfx[foil]
    ready(s)


def everything_seen_by(s: McgState, seat: int | None) -> str:
    return json.dumps(s.view(seat)) + "\n" + texts(s, seat)


# -- B3.1 the cards ----------------------------------------------------------------------------------


def test_b3_1_a34_a36_eleven_foils_in_three_forms() -> None:
    s = new(3, sorceress="foil-1")
    c = s.game.cards
    forms = c.foil_forms
    assert [len(f) for f in forms] == [5, 5, 1]
    assert sorted(x for f in forms for x in f) == sorted(c.foils) and len(c.foils) == 11
    assert all(c.kind[x] == K_FOIL for x in c.foils)
    # A34: one power per form (20, 25, 30); forms 1 and 2 have a global effect and Instant Karma on
    # the back, the third form none (A36) and King Ralph on the back.
    for f, power in enumerate((20, 25, 30)):
        assert {c.mpower[x] for x in forms[f]} == {power} == {c.form_power[f]}
    for x in (*forms[0], *forms[1]):
        assert c.gfx[x] and c.iname[x] == "Instant Karma"
    assert not c.gfx[forms[2][0]] and "King Ralph" in c.iname[forms[2][0]]


# -- B3.2 setup: one foil of the chosen form under the Tower, the rest removed unseen ------------------


@pytest.mark.parametrize("form", [1, 2, 3])
def test_b3_2_the_chosen_form_goes_under_the_tower_and_the_rest_leave_unseen(form: int) -> None:
    c = new(3).game.cards
    seen: set[int] = set()
    for seed in range(12):
        s = new(3, seed=seed, sorceress=f"foil-{form}")
        assert c.form[s.tower] == form and s.game.sorceress_power == c.form_power[form - 1]
        seen.add(s.tower)
        # The other foils of the form are removed unseen (one unordered hidden pool); the other forms
        # and the standard Sorceress card stay in the box.
        assert sorted((s.tower, *s.foil_pool)) == sorted(c.foil_forms[form - 1])
        assert c.sorceress in s.box and all(x in s.box for x in c.foils if c.form[x] != form)
        assert conserved(s)
        # The top foil is public (A35); the removed ones never appear in a view or an event.
        for seat in (None, 0, 1, 2):
            shown = everything_seen_by(s, seat)
            assert c.mname[s.tower] in shown
            assert all(c.mname[x] not in shown for x in s.foil_pool)
            assert s.tower in s.known_cards(seat)
            assert not set(s.foil_pool) & s.known_cards(seat)
            # Determinizing keeps what the seat sees, and the removed foils stay removed.
            d = s.determinize(seat if seat is not None else 0, Rng(seed))
            assert isinstance(d, McgState)
            assert d.tower == s.tower and sorted(d.foil_pool) == sorted(s.foil_pool)
            if seat is not None:
                assert d.view(seat) == s.view(seat)
    # Shuffled: more than one foil of a five-card form turns up over the seeds.
    assert len(seen) == (1 if form == 3 else len(seen)) and (form == 3 or len(seen) > 1)


def test_b3_2_the_sorceress_option_rejects_unknown_forms() -> None:
    import cardtable

    with pytest.raises(OptionError, match="sorceress"):
        cardtable.load("mr-card-game", players=3, sorceress="foil-4")


# -- B3.3 the global effect while the foil is on top -------------------------------------------------


def test_b3_3_a_single_game_foil_changes_the_power_of_monsters_for_everyone() -> None:
    """The Sweltering: hot monsters have +2 power, on every player's turn."""
    core = new(3)
    s = new(3, sorceress="foil-1")
    sweltering = cid(s, "Naughty Sorceress, the Sweltering")
    put_on_tower(s, sweltering)
    djinn = cid(s, "Tumble Dryer Djinn")  # hot, power 7
    for game in (core, s):
        on_top(game, djinn)
        only_targets(game, [djinn])
        set_hand(game, 0, ["mus4", "mus3", "mys1", "mys1", "mox1", "mox1"])
        act(game, "combat", "maneuver kind=melee stat=mus4", "play stat=mus3", "done")
    assert power_of(core, djinn) == 7 and power_of(s, djinn) == 9
    assert f"kill card={djinn}" in legal(core)  # 7 (+ the newbie gear) beats 7 ...
    assert f"kill card={djinn}" not in legal(s)  # ... but not 9 while the Sweltering is on top
    # Every player: P2 and P3 see the same change.
    for p in (1, 2):
        assert s.mods[p][modifiers.MPOW + s.game.cards.element[djinn]] == 2
    assert "hot monsters have +2 power" in s.view(1)["sorceress"]["text"]


def test_b3_3_a_foil_changes_skills_items_and_stats() -> None:
    s = new(3, sorceress="foil-1")
    c = s.game.cards
    # Skills: the Miserly makes training cost 1 more.
    put_on_tower(s, cid(s, "Naughty Sorceress, the Miserly"))
    skill = next(x for x in s.trainer if x >= 0)
    s.meat[0] = c.cost[skill]  # exactly the printed cost: one short while she is on top
    ready(s)
    assert f"train card={skill}" not in legal(s)
    s.meat[0] = c.cost[skill] + 1
    ready(s)
    act(s, f"train card={skill}")
    assert s.meat[0] == 0 and skill in s.skills[0]
    # Items: the Gilded makes AutoSell worth 1 more meat (and diving 1 dearer).
    put_on_tower(s, cid(s, "Naughty Sorceress, the Gilded"))
    gear = s.items[0][0]
    value = c.autosell[gear]
    act(s, f"autosell card={gear}")
    assert s.escrow[0] == (gear,) and f"for {value + 1} meat" in texts(s)
    # Stats: the Muddled makes every Melee Attack +1 and every Spell -1 (P2 and P3 hold what they
    # held at setup, in both games).
    plain = new(3)
    put_on_tower(s, cid(s, "Naughty Sorceress, the Muddled"))
    for p in (1, 2):
        assert s.mods[p][0] == plain.mods[p][0] + 1 and s.mods[p][1] == plain.mods[p][1] - 1
        assert s.mods[p][2:] == plain.mods[p][2:]
    assert "-1 spell damage; +1 melee damage" in s.view(2)["sorceress"]["text"]


def test_b3_3_the_third_form_changes_nothing() -> None:
    s = new(3, sorceress="foil-3")
    assert s.global_fx == () and all(m == modifiers.compute(new(3), p) for p, m in enumerate(s.mods))


# -- B3.4 defeating the foil in the March wins -------------------------------------------------------


@pytest.mark.parametrize(("form", "hand", "wins"), [(1, ["mus4"] * 5, True), (3, ["mus4"] * 6, False)])
def test_b3_4_defeating_the_foil_in_the_march_wins(form: int, hand: list[str], wins: bool) -> None:
    """Form 1 (power 20) falls to 20 Muscle plus a sword; form 3 (power 30) does not fall to 24 plus it."""
    s = new(2, sorceress=f"foil-{form}")
    until_poll(s)
    give_item(s, 0, cid(s, "Sweet Ninja Sword"), equipped=True)
    set_hand(s, 0, [*hand, "mox1"][:6])
    if form == 1:
        # A neutral global effect for the count (the Frostbound touches only cold monsters and Evasion).
        put_on_tower(s, cid(s, "Naughty Sorceress, the Frostbound"))
    act(s, "march", "done", "done", "end-combat", "maneuver kind=melee stat=mus4")  # P2 first, then P1
    while "play stat=mus4" in legal(s):
        act(s, "play stat=mus4")
    act(s, "done")
    name = s.game.cards.mname[s.tower]
    if wins:
        assert s.is_over and s.winners == (0,) and s.reason == "sorceress-defeated"
        assert f"P1 defeats the {name} and wins!" in texts(s)
    else:
        assert not s.winners and f"nobody defeats the {name}" in texts(s)
