"""DS7 (Rest phase), DS10.3-DS10.4 (any-time events), DS11 (victory), DS12 (turn limit)."""

from __future__ import annotations

from typing import Any

import pytest

from cardtable.engine import IllegalAction
from cardtable.games.doctor_strange import state as S
from cardtable.games.doctor_strange.base import replaced

from .helpers import EVIL, GOOD, act, cid, dice, game, goto, legal_cards, scenario, side_of, texts, where


def test_ds7_2_hand_limit_discards_are_decisions() -> None:
    names = ["Incense", "Trance", "Sorcery", "Real Self", "Levitation", "Illusions", "Surprise", "Impostor", "Bait"]
    st = scenario({EVIL: names, GOOD: ["Learn Secrets"]}, phase=S.REST)  # Good stops in its Mystic Arts
    assert st.phase == S.DISCARD and st.current_player == EVIL
    assert legal_cards(st, "discard") == set(names)
    act(st, "discard", "Bait")
    assert st.phase == S.DISCARD
    snap = st.snapshot()
    with pytest.raises(IllegalAction):
        act(st, "discard", "Bait")  # no longer in hand
    assert st.snapshot() == snap
    act(st, "discard", "Incense")
    assert len(st.hands[EVIL]) == 7 and st.active == GOOD
    assert where(st, "Bait") == "discard"


def test_ds7_3_incapacitated_recover_on_11_or_12() -> None:
    for roll, recovered in ((10, False), (11, True), (12, True)):
        st = scenario({GOOD: ["Learn Secrets"]}, play={EVIL: ["Zota"]}, phase=S.REST, run=False)
        g = st.game
        st.incap = replaced(st.incap, g.SLOT[cid("Zota")], 1)
        dice(st, roll)
        goto(st, S.REST, EVIL)
        assert st.incap[g.SLOT[cid("Zota")]] == (0 if recovered else 1)


def test_ds7_4_unmodified_power_10_leaves_on_11_or_12() -> None:
    for roll, leaves in ((10, False), (11, True)):
        st = scenario({GOOD: ["Learn Secrets"]}, play={EVIL: ["Loki", "The Dread Dormammu"]}, phase=S.REST, run=False)
        dice(st, roll, 1)
        goto(st, S.REST, EVIL)
        assert where(st, "Loki") == ("discard" if leaves else "play")
        assert where(st, "The Dread Dormammu") == "play"


def test_ds7_4_modified_power_does_not_count() -> None:
    st = scenario({GOOD: ["Learn Secrets"]}, play={EVIL: ["Aggamon The All-Powerful"]}, run=False)
    from .helpers import attach

    for card in (
        "Sorcerer Supreme",
        "Omnipotent",
        "Dormant Talent",
        "Master of the Mystic Arts",
        "Guards",
        "Underlings",
    ):
        attach(st, card, "Aggamon The All-Powerful")
    dice(st, 12)
    goto(st, S.REST, EVIL)
    assert where(st, "Aggamon The All-Powerful") == "play"  # 4 unmodified, 10 modified: no roll


def test_ds7_1_r_events_only_in_rest() -> None:
    st = scenario({GOOD: ["Healing Powers", "Learn Secrets"]}, active=GOOD, phase=S.MYSTIC)
    g = st.game
    st.incap = replaced(st.incap, g.SLOT[cid("Doctor Strange")], 1)
    goto(st, S.MYSTIC, GOOD)
    assert legal_cards(st, "play") == {"Learn Secrets"}
    goto(st, S.REST, GOOD)
    assert legal_cards(st, "play") == {"Healing Powers"}


def test_ds10_3_any_time_window_and_read_minds() -> None:
    st = scenario({EVIL: ["Disciple"], GOOD: ["Read Minds", "Poison", "Detect Danger"]}, phase=S.MYSTIC)
    # Good, not the active player, gets an any-time window after Evil's Mystic Arts phase.
    assert st.phase == S.XWIN and st.current_player == GOOD
    assert texts(st) == [f"play card={cid('Read Minds')}", "pass"]
    act(st, "play", "Read Minds")
    assert {c["name"] for c in st.view(GOOD)["known_opponent_hand"]} == {"Disciple"}
    assert st.view(EVIL)["known_opponent_hand"] == []
    assert cid("Disciple") in st.known_cards(GOOD)
    # The private event names the cards for Good only.
    log_good, log_evil = st.events(GOOD), st.events(EVIL)
    assert any("Disciple" in e for e in log_good)
    assert not any("Disciple" in e for e in log_evil if "holds" in e)
    # Once Disciple leaves the hand (played, public), the knowledge is simply public.
    act(st, "play", "Disciple")
    assert st.view(GOOD)["known_opponent_hand"] == []


def test_ds10_3_all_seeing_eye_in_own_phase() -> None:
    st = scenario({EVIL: ["All Seeing Eye", "Disciple"], GOOD: ["Incense"]})
    assert "All Seeing Eye" in legal_cards(st, "play")
    act(st, "play", "All Seeing Eye")
    assert [c["name"] for c in st.view(EVIL)["known_opponent_hand"]] == ["Incense"]


