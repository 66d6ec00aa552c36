"""M7: the play-and-activate step: costs, weapons in lanes, items, spells, attachments, activation."""

from __future__ import annotations

from .helpers import (
    BRAND,
    CANDLE,
    CHALICE,
    DAGGER,
    DEMON,
    FLASK,
    FORESIGHT,
    GREATAXE,
    IMP,
    MALLET,
    MORNINGSTAR,
    OFFERING,
    PACT,
    SHARPEN,
    SHORTSWORD,
    SKELETON,
    WARDRUM,
    WITCH,
    apply,
    arrange,
    cid,
    legal,
    new,
)


def test_m7_2_cost_paid_by_discarding_other_hand_cards_one_decision_each() -> None:
    s = arrange(new(), hands={0: [DEMON, PACT, IMP, CANDLE, WITCH]})
    apply(s, f"play card={DEMON}")  # cost 3, four other cards
    assert sorted(legal(s)) == sorted(f"discard card={c}" for c in (PACT, IMP, CANDLE, WITCH))
    assert s.view(0)["prompt"] == "P1: pay 3 more for Demon Sword: discard a card"
    assert s.view(1)["prompt"] == "P1 is paying for Demon Sword: 3 more cards to discard"
    apply(s, f"discard card={IMP}")
    assert sorted(legal(s)) == sorted(f"discard card={c}" for c in (PACT, CANDLE, WITCH))
    apply(s, f"discard card={PACT}", f"discard card={CANDLE}")
    assert s.inplay[0] == [DEMON] and s.hands[0] == [WITCH]
    assert s.discard[-3:] == [IMP, PACT, CANDLE]


def test_m7_2_cost_cannot_be_paid_with_cards_in_play_or_the_card_itself() -> None:
    s = arrange(new(), hands={0: [GREATAXE]}, inplay={0: [MALLET]})
    assert f"play card={GREATAXE}" not in legal(s)
    s = arrange(new(), hands={0: [GREATAXE, PACT, IMP]})
    assert f"play card={GREATAXE}" in legal(s)
    apply(s, f"play card={GREATAXE}")
    assert sorted(legal(s)) == [f"discard card={IMP}", f"discard card={PACT}"]  # never the Greataxe itself


def test_m7_2_a_forced_payment_resolves_by_itself() -> None:
    """Forced-choice rule: when every other card in the hand must go (the hand size and the cost are
    public), the payment is made without a decision; otherwise each discard is offered."""
    s = arrange(new(), hands={0: [GREATAXE, PACT]})
    events = s.apply(f"play card={GREATAXE}")
    assert s.inplay[0] == [GREATAXE] and s.hands[0] == [] and s.discard == [PACT]
    assert s.current_player == 0 and f"discard card={PACT}" not in legal(s)
    assert any(e.text == "P1 discards Dark Pact (card 38) to pay for Greataxe" for e in events)
    s = arrange(new(), hands={0: [DEMON, PACT, IMP, CANDLE]})
    apply(s, f"play card={DEMON}")  # cost 3 and exactly three other cards
    assert s.inplay[0] == [DEMON] and s.hands[0] == [] and s.current_player == 0


def test_m7_3_weapon_goes_to_the_lane_of_its_range_on_your_side() -> None:
    s = arrange(new(), hands={0: [MALLET, DAGGER]}, dungeon=[IMP, -1, SKELETON, -1, -1, -1])
    apply(s, f"play card={MALLET}", f"play card={DAGGER}")
    v = s.view(0)
    weapons = {w["name"]: w["range"] for w in v["players"][0]["in_play"]}
    assert weapons == {"Mallet": 2, "Dagger": 1}
    apply(s, "fight lane=2")  # lane 2 holds the Skeleton: only the Mallet (range 2) may help
    assert sorted(legal(s)) == ["done", f"weapon card={MALLET}"]


def test_m7_4_items_go_beside_the_lanes_without_limit() -> None:
    s = arrange(
        new(),
        hands={0: [CANDLE, FLASK, cid(new(), "Lantern"), cid(new(), "Whetstone")]},
        dungeon=[IMP, IMP + 1, SKELETON, SKELETON + 1, 5, 6],
    )
    for card in list(s.hands[0]):
        apply(s, f"play card={card}")
    assert len(s.inplay[0]) == 4
    assert all(s.game.cards.range[c] == 0 for c in s.inplay[0])
    apply(s, "fight lane=2")  # two monsters there: choose them; no item is offered as a weapon
    apply(s, f"monster card={SKELETON}", "done")
    assert legal(s)[0].startswith("spend")


def test_m7_5_spell_resolves_then_goes_to_the_discard_pile() -> None:
    s = arrange(new(), hands={0: [OFFERING, IMP]})
    apply(s, f"play card={OFFERING}")  # cost 1, paid with the only other card (forced)
    assert s.favor[0] == 9
    assert s.discard[-1] == OFFERING and s.limbo == []


