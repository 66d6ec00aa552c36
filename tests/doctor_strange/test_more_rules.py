"""More clause tests: DS4.3 search and deck knowledge, DS7.4 departure releasing captives,
DS10.3 no X event in the middle of a choice, undo barriers on reveals."""

from __future__ import annotations

import pytest

from cardtable.engine import Table, UndoRefused
from cardtable.games.doctor_strange import state as S
from cardtable.games.doctor_strange.cards import CAPTURE, CHARACTER
from cardtable.games.doctor_strange.fates import apply_fate, viable
from cardtable.games.doctor_strange.state import DSState

from .helpers import EVIL, GOOD, act, cid, determinize, dice, goto, legal_cards, scenario, side_of, where


def test_ds4_3_search_shuffles_and_forgets_positions() -> None:
    st = scenario({EVIL: ["Investigate", "Go Back in Time", "Learn Secrets"]}, phase=S.MYSTIC)
    act(st, "play", "Investigate")
    assert len(st.view(EVIL)["known_deck"]) == 7
    act(st, "play", "Go Back in Time")
    wanted = st.stack[0]  # a card whose place Evil knows
    act(st, "take", st.game.NAMES[wanted])
    assert where(st, st.game.NAMES[wanted]) == "hand0"
    assert st.stack == [] and st.view(EVIL)["known_deck"] == []
    assert not any(st.peek[EVIL] >> c & 1 for c in st.pool)


def test_ds4_3_opponent_cannot_tell_which_known_card_was_taken() -> None:
    st = scenario(
        {GOOD: ["Investigate", "Learn Secrets"], EVIL: ["Go Back in Time", "Experiment"]},
        phase=S.MYSTIC,
        active=GOOD,
    )
    act(st, "play", "Investigate")
    seen = st.stack[-7:]
    goto(st, S.MYSTIC, EVIL)
    act(st, "play", "Go Back in Time")
    act(st, "take", st.game.NAMES[seen[-1]])
    assert seen[-1] in st.hands[EVIL]
    assert st.view(GOOD)["known_opponent_hand"] == [] and st.view(GOOD)["known_deck"] == []
    assert seen[-1] not in st.known_cards(GOOD)
    d = st.determinize(GOOD, 3)
    assert d.view(GOOD) == st.view(GOOD)


def test_ds7_4_departing_captor_frees_captive() -> None:
    st = scenario({GOOD: ["Learn Secrets"]}, play={EVIL: ["Loki"], GOOD: ["Topaz"]}, phase=S.REST, run=False)
    apply_fate(st, cid("Loki"), cid("Topaz"), CAPTURE)
    assert st.cap[st.game.SLOT[cid("Topaz")]] == cid("Loki")
    dice(st, 12)
    goto(st, S.REST, EVIL)
    assert where(st, "Loki") == "discard"
    assert side_of(st, "Topaz") == GOOD and viable(st, cid("Topaz"))


def test_ds10_3_no_x_event_in_the_middle_of_a_choice() -> None:
    st = scenario({EVIL: ["Poison", "Read Minds"]})
    assert st.phase == S.SUMMON and legal_cards(st, "play") == {"Read Minds"}  # offered in Summon
    act(st, "pass")
    assert st.phase == S.DECLARE and legal_cards(st, "play") == {"Read Minds"}  # and while declaring
    act(st, "attacker", "Baron Mordo")
    assert legal_cards(st, "play") == set()  # not while choosing the target
    act(st, "target", "Doctor Strange")
    assert legal_cards(st, "play") == {"Poison"}  # nor while choosing the Attack card


def test_reveal_is_an_undo_barrier() -> None:
    g = scenario().game
    # Find a seed where Evil may play an X event at its first decision, through the public table.
    for seed in range(200):
        table = Table(g, seed)
        st = table.state
        x = [
            a
            for a in st.legal_actions()
            if a.kind == "play" and g.NAMES[int(a.args[0])] in ("Read Minds", "All Seeing Eye")
        ]
        if x and st.current_player == EVIL:
            table.apply(x[0])
            with pytest.raises(UndoRefused):
                table.undo(EVIL)
            return
    pytest.fail("no seed with an opening X event found")


def test_undo_within_own_summon() -> None:
    g = scenario().game
    for seed in range(200):
        table = Table(g, seed)
        st = table.state
        assert isinstance(st, DSState)
        while st.phase in (S.MYSTIC, S.XWIN) and [a.text for a in st.legal_actions()] == ["pass"]:
            table.apply("pass")  # lone passes before Evil's first Summon phase
            st = table.state
            assert isinstance(st, DSState)
        summons = [a for a in st.legal_actions() if a.kind == "play" and g.TYPE[int(a.args[0])] == CHARACTER]
        if st.phase == S.SUMMON and summons:
            before = st.snapshot()
            table.apply(summons[0])
            assert table.undoable(st.current_player or 0) >= 1
            table.undo(table.state.current_player or 0)
            assert table.state.snapshot() == before
            return
    pytest.fail("no seed with a first-turn summon found")


def test_determinize_keeps_a_declared_attackers_attack_card() -> None:
    """Choosing an attacker shows that Evil holds an Attack card: Good's samples must agree."""
    st = scenario({EVIL: ["Poison", "Incense"], GOOD: ["Trance"]})
    act(st, "attacker", "Baron Mordo")
    g = st.game
    for seed in range(60):
        d = determinize(st, GOOD, seed)
        assert d.view(GOOD) == st.view(GOOD)
        assert any(g.ATK[EVIL][c] for c in d.hands[EVIL])
        d.apply(d.legal_actions()[0])  # the target
        assert d.phase == S.WEAPON and d.legal_actions()
