"""The end of a turn: Rest-phase rolls (DS7.3-DS7.4), the victory check (DS11), the turn limit (DS12)."""

from __future__ import annotations

from mypy_extensions import mypyc_attr

from cardtable.games.doctor_strange import fates as F
from cardtable.games.doctor_strange import said
from cardtable.games.doctor_strange.base import BEGIN, OVER, replaced
from cardtable.games.doctor_strange.changes import Z_CHAR
from cardtable.games.doctor_strange.combat import Combat


@mypyc_attr(allow_interpreted_subclasses=True)  # clone's _new_blank, and subclasses in tests
class Upkeep(Combat):
    """End-of-turn rules: a layer of :class:`~.state.DSState`, over the attack rules."""

    __slots__ = ()

    def _rest_rolls(self) -> None:
        """Recovery rolls for incapacitated characters, then departure rolls for power >= 10 (DS7.2-7.3)."""
        g = self.game
        slot, me = g.SLOT, self.active
        for c in list(self.chars):
            s = slot[c]
            if self.side[s] == me and self.incap[s] and self.cap[s] < 0:
                r = self.rng.roll(12)
                if r >= 11:
                    self.incap = replaced(self.incap, s, 0)
                    if self.changes is not None:
                        self.note(Z_CHAR, 0, c, 0)
                self.emit(
                    "recover",
                    f"{g.card_name(c)} rolls {r} to recover (11 or 12 needed): "
                    f"{'recovers' if r >= 11 else 'stays incapacitated'}",
                )
        for c in list(self.chars):
            s = slot[c]
            if self.side[s] == me and self.cap[s] < 0 and g.POW[c] >= 10:
                r = self.rng.roll(12)
                self.emit(
                    "depart",
                    f"{g.card_name(c)} (power {g.POW[c]}) rolls {r} for better things to do (11 or 12: it leaves)"
                    + ("" if r >= 11 else ": it stays"),
                )
                if r >= 11:
                    F.remove_from_play(self, c, self.discard, "called away by better things to do (discarded)")
                    F.settle(self)

    def _end_turn(self) -> None:
        """Victory check (DS11), turn limit (DS12), then the other player's turn begins."""
        g = self.game
        check = self.turn >= g.victory_from
        if g.rounds:
            check = self.active == g.good and (self.turn + 1) // 2 >= g.victory_from
        if check:
            for seat in (0, 1):
                self.streak = replaced(self.streak, seat, 0 if self._viable_on(seat) else self.streak[seat] + 1)
                if self.streak[seat] and self.log is not None:
                    self.emit(
                        "victory-check",
                        f"{g.seat_name(seat)} has no viable character at the end of this turn "
                        f"({self.streak[seat]} of 2 checks in a row)",
                    )
            lost = [seat for seat in (0, 1) if self.streak[seat] >= 2]
            if lost:
                self.winner = 2 if len(lost) == 2 else 1 - lost[0]
                self.reason = "no-viable-characters"
                self.phase = OVER
                self.emit("end", self._end_text())
                return
        if self.turn >= g.turn_limit:
            self.reason = "turn-limit"
            self.phase = OVER
            self.emit("end", f"the turn limit ({g.turn_limit} turns) is reached: the game stops undecided")
            return
        self.turn += 1
        self.active = 1 - self.active
        self.attacks = ()
        self.ares = 0
        self.marked = self.attacked = 0
        self.phase = BEGIN
        if self.log is not None:
            self.tell("turn", said.said_turn, (self.turn, self.active))

    def _end_text(self) -> str:
        g = self.game
        if self.winner == 2:
            return "both players have had no viable character for 2 turns: nobody wins"
        return (
            f"{g.seat_name(1 - self.winner)} has had no viable character for 2 turns: {g.seat_name(self.winner)} wins"
        )
