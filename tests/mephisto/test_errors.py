"""Bad input gets a clear error and changes nothing (snapshot compared before and after)."""

from __future__ import annotations

import pytest

from cardtable.engine import GameOver, IllegalAction, MalformedAction, NotYourTurn

from .helpers import apply, arrange, new

MALLET, PACT, CHALICE, IMP = 24, 38, 50, 1


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
    s = arrange(new(), hands={0: [PACT], 1: [MALLET]}, dungeon=[CHALICE, IMP, -1, -1, -1, -1])
    before = s.snapshot()
    for text in (
        f"play card={MALLET}",
        f"loot card={IMP}",
        "fight lane=3",
        "spend favor=2",
        "done",
        f"discard card={PACT}",
        "switch",
        "target seat=1",
    ):
        with pytest.raises(IllegalAction) as err:
            s.apply(text)
        assert "Mallet" not in str(err.value)
        assert s.snapshot() == before


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