def test_ds10_3_x_event_in_power_exchange() -> None:
    st = scenario({EVIL: ["Poison"], GOOD: ["Read Minds"]})
    dice(st, 12, 1)
    act(st, "attacker", "Baron Mordo")
    act(st, "target", "Doctor Strange")
    act(st, "play", "Poison")
    # The counter window first: Good may play its X event there too, and declines.
    assert st.phase == S.COUNTER and legal_cards(st, "play") == {"Read Minds"}
    act(st, "pass")
    # Good is behind in the fight and may play its X event there as well.
    assert st.phase == S.EXCHANGE and st.current_player == GOOD
    assert legal_cards(st, "play") == {"Read Minds"}


def _no_characters(st: S.DSState, seat: int) -> None:
    from cardtable.games.doctor_strange.fates import remove_from_play

    for c in list(st.chars):
        if st.side[st.game.SLOT[c]] == seat:
            remove_from_play(st, c, st.killed, "killed")


def end_turns(st: S.DSState, count: int) -> None:
    """End ``count`` turns in a row (the victory check runs at the end of each)."""
    for _ in range(count):
        if st.phase == S.OVER:
            break
        st._end_turn()
    if st.phase == S.OVER:
        st._run()


def test_ds11_victory_from_turn_10_after_two_turns() -> None:
    st = scenario({EVIL: ["Incense"], GOOD: ["Trance"]})
    _no_characters(st, GOOD)
    st.turn, st.active = 8, EVIL
    end_turns(st, 2)  # turns 8 and 9: before turn 10 nothing counts
    assert not st.is_over and st.streak == (0, 0) and st.turn == 10
    end_turns(st, 1)  # end of turn 10: first turn without a viable character
    assert not st.is_over and st.streak == (0, 1)
    end_turns(st, 1)  # end of turn 11: the second in a row
    assert st.is_over and st.turn == 11
    res = st.result()
    assert res.winners == (EVIL,) and res.reason == "no-viable-characters" and not res.truncated
    assert res.ranks == (1, 2) and res.scores == (1.0, 0.0)


def test_ds11_streak_resets() -> None:
    st = scenario({EVIL: ["Incense"]})
    g = st.game
    s = g.SLOT[cid("Doctor Strange")]
    st.incap = replaced(st.incap, s, 1)
    st.turn, st.active = 10, EVIL
    end_turns(st, 1)
    assert st.streak[GOOD] == 1
    st.incap = replaced(st.incap, s, 0)  # Strange recovers: the streak resets
    end_turns(st, 1)
    assert st.streak[GOOD] == 0 and not st.is_over


def test_ds11_rounds_option() -> None:
    options: dict[str, Any] = {"victory-count": "rounds"}
    st = scenario({EVIL: ["Incense"]}, **options)
    _no_characters(st, GOOD)
    st.turn, st.active = 17, EVIL  # round 9
    end_turns(st, 3)  # turns 17-19: only the end of a round (Good's turn) of round >= 10 counts
    assert st.streak[GOOD] == 0
    end_turns(st, 1)  # end of turn 20 = round 10
    assert st.streak[GOOD] == 1 and not st.is_over
    end_turns(st, 1)  # turn 21: mid-round, not checked
    assert st.streak[GOOD] == 1 and not st.is_over
    end_turns(st, 1)  # end of round 11
    assert st.is_over and st.turn == 22 and st.result().winners == (EVIL,)


def test_ds11_both_without_characters_is_a_draw() -> None:
    st = scenario({EVIL: ["Incense"]})
    _no_characters(st, GOOD)
    _no_characters(st, EVIL)
    st.turn, st.active = 10, EVIL
    end_turns(st, 2)
    assert st.is_over
    res = st.result()
    assert res.draw and res.winners == () and res.ranks == (1, 1) and not res.truncated


def test_ds12_turn_limit() -> None:
    g = game(**{"turn-limit": 12})
    st = g.new(0, log=False)
    from cardtable.engine import Rng

    r = Rng(0)
    # A game where nobody ever attacks cannot end by the victory rule.
    while not st.is_over:
        la = [a for a in st.legal_actions() if a.kind != "attacker"] or st.legal_actions()
        st.apply(la[r.below(len(la))])
    res = st.result()
    assert res.reason in ("turn-limit", "no-viable-characters")
    if res.reason == "turn-limit":
        assert res.truncated and res.turns == 12 and res.draw


def test_ds12_turn_limit_exact() -> None:
    options: dict[str, Any] = {"turn-limit": 5}
    st = scenario({EVIL: ["Incense"]}, **options)
    st.turn, st.active = 4, EVIL
    end_turns(st, 1)
    assert not st.is_over and st.turn == 5
    end_turns(st, 1)
    assert st.is_over
    res = st.result()
    assert res.reason == "turn-limit" and res.truncated and res.turns == 5
    with pytest.raises(IllegalAction):
        st.apply("pass")
    assert side_of(st, "Doctor Strange") == GOOD
