"""Army of Darkness's observer: :class:`~cardtable.rl.encode.army_of_darkness.ArmyOfDarknessEncoder`'s
vector from the state.

Reads :class:`~cardtable.games.army_of_darkness.state.AodState` the way
:mod:`cardtable.games.army_of_darkness.view` builds a seat's view: the seat's own hand, other hands
only where a card was taken there face up (``shown``), every tabled card, the public piles, whose
turn and which step it is, and each seat's side and counts.

A buffer is written in full once per state (the first time a tracker sees it, or from a tracker that
last saw another state); from then on only the change list the state keeps for it is read
(``AodState.changes``: every card that entered or left a hand, a tabled zone or the discard pile,
and every seat whose side, switches or reduction state changed, in order), so an update costs a few
writes per change instead of comparing every zone. The few single numbers (the card being played,
the one returning, whose turn and which step, the deck's size) are compared every time.
"""

from __future__ import annotations

from typing import ClassVar, Final

from cardtable.games.army_of_darkness.codes import (
    ARMED,
    GOOD,
    P_DEST,
    P_FREE,
    P_PICK,
    P_PLACE,
    P_PLAY,
    P_SLAY,
    P_TARGET,
    REDUCED,
    Z_DISCARD,
    Z_HAND,
    Z_ITEM,
    Z_SEAT,
    ZONES,
)
from cardtable.games.army_of_darkness.game import ArmyOfDarkness
from cardtable.games.army_of_darkness.state import AodState
from cardtable.rl.encode.army_of_darkness import PLAYER_FEATURES, STEPS, ArmyOfDarknessEncoder
from cardtable.rl.observe.base import Buffer, Memo, Observer, clip

_PLAYING: Final = 1
_RETURNING: Final = 2
_TURN: Final = 3
_DECK: Final = 4
_READ: Final = 5
"""The state's change list this buffer follows and how much of it is written in (a pair), or None."""
_SLOTS: Final = 6

# What a change list entry means for one seat's buffer (``ArmyOfDarknessObserver.plan``).
_MY_HAND: Final = 0
_OTHER_HAND: Final = 1
_DISCARD: Final = 2
_SEAT: Final = 3
_TABLED: Final = 4
_ITEMS: Final = 5


