"""Golden event logs: every seat's reading of the event log of seeded random games, as text.

The event log is what people read about a game ("P1 draws Greataxe (card 25)" to P1, "P1 draws a
card" to the others), and its per-seat redaction is part of hiding what a seat may not see. How the
engine keeps events (eagerly as text or as data worded when read) must never change what each seat
reads, so ``tests/test_event_logs.py`` replays the games of ``tests/eventlog/golden.json.gz`` and
compares, event by event: kind, public text, private text, the seats it is addressed to, and what
each seat and a spectator reads. After an intended change of wording, regenerate with
``python scripts/regen_event_logs.py`` and review the diff it prints.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import cardtable
from cardtable.engine.events import Event
from cardtable.engine.rng import Rng
from cardtable.testing.conformance import cases, config_label

SEEDS = (5, 6)
CAP = 250
REGENERATE = "python scripts/regen_event_logs.py"


def event_lines(game_id: str, options: dict[str, Any], seed: int, cap: int = CAP) -> list[list[Any]]:
    """One entry per event of a random game (cut after ``cap`` actions): the action index that caused
    it, its kind, public and private text, addressees and what each seat and a spectator reads."""
    game = cardtable.load(game_id, **options)
    state = game.new(seed)
    pick = Rng(seed + 77)
    readers: list[int | None] = [*range(game.players), None]
    out: list[list[Any]] = []
    step = -1
    seen = 0
    while True:
        log: Sequence[Event] = state.log or []
        for e in log[seen:]:
            reads = [e.for_seat(r) for r in readers]
            out.append([step, e.kind, e.text, e.private, sorted(e.to), reads])
        seen = len(log)
        if state.is_over or step + 1 >= cap:
            return out
        legal = state.legal_actions()
        state.apply(legal[pick.below(len(legal))])
        step += 1


def golden() -> dict[str, list[list[Any]]]:
    """Every configuration of every built-in game, for each seed."""
    return {
        f"{g} {config_label(o)} seed={s}": event_lines(g, o, s)
        for g, o in cases(cardtable.games.builtin())
        for s in SEEDS
    }
