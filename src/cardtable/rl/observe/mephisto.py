"""Mephisto's observer: :class:`~cardtable.rl.encode.mephisto.MephistoEncoder`'s vector from the state.

Reads :class:`~cardtable.games.mephisto.rules.MephistoState` the way
:mod:`cardtable.games.mephisto.views` builds a seat's view, and writes what the encoder reads from
that view: the seat's hand, other hands only where a card is publicly known to be there (the
``pub`` mask), the dungeon from the seat's side, every seat's numbers and cards in play, the seat's
lanes, the fight, the card resolving and progress through the deck.

A buffer is written in full once per state (the first time a tracker sees it, or from a tracker that
last saw another state); from then on only the change list the state keeps for it is read
(``MephistoState.changes``, :mod:`cardtable.games.mephisto.changes`: every card that entered or left
a hand, the cards in play, the souls or the discard pile, every dungeon space, public bit,
durability, activation and attached spell that changed, and every seat whose numbers changed, in
order), so an update costs a few writes per change instead of comparing every zone. The observer's
lanes are worked out again only after an entry they read; the fight, the card resolving and the
deck's progress are compared every time.
"""

from __future__ import annotations

from typing import ClassVar, Final

from cardtable.games.mephisto.board import BLOCKED, DECK
from cardtable.games.mephisto.cards import MONSTER, WEAPON
from cardtable.games.mephisto.changes import (
    Z_ACT,
    Z_ATTACH,
    Z_BONUS,
    Z_DISCARD,
    Z_DUR,
    Z_HAND,
    Z_PLAY,
    Z_PUB,
    Z_SEAT,
    Z_SOULS,
    Z_SPACE,
    ZONES,
)
from cardtable.games.mephisto.game import Mephisto
from cardtable.games.mephisto.rules import (
    DUNGEON_SPACES,
    P_ATTACH,
    P_DAMAGE,
    P_DISCARD,
    P_FAVOR,
    P_MON,
    P_PAY,
    P_REMOVE,
    P_REPAIR,
    P_TAKE,
    P_TARGET,
    P_WPN,
    MephistoState,
)
from cardtable.rl.encode.mephisto import CELL_FEATURES, PLAYER_FEATURES, TYPES, MephistoEncoder
from cardtable.rl.encode.tools import number
from cardtable.rl.observe.base import Buffer, Memo, Observer, clip

_FIGHT = (P_MON, P_WPN, P_FAVOR)
Ints = tuple[int, ...]
FightKey = tuple[int, int, int, int, Ints, Ints]
"""The fight: fighter, attack needed, attack, fighter's favor, monsters, weapons."""
# Memo slots (0 is the common block's).
_DUNGEON: Final = 1
"""The dungeon's cards as this buffer shows them (a copy, by space)."""
_FIGHT_SLOT: Final = 2
_RESOLVING: Final = 3
_PROGRESS: Final = 4
_READ: Final = 5
"""The state's change list this buffer follows and how much of it is written in (a pair), or None."""
_LANES: Final = 6
"""The observer's lanes as written: each lane's monsters' attack, whether it has any, the attack it
would bring (a list of nine)."""

# A seat's row of numbers (the encoder's player block): each number's place and what it is divided by.
_FAVOR_AT: Final = 0
_SOUL_PTS_AT: Final = 1
_HAND_AT: Final = 2
_BONUS_AT: Final = 3
_IN_PLAY_AT: Final = 4
_SOULS_AT: Final = 5
_FAVOR_SCALE: Final = 20.0
_SOUL_PTS_SCALE: Final = 20.0
_HAND_SCALE: Final = 10.0
_BONUS_SCALE: Final = 5.0
_IN_PLAY_SCALE: Final = 5.0
_SOULS_SCALE: Final = 10.0

# What a change list entry means for one seat's buffer (``MephistoObserver.plan``).
_MY_HAND: Final = 0
_OTHER_HAND: Final = 1
_DISCARD: Final = 2
_PLAY: Final = 3
_SOULS: Final = 4
_SEAT: Final = 5
_SPACE: Final = 6
_PUB: Final = 7
_DUR: Final = 8
_ACT: Final = 9
_ATTACH: Final = 10
_BONUS: Final = 11


