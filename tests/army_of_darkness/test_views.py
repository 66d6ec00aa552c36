"""Views for people (clause AD11 of docs/rules/army-of-darkness.md, issue 8 point 2): the declared
keys and nothing else, cards with their type and text, events in words, what each player needs to
win, and a prompt that says what is being decided, by whom and why."""

from __future__ import annotations

from typing import Any

import pytest

import cardtable
from cardtable.engine import ENGINE_VIEW_KEYS, Rng
from cardtable.games.army_of_darkness.cards import ITEM, KALLE_WORDS
from cardtable.games.army_of_darkness.game import ArmyOfDarkness
from cardtable.games.army_of_darkness.state import AodState
from cardtable.testing.conformance import card_objects, check_view_for_people, strings_in
from tests.army_of_darkness.helpers import EVIL, Cards, arrange, load, necronomicon, run, won_as_good
from tests.support.walk import apply_random

BOOKKEEPING = {
    "phase",
    "plays",
    "pending",
    "chosen",
    "victim",
    "no_cards",
    "turn_limit",
    "winner",
    "reason",
    "effect",
    "do",
    "kinds",
    "whose",
    "hit_step",
    "active",
}


def keys_in(value: Any) -> set[str]:
    out: set[str] = set()
    if isinstance(value, dict):
        out |= set(value)
        for v in value.values():
            out |= keys_in(v)
    elif isinstance(value, list):
        for v in value:
            out |= keys_in(v)
    return out


@pytest.mark.parametrize("config", [dict(c) for c in ArmyOfDarkness.CONFIGURATIONS], ids=str)
def test_ad11_view_keys_are_the_declared_ones_and_every_card_carries_type_and_text(config: dict[str, Any]) -> None:
    g = cardtable.load("army-of-darkness", **config)
    assert isinstance(g, ArmyOfDarkness)
    st = g.new(7, log=False)
    rng = Rng(7)
    for step in range(400):
        if step % 23 == 0 or st.is_over:
            for seat in [*range(g.players), None]:
                view = st.view(seat)
                check_view_for_people(g, view, f"view({seat})")
                assert set(view) == ENGINE_VIEW_KEYS | g.VIEW_KEYS
                assert not keys_in(view) & BOOKKEEPING, keys_in(view) & BOOKKEEPING
                for cid, _name in card_objects(view):
                    assert g.cards.names[cid] == _name
                for card in [c for row in view["players"] for k in ("monsters", "allies", "items") for c in row[k]]:
                    assert set(card) == {"id", "name", "type", "text"}
                for card in view["removed"] + (view["hand"] or []):
                    if card["type"] == "event":
                        assert card["text"].endswith("."), card
                assert all("=" not in text for text in strings_in(view)), "no raw effect syntax"
        if st.is_over:
            break
        apply_random(st, rng)


def test_ad1_6_event_texts_say_what_they_do_and_never_offer_the_necronomicon_unless_allowed() -> None:
    g = load(2)
    cs = g.cards
    texts = {cs.names[c]: cs.texts[c] for c in range(len(cs))}
    assert texts["Double-Crossed"] == (
        "Move an ally or an item (never the Necronomicon) from another player's table to yours."
    )
    assert texts["S-Mart"] == "Take an item (never the Necronomicon) from any table (yours too) into your hand."
    assert texts["It's Back"] == (
        "Take a monster, an ally or an item (never the Necronomicon) from the discard pile into your hand."
    )
    assert texts["Klaatu Barada Nikto"] == "Move an item (the Necronomicon too) from another player's table to yours."
    assert texts["I'm Bad"] == "Turn any good character (yours too) evil. Its die roll always succeeds."
    assert texts["Shop Smart"] == "Draw 2 cards."
    assert texts["Shotgun Blast"] == "Discard a monster from any table (yours too)."
    assert texts["Come Get Some"] == "Discard an ally from another player's table."
    assert texts["Rise Again"] == "Put a monster from the discard pile in front of any player."
    for c in range(len(cs)):
        eff = cs.effects[c]
        if eff is None:
            # The Rules of Kalle ignore the texts of all cards but events: the words say what the type does.
            assert cs.texts[c] == KALLE_WORDS[cs.types[c]]
            continue
        if ITEM in eff.kinds:
            assert ("(the Necronomicon too)" if cs.necro_ok[c] else "(never the Necronomicon)") in cs.texts[c]
        else:
            assert "Necronomicon" not in cs.texts[c]


