"""``cardtable play``: a game in the terminal, people and bots in any mix.

A person sees nothing but what their seat may know: ``state.view(seat)``, the legal actions of their
own decision, and the event log redacted for their seat (``Table.events(seat, since)``). Bots' moves
reach people only through those events. With several people at one terminal (hot-seat), a "pass the
device" screen clears the table between them.
"""

from __future__ import annotations

import argparse
import enum
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Group, RenderableType
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table as RichTable
from rich.text import Text

from cardtable.agents import Agent, Observation, make_agent
from cardtable.cli.common import add_game_options, game_options, load_game, read_record, write_record
from cardtable.cli.display import LONG_LIST, actions_table, configuration_text, events_panel, result_table
from cardtable.cli.render import RenderContext, renderer_for
from cardtable.cli.term import Terminal
from cardtable.engine import Action, CardtableError, Game, IllegalAction, OptionError, State, Table, UndoRefused
from cardtable.engine.actions import action_text
from cardtable.engine.record import replay
from cardtable.games import game_class

HUMAN = "human"

INPUT_HELP = """\
at your decision, type:
  a number          the numbered action
  an action's text  e.g. `play card=3`, or `play 3` (values in order), or just its kind or the
                    start of its description (`summon ogre`) when that names only one action
  undo [N]          take back your last N decisions of this turn (not past a reveal or a die roll)
  log               your whole event log so far
  view              draw the table again
  choices           list every choice (a long list is cut short to fit the screen)
  save [FILE]       write the record of the game so far
  help              this list
  quit              leave the game (offers to save it)
  (`:undo`, `:quit`, ... always mean the command, even if a game had an action of that name)
"""

SEATS_HELP = f"""\
seats:
  --seats lists one entry per seat, in seat order, separated by commas: `human` for a person at this
  terminal, a level (`easy`, `normal`, `hard`, `expert`), or any agent spec (`random`, `heuristic`,
  `strong`, `ismcts:iterations=400,rollout=heuristic` — an agent's own key=value options may follow
  it, comma separated; docs/agents.md lists them all).
  Without --players, the number of seats listed sets the number of players.
  A single entry (e.g. the default `--seats human`) takes seat P1 and fills every other seat
  with `random`.
  Two or more `human` seats play hot-seat: a "pass the device" screen hides each hand from the others.

{INPUT_HELP}
The seed is shown when the game ends (while it is in progress it would let anyone recompute every
hidden card): --seed N with the same seats and inputs replays the same game.
Exit status: 0 when the game ended or was left (quit, end of input), 1 when the --save file
could not be written, 130 on Ctrl-C, 2 on a bad game, option, seat list or record.
"""

COMMANDS_HELP = "Type a number or an action; or undo, log, view, choices, save, help, quit."


def commands_hint(undoable: int) -> str:
    """The one-line reminder under the choices; ``undo (N)`` when N decisions can be taken back."""
    return COMMANDS_HELP if undoable == 0 else COMMANDS_HELP.replace("undo,", f"undo ({undoable}),", 1)


SCREEN_ROWS = 50
"""A decision's screen fits this many rows (or the terminal's height, if taller)."""
EVENT_ROWS = 10
"""Newest events shown at a decision; `log` shows them all."""
MIN_CHOICE_ROWS = 8
"""A long list of choices cut to fit the screen keeps at least this many rows."""
MIN_EVENT_ROWS = 2
"""Events since a seat's last decision shown at least, when the screen is short of rows."""


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play a game in the terminal against people and bots",
        description="Play GAME in the terminal: people (`human`) and bots in any mix of seats.",
        epilog=SEATS_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("game", metavar="GAME", help="game id (see `cardtable games`)")
    parser.add_argument(
        "--seats",
        default=HUMAN,
        metavar="LIST",
        help="who sits where, comma separated: human or an agent spec per seat (default: human, "
        "then random in every other seat; see below)",
    )
    parser.add_argument("--seed", type=int, help="seed of the deal (default: a random one, printed)")
    add_game_options(parser)
    parser.add_argument("--save", metavar="FILE", help="write the game's record (JSON) here at the end or on quit")
    parser.add_argument(
        "--resume",
        metavar="FILE",
        help="continue the game of a saved record (its game, options and seed; GAME must match)",
    )


