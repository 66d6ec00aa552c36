"""Traces that must be identical in the pure and the compiled build (DESIGN.md, "Speed").

The engine and the games are one source with two builds. :func:`trace` plays a seeded random game of
one configuration and writes, for every decision, one line that pins everything a user of either build
could observe: the action taken, the state's fingerprint (its full snapshot, the generator's state
included), a hash of every seat's view and of the spectator's, a hash of the events each seat reads,
the legal actions, and at regular steps each seat's determinizations (their fingerprints and the
seat's view of them) and the decisions of the heuristic and ISMCTS bots (less often, of the strong
agent, the levels, root-parallel search and the learned evaluation too). Two builds agree when their
traces are equal line for line; the first differing line says where and in what they part.

    python -m cardtable.testing.identity --out pure.json          # every configuration, 20 seeds
    PYTHONPATH=build/compiled python -m cardtable.testing.identity --out compiled.json

``tests/compiled/test_identity.py`` runs it in both builds (CI builds the compiled one).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import cardtable
from cardtable.agents.base import Observation
from cardtable.agents.registry import make_agent
from cardtable.agents.values import learned_value
from cardtable.engine.game import JSON
from cardtable.engine.options import OptionValue
from cardtable.engine.rng import Rng
from cardtable.games import builtin
from cardtable.testing.conformance import cases, config_label

SEEDS = 20
STEPS = 120
"""Decisions traced per game (longer games are cut: the rest only repeats the same checks)."""
DEEP_EVERY = 15
"""Every this many steps: determinizations of every seat and bot decisions."""
BOTS = ("heuristic", "ismcts:iterations=24")
"""Decided at every deep step."""
MORE_EVERY = 60
"""Every this many steps (a multiple of :data:`DEEP_EVERY`): the decisions of :data:`MORE_BOTS` too."""
MORE_BOTS = (
    "strong:iterations=24",
    "easy",
    "hard:iterations=24,ms=60000",
    "ismcts:iterations=24,trees=2,workers=2",
    "ismcts:iterations=24,eval=learned",
)
"""The strong agent (its tuned settings, a small budget), the levels (``hard`` with an iteration
budget that ends its search long before its time cap), root-parallel search on a helper process (the
determinization it is sent travels by pickle) and the learned evaluation where the game and player
count have one (skipped elsewhere). Time budgets are never traced: how far a search gets in a given
time is what differs between the builds."""


def _digest(value: JSON) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def trace(game_id: str, options: Mapping[str, OptionValue], seed: int, steps: int = STEPS) -> list[str]:
    """The lines of one traced game (see the module docstring)."""
    game = cardtable.load(game_id, **options)
    state = game.new(seed)
    pick = Rng(seed ^ 0x1D)
    seats: list[int | None] = [*range(game.players), None]
    read = [0] * len(seats)
    lines = [f"start {state.fingerprint()} " + _digest([state.view(s) for s in seats])]
    step = 0
    while not state.is_over and step < steps:
        legal = state.legal_actions()
        seat = state.current_player
        assert seat is not None
        parts: dict[str, Any] = {"step": step, "seat": seat, "legal": [a.text for a in legal]}
        if step % DEEP_EVERY == 0:
            deep: dict[str, Any] = {}
            for s in range(game.players):
                other = state.determinize(s, Rng(seed * 1000 + step + s))
                deep[f"det{s}"] = [other.fingerprint(), _digest(other.view(s)), [a.text for a in other.legal_actions()]]
            specs = [*BOTS, *MORE_BOTS] if step % MORE_EVERY == 0 else list(BOTS)
            for i, spec in enumerate(specs):
                if "eval=learned" in spec and learned_value(game) is None:
                    continue
                agent = make_agent(spec, game, seed + i)
                deep[spec] = agent.choose(Observation(state, seat)).text
            parts["deep"] = deep
        action = legal[pick.below(len(legal))]
        events = state.apply(action)
        parts["action"] = action.text
        parts["returned"] = _digest([e.for_seat(s) for e in events for s in seats])
        parts["fingerprint"] = state.fingerprint()
        parts["views"] = _digest([state.view(s) for s in seats])
        new_events = []
        for i, reader in enumerate(seats):
            words = state.events(reader, read[i])
            read[i] += len(words)
            new_events.append(words)
        parts["events"] = _digest(new_events)
        lines.append(json.dumps(parts, sort_keys=True, separators=(",", ":")))
        step += 1
    end: dict[str, Any] = {"over": state.is_over, "record": _digest(state.record())}
    if state.is_over:
        end["result"] = state.result().to_json()
    lines.append(json.dumps(end, sort_keys=True, separators=(",", ":")))
    return lines


def traces(game_ids: list[str] | None = None, seeds: int = SEEDS, steps: int = STEPS) -> dict[str, list[str]]:
    """``{"<game> <config> seed=<n>": lines}`` for every configuration of every game that ships with
    cardtable (or of the given games; a game registered at run time, like the tests' toy game, exists
    in one process only)."""
    out: dict[str, list[str]] = {}
    for game_id, options in cases(builtin() if game_ids is None else game_ids):
        for seed in range(seeds):
            out[f"{game_id} {config_label(options)} seed={seed}"] = trace(game_id, options, seed, steps)
    return out


def first_difference(a: Mapping[str, list[str]], b: Mapping[str, list[str]]) -> str | None:
    """Where two sets of traces first part, in words; None when they are equal."""
    if a.keys() != b.keys():
        return f"different games traced: {sorted(set(a) ^ set(b))[:5]}"
    for key in a:
        for i, (x, y) in enumerate(zip(a[key], b[key], strict=False)):
            if x != y:
                return f"{key}: line {i} differs:\n  {x[:600]}\n  {y[:600]}"
        if len(a[key]) != len(b[key]):
            return f"{key}: {len(a[key])} lines against {len(b[key])}"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", required=True, help="write the traces here (JSON)")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--seeds", type=int, default=SEEDS)
    parser.add_argument("--steps", type=int, default=STEPS)
    args = parser.parse_args(argv)
    from cardtable.buildinfo import build_info

    info = build_info()
    found = traces(args.game, args.seeds, args.steps)
    Path(args.out).write_text(json.dumps({"build": info, "traces": found}), encoding="utf-8")
    print(f"{len(found)} games traced ({info['build']} build)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
