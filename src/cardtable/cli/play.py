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
import textwrap
import time
from collections.abc import Sequence
from typing import Any

from rich.console import RenderableType
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table as RichTable
from rich.text import Text

from cardtable.agents import Agent, Observation, make_agent
from cardtable.cli.common import (
    add_card_edits,
    add_game_options,
    card_edits,
    check_record_path,
    game_options,
    load_game,
    read_record,
    write_record,
)
from cardtable.cli.display import actions_table, configuration_text, events_panel, grouped_actions, result_table
from cardtable.cli.look import find, visible
from cardtable.cli.render import RenderContext, blocks_for, face_for, full_view, legend_for, renderer_for
from cardtable.cli.render.faces import card_box
from cardtable.cli.rules import show_rules
from cardtable.cli.screen import Block, Form, block, compose
from cardtable.cli.summary import summary_block
from cardtable.cli.term import Terminal
from cardtable.cli.typed import Ask, Problem, pick, shown
from cardtable.engine import Action, CardtableError, Event, Game, OptionError, State, Table, UndoRefused
from cardtable.engine.actions import CARD_PARAMS
from cardtable.engine.errors import quoted
from cardtable.engine.record import replay
from cardtable.games import game_class

HUMAN = "human"
ME = "me"
"""Also a person at this terminal, as the lobby calls the seat of whoever makes a table."""

HELP_WIDTH = 78
"""Help texts fit an 80-column terminal: rich would fold a longer line where the terminal ends,
breaking the column of descriptions."""


def _fill(text: str, indent: str = "", first: str | None = None) -> str:
    """``text`` wrapped to :data:`HELP_WIDTH` (never inside an option's hyphenated name)."""
    return textwrap.fill(
        text,
        HELP_WIDTH,
        initial_indent=indent if first is None else first,
        subsequent_indent=indent,
        break_on_hyphens=False,
    )


def _command_list(title: str, entries: Sequence[tuple[str, str]], note: str) -> str:
    """``title``, then each command with its description in a column (wrapped to :data:`HELP_WIDTH`),
    then ``note`` indented: the layout of ``help`` at a decision."""
    column = " " * 20
    lines = [title]
    for command, text in entries:
        assert len(command) <= len(column) - 3, command  # a space between the command and its column
        lines.append(_fill(text, column, f"  {command}".ljust(len(column))))
    lines.append(_fill(note, "  "))
    return "\n".join(lines) + "\n"


INPUT_HELP = _command_list(
    "at your decision, type:",
    [
        ("a number", "the numbered choice"),
        (
            "an action",
            "its text (`play card=17`), or its kind with values in order (`play 17`, `fight 2`); a card's name "
            "(or its start) works wherever its number does (`loot hex`, `summon og`); the start of one choice's "
            'words acts too (`draw`, `end the turn`). Anything else never acts: a near miss asks "did you mean '
            '…? (y/n)".',
        ),
        ("look N, look NAME", "any card you can see, whole (hand, table, dungeon, map, trainer…); never acts"),
        ("rules [CLAUSE]", "the game's rules, clause by clause: `rules`, `rules M8.2`, `rules solitaire`"),
        ("table [ZONE]", "the whole table, every zone in full (`table dungeon`: one zone)"),
        ("log", "your whole event log so far"),
        ("choices", "every choice, in full"),
        ("auto on|off", "take a decision with one single choice by itself (on by default; see below)"),
        ("undo [N]", "take back your last N decisions of this turn (not past a reveal or a die roll)"),
        ("save [FILE]", "write the record of the game so far"),
        ("?, help", "this list"),
        ("quit", "leave the game (offers to save it)"),
    ],
    "(`:undo`, `:quit`, ... always mean the command, even if a game had an action of that name)",
)

