"""Scenario tests added by an audit of the Rules of Kalle against the clause tests (docs/rules/army-of-darkness.md):
each one shows a rule sentence that no earlier test would have caught the engine breaking (every test here was
checked to fail with the engine broken in the spot it names)."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from cardtable.engine import IllegalAction, MalformedAction, NotYourTurn, Rng
from cardtable.games.army_of_darkness.cards import EVENT
from cardtable.games.army_of_darkness.codes import HAS_CARDS, P_FREE, P_HIT, REDUCED
from cardtable.games.army_of_darkness.game import ArmyOfDarkness
from cardtable.games.army_of_darkness.state import AodState
from tests.army_of_darkness.helpers import EVIL, GOOD, Cards, arrange, load, necronomicon, run, texts

FIVE_NAMES = ("Deadite", "Skeleton Warrior", "Pit Witch", "Mini-Ash", "Deadite Captain")


# -- AD7 step 5: victory ----------------------------------------------------------------------------


def _good_with_allies(g: ArmyOfDarkness, pool: Cards, tabled: int) -> AodState:
    """P1 (good) has the Necronomicon and ``tabled`` allies in front of her; she plays one more ally from
    her hand to herself, keeps a hand card and passes step 3."""
    ally = pool.one("Wise Man")
    st = arrange(
        g,
        hands={0: [ally, pool.one("Chainsaw")], 1: pool.take("Gunpowder", 1)},
        ally={0: pool.take("Henry's Man", tabled)},
        item={0: [necronomicon(g)]},
    )
    run(st, f"play card={ally}", "to seat=P1", "done", "pass")
    return st


@pytest.mark.parametrize(("tabled", "wins"), [(1, False), (2, True), (3, True)])
def test_ad7_2_good_needs_at_least_three_allies(tabled: int, wins: bool) -> None:
    """AD7.2: "Good character wins if she has at least 3 tabled allies and no tabled monsters in addition
    to Necronomicon": two allies are not enough, three win and so do four."""
    g = load(2)
    st = _good_with_allies(g, Cards(g), tabled)
    assert len(st.ally[0]) == tabled + 1
    assert st.is_over is wins
    if wins:
        assert st.result().winners == (0,) and st.result().reason == "necronomicon-good"
    else:
        assert st.active == 1


@pytest.mark.parametrize("monsters", [1, 2])
def test_ad7_2_good_does_not_win_with_a_monster_still_in_front_of_her_at_step_5(monsters: int) -> None:
    """AD7.2: good wins only with "no tabled monsters". She attacks one of her monsters (step 2), takes the
    hit with her Boomstick (step 4); with a monster still in front of her at step 5 she does not win, and
    with none (the control) she does."""
    g = load(2)
    pool = Cards(g)
    hand = pool.take("Chainsaw", 2)
    boom = pool.one("Boomstick")
    mons = pool.take("Deadite", monsters)
    st = arrange(
        g,
        hands={0: hand, 1: pool.take("Gunpowder", 1)},
        ally={0: pool.take("Knight of Arthur", 3)},
        item={0: [necronomicon(g), boom]},
        mon={0: mons},
    )
    run(st, f"play card={hand[0]}", "to seat=P2", "done", f"slay card={mons[0]}")
    if monsters == 2:
        assert st.phase == P_HIT and st.victim == 0
        st.apply(f"discard card={boom}")
        assert st.mon[0] == [mons[1]] and len(st.ally[0]) == 3 and necronomicon(g) in st.item[0]
        assert st.hands[0] and not st.is_over and st.active == 1
    else:
        assert st.is_over and st.result().winners == (0,)


def _evil_with_monsters(
    g: ArmyOfDarkness, pool: Cards, names: tuple[str, ...], extra: int, ally: Mapping[int, list[int]] | None = None
) -> AodState:
    """P1 (evil) has the Necronomicon and a monster of each title in ``names`` in front of her, ``extra``
    more Deadites (titles, not cards, are counted) and two hand cards; P2 holds a Gunpowder."""
    mons = [pool.one(n) for n in names] + pool.take("Deadite", extra)
    return arrange(
        g,
        hands={0: pool.take("Chainsaw", 2), 1: pool.take("Gunpowder", 1)},
        mon={0: mons},
        item={0: [necronomicon(g)]},
        sides={0: EVIL},
        ally=ally,
    )


