"""Army of Darkness Card Game under the Rules of Kalle: options, card data, the action space.

The rules themselves live in :mod:`.state` (turn flow) and :mod:`.effects` (events); this module
loads the card file, declares every action once and describes actions for people.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar, Final

from cardtable.engine import Action, Game, Option, OptionError, OptionValue, seat_labels
from cardtable.engine.changes import note_starts
from cardtable.engine.errors import CardDataError
from cardtable.engine.options import CARD_FILE, HOUSE, PLAYERS, READINGS
from cardtable.games.army_of_darkness.cards import MONSTER, TYPE_NAMES, CardSet, load_cards
from cardtable.games.army_of_darkness.codes import (
    A_ATTACK,
    A_DISCARD,
    A_DONE,
    A_DRAW,
    A_PASS,
    A_PICK,
    A_PLAY,
    A_SLAY,
    A_SLAY3,
    A_TARGET,
    A_TO,
    ZONES,
)
from cardtable.games.army_of_darkness.view import VIEW_KEYS

if TYPE_CHECKING:
    from cardtable.games.army_of_darkness.state import AodState

DEFAULT_TURN_LIMIT: Final = 2000
TURN_LIMIT_MAX: Final = 10_000
"""The most turns ``turn-limit`` may name: five times the default. Random play with 8 players ends in
about 530 turns (the longest of 10 seeded games: 1,523); 10,000 turns (some 48,000 decisions) cuts off
no real game and keeps every record, and what a server replays to rebuild a table, bounded."""


class ArmyOfDarkness(Game):
    """The game: ``cardtable.load("army-of-darkness", players=4)``.

    Options: ``players`` (2..8), ``turn-limit`` (turns after which an unfinished game stops with
    reason ``"turn-limit"``), ``step3`` (``instead``: step 3 only when nothing opposed her at the
    attack step; ``after-clearing``: also after an attack that removed the last opposing card),
    ``step3-pass`` (whether step 3 may be declined), ``cards`` (path of a card file in the format of
    the bundled ``cards.toml``; empty for the bundled stand-in set).
    """

    id = "army-of-darkness"
    title = "Army of Darkness (Rules of Kalle)"
    OPTIONS = (
        Option(
            "players",
            4,
            "number of players (characters beyond the 4 named ones are generic extras)",
            min=2,
            max=8,
            label="Number of players",
            group=PLAYERS,
        ),
        Option(
            "turn-limit",
            DEFAULT_TURN_LIMIT,
            "stop an unfinished game after this many turns (result reason 'turn-limit', truncated)",
            min=1,
            max=TURN_LIMIT_MAX,
            label="Stop an unfinished game after this many turns",
            group=HOUSE,
            advanced=True,
        ),
        Option(
            "step3",
            "instead",
            "when step 3 (draw or attack a character) applies: only instead of an attack (nothing opposed her), "
            "or also after an attack that removed the last card opposing her",
            choices=("instead", "after-clearing"),
            label="When she may draw a card or attack a character (step 3)",
            group=READINGS,
            advanced=True,
            choice_labels=(
                "Only when nothing opposed her at the attack step (instead of an attack)",
                "Also after an attack that removed the last card opposing her",
            ),
        ),
        Option(
            "step3-pass",
            True,
            "step 3 may be declined (pass) instead of drawing or attacking; false: she must draw or attack "
            "when either is possible",
            label="She may decline to draw or attack (step 3)",
            group=READINGS,
            advanced=True,
        ),
        Option(
            "cards",
            "",
            "path of a card file in the cards.toml format (empty: the bundled stand-in set)",
            label="Card file (empty: the bundled stand-in cards)",
            group=CARD_FILE,
            advanced=True,
        ),
    )
    CARD_EDITS = True
    CARD_USES = {"play": "played"}
    VIEW_KEYS = VIEW_KEYS
    # The victory conditions and the events' texts name the Necronomicon as a word of the rules.
    RULE_NAMES = frozenset({"Necronomicon"})
    CONFIGURATIONS: ClassVar[tuple[Mapping[str, OptionValue], ...]] = (
        {"players": 2},
        {"players": 3},
        {"players": 4},
        {"players": 6},
        {"players": 8},
        {"players": 4, "step3": "after-clearing"},
        {"players": 3, "step3-pass": False},
    )

    cards: CardSet
    turn_limit: int
    step3_after_clearing: bool
    step3_may_pass: bool
    TYPE: tuple[int, ...]
    NAME_ID: tuple[int, ...]
    PLAY: list[Action]
    TO: list[Action]
    TARGET: list[Action]
    PICK: list[Action]
    SLAY: list[Action]
    SLAY3: list[Action]
    ATTACK: list[Action]
    DISCARD: list[Action]
    DONE: Action
    DRAW: Action
    PASS: Action
    CODE: list[int]
    ARG: list[int]
    NOTE: tuple[tuple[int, ...], ...]
    """``NOTE[zone][seat]``: where that zone's entries of a state's change list start (``codes.Z_*``)."""

    def _check_options(self) -> None:
        path = str(self.options["cards"])
        try:
            self.cards = load_cards(path or None, self.card_edits)
        except CardDataError as exc:
            raise OptionError(f"{self.id}: option 'cards': {exc}", option="cards") from exc
        both = ("players", "cards")
        if len(self.cards.good_names) < self.players:
            raise OptionError(
                f"{self.id}: {self.players} players need {self.players} character cards; "
                f"the card file {self.cards.path} has {len(self.cards.good_names)}",
                options=both,
            )
        live_monsters = sum(
            1 for k in range(len(self.cards)) if self.cards.types[k] == MONSTER and not self.cards.removed[k]
        )
        if live_monsters < self.players:
            raise OptionError(
                f"{self.id}: {self.players} players need {self.players} monsters in the deck", options=both
            )
        live = sum(1 for k in range(len(self.cards)) if not self.cards.removed[k])
        if live < 6 * self.players:
            raise OptionError(
                f"{self.id}: {self.players} players need at least {6 * self.players} cards in the deck "
                f"(a monster and five cards each); the card file {self.cards.path} has {live}",
                options=both,
            )
        self.turn_limit = int(self.options["turn-limit"])
        self.step3_after_clearing = self.options["step3"] == "after-clearing"
        self.step3_may_pass = bool(self.options["step3-pass"])

    def _setup(self) -> None:
        c = self.cards
        self.card_hash = c.sha
        self.TYPE = c.types
        self.NAME_ID = c.name_ids
        n_cards, n_seats, n_names = len(c), self.players, len(c.monster_names)
        a = self.actions
        for kind, params in (
            ("play", ("card",)),
            ("to", ("seat",)),
            ("target", ("seat",)),
            ("pick", ("card",)),
            ("done", ()),
            ("slay", ("card",)),
            ("slay-three", ("name",)),
            ("draw", ()),
            ("attack", ("seat",)),
            ("pass", ()),
            ("discard", ("card",)),
        ):
            a.declare(kind, *params)
        code: dict[int, tuple[int, int]] = {}

        def grid(kind: str, values: Sequence[int | str], op: int) -> list[Action]:
            """One action per value; its argument code is the value's position (a card id, a 0-based
            seat for the ``P<n>`` labels people type, a monster title's index)."""
            out = a.grid(kind, values)
            for i, act in enumerate(out):
                code[act.index] = (op, i)
            return out

        cards = range(n_cards)
        seats = seat_labels(n_seats)
        self.PLAY = grid("play", cards, A_PLAY)
        self.TO = grid("to", seats, A_TO)
        self.TARGET = grid("target", seats, A_TARGET)
        self.PICK = grid("pick", cards, A_PICK)
        self.SLAY = grid("slay", cards, A_SLAY)
        self.SLAY3 = grid("slay-three", c.monster_words[:n_names], A_SLAY3)
        self.ATTACK = grid("attack", seats, A_ATTACK)
        self.DISCARD = grid("discard", cards, A_DISCARD)
        self.DONE = a.add("done")
        self.DRAW = a.add("draw")
        self.PASS = a.add("pass")
        code[self.DONE.index] = (A_DONE, 0)
        code[self.DRAW.index] = (A_DRAW, 0)
        code[self.PASS.index] = (A_PASS, 0)
        self.CODE = [code[i][0] for i in range(len(a))]
        self.ARG = [code[i][1] for i in range(len(a))]
        self.NOTE = note_starts(ZONES, n_seats, n_cards)

    def new_state(self, seed: int, log: bool) -> AodState:
        from cardtable.games.army_of_darkness.state import AodState

        return AodState(self, seed, log)

    # -- descriptions ------------------------------------------------------------------------------
    def card_name(self, card: int) -> str:
        return f"{self.cards.names[card]} (card {card})"

    def card_json(self, card: int) -> dict[str, object]:
        """A visible card as views show it: id, title, type and text (an event's effect in words; for
        other cards, whose printed texts the Rules of Kalle ignore, what their type does under those
        rules). A new dict each call."""
        return {
            "id": card,
            "name": self.cards.names[card],
            "type": TYPE_NAMES[self.TYPE[card]],
            "text": self.cards.texts[card],
        }

    def describe_action(self, action: Action) -> str:
        op, arg = self.CODE[action.index], self.ARG[action.index]
        if op == A_PLAY:
            return f"play {self.card_name(arg)}"
        if op == A_TO:
            return f"put it in front of {self.seat_name(arg)}"
        if op == A_TARGET:
            return f"turn {self.seat_name(arg)}'s character"
        if op == A_PICK:
            return f"choose {self.card_name(arg)}"
        if op == A_DONE:
            return "play no more cards this turn (end step 1)"
        if op == A_SLAY:
            return f"attack: discard {self.card_name(arg)} from in front of you"
        if op == A_SLAY3:
            return f"attack: discard three {self.cards.monster_names[arg]} monsters from in front of you"
        if op == A_DRAW:
            return "draw a card (step 3)"
        if op == A_ATTACK:
            return f"attack {self.seat_name(arg)}, who takes a hit (step 3)"
        if op == A_PASS:
            return "neither draw nor attack (step 3)"
        return f"discard {self.card_name(arg)} (taking a hit)"