def split_seats(text: str) -> list[str]:
    """Split a seat list on commas, keeping an agent's ``key=value`` options with their agent.

    >>> split_seats("human,ismcts:iterations=400,rollout=heuristic,random")
    ['human', 'ismcts:iterations=400,rollout=heuristic', 'random']
    """
    seats: list[str] = []
    for raw in text.split(","):
        part = raw.strip()
        if not part:
            raise OptionError(f"--seats {text!r}: empty seat entry")
        # `key=value` without a `name:` belongs to the previous seat's agent options.
        if "=" in part and ":" not in part and seats and ":" in seats[-1]:
            seats[-1] += "," + part
        else:
            seats.append(part)
    return seats


def plan_game(args: argparse.Namespace) -> tuple[Game, list[str], int, list[str]]:
    """The game, one seat spec per seat, the seed and the actions to resume from, per the arguments."""
    options = game_options(args)
    seats = split_seats(args.seats)
    resume: list[str] = []
    seed = args.seed
    if args.resume is not None:
        record = read_record(args.resume)
        if record.get("game") != args.game:
            raise OptionError(f"{args.resume} is a record of {record.get('game')!r}, not of {args.game!r}")
        if options:
            raise OptionError("--resume takes the game's options from the record; do not give options too")
        if seed is not None and seed != record.get("seed"):
            raise OptionError("--resume takes the seed from the record; do not give --seed too")
        raw_options, seed, actions = record.get("options"), record.get("seed"), record.get("actions")
        if not isinstance(raw_options, dict) or not isinstance(seed, int) or not isinstance(actions, list):
            raise CardtableError(f"{args.resume}: not a cardtable record (options, seed or actions missing)")
        # Check the record replays faithfully before seating anyone at it (names the diverging action).
        replay(record, log=False)
        options = dict(raw_options)
        resume = [str(a) for a in actions]
    elif len(seats) > 1 and "players" not in options:
        cls: Any = game_class(args.game)
        if any(o.name == "players" for o in cls.OPTIONS):
            options["players"] = len(seats)
    game = load_game(args.game, options)
    if len(seats) == 1 and game.players > 1:
        seats += ["random"] * (game.players - 1)
    if len(seats) != game.players:
        raise OptionError(f"--seats lists {len(seats)} seat(s) but this game has {game.players} players")
    if seed is None:
        seed = secrets.randbelow(2**31)
    return game, seats, seed, resume


@dataclass(frozen=True)
class Problem:
    """Why a typed line names no single action (shown to the person, who types again)."""

    message: str


def pick(game: Game, legal: Sequence[Action], line: str) -> Action | str | Problem:
    """Resolve what a person typed to one of the ``legal`` actions.

    Accepted, in this order: an action's exact text (``play card=17``); its number in the list (1 =
    first); the kind with its values in order (``play 17``, ``fight 2``); the start of exactly one
    action's text (``draw``, ``play``); the start of exactly one action's description, in any case
    (``summon ogre``), or else a part of exactly one (``amulet``: a search through a long list).
    A number out of range or a start shared by several actions is a :class:`Problem`. Anything
    else comes back as the canonical text, for the engine to reject with its own message.
    """
    words = line.split()
    norm = " ".join(words)
    by_text = {a.text: a for a in legal}
    if norm in by_text:
        return by_text[norm]
    if norm.isdigit():
        number = int(norm)
        if 1 <= number <= len(legal):
            return legal[number - 1]
        return Problem(f"there is no choice {number}: type a number from 1 to {len(legal)}")
    canonical = norm
    params = game.actions.params.get(words[0])
    if params and len(words) == 1 + len(params) and not any("=" in w for w in words[1:]):
        canonical = action_text(words[0], params, words[1:])
        if canonical in by_text:
            return by_text[canonical]
    matches = [a for a in legal if a.text.startswith(norm + " ")]
    if not matches:
        lowered = norm.lower()
        described = [(a, game.describe_action(a).lower()) for a in legal]
        matches = (
            [a for a, d in described if d == lowered]
            or [a for a, d in described if d.startswith(lowered)]
            or [a for a, d in described if lowered in d]
        )
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        numbered = {a.text: n for n, a in enumerate(legal, 1)}
        shown = "; ".join(f"{numbered[a.text]}. {game.describe_action(a)}" for a in matches[:8])
        more = f"; and {len(matches) - 8} more" if len(matches) > 8 else ""
        return Problem(
            f"{line.strip()!r} could be any of {len(matches)} actions ({shown}{more}): type more, or a number"
        )
    return canonical


