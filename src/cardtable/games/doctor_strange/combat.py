"""Attacks (DS6): declaring one, resolving the next, and the outcome."""

from __future__ import annotations

from cardtable.games.doctor_strange import cards as C
from cardtable.games.doctor_strange import fates as F
from cardtable.games.doctor_strange.base import COUNTER, DECLARE, EXCHANGE, RESOLVE, REST, DSBase


class Combat(DSBase):
    """Attack rules: a mixin of :class:`~.state.DSState`."""

    __slots__ = ()

    def _declare(self, seat: int, weapon: int) -> None:
        """An attack is declared (DS6.2); the defender may counter it as it is played (DS10.1)."""
        g = self.game
        a, t = self.decl_a, self.decl_t
        self.attacks += (a, t, weapon)
        self.marked |= 1 << g.SLOT[t]
        self.attacked |= 1 << g.SLOT[a]
        if self.log is not None:
            fate = C.FATE_NAMES[g.FATE[weapon]]
            self.emit("declare", f"{g.card_name(a)} attacks {g.card_name(t)} with {g.NAMES[weapon]} ({fate})")
        self.phase = DECLARE
        ctr = g.CTR[1 - seat]
        for c in self.hands[1 - seat]:
            if ctr[c]:
                self.phase = COUNTER
                break

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
            if self.log is not None:
                atk, dfn = self._totals()
                self.emit(
                    "roll",
                    f"{g.NAMES[a]} rolls {self.ra} (Attack Total {atk}); "
                    f"{g.NAMES[t]} rolls {self.rd} (Defense Total {dfn})",
                )
            self.phase = EXCHANGE
            return
        self.phase = REST

    def _finish_attack(self) -> None:
        """Higher total wins, the attacker wins ties; the target suffers the Attack card's fate."""
        g = self.game
        i = self.ares * 3
        a, t, w = self.attacks[i], self.attacks[i + 1], self.attacks[i + 2]
        atk, dfn = self._totals()
        self.ares += 1
        self.phase = RESOLVE
        if atk >= dfn:
            self.emit("attack", f"attack {atk} vs defence {dfn}: {g.NAMES[a]} wins")
            F.apply_fate(self, a, t, g.FATE[w])
        else:
            self.emit("attack", f"attack {atk} vs defence {dfn}: the attack on {g.NAMES[t]} fails")
