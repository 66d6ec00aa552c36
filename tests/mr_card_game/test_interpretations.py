"""Scenario tests for the interpretations of docs/rules/mr-card-game.md (the breakdown's A1-A51 as settled
here, and this project's own readings) that no clause test already shows."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

import cardtable
from cardtable.engine import CardDataError, IllegalAction, MalformedAction
from cardtable.games.mr_card_game import modifiers
from cardtable.games.mr_card_game.cards import BUNDLED, STAT_KINDS, load_cards
from cardtable.games.mr_card_game.codes import D_PERM
from cardtable.games.mr_card_game.game import MrCardGame
from cardtable.games.mr_card_game.state import McgState

from .helpers import (
    act,
    cid,
    conserved,
    finish_turn,
    give_item,
    give_skill,
    legal,
    new,
    on_top,
    set_hand,
    set_trainer,
    targets,
    zones,
)
from .test_march import STRONG, WEAK, march_all_melee, until_poll


def _with_skill_line(tmp_path: Path, old: str, new_text: str, name: str) -> Path:
    """The bundled card file with one skill's text replaced (a transcription with other numbers)."""
    text = BUNDLED.read_text()
    assert old in text
    path = tmp_path / name
    path.write_text(text.replace(old, new_text))
    return path


def test_a8_with_reshuffle_and_both_skill_piles_empty_the_trainer_line_shrinks() -> None:
    """A8: 'option `skill-pile-empty`; with `reshuffle` and both piles empty the line shrinks'."""
    s = new(3, skill_pile_empty="reshuffle")
    a, b, c, d = s.trainer
    for skill in s.skill_pile:  # the whole draw pile trained by P3: nothing left to draw or reshuffle
        give_skill(s, 2, skill)
    assert s.skill_pile == () and s.skill_disc == ()
    s.meat[0] = 30
    s._legal = None
    act(s, f"train card={b}", f"train card={d}")
    finish_turn(s)
    assert s.trainer == (a, c)
    assert "the skill draw pile is empty: the trainer has fewer skills" in s.events(0)
    assert conserved(s)


def test_a11_under_top_scorer_an_announcer_who_reached_their_threshold_is_not_out() -> None:
    """A11: 'Under `top-scorer`, an announcer who reached their own threshold but was outscored by someone
    who did not is *not* out: "if you cannot defeat her you are out" is read as "if your total is below
    your threshold"'."""
    s = new(3, march_winner="top-scorer")
    globe = cid(s, "Snow Globe of Stasis")  # combat: -4 power, her power lowered for P1 alone
    give_item(s, 0, globe)
    until_poll(s)
    set_hand(s, 0, ["mus4", "mus4", "mus3", "mus3", "mus2", "mox1"])  # 16 + 1 = 17
    set_hand(s, 1, ["mus4", "mus4", "mus4", "mus3", "mus2", "mox1"])  # 17 + 1 = 18
    set_hand(s, 2, WEAK)
    act(s, "march")  # P1 announces: order P2, P3, P1
    act(s, "done", "done", "done")
    act(s, "maneuver kind=melee stat=mus4", "play stat=mus4", "play stat=mus4", "play stat=mus3", "play stat=mus2")
    act(s, "done", "end-combat")
    act(s, f"use card={globe}", "maneuver kind=melee stat=mus4", "play stat=mus4", "play stat=mus3")
    act(s, "play stat=mus3", "play stat=mus2", "done")
    assert s.mtotal[:2] == [17, 18] and s.mthresh[:2] == [16, 20]
    # The top total (P2's 18) is short of P2's 20: nobody wins; P1, the announcer, reached 16: still in.
    assert not s.is_over and s.out == 0 and s.elim == []


def test_a12_announcer_falls_back_to_the_first_in_combat_order_when_not_among_the_tied() -> None:
    """A12: 'option `march-tie`; `announcer` falls back to the first in combat order when the announcer is
    not among the tied'."""
    s = new(3, march_tie="announcer")
    until_poll(s)
    set_hand(s, 0, WEAK)
    set_hand(s, 1, STRONG)
    set_hand(s, 2, STRONG)
    act(s, "march")  # P1 announces: order P2, P3, P1
    march_all_melee(s, [1, 2, 0])
    assert s.mtotal[1] == s.mtotal[2] == 22
    assert s.is_over and s.result().winners == (1,)


