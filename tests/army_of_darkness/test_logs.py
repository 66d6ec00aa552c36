"""Logs a player can follow (issue 8 point 4): every public change in words, what only one seat may
know in its private text, no lines that say nothing."""

from __future__ import annotations

import itertools

from cardtable.engine import Rng
from tests.army_of_darkness.helpers import EVIL, Cards, arrange, load, run
from tests.support.walk import apply_random


def test_point4_a_turn_reads_as_it_was_played() -> None:
    g = load(2)
    pool = Cards(g)
    k = pool.take("Knight of Arthur", 2)
    st = arrange(g, hands={0: k, 1: pool.take("Gunpowder", 1)}, deck=[pool.one("Wise Man")])
    p1, p2 = st.who(0), st.who(1)
    run(st, f"play card={k[0]}", "to seat=P2", "done", "pass")
    assert st.events(1) == [
        f"{p1} plays Knight of Arthur (card {k[0]}) in front of {p2}",
        f"{p1} plays no more cards this turn",
        f"{p1} neither draws nor attacks a character",
        f"{p1} draws a card",
        f"turn 2: {p2}",
    ]
    drawn = st.hands[0][-1]
    assert st.events(0)[3] == f"{p1} draws Wise Man (card {drawn})", "the drawer reads what she drew"


def test_point4_empty_hands_hits_with_nothing_to_lose_and_switches_are_told() -> None:
    g = load(2)
    pool = Cards(g)
    k = pool.one("Knight of Arthur")
    st = arrange(g, hands={0: [k]}, sides={0: EVIL})
    p1, p2 = st.who(0), st.who(1)
    run(st, f"play card={k}", "to seat=P1", "slay card=" + str(k))
    texts = st.events(1)
    switch = "they switch sides at the end of their next turn if they still have none"
    assert f"{p1} has no hand cards left: {switch}" in texts
    assert f"{p1} attacks and discards Knight of Arthur (card {k})" in texts
    # P2 holds nothing and has nothing in front of her: step 1 is skipped for all to see.
    assert st.current_player == 1 and st.phase != 0
    before = len(st.events(0))
    st.apply("attack seat=P1")
    evil_p2 = st.who(1)
    assert st.events(0)[before : before + 5] == [
        f"{p2} attacks {p1}",
        f"{p1} takes a hit but has nothing to discard",
        f"P2 has had no hand cards for a whole turn and switches: now {evil_p2}",
        f"{evil_p2} draws 5 cards",
        f"turn 3: {p1}",
    ]
    assert evil_p2 != p2 and evil_p2.startswith("P2 (")


def test_point4_no_line_says_nothing() -> None:
    """Along random games: no empty line, no line repeated at once except draws, every line a sentence
    about the game (no raw codes)."""
    for players in (2, 5):
        g = load(players)
        st = g.new(11)
        rng = Rng(11)
        for _ in range(400):
            if st.is_over:
                break
            apply_random(st, rng)
        lines = st.events(None)
        assert lines and all(line.strip() for line in lines)
        for before, after in itertools.pairwise(lines):
            assert before != after or "draws a card" in before, before
        assert not any("=" in line or "->" in line for line in lines)