AUTO_HELP = (
    _fill(
        "auto-pass: a decision with exactly one legal choice (a window you can only pass, a forced move) is "
        "taken for you after a short pause, and the line it prints says what was taken. It reveals nothing: "
        "the engine still offers the decision to every seat in turn, every seat sees it taken as it would "
        "see any move, and the pause is the same whatever you hold. `auto off` (or `--no-auto-pass`) makes "
        "you confirm each one yourself."
    )
    + "\n"
)

SEATS_HELP = "\n".join(
    [
        "seats:",
        _fill(
            "--seats lists one entry per seat, in seat order, separated by commas: `human` (or `me`) for a "
            "person at this terminal, a level (`easy`, `normal`, `hard`, `expert`), or any agent spec "
            "(`random`, `heuristic`, `strong`, `ismcts:iterations=400,rollout=heuristic` — an agent's own "
            "key=value options may follow it, comma separated; docs/agents.md lists them all).",
            "  ",
        ),
        _fill("Without --players, the number of seats listed sets the number of players.", "  "),
        _fill(
            "A single entry (e.g. the default `--seats human`) takes seat P1 and fills every other seat with `random`.",
            "  ",
        ),
        _fill(
            'Two or more `human` seats play hot-seat: a "pass the device" screen hides each hand from the others.',
            "  ",
        ),
        "",
        INPUT_HELP,
        AUTO_HELP,
        _fill(
            "The seed is shown when the game ends (while it is in progress it would let anyone recompute every "
            "hidden card): --seed N with the same seats and inputs replays the same game."
        ),
        _fill(
            "Exit status: 0 when the game ended or was left (quit, end of input), 1 when the --save file could "
            "not be written, 130 on Ctrl-C, 2 on a bad game, option, seat list or record."
        ),
    ]
)

COMMANDS_HELP = "a number or an action · look N · table · log · undo · ? help · quit"


def commands_hint(undoable: int) -> str:
    """The one-line reminder under the choices; ``undo (N)`` when N decisions can be taken back."""
    return "Type " + (COMMANDS_HELP if undoable == 0 else COMMANDS_HELP.replace("undo", f"undo ({undoable})", 1))


AUTO_PAUSE = 0.8
"""Seconds a decision with a single choice stays on screen before it is taken (the same every time)."""
MIN_CHOICE_ROWS = 3
"""A long list of choices cut to fit the screen keeps at least this many rows."""


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
        help="who sits where, comma separated: human (or me) or an agent spec per seat (default: human, "
        "then random in every other seat; see below)",
    )
    parser.add_argument("--seed", type=int, help="seed of the deal (default: a random one, printed)")
    add_game_options(parser)
    add_card_edits(parser)
    parser.add_argument("--save", metavar="FILE", help="write the game's record (JSON) here at the end or on quit")
    parser.add_argument(
        "--resume",
        metavar="FILE",
        help="continue the game of a saved record (its game, options and seed; GAME must match)",
    )
    parser.add_argument(
        "--no-auto-pass",
        dest="auto_pass",
        action="store_false",
        help="confirm every decision yourself, even one with a single choice (`auto off` during play)",
    )