def test_a15_the_certificate_is_a_marker_that_no_action_uses_or_sells() -> None:
    """A15: "the Certificate is a marker (no effects, never sold)"."""
    s = new(3)
    c = s.game.cards
    cert = c.certificate
    where = [name for name, cards in zones(s).items() if cert in cards]
    assert where == ["certificate"]  # a marker of its own: in no display case, hand or pile
    assert s.view(1)["certificate"] == "P1" and s.view(1)["players"][0]["certificate"] is True
    assert c.certificate_name not in [d["name"] for d in s.view(1)["players"][0]["display_case"]]
    assert s.view(1)["players"][0]["bonuses"] == s.view(1)["players"][1]["bonuses"]  # no effect
    for verb in ("autosell", "use", "equip", "dive"):
        with pytest.raises((MalformedAction, IllegalAction)):
            s.apply(f"{verb} card={cert}")
    assert not [t for t in legal(s) if t.endswith(f"card={cert}")]


def test_a20_a_power_reduction_applies_to_whichever_target_is_chosen() -> None:
    """A20: "a power reduction applies to whatever target is chosen in step 3"."""
    s = new(3)
    c = s.game.cards
    boar, basket = cid(s, "Barrel Boar"), cid(s, "Feral Picnic Basket")  # power 5 each, no element
    assert c.loc[boar] != c.loc[basket]
    on_top(s, boar)
    on_top(s, basket)
    globe = cid(s, "Snow Globe of Stasis")  # combat: reduce the power by 4
    give_item(s, 0, globe)
    set_hand(s, 0, ["mus1", "mus1", "mox1", "mox1", "mys1", "mys1"])
    act(s, "combat", f"use card={globe}", "maneuver kind=melee stat=mus1", "done")  # 1 + the sword's 1
    rows = targets(s)
    assert {rows[n]["power"] for n in ("Barrel Boar", "Feral Picnic Basket")} == {1}
    assert all(row["power"] == max(0, c.mpower[s.top[c.loc[cid(s, row["monster"])]]] - 4) for row in rows.values())
    assert {f"kill card={boar}", f"kill card={basket}"} <= set(legal(s))
    act(s, f"kill card={basket}")
    assert basket in s.items[0]


def test_a22_mojo_is_offered_only_in_a_phase_with_an_ability_that_costs_mojo() -> None:
    """A22: "The `mojo` action is offered only while the player owns an ability of that phase that costs
    mojo"."""
    s = new(3)
    smack = cid(s, "Thrust-Smack")  # a combat skill, 1 mojo
    give_skill(s, 0, smack)
    set_hand(s, 0, ["mys2", "mus1", "mus1", "mus1", "mox1", "mox1"])
    assert not [t for t in legal(s) if t.startswith("mojo")]  # the non-combat phase: nothing to pay for
    act(s, "combat")
    assert [t for t in legal(s) if t.startswith("mojo")] == ["mojo stat=mys2"]
    assert f"skill card={smack}" not in legal(s)  # made before it is spent
    act(s, "mojo stat=mys2", f"skill card={smack}")
    assert s.dmg == 1


def test_a29_march_trainer_gaps_wait_for_its_one_map_update_and_escrow_reaches_the_heap_in_march_order() -> None:
    """A13, A29: "trainer gaps from the March are refilled at its one map update; escrow reaches the Heap in
    March order"; after a failed March "one map update follows"."""
    s = new(3)
    c = s.game.cards
    until_poll(s)
    cheap = [x for x in c.skills if c.cost[x] <= 4 and x not in s.trainer][:4]
    set_trainer(s, cheap)
    a, b, cc, d = cheap
    for p in range(3):
        set_hand(s, p, WEAK)
    act(s, "pass", "march")  # P2 announces: order P3, P1, P2
    sword3, hat1 = s.items[2][0], s.items[0][1]
    act(s, f"autosell card={sword3}", f"train card={b}", "done")
    assert s.current_player == 0 and s.trainer == (a, -1, cc, d)  # no refill between marchers
    act(s, f"autosell card={hat1}", f"train card={d}", "done", "done")
    assert s.trainer == (a, -1, cc, -1)
    act(s, "end-combat", "end-combat", "end-combat")  # nobody reaches her: P2, the announcer, is out
    act(s, "done", "done")  # P3 and P1 clean up
    assert s.heap == (sword3, hat1)  # P3's escrow first: March order, not seat order
    assert len(s.trainer) == 4 and s.trainer[2:] == (a, cc) and -1 not in s.trainer
    assert s.round == 2 and s.current_player == 0


