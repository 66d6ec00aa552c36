"""``cardtable replay FILE``: step through a saved game, as one seat or as a spectator.

The record is verified first (:func:`cardtable.replay` checks the state hash after every action); a
record that no longer replays stops with the engine's message, which names the first diverging
action. A seat's replay shows only what that seat saw: its view, its redacted events, and the text of
its own actions (``--reveal`` shows every seat's action text; the record file holds them anyway).

``FILE`` may also be what ``cardtable simulate --records`` keeps: a run's ``records.jsonl`` (one game a
line) or the run's folder; ``--game K`` (and ``--setting S`` in a sweep) picks the game, numbered as in
the run's ``results.jsonl``.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.markup import escape
from rich.text import Text

from cardtable.cli.common import read_record
from cardtable.cli.display import events_panel, result_table
from cardtable.cli.render import RenderContext, blocks_for, renderer_for
from cardtable.cli.screen import block, compose
from cardtable.cli.term import Terminal
from cardtable.engine import CardtableError, State, parse_seat
from cardtable.engine.errors import quoted
from cardtable.engine.files import regular_file
from cardtable.engine.game import JSON
from cardtable.engine.record import replay
from cardtable.sim.store import RECORDS, ResultsError, iter_lines


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="step through a saved game record",
        description="Verify a record (JSON, as `cardtable play --save` writes) and show it action by action. "
        "A simulation's games (`cardtable simulate --records`: its folder or records.jsonl) with --game K. "
        "Interactive stepping: Enter = next, b = back, a number = go to that action, q = quit. "
        "Without --step or --to, an interactive terminal steps and anything else prints the whole game.",
    )
    parser.add_argument(
        "file", metavar="FILE", help="the record file (JSON), or a simulation's records.jsonl or folder (with --game)"
    )
    parser.add_argument(
        "--game",
        type=int,
        metavar="K",
        help='in a simulation\'s records: the game numbered K in its results.jsonl ("index", from 0)',
    )
    parser.add_argument(
        "--setting",
        type=int,
        metavar="S",
        help='in a simulation\'s records of a sweep: the setting ("setting" in results.jsonl, from 0)',
    )
    who = parser.add_mutually_exclusive_group()
    who.add_argument(
        "--seat", metavar="SEAT", help="see the game as this seat: P1, P2, ... (or 1, 2, ..., or the seat's name)"
    )
    who.add_argument("--spectator", action="store_true", help="see what a spectator sees (the default)")
    how = parser.add_mutually_exclusive_group()
    how.add_argument("--step", action="store_true", help="step through the actions interactively")
    how.add_argument("--to", type=int, metavar="K", help="print the state after the first K actions, then exit")
    parser.add_argument("--reveal", action="store_true", help="show every seat's action text, not only your own")
    parser.add_argument(
        "--unverified",
        action="store_true",
        help="replay a record that carries no state hashes (it cannot be checked against the game it recorded)",
    )


@dataclass(frozen=True)
class Step:
    """Action ``index`` of the record: who took it, its text, and the slice of the log it caused."""

    actor: int | None
    text: str
    log_start: int
    log_end: int


class Replayer:
    """A verified record and the means to show any position of it for one seat."""

    def __init__(
        self, term: Terminal, record: dict[str, JSON], seat: int | None, reveal: bool, verify: bool = True
    ) -> None:
        self.term = term
        self.console = term.console
        self.record = record
        # Verifies every hash and the result; raises ReplayDivergence naming the action, or RecordError.
        self.final = replay(record, verify=verify)
        self.verified = verify
        self.game = self.final.game
        self.seat = seat
        self.reveal = reveal
        self.render = renderer_for(self.game.id)
        self.blocks = blocks_for(self.game.id)
        self.steps = self._steps()
        self.opening = self._log_before_first_action()

    @property
    def total(self) -> int:
        return len(self.steps)

    def _steps(self) -> list[Step]:
        state = self.game.new(self.final.seed, log=True)
        steps = []
        for text in self.final.actions_taken():
            actor = state.current_player
            start = len(state.log or [])
            state.apply(text)
            steps.append(Step(actor, text, start, len(state.log or [])))
        return steps

    def _log_before_first_action(self) -> int:
        return self.steps[0].log_start if self.steps else len(self.final.log or [])

    def state_at(self, k: int) -> State:
        """The state after the first ``k`` actions (already verified, so no second check)."""
        return self.final if k == self.total else replay(self.record, verify=False, log=False, upto=k)

    def events(self, start: int, end: int) -> list[str]:
        return self.final.events(self.seat, start)[: end - start]

    def show(self, k: int, fit: bool = False) -> None:
        """Position ``k``: the seat's view after action ``k``, then what that action was and caused.

        The action and its events come last, next to the prompt, where a terminal keeps them in sight.
        With ``fit`` (stepping at a terminal) the position fits the terminal's rows, as a decision's
        screen does in play: zones fold (``--to K`` prints the whole table)."""
        who = self.game.seat_name(self.seat) if self.seat is not None else "spectator"
        state = self.state_at(k)
        view = state.view(self.seat)
        blocks = [
            block("position", Text(f"action {k} of {self.total}  ·  seen by {who}", style="bold"), fold=None),
            *self.blocks(view, RenderContext(self.game, self.seat)),
        ]
        if state.is_over:
            blocks.append(block("result", result_table(self.game, state.result()), fold=None))
        if k == 0:
            deal = self.events(0, self.opening)
            blocks.append(block("the deal", events_panel(deal, "The deal", empty="no events"), fold=20))
        else:
            step = self.steps[k - 1]
            actor = self.game.seat_name(step.actor) if step.actor is not None else "nobody"
            if self.reveal or step.actor == self.seat:
                described = self.game.describe_action(self.game.actions.parse(step.text))
                text = "" if described == step.text else f"  [{step.text}]"
                said = Text.assemble(f"Action {k}: ", (actor, "bold"), " chose ", (described, "cyan"), (text, "dim"))
            else:
                said = Text.assemble(f"Action {k}: ", (actor, "bold"), " acted")
            caused = self.events(step.log_start, step.log_end)
            blocks.append(block("events", events_panel(caused, "Events", step.log_start + 1, "none"), fold=30))
            blocks.append(block("action", said, fold=None))
        if not fit:
            if k == 0 or blocks[-1].key != "action":
                parts = [b.full for b in blocks]
            else:  # the action, then what it caused
                parts = [b.full for b in blocks[:-2]] + [blocks[-1].full, blocks[-2].full]
            self.console.rule(Text(f"action {k} of {self.total}  ·  seen by {who}"))
            for part in parts[1:]:
                self.console.print(part)
            return
        layout = compose(blocks, max(12, self.console.height) - 1, self.console)
        for part in layout.parts:
            self.console.print(part)

    def step_through(self, start: int = 0) -> int:
        k = start
        self.show(k, fit=self.term.interactive)
        while True:
            hint = "Enter = next, b = back, NUMBER = go to, q = quit"
            line = self.term.ask(f"[dim]{hint}[/dim] {escape(f'[{k}/{self.total}]')} > ")
            if line is None or line.lower() in ("q", "quit", "exit"):
                return 0
            if line == "" or line.lower() in ("n", "next"):
                if k == self.total:
                    self.console.print(Text("That was the last action (q to quit, b to go back).", style="yellow"))
                    continue
                k += 1
            elif line.lower() in ("b", "back", "p", "prev"):
                if k == 0:
                    self.console.print(Text("This is the start of the game.", style="yellow"))
                    continue
                k -= 1
            elif line.isdigit():
                if int(line) > self.total:
                    self.console.print(
                        Text(
                            f"✗ {line} is out of range: this record has actions 0 to {self.total} (0 is the deal).",
                            style="bold red",
                        )
                    )
                    continue
                k = int(line)
            else:
                self.console.print(Text(f"✗ not understood: {quoted(line)}. {hint}.", style="bold red"))
                continue
            # Flip to the next position on a clean screen (a no-op when output is not a terminal).
            if self.console.is_terminal:
                self.console.clear()
            self.show(k, fit=self.term.interactive)

    def print_all(self) -> int:
        """The whole game at once: every event as the seat saw it, the final view and the result."""
        log = self.final.events(self.seat, 0)
        self.console.print(events_panel(log, f"{self.total} actions"))
        self.show(self.total)
        return 0


def _single_record(path: str) -> bool:
    """Whether ``path`` reads as one game's record (as ``cardtable play --save`` writes)."""
    try:
        return "actions" in read_record(path)
    except CardtableError:
        return False