def test_m7_6_attached_spell_stays_under_the_weapon_until_it_breaks() -> None:
    s = arrange(
        new(), hands={0: [SHARPEN]}, inplay={0: [MALLET, DAGGER]}, dungeon=[-1, -1, WITCH, -1, -1, -1], favor=[10, 5]
    )
    apply(s, f"play card={SHARPEN}")
    assert sorted(legal(s)) == [f"attach card={MALLET}", f"attach card={DAGGER}"]
    apply(s, f"attach card={MALLET}")
    assert s.attached == [SHARPEN] and s.host[SHARPEN] == MALLET
    assert s.fight_attack(0, [MALLET], 0) == 3 + 1
    s.dur[MALLET] = 1  # one use left: the fight breaks it
    apply(s, "fight lane=2", f"weapon card={MALLET}", "spend favor=8")
    assert s.souls[0] == [WITCH]  # 3 + 1 + 8 = 12
    assert MALLET in s.discard and SHARPEN in s.discard and s.attached == []


def test_m7_6_attaching_spell_needs_a_weapon() -> None:
    s = arrange(new(), hands={0: [SHARPEN, BRAND, PACT]})
    assert not any(a.startswith("play card=48") or a.startswith("play card=49") for a in legal(s))


def test_m7_7_weapon_on_play_ability() -> None:
    s = arrange(new(), hands={0: [SHORTSWORD, PACT]})
    apply(s, f"play card={SHORTSWORD}")  # the Dark Pact pays (forced)
    assert s.favor[0] == 6


def test_m7_1_activate_the_turn_it_is_played_once_per_turn() -> None:
    s = arrange(new(), hands={0: [CHALICE, PACT]}, dungeon=[CANDLE, -1, -1, -1, -1, -1])
    apply(s, f"play card={CHALICE}")  # the Dark Pact pays (forced)
    assert f"activate card={CHALICE}" in legal(s)
    apply(s, f"activate card={CHALICE}")
    assert s.favor[0] == 7 and s.dur[CHALICE] == 2
    assert f"activate card={CHALICE}" not in legal(s)  # M7.8
    apply(s, f"loot card={CANDLE}")
    # next own turn it can be activated again
    apply(s, "loot-deck")
    assert s.current_player == 0 and f"activate card={CHALICE}" in legal(s)


def test_m7_9_activating_and_fighting_with_one_weapon_costs_two_durability() -> None:
    s = arrange(new(), inplay={0: [MORNINGSTAR]}, dungeon=[-1, -1, cid(new(), "Troll"), -1, -1, -1], favor=[2, 5])
    apply(s, f"activate card={MORNINGSTAR}")
    assert s.dur[MORNINGSTAR] == 2 and s.bonus[0] == 2
    apply(s, "fight lane=2", f"weapon card={MORNINGSTAR}", "spend favor=2")  # 5 + 2 + 2 = 9 = Troll
    assert s.dur[MORNINGSTAR] == 1 and s.soul_pts[0] == 4


def test_m7_10_break_at_zero_durability_goes_to_discard() -> None:
    s = arrange(new(), inplay={0: [FLASK], 1: [MALLET]})
    apply(s, f"activate card={FLASK}")  # durability 1: it breaks, its ability still resolves
    assert FLASK in s.discard and s.inplay[0] == []
    assert s.dur[MALLET] == 2


def test_m7_11_monsters_are_summoned_not_played() -> None:
    s = arrange(new(), hands={0: [IMP, PACT]}, dungeon=[CANDLE, -1, -1, -1, -1, -1])
    assert f"play card={IMP}" not in legal(s)
    assert f"summon card={IMP}" in legal(s)


def test_m7_activated_attack_bonus_from_an_item() -> None:
    s = arrange(new(), inplay={0: [WARDRUM]}, dungeon=[-1, -1, IMP, -1, -1, -1], favor=[0, 5])
    apply(s, f"activate card={WARDRUM}", "fight lane=2")
    assert s.souls[0] == [IMP]  # 2 attack from the drum, no favor needed


def test_m14_2_play_as_many_cards_as_you_can_pay_for() -> None:
    pact2, candle = cid(new(), "Dark Pact", 1), CANDLE
    s = arrange(new(), hands={0: [PACT, pact2, candle, FORESIGHT, IMP]}, deck_top=[42, 43])
    apply(
        s,
        f"play card={PACT}",
        f"play card={pact2}",
        f"play card={candle}",
        f"play card={FORESIGHT}",  # the Imp pays (forced)
    )
    assert s.favor[0] == 9 and len(s.hands[0]) == 2 and len(s.inplay[0]) == 1
