"""Inspecting without acting: ``look``, ``rules``, ``?``; a typed word that is not an action never
acts without a yes; and decisions with a single choice taken by themselves (auto-pass), or not.

The issue's finding: typing ``card 211`` to look at a card trained a skill for 5 meat, and there was
no way to inspect a card.
"""

from __future__ import annotations

import io
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

import cardtable
from cardtable.cli.look import find, visible
from cardtable.cli.play import AUTO_PAUSE, INPUT_HELP, Outcome, Session
from cardtable.cli.term import Terminal
from cardtable.engine import Rng, State
from tests.cli.conftest import Runner

GAMES = ["mephisto", "doctor-strange", "army-of-darkness", "mr-card-game"]


def session(
    state_of: tuple[str, dict[str, Any], int, int], lines: Sequence[str] = (), width: int = 100
) -> tuple[Session, io.StringIO]:
    """A session of ``game`` (every seat a person) played ``steps`` random decisions from ``seed``."""
    game_id, options, seed, steps = state_of
    game = cardtable.load(game_id, **options)
    out = io.StringIO()
    console = Console(file=out, width=width, height=40, force_terminal=False, highlight=False)
    stdin = io.StringIO("".join(line + "\n" for line in lines))
    s = Session(Terminal(console, stdin), game, ["human"] * game.players, seed, None, [])
    rng = Rng(seed)
    for _ in range(steps):
        state = s.table.state
        if state.is_over:
            break
        legal = state.legal_actions()
        s.table.apply(legal[rng.below(len(legal))])
    return s, out


def train_position() -> tuple[Session, io.StringIO, int]:
    """Mr. Card Game at a decision where a skill can be trained, and that skill's id."""
    for steps in range(0, 60):
        s, out = session(("mr-card-game", {"players": 2}, 3, steps))
        state = s.table.state
        train = [a for a in state.legal_actions() if a.kind == "train"]
        if train and not state.is_over:
            return s, out, int(train[0].args[0])
    raise AssertionError("no training in 60 decisions")


def test_card_211_asks_before_it_trains_and_a_no_changes_nothing() -> None:
    """The finding itself: ``card N`` (N a skill in the trainer) names ``train … (card N)`` only in
    its middle; it is a near miss: asked, and "n" keeps the meat."""
    s, out, card = train_position()
    seat = s.table.state.current_player
    assert seat is not None
    before = s.table.state.fingerprint()
    s.term._stdin = io.StringIO("n\n")  # the answer to "did you mean …? (y/n)"
    assert s.handle(seat, f"card {card}") is None
    text = out.getvalue()
    assert "did you mean “train " in text and f"#{card}”? (y/n)" in text
    assert f"to look at a card instead, type: look {card}" in text
    assert "Not taken." in text
    assert s.table.state.fingerprint() == before
    # A "y" takes it: the person meant it.
    s.term._stdin = io.StringIO("y\n")
    assert s.handle(seat, f"card {card}") is Outcome.ACTED
    assert s.table.state.actions_taken()[-1] == f"train card={card}"


def test_look_shows_the_whole_card_and_where_it_lies() -> None:
    s, out, card = train_position()
    seat = s.table.state.current_player
    assert seat is not None
    name = s.game.card_names(card)[0]
    s.handle(seat, f"look {card}")
    text = out.getvalue()
    assert name in text and "in the trainer" in text and f"#{card}" in text
    skill = next(c.card for c in visible(s.table.state.view(seat)) if c.id == card)
    assert " ".join(str(skill["text"]).split()[:4]) in " ".join(text.split())
    assert "SKILL" in text or "SPELL" in text or "SONG" in text  # the type band


def test_a_name_shared_by_several_cards_lists_them() -> None:
    state = cardtable.load("mephisto", players=2).new(7)
    cards = visible(state.view(0))
    names = [c.name for c in cards]
    twice = next((n for n in names if names.count(n) > 1), None)
    if twice is None:  # the dungeon and the hand of seed 7 hold no twin; any prefix shared works
        twice = "s"
    found = find(cards, twice)
    assert len(found) > 1
    s, out = session(("mephisto", {"players": 2}, 7, 0))
    s.handle(0, f"look {twice}")
    assert "could be any of" in out.getvalue() and "`look` one by its number" in out.getvalue()


