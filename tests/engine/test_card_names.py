"""A card parameter may be given by the card's name (``loot card=hex``), in every game: the name is
looked up among the legal actions only, for the seat to decide only, and a name that names nothing
or several things gets an error listing the choices, changing nothing."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardtable
from cardtable.engine import IllegalAction, MalformedAction, Rng, State
from cardtable.engine.actions import CARD_PARAMS, name_key
from tests.support.walk import apply_random


def mephisto_at_first_decision() -> State:
    """Mephisto, seed 7: P1 may play Crossbow, Hex or Grimoire, loot Mind Rot, Corrode or Sharpen,
    fight, or summon Ogre."""
    state = cardtable.load("mephisto", players=2).new(seed=7)
    assert {a.text for a in state.legal_actions()} >= {"play card=43", "loot card=46", "summon card=17"}
    return state


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("play card=hex", "play card=43"),  # the whole name, any case
        ("play card=HEX", "play card=43"),
        ("loot card=mind", "loot card=46"),  # the start of a name
        ("loot card=rot", "loot card=46"),  # the start of one of its words
        ("loot card=mind_rot", "loot card=46"),  # spaces written as _ (a value has no spaces)
        ("summon card=og", "summon card=17"),
        ("loot card=46", "loot card=46"),  # numbers as ever
    ],
)
def test_a_card_named_among_the_choices_is_the_action(text: str, canonical: str) -> None:
    state = mephisto_at_first_decision()
    state.apply(text, seat=0)
    # The record keeps the canonical text, never the name typed.
    assert state.actions_taken() == [canonical]


def test_a_name_outside_the_choices_lists_them_and_changes_nothing() -> None:
    """The issue's finding: ``loot hex`` said "card='hex' is not a number" although Hex is a card
    (it is in P1's hand, so it cannot be looted)."""
    state = mephisto_at_first_decision()
    before = state.snapshot()
    with pytest.raises(IllegalAction) as info:
        state.apply("loot card=hex", seat=0)
    message = str(info.value)
    assert "not a number" not in message
    assert "no card called 'hex' is among the choices now" in message
    assert "loot Mind Rot (card 46)" in message and "loot Sharpen (card 48)" in message
    assert state.snapshot() == before


def test_a_kind_not_open_now_says_what_is() -> None:
    state = mephisto_at_first_decision()
    with pytest.raises(IllegalAction, match=r"no 'discard' is possible \(you may now: play, loot"):
        state.apply("discard card=hex", seat=0)


def test_a_name_of_no_card_at_all_is_malformed() -> None:
    state = mephisto_at_first_decision()
    with pytest.raises(MalformedAction, match="'zzz' is neither a number nor the name of a card"):
        state.apply("loot card=zzz")


def test_a_name_shared_by_several_choices_asks_for_the_number() -> None:
    """Two copies of a card among the choices: the name alone picks neither."""
    game = cardtable.load("mephisto", players=2)
    for seed in range(200):
        state = game.new(seed=seed)
        rng = Rng(seed)
        for _ in range(60):
            if state.is_over:
                break
            legal = state.legal_actions()
            names: dict[tuple[str, str], set[int]] = {}
            for a in legal:
                if a.kind in game.actions.params and game.actions.params[a.kind] == ("card",):
                    names.setdefault((a.kind, game.card_names(int(a.args[0]))[0]), set()).add(int(a.args[0]))
            twins = [(kind, name) for (kind, name), ids in names.items() if len(ids) > 1]
            if twins:
                kind, name = twins[0]
                with pytest.raises(IllegalAction, match=r"could be any of 2 choices .*: give the card's number"):
                    state.apply(f"{kind} card={name.replace(' ', '_')}")
                return
            state.apply(legal[rng.below(len(legal))])
    pytest.fail("no position with two copies of a card among the choices in 200 games")


def test_only_the_seat_to_decide_is_told_about_the_choices() -> None:
    """Another seat naming a card by name learns nothing of the decider's options: the parser's own
    error, which names no card."""
    state = mephisto_at_first_decision()
    with pytest.raises(MalformedAction) as info:
        state.apply("loot card=mind", seat=1)
    assert "Mind Rot" not in str(info.value) and "card 46" not in str(info.value)


def test_either_side_of_a_two_sided_card_names_it() -> None:
    game = cardtable.load("mr-card-game", players=2)
    assert game.card_names(3) == ("Root Cellar Rat", "Rat Trap Grenade")
    assert name_key("Will-o'-the-Wisp Accountant") == "will o the wisp accountant"


@settings(max_examples=40)
@given(
    game_id=st.sampled_from(["mephisto", "doctor-strange", "army-of-darkness", "mr-card-game"]),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 120),
)
def test_every_choice_can_be_named_by_its_card(game_id: str, seed: int, steps: int) -> None:
    """In random positions of every game, each legal action naming a card is reached by its card's
    whole name, unless another choice of the same kind names a card of the same name (then the
    error asks for the number and nothing changes)."""
    game = cardtable.load(game_id)
    state = game.new(seed=seed)
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_over:
            return
        apply_random(state, rng)
    if state.is_over:
        return
    legal = state.legal_actions()
    for action in legal:
        params = game.actions.params[action.kind]
        if params != ("card",) or not set(params) <= CARD_PARAMS:
            continue
        name = game.card_names(int(action.args[0]))[0]
        same = [
            a
            for a in legal
            if a.kind == action.kind and name_key(name) in {name_key(n) for n in game.card_names(int(a.args[0]))}
        ]
        trial = state.clone()
        text = f"{action.kind} card={name_key(name).replace(' ', '_')}"
        if len({int(a.args[0]) for a in same}) == 1:
            trial.apply(text)
            assert trial.history[-1] == action.index
        else:
            before = trial.snapshot()
            with pytest.raises(IllegalAction):
                trial.apply(text)
            assert trial.snapshot() == before


def test_a_number_out_of_range_keeps_the_parsers_message() -> None:
    """Only a name is looked up: ``card=9999`` is the parser's "out of range", for anyone."""
    state = mephisto_at_first_decision()
    with pytest.raises(MalformedAction, match=r"card=9999 is out of range \(card is a number from 0 to 59\)"):
        state.apply("loot card=9999", seat=0)