class ArmyOfDarknessObserver(Observer):
    game_id: ClassVar[str] = "army-of-darkness"

    def build(self) -> None:
        enc = self.encoder
        assert isinstance(enc, ArmyOfDarknessEncoder)
        g = self.game
        assert isinstance(g, ArmyOfDarkness)
        n = self.players
        self.slots = _SLOTS
        grid = enc.cards
        self.n_cards = cards = enc.n_cards

        def col(zone: str) -> tuple[int, ...]:
            return self.column(grid.start + grid.index[zone], grid.n, cards)

        self.c_hand, self.c_discard, self.c_removed = col("my_hand"), col("discard"), col("removed")
        self.c_playing, self.c_returning = col("being_played"), col("returning")
        self.c_known = [(), *[col(f"known_in_hand_{r}") for r in range(1, n)]]
        self.c_tabled = [[col(f"{kind}_{r}") for r in range(n)] for kind in ("monsters", "allies", "items")]
        self.turn_of_at = enc.b_turn_of.start
        self.step_at = enc.b_step.start
        self.players_at = enc.b_players.start
        self.width = len(PLAYER_FEATURES)
        self.deck_at = enc.b_deck.start
        assert STEPS == 4
        # The phases of the rulebook's step 1 (playing a card and resolving it).
        self.step_one = frozenset((P_PLAY, P_PLACE, P_PICK, P_TARGET, P_DEST))
        # The cards the Rules of Kalle removed (fixed per loaded game) and which cards views call
        # the Necronomicon, from the card objects views show.
        card_data = g.cards
        self.removed = [c for c in range(len(card_data)) if card_data.removed[c]]
        self.necro = frozenset(c for c in range(len(card_data)) if g.card_json(c).get("type") == "necronomicon")
        assert g.NOTE[1][0] == 2 * n * len(card_data)
        self.plans: list[list[tuple[int, int, int, int, int]] | None] = [None] * n

    def plan(self, seat: int) -> list[tuple[int, int, int, int, int]]:
        """What each change list entry, halved (its last bit says added or taken: ``game.NOTE``),
        means for ``seat``'s buffer: ``(what, cell, numbers, seat, more)``, the kind of change, the
        card's cell (or -1), where the changed seat's numbers start, that seat, and the tabled zone
        (0-2) or, for a hand, the card. Worked out once per seat, so an entry costs a lookup instead
        of arithmetic."""
        out = self.plans[seat]
        if out is None:
            n = self.players
            g = self.game
            assert isinstance(g, ArmyOfDarkness)
            c_all = len(g.cards)
            out = []
            for z in range(ZONES):
                for s in range(n):
                    r = (s - seat) % n
                    base = self.players_at + r * self.width
                    for c in range(c_all):
                        if z == Z_DISCARD:
                            out.append((_DISCARD, self.c_discard[c], -1, 0, 0))
                        elif z == Z_HAND:
                            out.append(
                                (_OTHER_HAND, self.c_known[r][c], base, s, c)
                                if r
                                else (_MY_HAND, self.c_hand[c], base, s, c)
                            )
                        elif z == Z_SEAT:
                            out.append((_SEAT, -1, base, s, 0))
                        else:
                            out.append((_ITEMS if z == Z_ITEM else _TABLED, self.c_tabled[z - 1][r][c], base, s, z - 1))
            self.plans[seat] = out
        return out

    def fill(self, state: AodState, seat: int, out: Buffer, memo: Memo) -> None:
        st = state
        read = self._followed(st, seat, out, memo, _READ)
        if read is None:  # a zeroed buffer: everything from the state, then follow its change list
            self._write_cards(st, seat, out)
            self._follow(st, memo, _READ)
        else:
            log: list[int] = read[0]
            end = len(log)
            if read[1] != end:
                self._apply_changes(st, seat, out, log, read[1], end)
                memo[_READ] = (log, end)
        # The card being played and the one returning: one cell each (-1: none; memo None: never set).
        card = st.pending
        was = memo[_PLAYING]
        if card != was and (card >= 0 or was is not None):
            if was is not None and was >= 0:
                out[self.c_playing[was]] = 0.0
            if card >= 0:
                out[self.c_playing[card]] = 1.0
            memo[_PLAYING] = card
        card = st.chosen
        was = memo[_RETURNING]
        if card != was and (card >= 0 or was is not None):
            if was is not None and was >= 0:
                out[self.c_returning[was]] = 0.0
            if card >= 0:
                out[self.c_returning[card]] = 1.0
            memo[_RETURNING] = card
        # Whose turn and which step: two cells, as one number (turn cell << 16 | step cell; -1: over).
        key = -1
        if not st.is_over:
            ph = st.phase
            if ph in self.step_one:
                k = 0
            elif ph == P_SLAY:
                k = 1
            elif ph == P_FREE:
                k = 2
            else:
                k = 2 if st.hit_step == 3 else 3
            key = (self.turn_of_at + (st.active - seat) % self.players) << 16 | (self.step_at + k)
        old = memo[_TURN]
        if key != old:
            if old is not None and old >= 0:
                out[old >> 16] = 0.0
                out[old & 0xFFFF] = 0.0
            if key >= 0:
                out[key >> 16] = 1.0
                out[key & 0xFFFF] = 1.0
            memo[_TURN] = key
        deck = len(st.deck)
        if deck != memo[_DECK]:
            out[self.deck_at] = clip(deck / self.n_cards)
            memo[_DECK] = deck

    def _write_cards(self, st: AodState, seat: int, out: Buffer) -> None:
        """Write every zone and every seat's numbers into a zeroed buffer."""
        n = self.players
        column = self.c_hand
        for c in st.hands[seat]:
            out[column[c]] = 1.0
        column = self.c_discard
        for c in st.discard:
            out[column[c]] = 1.0
        column = self.c_removed
        for c in self.removed:
            out[column[c]] = 1.0
        shown = st.shown
        for s in range(n):
            r = (s - seat) % n
            self._seat_numbers(st, s, self.players_at + r * self.width, out)
            for k, zone in enumerate((st.mon[s], st.ally[s], st.item[s])):
                column = self.c_tabled[k][r]
                for c in zone:
                    out[column[c]] = 1.0
            if r:
                column = self.c_known[r]
                for c in st.hands[s]:
                    if c in shown:
                        out[column[c]] = 1.0

    def _seat_numbers(self, st: AodState, s: int, base: int, out: Buffer) -> None:
        """Seat ``s``'s numbers at ``base``: side (two cells), hand size, monsters, allies, items,
        whether it holds the Necronomicon, switches, and whether its hand ran out (reduced or armed).
        Sizes are never negative: ``v if v < 1.0 else 1.0`` is ``clip(v)``."""
        good = st.side[s] == GOOD
        out[base] = 1.0 if good else 0.0
        out[base + 1] = 0.0 if good else 1.0
        v = len(st.hands[s]) / 10.0
        out[base + 2] = v if v < 1.0 else 1.0
        v = len(st.mon[s]) / 5.0
        out[base + 3] = v if v < 1.0 else 1.0
        v = len(st.ally[s]) / 5.0
        out[base + 4] = v if v < 1.0 else 1.0
        item = st.item[s]
        v = len(item) / 5.0
        out[base + 5] = v if v < 1.0 else 1.0
        out[base + 6] = 0.0 if self.necro.isdisjoint(item) else 1.0
        v = st.switches[s] / 5.0
        out[base + 7] = v if v < 1.0 else 1.0
        out[base + 8] = 1.0 if st.reduced[s] in (REDUCED, ARMED) else 0.0

    def _apply_changes(self, st: AodState, seat: int, out: Buffer, log: list[int], start: int, end: int) -> None:
        """Write what entries ``start`` to ``end`` of the state's change list changed, in order: a
        card's cell set or cleared as it entered or left its zone, and the numbers of the zone's seat
        that the zone counts, read from the state as it is now (so several entries for one zone leave
        the last value). A card entering another seat's hand is known there if it is ``shown`` now:
        had it left since (and ``shown`` with it), a later entry clears the cell."""
        plan = self.plans[seat]
        if plan is None:
            plan = self.plan(seat)
        for i in range(start, end):
            e = log[i]
            what, cell, base, s, k = plan[e >> 1]
            added = e & 1
            if what <= _OTHER_HAND:  # a hand: the seat's own cards, or those known in another's
                if what == _MY_HAND:
                    out[cell] = 1.0 if added else 0.0
                else:
                    out[cell] = 1.0 if added and k in st.shown else 0.0
                v = len(st.hands[s]) / 10.0
                out[base + 2] = v if v < 1.0 else 1.0
                out[base + 8] = 1.0 if st.reduced[s] in (REDUCED, ARMED) else 0.0
            elif what == _DISCARD:
                out[cell] = 1.0 if added else 0.0
            elif what >= _TABLED:  # a tabled zone (its kind ``k``): items also say the Necronomicon
                out[cell] = 1.0 if added else 0.0
                tabled = st.mon[s] if k == 0 else st.ally[s] if k == 1 else st.item[s]
                v = len(tabled) / 5.0
                out[base + 3 + k] = v if v < 1.0 else 1.0
                if what == _ITEMS:
                    out[base + 6] = 0.0 if self.necro.isdisjoint(tabled) else 1.0
            else:  # the seat's side, switches or reduction state (rare): all its numbers
                self._seat_numbers(st, s, base, out)