@pytest.mark.parametrize(
    ("names", "extra", "wins"), [(FIVE_NAMES[:4], 2, False), (FIVE_NAMES, 0, True), (FIVE_NAMES, 2, True)]
)
def test_ad7_3_evil_needs_five_monsters_of_different_names(names: tuple[str, ...], extra: int, wins: bool) -> None:
    """AD7.3: "Evil character wins if she has at least 5 tabled monster of different names": six monsters
    of four titles are not enough; five monsters of five titles win, and so do seven of five titles."""
    g = load(2)
    st = _evil_with_monsters(g, Cards(g), names, extra)
    run(st, f"play card={st.hands[0][0]}", "to seat=P2", "done", "pass")
    assert len({g.cards.names[c] for c in st.mon[0]}) == len(names) and len(st.mon[0]) == len(names) + extra
    assert st.is_over is wins
    if wins:
        assert st.result().winners == (0,) and st.result().reason == "necronomicon-evil"


@pytest.mark.parametrize("allies", [1, 2])
def test_ad7_3_evil_does_not_win_with_an_ally_still_in_front_of_her_at_step_5(allies: int) -> None:
    """AD7.3: evil wins only with "no tabled allies in addition to tabled Necronomicon". She attacks one
    ally (step 2) and takes the hit with a spare Deadite (step 4), keeping her five titles and the
    Necronomicon; with an ally still in front of her at step 5 she does not win, with none (the control)
    she does."""
    g = load(2)
    pool = Cards(g)
    k = pool.take("Knight of Arthur", allies)
    st = _evil_with_monsters(g, pool, FIVE_NAMES, 1, ally={0: k})
    spare = st.mon[0][-1]
    run(st, f"play card={st.hands[0][0]}", "to seat=P2", "done", f"slay card={k[0]}")
    if allies == 2:
        assert st.phase == P_HIT and st.victim == 0
        st.apply(f"discard card={spare}")
        assert st.ally[0] == [k[1]] and len({g.cards.names[c] for c in st.mon[0]}) == 5
        assert necronomicon(g) in st.item[0] and st.hands[0]
        assert not st.is_over and st.active == 1
    else:
        assert st.is_over and st.result().winners == (0,)


def test_ad7_1_the_necronomicon_must_be_in_front_of_her_not_another_player() -> None:
    """AD7.1: "If player still has any hand cards and has tabled Necronomicon, she may win": a
    Necronomicon in front of another player does not count for her."""
    g = load(2)
    pool = Cards(g)
    ally = pool.one("Wise Man")
    st = arrange(
        g,
        hands={0: [ally, pool.one("Chainsaw")], 1: pool.take("Gunpowder", 1)},
        ally={0: pool.take("Knight of Arthur", 2)},
        item={1: [necronomicon(g)]},
    )
    run(st, f"play card={ally}", "to seat=P1", "done", "pass")
    assert len(st.ally[0]) == 3 and not st.mon[0] and st.hands[0]
    assert not st.is_over and st.active == 1


def test_ad7_1_evil_without_a_hand_card_does_not_win() -> None:
    """AD7.1: "If player still has any hand cards and has tabled Necronomicon, she may win" holds for an
    evil character too: with her fifth title played from her last hand card she does not win."""
    g = load(2)
    pool = Cards(g)
    fifth = pool.one(FIVE_NAMES[4])
    st = arrange(
        g,
        hands={0: [fifth], 1: pool.take("Gunpowder", 1)},
        mon={0: [pool.one(n) for n in FIVE_NAMES[:4]]},
        item={0: [necronomicon(g)]},
        sides={0: EVIL},
    )
    run(st, f"play card={fifth}", "to seat=P1", "pass")
    assert st.hands[0] == [] and len(st.mon[0]) == 5
    assert not st.is_over and st.active == 1


# -- AD4.2 / AD6: after three monsters of a name -----------------------------------------------------


def test_ad4_2_after_three_of_a_name_she_still_takes_a_hit_if_monsters_remain() -> None:
    """AD4.2 and AD6: the three-of-a-name discard is her attack ("instead" of discarding one); then "if
    active player still has any monsters ... she must discard one tabled item or ally": with a Pit Witch
    left she takes a hit (her Boomstick), with none left the turn goes on without one."""
    g = load(2)
    pool = Cards(g)
    boom = pool.one("Boomstick")
    witch = pool.one("Pit Witch")
    st = arrange(g, hands={1: pool.take("Gunpowder", 1)}, mon={0: [*pool.take("Deadite", 3), witch]}, item={0: [boom]})
    st.apply("slay-three name=Deadite")
    assert st.mon[0] == [witch]
    assert st.phase == P_HIT and st.victim == 0 and texts(st) == [f"discard card={boom}"]

    cleared = arrange(g, hands={1: pool.take("Gunpowder", 1)}, mon={0: pool.take("Deadite", 3)}, item={0: [boom]})
    cleared.apply("slay-three name=Deadite")
    assert cleared.mon[0] == [] and cleared.item[0] == [boom] and cleared.active == 1


