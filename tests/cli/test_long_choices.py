"""A long list of choices (a search through a deck) on a 50-row screen: columns, shared words said
once, cut to fit with the rest reachable by number, by `choices`, or by a few letters of a name
(which, from the middle of a name, asks before it acts)."""

from __future__ import annotations

import io
import random

import pytest
from rich.console import Console

import cardtable
from cardtable.cli.display import shared_words
from cardtable.cli.play import Session
from cardtable.cli.term import Terminal
from cardtable.cli.typed import Ask, Problem, pick, shown
from cardtable.engine import State
from tests.mephisto.helpers import FURY, MALLET, WITCH, arrange
from tests.mephisto.helpers import new as new_mephisto

SCREEN_ROWS = 50


def test_shared_words_are_whole_words_and_never_a_whole_choice() -> None:
    deck = ["take Sorcerer Supreme (card 2) from the deck", "take Bind (card 3) from the deck"]
    assert shared_words(deck) == ("take ", " from the deck")
    assert shared_words(["take X", "takeY"]) == ("", "")  # "take" is not a shared word of "takeY"
    assert shared_words(["pass", "pass turn"]) == ("", "")
    assert shared_words(["a b c", "a b c d"]) == ("a b ", "")
    assert shared_words(["only"]) == ("", "")


def deck_search(game_id: str = "doctor-strange") -> tuple[State, list[str]]:
    """A random game played up to its first decision with more than 40 choices (Go Back in Time)."""
    game = cardtable.load(game_id)
    for seed in range(40):
        state, rng = game.new(seed=seed), random.Random(seed)
        taken: list[str] = []
        while not state.is_over:
            legal = state.legal_actions()
            if len(legal) > 40:
                return state, taken
            action = rng.choice(legal)
            taken.append(action.text)
            state.apply(action)
    raise AssertionError("no long list of choices in 40 games")


def screen(width: int) -> tuple[Session, Console, State]:
    state, taken = deck_search()
    seat = state.current_player
    assert seat is not None
    console = Console(width=width, height=SCREEN_ROWS, record=True, force_terminal=False, highlight=False)
    seats = ["random", "random"]
    seats[seat] = "human"
    session = Session(Terminal(console, io.StringIO("")), state.game, seats, state.seed, None, taken)
    return session, console, state


@pytest.mark.parametrize("width", [80, 100, 140])
def test_a_deck_search_fits_the_screen_and_every_choice_stays_reachable(width: int) -> None:
    session, console, state = screen(width)
    seat = state.current_player
    assert seat is not None
    legal = state.legal_actions()
    session.show_table(seat)  # the first screen of a seat draws everything
    console.export_text()
    session.show_table(seat)
    text = console.export_text()
    assert len(text.splitlines()) <= SCREEN_ROWS
    assert f"{len(legal)} choices" in text
    first = shown(state.game, legal[0]).removeprefix("take ").removesuffix(" from the deck")
    assert f"1. {first}" in text
    if "more (" in text:  # cut short: it says how to reach the rest
        assert "`choices` lists them all" in text
    # Any number of the whole list may be typed, shown or not.
    assert pick(state.game, legal, str(len(legal))) is legal[-1]


def test_the_choices_command_lists_every_choice() -> None:
    session, console, state = screen(80)
    seat = state.current_player
    assert seat is not None
    assert session.handle(seat, "choices") is None
    text = console.export_text()
    for n, action in enumerate(state.legal_actions(), 1):
        name = shown(state.game, action).removeprefix("take ").removesuffix(" from the deck")
        assert f"{n}. {name}" in " ".join(text.split())


def test_a_few_letters_of_a_name_pick_it_or_list_the_candidates_with_their_numbers() -> None:
    state, _ = deck_search()
    game, legal = state.game, state.legal_actions()
    described = [game.describe_action(a) for a in legal]
    # A word found in exactly one description, not at its start.
    words = [w for d in described for w in d.split()[1:] if w.isalpha() and len(w) > 4]
    unique = next(w for w in words if sum(w.lower() in d.lower() for d in described) == 1)
    # From the middle of a name it is a near miss: asked, never taken at once.
    asked = pick(game, legal, unique.lower())
    assert isinstance(asked, Ask)
    assert asked.action is legal[next(i for i, d in enumerate(described) if unique in d)]
    assert asked.question.startswith("did you mean “take ") and asked.question.endswith("? (y/n) ")
    # The card's name after the kind acts: `take NAME`.
    name = described[0].removeprefix("take ").split(" (card")[0]
    assert pick(game, legal, f"take {name}") is legal[0] or isinstance(pick(game, legal, f"take {name}"), Problem)
    # "card" is in every description: the message lists candidates with the numbers to type.
    several = pick(game, legal, "card")
    assert isinstance(several, Problem)
    shown = [d.replace(" (card ", " #").replace(")", "") for d in described[:2]]
    assert f"did you mean one of: 1. {shown[0]}; 2. {shown[1]};" in several.message
    assert "more? Type its number" in several.message


def test_an_action_typed_exactly_that_is_refused_is_told_why() -> None:
    """``play card=0`` typed when the Witch is not in the hand: the game's own reason (the one
    ``apply`` would give), then the choices of that kind. Without the game's reason it is only told
    what may be done instead."""
    s = arrange(new_mephisto(), hands={0: [FURY, MALLET]})
    legal = s.legal_actions()
    for line in (f"play card={WITCH}", f"play {WITCH}"):
        told = pick(s.game, legal, line, s.why_illegal)
        assert isinstance(told, Problem)
        assert told.message.startswith(
            f"'play card={WITCH}' is not legal now: Witch (card {WITCH}) is not in your hand;"
        )
        assert "the choices of 'play': 1. play Battle Fury" in told.message
    untold = pick(s.game, legal, f"play {WITCH}")
    assert isinstance(untold, Problem) and "is not among your choices now" in untold.message
    # The engine's public reason: None for a legal action, the refusal's words otherwise.
    assert s.why_illegal(legal[0]) is None
    assert s.why_illegal(s.game.actions.parse(f"play card={WITCH}")) == f"Witch (card {WITCH}) is not in your hand"
