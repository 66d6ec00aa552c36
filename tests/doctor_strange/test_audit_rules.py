"""Rules audit: scenarios written from the rulebook text for points the other files did not pin down."""

from __future__ import annotations

import pytest

from cardtable.engine import IllegalAction
from cardtable.games.doctor_strange import state as S

from .helpers import EVIL, act, cid, scenario, where


def refusal(st: S.DSState, text: str) -> str:
    snap = st.snapshot()
    with pytest.raises(IllegalAction) as err:
        st.apply(text)
    assert st.snapshot() == snap
    return str(err.value)


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