class MephistoObserver(Observer):
    game_id: ClassVar[str] = "mephisto"

    def build(self) -> None:
        enc = self.encoder
        assert isinstance(enc, MephistoEncoder)
        g = self.game
        assert isinstance(g, Mephisto)
        n = self.players
        self.slots = _LANES
        self.order = tuple(tuple((seat + r) % n for r in range(n)) for seat in range(n))
        grid = enc.cards
        self.n_cards = cards = enc.n_cards
        stride = grid.n

        def col(zone: str) -> tuple[int, ...]:
            return self.column(grid.start + grid.index[zone], stride, cards)

        self.c_hand = col("my_hand")
        self.c_discard = col("discard")
        self.c_dungeon = col("dungeon")
        self.c_fmon = col("fight_monsters")
        self.c_fwpn = col("fight_weapons")
        self.c_resolving = col("resolving")
        self.c_known = [(), *[col(f"hand_known_{r}") for r in range(1, n)]]
        self.c_in_play = [col(f"in_play_{r}") for r in range(n)]
        self.c_attached = [col(f"attached_{r}") for r in range(n)]
        self.c_souls = [col(f"souls_{r}") for r in range(n)]
        self.state_at = enc.b_card_state.start
        self.players_at = enc.b_players.start
        self.width = len(PLAYER_FEATURES)
        self.lanes_at = enc.b_lanes.start
        self.fight_at = enc.b_fight.start
        self.progress_at = enc.b_progress.start
        self.team_of = g.team_of
        self.teams = bool(g.teams)
        self.passes = int(g.passes)
        card_data = g.cards
        self.ctype = card_data.type
        self.crange = card_data.range
        self.cattack = card_data.attack
        # What a dungeon cell shows of each card (features 0-9), from the card objects views show.
        type_at = {kind: 1 + i for i, kind in enumerate(TYPES)}
        features = []
        for card in range(cards):
            d = g.card_json(card)
            kind = d.get("type")
            row = [0.0] * 10
            row[0] = 1.0
            if isinstance(kind, str) and kind in type_at:
                row[type_at[kind]] = 1.0
            row[5] = clip(number(d.get("attack")) / 12.0)
            row[6] = clip(number(d.get("souls")) / 4.0)
            row[7] = clip(number(d.get("cost")) / 3.0)
            row[8] = clip(number(d.get("durability")) / 4.0)
            row[9] = clip(number(d.get("range")) / 3.0)
            features.append(tuple((i, x) for i, x in enumerate(row) if x))
        self.features = tuple(features)
        # Per seat, its picture of the dungeon: (cell base, kind, space) per cell.
        width = len(CELL_FEATURES)
        board = g.board
        self.picture = []
        for seat in range(n):
            rows = board.picture[seat]
            top = 3 - len(rows)
            cells: list[tuple[int, str, int]] = []
            for i, cells_row in enumerate(rows[:3]):
                for j, (kind, space, _lane, _place) in enumerate(cells_row[:3]):
                    cells.append((enc.b_dungeon.start + ((top + i) * 3 + j) * width, kind, space))
            self.picture.append(tuple(cells))
        self.lane_spaces = board.lane_spaces
        self.lane_masks = tuple(
            tuple(sum(1 << space for space in spaces) for spaces in lanes) for lanes in board.lane_spaces
        )
        # Per seat, where each dungeon space's cell starts in its picture (-1: a space not shown).
        self.space_base: list[tuple[int, ...]] = []
        for seen in self.picture:
            bases = [-1] * DUNGEON_SPACES
            for base, _kind, space in seen:
                if space >= 0:
                    bases[space] = base
            self.space_base.append(tuple(bases))
        self.note_cards = len(card_data)
        assert g.NOTE[1][0] == 2 * n * self.note_cards
        self.plans: list[list[tuple[int, int, int, int, int]] | None] = [None] * n

    def plan(self, seat: int) -> list[tuple[int, int, int, int, int]]:
        """What each change list entry, halved (its last bit says added or taken: ``game.NOTE``),
        means for ``seat``'s buffer: ``(what, cell, seat, card, numbers)``, the kind of change, the
        card's cell in its zone's column as this seat sees that zone (or -1), the zone's seat, the card
        (the space, for a dungeon space) and where that seat's numbers start. Worked out once per
        seat, so an entry costs a lookup instead of arithmetic."""
        out = self.plans[seat]
        if out is None:
            n = self.players
            cards = self.note_cards
            state_at = self.state_at
            kinds = {Z_PLAY: _PLAY, Z_SOULS: _SOULS, Z_SEAT: _SEAT, Z_BONUS: _BONUS, Z_DISCARD: _DISCARD}
            kinds.update({Z_SPACE: _SPACE, Z_PUB: _PUB, Z_DUR: _DUR, Z_ACT: _ACT, Z_ATTACH: _ATTACH})
            out = []
            for z in range(ZONES):
                for s in range(n):
                    r = (s - seat) % n
                    base = self.players_at + r * self.width
                    for c in range(cards):
                        what = (_OTHER_HAND if r else _MY_HAND) if z == Z_HAND else kinds[z]
                        cell = -1
                        if what == _MY_HAND:
                            cell = self.c_hand[c]
                        elif what == _OTHER_HAND:
                            cell = self.c_known[r][c]
                        elif what == _PLAY:
                            cell = self.c_in_play[r][c]
                        elif what == _SOULS:
                            cell = self.c_souls[r][c]
                        elif what == _DISCARD:
                            cell = self.c_discard[c]
                        elif what == _DUR:
                            cell = state_at + 2 * c
                        elif what == _ACT:
                            cell = state_at + 2 * c + 1
                        out.append((what, cell, s, c, base))
            self.plans[seat] = out
        return out

    def fill(self, state: MephistoState, seat: int, out: Buffer, memo: Memo) -> None:
        s = state
        read = self._followed(s, seat, out, memo, _READ)
        if read is None:  # a zeroed buffer: everything from the state, then follow its change list
            self._write_all(s, seat, out, memo)
            self._follow(s, memo, _READ)
        else:
            log: list[int] = read[0]
            end = len(log)
            if read[1] != end:
                self._apply_changes(s, seat, out, memo, log, read[1], end)
                memo[_READ] = (log, end)

        phase = s.phase
        if phase in _FIGHT:
            self._fight(s, seat, out, memo)
        elif memo[_FIGHT_SLOT]:
            self._clear_fight(out, memo[_FIGHT_SLOT])
            memo[_FIGHT_SLOT] = None

        # The card being paid for, summoned or resolved (views: "resolving").
        card = -1
        if phase == P_PAY:
            card = s.paying
        elif phase in (P_TAKE, P_ATTACH, P_TARGET):
            card = s.pending
        elif phase in (P_DISCARD, P_REPAIR, P_DAMAGE):
            card = s.queue[0][4]
        elif phase == P_REMOVE:
            card = s.discard[-1]
        if not 0 <= card < self.n_cards:
            card = -1
        was = memo[_RESOLVING]
        if card != was and (card >= 0 or was is not None):
            if was is not None and was >= 0:
                out[self.c_resolving[was]] = 0.0
            if card >= 0:
                out[self.c_resolving[card]] = 1.0
            memo[_RESOLVING] = card

        key_progress = (len(s.deck), s.runouts, not s.is_over and bool(s.end_turn))
        if key_progress != memo[_PROGRESS]:
            g0 = self.progress_at
            out[g0] = clip(key_progress[0] / self.n_cards)
            passes = self.passes
            if passes > 0:
                out[g0 + 1] = clip((min(s.runouts + 1, passes) - 1) / passes)
            out[g0 + 2] = 1.0 if key_progress[2] else 0.0
            memo[_PROGRESS] = key_progress

    def _write_all(self, s: MephistoState, seat: int, out: Buffer, memo: Memo) -> None:
        """Write every zone, every seat's numbers, the dungeon and the lanes into a zeroed buffer."""
        order = self.order[seat]  # seats from the observer: order[r] is the seat r places after it
        column = self.c_hand
        for c in s.hands[seat]:
            out[column[c]] = 1.0
        column = self.c_discard
        for c in s.discard:
            out[column[c]] = 1.0
        pub = s.pub
        for r, p in enumerate(order):
            self._row(s, p, self.players_at + r * self.width, out)
            if self.teams and r and self.team_of[p] == self.team_of[seat]:
                out[self.players_at + r * self.width + 6] = 1.0
            if r and pub:
                column = self.c_known[r]
                for c in s.hands[p]:
                    if pub >> c & 1:
                        out[column[c]] = 1.0
            column = self.c_souls[r]
            for c in s.souls[p]:
                out[column[c]] = 1.0
            for c in s.inplay[p]:
                self._in_play(s, out, r, c)
        # The dungeon from the observer's side: what it cannot hold, then its cards.
        for base, kind, _space in self.picture[seat]:
            if kind == BLOCKED:
                out[base + 10] = 1.0
            elif kind == DECK:
                out[base + 11] = 1.0
        dungeon = s.dungeon
        bases = self.space_base[seat]
        for space in range(DUNGEON_SPACES):
            self._space(out, bases[space], -1, dungeon[space])
        memo[_DUNGEON] = dungeon.copy()
        self._lanes(s, seat, out, memo, (1 << DUNGEON_SPACES) - 1, True)

    def _row(self, s: MephistoState, p: int, base: int, out: Buffer) -> None:
        """Seat ``p``'s numbers at ``base``: favor, soul points, hand size, bonus, cards in play, souls."""
        out[base + _FAVOR_AT] = clip(s.favor[p] / _FAVOR_SCALE)
        out[base + _SOUL_PTS_AT] = clip(s.soul_pts[p] / _SOUL_PTS_SCALE)
        out[base + _HAND_AT] = clip(len(s.hands[p]) / _HAND_SCALE)
        out[base + _BONUS_AT] = clip(s.bonus[p] / _BONUS_SCALE)
        out[base + _IN_PLAY_AT] = clip(len(s.inplay[p]) / _IN_PLAY_SCALE)
        out[base + _SOULS_AT] = clip(len(s.souls[p]) / _SOULS_SCALE)

    def _in_play(self, s: MephistoState, out: Buffer, r: int, c: int) -> None:
        """Card ``c`` in play at the seat ``r`` places after the observer: its cell, its durability
        left and activation, and the spells attached to it (a weapon's)."""
        out[self.c_in_play[r][c]] = 1.0
        at = self.state_at + 2 * c
        out[at] = clip(s.dur[c] / 4.0)
        out[at + 1] = 1.0 if s.activated >> c & 1 else 0.0
        if self.ctype[c] == WEAPON:
            host = s.host
            column = self.c_attached[r]
            for sp in s.attached:
                if host[sp] == c:
                    out[column[sp]] = 1.0

    def _space(self, out: Buffer, base: int, was: int, card: int) -> None:
        """A dungeon cell (at ``base``; -1: a space this seat's picture does not show) from ``was`` to
        ``card`` (-1: none), with the dungeon column."""
        if base < 0 or was == card:
            return
        features = self.features
        if was >= 0:
            out[self.c_dungeon[was]] = 0.0
            for i, _ in features[was]:
                out[base + i] = 0.0
        if card >= 0:
            out[self.c_dungeon[card]] = 1.0
            for i, x in features[card]:
                out[base + i] = x

    def _apply_changes(
        self, s: MephistoState, seat: int, out: Buffer, memo: Memo, log: list[int], start: int, end: int
    ) -> None:
        """Write what entries ``start`` to ``end`` of the state's change list changed, in order: a
        card's cell set or cleared as it entered or left its zone (its state and attached spells with
        it as it entered play), the number of the entry's seat that the zone counts, the dungeon
        spaces the entries name and, after any entry they read, the observer's lanes, all read from
        the state as it is now (so several entries for one card or seat leave the last value, and a
        later entry undoes what an earlier one wrote from a value that has changed since). Counts are
        never negative: ``v if v < 1.0 else 1.0`` is ``clip(v)``."""
        plan = self.plans[seat]
        if plan is None:
            plan = self.plan(seat)
        n = self.players
        spaces = 0  # the dungeon spaces written again (a bit each)
        armed = False  # whether the observer's attack in its lanes may have changed
        for i in range(start, end):
            e = log[i]
            what, cell, p, c, base = plan[e >> 1]
            added = e & 1
            if what <= _OTHER_HAND:  # a hand: the seat's own cards, or those public in another's
                if what == _MY_HAND:
                    out[cell] = 1.0 if added else 0.0
                else:
                    out[cell] = 1.0 if added and s.pub >> c & 1 else 0.0
                v = len(s.hands[p]) / _HAND_SCALE
                out[base + _HAND_AT] = v if v < 1.0 else 1.0
            elif what == _DISCARD:
                out[cell] = 1.0 if added else 0.0
            elif what == _PUB:  # now public in another seat's hand that holds it
                order = self.order[seat]
                for r in range(1, n):
                    if c in s.hands[order[r]]:
                        out[self.c_known[r][c]] = 1.0 if s.pub >> c & 1 else 0.0
            elif what == _SEAT:
                out[base + _FAVOR_AT] = clip(s.favor[p] / _FAVOR_SCALE)
                out[base + _SOUL_PTS_AT] = clip(s.soul_pts[p] / _SOUL_PTS_SCALE)
            elif what in (_DUR, _ACT):  # shown for a card in play
                if s.holder(c) >= 0:
                    if what == _DUR:
                        out[cell] = clip(s.dur[c] / 4.0)
                    else:
                        out[cell] = 1.0 if s.activated >> c & 1 else 0.0
            elif what == _SPACE:
                spaces |= 1 << c
            elif what == _PLAY:
                if added:
                    self._in_play(s, out, (p - seat) % n, c)
                else:
                    out[cell] = 0.0
                    at = self.state_at + 2 * c
                    out[at] = 0.0
                    out[at + 1] = 0.0
                v = len(s.inplay[p]) / _IN_PLAY_SCALE
                out[base + _IN_PLAY_AT] = v if v < 1.0 else 1.0
                armed = armed or p == seat
            elif what == _SOULS:
                out[cell] = 1.0 if added else 0.0
                v = len(s.souls[p]) / _SOULS_SCALE
                out[base + _SOULS_AT] = v if v < 1.0 else 1.0
                armed = armed or p == seat
            elif what == _BONUS:
                out[base + _BONUS_AT] = clip(s.bonus[p] / _BONUS_SCALE)
                armed = armed or p == seat
            else:  # a spell attached (to a weapon in play now) or taken off
                if added:
                    host = s.host[c]
                    holder = s.holder(host) if host >= 0 else -1
                    if holder >= 0 and self.ctype[host] == WEAPON and c in s.attached:
                        out[self.c_attached[(holder - seat) % n][c]] = 1.0
                else:
                    for column in self.c_attached:
                        out[column[c]] = 0.0
                armed = True
        if spaces:
            # Two passes, as the full write's order: a card that moved from one space to another
            # keeps its dungeon cell.
            shown: list[int] = memo[_DUNGEON]
            dungeon = s.dungeon
            bases = self.space_base[seat]
            for space in range(DUNGEON_SPACES):
                if spaces >> space & 1 and shown[space] != dungeon[space]:
                    self._space(out, bases[space], shown[space], -1)
            for space in range(DUNGEON_SPACES):
                if spaces >> space & 1 and shown[space] != dungeon[space]:
                    self._space(out, bases[space], -1, dungeon[space])
                    shown[space] = dungeon[space]
        if spaces or armed:
            self._lanes(s, seat, out, memo, spaces, armed)

    def _lanes(self, s: MephistoState, seat: int, out: Buffer, memo: Memo, spaces: int, armed: bool) -> None:
        """The observer's lanes, each: the monsters' attack, the attack it would bring and what it
        lacks. A lane's monsters are counted again if one of its dungeon spaces is in ``spaces`` (a
        bit each), the attacks worked out again if ``armed`` (its weapons, their spells, its bonus or
        souls may have changed); a cell is written only if its number changed (the memo keeps them,
        zeros before the first write, as the zeroed buffer holds)."""
        old: list[int] | None = memo[_LANES]
        if old is None:
            old = memo[_LANES] = [0] * 9
        attacks = old[2], old[5], old[8]
        if armed:
            ctype = self.ctype
            crange = self.crange
            by_lane: tuple[list[int], ...] = ([], [], [], [])
            for w in s.inplay[seat]:
                if ctype[w] == WEAPON and 1 <= crange[w] <= 3:
                    by_lane[crange[w]].append(w)
            unarmed = -1
            found = [0, 0, 0]
            for lane in (1, 2, 3):
                weapons = by_lane[lane]
                if weapons:
                    found[lane - 1] = s.fight_attack(seat, weapons, 0)
                else:
                    if unarmed < 0:
                        unarmed = s.fight_attack(seat, weapons, 0)
                    found[lane - 1] = unarmed
            attacks = found[0], found[1], found[2]
        at = self.lanes_at
        masks = self.lane_masks[seat]
        for lane in (1, 2, 3):
            k = 3 * (lane - 1)
            need, mons = old[k], old[k + 1]
            if spaces & masks[lane]:
                ctype = self.ctype
                cattack = self.cattack
                dungeon = s.dungeon
                need = mons = 0
                for space in self.lane_spaces[seat][lane]:
                    card = dungeon[space]
                    if card >= 0 and ctype[card] == MONSTER:
                        need += cattack[card]
                        mons = 1
            attack = attacks[lane - 1]
            if need != old[k] or attack != old[k + 2] or mons != old[k + 1]:
                if need != old[k]:
                    out[at] = clip(need / 20.0)
                if attack != old[k + 2]:
                    out[at + 1] = clip(attack / 20.0)
                out[at + 2] = clip((need - attack) / 20.0) if mons and need > attack else 0.0
                old[k] = need
                old[k + 1] = mons
                old[k + 2] = attack
            at += 3

    def _fight(self, s: MephistoState, seat: int, out: Buffer, memo: Memo) -> None:
        n = self.players
        fighter = s.actor
        attack = s.fight_attack(fighter, s.fight_wpns, 0)
        need = 0
        cattack = self.cattack
        for m in s.fight_mons:
            need += cattack[m]
        key: FightKey = (
            fighter,
            need,
            attack,
            s.favor[fighter],
            tuple(s.fight_mons),
            tuple(s.fight_wpns),
        )
        old = memo[_FIGHT_SLOT]
        if key == old:
            return
        if old:
            self._clear_fight(out, old)
        f = self.fight_at
        out[f] = 1.0
        out[f + 1] = 1.0 if fighter == seat else 0.0
        out[f + 2] = clip(((fighter - seat) % n) / n)
        out[f + 3] = clip(need / 20.0)
        out[f + 4] = clip(attack / 20.0)
        out[f + 5] = clip(max(0, need - attack) / 20.0)
        out[f + 6] = clip(s.favor[fighter] / 20.0)
        for c in key[4]:
            out[self.c_fmon[c]] = 1.0
        for c in key[5]:
            out[self.c_fwpn[c]] = 1.0
        memo[_FIGHT_SLOT] = key

    def _clear_fight(self, out: Buffer, old: FightKey) -> None:
        f = self.fight_at
        for i in range(7):
            out[f + i] = 0.0
        for c in old[4]:
            out[self.c_fmon[c]] = 0.0
        for c in old[5]:
            out[self.c_fwpn[c]] = 0.0