def test_ad5_3_step_3_after_clearing_with_three_of_a_name() -> None:
    """AD5.3 (option step3=after-clearing): "If player has no monsters in front of her, the player can
    choose to either draw one card from the deck or attack": read as a step after the attack, this holds
    after three of a name cleared her table too."""
    g = load(2, step3="after-clearing")
    pool = Cards(g)
    st = arrange(g, hands={1: pool.take("Gunpowder", 1)}, mon={0: pool.take("Deadite", 3)}, sides={1: EVIL})
    st.apply("slay-three name=Deadite")
    assert st.active == 0 and st.phase == P_FREE
    assert texts(st) == ["draw", "attack seat=P2", "pass"]


# -- AD6 step 4: tabled cards before hand cards -------------------------------------------------------


def test_ad6_her_own_hit_takes_a_tabled_ally_before_any_hand_card() -> None:
    """AD6: "she must discard one tabled item or ally (as good) ... if able, or if has neither, one hand
    card": holding hand cards, she may discard only her ally."""
    g = load(2)
    pool = Cards(g)
    d = pool.take("Deadite", 2)
    k = pool.one("Knight of Arthur")
    hand = pool.take("Chainsaw", 3)
    st = arrange(g, hands={0: hand, 1: pool.take("Gunpowder", 1)}, mon={0: d}, ally={0: [k]})
    run(st, f"play card={hand[0]}", "to seat=P2", "done", f"slay card={d[0]}")
    assert st.phase == P_HIT and st.victim == 0 and len(st.hands[0]) == 2
    assert texts(st) == [f"discard card={k}"]
    with pytest.raises(IllegalAction, match="a hand card only when you have none"):
        st.apply(f"discard card={hand[1]}")


# -- AD8 the switch for want of cards ------------------------------------------------------------------


def test_ad8_3_a_card_an_event_puts_in_her_emptied_hand_counts_as_a_card() -> None:
    """AD8.2/AD8.3: "if some player is reduced to no cards, she does not switch side until at the end of
    her next turn if still at no cards". Playing It's Back as her last card empties her hand, but the card
    it brings back fills it again: she has cards after all. When she empties her hand in her next turn,
    that is a new reduction, so she does not switch at the end of that turn."""
    g = load(2)
    pool = Cards(g)
    back = pool.one("It's Back")
    d = pool.one("Deadite")
    chainsaw = pool.one("Chainsaw")
    st = arrange(g, hands={0: [back], 1: pool.take("Gunpowder", 2)}, discard=[d], deck=[chainsaw])
    run(st, f"play card={back}", f"pick card={d}")
    assert st.hands[0] == [d] and st.reduced[0] == HAS_CARDS
    run(st, "done", "pass")
    assert sorted(st.hands[0]) == sorted([d, chainsaw]), "she had a card, so she drew one"
    run(st, f"play card={st.hands[1][0]}", "to seat=P2", "done", "pass")
    assert st.active == 0
    run(st, f"play card={d}", "to seat=P2", f"play card={chainsaw}", "to seat=P1", "pass")
    assert st.hands[0] == [] and st.side[0] == GOOD and st.switches[0] == 0, "emptied this turn: no switch yet"
    assert st.reduced[0] == REDUCED


# -- as a player: bad input says what is wrong and changes nothing ------------------------------------