def simulated_record(path: str, game: int | None, setting: int | None) -> dict[str, JSON]:
    """The record of game ``game`` (in setting ``setting``, where the run has several) among a
    simulation's kept records: ``path`` is its ``records.jsonl`` or the run's folder. Any mistake —
    no such file, no game chosen, a game the run did not keep — is a :class:`CardtableError` saying
    what there is to choose from."""
    shown = quoted(path, 80)
    file = Path(path)
    if file.is_dir():
        file = file / RECORDS
        if not file.exists():
            raise CardtableError(
                f"{shown} is a folder without {RECORDS}: give a record file, or a simulation run with --records"
            )
    regular_file(file, "simulation records")
    games: list[tuple[int, int]] = []  # (setting, game) of every kept record
    matches: list[dict[str, JSON]] = []
    try:
        for _, line in iter_lines(file, ("setting", "index", "record")):
            games.append((line["setting"], line["index"]))
            if line["index"] == game and setting in (None, line["setting"]):
                matches.append(line["record"])
    except ResultsError as exc:
        if _single_record(path):
            # `replay game.json --game 3`: the flag belongs to a simulation's records, not to one game.
            raise CardtableError(
                f"{shown} is the record of one game: --game and --setting choose a game in a simulation's "
                f"{RECORDS}; replay it without them"
            ) from None
        raise CardtableError(f"not a simulation's records ({RECORDS}, one game a line): {exc}") from None
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise CardtableError(f"{shown}: game {game} was played in {len(matches)} settings: add --setting S")
    settings = sorted({s for s, _ in games})
    numbers = sorted({g for _, g in games})
    span = f"{numbers[0]}..{numbers[-1]}" if numbers else "none"
    where = f" in settings {', '.join(map(str, settings))}" if len(settings) > 1 else ""
    if game is None:
        raise CardtableError(
            f"{shown} holds {len(games)} games of a simulation (games {span}{where}): choose one with --game K"
        )
    which = f"game {game}" + (f" of setting {setting}" if setting is not None else "")
    raise CardtableError(f"{shown}: no record of {which}; it holds games {span}{where}")


def run(args: argparse.Namespace) -> int:
    simulated = args.game is not None or args.setting is not None
    if simulated or Path(args.file).is_dir() or args.file.endswith(".jsonl"):
        record = simulated_record(args.file, args.game, args.setting)
    else:
        record = read_record(args.file)
    term: Terminal = args.term
    replayer = Replayer(term, record, None, args.reveal, verify=not args.unverified)
    replayer.seat = parse_seat(replayer.game, args.seat) if args.seat is not None else None
    if not replayer.verified:
        term.console.print(
            Text(
                "Unverified replay: the record carries no state hashes, so this may not be the game it recorded.",
                style="bold yellow",
            )
        )
    if args.to is not None:
        if not 0 <= args.to <= replayer.total:
            raise CardtableError(f"--to {args.to}: the record has actions 0..{replayer.total}")
        replayer.show(args.to)
        return 0
    if args.step or term.interactive:
        return replayer.step_through()
    return replayer.print_all()