def split_seats(text: str) -> list[str]:
    """Split a seat list on commas, keeping an agent's ``key=value`` options with their agent; ``me``
    (the lobby's word for your own seat) is ``human``.

    >>> split_seats("human,ismcts:iterations=400,rollout=heuristic,random")
    ['human', 'ismcts:iterations=400,rollout=heuristic', 'random']
    >>> split_seats("me,heuristic")
    ['human', 'heuristic']
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
            seats.append(HUMAN if part.lower() == ME else part)
    return seats


def plan_game(args: argparse.Namespace) -> tuple[Game, list[str], int, list[str]]:
    """The game, one seat spec per seat, the seed and the actions to resume from, per the arguments."""
    options = game_options(args)
    edits = card_edits(args)
    seats = split_seats(args.seats)
    resume: list[str] = []
    seed = args.seed
    if args.resume is not None:
        record = read_record(args.resume)
        if record.get("game") != args.game:
            raise OptionError(f"{args.resume} is a record of {record.get('game')!r}, not of {args.game!r}")
        if options or edits:
            raise OptionError("--resume takes the game's options from the record; do not give options too")
        if seed is not None and seed != record.get("seed"):
            raise OptionError("--resume takes the seed from the record; do not give --seed too")
        raw_options, seed, actions = record.get("options"), record.get("seed"), record.get("actions")
        if not isinstance(raw_options, dict) or not isinstance(seed, int) or not isinstance(actions, list):
            raise CardtableError(f"{args.resume}: not a cardtable record (options, seed or actions missing)")
        # Check the record replays faithfully before seating anyone at it (names the diverging action).
        replay(record, log=False)
        options = dict(raw_options)
        edits = [str(e) for e in record.get("card_edits") or ()]
        resume = [str(a) for a in actions]
    elif len(seats) > 1 and "players" not in options:
        cls: Any = game_class(args.game)
        players = next((o for o in cls.OPTIONS if o.name == "players"), None)
        if players is not None:
            low, high = players.min, players.max
            if low is not None and high is not None and not low <= len(seats) <= high:
                # Name what was typed (--seats), not the 'players' option the seat count stands for.
                span = str(low) if low == high else f"{low}-{high}"
                raise OptionError(
                    f"--seats lists {len(seats)} seats, but {args.game} is for {span} players: give one entry per seat"
                )
            options["players"] = len(seats)
    game = load_game(args.game, options, edits)
    if len(seats) == 1 and game.players > 1:
        seats += ["random"] * (game.players - 1)
    if len(seats) != game.players:
        raise OptionError(f"--seats lists {len(seats)} seat(s) but this game has {game.players} players")
    if args.save is not None:
        check_record_path(args.save)  # found now, not after a whole game
    if seed is None:
        seed = secrets.randbelow(2**31)
    return game, seats, seed, resume


class Outcome(enum.Enum):
    """How a person's turn at the prompt ended."""

    ACTED = "acted"
    QUIT = "quit"
    EOF = "eof"


