"""Doctor Strange's observer: :class:`~cardtable.rl.encode.doctor_strange.DoctorStrangeEncoder`'s vector
from the state.

Reads :class:`~cardtable.games.doctor_strange.state.DSState` the way
:mod:`cardtable.games.doctor_strange.view` builds a seat's view: the seat's own hand, the opponent's
hand and the deck only where the seat's ``peek`` mask says it has seen a card (and the whole deck,
unordered, during its own Go Back in Time search), every public pile, the characters in play, the
attacks and the fight (a card of a past fight only while it is public), and progress to victory.

A buffer is written in full once per state (the first time a tracker sees it, or from a tracker that
last saw another state); from then on the change list the state keeps for it
(``DSBase.changes``, :mod:`cardtable.games.doctor_strange.changes`) says which cards entered or left
the seat's hand and the three public piles (their cells are written from it) and whether the table
changed (a character's numbers, the characters in play, what is attached), so no zone or table list
is compared. What the list does not cover is compared every time, as before: the phase, the zones of
known cards, the card on its way, the counts, the attacks, the fight and the victory counts.
"""

from __future__ import annotations

from itertools import compress, count
from operator import ne
from typing import ClassVar, Final

import numpy as np

from cardtable.games.doctor_strange import base as S
from cardtable.games.doctor_strange.changes import Z_CHAR, Z_DISCARD, Z_EXILED, Z_HAND, Z_KILLED, ZONES
from cardtable.games.doctor_strange.game import DoctorStrange
from cardtable.games.doctor_strange.state import DSState
from cardtable.games.doctor_strange.words import FATE_DONE, RULEBOOK_PHASE, STEP
from cardtable.rl.encode.doctor_strange import CHARACTER_FEATURES, DoctorStrangeEncoder
from cardtable.rl.observe.base import Buffer, Memo, Observer, clip

_FIGHTING = (S.EXCHANGE, S.HELPER)
_FEATURES = range(len(CHARACTER_FEATURES) - 1)
"""The positions of a character row's features after its "in play" cell (what ``_table`` writes)."""
_MINUS_ONE_LT = (-1).__lt__
"""``_MINUS_ONE_LT(h)``: ``h >= 0`` for an int ``h >= -1`` (a C-level predicate for ``map``)."""
_ROLE: Final = 1
_READ: Final = 2
"""The state's change list this buffer follows and how much of it is written in (a pair), or None."""
_SEEN_HAND: Final = 3
_SEEN_DECK: Final = 4
_PLAYING: Final = 5
_BITS: Final = 6
"""The table's bit masks this buffer shows: marked, attacked, and the helpers (while fighting)."""
_SEARCH: Final = 7
_COUNTS: Final = 8
_ATTACKS: Final = 9
_FIGHT: Final = 10
_VICTORY: Final = 11
_TABLE_ROWS: Final = 12
_TABLE_ATTACHED: Final = 13
_RAW_FIGHT: Final = 14
_RAW_PUBLIC: Final = 15
_RAW_ATTACKS: Final = 16
_ATTACK_LIST: Final = 17
_RAW_VICTORY: Final = 18
_RAW_SEEN: Final = 19
"""What the zones of known cards read: the seat's peek bits, the other hand and the stack (copies)."""
_VICTORY_TABLE: Final = 20
"""What the victory counts read of the table, and the counts: side, incap and cap (the state's own
tuples, which the rules replace whole on a change and never change, so an identity test tells whether
they changed), a copy of chars, and the seat's and the other side's counts made from them."""


Ints = tuple[int, ...]
IntList = list[int]
TableKey = tuple[IntList, Ints, Ints, Ints, Ints, Ints, Ints, int, int, int, IntList]
"""The characters in play: chars, side, owner, incap, ctl, cap, mpow, marked, attacked, helpers, att_on
(the state's own lists and tuples)."""
FightKey = tuple[bool, bool, int, int, int, int, int, int, int, Ints, Ints, int, int]
"""The fight as the view shows it: live, I attack, attacker roll, power, total, defender roll, power,
total, helpers, my Power cards, theirs, the Attack card (-1: not public), its fate."""