def test_ad11_needs_says_what_each_player_still_lacks() -> None:
    g = load(3)
    pool = Cards(g)
    deadites = pool.take("Deadite", 2)
    st = arrange(
        g,
        hands={0: pool.take("Chainsaw", 1), 1: pool.take("Gunpowder", 1)},
        mon={0: [pool.one("Pit Witch")], 2: [*deadites, pool.one("Mini-Ash"), pool.one("Pit Witch")]},
        ally={0: pool.take("Knight of Arthur", 2), 2: [pool.one("Wise Man")]},
        sides={2: EVIL},
    )
    rows = st.view(None)["players"]
    assert rows[0]["needs"] == "Good: needs the Necronomicon tabled, 1 more ally, no monsters (has 1)"
    assert rows[1]["needs"] == "Good: needs the Necronomicon tabled, 3 more allies"
    # Three names among four monsters; and a hand card, since she has none.
    assert (
        rows[2]["needs"] == "Evil: needs the Necronomicon tabled, 2 more monster names, no allies (has 1), a hand card"
    )
    assert rows[2]["switching"] == "switches sides after their next turn unless they get a card"
    assert rows[0]["switching"] is None


def test_ad11_needs_says_when_a_player_has_all_she_needs() -> None:
    g = load(2)
    pool = Cards(g)
    st = arrange(
        g,
        hands={0: pool.take("Chainsaw", 1), 1: pool.take("Gunpowder", 1)},
        ally={1: pool.take("Knight of Arthur", 3)},
        item={1: [necronomicon(g)]},
    )
    assert st.view(0)["players"][1]["needs"] == "Good: has all they need; wins at their step 5 if it still holds"


def _prompts(st: AodState) -> tuple[str, str, str]:
    """The prompt for the deciding seat, for another seat, and for a spectator."""
    d = st.current_player
    assert d is not None
    other = (d + 1) % st.game.players
    return st.view(d)["prompt"], st.view(other)["prompt"], st.view(None)["prompt"]


def test_ad11_prompts_say_what_is_decided_by_whom_and_why() -> None:
    g = load(3)
    pool = Cards(g)
    knights = pool.take("Knight of Arthur", 2)
    blast = pool.one("Shotgun Blast")
    st = arrange(g, hands={0: [*knights, blast], 1: pool.take("Gunpowder", 1)}, mon={1: [pool.one("Deadite")]})
    p1 = st.who(0)
    mine, theirs, spectator = _prompts(st)
    assert mine == "P1: play a card (step 1: one if you can, then a second if you wish)"
    assert theirs == f"{p1} is playing cards (step 1: one if they can, then a second if they wish)" == spectator
    st.apply(f"play card={knights[0]}")
    mine, theirs, _ = _prompts(st)
    assert mine == "P1: choose the player in front of whom Knight of Arthur goes (step 1)"
    assert theirs == f"{p1} is choosing the player in front of whom Knight of Arthur goes (step 1)"
    st.apply("to seat=P1")
    assert _prompts(st)[0] == "P1: play a second card, or end step 1 (done)"
    assert _prompts(st)[1] == f"{p1} may play a second card (step 1)"
    st.apply(f"play card={blast}")
    mine, theirs, _ = _prompts(st)
    assert mine == "P1: choose a monster to discard (Shotgun Blast)"
    assert theirs == f"{p1} is choosing a monster to discard (Shotgun Blast)"
    assert st.view(2)["being_played"] == g.card_json(blast)
    assert st.view(2)["step"] == "step 1, resolving Shotgun Blast"