def test_a47_discard_piles_are_public() -> None:
    """A47: "discard piles are public (every discard is face up)": played, mojo and voluntary discards."""
    s = new(3)
    smack = cid(s, "Thrust-Smack")
    give_skill(s, 0, smack)
    set_hand(s, 0, ["mys1", "mus1", "mus1", "mox1", "mox1", "mox1"])
    act(s, "combat", "mojo stat=mys1", f"skill card={smack}", "maneuver kind=ranged stat=mox1", "done")
    act(s, "end-combat", "discard stat=mus1", "done")
    kinds = Counter(STAT_KINDS[s.game.cards.skind[x]] for x in s.disc[0])
    assert kinds == {"mys1": 1, "mox1": 1, "mus1": 1}
    for seat in (1, 2, None):
        shown = {row["kind"]: row["count"] for row in s.view(seat)["players"][0]["discard"]}
        assert shown == kinds


def test_hidden_piles_are_kept_in_canonical_order_and_reveal_a_uniformly_random_card() -> None:
    """Hidden piles are unordered: 'kept in a canonical order and a draw or reveal takes a uniformly random
    card of it at that moment ... the generator is only used when a card is actually drawn'."""
    g = cardtable.load("mr-card-game", players=3)
    assert isinstance(g, MrCardGame)
    li = g.cards.kingdom[0]
    tops: Counter[int] = Counter()
    for seed in range(80):
        fresh = g.new(seed)
        assert isinstance(fresh, McgState)
        tops[fresh.top[li]] += 1
    assert len(tops) == 8  # any of the location's eight cards
    s = new(3)
    for _ in range(6):
        finish_turn(s)
    assert all(list(below) == sorted(below) for below in s.below)
    assert list(s.skill_pile) == sorted(s.skill_pile)
    assert all(list(s.deck[p]) == sorted(s.deck[p]) for p in range(3))
    state, p = s.rng.state, s.current_player
    assert p is not None
    act(s, f"unequip card={s.items[p][1]}")  # nothing drawn: the generator is untouched
    assert s.rng.state == state


def test_icons_on_a_combat_skill_add_to_the_maneuver_in_the_combat_it_is_used(tmp_path: Path) -> None:
    """Icons on a combat skill "count in the combat where the skill is used (compiled as `combat_bonus`);
    icons on non-combat skills ... are refused by the loader"."""
    skill = 'name = "Mirrorball Flash"\nclass = "disco-bandit"\nsubtype = "skill"\ncost = 4\n'
    path = _with_skill_line(tmp_path, skill, skill + "bonus = { ranged = 2 }\n", "icons.toml")

    def score(maneuver: str, cards: str) -> int:
        s = new(3, cards=cards)
        flash = cid(s, "Mirrorball Flash")  # combat, 1 mojo: 2 damage
        give_skill(s, 0, flash)
        on_top(s, cid(s, "Dust Bunny Brute"))  # power 1, no element
        set_hand(s, 0, ["mys1", "mus3", "mus1", "mox3", "mox1", "mox1"])
        act(s, "combat", "mojo stat=mys1", f"skill card={flash}", maneuver, "done")
        return int(targets(s)["Dust Bunny Brute"]["score"])

    assert score("maneuver kind=ranged stat=mox3", str(path)) == score("maneuver kind=ranged stat=mox3", "") + 2
    assert score("maneuver kind=melee stat=mus3", str(path)) == score("maneuver kind=melee stat=mus3", "")
    busking = 'name = "Street Busking"\nclass = "accordion-thief"\nsubtype = "song"\ncost = 4\n'
    refused = _with_skill_line(tmp_path, busking, busking + "bonus = { melee = 1 }\n", "refused.toml")
    with pytest.raises(CardDataError, match="field 'bonus': a non-combat skill cannot carry combat bonus icons"):
        load_cards(refused)