class Session:
    """One game at the terminal: the table, who sits where, and what each person has already seen."""

    def __init__(
        self,
        term: Terminal,
        game: Game,
        seats: list[str],
        seed: int,
        save: str | None,
        resume: list[str],
        *,
        auto_pass: bool = True,
        pause: float | None = None,
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
        self.blocks = blocks_for(game.id)
        self.render = renderer_for(game.id)
        self.face = face_for(game.id)
        # The view each person was last shown, so what did not change since can be folded first.
        self.shown: dict[int, dict[str, Any]] = {}
        self.auto = auto_pass
        # The pause is a constant (never shorter for an empty hand); a script's input has no one to wait for.
        self.pause = pause if pause is not None else (AUTO_PAUSE if term.interactive else 0.0)

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
            if self.auto and len(state.legal_actions()) == 1:
                if not self.auto_take(seat):
                    self.console.print("Input ended: the game is left unfinished.")
                    return self.leave(ask=False)
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
        elif self.auto:
            self.console.print(
                "A decision with a single choice is taken for you after a short pause (`auto off` to confirm "
                "each yourself; `?` says why this reveals nothing).",
                style="dim",
            )

    # -- a decision with one choice ------------------------------------------------------------------
    def auto_take(self, seat: int) -> bool:
        """Take ``seat``'s only choice after the pause, saying what it was; False when input ended
        (at a hot-seat hand-over). The pause is the same whatever the seat holds: a forced pass and a
        pass with cards in hand look alike to everyone watching."""
        if len(self.humans) > 1 and seat != self.last_human and not self.pass_device(seat):
            return False
        self.last_human = seat
        action = self.table.state.legal_actions()[0]
        self.console.print(
            Text.assemble(
                (f"{self.game.seat_name(seat)} ▸ ", "bold"),
                (shown(self.game, action), "cyan"),
                ("  (the only choice: taken for you; `auto off` to confirm these yourself)", "dim"),
            )
        )
        if self.pause > 0:
            time.sleep(self.pause)
        self.table.apply(action, seat)
        return True

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

    def rows(self) -> int:
        """The rows a decision's screen may take: the terminal's height."""
        return max(12, self.console.height)

    def named_cards(self) -> frozenset[int]:
        """The cards the legal actions name (what the decision is about)."""
        return self.cards_of(self.table.state.legal_actions())

    def screen_blocks(self, seat: int) -> tuple[list[Block], frozenset[str]]:
        """Everything a decision's screen may show, as blocks, and the view keys unchanged since the
        seat's last decision. Marks the events shown as seen."""
        state = self.table.state
        view = state.view(seat)
        previous = self.shown.get(seat)
        self.shown[seat] = view
        unchanged = frozenset(k for k, v in view.items() if previous is not None and previous.get(k) == v)
        board = self.blocks(view, RenderContext(self.game, seat))
        prompt = view.get("prompt")
        undoable = self.table.undoable(seat)
        first = self.seen.get(seat, 0) == 0
        names = [self.game.seat_name(s) for s in range(self.game.players)]
        blocks = [
            *board,
            summary_block(self.take_events(seat), names, deal=first, card_name=self.card_word),
            block("prompt", Text(str(prompt or ""), style="bold yellow"), fold=None),
            self.choices_block(),
            # The commands' reminder goes first when rows are short (`?` is always there).
            block("hint", Text(commands_hint(undoable), style="dim"), fold=12, zone=False),
        ]
        return blocks, unchanged

    def show_table(self, seat: int) -> None:
        """The seat's table, what happened since its last decision, the prompt and the choices, on one
        screen: the blocks are fitted to the terminal's rows (one left for the input), in the richest
        forms that fit, folding first what did not change and never a card the decision names;
        ``table``, ``look``, ``log`` and ``choices`` show the rest."""
        blocks, unchanged = self.screen_blocks(seat)
        layout = compose(blocks, self.rows() - 1, self.console, unchanged=unchanged, named=self.named_cards())
        for part in layout.parts:
            self.console.print(part)

    def card_word(self, card: int) -> str:
        """A card an event this seat read names: its name (static data, no state is read)."""
        names = self.game.card_names(card)
        return names[0] if names else f"card {card}"

    def choices_block(self) -> Block:
        """The numbered choices: one a row with their text forms; in columns; or, on a screen too
        short, the first rows of the columns with a note saying how to see the rest."""
        game, legal, width = self.game, self.table.state.legal_actions(), self.console.width
        forms = [Form(self.choices_drawn(actions_table(game, legal, width, None, False)), 0)]
        forms.append(Form(self.choices_drawn(actions_table(game, legal, width, None, True)), 1))
        forms.append(Form(grouped_actions(game, legal), 2))
        # Cutting the list loses more than folding the map (`table map` shows it again): the choices
        # are what the person types.
        for loss, rows in zip((40, 42, 44), (8, 5, MIN_CHOICE_ROWS), strict=True):
            cut, shown = actions_table(game, legal, width, rows, True, count=True)
            forms.append(Form(self.choices_drawn(cut), loss, self.cards_of(legal[:shown])))
        return Block("choices", tuple(forms), fold=None, cards=self.cards_of(legal))

    def cards_of(self, actions: Sequence[Action]) -> frozenset[int]:
        """The cards ``actions`` name."""
        params = self.game.actions.params
        return frozenset(
            v
            for a in actions
            for p, v in zip(params.get(a.kind, ()), a.args, strict=False)
            if p in CARD_PARAMS and isinstance(v, int)
        )

    def look_hint(self, seat: int, query: str) -> str:
        """For ``look N`` where N is no card's number but a choice's: the card that choice names, to
        look at by its own number (``look`` never guesses which was meant: a card's number always
        wins, so the hint only follows a miss)."""
        text = query.strip()
        if not text.isdigit():
            return ""
        legal = self.table.state.legal_actions() if self.table.state.current_player == seat else []
        number = int(text)
        if not 1 <= number <= len(legal):
            return ""
        named = sorted(self.cards_of([legal[number - 1]]))
        if not named:
            return f" (choice {number} names no card)"
        return f"; choice {number} is about card #{named[0]}: type `look {named[0]}`"

    @staticmethod
    def choices_drawn(table: RenderableType) -> RenderableType:
        return table

    def show_actions(self) -> None:
        self.console.print(
            self.choices_drawn(actions_table(self.game, self.table.state.legal_actions(), self.console.width))
        )

    def take_events(self, seat: int | None) -> list[tuple[str, str]]:
        """The events ``seat`` has not been shown yet, as ``(kind, text)`` redacted for it, marked seen."""
        log: Sequence[Event] = self.table.state.log or []
        since = min(self.seen.get(seat, 0), len(log))
        out = [(e.kind, e.for_seat(seat)) for e in log[since:]]
        self.seen[seat] = len(log)
        return out

    def print_new_events(self) -> None:
        """Watching bots: new spectator events as plain numbered lines, as they happen."""
        since = self.seen[None]
        lines = self.table.events(None, since)
        for number, line in enumerate(lines, since + 1):
            row = RichTable.grid(padding=(0, 1))  # a grid, so a long line wraps under its text
            row.add_column(justify="right", style="dim", width=len(str(number)) + 1)
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
            self.show_actions()
            return None
        exact = any(a.text == " ".join(words) for a in legal)
        command = words[0].lstrip(":").lower()
        if not exact and (words[0].startswith(":") or command in _COMMANDS):
            return self.command(seat, command, words[1:])
        picked = pick(self.game, legal, line, self.table.state.why_illegal)
        card = self.names_a_card(seat, line)
        if isinstance(picked, Problem):
            self.error(picked.message)
            if card:
                self.console.print(Text(f"To look at a card, type: look {card}", style="cyan"))
            return None
        if isinstance(picked, Ask):
            if card:
                self.console.print(Text(f"(to look at a card instead, type: look {card})", style="cyan"))
            answer = self.term.ask(f"[bold yellow]{escape(picked.question)}[/bold yellow]")
            if answer is None:
                return Outcome.EOF
            if answer.strip().lower() not in ("y", "yes"):
                self.console.print(Text("Not taken.", style="yellow"))
                return None
            picked = picked.action
        self.table.apply(picked, seat)
        return Outcome.ACTED

    def names_a_card(self, seat: int, line: str) -> str:
        """What to ``look`` at when ``line`` (``card 211``, ``211``, ``hex``) names a card the seat can
        see, else ``""``."""
        cards = visible(self.table.state.view(seat))
        words = [w for w in line.split() if w.lower() not in ("card", "look", "the", "at")]
        query = " ".join(words)
        return query if words and find(cards, query) else ""

    def command(self, seat: int, command: str, rest: list[str]) -> Outcome | None:
        if command in ("quit", "exit", "q"):
            return Outcome.QUIT
        if command in ("help", "h", "?"):
            self.help()
            return None
        if command == "look":
            self.look(seat, " ".join(rest))
            return None
        if command == "rules":
            show_rules(self.console, self.game.id, " ".join(rest))
            return None
        if command == "auto":
            self.auto_command(rest)
            return None
        if command == "log":
            lines = self.table.events(seat, 0)
            self.console.print(events_panel(lines, f"{self.game.seat_name(seat)}'s log"))
            return None
        if command == "choices":
            self.show_actions()
            return None
        if command in ("view", "show", "table"):
            self.show_whole(seat, " ".join(rest))
            return None
        if command == "save":
            path = rest[0] if rest else self.save_path
            if path is None:
                self.error("save where? type: save FILE (or start the game with --save FILE)")
                return None
            self.save(path)
            return None
        if command == "undo":
            self.undo(seat, rest)
            return None
        self.error(f"unknown command {quoted(command)}. {COMMANDS_HELP}")
        return None

    def help(self) -> None:
        self.console.print(Text(INPUT_HELP.rstrip()))
        legend = legend_for(self.game.id)
        if legend:
            self.console.print(Text.assemble(("card numbers: ", "bold"), legend))
        state = "on" if self.auto else "off"
        self.console.print(Text(AUTO_HELP.rstrip() + f"\nauto-pass is {state} now.", style="dim"))

    def auto_command(self, rest: list[str]) -> None:
        if rest and rest[0].lower() in ("on", "off"):
            self.auto = rest[0].lower() == "on"
        elif rest:
            self.error("auto takes on or off: `auto on` takes single-choice decisions for you, `auto off` asks")
            return None
        state = (
            "on: a decision with a single choice is taken for you" if self.auto else "off: you confirm every decision"
        )
        self.console.print(Text(f"auto-pass is {state}.", style="bold"))
        return None

    def undo(self, seat: int, rest: list[str]) -> None:
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

    def show_whole(self, seat: int, zone: str) -> None:
        """``table``: every zone in full (it may scroll); ``table ZONE``: the zone(s) whose name starts so."""
        view = self.table.state.view(seat)
        blocks = self.blocks(view, RenderContext(self.game, seat))
        if zone:
            wanted = zone.lower()
            chosen = [b for b in blocks if b.key.lower().startswith(wanted) or wanted in b.key.lower()]
            if not chosen:
                names = ", ".join(b.key for b in blocks if b.key != "header")
                self.error(f"no zone called {quoted(zone)}: the zones are {names}")
                return
            for b in chosen:
                self.console.print(b.full)
            return
        self.console.print(full_view(blocks, view))
        self.show_actions()

    def look(self, seat: int, query: str) -> None:
        """``look N`` / ``look NAME``: the card(s) drawn whole, from the seat's view; never acts."""
        view = self.table.state.view(seat)
        cards = visible(view)
        if not query.strip():
            self.error("look at which card? type `look 17` or `look ogre` (any card you can see)")
            return
        found = find(cards, query)
        if not found:
            hint = self.look_hint(seat, query)
            self.error(f"no card you can see is called {quoted(query.strip())} or numbered so{hint}")
            return
        ctx = RenderContext(self.game, seat)
        faces = {(c.name, self.face_key(c)) for c in found}
        if len(faces) > 1:
            listed = " · ".join(
                f"{c.name}" + (f" #{c.id}" if c.id is not None else "") + f" ({c.where})" for c in found[:12]
            )
            more = f" · and {len(found) - 12} more" if len(found) > 12 else ""
            self.error(
                f"{quoted(query.strip())} could be any of {len(found)} cards: {listed}{more}; `look` one by its number"
            )
            return
        first = found[0]
        where = "; ".join(f"#{c.id} {c.where}" if c.id is not None else c.where for c in found)
        width = min(self.console.width, 46)
        self.console.print(card_box(self.face(first.card, ctx), width, where))

    @staticmethod
    def face_key(seen: Any) -> str:
        """What makes two cards the same face: their data without the id and where they lie."""
        return repr(sorted((k, repr(v)) for k, v in seen.card.items() if k != "id"))

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
        names = [self.game.seat_name(s) for s in range(self.game.players)]
        self.console.print(summary_block(self.take_events(seat), names).full)
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


_COMMANDS = {
    "quit",
    "exit",
    "q",
    "help",
    "h",
    "?",
    "log",
    "view",
    "show",
    "table",
    "save",
    "undo",
    "choices",
    "look",
    "rules",
    "auto",
}


def run(args: argparse.Namespace) -> int:
    game, seats, seed, resume = plan_game(args)
    term: Terminal = args.term
    session = Session(term, game, seats, seed, args.save, resume, auto_pass=args.auto_pass)
    try:
        return session.run()
    except KeyboardInterrupt:
        term.console.print()
        term.console.print("Interrupted: the game is left unfinished.")
        session.leave(ask=False)
        return 130  # the shell's convention for a program stopped by Ctrl-C
