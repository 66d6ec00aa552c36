"""K14 the March on the Tower (the poll, the order of the phases, the winner, the announcer out) with
A11-A14 (who wins, ties, what follows a failed March), K15.8 (a reduction of the Sorceress's power
is the reducer's alone), K3 rounds and the turn limit."""

from __future__ import annotations

import pytest

from cardtable.games.mr_card_game.codes import D_COMBAT, D_NONCOMBAT, D_POLL
from cardtable.games.mr_card_game.state import McgState

from .helpers import act, cid, conserved, give_item, give_skill, legal, new, set_hand

STRONG = ["mus4", "mus4", "mus4", "mus3", "mus3", "mus3"]  # 21, +1 Sweet Ninja Sword
WEAK = ["mus1", "mox1", "mox1", "mys1", "mys1", "mys1"]


def until_poll(s: McgState) -> None:
    """Play quiet turns (no combat, no discards) until the March poll opens."""
    while s.phase != D_POLL and not s.is_over:
        texts = legal(s)
        for t in ("end-turn", "done", "no-upgrade"):
            if t in texts:
                s.apply(t)
                break
        else:
            s.apply(texts[0])


def deciders(s: McgState, actions: list[str]) -> list[int | None]:
    """Apply actions, returning who decided each."""
    out = []
    for a in actions:
        out.append(s.current_player)
        s.apply(a)
    return out


def march_all_melee(s: McgState, order: list[int]) -> None:
    """Every marcher ends the non-combat phase, then plays all its Muscle as a Melee Attack."""
    for _ in order:
        s.apply("done")
    for seat in order:
        assert s.current_player == seat and s.phase == D_COMBAT
        plays = [t for t in legal(s) if t.startswith("maneuver kind=melee")]
        if not plays:
            s.apply("end-combat")
            continue
        s.apply(plays[0])
        while (more := [t for t in legal(s) if t.startswith("play")]) and True:
            s.apply(more[0])
        if not s.is_over and "done" in legal(s):
            s.apply("done")


def test_k14_1_a10_the_poll_comes_when_the_turn_order_returns_to_the_certificate_holder() -> None:
    s = new(3, first_player="P2")
    seen = []
    while s.phase != D_POLL:
        seen.append(s.active)
        until_poll_step = "end-turn" if "end-turn" in legal(s) else "done"
        s.apply(until_poll_step)
    assert seen[0] == 1 and sorted(set(seen)) == [0, 1, 2]  # a full round first (no poll before it)
    assert s.round == 1 and "march on the Tower" in s.view(0)["prompt"]
    # Everyone, in clockwise order from the holder, whatever their hand.
    assert deciders(s, ["pass", "pass", "pass"]) == [1, 2, 0]
    # K14.2: all passed: play goes on with the holder's turn, round 2.
    assert s.round == 2 and s.current_player == 1 and s.phase == D_NONCOMBAT


def test_k14_2_the_first_to_march_announces_and_everyone_marches() -> None:
    s = new(3)
    until_poll(s)
    assert deciders(s, ["pass", "march"]) == [0, 1]
    assert s.announcer == 1 and s.phase == D_NONCOMBAT  # P3 was never asked
    assert s.view(2)["march"]["announcer"] == "P2"
    assert s.view(2)["whose_turn"] == "the March on the Tower"


def test_k14_3_every_buff_on_the_table_turns_off_at_the_march() -> None:
    s = new(3)
    walrus, armor = cid(s, "Rage of the Walrus"), cid(s, "Blubber Armor")
    give_skill(s, 0, walrus, active=True)
    give_skill(s, 2, armor, active=True)
    until_poll(s)
    act(s, "march")
    assert s.buffs == 0
    assert s.view(0)["players"][0]["bonuses"]["melee"] == 1 and s.view(0)["players"][2]["bonuses"]["evade"] == 1


def test_k14_4_k14_5_non_combat_from_the_announcers_left_announcer_last_then_combat_in_that_order() -> None:
    s = new(4)
    until_poll(s)
    act(s, "pass", "march")  # P2 announces
    assert s.morder == [2, 3, 0, 1]
    assert deciders(s, ["done"] * 4) == [2, 3, 0, 1]
    assert s.phase == D_COMBAT and s.current_player == 2
    for p in range(4):
        set_hand(s, p, WEAK)
    assert deciders(s, ["end-combat"] * 3) == [2, 3, 0]
    # Totals are announced as they come: later marchers see the earlier ones.
    totals = {t["player"]: t["total"] for t in s.view(1)["march"]["totals"]}
    assert set(totals) == {"P3", "P4", "P1"} and all(v == 0 for v in totals.values())
    assert any("P3 announces a total of 0 (needs 20)" in e for e in s.events(1))