def test_damage_by_equipment_power_any_takes_the_strongest_and_all_the_sum(tmp_path: Path) -> None:
    """Damage by equipment power: "`damage_power slot=any` takes the strongest equipped item, `all` the sum
    of them"."""
    barrage = 'name = "Shieldbutt Barrage"'
    text = BUNDLED.read_text()
    assert 'effects = [{ do = "damage_power", slot = "all" }]' in text
    at = text.index(barrage)
    end = text.index("\n\n", at)
    any_path = tmp_path / "any.toml"
    any_path.write_text(text[:at] + text[at:end].replace('slot = "all"', 'slot = "any"') + text[end:])

    def damage(cards: str) -> int:
        s = new(3, cards=cards)
        skill = cid(s, "Shieldbutt Barrage")  # combat, 3 mojo
        give_skill(s, 0, skill)
        give_item(s, 0, cid(s, "Overseer's Cleaver"), equipped=True)  # anvil 5, over the sword (anvil 1)
        set_hand(s, 0, ["mys3", "mus1", "mus1", "mus1", "mox1", "mox1"])
        act(s, "combat", "mojo stat=mys3", f"skill card={skill}")
        return s.dmg

    assert damage("") == 5 + 1 + 1  # all: the cleaver, the hat and the pants
    assert damage(str(any_path)) == 5  # any: the strongest


def test_the_march_combat_without_a_maneuver_announces_the_damage_alone() -> None:
    """The March's combat: "without a maneuver a marcher announces the damage alone (`end-combat`)"."""
    s = new(2)
    grenade = cid(s, "Rat Trap Grenade")  # combat: 3 damage
    give_item(s, 1, grenade)
    until_poll(s)
    for p in range(2):
        set_hand(s, p, WEAK)
    act(s, "march", "done", "done")  # P1 announces: P2 fights first
    assert s.current_player == 1 and "end-combat" in legal(s)
    act(s, f"use card={grenade}", "end-combat")
    assert s.mtotal[1] == 3
    assert s.view(0)["march"]["totals"] == [{"player": "P2", "total": 3, "needs": 20}]


def test_b3_a_foils_element_is_none_so_element_effects_leave_the_sorceress_alone() -> None:
    """The rules doc: "The foil's element is 'none', so element-specific effects never change the
    Sorceress herself": with the Sweltering on top (hot monsters +2) the March still needs the form's power."""
    from cardtable.games.mr_card_game.march import threshold

    from .test_foils import put_on_tower

    s = new(3, sorceress="foil-1")
    c = s.game.cards
    assert all(c.element[x] == c.element[c.sorceress] == 0 for x in c.foils)
    put_on_tower(s, cid(s, "Naughty Sorceress, the Sweltering"))
    hot = c.element[cid(s, "Tumble Dryer Djinn")]
    assert hot != 0 and s.mods[0][modifiers.MPOW + hot] == 2  # the effect is there ...
    assert threshold(s) == s.game.sorceress_power == 20  # ... and the Sorceress is not hot


@pytest.mark.parametrize("skills", ["none", "permed only"])
def test_o3_4_no_perm_choice_without_a_trained_unpermed_skill(skills: str) -> None:
    """The rules doc: "The perm choice is offered only when a trained, unpermed skill exists": the
    reset goes on without a `perm` decision (with one, it is asked:
    test_o3_4_o3_5_the_reset_keeps_exactly_what_the_rules_keep)."""
    from .test_ascension import STRONG, fight_sorceress

    s = new(3, ascension=True)
    if skills == "permed only":
        permed = cid(s, "Spiky Shell")
        give_skill(s, 0, permed)
        s.permed |= 1 << permed
    fight_sorceress(s, 0, STRONG, 4)
    act(s, "kill-sorceress")
    assert s.phase != D_PERM and not any(t.startswith("perm") or t == "no-perm" for t in legal(s))
    assert s.runs[0] == 1 and s.current_player == 0
    if skills == "permed only":
        assert s.skills[0] == (permed,)