def test_ad11_prompts_for_event_targets_and_destinations() -> None:
    g = load(2)
    pool = Cards(g)
    bad, rise = pool.one("I'm Bad"), pool.one("Rise Again")
    d = pool.one("Deadite")
    st = arrange(g, hands={0: [bad, rise], 1: pool.take("Gunpowder", 1)}, discard=[d])
    st.apply(f"play card={bad}")
    assert _prompts(st)[0] == "P1: choose a character to turn evil (I'm Bad)"
    run(st, "target seat=P2", f"play card={rise}", f"pick card={d}")
    assert _prompts(st)[0] == "P1: choose the player in front of whom Deadite comes back (Rise Again)"
    assert st.view(1)["returning"] == g.card_json(d)


def test_ad11_prompts_for_the_attack_step_3_and_hits() -> None:
    g = load(3)
    pool = Cards(g)
    deadites = pool.take("Deadite", 3)
    st = arrange(g, hands={1: pool.take("Gunpowder", 1)}, mon={0: deadites})
    assert _prompts(st)[0] == "P1: attack: discard a monster in front of you, or three monsters of one name (step 2)"
    assert st.view(1)["step"] == "step 2, attack"

    st = arrange(
        g,
        hands={1: pool.take("Chainsaw", 2), 2: pool.take("Boomstick", 1)},
        sides={0: EVIL},
        item={1: [pool.one("Oldsmobile")]},
    )
    assert _prompts(st)[0] == "P1: nothing opposes you: draw a card, attack a character or neither (step 3)"
    assert _prompts(st)[1] == (
        f"{st.who(0)} has nothing opposing them and chooses whether to draw or attack a character (step 3)"
    )
    st.apply("attack seat=P2")
    mine, theirs, _ = _prompts(st)
    assert mine == "P2: take a hit: discard a tabled item or ally (P1 attacked you)"
    assert theirs == f"{st.who(1)} takes a hit: they discard a tabled item or ally (P1 attacked them)"
    assert st.view(0)["step"] == "step 3, P2 takes a hit"


def test_ad11_prompt_for_a_hit_from_the_hand_in_step_4() -> None:
    g = load(2)
    pool = Cards(g)
    d = pool.take("Deadite", 2)
    st = arrange(g, hands={0: pool.take("Chainsaw", 2), 1: pool.take("Gunpowder", 1)}, mon={0: d})
    run(st, f"play card={st.hands[0][0]}", "to seat=P2", "done", f"slay card={d[0]}")
    mine, theirs, _ = _prompts(st)
    assert mine == "P1: take a hit: discard a hand card (monsters are still in front of you, step 4)"
    assert theirs == f"{st.who(0)} takes a hit: they discard a hand card (monsters are still in front of them, step 4)"


def test_ad11_the_end_is_told_by_the_prompt_and_the_result() -> None:
    g = load(2)
    pool = Cards(g)
    st = won_as_good(g, pool)
    text = f"{st.who(0)} wins with the Necronomicon, 3 allies and no monsters in front of them (turn 1)"
    for seat in (0, 1, None):
        assert st.view(seat)["prompt"] == "Game over: " + text
        assert st.view(seat)["result"] == text
        assert st.view(seat)["turn_of"] is None
    stopped = arrange(load(2, **{"turn-limit": 1}), hands={1: pool.take("Gunpowder", 1)})
    stopped.apply("pass")
    assert stopped.view(0)["prompt"] == "Game over: stopped at the turn limit (1 turn): nobody wins"


def test_ad11_a_card_taken_face_up_shows_in_hand_for_everyone() -> None:
    g = load(2)
    pool = Cards(g)
    ev, d = pool.one("It's Back"), pool.one("Deadite")
    st = arrange(g, hands={0: [ev], 1: pool.take("Gunpowder", 1)}, discard=[d])
    run(st, f"play card={ev}", f"pick card={d}")
    assert st.view(1)["players"][0]["known_in_hand"] == [g.card_json(d)]
    assert st.view(1)["players"][0]["hand_size"] == 1
