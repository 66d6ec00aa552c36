"""Rules audit: scenarios written from the rulebook text for points the other files did not pin down."""

from __future__ import annotations

from cardtable.games.doctor_strange import state as S
from cardtable.games.doctor_strange.base import replaced

from .helpers import EVIL, GOOD, act, cid, dice, refusal, scenario, where


def test_ds5_3_second_location_refused_naming_the_location_already_there() -> None:
    # "A Character may only have one Location card attached": attaching a second Location to a
    # character is refused, the message saying so (not that the character is not ours), and nothing changes.
    st = scenario({EVIL: ["Hidden Temple", "Shadow World"]}, play={EVIL: ["Zota"]})
    assert st.phase == S.SUMMON
    act(st, "play", "Hidden Temple")
    act(st, "onto", "Zota")
    act(st, "play", "Shadow World")
    assert st.phase == S.ONTO
    msg = refusal(st, f"onto card={cid('Zota')}")
    assert msg.endswith(
        "Zota (card 110) cannot take Shadow World (card 69): it has a Location already, "
        "Hidden Temple (card 10), and a character may have only one"
    )
    assert "on your side" in refusal(st, f"onto card={cid('Doctor Strange')}")
    act(st, "onto", "Baron Mordo")
    assert where(st, "Shadow World") == "attached" and st.att_on[cid("Shadow World")] == cid("Baron Mordo")


def test_ds6_7_helper_refusals_name_the_reason() -> None:
    # "This lets an unmarked friendly viable character add its modified Power": a helper that is the
    # target, marked, not viable, already helping or not the defender's is refused with that reason.
    st = scenario(
        {EVIL: ["Poison", "Bind"], GOOD: ["Desperate Cry", "Not Responding"]},
        play={EVIL: ["Zota"], GOOD: ["Topaz", "Wong", "Rintrah"]},
    )
    g = st.game
    st.incap = replaced(st.incap, g.SLOT[cid("Rintrah")], 1)
    dice(st, 12, 1, 1, 12)
    for attacker, target, card in (("Baron Mordo", "Doctor Strange", "Poison"), ("Zota", "Topaz", "Bind")):
        act(st, "attacker", attacker)
        act(st, "target", target)
        act(st, "play", card)
    assert st.phase == S.EXCHANGE and st.current_player == GOOD
    act(st, "play", "Desperate Cry")
    assert st.phase == S.HELPER
    assert refusal(st, f"helper card={cid('Doctor Strange')}").endswith(
        "Doctor Strange (card 0) cannot help: it is the target of this attack"
    )
    assert refusal(st, f"helper card={cid('Topaz')}").endswith(
        "Topaz (card 106) cannot help: it is marked (the target of an attack this turn)"
    )
    assert refusal(st, f"helper card={cid('Rintrah')}").endswith(
        "Rintrah (card 105) cannot help: it is not viable (incapacitated)"
    )
    assert refusal(st, f"helper card={cid('Zota')}").endswith(
        "Zota (card 110) cannot help: it is not one of your characters in play"
    )
    act(st, "helper", "Wong", lone_passes=False)
    assert st._totals() == (18, 10)
