"""Attacks (DS6): declaring one, resolving the next, Power cards and Call Defender, and the outcome.

The fight being resolved (and, once it is over, the last fight, until the next one starts) is kept in
``fight`` / ``fpa`` / ``fpd`` / ``fhelp`` so the table can show its dice and totals.
"""

from __future__ import annotations

from mypy_extensions import mypyc_attr

from cardtable.games.doctor_strange import fates as F
from cardtable.games.doctor_strange import said
from cardtable.games.doctor_strange.base import COUNTER, EXCHANGE, RESOLVE, REST
from cardtable.games.doctor_strange.effects import Effects


@mypyc_attr(allow_interpreted_subclasses=True)  # clone's _new_blank, and subclasses in tests
class Combat(Effects):
    """Attack rules: a layer of :class:`~.state.DSState`, over the deck and event rules."""

    __slots__ = ()

    def _declare(self, seat: int, weapon: int) -> None:
        """An attack is declared (DS6.2); the defender may counter it as it is played (DS10.1).

        The counter window is always next: it opens unless public information shows the defender
        cannot hold a counter (or an any-time event), see ``DSState._might_play``."""
        g = self.game
        a, t = self.decl_a, self.decl_t
        self.attacks = (*self.attacks, a, t, weapon)
        self.marked |= 1 << g.SLOT[t]
        self.attacked |= 1 << g.SLOT[a]
        if self.log is not None:
            self.tell("declare", said.said_declare, (seat, a, t, weapon))
        self.phase = COUNTER

    def _resolve_next(self) -> None:
        """Start resolving the next declared attack (DS6.3-DS6.4), or go on to the Rest phase."""
        g = self.game
        attacks = self.attacks
        slot, side = g.SLOT, self.side
        while self.ares * 3 < len(attacks):
            i = self.ares * 3
            a, t = attacks[i], attacks[i + 1]
            if not (
                F.viable(self, a)
                and side[slot[a]] == self.active
                and F.viable(self, t)
                and side[slot[t]] != self.active
            ):
                self.emit("fizzle", f"the attack of {g.card_name(a)} on {g.card_name(t)} no longer applies")
                self.ares += 1
                continue
            self.ra = self.rng.roll(12)
            self.rd = self.rng.roll(12)
            self.ba = self.bd = 0
            self.helpers = 0
            self.fight = (a, t, attacks[i + 2], self.turn, -1, 0, 0, self.active)
            self.fpa = ()
            self.fpd = ()
            self.fhelp = ()
            if self.log is not None:
                atk, dfn = self._totals()
                args = (a, self.ra, self.mpow[slot[a]], atk, t, self.rd, self.mpow[slot[t]], dfn)
                self.tell("roll", said.said_roll, args)
            self.phase = EXCHANGE
            return
        self.phase = REST

    def _power(self, seat: int, card: int) -> None:
        """A Power card raises its player's total for this fight (DS6.5)."""
        g = self.game
        if seat == self.active:
            bonus = g.BONUS[0][card]
            self.ba += bonus
            self.fpa = (*self.fpa, card)
        else:
            bonus = g.BONUS[1][card]
            self.bd += bonus
            self.fpd = (*self.fpd, card)
        if self.log is not None:
            atk, dfn = self._totals()
            self.tell("power", said.said_power, (seat, card, bonus, seat == self.active, atk, dfn))

    def _call_helper(self, card: int) -> None:
        """Call Defender: ``card`` adds its modified power to the Defense Total (DS6.7)."""
        g = self.game
        self.helpers |= 1 << g.SLOT[card]
        self.phase = EXCHANGE
        if self.log is not None:
            atk, dfn = self._totals()
            self.emit(
                "call-defender",
                f"{g.card_name(card)} adds its power {self.mpow[g.SLOT[card]]} to the defense; "
                f"Attack Total {atk}, Defense Total {dfn}",
            )

    def _finish_attack(self) -> None:
        """Higher total wins, the attacker wins ties; the target suffers the Attack card's fate."""
        g = self.game
        i = self.ares * 3
        a, t, w = self.attacks[i], self.attacks[i + 1], self.attacks[i + 2]
        atk, dfn = self._totals()
        slot, mpow = g.SLOT, self.mpow
        fight = self.fight
        self.fight = (*fight[:4], 1 if atk >= dfn else 0, mpow[slot[a]], mpow[slot[t]], *fight[7:])
        h, s = self.helpers, 0
        while h:
            if h & 1:
                self.fhelp = (*self.fhelp, g.CHARS[s], mpow[s])
            h >>= 1
            s += 1
        self.ares += 1
        self.phase = RESOLVE
        if atk >= dfn:
            self.tell("attack", said.said_won, (atk, dfn, a, w))
            F.apply_fate(self, a, t, g.FATE[w])
        else:
            self.tell("attack", said.said_failed, (atk, dfn, t))
