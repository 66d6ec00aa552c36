"""Mephisto's observer: :class:`~cardtable.rl.encode.mephisto.MephistoEncoder`'s vector from the state.

Reads :class:`~cardtable.games.mephisto.rules.MephistoState` the way
:mod:`cardtable.games.mephisto.views` builds a seat's view, and writes what the encoder reads from
that view: the seat's hand, other hands only where a card is publicly known to be there (the
``pub`` mask), the dungeon from the seat's side, every seat's numbers and cards in play, the seat's
lanes, the fight, the card resolving and progress through the deck.
"""

from __future__ import annotations

from itertools import chain
from typing import ClassVar, Final

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
from cardtable.rl.observe.base import Buffer, Memo, Observer, clip

_FIGHT = (P_MON, P_WPN, P_FAVOR)
Ints = tuple[int, ...]
PlayKey = tuple[tuple[Ints, ...], Ints, int, Ints, Ints]
"""Every seat's cards in play, their durabilities left (in that order), the activated mask, the spells
attached and their hosts."""
FightKey = tuple[int, int, int, int, Ints, Ints]
"""The fight: fighter, attack needed, attack, fighter's favor, monsters, weapons."""
# Memo slots (0 is the common block's).
_HAND: Final = 1
_DISCARD: Final = 2
_DUNGEON: Final = 3
_LANES: Final = 4
_FIGHT_SLOT: Final = 5
_RESOLVING: Final = 6
_PROGRESS: Final = 7
_ROWS: Final = 8
_KNOWN: Final = 9
_SOULS: Final = 10
_IN_PLAY: Final = 11
_RAW_ROWS: Final = 12
_PUB: Final = 13
_RAW_PLAY: Final = 14
_LANES_PLAY: Final = 15


