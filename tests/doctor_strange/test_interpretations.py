"""Scenario tests for clauses and interpretations of docs/rules/doctor-strange.md that no other test
already shows: DS2.1's starting characters and who chooses an event's target."""

from __future__ import annotations

from typing import Any

import pytest

from cardtable.engine import NotYourTurn
from cardtable.games.doctor_strange import state as S
from cardtable.games.doctor_strange.base import replaced
from cardtable.games.doctor_strange.state import DSState

from .helpers import EVIL, GOOD, act, cid, game, goto, scenario, side_of, texts, where


def test_ds2_1_doctor_strange_and_baron_mordo_start_in_play_and_are_not_in_the_deck() -> None:
    """DS2.1: "Good starts with Doctor Strange in play, Evil with Baron Mordo (they are not in the deck)"."""
    g = game()
    for seed in range(5):
        st = g.new(seed, log=False)
        assert isinstance(st, DSState)
        assert sorted(g.NAMES[c] for c in st.chars) == ["Baron Mordo", "Doctor Strange"]
        assert where(st, "Doctor Strange") == "play" and side_of(st, "Doctor Strange") == GOOD
        assert where(st, "Baron Mordo") == "play" and side_of(st, "Baron Mordo") == EVIL
        shuffled = st.deck + st.hands[0] + st.hands[1]
        assert cid("Doctor Strange") not in shuffled and cid("Baron Mordo") not in shuffled


def test_the_player_who_played_a_negate_chooses_its_target_also_in_the_other_players_turn() -> None:
    """Interpretation (who chooses an event's target): "The player who played a Negate or Go Back in Time
    chooses its target (in any window, not only in its own turn)"."""
    options: dict[str, Any] = {"rest-events": "both-rests"}
    st = scenario({GOOD: ["Healing Powers"], EVIL: ["Incense"]}, phase=S.REST, run=False, **options)
    st.incap = replaced(st.incap, st.game.SLOT[cid("Doctor Strange")], 1)
    goto(st, S.REST, EVIL)
    assert st.phase == S.OREST and st.active == EVIL and st.current_player == GOOD
    act(st, "play", "Healing Powers", lone_passes=False)
    # Evil's turn, Good's Negate: Good chooses what it negates, Evil cannot.
    assert st.phase == S.NEGATE and st.active == EVIL and st.current_player == GOOD
    target = f"negate card={cid('Doctor Strange')}"
    assert texts(st) == [target]
    with pytest.raises(NotYourTurn):
        st.apply(target, seat=EVIL)
    st.apply(target, seat=GOOD)
    assert st.incap[st.game.SLOT[cid("Doctor Strange")]] == 0