@settings(max_examples=30)
@given(game_id=st.sampled_from(GAMES), seed=st.integers(0, 10_000), steps=st.integers(0, 90), pick=st.integers(0, 1000))
def test_look_never_changes_the_game(game_id: str, seed: int, steps: int, pick: int) -> None:
    """In random positions of every game, looking at any visible card (by number or by name), or at a
    word that names nothing, changes nothing: the state's fingerprint, the record and the seat's
    view are what they were."""
    s, out = session((game_id, {}, seed, steps))
    state: State = s.table.state
    if state.is_over:
        return
    seat = state.current_player
    assert seat is not None
    cards = visible(state.view(seat))
    before = (state.fingerprint(), state.actions_taken(), state.view(seat))
    queries = ["zzz-nothing", "", "card"]
    if cards:
        card = cards[pick % len(cards)]
        queries += [card.name, card.name[:3]] + ([str(card.id), f"#{card.id}"] if card.id is not None else [])
    for query in queries:
        assert s.handle(seat, f"look {query}".strip()) is None
    assert (state.fingerprint(), state.actions_taken(), state.view(seat)) == before
    if cards:
        assert cards[pick % len(cards)].name in out.getvalue()


def test_rules_show_clauses_and_sections() -> None:
    s, out = session(("mephisto", {"players": 1}, 1, 0))
    s.handle(0, "rules")
    listing = out.getvalue()
    assert "M8" in listing and "Type `rules M8.2`" in listing
    out.truncate(0)
    out.seek(0)
    s.handle(0, "rules m8.2")
    clause = out.getvalue()
    assert "M8.2" in clause and "test_" not in clause  # for players: no test citations
    out.truncate(0)
    out.seek(0)
    s.handle(0, "rules solitaire")
    assert "olitaire" in out.getvalue()
    out.truncate(0)
    out.seek(0)
    s.handle(0, "rules nothing-like-this")
    assert "no clause or section 'nothing-like-this'" in out.getvalue()


def test_help_lists_the_commands_and_explains_auto_pass() -> None:
    s, out = session(("mephisto", {"players": 2}, 1, 0))
    for word in ("?", "help"):
        s.handle(0, word)
    text = out.getvalue()
    for command in ("look N", "rules", "table", "log", "auto on|off", "undo", "quit"):
        assert command in text
    assert "reveals nothing" in text and "the pause is the same whatever you hold" in text
    assert "A attack" in text  # the game's legend of its card numbers


@pytest.mark.parametrize("game_id", ["mephisto", "army-of-darkness"])
def test_help_reads_in_an_80_column_terminal(game_id: str) -> None:
    """At 80 columns the command list keeps its column: no line is folded by the terminal (the list
    used to run to 105 columns, so its descriptions broke mid-phrase onto the next line's start)."""
    s, out = session((game_id, {"players": 2}, 1, 0), width=80)
    s.handle(0, "help")
    lines = out.getvalue().splitlines()
    assert max(len(line) for line in lines) <= 80
    for expected in INPUT_HELP.splitlines():
        assert expected in lines  # printed as written: rich folded nothing
    column = [line for line in lines if line.startswith(" " * 20)]
    assert column, "the descriptions' second lines sit in their column"


def test_play_help_fits_80_columns(cli: Runner, monkeypatch: pytest.MonkeyPatch) -> None:
    """``cardtable play --help`` (the seats, the commands at a decision, auto-pass) at 80 columns."""
    monkeypatch.setenv("COLUMNS", "80")
    run = cli("play", "--help")
    assert run.code == 0 and "at your decision, type:" in run.out
    assert max(len(line) for line in run.out.splitlines()) <= 80


