"""Golden playthroughs: a seeded random game written out as readable, diffable text.

For each game and configuration, ``scripts/regen_playthroughs.py`` writes one file to
``tests/playthroughs/`` and ``tests/test_playthroughs.py`` regenerates it in memory and diffs it, so
any change of behaviour (rules, views, action texts, randomness) shows up as a readable diff.

Format: a header (game, options, seeds, cap), then one block per decision: the step number, the seat
to decide, that seat's view, the numbered legal actions (text forms) and the chosen one; then the
result (or a note that the cap was reached) and the spectator's final view.

A view is written as one line per leaf, ``path = value`` in sorted path order (a card object, a
dict with ``id`` and ``name``, and a list of plain values are single leaves, in compact JSON with
sorted keys). To keep files small, a seat's view is written in full the first time it decides and
then every ``FULL_EVERY`` steps; in between, only the lines that changed since that seat's previous
view are written (``+``/``-`` for added and removed paths, ``~`` for changed ones). Games are cut
after ``STEP_CAP`` decisions.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

import cardtable
from cardtable.agents.base import Observation
from cardtable.agents.random_agent import RandomAgent
from cardtable.engine.game import JSON
from cardtable.engine.options import OptionValue
from cardtable.testing.conformance import config_label

STEP_CAP = 200
"""Decisions written per playthrough; longer games are cut (the rest would only repeat the checks)."""

FULL_EVERY = 100
"""A seat's view is written in full at least this often (in steps), so a reader can start anywhere."""

GAME_SEED = 1
AGENT_SEED = 2
REGENERATE = "python scripts/regen_playthroughs.py"


def file_name(game_id: str, options: Mapping[str, OptionValue]) -> str:
    """The playthrough file of a game and configuration: ``<game>__<config label>.txt``."""
    return f"{game_id}__{config_label(options)}.txt"


def _compact(value: JSON) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _is_leaf(value: JSON) -> bool:
    if type(value) is dict:
        return ("id" in value and "name" in value) or not value
    if type(value) is list:
        return all(type(v) not in (dict, list) for v in value)
    return True


def view_lines(view: JSON, path: str = "") -> dict[str, str]:
    """A view flattened to ``{path: compact JSON}`` (see the module docstring for what a leaf is)."""
    out: dict[str, str] = {}
    stack: list[tuple[str, JSON]] = [(path, view)]
    while stack:
        p, v = stack.pop()
        if _is_leaf(v) and p:
            out[p] = _compact(v)
        elif type(v) is dict:
            stack.extend((f"{p}.{k}" if p else str(k), item) for k, item in v.items())
        else:
            assert type(v) is list
            stack.extend((f"{p}[{i}]", item) for i, item in enumerate(v))
    return out


def playthrough(
    game_id: str,
    options: Mapping[str, OptionValue],
    seed: int = GAME_SEED,
    agent_seed: int = AGENT_SEED,
    cap: int = STEP_CAP,
) -> str:
    """The golden playthrough text of ``game_id`` with ``options``: a random agent seeded with
    ``agent_seed`` plays every seat of the game dealt from ``seed``, for at most ``cap`` decisions."""
    game = cardtable.load(game_id, **dict(options))
    state = game.new(seed, log=False)
    agent = RandomAgent(agent_seed)
    lines = [
        "# cardtable golden playthrough: a seeded random game, step by step.",
        f"# game: {game_id}",
        f"# configuration: {_compact(dict(options))}",
        f"# options: {_compact(dict(game.options))}",
        f"# seed: {seed}; agent: random, seed {agent_seed}; cap: {cap} decisions",
        f"# views: full at a seat's first decision and every {FULL_EVERY} steps, otherwise changed lines",
        f"# regenerate: {REGENERATE}",
        "",
    ]
    last: dict[int, tuple[int, dict[str, str]]] = {}
    step = 0
    while not state.is_over and step < cap:
        seat = state.current_player
        assert seat is not None
        flat = view_lines(state.view(seat))
        legal = state.legal_actions()
        action = agent.choose(Observation(state, seat))
        lines.append(f"== step {step}: {game.seat_name(seat)} (seat {seat}) decides")
        previous = last.get(seat)
        if previous is None or step - previous[0] >= FULL_EVERY:
            lines.append("view (full):")
            lines += [f"  {p} = {flat[p]}" for p in sorted(flat)]
        else:
            old = previous[1]
            lines.append("view (changes since this seat's previous view):")
            for p in sorted(set(old) | set(flat)):
                if p not in flat:
                    lines.append(f"- {p}")
                elif p not in old:
                    lines.append(f"+ {p} = {flat[p]}")
                elif old[p] != flat[p]:
                    lines.append(f"~ {p} = {flat[p]}")
        last[seat] = (step, flat) if previous is None or step - previous[0] >= FULL_EVERY else (previous[0], flat)
        lines.append("legal:")
        lines += [f"  {i}: {a.text}" for i, a in enumerate(legal)]
        lines.append(f"chosen: {legal.index(action)}: {action.text}")
        lines.append("")
        state.apply(action)
        step += 1
    if state.is_over:
        lines.append(f"== end after {step} decisions")
        lines.append(f"result: {_compact(state.result().to_json())}")
    else:
        lines.append(f"== cut after {step} decisions (cap {cap}); the game is not over")
    lines.append("final spectator view:")
    final = view_lines(state.view(None))
    lines += [f"  {p} = {final[p]}" for p in sorted(final)]
    return "\n".join(lines) + "\n"


def write_all(directory: Path, games: list[tuple[str, dict[str, OptionValue]]]) -> list[Path]:
    """Write the playthrough of every (game, options) to ``directory``; return the paths written."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for game_id, options in games:
        path = directory / file_name(game_id, options)
        path.write_text(playthrough(game_id, options), encoding="utf-8")
        written.append(path)
    return written