def test_a28_a29_the_march_non_combat_phase_has_every_non_combat_action() -> None:
    s = new(3)
    until_poll(s)
    act(s, "march")
    texts = legal(s)
    assert "done" in texts and "combat" not in texts and "end-turn" not in texts
    assert any(t.startswith("autosell") for t in texts) and any(t.startswith("train") for t in texts)


def test_k14_6_the_highest_total_reaching_the_sorceress_wins() -> None:
    s = new(3)
    until_poll(s)
    set_hand(s, 0, STRONG)
    set_hand(s, 1, ["mus3", "mus3", "mus3", "mus2", "mox1", "mox1"])  # 11 + 1
    set_hand(s, 2, WEAK)
    act(s, "march")
    march_all_melee(s, [1, 2, 0])
    assert s.is_over
    r = s.result()
    assert r.reason == "sorceress-defeated" and r.winners == (0,) and r.scores == (1.0, 0.0, 0.0)
    assert r.ranks[0] == 1 and sorted(r.ranks) == [1, 2, 3]
    assert r.details["march_totals"] == {"P1": 22, "P2": 12, "P3": 2}
    assert "P1 defeated the Naughty Sorceress" in s.view(None)["prompt"]


def test_k14_7_a14_a13_a_failed_announcer_is_out_and_the_others_play_on() -> None:
    s = new(3)
    until_poll(s)
    for p in range(3):
        set_hand(s, p, WEAK)
    act(s, "pass", "march")  # P2 announces, with nothing that can win
    march_all_melee(s, [2, 0, 1])
    assert not s.is_over and s.out == 1 << 1 and s.elim == [1]
    assert s.view(0)["players"][1]["out_of_the_game"] is True
    assert "who announced, is out" in " ".join(s.events(0))
    # A13: the others clean up in March order (discards, then drawing to six), then one map update.
    assert s.current_player == 2 and "done" in legal(s)
    played_by_p2 = list(s.played[1])
    act(s, "done")
    assert s.current_player == 0
    act(s, "done")
    assert len(s.hand[0]) == 6 and len(s.hand[2]) == 6 and s.played[0] == [] and s.played[2] == []
    assert s.played[1] == played_by_p2  # A25: the eliminated player's cards stay where they are
    # Round 2 begins with the Certificate holder; P2 takes no turns and is never asked again.
    assert s.round == 2 and s.current_player == 0
    seen = set()
    while s.phase != D_POLL:
        seen.add(s.current_player)
        s.apply("end-turn" if "end-turn" in legal(s) else "done")
    assert seen == {0, 2}
    assert deciders(s, ["pass", "pass"]) == [0, 2]
    assert conserved(s)


def test_k14_7_the_certificate_passes_if_its_holder_is_out() -> None:
    s = new(3)
    until_poll(s)
    for p in range(3):
        set_hand(s, p, WEAK)
    act(s, "march")  # P1, the holder, announces
    march_all_melee(s, [1, 2, 0])
    assert s.out == 1 and s.cert == 1
    act(s, "done", "done")
    assert s.current_player == 1 and s.view(2)["certificate"] == "P2"


def test_k14_8_when_everyone_is_out_the_game_ends_with_no_winner() -> None:
    s = new(2)
    until_poll(s)
    set_hand(s, 0, WEAK)
    set_hand(s, 1, WEAK)
    act(s, "march")
    march_all_melee(s, [1, 0])
    act(s, "done")  # P2 cleans up
    until_poll(s)
    assert s.poll == [1]
    set_hand(s, 1, WEAK)
    act(s, "march")
    march_all_melee(s, [1])
    assert s.is_over and s.result().reason == "all-eliminated" and s.result().winners == ()
    assert s.result().ranks == (2, 1)  # the earlier elimination ranks lower


