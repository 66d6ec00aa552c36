"""The protocol surface: options and configurations, views, events, known cards, descriptions,
results, bad input (clear error, nothing changed)."""

from __future__ import annotations

import pytest

import cardtable
from cardtable.engine import GameOver, IllegalAction, MalformedAction, NotYourTurn, OptionError
from cardtable.games.army_of_darkness.game import ArmyOfDarkness
from tests.army_of_darkness.helpers import EVIL, Cards, arrange, deal, load, run


def test_configurations_cover_the_player_counts() -> None:
    counts = sorted({c["players"] for c in ArmyOfDarkness.CONFIGURATIONS})
    assert counts == [2, 3, 4, 6, 8]
    assert {c.get("step3", "instead") for c in ArmyOfDarkness.CONFIGURATIONS} == {"instead", "after-clearing"}
    for c in ArmyOfDarkness.CONFIGURATIONS:
        assert cardtable.load("army-of-darkness", **c).players == c["players"]


@pytest.mark.parametrize(
    ("options", "match"),
    [
        ({"players": 1}, "at least 2"),
        ({"players": 9}, "at most 8"),
        ({"turn-limit": 0}, "at least 1"),
        ({"turn_limit": "soon"}, "integer"),
        ({"variant": "x"}, "unknown option"),
        ({"cards": "/nonexistent/cards.toml"}, "cannot read"),
    ],
)
def test_bad_options(options: dict[str, object], match: str) -> None:
    with pytest.raises(OptionError, match=match):
        cardtable.load("army-of-darkness", **options)


def test_view_shows_own_hand_public_table_and_counts_only() -> None:
    g = load(3)
    s = deal(g, 4)
    v = s.view(1)
    assert [c["id"] for c in v["hand"]] == sorted(s.hands[1])
    assert s.view(None)["hand"] is None
    assert v["deck_size"] == len(s.deck) and v["discard"] == []
    for p in v["players"]:
        seat = p["seat"]
        assert p["hand_size"] == 5 and p["side"] == "good"
        assert [c["id"] for c in p["monsters"]] == s.mon[seat]
        assert p["character"] == g.cards.good_names[s.char[seat]]
    text = str(v)
    for other in (0, 2):
        for c in s.hands[other]:
            assert f"'id': {c}," not in text or c in s.hands[1]


def test_private_events_name_drawn_cards_only_to_the_drawer() -> None:
    g = load(2)
    s = deal(g, 3)
    mine = s.events(0)
    theirs = s.events(1)
    spectator = s.events(None)
    names0 = [g.cards.names[c] for c in s.hands[0]]
    hand_line0 = next(e for e in mine if e.startswith(s.who(0)) and "5 cards:" in e)
    assert all(n in hand_line0 for n in names0)
    line_for_1 = next(e for e in theirs if e.startswith(s.who(0)))
    assert "5 cards:" not in line_for_1 and line_for_1 in spectator


def test_known_cards() -> None:
    g = load(2)
    pool = Cards(g)
    ev = pool.one("It's Back")
    d = pool.one("Deadite")
    st = arrange(g, hands={0: [ev], 1: pool.take("Gunpowder", 2)}, discard=[d])
    assert set(st.hands[0]) <= st.known_cards(0)
    assert not set(st.hands[1]) & st.known_cards(0)
    assert d in st.known_cards(1) and d in st.known_cards(None)
    removed = {c for c in range(len(g.cards)) if g.cards.removed[c]}
    assert removed <= st.known_cards(1)
    run(st, f"play card={ev}", f"pick card={d}")
    assert d in st.known_cards(1), "taken face up into a hand: still known to all"


def test_describe_action_names_cards_and_seats() -> None:
    g = load(2)
    s = deal(g, 0)
    c = s.hands[s.active][0]
    assert g.describe_action(g.PLAY[c]) == f"play {g.cards.names[c]} (card {c})"
    assert "P2" in g.describe_action(g.ATTACK[1])
    assert "Deadite" in g.describe_action(g.SLAY3[g.cards.monster_names.index("Deadite")])
    assert g.describe_action(g.DRAW).startswith("draw")


def test_result_before_the_end_raises() -> None:
    with pytest.raises(ValueError, match="not over"):
        load(2).new(0).result()


def _refused(st: object, action: object, exc: type[Exception], match: str, seat: int | None = None) -> None:
    from cardtable.games.army_of_darkness.state import AodState

    assert isinstance(st, AodState)
    before = st.snapshot()
    legal = [a.index for a in st.legal_actions()]
    log = len(st.log or [])
    with pytest.raises(exc, match=match):
        st.apply(action, seat=seat)
    assert st.snapshot() == before
    assert [a.index for a in st.legal_actions()] == legal
    assert len(st.log or []) == log


def test_bad_input_is_refused_and_changes_nothing() -> None:
    g = load(2)
    pool = Cards(g)
    hand = [pool.one("Chainsaw"), pool.one("Shop Smart")]
    other = pool.take("Gunpowder", 2)
    st = arrange(g, hands={0: hand, 1: other}, mon={1: [pool.one("Deadite")]}, sides={0: EVIL})
    _refused(st, "", MalformedAction, "empty")
    _refused(st, "fly seat=1", MalformedAction, "unknown action")
    _refused(st, "play", MalformedAction, "missing")
    _refused(st, "play card=x", MalformedAction, "no such action")
    _refused(st, "play card=9999", MalformedAction, "no such action")
    _refused(st, "play card=1 card=2", MalformedAction, "twice")
    _refused(st, f"play card={other[0]}", IllegalAction, "not legal now")
    _refused(st, "done", IllegalAction, "not legal now")
    _refused(st, "attack seat=P2", IllegalAction, "not legal now")
    _refused(st, f"play card={hand[0]}", NotYourTurn, "cannot act now", seat=1)
    _refused(st, 42, MalformedAction, "must be an Action")
    # An event sent by text while another player decides (she is taking a hit): refused.
    run(st, f"play card={hand[0]}", "to seat=P1", "done", "attack seat=P2")
    assert st.current_player == 1
    _refused(st, f"play card={hand[1]}", IllegalAction, "not legal now")


def test_actions_after_the_end_are_refused() -> None:
    g = load(2, **{"turn-limit": 1})
    pool = Cards(g)
    st = arrange(g, hands={1: pool.take("Gunpowder", 2)})
    st.apply("pass")
    assert st.is_over and st.legal_actions() == []
    _refused(st, "pass", GameOver, "over")