def _fifths() -> tuple[float, ...]:
    """``k`` times 0.2 added up in float32, as the encoder adds an attack's 0.2 to its vector."""
    out = [0.0]
    acc = np.float32(0.0)
    for _ in range(40):
        acc = np.float32(acc + np.float32(0.2))
        out.append(float(acc))
    return tuple(out)


class DoctorStrangeObserver(Observer):
    game_id: ClassVar[str] = "doctor-strange"

    def build(self) -> None:
        enc = self.encoder
        assert isinstance(enc, DoctorStrangeEncoder)
        g = self.game
        assert isinstance(g, DoctorStrange)
        self.slots = _VICTORY_TABLE
        grid = enc.cards
        self.n_cards = enc.n_cards
        self.col = {zone: self.column(grid.start + i, grid.n, enc.n_cards) for zone, i in grid.index.items()}
        self.role_at = enc.b_role.start
        # One-hot positions of the step and the rulebook phase, by the engine's phase code.
        self.step_at = {ph: enc.step.block.start + enc.step.index[words] for ph, words in STEP.items()}
        self.phase_at = {ph: enc.phase.block.start + enc.phase.index[words] for ph, words in RULEBOOK_PHASE.items()}
        self.char_row = {c: enc.b_chars.start + row * len(CHARACTER_FEATURES) for c, row in enc.char_row.items()}
        self.n_chars = max(1, len(enc.characters))
        self.counts_at = enc.b_counts.start
        self.attacks_at = enc.b_attacks.start
        self.fight_at = enc.b_fight.start
        self.fate_at = tuple(enc.fate.block.start + enc.fate.index[words] for words in FATE_DONE)
        self.victory_at = enc.b_victory.start
        self.good = int(g.good)
        self.chars = g.CHARS
        self.slot_of = g.SLOT
        self.fate = g.FATE
        self.rounds = bool(g.rounds)
        self.victory_from = float(g.victory_from) or 1.0
        self.turn_limit = float(g.turn_limit) or 1.0
        self.fifths = _fifths()
        assert g.NOTE[1][0] == 4 * g.N
        self.plans: list[list[tuple[int, int, int]] | None] = [None, None]

    def plan(self, seat: int) -> list[tuple[int, int, int]]:
        """What each change list entry, halved (its last bit says added or taken: ``game.NOTE``),
        means for ``seat``'s buffer: ``(what, cell, card)``, the entry's zone (``Z_HAND`` for this
        seat's own hand, -1 for the other's, which the buffer does not show), the card's cell in that
        zone's column (-1: none) and the card. Worked out once per seat, so an entry costs a lookup."""
        out = self.plans[seat]
        if out is None:
            columns = {Z_HAND: "my_hand", Z_DISCARD: "discard", Z_KILLED: "killed", Z_EXILED: "exiled"}
            out = []
            for z in range(ZONES):
                for s in (0, 1):
                    for c in range(self.n_cards):
                        if z == Z_HAND and s != seat:
                            out.append((-1, -1, c))
                        elif z in columns:
                            out.append((z, self.col[columns[z]][c], c))
                        else:
                            out.append((z, -1, c))
            self.plans[seat] = out
        return out

    def _zone(self, out: Buffer, memo: Memo, slot: int, zone: str, cards: list[int]) -> None:
        old = memo[slot]
        if cards != old:
            if cards or old:
                self.cards(out, self.col[zone], old, cards)
            memo[slot] = list(cards)  # an empty zone too: its comparison (before the call) then holds

    def fill(self, state: DSState, seat: int, out: Buffer, memo: Memo) -> None:
        st = state
        other = 1 - seat
        read = self._followed(st, seat, out, memo, _READ)
        # What the change list says changed since this buffer's last update (all of it, the first time):
        # the piles, the table (and which characters in it, None: all), what is attached.
        piles_changed = table_changed = chars_changed = True
        noted: set[int] | None = None
        if read is None:  # a zeroed buffer: the zones from the state, then follow its change list
            for zone, cards in (("my_hand", st.hands[seat]), ("discard", st.discard)):
                column = self.col[zone]
                for c in cards:
                    out[column[c]] = 1.0
            for zone, cards in (("killed", st.killed), ("exiled", st.exiled)):
                column = self.col[zone]
                for c in cards:
                    out[column[c]] = 1.0
            self._follow(st, memo, _READ)
        else:
            log: list[int] = read[0]
            end = len(log)
            piles_changed = table_changed = chars_changed = False
            noted = set()
            if read[1] != end:
                plan = self.plans[seat]
                if plan is None:
                    plan = self.plan(seat)
                for i in range(read[1], end):
                    e = log[i]
                    what, cell, card = plan[e >> 1]
                    if cell >= 0:  # a card into or out of the seat's hand or a public pile
                        out[cell] = 1.0 if e & 1 else 0.0
                        piles_changed = piles_changed or what != Z_HAND
                    elif what == Z_CHAR:  # a character's row
                        noted.add(card)
                        table_changed = chars_changed = True
                    elif what > Z_CHAR:  # what is attached
                        table_changed = chars_changed = True
                memo[_READ] = (log, end)
        over = st.is_over
        ph = st.phase
        base_phase = -1
        if not over:
            base_phase = st.xret if ph == S.XANY else st.ret if ph in (S.NEGATE, S.TAKE) else ph
            if base_phase == S.XANY:
                base_phase = st.xret
        key = (not over and st.active == seat, S.OVER if over else ph, base_phase)
        old = memo[_ROLE]
        if key != old:
            if old is None:
                out[self.role_at] = 1.0 if seat == self.good else 0.0
            else:
                out[self.step_at[old[1]]] = 0.0
                at = self.phase_at.get(old[2])
                if at is not None:
                    out[at] = 0.0
            out[self.role_at + 1] = 1.0 if key[0] else 0.0
            out[self.step_at[key[1]]] = 1.0
            at = self.phase_at.get(base_phase)
            if at is not None:
                out[at] = 1.0
            memo[_ROLE] = key

        # The zones of known cards, and the deck searched, are mostly empty and stay so: compared first.
        bits = st.peek[seat]
        raw_seen = memo[_RAW_SEEN]
        if (bits or memo[_SEEN_HAND] or memo[_SEEN_DECK]) and (
            raw_seen is None or raw_seen[0] != bits or raw_seen[1] != st.hands[other] or raw_seen[2] != st.stack
        ):
            memo[_RAW_SEEN] = (bits, st.hands[other].copy(), st.stack.copy())
            self._zone(
                out, memo, _SEEN_HAND, "their_hand_seen", [c for c in st.hands[other] if bits >> c & 1] if bits else []
            )
            self._zone(out, memo, _SEEN_DECK, "deck_seen", [c for c in st.stack if bits >> c & 1] if bits else [])
        playing = st.pending if st.pending >= 0 else st.evcard
        if playing >= 0 or memo[_PLAYING]:
            self._zone(out, memo, _PLAYING, "being_played", [playing] if playing >= 0 else [])
        searching = ph == S.TAKE and st.current_player == seat
        if searching or memo[_SEARCH]:
            self._zone(out, memo, _SEARCH, "deck_searched", st.stack + st.pool if searching else [])

        # The characters in play, their attachments and state: worked out again after a change list
        # entry of the table, or a change of the three bit masks (not in the list: compared here).
        helpers = st.helpers if ph in _FIGHTING else 0
        table_bits = (st.marked, st.attacked, helpers)
        old_bits = memo[_BITS]
        if table_bits != old_bits:
            table_changed = True
            memo[_BITS] = table_bits
            if noted is not None and old_bits is not None:
                # The characters whose slot's bit changed (the slots' bits: game.SLOT).
                flipped = (st.marked ^ old_bits[0]) | (st.attacked ^ old_bits[1]) | (helpers ^ old_bits[2])
                chars = self.chars
                while flipped:
                    low = flipped & -flipped
                    noted.add(chars[low.bit_length() - 1])
                    flipped ^= low
            else:
                noted = None
        if table_changed:
            table: TableKey = (
                st.chars,
                st.side,
                st.owner,
                st.incap,
                st.ctl,
                st.cap,
                st.mpow,
                st.marked,
                st.attacked,
                helpers,
                st.att_on,
            )
            self._table(out, seat, memo, table, noted)

        n = self.n_cards
        counts = (
            len(st.hands[seat]),
            len(st.hands[other]),
            len(st.stack) + len(st.pool),
            len(st.discard),
            len(st.killed),
            len(st.exiled),
        )
        old_counts = memo[_COUNTS]
        if counts != old_counts:
            # Only the numbers that changed are written (mostly one or two of the six).
            c0 = self.counts_at
            if old_counts is None or counts[0] != old_counts[0]:
                out[c0] = clip(counts[0] / 10.0)
            if old_counts is None or counts[1] != old_counts[1]:
                out[c0 + 1] = clip(counts[1] / 10.0)
            if old_counts is None or counts[2] != old_counts[2]:
                out[c0 + 2] = clip(counts[2] / n)
            if old_counts is None or counts[3] != old_counts[3]:
                out[c0 + 3] = clip(float(counts[3]) / n)
            if old_counts is None or counts[4] != old_counts[4]:
                out[c0 + 4] = clip(float(counts[4]) / self.n_chars)
            if old_counts is None or counts[5] != old_counts[5]:
                out[c0 + 5] = clip(float(counts[5]) / self.n_chars)
            memo[_COUNTS] = counts

        # Which cards are public (_public) reads chars and att_on, the card on its way (pending) and
        # the three piles (compared above): did any change since last time?
        public_changed = chars_changed or piles_changed or memo[_RAW_PUBLIC] != st.pending
        memo[_RAW_PUBLIC] = st.pending

        # This turn's attacks: done, waiting, being fought, being declared; their Attack cards. Worked
        # out only when the attacks, the phase or what is public changed.
        att = st.attacks
        # The phase counts only as fighting or declaring (what _attacks reads of it).
        raw_attacks = (ph in _FIGHTING, ph == S.TARGET or ph == S.WEAPON, st.ares)
        # (What is public matters only to attacks there are.)
        if (public_changed and att) or raw_attacks != memo[_RAW_ATTACKS] or att != memo[_ATTACK_LIST]:
            memo[_RAW_ATTACKS] = raw_attacks
            memo[_ATTACK_LIST] = att
            self._attacks(st, out, memo)

        # The fight's key is dear to work out (the helpers, which cards are public): a precheck of
        # everything it reads, the state's own lists against copies, comes first (the powers, mpow,
        # by identity: the rules replace that tuple on a change).
        fight = st.fight
        raw = memo[_RAW_FIGHT]
        again = (
            raw is None
            or raw[0] != fight
            or (
                fight
                and (
                    raw[1] != (st.ra, st.rd, st.ba, st.bd, st.helpers)
                    or raw[2] != st.fhelp
                    or raw[3] != st.fpa
                    or raw[4] != st.fpd
                    or raw[5] is not st.mpow
                    or chars_changed
                )
            )
        )
        if not again and fight and public_changed:
            # Only the piles or the card on its way changed: of the key, only which of the fight's
            # cards are public can differ (the helpers and powers read chars and mpow, unchanged).
            old = memo[_FIGHT]
            public = self._public
            w = fight[2]
            again = old is None or (
                old[9] != tuple([c for c in st.fpa if public(st, c)])
                or old[10] != tuple([c for c in st.fpd if public(st, c)])
                or old[11] != (w if public(st, w) else -1)
            )
        if again:
            key_fight = self._fight_key(st, seat) if fight else None
            old = memo[_FIGHT]
            if key_fight != old:
                self._fight(out, old, key_fight)
                memo[_FIGHT] = key_fight
            memo[_RAW_FIGHT] = (
                fight,
                (st.ra, st.rd, st.ba, st.bd, st.helpers),
                st.fhelp,
                st.fpa,
                st.fpd,
                st.mpow,
            )

        # Victory reads the table, the turn and the streaks.
        raw_victory = (st.turn, st.streak[seat], st.streak[other])
        if table_changed or raw_victory != memo[_RAW_VICTORY]:
            memo[_RAW_VICTORY] = raw_victory
            self._victory(st, seat, out, memo)

    def _victory(self, st: DSState, seat: int, out: Buffer, memo: Memo) -> None:
        other = 1 - seat
        count = (st.turn + 1) // 2 if self.rounds else st.turn
        side, incap, cap = st.side, st.incap, st.cap
        # The counts read chars, side, incap and cap: they are counted again only if one of those
        # changed (the three tuples by identity; the table also changes its power, marks, attacks and
        # helpers, which the counts do not read).
        seen = memo[_VICTORY_TABLE]
        if seen is not None and seen[0] is side and seen[1] is incap and seen[2] is cap and seen[3] == st.chars:
            mine_v, theirs_v = seen[4], seen[5]
        else:
            mine_v = theirs_v = 0
            slot = self.slot_of
            for c in st.chars:
                s = slot[c]
                if not incap[s] and cap[s] < 0:
                    if side[s] == seat:
                        mine_v += 1
                    elif side[s] == other:
                        theirs_v += 1
            memo[_VICTORY_TABLE] = (side, incap, cap, st.chars.copy(), mine_v, theirs_v)
        victory = (st.turn, mine_v, theirs_v, st.streak[seat], st.streak[other])
        if victory != memo[_VICTORY]:
            v = self.victory_at
            out[v] = clip(count / self.victory_from)
            out[v + 1] = 1.0 if count >= self.victory_from else 0.0
            out[v + 2] = clip(mine_v / 5.0)
            out[v + 3] = clip(theirs_v / 5.0)
            out[v + 4] = clip(victory[3] / 2.0)
            out[v + 5] = clip(victory[4] / 2.0)
            out[v + 6] = clip(st.turn / self.turn_limit)
            memo[_VICTORY] = victory

    def _attacks(self, st: DSState, out: Buffer, memo: Memo) -> None:
        """This turn's attacks: done, waiting, being fought, being declared; their Attack cards."""
        ph = st.phase
        att = st.attacks
        done = waiting = 0
        fought = False
        cards: list[int] = []
        if att:
            fighting = ph in _FIGHTING
            ares = st.ares
            for k, i in enumerate(range(0, len(att), 3)):
                if k < ares:
                    done += 1
                elif k == ares and fighting:
                    fought = True
                else:
                    waiting += 1
                card = att[i + 2]
                if self._public(st, card):
                    cards.append(card)
        declaring = ph in (S.TARGET, S.WEAPON)
        attacks = (done, waiting, fought, declaring, cards)
        old = memo[_ATTACKS]
        if attacks != old:
            a0 = self.attacks_at
            out[a0] = clip(self.fifths[min(done, 40)])
            out[a0 + 1] = clip(self.fifths[min(waiting, 40)])
            out[a0 + 2] = 1.0 if fought else 0.0
            out[a0 + 3] = 1.0 if declaring else 0.0
            self.cards(out, self.col["declared_attack"], old[4] if old else None, cards)
            memo[_ATTACKS] = attacks

    def _table(self, out: Buffer, seat: int, memo: Memo, key: TableKey, only: set[int] | None) -> None:
        """The characters in play (rows and cells) and their attachments: worked out per character
        (every one, or those in ``only``: the others are known unchanged) and per attachment, and only
        what differs from last time written."""
        chars, side, owner, incap, ctl, cap, mpow, marked, attacked, helpers, att_on = key
        slot = self.slot_of
        # Each character's row is worked out again only when what it reads changed: the memo keeps,
        # per character, those numbers and the row made from them.
        old_rows: dict[int, tuple[Ints, tuple[float, ...]]] = memo[_TABLE_ROWS] or {}
        rows: dict[int, tuple[Ints, tuple[float, ...]]]
        if only is None:
            rows = {}
            consider: list[int] = chars
            gone_now = [c for c in old_rows if c not in chars]
        else:
            rows = old_rows.copy()
            consider = [c for c in only if c in chars]
            gone_now = [c for c in only if c in old_rows and c not in chars]
            for c in gone_now:
                del rows[c]
        sides_changed = False
        for c in consider:
            s = slot[c]
            raw = (
                side[s],
                owner[s],
                mpow[s],
                incap[s],
                ctl[s],
                cap[s],
                marked >> s & 1,
                attacked >> s & 1,
                helpers >> s & 1,
            )
            known = old_rows.get(c)
            if known is not None and known[0] == raw:
                rows[c] = known
                continue
            if known is None or known[0][0] != raw[0]:
                sides_changed = True
            rows[c] = (
                raw,
                (
                    1.0 if side[s] == seat else 0.0,
                    1.0 if owner[s] == seat else 0.0,
                    clip(mpow[s] / 10.0),
                    1.0 if side[s] >= 0 and not incap[s] and cap[s] < 0 else 0.0,
                    1.0 if incap[s] else 0.0,
                    1.0 if ctl[s] >= 0 else 0.0,
                    1.0 if cap[s] >= 0 else 0.0,
                    1.0 if raw[6] else 0.0,
                    1.0 if raw[7] else 0.0,
                    1.0 if raw[8] else 0.0,
                ),
            )
        col = self.col
        mine_col, theirs_col = col["in_play_mine"], col["in_play_theirs"]
        att_mine, att_theirs = col["attached_mine"], col["attached_theirs"]
        width = len(CHARACTER_FEATURES)
        for c in gone_now:
            gone = old_rows[c][1]
            sides_changed = True
            out[(mine_col if gone[0] else theirs_col)[c]] = 0.0
            row = self.char_row.get(c)
            if row is not None:
                for i in range(width):
                    out[row + i] = 0.0
        for c in consider:
            now = rows[c][1]
            seen = old_rows.get(c)
            if seen is not None and seen[1] == now:
                continue
            was: tuple[float, ...] | None = seen[1] if seen is not None else None
            if was is not None and was[0] != now[0]:
                out[(mine_col if was[0] else theirs_col)[c]] = 0.0
            out[(mine_col if now[0] else theirs_col)[c]] = 1.0
            row = self.char_row.get(c)
            if row is None:
                continue
            out[row] = 1.0
            if was is None:
                for i, value in enumerate(now):
                    out[row + 1 + i] = value
            else:
                # Only the features that changed (compared in C: mostly one or two of ten).
                for i in compress(_FEATURES, map(ne, was, now)):
                    out[row + 1 + i] = now[i]
        memo[_TABLE_ROWS] = rows
        # The attachments read ``att_on`` and which side their characters are on.
        old = memo[_TABLE_ATTACHED]
        if old is not None and not sides_changed and old[0] == att_on:
            return
        attached = {
            a: rows[att_on[a]][1][0] for a in compress(count(), map(_MINUS_ONE_LT, att_on)) if att_on[a] in rows
        }
        old_attached: dict[int, float] = old[1] if old is not None else {}
        for a, was_mine in old_attached.items():
            if attached.get(a) != was_mine:
                out[(att_mine if was_mine else att_theirs)[a]] = 0.0
        for a, mine in attached.items():
            if old_attached.get(a) != mine:
                out[(att_mine if mine else att_theirs)[a]] = 1.0
        memo[_TABLE_ATTACHED] = (att_on.copy(), attached)

    @staticmethod
    def _public(st: DSState, card: int) -> bool:
        """Whether ``card`` is public (``known_cards(None)``): in play, attached, in a public pile or
        on its way to a character. A past attack's or fight's card shuffled back is not shown."""
        return (
            card in st.chars
            or st.att_on[card] >= 0
            or card == st.pending
            or card in st.discard
            or card in st.killed
            or card in st.exiled
        )

    def _fight_key(self, st: DSState, seat: int) -> FightKey:
        """The fight being resolved, or the last one: what the view shows of it, as a key."""
        slot = self.slot_of
        a, t, w, _turn, outcome, apow, dpow, attacker = st.fight
        live = outcome < 0
        if live:
            apow, dpow = st.mpow[slot[a]], st.mpow[slot[t]]
            helpers = 0
            help_power = 0
            h = st.helpers
            for c in st.chars:
                if h >> slot[c] & 1:
                    helpers += 1
                    help_power += st.mpow[slot[c]]
        else:
            fhelp = st.fhelp
            helpers = len(fhelp) // 2
            help_power = sum(fhelp[i + 1] for i in range(0, len(fhelp), 2))
        atk = st.ra + apow + st.ba
        dfn = st.rd + dpow + st.bd + help_power
        public = self._public
        return (
            live,
            attacker == seat,
            st.ra,
            apow,
            atk,
            st.rd,
            dpow,
            dfn,
            helpers,
            tuple([c for c in st.fpa if public(st, c)]),
            tuple([c for c in st.fpd if public(st, c)]),
            w if public(st, w) else -1,
            self.fate[w],
        )

    def _fight(self, out: Buffer, old: FightKey | None, key: FightKey | None) -> None:
        col = self.col
        mine_col, theirs_col, card_col = col["fight_power_mine"], col["fight_power_theirs"], col["fight_attack_card"]
        f = self.fight_at
        if old:
            for c in old[9]:
                out[mine_col[c]] = 0.0
                out[theirs_col[c]] = 0.0
            for c in old[10]:
                out[mine_col[c]] = 0.0
                out[theirs_col[c]] = 0.0
            if old[11] >= 0:
                out[card_col[old[11]]] = 0.0
            out[self.fate_at[old[12]]] = 0.0
            for i in range(11):
                out[f + i] = 0.0
        if key is None:
            return
        live, i_attack, ra, apow, atk, rd, dpow, dfn, helpers, fpa, fpd, w, fate = key
        out[f] = 1.0
        out[f + 1] = 1.0 if live else 0.0
        out[f + 2] = 1.0 if i_attack else 0.0
        out[f + 3] = clip(ra / 12.0)
        out[f + 4] = clip(apow / 20.0)
        out[f + 5] = clip(atk / 40.0)
        out[f + 6] = clip(rd / 12.0)
        out[f + 7] = clip(dpow / 20.0)
        out[f + 8] = clip(dfn / 40.0)
        out[f + 9] = clip(float(helpers) / 3.0)
        lead = float(atk - dfn)
        out[f + 10] = clip((lead if i_attack else -lead) / 20.0, -1.0, 1.0)
        mine, theirs = (mine_col, theirs_col) if i_attack else (theirs_col, mine_col)
        for c in fpa:
            out[mine[c]] = 1.0
        for c in fpd:
            out[theirs[c]] = 1.0
        if w >= 0:
            out[card_col[w]] = 1.0
        out[self.fate_at[fate]] = 1.0
