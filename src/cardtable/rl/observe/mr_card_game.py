"""Mr. Card Game's observer: :class:`~cardtable.rl.encode.mr_card_game.MrCardGameEncoder`'s vector from
the state.

Reads :class:`~cardtable.games.mr_card_game.state.McgState` the way
:mod:`cardtable.games.mr_card_game.views` builds a seat's view: cards with ids where they lie in
public (the map's tops, the Heap, the trainer, display cases, escrow, skills, quests, the Tower,
removed cards, the middle), the seat's own face-down Mr. Store cards and others' only where revealed
(``pub``), stat cards as counts by kind (the seat's own hand and deck; for every seat what hand and
deck hold together, which is public), the phase, the map, every seat's numbers, the combat with the
acting player's score against each target, and the March.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any, ClassVar, Final

import numpy as np

from cardtable.games.mr_card_game.cards import K_BOSS, S_BUFF, S_COMBAT, S_NONCOMBAT, STAT_KINDS
from cardtable.games.mr_card_game.codes import (
    D_BLOCK,
    D_CHOOSE,
    D_CLASS,
    D_COMBAT,
    D_CURE,
    D_DISCARD,
    D_LIMIT,
    D_MANEUVER,
    D_NONCOMBAT,
    D_PERM,
    D_POLL,
    D_SIDE,
    D_SPELLX,
    D_TARGET,
    D_UPGRADE,
    M_MARCH,
    NO_LIMIT,
    ST_COMBAT,
    ST_MANEUVER,
    ST_TARGET,
)
from cardtable.games.mr_card_game.game import MrCardGame
from cardtable.games.mr_card_game.state import McgState
from cardtable.rl.encode.mr_card_game import MAP_FEATURES, PHASES, PLAYER_FEATURES, MrCardGameEncoder
from cardtable.rl.observe.base import Buffer, Memo, Observer, clip

_COMBAT_PHASES = (D_COMBAT, D_MANEUVER, D_TARGET, D_BLOCK)
_COMBAT_INSTANTS = (D_SPELLX, D_CHOOSE, D_UPGRADE, D_CURE)
_COMBAT_STEPS = (ST_COMBAT, ST_MANEUVER, ST_TARGET)
_NONCOMBAT: Final = 0
_COMBAT: Final = 1
_END: Final = 2
_POLL: Final = 3
_OVER: Final = 4
assert PHASES == ("non-combat phase", "combat phase", "end of turn", "the March poll", "game over")
_HEAP: Final = 1
_TRAINER: Final = 2
_NEMESIS: Final = 3
_QUESTS: Final = 4
_TOWER: Final = 5
_REMOVED: Final = 6
_MIDDLE: Final = 7
_STORE: Final = 8
_SKILL_DISCARD: Final = 9
_PAYING: Final = 10
_MY_HAND: Final = 11
_MY_DECK: Final = 12
_PILES: Final = 13
_FLAGS: Final = 14
_ROUNDS: Final = 15
_MAP: Final = 16
_CARD_STATE: Final = 17
_COMBAT_SLOT: Final = 18
_MARCH: Final = 19
_RAW_COMBAT: Final = 20
_SEEN: Final = 21
"""The ``marks`` list of the state this buffer last observed (its identity) and a copy of it then."""
_RAW_TABLE: Final = 22
_RAW_MAP: Final = 23
"""Copies of the state's ``top`` and ``below`` lists when the map was last keyed."""
_RAW_CROSS: Final = 24
"""What every seat's ``_CROSS`` numbers read (out of the March, the certificate, the acting player and
mojo, the game over) when they were last written."""
_SEATS: Final = 25
_ROW: Final = 0
_NEGATIVE: Final = 1
_CLASS: Final = 2
_STORE_KNOWN: Final = 3
_DISPLAY: Final = 4
_SKILLS: Final = 5
_ESCROW: Final = 6
_PLAYED: Final = 7
_DISCARD: Final = 8
_HAND_DECK: Final = 9
_RAW_LASTING: Final = 10
_RAW_STORE: Final = 11
_CROSS: Final = 12
"""A seat's numbers that other seats' moves change too: out of the March, the certificate, mojo."""
_PER_SEAT: Final = 13
_KINDS: Final = len(STAT_KINDS)
"""Stat kinds (``mus1``..``mox4``), by kind code."""
Ints = tuple[int, ...]
CardState = tuple[int, int, int, list[Ints], list[Ints], int, int]
"""Equipped, used and buff masks, every seat's display case and skills; the cards whose first cell
(equipped) and second cell (used, or an active buff) are 1, as bit masks over card ids."""
CombatKey = tuple[bool, int, int, int, int, tuple[int, int] | None, int, Ints]
"""The combat: mine, cards played, damage, power reduction, targets beaten, (score, needed) against the
Sorceress in the March, the maneuver, the targets."""
_ROW_AT: Final = (0, 4, 5, 6, 7, 8, 9, 10, 11)
_ROW_SCALE: Final = (20.0, 10.0, 20.0, 40.0, 10.0, 5.0, 5.0, 5.0, 5.0)
"""Where in a seat's row, and over what, the numbers of its key go: meat, hand, deck, stat total,
kills, the four bonuses."""
_KIND_VALUES = tuple(int(kind[-1]) for kind in STAT_KINDS)
"""Each stat kind's value (``mus3``: 3)."""