def test_ad11_errors_name_the_problem_and_change_nothing() -> None:
    """AD11 Errors: "no such action" is told from "not legal now", each saying why, and nothing changes."""
    g = load(2)
    pool = Cards(g)
    d = pool.take("Deadite", 2)
    st = arrange(g, hands={0: pool.take("Chainsaw", 1), 1: pool.take("Gunpowder", 1)}, mon={0: d})
    cases: list[tuple[str, type[Exception], str, int | None]] = [
        ("slay-three name=Dragon", MalformedAction, "no such action", None),
        ("to seat=P3", MalformedAction, "P1, P2", None),
        (f"slay card={d[0]}", IllegalAction, "only in step 2", None),
        ("pass", IllegalAction, "only in step 3", None),
        (f"discard card={d[0]}", IllegalAction, "only when you take a hit", None),
        ("done", NotYourTurn, "cannot act now", 1),
    ]
    for text, exc, words, seat in cases:
        before = st.snapshot()
        log = len(st.log or [])
        with pytest.raises(exc, match=words):
            st.apply(text, seat=seat)
        assert st.snapshot() == before and len(st.log or []) == log, text
    run(st, f"play card={st.hands[0][0]}", "to seat=P2")
    before = st.snapshot()
    with pytest.raises(IllegalAction, match="you do not have three Deadite monsters in front of you"):
        st.apply("slay-three name=Deadite")
    assert st.snapshot() == before


# -- the turn against an independent reading of the rules, over random games ---------------------------


def _meets_victory(st: AodState, s: int) -> bool:
    """The step-5 condition in the rulebook's words, read off the table (the hand card aside)."""
    g = st.game
    if necronomicon(g) not in st.item[s]:
        return False
    if st.side[s] == GOOD:
        return len(st.ally[s]) >= 3 and not st.mon[s]
    return len({g.cards.names[c] for c in st.mon[s]}) >= 5 and not st.ally[s]


@pytest.mark.parametrize(
    ("players", "options"),
    [(2, {}), (3, {}), (5, {}), (3, {"step3": "after-clearing"}), (2, {"step3-pass": False})],
)
def test_ad3_to_ad8_random_games_follow_the_turn_as_written(players: int, options: dict[str, object]) -> None:
    """AD3-AD8 checked at every step of random games against the rulebook's sentences, kept apart from the
    engine's own bookkeeping: "Player must play one card (if able) and can play a second one"; step 2
    "if player has any monsters (as good) or allies (as bad) in front of her, she discard one of them";
    step 3 only when nothing opposes her, and "good character cannot attack another good character";
    step 5 "If player still has any hand cards and has tabled Necronomicon, she may win" (taken at once,
    I11) — and only then; step 6 "she draws one card ... Otherwise the player switched ... and draws 5
    cards", "she does not switch side until at the end of her next turn if still at no cards"."""
    g = load(players, **options)
    wins = switches = 0
    for seed in range(12):
        st = g.new(seed, log=False)
        assert isinstance(st, AodState)
        rng = Rng(seed)
        emptied: list[int | None] = [None] * players  # the turn in which a hand became empty
        while not st.is_over:
            a, turn, phase = st.active, st.turn, st.snapshot()["phase"]
            legal = st.legal_actions()
            kinds = {x.kind for x in legal}
            good = st.side[a] == GOOD
            opposing = st.mon[a] if good else st.ally[a]
            if phase == "attack":
                assert opposing and kinds <= {"slay", "slay-three"}
            if phase == "free":
                assert not opposing
                for x in legal:
                    if x.kind == "attack":
                        victim = int(x.text.split("=P")[1]) - 1
                        assert victim != a and not (good and st.side[victim] == GOOD)
            if phase == "play" and "done" in kinds and st.plays == 0:
                assert all(g.TYPE[c] == EVENT for c in st.hands[a]), "done first only when no card can be played"
            side_before, emptied_before = st.side[a], emptied[a]
            action = legal[rng.below(len(legal))]
            st.apply(action)
            for s in range(players):
                if st.hands[s]:
                    emptied[s] = None
                elif emptied[s] is None:
                    emptied[s] = turn
            if st.is_over and st.winner >= 0:
                assert st.winner == a and st.hands[a] and _meets_victory(st, a)
                assert st.reason == ("necronomicon-good" if st.side[a] == GOOD else "necronomicon-evil")
                wins += 1
                break
            if st.turn == turn and not st.is_over:
                assert st.plays <= 2
                continue
            # Her turn ended (steps 5 and 6 are behind us); no action ending a turn is an event.
            switched = st.side[a] != side_before
            if not switched and st.hands[a]:
                assert not _meets_victory(st, a), "she had a hand card at step 5 and met the condition"
            if switched:
                switches += 1
                assert emptied_before is not None and emptied_before < turn, "switched without a card since before"
            elif not st.hands[a]:
                assert emptied[a] == turn, "without cards since before this turn she must switch"
    assert wins >= 3 and switches >= 3, (wins, switches)
