"""A newcomer's audit: the README's and docs' commands as a first-time user types them, and the
mistakes such a user makes. Each test names what was wrong before its fix."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sized
from pathlib import Path
from typing import Protocol, runtime_checkable

import pytest

import cardtable
from cardtable.engine import Game
from tests.cli.conftest import Runner


@runtime_checkable
class _CardGame(Protocol):
    """A game whose card data reads card by card (Mephisto, Doctor Strange, Army of Darkness)."""

    @property
    def cards(self) -> Sized: ...

    def card_json(self, card: int) -> Mapping[str, object]: ...


def _card_data(game: Game) -> list[Mapping[str, object]]:
    """Every card of ``game`` as its card data."""
    assert isinstance(game, _CardGame)
    return [game.card_json(i) for i in range(len(game.cards))]


@pytest.mark.parametrize(
    ("game", "seats", "span"),
    [("mephisto", "human,random,random,random,random", "1-4"), ("doctor-strange", "human,random,random", "2")],
)
def test_too_many_seats_names_the_seat_list(cli: Runner, game: str, seats: str, span: str) -> None:
    """Too many --seats for the game said "option 'players' must be at most 4, got 5": an option the
    user never typed. The error names the seat list and the game's player counts, on one line."""
    run = cli("play", game, "--seats", seats)
    assert run.code == 2
    assert "Traceback" not in run.err
    lines = [line for line in run.err.splitlines() if line]
    assert len(lines) == 1
    count = len(seats.split(","))
    assert f"--seats lists {count} seats, but {game} is for {span} players" in lines[0]
    assert "option 'players'" not in lines[0]


@pytest.mark.parametrize(
    "argv",
    [
        ("simulate", "toy", "--games", "2", "--address", "10.0.0.1:6379", "--out", "run"),
        ("tune", "toy", "--vary", "turns=1..2", "--target", "length-turns=3", "--address", "10.0.0.1:6379"),
    ],
)
def test_address_without_the_ray_backend_is_refused(cli: Runner, argv: tuple[str, ...]) -> None:
    """`--address HOST:PORT` without `--backend ray` was ignored: the run meant for a cluster played
    on this machine, and said nothing. It is refused before any game, naming the missing flag."""
    run = cli(*argv)
    assert run.code == 2
    assert "Traceback" not in run.err
    assert "--address 10.0.0.1:6379 names a Ray cluster: add --backend ray" in run.err
    assert not (Path("run") / "results.jsonl").exists()


def test_replay_of_one_record_with_game_says_to_drop_the_flag(cli: Runner) -> None:
    """`cardtable replay game.json --game 3` (the flag the README gives for a simulation's records)
    on a record that `play --save` wrote said "not a simulation's records ...: corrupt line (Expecting
    property name enclosed in double quotes ...)": a JSON parser's complaint about a file that is fine."""
    assert cli("play", "toy", "--seats", "random,random", "--seed", "1", "--save", "game.json").code == 0
    run = cli("replay", "game.json", "--game", "3")
    assert run.code == 2
    assert "Traceback" not in run.err
    assert "'game.json' is the record of one game: --game and --setting choose a game" in run.err
    assert "corrupt line" not in run.err
    assert cli("replay", "game.json").code == 0


DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_designers_guide_quotes_edges_in_points_as_compare_prints_them(cli: Runner) -> None:
    """docs/designing.md quoted `simulate --compare` as "the first player's edge is +2.9% with the
    original cards" and "Greataxe (played) rises from +7.4% to +15.0%", while the command prints an
    edge and a card's win contribution in points ("+2.9 points"). The quotes follow the program."""
    args = ("--games", "6", "--compare", "Greataxe.cost=0", "--workers", "1", "--no-progress", "--no-plots")
    run = cli("simulate", "mephisto", *args, "--out", "cmp")
    assert run.code == 0, run.err
    assert re.search(r"the first player's edge is [+-][0-9.]+ points with", run.out)
    text = " ".join((DOCS / "designing.md").read_text(encoding="utf-8").split())
    edges = re.findall(r"the first player's edge is \S+ \S+ with the original cards", text)
    assert edges
    assert all(edge.split(" is ")[1].split()[1] == "points" for edge in edges), edges
    cards = re.findall(r"\((?:played|acquired)\) (?:rises|falls) from \S+ \S+", text)
    assert cards
    assert all(card.endswith(" points") for card in cards), cards


def test_readme_compare_example_edits_the_cards() -> None:
    """The README's `simulate --compare 'Imp.attack=2,30'` compared the cards as filed with Imp at
    attack 2, which is the Imp's printed attack already: half the example played the same games twice
    and reported "with and without the edit, in every paired game". Every value it names changes a card."""
    readme = (DOCS.parent / "README.md").read_text(encoding="utf-8")
    found = re.findall(r"cardtable simulate (\S+) .*--compare '([^'=]+)=([^']+)'", readme)
    assert found
    for game_id, field, values in found:
        cards = _card_data(cardtable.load(game_id))
        for value in values.split(","):
            edited = cardtable.load(game_id, card_edits=[f"{field}={value}"])
            assert _card_data(edited) != cards, f"{field}={value}"


def test_report_of_a_folder_that_does_not_exist_says_so(cli: Runner) -> None:
    run = cli("report", "nothere")
    assert run.code == 2 and "nothere: no such folder" in run.err and "manifest" not in run.err


def test_the_sb3_adapter_without_its_extra_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib
    import sys

    monkeypatch.setitem(sys.modules, "stable_baselines3", None)  # as if not installed
    monkeypatch.setitem(sys.modules, "stable_baselines3.common.vec_env", None)
    monkeypatch.delitem(sys.modules, "cardtable.rl.sb3", raising=False)
    with pytest.raises(ImportError, match=r"pip install 'cardtable\[rl-train\]'"):
        importlib.import_module("cardtable.rl.sb3")
