"""Words a person reads at the Army of Darkness table (issue 19, point 8): cards say what they do under
the Rules of Kalle, the log and the prompts speak of a player without guessing their gender, and no
prompt shows typing syntax (backticks)."""

from __future__ import annotations

import json

import pytest

from cardtable.engine import Rng
from cardtable.games.army_of_darkness.cards import ALLY, ITEM, KALLE_WORDS, MONSTER, NECRONOMICON
from tests.army_of_darkness.helpers import Cards, arrange, load, run


def test_every_card_says_what_it_does_under_the_rules_of_kalle() -> None:
    """Monsters, allies and items had an empty text: their printed texts are ignored, so the face says
    what the type does in these rules (a foe or support by the side of the player it is in front of)."""
    g = load(4)
    for card in range(len(g.cards)):
        obj = g.card_json(card)
        assert obj["text"], f"{obj['name']} has no words"
        kind = g.TYPE[card]
        if kind in (MONSTER, ALLY, ITEM, NECRONOMICON):
            assert obj["text"] == KALLE_WORDS[kind]
    assert "Foe of a good player" in KALLE_WORDS[MONSTER] and "Support for an evil player" in KALLE_WORDS[MONSTER]
    assert "3 allies" in KALLE_WORDS[ALLY]
    assert "a hit" in KALLE_WORDS[ITEM]
    assert KALLE_WORDS[NECRONOMICON].startswith("Wins for the player")


def test_playing_a_card_in_front_of_oneself_reads_without_a_gender() -> None:
    """'P2 (Arthur) plays Deadite in front of herself' was the old line: Arthur, Henry the Red and Ash
    are not 'herself'."""
    g = load(2)
    pool = Cards(g)
    k = pool.take("Knight of Arthur", 1)
    st = arrange(g, hands={0: k + pool.take("Wise Man", 1), 1: pool.take("Gunpowder", 1)})
    run(st, f"play card={k[0]}", "to seat=P1")
    line = st.events(1)[-1]
    assert line == f"{st.who(0)} plays Knight of Arthur (card {k[0]}) in front of themselves"
    assert "herself" not in line


@pytest.mark.parametrize("players", [2, 4])
def test_no_prompt_log_or_action_label_shows_backticks_or_gendered_words(players: int) -> None:
    g = load(players)
    st = g.new(5)
    rng = Rng(5)
    for _ in range(500):
        if st.is_over:
            break
        for seat in [*range(players), None]:
            text = json.dumps(st.view(seat))
            assert "`" not in text, text[:200]
            assert not [w for w in (" she ", " her ", "herself") if w in text], text[:200]
        legal = st.legal_actions()
        for action in legal:
            assert "`" not in g.describe_action(action)
        st.apply(legal[rng.below(len(legal))])
    for line in st.events(None):
        assert "`" not in line and "herself" not in line and " her " not in line
