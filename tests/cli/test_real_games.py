"""The terminal play of every real game that is installed, in every configuration.

Scripted people type a mix of good and bad numbers; the test checks that play never crashes and that
the screen is built only from what the person's seat may know: ``view`` of that seat, its own legal
actions and its redacted events (checked at the source, by watching what the CLI asks the state for).
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from rich.console import Console

import cardtable
from cardtable.cli.main import main
from cardtable.engine import Game, Rng, State, Table
from cardtable.games import game_class


def loadable(game_id: str) -> bool:
    try:
        cardtable.load(game_id)
    except Exception:  # a game still being written is skipped here, and listed by `cardtable games`
        return False
    return True


def builtin(game_id: str) -> bool:
    """A game shipped in ``cardtable.games`` (not one some test registered)."""
    try:
        return str(getattr(game_class(game_id), "__module__", "")).startswith("cardtable.games.")
    except Exception:
        return False


REAL = [g for g in cardtable.available() if builtin(g)]


def configurations() -> Iterator[Any]:
    for game_id in REAL:
        if not loadable(game_id):
            continue
        cls = game_class(game_id)
        assert isinstance(cls, type) and issubclass(cls, Game)  # a built-in game is a class
        for config in cls.CONFIGURATIONS:
            yield pytest.param(
                game_id, dict(config), id=f"{game_id}-" + "-".join(f"{k}={v}" for k, v in config.items())
            )


def option_args(config: dict[str, Any]) -> list[str]:
    out: list[str] = []
    for key, value in config.items():
        out += ["-o", f"{key}={str(value).lower() if isinstance(value, bool) else value}"]
    return out


class Watch:
    """Records every seat the CLI asks a state or table about, and who was deciding then."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int | None, int | None]] = []
        self.table: Table | None = None

    def from_cli(self) -> bool:
        caller = sys._getframe(2).f_globals.get("__name__", "")
        return str(caller).startswith("cardtable.cli")


def watched(watch: Watch, monkeypatch: pytest.MonkeyPatch) -> None:
    real_view = State.view
    real_events = Table.events
    real_snapshot = State.snapshot

    def view(self: State, seat: int | None) -> dict[str, Any]:
        if watch.from_cli():
            watch.calls.append(("view", seat, self.current_player))
        return real_view(self, seat)

    def events(self: Table, seat: int | None, since: int = 0) -> list[str]:
        if watch.from_cli():
            watch.calls.append(("events", seat, self.state.current_player))
        return real_events(self, seat, since)

    def snapshot(self: State) -> dict[str, Any]:
        assert not watch.from_cli(), "the CLI must never read the full state"
        return real_snapshot(self)

    monkeypatch.setattr(State, "view", view)
    monkeypatch.setattr(Table, "events", events)
    monkeypatch.setattr(State, "snapshot", snapshot)


def script(seed: int, lines: int) -> str:
    """Mostly small numbers (usually legal), some out of range and some junk, then quit."""
    r = Rng(seed)
    out = []
    for _ in range(lines):
        roll = r.below(20)
        out.append("99" if roll == 0 else "bogus text" if roll == 1 else str(1 + r.below(3)))
    return "\n".join([*out, "quit", ""]) + "\n"


@pytest.mark.parametrize(("game_id", "config"), list(configurations()))
def test_play_any_configuration_with_one_person(
    game_id: str, config: dict[str, Any], monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    monkeypatch.chdir(tmp_path)
    watch = Watch()
    watched(watch, monkeypatch)
    out = io.StringIO()
    code = main(
        ["play", game_id, "--seed", "3", *option_args(config)],
        console=Console(file=out, force_terminal=False, width=100),
        stdin=io.StringIO(script(3, 15)),
    )
    assert code == 0, out.getvalue()[-2000:]
    text = out.getvalue()
    assert "Type a number or an action" in text or "Game over" in text
    # Only seat 0 (the person) or, after the end, seat 0's final view.
    assert watch.calls
    assert {seat for _, seat, _ in watch.calls} == {0}


@pytest.mark.parametrize("game_id", [g for g in REAL if loadable(g)])
def test_hot_seat_shows_each_person_only_their_own_seat(
    game_id: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    monkeypatch.chdir(tmp_path)
    watch = Watch()
    watched(watch, monkeypatch)
    out = io.StringIO()
    code = main(
        ["play", game_id, "--seed", "5", "--seats", "human,human", "--players", "2"],
        console=Console(file=out, force_terminal=False, width=100),
        stdin=io.StringIO(script(5, 50)),
    )
    assert code == 0
    during = [(what, seat, deciding) for what, seat, deciding in watch.calls if deciding is not None]
    assert during
    for _what, seat, deciding in during:
        assert seat == deciding, "a person was shown another seat's table"