def played(run: str, record: dict[str, Any]) -> tuple[int, int, int]:
    """(single-choice decisions, decisions with choices, lines saying one was taken) of seat P1."""
    state = cardtable.replay(record)
    probe = state.game.new(state.seed)
    single = several = 0
    for text in state.actions_taken():
        if probe.current_player == 0:
            if len(probe.legal_actions()) == 1:
                single += 1
            else:
                several += 1
        probe.apply(text)
    return single, several, run.count("(the only choice: taken for you")


def test_auto_pass_takes_only_single_choice_decisions(cli: Runner, tmp_path: Any) -> None:
    """Doctor Strange, a person against a bot: every decision of the person with one choice is taken
    for them (a line says what), every other is asked; the record is the same game either way."""
    import json

    run = cli("play", "doctor-strange", "--seed", "3", "--save", "a.json", input=["1"] * 400)
    assert run.code == 0, run.err
    record = json.loads((tmp_path / "a.json").read_text())
    single, several, taken = played(run.out, record)
    assert single > 0 and taken == single
    assert run.out.count("Evil > ") + run.out.count("Good > ") >= several
    assert "Evil ▸ pass" in run.out or "Good ▸ pass" in run.out


def test_auto_pass_can_be_switched_off_by_flag_and_by_command(cli: Runner, tmp_path: Any) -> None:
    import json

    run = cli("play", "doctor-strange", "--no-auto-pass", "--seed", "3", "--save", "b.json", input=["1"] * 600)
    assert run.code == 0, run.err
    single, _, taken = played(run.out, json.loads((tmp_path / "b.json").read_text()))
    assert single > 0 and taken == 0
    # `auto off` at the first decision with choices: from then on every decision is asked.
    run = cli("play", "doctor-strange", "--seed", "3", "--save", "c.json", input=["auto off", *["1"] * 600])
    assert run.code == 0, run.err
    assert "auto-pass is off" in run.out
    assert run.out.split("auto-pass is off", 1)[1].count("(the only choice: taken for you") == 0
    run = cli("play", "doctor-strange", "--seed", "3", input=["auto maybe", "quit", ""])
    assert "auto takes on or off" in run.out


def test_the_pause_is_the_same_for_every_single_choice(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The pause before a single choice is taken is one constant: a forced pass with an empty hand
    and a pass that could have been a counter look alike to anyone watching the clock."""
    monkeypatch.chdir(tmp_path)  # at the end the game offers to save: a "1" read as a file name lands here
    slept: list[float] = []
    monkeypatch.setattr(time, "sleep", slept.append)  # the module play uses
    game = cardtable.load("doctor-strange")
    out = io.StringIO()
    console = Console(file=out, width=100, height=40, force_terminal=False)
    s = Session(Terminal(console, io.StringIO("1\n" * 300)), game, ["human", "random"], 4, None, [], pause=AUTO_PAUSE)
    s.run()
    assert slept and set(slept) == {AUTO_PAUSE}
    assert len(slept) == out.getvalue().count("(the only choice: taken for you")


def test_look_at_a_choices_number_points_to_the_card_it_names() -> None:
    """``look 1`` right after the list of choices: 1 is no card you can see, but choice 1 names a
    card: the message says which, and how to look at it; nothing is taken."""
    s, out, _ = train_position()
    seat = s.table.state.current_player
    assert seat is not None
    ids = {c.id for c in visible(s.table.state.view(seat))}
    legal = s.table.state.legal_actions()
    number = next(
        n for n in range(1, len(legal) + 1) if n not in ids and s.cards_of([legal[n - 1]])
    )  # a choice's number that is no visible card's
    named = min(s.cards_of([legal[number - 1]]))
    before = s.table.state.fingerprint()
    s.handle(seat, f"look {number}")
    text = " ".join(out.getvalue().split())
    assert f"no card you can see is called '{number}' or numbered so; choice {number} is about card #{named}" in text
    assert f"type `look {named}`" in text
    assert s.table.state.fingerprint() == before