@pytest.mark.parametrize(("mode", "winners"), [("best-qualifier", (0,)), ("top-scorer", ())])
def test_a11_k15_8_a_reduction_lowers_only_the_reducers_threshold(mode: str, winners: tuple[int, ...]) -> None:
    """The breakdown's example: P2 scores more than P1 but falls short of 20; P1 lowered her power to
    16 for himself and reaches it."""
    s = new(3, march_winner=mode)
    globe = cid(s, "Snow Globe of Stasis")  # combat: -4 power
    give_item(s, 0, globe)
    until_poll(s)
    set_hand(s, 0, ["mus4", "mus4", "mus3", "mus3", "mus2", "mox1"])  # 16 + 1 = 17
    set_hand(s, 1, ["mus4", "mus4", "mus4", "mus3", "mus2", "mox1"])  # 17 + 1 = 18
    set_hand(s, 2, WEAK)
    act(s, "pass", "march")  # P2 announces; order P3, P1, P2
    act(s, "done", "done", "done")
    act(s, "end-combat")  # P3
    act(s, f"use card={globe}", "maneuver kind=melee stat=mus4", "play stat=mus4", "play stat=mus3")
    act(s, "play stat=mus3", "play stat=mus2", "done")
    assert s.mtotal[0] == 17 and s.mthresh[0] == 16  # her power lowered for P1 only, his total unchanged
    act(s, "maneuver kind=melee stat=mus4", "play stat=mus4", "play stat=mus4", "play stat=mus3")
    act(s, "play stat=mus2", "done")
    assert s.mtotal[1] == 18 and s.mthresh[1] == 20
    if winners:
        assert s.is_over and s.result().winners == winners
    else:
        # Nobody wins; P2 (the announcer) did not reach 20: out.
        assert not s.is_over and s.out == 1 << 1


@pytest.mark.parametrize(("mode", "winners"), [("shared", (0, 1)), ("announcer", (1,)), ("first-in-order", (0,))])
def test_a12_equal_winning_totals(mode: str, winners: tuple[int, ...]) -> None:
    s = new(3, march_tie=mode)
    until_poll(s)
    set_hand(s, 0, STRONG)
    set_hand(s, 1, STRONG)
    set_hand(s, 2, WEAK)
    act(s, "pass", "march")  # P2 announces: order P3, P1, P2
    march_all_melee(s, [2, 0, 1])
    r = s.result()
    assert r.winners == winners
    assert all(r.scores[w] == 1 / len(winners) for w in winners) and r.ranks[2] == 3


def test_k3_turn_limit_stops_the_game_truncated_with_no_winner() -> None:
    s = new(2, turn_limit=2)
    until_poll(s)
    act(s, "pass", "pass")
    until_poll(s)
    act(s, "pass", "pass")
    assert s.is_over
    r = s.result()
    assert r.reason == "turn-limit" and r.truncated and r.winners == ()
    assert "turn limit (2 rounds)" in s.view(0)["prompt"]


def test_k14_5_k5_3_a_march_combat_kills_no_monster_and_mojo_is_not_carried_into_it() -> None:
    # The March's combat phases are fought against the Sorceress alone: no monster of the map may be
    # killed (no step 3, no loot), and the mojo made in the March's non-combat phase is gone once
    # that phase ends (K5.3: "at the end of each phase of your turn, your mojo pool is reduced to zero").
    s = new(2)
    summoning, grenade = cid(s, "Spaghetti Summoning"), cid(s, "Rat Trap Grenade")  # 1 mojo: draw 2; 3 damage
    give_skill(s, 1, summoning)
    give_item(s, 1, grenade)
    until_poll(s)
    act(s, "march")  # P1 announces: P2 goes first, P1 last
    set_hand(s, 1, ["mys2", "mus3", "mus3", "mox1", "mox1", "mox1"])
    act(s, "mojo stat=mys2", f"skill card={summoning}")
    assert s.mojo == 1 and s.view(0)["players"][1]["mojo"] == 1
    act(s, "done", "done")
    assert s.current_player == 1 and s.phase == D_COMBAT
    assert s.mojo == 0 and s.view(0)["players"][1]["mojo"] == 0
    tops = list(s.top)
    act(s, f"use card={grenade}")
    assert not [t for t in legal(s) if t.startswith("kill")]
    act(s, "maneuver kind=melee stat=mus3", "play stat=mus3")
    assert not [t for t in legal(s) if t.startswith("kill")]
    act(s, "done")
    assert s.mtotal[1] == 3 + 3 + 1 + 3  # cards, Sweet Ninja Sword, the grenade's damage
    assert s.view(0)["march"]["totals"] == [{"player": "P2", "total": 10, "needs": 20}]
    assert list(s.top) == tops and s.kills == [0, 0]
