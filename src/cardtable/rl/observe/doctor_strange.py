"""Doctor Strange's observer: :class:`~cardtable.rl.encode.doctor_strange.DoctorStrangeEncoder`'s vector
from the state.

Reads :class:`~cardtable.games.doctor_strange.state.DSState` the way
:mod:`cardtable.games.doctor_strange.view` builds a seat's view: the seat's own hand, the opponent's
hand and the deck only where the seat's ``peek`` mask says it has seen a card (and the whole deck,
unordered, during its own Go Back in Time search), every public pile, the characters in play, the
attacks and the fight (a card of a past fight only while it is public), and progress to victory.
"""

from __future__ import annotations

from itertools import compress, count
from operator import ne
from typing import ClassVar, Final

import numpy as np

from cardtable.games.doctor_strange import base as S
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
_HAND: Final = 2
_SEEN_HAND: Final = 3
_SEEN_DECK: Final = 4
_PLAYING: Final = 5
_DISCARD: Final = 6
_KILLED: Final = 7
_EXILED: Final = 8
_SEARCH: Final = 9
_TABLE: Final = 10
_COUNTS: Final = 11
_ATTACKS: Final = 12
_FIGHT: Final = 13
_VICTORY: Final = 14
_TABLE_ROWS: Final = 15
_TABLE_ATTACHED: Final = 16
_RAW_FIGHT: Final = 17
_RAW_PUBLIC: Final = 18
_RAW_ATTACKS: Final = 19
_ATTACK_LIST: Final = 20
_RAW_VICTORY: Final = 21
_SEEN: Final = 22
"""The ``marks`` list of the state this buffer last observed (its identity) and its table mark then."""
_RAW_SEEN: Final = 23
"""What the zones of known cards read: the seat's peek bits, the other hand and the stack (copies)."""
_VICTORY_TABLE: Final = 24
"""What the victory counts read of the table, and the counts: side, incap and cap (the state's own
tuples, which the rules replace whole on a change and never change, so an identity test tells whether
they changed), a copy of chars, and the seat's and the other side's counts made from them."""


Ints = tuple[int, ...]
IntList = list[int]
TableKey = tuple[IntList, Ints, Ints, Ints, Ints, Ints, Ints, int, int, int, IntList]
"""The characters in play: chars, side, owner, incap, ctl, cap, mpow, marked, attacked, helpers, att_on
(the state's own lists and tuples; in a memo, copies of the lists and the tuples themselves, which the
rules replace whole and never change)."""
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
        self.slot_of = g.SLOT
        self.fate = g.FATE
        self.rounds = bool(g.rounds)
        self.victory_from = float(g.victory_from) or 1.0
        self.turn_limit = float(g.turn_limit) or 1.0
        self.fifths = _fifths()

    def _zone(self, out: Buffer, memo: Memo, slot: int, zone: str, cards: list[int]) -> None:
        old = memo[slot]
        if cards != old:
            if cards or old:
                self.cards(out, self.col[zone], old, cards)
            memo[slot] = list(cards)  # an empty zone too: its comparison (before the call) then holds

    def fill(self, state: DSState, seat: int, out: Buffer, memo: Memo) -> None:
        st = state
        other = 1 - seat
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

        # Each zone's list is compared here first (in C), to call _zone only for a zone that changed;
        # the zones of known cards, and the deck searched, are mostly empty and stay so.
        hand = st.hands[seat]
        if hand != memo[_HAND]:
            self._zone(out, memo, _HAND, "my_hand", hand)
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
        # The three public piles: whether they changed is kept for what is public (below).
        piles_changed = False
        if st.discard != memo[_DISCARD]:
            self._zone(out, memo, _DISCARD, "discard", st.discard)
            piles_changed = True
        if st.killed != memo[_KILLED]:
            self._zone(out, memo, _KILLED, "killed", st.killed)
            piles_changed = True
        if st.exiled != memo[_EXILED]:
            self._zone(out, memo, _EXILED, "exiled", st.exiled)
            piles_changed = True
        searching = ph == S.TAKE and st.current_player == seat
        if searching or memo[_SEARCH]:
            self._zone(out, memo, _SEARCH, "deck_searched", st.stack + st.pool if searching else [])

        # The characters in play, their attachments and state.
        helpers = st.helpers if ph in _FIGHTING else 0
        # The key holds the state's own lists, compared in C with the copies kept last time (nothing
        # is built unless something changed).
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
        # The table's mark (DSBase.marks): the rules bump ``marks[0]`` whenever they change the lists
        # of the table (not the three bit masks, compared here). The same mark on this very state
        # (known by its ``marks`` list, which no other state shares and the memo holds) means the
        # lists are the ones copied last time: the comparison is skipped. Any other state goes
        # through it, as a first observation does.
        marks = st.marks
        seen = memo[_SEEN]
        if seen is not None and seen[0] is marks and seen[1] == marks[0]:
            old_table = memo[_TABLE]
            table_changed = old_table[7] != st.marked or old_table[8] != st.attacked or old_table[9] != helpers
        else:
            table_changed = table != memo[_TABLE]
        memo[_SEEN] = (marks, marks[0])
        # What is public (_public) reads two lists of the table, chars and att_on, not its numbers.
        chars_changed = False
        if table_changed:
            old_table = memo[_TABLE]
            chars_changed = old_table is None or old_table[0] != st.chars or old_table[10] != st.att_on
            self._table(out, seat, memo, table)
            memo[_TABLE] = (
                st.chars.copy(),
                st.side,
                st.owner,
                st.incap,
                st.ctl,
                st.cap,
                st.mpow,
                st.marked,
                st.attacked,
                helpers,
                st.att_on.copy(),
            )

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

    def _table(self, out: Buffer, seat: int, memo: Memo, key: TableKey) -> None:
        """The characters in play (rows and cells) and their attachments: worked out per character
        and per attachment, and only what differs from last time written."""
        chars, side, owner, incap, ctl, cap, mpow, marked, attacked, helpers, att_on = key
        slot = self.slot_of
        # Each character's row is worked out again only when what it reads changed: the memo keeps,
        # per character, those numbers and the row made from them.
        old_rows: dict[int, tuple[Ints, tuple[float, ...]]] = memo[_TABLE_ROWS] or {}
        rows: dict[int, tuple[Ints, tuple[float, ...]]] = {}
        sides_changed = False
        for c in chars:
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
        for c, (_, gone) in old_rows.items():
            if c not in rows:
                sides_changed = True
                out[(mine_col if gone[0] else theirs_col)[c]] = 0.0
                row = self.char_row.get(c)
                if row is not None:
                    for i in range(width):
                        out[row + i] = 0.0
        for c, (_, now) in rows.items():
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
