"""Input errors that help (issue 8 points 3 and 5): seats typed as P1..Pn, "no such action" told
apart from "not legal now", and the reason an action is not legal, in words, never revealing a
card the sender cannot see."""

from __future__ import annotations

import pytest

from cardtable.engine import IllegalAction, MalformedAction
from cardtable.games.army_of_darkness.state import AodState
from tests.army_of_darkness.helpers import EVIL, Cards, arrange, load, necronomicon, run


def refused(st: AodState, text: str, cls: type[Exception] = IllegalAction) -> str:
    """The message ``text`` gets; the state must be unchanged."""
    before = st.snapshot()
    with pytest.raises(cls) as info:
        st.apply(text)
    if cls is IllegalAction:
        assert not isinstance(info.value, MalformedAction), str(info.value)
    assert st.snapshot() == before
    return str(info.value)


def test_point3_seats_are_typed_as_p_labels() -> None:
    g = load(3)
    pool = Cards(g)
    k = pool.one("Knight of Arthur")
    st = arrange(g, hands={0: [k], 1: pool.take("Gunpowder", 1), 2: pool.take("Chainsaw", 1)})
    st.apply(f"play card={k}")
    assert [a.text for a in st.legal_actions()] == ["to seat=P1", "to seat=P2", "to seat=P3"]
    assert "one of P1, P2, P3" in refused(st, "to seat=1", MalformedAction)
    assert "P4" in refused(st, "to seat=P4", MalformedAction)
    st.apply("to seat=P3")
    assert k in st.ally[2]
    assert g.describe_action(g.ATTACK[1]) == "attack P2, who takes a hit (step 3)"
    assert g.describe_action(g.TARGET[2]) == "turn P3's character"


def test_point5_play_says_whether_the_card_is_in_your_hand_or_cannot_act() -> None:
    g = load(2)
    pool = Cards(g)
    blast, knight = pool.one("Shotgun Blast"), pool.one("Knight of Arthur")
    theirs = pool.one("Chainsaw")
    st = arrange(g, hands={0: [blast, knight], 1: [theirs]})
    deck_card = st.deck[0]
    assert refused(st, f"play card={theirs}").endswith(f"Chainsaw (card {theirs}) is not in your hand")
    # A card in the deck gets the same words: the message tells nothing about where a card is.
    assert refused(st, f"play card={deck_card}").endswith(f"(card {deck_card}) is not in your hand")
    assert "Shotgun Blast" in refused(st, f"play card={blast}") and "has nothing it can act on now" in refused(
        st, f"play card={blast}"
    )
    assert "you must play a card when you can" in refused(st, "done")
    assert "cards are played only in step 1" not in refused(st, "done")
    run(st, f"play card={knight}", "to seat=P1", "done")
    assert "cards are played only in step 1 of your own turn (now: step 3" in refused(st, f"play card={blast}")


def test_point5_attacks_say_why_not() -> None:
    g = load(3)
    pool = Cards(g)
    st = arrange(g, hands={1: pool.take("Gunpowder", 1), 2: pool.take("Chainsaw", 1)}, sides={2: EVIL})
    assert refused(st, "attack seat=P2").endswith("a good character cannot attack another good character (P2 is good)")
    assert refused(st, "attack seat=P1").endswith("you cannot attack yourself")
    assert "only in step 2" in refused(st, f"slay card={st.deck[0]}")
    d = pool.take("Deadite", 3)
    st = arrange(g, hands={1: pool.take("Gunpowder", 1)}, mon={0: d}, ally={0: [pool.one("Wise Man")]}, sides={0: EVIL})
    assert refused(st, f"slay card={d[0]}").endswith(f"Deadite (card {d[0]}) is not an ally in front of you")
    assert refused(st, "slay-three name=Deadite").endswith(
        "only a good character may discard three monsters of one name"
    )
    assert "draw, attack a character or pass only in step 3" in refused(st, "draw")


def test_point5_step_3_without_pass_says_she_must_draw_or_attack() -> None:
    g = load(3, **{"step3-pass": False})
    pool = Cards(g)
    st = arrange(g, hands={1: pool.take("Gunpowder", 1), 2: pool.take("Chainsaw", 1)}, sides={2: EVIL})
    assert refused(st, "pass").endswith("you must draw or attack a character when you can (option step3-pass=false)")


def test_point5_event_choices_say_why_not() -> None:
    g = load(2)
    pool = Cards(g)
    dc, bad = pool.one("Double-Crossed"), pool.one("I'm Bad")
    b = pool.one("Boomstick")
    necro = necronomicon(g)
    st = arrange(g, hands={0: [dc, bad], 1: pool.take("Gunpowder", 1)}, item={1: [necro, b]}, sides={1: EVIL})
    st.apply(f"play card={dc}")
    assert "events cannot affect the Necronomicon unless they say so (Rules of Kalle)" in refused(
        st, f"pick card={necro}"
    )
    assert "is not among what Double-Crossed may choose" in refused(st, f"pick card={st.deck[0]}")
    assert "no event asks you to choose a character" in refused(st, "target seat=P2")
    run(st, f"pick card={b}", f"play card={bad}")
    assert refused(st, "target seat=P2").endswith("P2's character is evil already")


def test_point5_a_hit_says_what_must_be_discarded() -> None:
    g = load(2)
    pool = Cards(g)
    hand = pool.take("Chainsaw", 2)
    k = pool.one("Knight of Arthur")
    st = arrange(g, hands={1: hand}, ally={1: [k]}, mon={1: [pool.one("Deadite")]}, sides={0: EVIL})
    st.apply("attack seat=P2")
    assert refused(st, f"discard card={hand[0]}").endswith(
        "you must discard a tabled item or ally while you have one; a hand card only when you have none"
    )
    assert "not legal now" in refused(st, "pass")