class Outcome(enum.Enum):
    """How a person's turn at the prompt ended."""

    ACTED = "acted"
    QUIT = "quit"
    EOF = "eof"


class Session:
    """One game at the terminal: the table, who sits where, and what each person has already seen."""

    def __init__(
        self, term: Terminal, game: Game, seats: list[str], seed: int, save: str | None, resume: list[str]
    ) -> None:
        self.term = term
        self.console = term.console
        self.game = game
        self.seats = seats
        self.seed = seed
        self.save_path = save
        self.table = Table(game, seed)
        self.humans = [s for s, spec in enumerate(seats) if spec == HUMAN]
        # Bots get seeds derived from the game's, so --seed N reproduces their play as well.
        self.agents: dict[int, Agent] = {
            s: make_agent(spec, game, seed=seed * 1009 + s + 1) for s, spec in enumerate(seats) if spec != HUMAN
        }
        for text in resume:
            self.table.apply(text)
        # seen[s]: how much of the log seat s has been shown (events before its last decision).
        self.seen: dict[int | None, int] = {s: 0 for s in self.humans}
        self.seen[None] = 0
        self.last_human: int | None = None
        self.render = renderer_for(game.id)
        # The view each person was last shown, so what did not change since can be folded.
        self.shown: dict[int, dict[str, Any]] = {}

    # -- the loop ----------------------------------------------------------------------------------
    def run(self) -> int:
        self.intro()
        while True:
            state = self.table.state
            if state.is_over:
                return self.finish()
            seat = state.current_player
            assert seat is not None, "a game that is not over has a seat to decide"
            agent = self.agents.get(seat)
            if agent is not None:
                self.table.apply(self.bot_choice(agent, state, seat), seat)
                if not self.humans:
                    self.print_new_events()
                continue
            outcome = self.human_turn(seat)
            if outcome is Outcome.QUIT:
                return self.leave(ask=True)
            if outcome is Outcome.EOF:
                self.console.print("Input ended: the game is left unfinished.")
                return self.leave(ask=False)

    def bot_choice(self, agent: Agent, state: State, seat: int) -> Action:
        """The bot's action; a searching bot shows a spinner meanwhile so the terminal never looks stuck."""
        spec = self.seats[seat]
        if not self.console.is_terminal or spec in ("random", "heuristic"):
            return agent.choose(Observation(state, seat))
        with self.console.status(f"{self.game.seat_name(seat)} ({spec}) is thinking…"):
            return agent.choose(Observation(state, seat))

    def intro(self) -> None:
        game = self.game
        self.console.rule(Text(game.title or game.id, style="bold"))
        who = ", ".join(f"{game.seat_name(s)}: {spec}" for s, spec in enumerate(self.seats))
        self.console.print(f"Options: {configuration_text(dict(game.options))}", markup=False)
        self.console.print(f"Seats: {who}", markup=False)
        if not self.humans:
            self.console.print("No human seat: watching the bots play (spectator view).")

    # -- a person's decision -----------------------------------------------------------------------
    def human_turn(self, seat: int) -> Outcome:
        if len(self.humans) > 1 and seat != self.last_human and not self.pass_device(seat):
            return Outcome.EOF
        self.last_human = seat
        self.show_table(seat)
        while True:
            line = self.term.ask(f"[bold]{escape(self.game.seat_name(seat))}[/bold] > ")
            if line is None:
                return Outcome.EOF
            outcome = self.handle(seat, line)
            if outcome is not None:
                return outcome

    def pass_device(self, seat: int) -> bool:
        """Hide the table and wait for the next person; False when input ended."""
        self.term.clear()
        name = self.game.seat_name(seat)
        self.console.print(
            Panel(
                Text.assemble(
                    ("Pass the device to ", "bold"),
                    (name, "bold cyan"),
                    ".\nEveryone else, look away.\n",
                    f"Press Enter when {name} is ready.",
                ),
                title="hot-seat",
                expand=False,
            )
        )
        ready = self.term.ask("")
        self.term.clear()
        return ready is not None

    def show_table(self, seat: int, fold: bool = True) -> None:
        """The seat's table, what happened since its last decision, and its choices, on one screen.

        The screen fits :data:`SCREEN_ROWS` rows (or the terminal's height, if taller). When it would
        not, in this order until it does: the zones whose contents did not change since this seat
        last decided fold into one line; fewer of the newest events are shown (at least
        :data:`MIN_EVENT_ROWS`); a long list of choices is cut; the choices are drawn in columns;
        as few zones as it takes are folded, changed or not (the line says so); the list of choices
        is cut to what is left. The
        seat's own hand and the prompt never fold; ``view``, ``log`` and ``choices`` show it all."""
        state = self.table.state
        view = state.view(seat)
        since, lines = self.take_events(seat)
        title = "Since your last decision"
        events = self.events_block(lines, since, title)
        choices = self.actions_block(seat)
        drawn = self.render(view, RenderContext(self.game, seat))
        previous = self.shown.get(seat)
        self.shown[seat] = view
        rows = max(SCREEN_ROWS, self.console.height if self.console.is_terminal else 0)

        def fits() -> bool:
            return self.height(drawn) + self.height(events) + self.height(choices) + 2 <= rows

        def cut_choices() -> RenderableType:
            frame = self.height(self.actions_block(seat, max_rows=1)) - 1  # title, notes, hint
            spare = rows - 1 - self.height(drawn) - self.height(events) - frame
            return self.actions_block(seat, max_rows=max(MIN_CHOICE_ROWS, spare))

        if fold and not fits() and previous is not None:
            unchanged = frozenset(k for k, v in view.items() if previous.get(k) == v)
            drawn = self.render(view, RenderContext(self.game, seat, unchanged))
        limit = EVENT_ROWS
        while fold and not fits() and limit > MIN_EVENT_ROWS:
            limit -= 1
            events = self.events_block(lines, since, title, limit)
        if fold and not fits() and len(state.legal_actions()) > LONG_LIST:
            choices = cut_choices()  # a deck search gives up rows before the table does
        if fold and not fits() and len(state.legal_actions()) > 3:
            choices = self.actions_block(seat, compact=True)
        if fold and not fits():
            drawn = self.fold_to_fit(view, seat, rows - self.height(events) - self.height(choices) - 2)
        if fold and not fits():
            choices = cut_choices()
        self.console.rule(Text(f"{self.game.seat_name(seat)}: your decision"))
        self.console.print(drawn)
        # What happened since, then the choices: the last lines on screen, next to the prompt.
        self.console.print(events)
        self.console.print(choices)

    def fold_to_fit(self, view: dict[str, Any], seat: int, room: int) -> RenderableType:
        """The table with as little folded as lets it fit ``room`` rows (or all a renderer can fold).

        Greedy, one zone at a time: the smallest zone whose folding makes the table fit, else the
        smallest of all, and again (small zones go before the big board a player looks at most);
        when no single zone helps, everything foldable. Zones are folded whether or not they
        changed; the line says so."""
        note = "folded to fit the screen"
        folded: frozenset[str] = frozenset()
        drawn = self.render(view, RenderContext(self.game, seat))
        height = self.height(drawn)
        while height > room:
            options = []
            for key in view:
                if key in folded:
                    continue
                trial = self.render(view, RenderContext(self.game, seat, folded | {key}, note))
                gain = height - self.height(trial)
                if gain > 0:
                    options.append((gain, key, trial))
            if not options:  # zones a renderer folds only together: fold them all
                return self.render(view, RenderContext(self.game, seat, frozenset(view), note))
            enough = [o for o in options if height - o[0] <= room]
            gain, key, drawn = min(enough or options, key=lambda o: o[0])
            folded |= {key}
            height -= gain
        return drawn

    def height(self, renderable: RenderableType) -> int:
        """Rows ``renderable`` takes on this console."""
        return len(self.console.render_lines(renderable, self.console.options, pad=False))

    def actions_block(self, seat: int, max_rows: int | None = None, compact: bool = False) -> RenderableType:
        """The numbered choices and the commands; a long list is cut to ``max_rows`` rows; ``compact``
        draws any list in columns."""
        state = self.table.state
        undoable = self.table.undoable(seat)
        hint = commands_hint(undoable)
        return Group(
            Text("Your choices:", style="bold"),
            actions_table(self.game, state.legal_actions(), self.console.width, max_rows, compact),
            Text(hint, style="dim"),
        )

    def show_actions(self, seat: int) -> None:
        self.console.print(self.actions_block(seat))

    def take_events(self, seat: int | None) -> tuple[int, list[str]]:
        """The events ``seat`` has not been shown yet (redacted for it), marked seen, with the
        number of the first of them in the seat's whole log (0-based)."""
        since = min(self.seen.get(seat, 0), self.log_length())
        lines = list(self.table.events(seat, since))
        self.seen[seat] = since + len(lines)
        return since, lines

    def events_block(self, lines: Sequence[str], since: int, title: str, limit: int = EVENT_ROWS) -> RenderableType:
        """At most ``limit`` of ``lines``, the newest, with a note of how many more `log` shows."""
        skipped = max(0, len(lines) - limit)
        if skipped:
            title = f"{title or 'Events'} (and {skipped} earlier: type `log` to read them)"
        return events_panel(lines[skipped:], title or "Events", first=since + 1 + skipped)

    def new_events(self, seat: int | None, title: str) -> RenderableType:
        """The events ``seat`` has not been shown yet (redacted for it), marked seen; at most
        :data:`EVENT_ROWS` of them, the newest, with a note of how many more `log` shows."""
        since, lines = self.take_events(seat)
        return self.events_block(lines, since, title)

    def show_new_events(self, seat: int | None, title: str) -> None:
        """Print the events ``seat`` has not been shown yet (see :meth:`new_events`)."""
        self.console.print(self.new_events(seat, title))

    def print_new_events(self) -> None:
        """Watching bots: new spectator events as plain numbered lines, as they happen."""
        since = self.seen[None]
        lines = self.table.events(None, since)
        for number, line in enumerate(lines, since + 1):
            row = RichTable.grid(padding=(0, 1))  # a grid, so a long line wraps under its text
            row.add_column(justify="right", style="dim", width=4)
            row.add_column()
            row.add_row(str(number), Text(line))
            self.console.print(row)
        self.seen[None] = since + len(lines)

    def log_length(self) -> int:
        log = self.table.state.log
        return len(log) if log is not None else 0

    def handle(self, seat: int, line: str) -> Outcome | None:
        """Act on one line typed by ``seat``; ``None`` means: prompt again."""
        legal = self.table.state.legal_actions()
        words = line.split()
        if not words:
            self.show_actions(seat)
            return None
        exact = any(a.text == " ".join(words) for a in legal)
        command = words[0].lstrip(":").lower()
        if not exact and (words[0].startswith(":") or command in _COMMANDS):
            return self.command(seat, command, words[1:])
        picked = pick(self.game, legal, line)
        if isinstance(picked, Problem):
            self.error(picked.message)
            return None
        try:
            # Text that names no legal action still goes to the engine, for its MalformedAction or
            # IllegalAction message (which never names a card this seat may not see).
            self.table.apply(picked, seat)
        except IllegalAction as exc:
            # The engine speaks to programs ("see legal_actions()"); here the choices are on screen.
            self.error(str(exc).replace("see legal_actions()", "listed above"))
            return None
        return Outcome.ACTED

    def command(self, seat: int, command: str, rest: list[str]) -> Outcome | None:
        if command in ("quit", "exit", "q"):
            return Outcome.QUIT
        if command in ("help", "h", "?"):
            self.console.print(Text(INPUT_HELP.rstrip()))
            return None
        if command == "log":
            lines = self.table.events(seat, 0)
            self.console.print(events_panel(lines, f"{self.game.seat_name(seat)}'s log"))
            return None
        if command == "choices":
            self.show_actions(seat)
            return None
        if command in ("view", "show", "table"):
            self.console.print(self.render(self.table.state.view(seat), RenderContext(self.game, seat)))
            self.show_actions(seat)
            return None
        if command == "save":
            path = rest[0] if rest else self.save_path
            if path is None:
                self.error("save where? type: save FILE (or start the game with --save FILE)")
                return None
            self.save(path)
            return None
        if command == "undo":
            count = 1
            if rest:
                if len(rest) != 1 or not rest[0].isdigit():
                    self.error("undo takes one number: how many of your decisions to take back")
                    return None
                count = int(rest[0])
            try:
                self.table.undo(seat, count)
            except UndoRefused as exc:
                self.error(f"cannot undo: {exc}")
                return None
            # The log was rebuilt shorter; show only what is still news for this seat.
            self.seen[seat] = min(self.seen[seat], self.log_length())
            self.console.print(Text(f"Took back {count} decision(s).", style="bold yellow"))
            self.show_table(seat)
            return None
        self.error(f"unknown command {command!r}. {COMMANDS_HELP}")
        return None

    def error(self, message: str) -> None:
        self.console.print(Text("✗ " + message, style="bold red"))

    # -- the end -----------------------------------------------------------------------------------
    def finish(self) -> int:
        state = self.table.state
        self.console.rule("[bold]Game over[/bold]")
        # One person sees their own final view; hot-seat players share the spectator's.
        seat = self.humans[0] if len(self.humans) == 1 else None
        if seat is None and self.humans:
            # Hot-seat: the spectator's events since the earliest of the people's last decisions.
            self.seen[None] = min(self.seen[h] for h in self.humans)
        self.console.print(self.render(state.view(seat), RenderContext(self.game, seat)))
        self.show_new_events(seat, "Since your last decision" if seat is not None else "Last events")
        labels = [spec if spec != HUMAN else "human" for spec in self.seats]
        self.console.print(result_table(self.game, state.result(), labels))
        self.console.print(
            Text.assemble("Seed: ", (str(self.seed), "bold"), f"  (play this deal again with --seed {self.seed})")
        )
        return self.offer_save(ask=bool(self.humans))

    def leave(self, ask: bool) -> int:
        # No seed here: the game may be resumed, and the seed would reveal every hidden card.
        self.console.print(f"Game left after {len(self.table.state.history)} action(s).")
        return self.offer_save(ask=ask)

    def offer_save(self, ask: bool) -> int:
        """Save to ``--save FILE`` if given; otherwise (or if that failed) ask for a file when ``ask``.

        Returns the exit status: 1 when the ``--save`` file could not be written and no other was.
        """
        if self.save_path is not None and self.save(self.save_path):
            return 0
        while ask:
            path = self.term.ask("Save the record? Type a file name, or press Enter to skip: ")
            if path and path.lower() not in ("n", "no") and self.save(path):
                return 0
            if not path or path.lower() in ("n", "no"):
                break
        return 0 if self.save_path is None else 1

    def save(self, path: str) -> bool:
        """Write the record to ``path``; a failure is shown, not raised, so the game goes on."""
        state = self.table.state
        try:
            write_record(path, state.record())
        except CardtableError as exc:
            self.error(str(exc))
            return False
        seats = (
            ""
            if self.seats[1:] == ["random"] * (len(self.seats) - 1) and self.seats[0] == HUMAN
            else (" --seats " + ",".join(self.seats))
        )
        resume = f"cardtable play {self.game.id} --resume {path}{seats}"
        note = "" if state.is_over else f" (unfinished; continue with: {resume})"
        self.console.print(f"Record saved to {path}{note}. Replay it with: cardtable replay {path}", markup=False)
        return True


_COMMANDS = {"quit", "exit", "q", "help", "h", "?", "log", "view", "show", "table", "save", "undo", "choices"}


def run(args: argparse.Namespace) -> int:
    game, seats, seed, resume = plan_game(args)
    term: Terminal = args.term
    session = Session(term, game, seats, seed, args.save, resume)
    try:
        return session.run()
    except KeyboardInterrupt:
        term.console.print()
        term.console.print("Interrupted: the game is left unfinished.")
        session.leave(ask=False)
        return 130  # the shell's convention for a program stopped by Ctrl-C
