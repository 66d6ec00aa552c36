"""Bad input gets a clear error and changes nothing (snapshot compared before and after)."""

from __future__ import annotations

import pytest

from cardtable.engine import GameOver, IllegalAction, MalformedAction, NotYourTurn

from .helpers import CHALICE, IMP, MALLET, PACT, apply, arrange, new


@pytest.mark.parametrize(
    "text",
    [
        "",
        "dance",
        "play",
        "play card=",
        "play card=x",
        "fight lane=9",
        "play card=1 x=2",
        "play card=1 card=2",
        "spend favor=11",
    ],
)
def test_malformed_actions(text: str) -> None:
    s = new(4)
    before = s.snapshot()
    with pytest.raises(MalformedAction):
        s.apply(text)
    assert s.snapshot() == before


def test_illegal_action_names_no_hidden_card_and_changes_nothing() -> None:
    """An illegal action changes nothing, and its message is the same whether the card named is in
    the opponent's hand or in the deck: it may repeat the card typed, never say where it is."""
    texts = (
        f"play card={MALLET}",
        f"loot card={IMP}",
        "fight lane=3",
        "spend favor=2",
        "done",
        f"discard card={PACT}",
        "switch",
        "target seat=P1",
    )
    messages: list[list[str]] = []
    for hands in ({0: [PACT], 1: [MALLET]}, {0: [PACT], 1: [CHALICE + 1]}):
        s = arrange(new(), hands=hands, dungeon=[CHALICE, IMP, -1, -1, -1, -1])
        before = s.snapshot()
        seen = []
        for text in texts:
            with pytest.raises(IllegalAction) as err:
                s.apply(text)
            seen.append(str(err.value))
            assert s.snapshot() == before
        messages.append(seen)
    assert messages[0] == messages[1]
    assert "Mallet (card 24) is not in your hand" in messages[0][0]


def test_wrong_seat() -> None:
    s = arrange(new(), hands={0: [PACT]}, dungeon=[CHALICE, -1, -1, -1, -1, -1])
    before = s.snapshot()
    with pytest.raises(NotYourTurn):
        s.apply(f"play card={PACT}", seat=1)
    assert s.snapshot() == before
    s.apply(f"play card={PACT}", seat=0)


def test_after_the_end() -> None:
    s = arrange(new(), seat=1, first=0, deck=[PACT], dungeon=[CHALICE, IMP, -1, -1, -1, -1])
    apply(s, "loot-deck")
    assert s.is_over
    before = s.snapshot()
    with pytest.raises(GameOver):
        s.apply("loot-deck")
    assert s.snapshot() == before


def test_bad_seat_in_view_and_result_before_the_end() -> None:
    s = new()
    with pytest.raises(ValueError, match="no seat"):
        s.view(2)
    with pytest.raises(ValueError, match="not over"):
        s.result()
