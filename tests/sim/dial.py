""" "Dial", a two-player game whose figures two card numbers set, for testing the balance search.

Its card file (``dial.toml``) has a Clock and a Coin. A game lasts the Clock's ``ticks`` turns plus 0, 1
or 2 (drawn from the seed), every turn one ``tick`` or ``tock`` of the player to move, and the first
player wins with probability ``bias``/10 (drawn from the seed), else the second. So the first player's
edge is ``bias``/10 - 1/2 and the mean length ``ticks`` + 1 turns: a search for an edge of 0 and a
length of 12 turns must find ``Coin.bias=5`` and ``Clock.ticks=11``. The option ``overtime`` adds turns.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardtable.engine import JSON, Action, Game, Option, Result, State
from cardtable.engine.carddata import Field, check_table, read_card_file
from cardtable.engine.errors import CardDataError

CARDS = Path(__file__).with_name("dial.toml")
FIELDS = {
    "Clock": (Field("name", (str,)), Field("ticks", (int,), min=1, max=100)),
    "Coin": (Field("name", (str,)), Field("bias", (int,), min=0, max=10)),
}


class Dial(Game):
    id = "dial"
    title = "Dial"
    OPTIONS = (
        Option("players", 2, "number of players", min=2, max=2),
        Option("overtime", 0, "turns added to every game", min=0, max=20),
    )
    CARD_EDITS = True

    def _setup(self) -> None:
        cf = read_card_file(CARDS, self.card_edits)
        numbers: dict[str, int] = {}
        for table in cf.data.get("card", []):
            name = table.get("name")
            if name not in FIELDS:
                raise CardDataError(cf.path, str(name), "name", "not a card of Dial")
            card = check_table(cf.path, name, table, FIELDS[name])
            numbers.update({k: v for k, v in card.items() if k != "name"})
        self.ticks = numbers["ticks"]
        self.bias = numbers["bias"]
        self.card_hash = cf.sha
        a = self.actions
        a.declare("tick")
        a.declare("tock")
        self.TICK = a.add("tick")
        self.TOCK = a.add("tock")

    def new_state(self, seed: int, log: bool) -> State:
        return DialState(self, seed, log)


class DialState(State):
    __slots__ = ("length", "winner")

    def __init__(self, game: Dial, seed: int, log: bool) -> None:
        super().__init__(game, seed, log)
        self.length = game.ticks + int(game.options["overtime"]) + self.rng.below(3)
        self.winner = 0 if self.rng.below(10) < game.bias else 1
        self.current_player = 0

    def _legal_actions(self) -> list[Action]:
        g: Any = self.game
        return [g.TICK, g.TOCK]

    def _do(self, action: Action) -> None:
        if self.turn >= self.length:
            self.is_over = True
            self.current_player = None
            return
        self.turn += 1
        self.current_player = 1 - (self.current_player or 0)

    def _view(self, seat: int | None) -> dict[str, JSON]:
        return {"prompt": "tick or tock"}

    def _snapshot(self) -> dict[str, JSON]:
        return {"length": self.length, "winner": self.winner}

    def result(self) -> Result:
        scores = tuple(1.0 if s == self.winner else 0.0 for s in range(2))
        return Result(scores, (1, 2) if self.winner == 0 else (2, 1), (self.winner,), "clock", self.turn)

    def clone(self) -> State:
        other = DialState.__new__(DialState)
        for slot in ("game", "seed", "rng", "history", "current_player", "is_over", "turn", "log", "_legal"):
            setattr(other, slot, getattr(self, slot))
        other.rng = self.rng.fork()
        other.history = self.history.copy()
        other.length, other.winner = self.length, self.winner
        return other

    def determinize(self, seat: object, rng: object) -> State:
        return self.clone()

    def known_cards(self, seat: object) -> set[int]:
        return set()