def _thirds() -> tuple[float, ...]:
    """``k`` times 1/3 added up in float32, as the encoder adds each beaten target to its vector."""
    out = [0.0]
    acc = np.float32(0.0)
    for _ in range(40):
        acc = np.float32(acc + np.float32(1.0 / 3.0))
        out.append(float(acc))
    return tuple(out)


def _held(piles: list[tuple[int, ...]], bit: tuple[int, ...]) -> int:
    """The bit mask of every card in ``piles`` (``bit[x]``: card ``x``'s bit)."""
    mask = 0
    for pile in piles:
        for x in pile:
            mask |= bit[x]
    return mask


def _write_changed_bits(out: Buffer, cells: tuple[int, ...], bit: tuple[int, ...], now: int, was: int) -> None:
    """Set ``out[cells[x]]`` to card ``x``'s bit in ``now`` for every card whose bit differs from
    ``was`` (the other cells already hold what ``was`` says; ``bit[x]``: card ``x``'s bit)."""
    changed = now ^ was
    while changed:
        x = changed.bit_length() - 1
        out[cells[x]] = 1.0 if now >> x & 1 else 0.0
        changed ^= bit[x]


class MrCardGameObserver(Observer):
    game_id: ClassVar[str] = "mr-card-game"

    def build(self) -> None:
        enc = self.encoder
        assert isinstance(enc, MrCardGameEncoder)
        g = self.game
        assert isinstance(g, MrCardGame)
        n = self.players
        self.slots = _SEATS + _PER_SEAT * n
        grid = enc.cards
        self.n_cards = enc.n_cards
        self.col = {zone: self.column(grid.start + i, grid.n, enc.n_cards) for zone, i in grid.index.items()}
        self.c_seat = {
            kind: [self.col[f"{kind}_{r}"] for r in range(n)]
            for kind in ("display_case", "skills", "escrow", "negative_effects", "class", "store_known")
        }
        self.state_at = enc.b_card_state.start
        stats_at = enc.b_stats.start
        width = len(enc.stat_zones)
        self.stat_col = {zone: self.column(stats_at + i, width, _KINDS) for zone, i in enc.stat_zone_index.items()}
        self.stat_seat = {
            kind: [self.stat_col[f"{kind}_{r}"] for r in range(n)] for kind in ("played", "discard", "hand_and_deck")
        }
        self.phase_at = enc.b_phase.start
        self.whose_at = enc.b_whose.start
        self.cert_at = enc.b_cert.start
        self.rounds_at = enc.b_rounds.start
        self.map_at = enc.b_map.start
        self.map_width = len(MAP_FEATURES)
        self.players_at = enc.b_players.start
        self.width = len(PLAYER_FEATURES)
        self.combat_at = enc.b_combat.start
        self.combat_width = enc.b_combat.size
        self.march_at = enc.b_march.start
        c = g.cards
        self.c = c
        self.skind = c.skind
        self.kingdom = tuple(c.kingdom)
        self.map_cell = tuple(
            self.map_at
            + ((c.locations[li].grid or (0, 0))[0] * 3 + (c.locations[li].grid or (0, 0))[1]) * self.map_width
            for li in c.kingdom
        )
        self.nemesis_locations = tuple(c.nemesis_locations)
        self.turn_limit = float(g.turn_limit) or 1.0
        self.nemesis = bool(g.nemesis)
        self.bosses = bool(g.bosses)
        self.ascension = bool(g.ascension)
        self.classes = bool(g.classes)
        self.store = bool(g.store)
        self.sorceress_power = int(g.sorceress_power)
        self.thirds = _thirds()
        # Stat tallies packed into one integer (see _kinds): kind k's count in bits [k*b, (k+1)*b),
        # and the cards' total stat value above them. A card's weight adds one to its kind and its
        # value to the total, so a pile's packed tally is the sum of its cards' weights. b holds
        # twice every card of the game (the most two piles, a hand and a deck, can count), so no
        # count carries into the next. ``k % _KINDS``: the reference tally indexes a list by kind
        # code, where -1 (not a stat card) is the last kind.
        bits = int(2 * self.n_cards).bit_length()
        self.kind_bits = bits
        self.kind_mask = (1 << bits) - 1
        self.value_shift = bits * _KINDS
        self.counts_mask = (1 << self.value_shift) - 1
        self.kind_weight = tuple(
            (1 << (bits * (k % _KINDS))) + (_KIND_VALUES[k % _KINDS] << self.value_shift) for k in c.skind
        )
        # The card-state section as bit masks over card ids: which cards can be equipped (a slot),
        # which skills are buffs and which are used skills; each card's two cells.
        ids = range(len(c.slot))
        self.bit = tuple(1 << x for x in ids)
        self.slotted = sum(1 << x for x in ids if c.slot[x] >= 0)
        self.buff_skills = sum(1 << x for x in ids if c.stype[x] == S_BUFF)
        self.used_skills = sum(1 << x for x in ids if c.stype[x] in (S_COMBAT, S_NONCOMBAT))
        self.cell_equipped = tuple(self.state_at + 2 * x for x in ids)
        self.cell_used = tuple(self.state_at + 2 * x + 1 for x in ids)
        # The map's locations read in C (itemgetter gives a tuple for two or more items).
        assert len(self.kingdom) >= 2
        self.kingdom_of: Any = itemgetter(*self.kingdom)

    # -- helpers -----------------------------------------------------------------------------------
    def _zone(
        self, out: Buffer, memo: Memo, slot: int, col: tuple[int, ...], cards: list[int] | tuple[int, ...]
    ) -> None:
        old = memo[slot]
        if cards != old and (cards or old):
            self.cards(out, col, old, cards)
            # Tuples in the state are replaced, never changed: keep them; copy lists.
            memo[slot] = cards if type(cards) is tuple else list(cards)

    def _kinds(
        self, out: Buffer, memo: Memo, slot: int, col: tuple[int, ...], pile: list[int], more: list[int] | None = None
    ) -> int:
        """A column of stat-card counts by kind (count/5) for the cards of ``pile`` (and ``more``);
        returns their total stat value (kinds nobody holds are 0, as the view lists only the kinds
        present)."""
        old = memo[slot]
        if old is not None and old[0] == pile and (more is None or old[1] == more):
            value: int = old[3]
            return value
        weight = self.kind_weight
        packed: int = sum(map(weight.__getitem__, pile))
        if more is not None:
            packed += sum(map(weight.__getitem__, more))
        counts = packed & self.counts_mask
        was: int = old[2] if old is not None else 0
        # A kind's field of ``counts ^ was`` is non-zero exactly where its count changed: write those
        # alone, the highest first.
        changed = counts ^ was
        bits = self.kind_bits
        mask = self.kind_mask
        while changed:
            k = (changed.bit_length() - 1) // bits
            shift = k * bits
            out[col[k]] = clip((counts >> shift & mask) / 5.0)
            changed &= (1 << shift) - 1
        value = packed >> self.value_shift
        memo[slot] = (list(pile), list(more) if more is not None else None, counts, value)
        return value

    # -- the sections ------------------------------------------------------------------------------
    def fill(self, state: McgState, seat: int, out: Buffer, memo: Memo) -> None:
        s = state
        c = self.c
        n = self.players
        col = self.col
        zone = self._zone
        # The marks (McgState.marks): the rules bump ``marks[p]`` whenever they change player ``p``'s
        # cards, meat, kills, class or sums. A player whose mark is the one this buffer saw, on this
        # very state, wrote the same numbers last time and is skipped. The state is known by its
        # ``marks`` list, which no other state shares (a clone copies it) and which the memo holds,
        # so its identity cannot pass to another list. Any other state (a clone, a determinized
        # copy, a tracker unpickled on its own) goes through the comparisons below, as a first
        # observation does.
        marks = s.marks
        seen = memo[_SEEN]
        same = seen is not None and seen[0] is marks
        saw: list[int] = seen[1] if same else []

        # The public piles: tuples the rules replace, never change, and ints, so one comparison (of
        # the same objects, mostly: an identity test each, in C) tells whether any of them changed;
        # ``top``, a list the rules replace too, is compared with a copy all the same.
        raw_table = (s.heap, s.trainer, s.quests, s.tower, s.gone, s.middle, s.skill_disc, s.top)
        if raw_table != memo[_RAW_TABLE]:
            zone(out, memo, _HEAP, col["heap"], s.heap)
            trainer = s.trainer
            old = memo[_TRAINER]
            if old is None or old[0] is not trainer:
                now = [x for x in trainer if x >= 0]
                was = old[1] if old is not None else None
                if now != was and (now or was):
                    self.cards(out, col["trainer"], was, now)
                memo[_TRAINER] = (trainer, now)
            if self.nemesis:
                top = s.top
                zone(out, memo, _NEMESIS, col["nemesis"], [top[li] for li in self.nemesis_locations if top[li] >= 0])
            if self.bosses:
                zone(out, memo, _QUESTS, col["quests"], s.quests)
            tower = s.tower if s.tower >= 0 else -1 if self.ascension else c.sorceress
            zone(out, memo, _TOWER, col["tower"], [tower] if tower >= 0 else [])
            zone(out, memo, _REMOVED, col["removed"], s.gone)
            if self.ascension and self.classes:
                zone(out, memo, _MIDDLE, col["middle"], s.middle)
            zone(out, memo, _SKILL_DISCARD, col["skill_discard"], s.skill_disc)
            memo[_RAW_TABLE] = (s.heap, s.trainer, s.quests, s.tower, s.gone, s.middle, s.skill_disc, s.top.copy())
        if self.store and (not same or saw[seat] != marks[seat]):
            zone(out, memo, _STORE, col["my_store"], s.store[seat])
        phase = s.phase
        paying = s.pending if phase == D_SPELLX and s.pending >= 0 else -1
        zone(out, memo, _PAYING, col["being_paid_for"], [paying] if paying >= 0 else [])

        # Stat cards by kind: the seat's own hand and deck, and the piles left.
        stat_col = self.stat_col
        if not same or saw[seat] != marks[seat]:
            self._kinds(out, memo, _MY_HAND, stat_col["my_hand"], s.hand[seat])
            self._kinds(out, memo, _MY_DECK, stat_col["my_deck"], s.deck[seat])
        piles = tuple(s.piles)
        old = memo[_PILES]
        if old is None or old[0] != piles:
            sizes = [len(p) for p in piles]
            was = old[1] if old is not None else None
            cols = stat_col["piles_left"]
            for k, size in enumerate(sizes):
                if was is None or was[k] != size:
                    out[cols[k]] = clip(size / 5.0)
            memo[_PILES] = (tuple(piles), sizes)

        # The phase, whose turn and the certificate (one-hots and flags).
        over = s.is_over
        p0 = self.phase_at
        march_mode = s.mode == M_MARCH
        mine_flag = False
        flags: list[int] = []
        if over:
            flags.append(p0 + _OVER)
        elif phase == D_POLL:
            flags += (p0 + _POLL, p0 + len(PHASES))  # "the March poll" names the March
        elif phase == D_SIDE:
            pass
        elif phase in (D_PERM, D_CLASS):
            mine_flag = True
        elif phase == D_BLOCK:
            flags.append(p0 + _COMBAT)
            mine_flag = True
        elif march_mode:
            if phase == D_NONCOMBAT:
                flags.append(p0 + _NONCOMBAT)
            flags += (p0 + _COMBAT, p0 + len(PHASES))
        elif phase in (D_DISCARD, D_LIMIT) or (phase == D_UPGRADE and s.upg_roll):
            flags.append(p0 + _END)
            mine_flag = True
        elif phase in (D_COMBAT, D_MANEUVER, D_TARGET) or (s.man >= 0 and phase != D_NONCOMBAT):
            flags.append(p0 + _COMBAT)
            mine_flag = True
        else:
            flags += (p0 + _NONCOMBAT, p0 + _COMBAT)  # "non-combat phase" ends with "combat phase" too
            mine_flag = True
        if mine_flag and s.actor == seat:
            flags.append(p0 + len(PHASES) + 1)
        if not march_mode:
            flags.append(self.whose_at + (s.active - seat) % n)
        if 0 <= s.cert < n:
            flags.append(self.cert_at + (s.cert - seat) % n)
        old = memo[_FLAGS]
        if flags != old:
            for i in old or ():
                out[i] = 0.0
            for i in flags:
                out[i] = 1.0
            memo[_FLAGS] = flags

        tower_power = c.mpower[s.tower] if s.tower >= 0 else -1 if self.ascension else self.sorceress_power
        key = (s.round, len(s.skill_pile), s.pool, tower_power)
        if key != memo[_ROUNDS]:
            r0 = self.rounds_at
            out[r0] = clip(s.round / self.turn_limit)
            out[r0 + 1] = clip(key[1] / 100.0)
            out[r0 + 2] = 1.0 if s.pool == NO_LIMIT else clip(s.pool / 100.0)
            out[r0 + 3] = clip(tower_power / 50.0) if tower_power >= 0 else 0.0
            memo[_ROUNDS] = key

        # The 3x3 map: each location's top monster and what lies below.
        # Keyed only when ``top`` or ``below`` changed (lists the rules replace: compared in C with
        # the copies kept last time; ``below`` holds tuples, compared by identity first).
        tops = s.top
        belows = s.below
        raw_map = memo[_RAW_MAP]
        if raw_map is None or raw_map[0] != tops or raw_map[1] != belows:
            kingdom_of = self.kingdom_of
            key_map = (tuple(kingdom_of(tops)), tuple(map(len, kingdom_of(belows))))
            old = memo[_MAP]
            if key_map != old:
                self._map(out, old, key_map)
                memo[_MAP] = key_map
            memo[_RAW_MAP] = (tops.copy(), belows.copy())

        # Every seat: stat cards by kind, its numbers and its cards.
        kv = self.stat_seat
        c_seat = self.c_seat
        width = self.width
        # What other players' moves change too: every seat's numbers are a function of these, so
        # with them unchanged no seat's need comparing.
        raw_cross = (s.out, s.cert, s.actor, s.mojo, over)
        crossed = raw_cross != memo[_RAW_CROSS]
        memo[_RAW_CROSS] = raw_cross
        for p in range(n):
            r = (p - seat) % n
            slot = _SEATS + _PER_SEAT * r
            base = self.players_at + r * width
            if crossed:
                cross = (s.out >> p & 1, s.cert == p, s.mojo if p == s.actor and not over else 0)
                was = memo[slot + _CROSS]
                if cross != was:
                    out[base + 1] = 1.0 if cross[0] else 0.0
                    out[base + 2] = 1.0 if cross[1] else 0.0
                    out[base + 3] = clip(cross[2] / 10.0)
                    memo[slot + _CROSS] = cross
            if self.store:
                # Which of its Mr. Store items are public reads ``pub``, which any player's move changes.
                pub = s.pub
                held = s.store[p]
                raw = memo[slot + _RAW_STORE]
                if raw is None or raw[0] is not held or raw[1] != pub:
                    known = [x for x in held if pub >> x & 1] if pub else []
                    zone(out, memo, slot + _STORE_KNOWN, c_seat["store_known"][r], known)
                    memo[slot + _RAW_STORE] = (held, pub)
            if same and saw[p] == marks[p]:
                continue
            hand, deck, disc, played = s.hand[p], s.deck[p], s.disc[p], s.played[p]
            total = self._kinds(out, memo, slot + _PLAYED, kv["played"][r], played)
            total += self._kinds(out, memo, slot + _DISCARD, kv["discard"][r], disc)
            total += self._kinds(out, memo, slot + _HAND_DECK, kv["hand_and_deck"][r], hand, deck)
            mods = s.mods[p]
            key_row = (
                s.meat[p],
                len(hand),
                len(deck),
                total,
                s.kills[p],
                mods[0],
                mods[1],
                mods[2],
                mods[3],
            )
            old_row = memo[slot + _ROW]
            if key_row != old_row:
                # Only the numbers that changed (mostly one or two: the hand, the deck) are written.
                for i in range(len(_ROW_AT)):
                    v = key_row[i]
                    if old_row is None or v != old_row[i]:
                        out[base + _ROW_AT[i]] = clip(v / _ROW_SCALE[i])
                memo[slot + _ROW] = key_row
            # Lasting effects are tuples the rules replace, never change: the tuple itself is the
            # key, the memo keeping it alive.
            if self.bosses:
                lasting = s.lasting[p]
                if lasting is not memo[slot + _RAW_LASTING]:
                    zone(
                        out,
                        memo,
                        slot + _NEGATIVE,
                        c_seat["negative_effects"][r],
                        [x for x in lasting if c.kind[x] == K_BOSS],
                    )
                    memo[slot + _RAW_LASTING] = lasting
            if self.classes:
                k = s.klass[p]
                zone(out, memo, slot + _CLASS, c_seat["class"][r], [k] if k >= 0 else [])
            zone(out, memo, slot + _DISPLAY, c_seat["display_case"][r], s.items[p])
            zone(out, memo, slot + _SKILLS, c_seat["skills"][r], s.skills[p])
            zone(out, memo, slot + _ESCROW, c_seat["escrow"][r], s.escrow[p])
        memo[_SEEN] = (marks, marks.copy())

        # Equipped and used items, active buffs and used skills, in one section: a card that
        # changes hands keeps its row.
        # Compared piece by piece with what was written last (the lists against copies, in C): the key
        # is built only when something changed.
        old = memo[_CARD_STATE]
        if (
            old is None
            or old[0] != s.eq
            or old[1] != s.used
            or old[2] != s.buffs
            or old[3] != s.items
            or old[4] != s.skills
        ):
            memo[_CARD_STATE] = self._card_state(out, old, s.eq, s.used, s.buffs, s.items.copy(), s.skills.copy())

        in_combat = phase in _COMBAT_PHASES or (phase in _COMBAT_INSTANTS and s.step in _COMBAT_STEPS)
        # The combat's key is dear (every target's power against the score). Outside the March and
        # ascension it reads only these, so an unchanged precheck (compared in C) skips it; the
        # tuples here are the state's own (never changed in place), the lists copies.
        plain = in_combat and not march_mode and not self.ascension
        raw = memo[_RAW_COMBAT]
        if (
            not plain
            or raw is None
            or raw[0] != (s.actor, s.psum, s.dmg, s.red, s.man)
            or raw[1] != s.dmg_vs
            or raw[2] != s.cb
            or raw[3] != s.mods
            or raw[4] != s.top
            or raw[5] != s.quests
        ):
            key_combat: CombatKey | None = None
            if in_combat:
                key_combat = self._combat_key(s, seat, march_mode)
            old = memo[_COMBAT_SLOT]
            if key_combat != old:
                self._combat(out, old, key_combat)
                memo[_COMBAT_SLOT] = key_combat
            memo[_RAW_COMBAT] = (
                (
                    (s.actor, s.psum, s.dmg, s.red, s.man),
                    s.dmg_vs,
                    s.cb,
                    s.mods.copy(),
                    s.top.copy(),
                    s.quests,
                )
                if plain
                else None
            )

        key_march = None
        if march_mode or s.announcer >= 0:
            elim = s.elim
            key_march = (
                s.announcer == seat,
                seat in elim,
                len(elim),
                s.mtotal[seat] if s.mtotal[seat] >= 0 else None,
                s.mthresh[seat] if s.mtotal[seat] >= 0 else None,
            )
        old = memo[_MARCH]
        if key_march != old:
            m0 = self.march_at
            if key_march is None:
                for i in range(6):
                    out[m0 + i] = 0.0
            else:
                mine, out_now, gone, announced, need = key_march
                out[m0] = 1.0
                out[m0 + 1] = 1.0 if mine else 0.0
                out[m0 + 2] = 1.0 if out_now else 0.0
                out[m0 + 3] = clip(gone / n)
                out[m0 + 4] = clip(announced / 30.0) if announced is not None else 0.0
                out[m0 + 5] = clip(need / 30.0) if need is not None else 0.0
            memo[_MARCH] = key_march

    def _map(self, out: Buffer, old: tuple[tuple[int, ...], ...] | None, key: tuple[tuple[int, ...], ...]) -> None:
        c = self.c
        col = self.col["map"]
        tops, belows = key
        if old is not None:
            for top in old[0]:
                if top >= 0:
                    out[col[top]] = 0.0
        for k, base in enumerate(self.map_cell):
            top = tops[k]
            below = belows[k]
            if old is not None and old[0][k] == top and old[1][k] == below:
                if top >= 0:
                    out[col[top]] = 1.0
                continue
            for i in range(self.map_width):
                out[base + i] = 0.0
            if top >= 0:
                out[col[top]] = 1.0
                out[base] = 1.0
                out[base + 1] = clip(c.mpower[top] / 20.0)
                out[base + 2] = clip(c.meat[top] / 5.0)
                out[base + 5 + c.element[top]] = 1.0
            out[base + 3] = clip(below / 8.0)
            out[base + 4] = 1.0 if top < 0 and not below else 0.0

    def _card_state(
        self, out: Buffer, old: CardState | None, eq: int, used: int, buffs: int, items: list[Ints], skills: list[Ints]
    ) -> CardState:
        """Write the card-state cells: a held item's first cell is 1 when it is equipped (and can be),
        its second when it is used; a held skill's second when it is an active buff or a used skill.
        Only the cells whose value changed are written (the others hold what the masks say)."""
        bit = self.bit
        held_items = _held(items, bit)
        held_skills = _held(skills, bit)
        first = eq & held_items & self.slotted
        second = (used & held_items) | (held_skills & ((buffs & self.buff_skills) | (used & self.used_skills)))
        _write_changed_bits(out, self.cell_equipped, bit, first, old[5] if old is not None else 0)
        _write_changed_bits(out, self.cell_used, bit, second, old[6] if old is not None else 0)
        return (eq, used, buffs, items, skills, first, second)

    def _combat_key(self, s: McgState, seat: int, march_mode: bool) -> CombatKey:
        """The combat as the view shows it: who fights, the totals, each target and whether the
        acting player's score beats it, the score against the Sorceress in the March."""
        from cardtable.games.mr_card_game.combat import power_of, score, targets
        from cardtable.games.mr_card_game.march import sorceress_card, threshold

        c = self.c
        beaten = 0
        cards: list[int] = []
        sorceress: tuple[int, int] | None = None
        if march_mode:
            sorc = sorceress_card(s)
            sorceress = (score(s, c.element[sorc]), threshold(s))
        else:
            for t in targets(s):
                cards.append(t)
                power = power_of(s, t)
                if power <= 0 or score(s, c.element[t]) >= power:
                    beaten += 1
            if self.ascension:
                from cardtable.games.mr_card_game.ascension import sorceress_power, target_card

                base = sorceress_power(s, s.actor)
                if base is not None:
                    power = base - s.red
                    top = target_card(s, s.actor)
                    if top >= 0:
                        cards.append(top)
                    if power <= 0 or score(s, 0) >= power:
                        beaten += 1
        return (s.actor == seat, s.psum, s.dmg, s.red, beaten, sorceress, s.man, tuple(cards))

    def _combat(self, out: Buffer, old: CombatKey | None, key: CombatKey | None) -> None:
        c0 = self.combat_at
        col = self.col["combat_target"]
        if key is None or old is None:
            if old is not None:
                for i in range(self.combat_width):
                    out[c0 + i] = 0.0
                for t in old[7]:
                    out[col[t]] = 0.0
            if key is not None:
                self._combat_all(out, key)
            return
        # A combat going on before and after (the usual change: a card played, a target beaten):
        # only the numbers and cells that changed are written.
        mine, psum, dmg, red, beaten, sorceress, man, cards = key
        if mine != old[0]:
            out[c0 + 1] = 1.0 if mine else 0.0
        if psum != old[1]:
            out[c0 + 2] = clip(psum / 20.0)
        if dmg != old[2]:
            out[c0 + 3] = clip(dmg / 20.0)
        if red != old[3]:
            out[c0 + 4] = clip(red / 10.0)
        if beaten != old[4]:
            out[c0 + 5] = clip(self.thirds[min(beaten, 40)])
        if sorceress != old[5]:
            out[c0 + 6] = clip(sorceress[0] / 30.0) if sorceress is not None else 0.0
            out[c0 + 7] = clip(sorceress[1] / 30.0) if sorceress is not None else 0.0
        if man != old[6]:
            if old[6] >= 0:
                out[c0 + 8 + old[6]] = 0.0
            if man >= 0:
                out[c0 + 8 + man] = 1.0
        was = old[7]
        if cards != was:
            for t in was:
                if t not in cards:
                    out[col[t]] = 0.0
            for t in cards:
                if t not in was:
                    out[col[t]] = 1.0

    def _combat_all(self, out: Buffer, key: CombatKey) -> None:
        """Write a combat's cells into a section that holds zeros."""
        c0 = self.combat_at
        col = self.col["combat_target"]
        mine, psum, dmg, red, beaten, sorceress, man, cards = key
        out[c0] = 1.0
        out[c0 + 1] = 1.0 if mine else 0.0
        out[c0 + 2] = clip(psum / 20.0)
        out[c0 + 3] = clip(dmg / 20.0)
        out[c0 + 4] = clip(red / 10.0)
        out[c0 + 5] = clip(self.thirds[min(beaten, 40)])
        if sorceress is not None:
            out[c0 + 6] = clip(sorceress[0] / 30.0)
            out[c0 + 7] = clip(sorceress[1] / 30.0)
        if man >= 0:
            out[c0 + 8 + man] = 1.0
        for t in cards:
            out[col[t]] = 1.0
