"""Mephisto's observer: :class:`~cardtable.rl.encode.mephisto.MephistoEncoder`'s vector from the state.

Reads :class:`~cardtable.games.mephisto.rules.MephistoState` the way
:mod:`cardtable.games.mephisto.views` builds a seat's view, and writes what the encoder reads from
that view: the seat's hand, other hands only where a card is publicly known to be there (the
``pub`` mask), the dungeon from the seat's side, every seat's numbers and cards in play, the seat's
lanes, the fight, the card resolving and progress through the deck.
"""

from __future__ import annotations

from typing import ClassVar

from cardtable.games.mephisto.board import BLOCKED, DECK
from cardtable.games.mephisto.cards import MONSTER, WEAPON
from cardtable.games.mephisto.game import Mephisto
from cardtable.games.mephisto.rules import (
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
from cardtable.rl.observe import Buffer, Memo, Observer, clip

_FIGHT = (P_MON, P_WPN, P_FAVOR)
Ints = tuple[int, ...]
Play = tuple[Ints, Ints, Ints, Ints]
"""A seat's cards in play: the cards, their durability left, activated this turn, the spells attached."""
FightKey = tuple[int, int, int, int, Ints, Ints]
"""The fight: fighter, attack needed, attack, fighter's favor, monsters, weapons."""
# Memo slots (0 is the common block's): then four per seat, from _SEATS.
_HAND, _DISCARD, _DUNGEON, _LANES, _FIGHT_SLOT, _RESOLVING, _PROGRESS, _CARD_STATE = range(1, 9)
_SEATS = 9


class MephistoObserver(Observer):
    game_id: ClassVar[str] = "mephisto"

    def build(self) -> None:
        enc = self.encoder
        assert isinstance(enc, MephistoEncoder)
        g = self.game
        assert isinstance(g, Mephisto)
        n = self.players
        self.slots = _SEATS + 4 * n
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

    def fill(self, state: MephistoState, seat: int, out: Buffer, memo: Memo) -> None:
        s = state
        n = self.players
        hand = s.hands[seat]
        if hand != memo[_HAND]:
            self.cards(out, self.c_hand, memo[_HAND], hand)
            memo[_HAND] = hand.copy()
        discard = s.discard
        if discard != memo[_DISCARD]:
            self.cards(out, self.c_discard, memo[_DISCARD], discard)
            memo[_DISCARD] = discard.copy()

        # Every seat: its numbers, the cards known in its hand, its souls, its cards in play.
        pub = s.pub
        my_in_play: Play | tuple[()] = ()
        plays: list[Play] = []
        for p in range(n):
            r = (p - seat) % n
            slot = _SEATS + 4 * r
            in_play = s.inplay[p]
            souls = s.souls[p]
            others = s.hands[p]
            key = (s.favor[p], s.soul_pts[p], len(others), s.bonus[p], len(in_play), len(souls))
            old = memo[slot]
            if key != old:
                base = self.players_at + r * self.width
                out[base] = clip(key[0] / 20.0)
                out[base + 1] = clip(key[1] / 20.0)
                out[base + 2] = clip(key[2] / 10.0)
                out[base + 3] = clip(key[3] / 5.0)
                out[base + 4] = clip(key[4] / 5.0)
                out[base + 5] = clip(key[5] / 10.0)
                if old is None and self.teams and r and self.team_of[p] == self.team_of[seat]:
                    out[base + 6] = 1.0
                memo[slot] = key
            if r:
                known = [c for c in others if pub >> c & 1] if pub else []
                if known != memo[slot + 1] and (known or memo[slot + 1]):
                    self.cards(out, self.c_known[r], memo[slot + 1], known)
                    memo[slot + 1] = known
            if souls != memo[slot + 2] and (souls or memo[slot + 2]):
                self.cards(out, self.c_souls[r], memo[slot + 2], souls)
                memo[slot + 2] = souls.copy()
            old = memo[slot + 3]
            if in_play or old:
                play = self._in_play(s, in_play)
                if play != old:
                    self._write_in_play(out, r, old, play)
                    memo[slot + 3] = play
                if r == 0:
                    my_in_play = play
                plays.append(play)
        # The state of every card in play (its durability left, activated this turn), in one section:
        # a card that changes hands keeps its row.
        key_state = tuple(plays)
        old = memo[_CARD_STATE]
        if key_state != old and (key_state or old):
            state_at = self.state_at
            if old:
                for play in old:
                    for c in play[0]:
                        out[state_at + 2 * c] = 0.0
                        out[state_at + 2 * c + 1] = 0.0
            for play in key_state:
                for c, d, a in zip(play[0], play[1], play[2], strict=True):
                    out[state_at + 2 * c] = clip(d / 4.0)
                    if a:
                        out[state_at + 2 * c + 1] = 1.0
            memo[_CARD_STATE] = key_state

        # The dungeon from the observer's side.
        dungeon = tuple(s.dungeon)
        old = memo[_DUNGEON]
        if dungeon != old:
            c_dungeon = self.c_dungeon
            features = self.features
            picture = self.picture[seat]
            # Two passes: a card that moved from one space to another keeps its grid cell.
            for base, kind, space in picture:
                if kind == BLOCKED:
                    if old is None:
                        out[base + 10] = 1.0
                elif kind == DECK:
                    if old is None:
                        out[base + 11] = 1.0
                elif old is not None and old[space] != dungeon[space] and old[space] >= 0:
                    was = old[space]
                    out[c_dungeon[was]] = 0.0
                    for i, _ in features[was]:
                        out[base + i] = 0.0
            for base, _kind, space in picture:
                card = dungeon[space] if space >= 0 else -1
                if card >= 0 and (old is None or old[space] != card):
                    out[c_dungeon[card]] = 1.0
                    for i, x in features[card]:
                        out[base + i] = x
            memo[_DUNGEON] = dungeon

        # The observer's lanes: monsters' attack, the attack it would bring, favor to win all.
        key_lanes = (dungeon, my_in_play, s.bonus[seat], memo[_SEATS + 2])
        if key_lanes != memo[_LANES]:
            self._lanes(s, seat, out)
            memo[_LANES] = key_lanes

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

    def _in_play(self, s: MephistoState, in_play: list[int]) -> Play:
        """A seat's cards in play as the view shows them: the cards, each one's durability left and
        whether it was activated this turn, and the spells attached to its weapons."""
        dur = s.dur
        activated = s.activated
        host = s.host
        ctype = self.ctype
        attached = [sp for sp in s.attached if host[sp] in in_play and ctype[host[sp]] == WEAPON]
        return (
            tuple(in_play),
            tuple([dur[c] for c in in_play]),
            tuple([activated >> c & 1 for c in in_play]),
            tuple(attached),
        )

    def _write_in_play(self, out: Buffer, r: int, old: Play | None, new: Play) -> None:
        c_in_play, c_attached = self.c_in_play[r], self.c_attached[r]
        if old:
            for c in old[0]:
                out[c_in_play[c]] = 0.0
            for sp in old[3]:
                out[c_attached[sp]] = 0.0
        for c in new[0]:
            out[c_in_play[c]] = 1.0
        for sp in new[3]:
            out[c_attached[sp]] = 1.0

    def _lanes(self, s: MephistoState, seat: int, out: Buffer) -> None:
        ctype = self.ctype
        crange = self.crange
        cattack = self.cattack
        dungeon = s.dungeon
        by_lane: tuple[list[int], ...] = ([], [], [], [])
        for w in s.inplay[seat]:
            if ctype[w] == WEAPON and 1 <= crange[w] <= 3:
                by_lane[crange[w]].append(w)
        lane_spaces = self.lane_spaces[seat]
        unarmed = -1
        at = self.lanes_at
        for lane in (1, 2, 3):
            need = 0
            mons = False
            for space in lane_spaces[lane]:
                card = dungeon[space]
                if card >= 0 and ctype[card] == MONSTER:
                    need += cattack[card]
                    mons = True
            weapons = by_lane[lane]
            if weapons:
                attack = s.fight_attack(seat, weapons, 0)
            else:
                if unarmed < 0:
                    unarmed = s.fight_attack(seat, weapons, 0)
                attack = unarmed
            out[at] = clip(need / 20.0)
            out[at + 1] = clip(attack / 20.0)
            out[at + 2] = clip((need - attack) / 20.0) if mons and need > attack else 0.0
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
