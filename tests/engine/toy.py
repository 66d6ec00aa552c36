"""A tiny hidden-information game used to test the engine by itself ("Draw or Play").

Ten cards 0..9 are shuffled; each of two players gets two. On your turn: ``play card=N`` from your
hand to the table (score N points), or ``draw`` (only while the deck is not empty). ``pass`` ends
your turn after a play. The game ends when both hands are empty; highest score wins.
It doubles as the smallest complete example of a game on the protocol.
"""

from __future__ import annotations

from cardtable.engine import JSON, Action, Game, Option, Result, Rng, State, ranks_from_keys
from cardtable.engine.zones import resample_hidden


class Toy(Game):
    id = "toy"
    title = "Draw or Play"
    OPTIONS = (Option("players", 2, "number of players", min=2, max=2),)
    CONFIGURATIONS = ({"players": 2},)
    VIEW_KEYS = frozenset({"prompt", "hand", "hand_sizes", "deck_size", "table", "scores"})

    def _setup(self) -> None:
        self.card_hash = "toy-cards-v1"
        a = self.actions
        a.declare("play", "card")
        a.declare("draw")
        a.declare("pass")
        self.PLAY = a.grid("play", range(10))
        self.DRAW = a.add("draw")
        self.PASS = a.add("pass")

    def new_state(self, seed: int, log: bool) -> State:
        return ToyState(self, seed, log)


class ToyState(State[Toy]):
    __slots__ = ("deck", "hands", "played", "scores", "table")

    def __init__(self, game: Toy, seed: int, log: bool) -> None:
        super().__init__(game, seed, log)
        self.deck = list(range(10))
        self.rng.shuffle(self.deck)
        self.hands = [[self.deck.pop(), self.deck.pop()] for _ in range(2)]
        self.table: list[int] = []
        self.scores = [0, 0]
        self.played = False
        self.current_player = 0

    def _legal_actions(self) -> list[Action]:
        g = self.game
        seat = self.current_player
        assert seat is not None
        if self.played:
            return [g.PASS]
        out = [g.PLAY[c] for c in sorted(self.hands[seat])]
        if self.deck:
            out.append(g.DRAW)
        return out

    def _do(self, action: Action) -> None:
        seat = self.current_player
        assert seat is not None
        if action.kind == "play":
            card = int(action.args[0])
            self.hands[seat].remove(card)
            self.table.append(card)
            self.scores[seat] += card
            self.played = True
            self.emit("play", f"P{seat + 1} plays {card}")
            return
        if action.kind == "draw":
            card = self.deck.pop()
            self.hands[seat].append(card)
            self.emit("draw", f"P{seat + 1} draws a card", f"you draw {card}", (seat,))
        self.played = False
        if not self.hands[0] and not self.hands[1]:
            self.is_over = True
            self.current_player = None
            return
        nxt = 1 - seat
        if not self.hands[nxt] and not self.deck:
            nxt = seat
        self.current_player = nxt
        self.turn += 1

    def _view(self, seat: int | None) -> dict[str, JSON]:
        return {
            "prompt": self.prompt(seat),
            "hand": sorted(self.hands[seat]) if seat is not None else None,
            "hand_sizes": [len(h) for h in self.hands],
            "deck_size": len(self.deck),
            "table": list(self.table),
            "scores": list(self.scores),
        }

    def prompt(self, seat: int | None) -> str:
        if self.is_over:
            return "the game is over: both hands are empty"
        who = self.game.seat_name(self.current_player or 0)
        if self.current_player != seat:
            return f"{who} is deciding"
        return f"{who}: end your turn" if self.played else f"{who}: play a card or draw"

    def _snapshot(self) -> dict[str, JSON]:
        return {
            "deck": list(self.deck),
            "hands": [list(h) for h in self.hands],
            "table": list(self.table),
            "scores": list(self.scores),
            "played": self.played,
        }

    def _known_cards(self, seat: int | None) -> set[int]:
        known = set(self.table)
        if seat is not None:
            known.update(self.hands[seat])
        return known

    def clone(self) -> ToyState:
        other = self._clone_base()
        other.deck = self.deck.copy()
        other.hands = [h.copy() for h in self.hands]
        other.table = self.table.copy()
        other.scores = self.scores.copy()
        other.played = self.played
        return other

    def _determinize(self, seat: int, rng: Rng) -> ToyState:
        other, r = self._reseeded_clone(rng)
        assert isinstance(other, ToyState)
        mine = set(self.hands[seat])
        resample_hidden([other.deck, other.hands[1 - seat]], mine.__contains__, r)
        return other

    def result(self) -> Result:
        if not self.is_over:
            raise ValueError("the game is not over")
        keys = [(float(s),) for s in self.scores]
        ranks = ranks_from_keys(keys)
        winners = tuple(i for i, r in enumerate(ranks) if r == 1)
        draw = len(winners) > 1
        return Result(
            tuple(float(s) for s in self.scores), ranks, () if draw else winners, "hands-empty", self.turn, draw=draw
        )
