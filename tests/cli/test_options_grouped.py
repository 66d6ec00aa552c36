"""``cardtable options GAME`` groups the options as the lobby and ``cardtable games`` do (issue 19):
under each group's heading in the order of ``engine.options.GROUPS``, each option with its label,
its default and values (a labelled choice with its words), what it does, and the advanced ones apart
under their own sub-heading; every line fits 80 columns."""

from __future__ import annotations

import io
from typing import Any

import pytest
from rich.console import Console

import cardtable
from cardtable.cli.main import main
from cardtable.engine import Option
from cardtable.engine.options import GROUPS, grouped
from cardtable.games import game_class

ADVANCED = "advanced (folded in the lobby"


def options_output(game: str, width: int = 80) -> str:
    out = io.StringIO()
    console = Console(file=out, force_terminal=False, width=width, highlight=False)
    assert main(["options", game], console=console, stdin=io.StringIO()) == 0
    return out.getvalue()


def flat(text: str) -> str:
    return " ".join(text.split())


def section(text: str, group: str) -> str:
    """The lines of ``group``: from its heading to the next group's heading (or the configurations)."""
    lines = text.splitlines()
    start = lines.index(group)
    end = next(
        (i for i in range(start + 1, len(lines)) if lines[i] in GROUPS or lines[i].startswith("configurations:")),
        len(lines),
    )
    return "\n".join(lines[start + 1 : end])


@pytest.mark.parametrize("game", cardtable.games.builtin())
def test_options_are_grouped_labelled_with_defaults_values_and_advanced_apart(game: str) -> None:
    text = options_output(game)
    assert max(len(line.rstrip()) for line in text.splitlines()) <= 80
    cls: Any = game_class(game)
    spec: tuple[Option, ...] = tuple(cls.OPTIONS)
    headings = [line for line in text.splitlines() if line in GROUPS]
    assert headings == [g for g, _ in grouped(spec)], "groups in the lobby's order, each once"
    for group, members in grouped(spec):
        body = section(text, group)
        words = flat(body)
        marker = words.find(ADVANCED)
        for option in members:
            # Its id and label, in its own group; the advanced ones only after the sub-heading.
            at = words.find(f"{option.name} {flat(option.label)}")
            assert at >= 0, f"{game}: {option.name} with its label under {group}"
            if option.advanced:
                assert 0 <= marker < at, f"{game}: advanced {option.name} is not under the advanced heading"
            else:
                assert marker < 0 or at < marker, f"{game}: {option.name} is marked advanced"
            block = words[at:]
            default = str(option.default).lower() if isinstance(option.default, bool) else str(option.default)
            if option.min is not None and option.min == option.max:
                assert f"always {option.min}" in block[:200]
            else:
                assert f"default {default or chr(34) * 2}" in block[:200], f"{game}: {option.name}'s default"
            if option.kind is int and option.min != option.max:
                assert f"{option.min}..{option.max}" in block[:250], f"{game}: {option.name}'s bounds"
            if option.choices is not None and option.choice_labels is not None:
                for choice, label in zip(option.choices, option.choice_labels, strict=True):
                    said = "" if label == str(choice) else f" {flat(label)}"
                    assert f"{choice}{said}" in block, f"{game}: {option.name}={choice} in words"
            assert flat(option.doc)[:40] in block, f"{game}: what {option.name} does"


def test_mr_card_games_equipment_reading_is_an_advanced_reading_with_its_choices_in_words() -> None:
    body = flat(section(options_output("mr-card-game"), "Readings of unclear rules"))
    assert body.startswith(ADVANCED)
    at = body.index("equipment-repeats Going back to an earlier arrangement of equipment")
    assert "default refused; one of: refused Refused" in body[at:]
    assert "(default)" in body[at : body.index("allowed", at + 60)]


def test_a_labelled_choice_says_which_is_the_default_once() -> None:
    text = flat(section(options_output("doctor-strange"), "Players"))
    assert "good-seat Who plays Good (Evil goes first) default P2; one of:" in text
    assert "P1 P1 plays Good, P2 plays Evil P2 P2 plays Good, P1 plays Evil (default)" in text
    assert text.count("(default)") == 1