class MephistoObserver(Observer):
    game_id: ClassVar[str] = "mephisto"

    def build(self) -> None:
        enc = self.encoder
        assert isinstance(enc, MephistoEncoder)
        g = self.game
        assert isinstance(g, Mephisto)
        n = self.players
        self.slots = _LANES_PLAY
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

    def fill(self, state: MephistoState, seat: int, out: Buffer, memo: Memo) -> None:
        s = state
        n = self.players
        cards = self.cards
        hand = s.hands[seat]
        if hand != memo[_HAND]:
            cards(out, self.c_hand, memo[_HAND], hand)
            memo[_HAND] = hand.copy()
        discard = s.discard
        if discard != memo[_DISCARD]:
            cards(out, self.c_discard, memo[_DISCARD], discard)
            memo[_DISCARD] = discard.copy()
        order = self.order[seat]  # seats from the observer: order[r] is the seat r places after it

        # Every seat's numbers. The precheck compares the state's own lists with copies of them (in C,
        # nothing built); only when one differs is the table's key built and compared row by row.
        # Which of the seats' hands, cards in play and souls changed is told apart, so that each
        # later section looks again only at what it reads.
        hands, inplay, souls = s.hands, s.inplay, s.souls
        raw_rows = memo[_RAW_ROWS]
        if raw_rows is None:
            numbers_changed = hands_changed = inplay_changed = souls_changed = True
        else:
            numbers_changed = raw_rows[0] != s.favor or raw_rows[1] != s.soul_pts or raw_rows[2] != s.bonus
            hands_changed = raw_rows[3] != hands
            inplay_changed = raw_rows[4] != inplay
            souls_changed = raw_rows[5] != souls
        if numbers_changed or hands_changed or inplay_changed or souls_changed:
            rows = tuple(
                zip(s.favor, s.soul_pts, map(len, hands), s.bonus, map(len, inplay), map(len, souls), strict=True)
            )
            old = memo[_ROWS]
            if rows != old:
                width = self.width
                for r, p in enumerate(order):
                    row = rows[p]
                    if old is not None and old[p] == row:
                        continue
                    base = self.players_at + r * width
                    out[base] = clip(row[0] / 20.0)
                    out[base + 1] = clip(row[1] / 20.0)
                    out[base + 2] = clip(row[2] / 10.0)
                    out[base + 3] = clip(row[3] / 5.0)
                    out[base + 4] = clip(row[4] / 5.0)
                    out[base + 5] = clip(row[5] / 10.0)
                    if old is None and self.teams and r and self.team_of[p] == self.team_of[seat]:
                        out[base + 6] = 1.0
                memo[_ROWS] = rows
            # Copies of what changed (the copies of the rest are kept).
            memo[_RAW_ROWS] = (
                s.favor.copy() if numbers_changed or raw_rows is None else raw_rows[0],
                s.soul_pts.copy() if numbers_changed or raw_rows is None else raw_rows[1],
                s.bonus.copy() if numbers_changed or raw_rows is None else raw_rows[2],
                [h.copy() for h in hands] if hands_changed or raw_rows is None else raw_rows[3],
                [c.copy() for c in inplay] if inplay_changed or raw_rows is None else raw_rows[4],
                [c.copy() for c in souls] if souls_changed or raw_rows is None else raw_rows[5],
            )

        # The cards publicly known to be in other hands (taken from the dungeon, announced): they
        # read pub and the other seats' hands alone (none alone at the table: the seat's own hand is
        # written whole above, and its known cards are not shown apart).
        pub = s.pub
        if n > 1 and (pub or memo[_KNOWN]) and (hands_changed or pub != memo[_PUB]):
            known = tuple([[c for c in hands[p] if pub >> c & 1] if pub else [] for p in order[1:]])
            old = memo[_KNOWN]
            if known != old:
                for r in range(1, n):
                    if old is None or known[r - 1] != old[r - 1]:
                        cards(out, self.c_known[r], old[r - 1] if old else None, known[r - 1])
                memo[_KNOWN] = known
        memo[_PUB] = pub

        # Souls: the monsters each seat defeated.
        soul_key = memo[_SOULS]
        if souls_changed or soul_key is None:
            soul_key = tuple(map(tuple, souls))
            old = memo[_SOULS]
            if soul_key != old:
                for r, p in enumerate(order):
                    if old is None or soul_key[p] != old[p]:
                        cards(out, self.c_souls[r], old[p] if old else None, soul_key[p])
                memo[_SOULS] = soul_key

        # Cards in play, the spells attached to weapons, and each card's state (durability left,
        # activated this turn): one section, so a card that changes hands keeps its row. Its precheck:
        # the cards in play (above), the durabilities, the activated mask, the spells and their hosts.
        attached = s.attached
        raw_play = memo[_RAW_PLAY]
        play_key = memo[_IN_PLAY]
        if (
            inplay_changed
            or raw_play is None
            or raw_play[0] != s.dur
            or raw_play[1] != s.activated
            or raw_play[2] != attached
            or raw_play[3] != s.host
        ):
            play_key = (
                tuple(map(tuple, inplay)),
                tuple(map(s.dur.__getitem__, chain.from_iterable(inplay))),
                s.activated,
                tuple(attached),
                tuple(map(s.host.__getitem__, attached)),
            )
            old = memo[_IN_PLAY]
            if play_key != old:
                self._in_play(out, seat, old, play_key)
                memo[_IN_PLAY] = play_key
            memo[_RAW_PLAY] = (s.dur.copy(), s.activated, attached.copy(), s.host.copy())
        assert play_key is not None

        # The dungeon from the observer's side.
        dungeon = s.dungeon
        old = memo[_DUNGEON]
        dungeon_changed = dungeon != old
        if dungeon_changed:
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
            memo[_DUNGEON] = dungeon.copy()

        # The observer's lanes: monsters' attack, the attack it would bring, favor to win all.
        # They read the dungeon and the observer's own weapons, spells, bonus and souls alone (not the
        # durabilities, activations or other seats' cards in play, which change more often).
        if (
            dungeon_changed
            or inplay_changed
            or souls_changed
            or numbers_changed
            or memo[_LANES] is None
            or memo[_RAW_PLAY] is not memo[_LANES_PLAY]
        ):
            key_lanes = (
                tuple(dungeon),
                play_key[0][seat],
                play_key[3],
                play_key[4],
                s.bonus[seat],
                tuple(souls[seat]),
            )
            if key_lanes != memo[_LANES]:
                self._lanes(s, seat, out)
                memo[_LANES] = key_lanes
            memo[_LANES_PLAY] = memo[_RAW_PLAY]

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

    def _in_play(self, out: Buffer, seat: int, old: PlayKey | None, new: PlayKey) -> None:
        """Every seat's cards in play as the view shows them: the cards, the spells attached to each
        weapon, each card's durability left and whether it was activated this turn."""
        state_at = self.state_at
        order = self.order[seat]
        ctype = self.ctype
        played, durability, activated, attached, hosts = new
        if old is not None and old[0] == played and old[3] == attached and old[4] == hosts:
            # The same cards in play and spells: only durabilities and activations changed (a card
            # activated or worn), written card by card where they differ.
            was_dur, was_act = old[1], old[2]
            changed = activated ^ was_act
            i = 0
            for p in range(self.players):
                for c in played[p]:
                    if durability[i] != was_dur[i]:
                        out[state_at + 2 * c] = clip(durability[i] / 4.0)
                    if changed >> c & 1:
                        out[state_at + 2 * c + 1] = 1.0 if activated >> c & 1 else 0.0
                    i += 1
            return
        if old is not None:
            for r, p in enumerate(order):
                col = self.c_in_play[r]
                for c in old[0][p]:
                    out[col[c]] = 0.0
                    out[state_at + 2 * c] = 0.0
                    out[state_at + 2 * c + 1] = 0.0
            for sp in old[3]:
                for col in self.c_attached:
                    out[col[sp]] = 0.0
        where: dict[int, int] = {}
        for r, p in enumerate(order):
            col = self.c_in_play[r]
            for c in played[p]:
                where[c] = r
                out[col[c]] = 1.0
        # The durabilities follow the cards in play seat by seat, as the key lists them.
        i = 0
        for p in range(self.players):
            for c in played[p]:
                out[state_at + 2 * c] = clip(durability[i] / 4.0)
                if activated >> c & 1:
                    out[state_at + 2 * c + 1] = 1.0
                i += 1
        for sp, host in zip(attached, hosts, strict=True):
            r_host = where.get(host)
            if r_host is not None and ctype[host] == WEAPON:
                out[self.c_attached[r_host][sp]] = 1.0

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
