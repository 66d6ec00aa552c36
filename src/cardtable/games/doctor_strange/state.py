"""The Doctor Strange turn flow, decisions and protocol (:class:`DSState`).

A turn is Mystic Arts (draw 2, E events), an any-time window for the other player, Summon,
Attack (declare every attack, each with a counter window for the defender; then resolve them in
order: dice, a power exchange, the fate) and Rest (R events — and, with rest-events=both-rests, a
window for the other player —, hand limit, recovery and departure rolls, the victory check); with
any-time-events=after-every-action an any-time window follows every action for the other player.
``_run`` advances through every automatic step and stops at the next decision, caching its legal
actions. A window (a decision ``pass`` ends) opens exactly when public information allows its
player a play (``_might_play``, DS13.2), so whether it opens reveals no hand; it is then offered
even if ``pass`` is the only legal action.
Events, attacks and the end of a turn are in the layers :mod:`.effects`, :mod:`.combat` and
:mod:`.upkeep`. Clause numbers (DS…) refer to docs/rules/doctor-strange.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Self, cast

from mypy_extensions import mypyc_attr

from cardtable.engine import JSON, Action, Result, Rng
from cardtable.engine.events import only
from cardtable.engine.game import COMPILED
from cardtable.engine.seats import seat_label
from cardtable.games.doctor_strange import cards as C
from cardtable.games.doctor_strange import said
from cardtable.games.doctor_strange.base import (
    BEGIN,
    COUNTER,
    DECLARE,
    DISCARD,
    EXCHANGE,
    HAND_LIMIT,
    HANDLIMIT,
    HELPER,
    MYSTIC,
    NEGATE,
    ONTO,
    OREST,
    OVER,
    PASSABLE,
    PHASE_NAMES,
    RESOLVE,
    REST,
    SETTLED,
    SUMMON,
    TAKE,
    TARGET,
    WEAPON,
    XANY,
    XWIN,
    replaced,
)
from cardtable.games.doctor_strange.changes import Z_ATT, Z_CHAR, Z_DISCARD, Z_HAND
from cardtable.games.doctor_strange.upkeep import Upkeep

__all__ = [
    "BEGIN",
    "COUNTER",
    "DECLARE",
    "DISCARD",
    "EXCHANGE",
    "HANDLIMIT",
    "HAND_LIMIT",
    "HELPER",
    "MYSTIC",
    "NEGATE",
    "ONTO",
    "OREST",
    "OVER",
    "PASSABLE",
    "PHASE_NAMES",
    "RESOLVE",
    "REST",
    "SUMMON",
    "TAKE",
    "TARGET",
    "WEAPON",
    "XANY",
    "XWIN",
    "DSState",
]

if TYPE_CHECKING:
    from cardtable.games.doctor_strange.game import DoctorStrange


@mypyc_attr(allow_interpreted_subclasses=True)  # clone's _new_blank, and subclasses in tests
class DSState(Upkeep):
    """A Doctor Strange position: the turn flow and the protocol, over the rules layers."""

    __slots__ = ()

    def __init__(self, game: DoctorStrange, seed: int, log: bool, *, _blank: bool = False) -> None:
        if _blank:  # the start of a clone (_new_blank): clone() sets every field
            return
        super().__init__(game, seed, log)
        g = game
        n, k = g.N, len(g.CHARS)
        # The deck is an ordered ``stack`` (top = last; cards whose order has been fixed because
        # someone looked at them) above an unordered ``pool``: drawing from the pool picks a uniform
        # random card, which is the same as drawing from a shuffled deck, and lets determinize
        # resample a handful of cards instead of reshuffling ~100.
        self.stack: list[int] = []
        self.pool: list[int] = [c for c in range(n) if c not in (g.DS, g.BM)]
        self.hands: list[list[int]] = [[], []]
        for _ in range(HAND_LIMIT):
            for seat in (g.evil, g.good):
                self.hands[seat].append(self._pick())
        for hand in self.hands:
            hand.sort()  # hands are kept sorted (see Effects._draw)
        self.discard: list[int] = []
        self.killed: list[int] = []
        self.exiled: list[int] = []
        self.chars: list[int] = []
        self.side: tuple[int, ...] = (-1,) * k
        self.owner: tuple[int, ...] = (-1,) * k
        self.incap: tuple[int, ...] = (0,) * k
        self.ctl: tuple[int, ...] = (-1,) * k
        self.cap: tuple[int, ...] = (-1,) * k
        self.mpow: tuple[int, ...] = tuple([g.POW[c] for c in g.CHARS])
        self.loc: tuple[int, ...] = (-1,) * k
        self.att_on: list[int] = [-1] * n
        self.changes: list[int] | None = None
        self._att_shared = False
        self.pending = -1  # a permanent card on its way to a character (public)
        self.evcard = -1  # the event waiting for its choice (negate target / Go Back in Time)
        self.evseat = -1  # the seat that played it (and makes the choice)
        self.ret = MYSTIC  # phase to return to after that choice
        self.decl_a = -1
        self.decl_t = -1
        self.attacks: tuple[int, ...] = ()  # flat triples: attacker, target, attack card
        self.ares = 0  # index of the attack being resolved
        self.ra = self.rd = self.ba = self.bd = 0  # dice and power-card bonuses of that attack
        self.helpers = 0  # bitmask of slots called to defend
        self.marked = 0  # bitmask of slots targeted this turn
        self.attacked = 0  # bitmask of slots that attacked this turn
        self.peek: tuple[int, ...] = (0, 0)  # per seat: bitmask of hidden cards whose place it knows
        self.streak: tuple[int, ...] = (0, 0)  # consecutive checked turns with no viable character
        self.fight: tuple[int, ...] = ()
        self.fpa: tuple[int, ...] = ()
        self.fpd: tuple[int, ...] = ()
        self.fhelp: tuple[int, ...] = ()
        self.xowed = self.xseat = -1
        self.xret = MYSTIC
        self.winner = -1  # seat, 2 = both lost (draw), -1 = none
        self.reason = ""
        self._enter(g.DS, g.good)
        self._enter(g.BM, g.evil)
        self.active = g.evil
        self.phase = BEGIN
        if self.log is not None:
            self.emit(
                "setup",
                f"Good ({seat_label(g.good)}) starts with Doctor Strange in play, Evil ({seat_label(g.evil)}) "
                "with Baron Mordo; each is dealt 7 cards. Evil goes first.",
            )
            for seat in (0, 1):
                self.tell("deal", said.said_deal, (seat, tuple(self.hands[seat])), only(seat))
            self.emit("turn", "turn 1: Evil's turn")
        self._run()

    def _any_time(self, seat: int, out: list[Action]) -> None:
        """Add the X events ``seat`` may play now (DS10.3)."""
        g = self.game
        hand = self.hands[seat]
        for c in g.CAND_X[seat]:
            if c in hand and self._event_ok(seat, c):
                out.append(g.PLAY[c])

    def _decider(self) -> int:
        ph = self.phase
        if ph in (COUNTER, HELPER, XWIN, OREST):
            return 1 - self.active
        if ph == XANY:
            return self.xseat
        if ph in (NEGATE, TAKE):
            return self.evseat
        if ph == EXCHANGE:
            atk, dfn = self._totals()
            return 1 - self.active if atk >= dfn else self.active
        return self.active

    def _run(self) -> None:
        """Carry out automatic steps until someone must decide (or the game ends).

        A window (a decision where ``pass`` moves on) whose player, as far as public information
        goes, cannot hold a card to play in it is passed by itself; any other decision is offered,
        even when its only legal action is ``pass`` (DS13.2)."""
        while True:
            ph = self.phase
            if ph == BEGIN:
                self._draw(self.active, 2)
                self.phase = MYSTIC
                continue
            if ph == RESOLVE:
                self._resolve_next()
                continue
            if ph == HANDLIMIT:
                if len(self.hands[self.active]) > HAND_LIMIT:
                    self.phase = DISCARD
                    continue
                self._rest_rolls()
                self._end_turn()
                continue
            if ph == OVER:
                self.is_over = True
                self.current_player = None
                self._legal = None
                return
            self.current_player = seat = self._decider()
            opts = self._options()
            if len(opts) == 1 and ph in PASSABLE and not self._might_play(ph, seat):
                self._pass()
                continue
            owed = self.xowed
            if owed >= 0 and ph in SETTLED:
                # any-time-events=after-every-action: the opponent of the last actor gets its window
                # first, unless it is the one deciding now in a decision where X events are offered.
                self.xowed = -1
                if not (owed == seat and ph in PASSABLE) and self._might_play(XANY, owed):
                    self.xret, self.xseat, self.phase = ph, owed, XANY
                    self.current_player = owed
                    opts = self._options()
            self._legal = opts
            return

    def _hidden(self, cards: tuple[int, ...]) -> bool:
        """Is one of ``cards`` (events, Power or Attack cards) off the discard pile, the only public
        place such a card can be? (A list scan: the pile is short and the first card usually hits.)"""
        discard = self.discard
        return any(c not in discard for c in cards)

    def _might_play(self, ph: int, seat: int) -> bool:
        """From public information alone, might ``seat`` hold a card it could play in window ``ph``?

        True when its hand is not empty and some card of a kind it may play there (and that would
        have an effect now) is not publicly accounted for: not in play, attached, or in the discard,
        Killed or Exiled piles (DS13.2). Reads nothing hidden, so whether a window opens tells no one
        anything about a hand. When ``seat`` holds a playable card this is true as well."""
        if not self.hands[seat]:
            return False
        g = self.game
        discard = self.discard
        kind = g.EVENT_KIND
        for c in g.CAND_X[seat]:
            if c not in discard and (kind[c] == "look_hand" or self._event_ok(seat, c)):
                return True
        if ph in (MYSTIC, REST, OREST):
            cands = g.CAND_E[seat] if ph == MYSTIC else g.CAND_R[seat]
            return any(c not in discard and self._event_ok(seat, c) for c in cands)
        if ph == COUNTER:
            return self._hidden(g.CAND_CTR[seat])
        if ph == EXCHANGE:
            defender = seat != self.active
            if self._hidden(g.CAND_POW[seat][1 if defender else 0]):
                return True
            return defender and bool(self._helpers_for(seat)) and self._hidden(g.CAND_D[seat])
        if ph == DECLARE:
            if not self._hidden(g.CAND_ATK[seat]) or not self._viable_on(1 - seat):
                return False
            slot = g.SLOT
            return any(not self.attacked >> slot[a] & 1 for a in self._viable_on(seat))
        if ph == SUMMON:
            return self._might_summon(seat)
        return False  # XWIN, XANY: X events only

    def _might_summon(self, seat: int) -> bool:
        g = self.game
        slot, side = g.SLOT, self.side
        discard, killed, exiled = self.discard, self.killed, self.exiled
        for c in g.CAND_CHAR[seat]:
            if side[slot[c]] < 0 and c not in discard and c not in killed and c not in exiled:
                return True
        hosts = free = False
        for c in self.chars:
            s = slot[c]
            if side[s] == seat and self.cap[s] < 0:
                hosts = True
                free = free or self.loc[s] < 0
        att_on, pending = self.att_on, self.pending
        if hosts and any(att_on[c] < 0 and c != pending and c not in discard for c in g.CAND_ATT[seat]):
            return True
        return free and any(att_on[c] < 0 and c != pending and c not in discard for c in g.CAND_LOC[seat])

    def _options(self) -> list[Action]:
        """The legal actions of ``current_player`` in the current phase."""
        g = self.game
        ph = self.phase
        seat = self.current_player
        assert seat is not None
        hand = self.hands[seat]
        play = g.PLAY
        out: list[Action] = []
        if ph == SUMMON:  # DS5
            summ = g.SUMM[seat]
            hosts: bool | None = None
            loc_hosts: bool | None = None
            for c in hand:
                k = summ[c]
                if k == 1:
                    out.append(play[c])
                elif k == 2:
                    if g.TYPE[c] == C.LOCATION:
                        if loc_hosts is None:
                            loc_hosts = bool(self._hosts(seat, c))
                        if loc_hosts:
                            out.append(play[c])
                    else:
                        if hosts is None:
                            hosts = bool(self._hosts(seat, c))
                        if hosts:
                            out.append(play[c])
            self._any_time(seat, out)
        elif ph == EXCHANGE:  # DS6.5-DS6.7
            defender = seat != self.active
            bonus = g.BON[seat][1 if defender else 0]
            dcall = g.DCALL[seat]
            helpers_ok: bool | None = None
            for c in hand:
                if bonus[c]:
                    out.append(play[c])
                elif defender and dcall[c]:
                    if helpers_ok is None:
                        helpers_ok = bool(self._helpers_for(seat))
                    if helpers_ok:
                        out.append(play[c])
            self._any_time(seat, out)
        elif ph == DECLARE:  # DS6.1
            atk = g.ATK[seat]
            for c in hand:
                if atk[c]:
                    foes = self._viable_on(1 - seat)
                    if foes:
                        slot = g.SLOT
                        for a in self._viable_on(seat):
                            if not self.attacked & (1 << slot[a]):
                                out.append(g.ATTACKER[a])
                    break
            self._any_time(seat, out)
        elif ph in (MYSTIC, REST, OREST):  # DS4, DS7.1
            ok = g.MYST[seat] if ph == MYSTIC else g.RESTEV[seat]
            for c in hand:
                if ok[c] and self._event_ok(seat, c):
                    out.append(play[c])
            self._any_time(seat, out)
        elif ph in (XWIN, XANY, COUNTER):  # DS10.1, DS10.3
            if ph == COUNTER:
                ctr = g.CTR[seat]
                for c in hand:
                    if ctr[c]:
                        out.append(play[c])
            self._any_time(seat, out)
        elif ph == ONTO:
            return [g.ONTO[c] for c in self._hosts(seat, self.pending)]
        elif ph == TARGET:
            return [g.TARGET[c] for c in self._viable_on(1 - seat)]
        elif ph == WEAPON:
            atk = g.ATK[seat]
            return [play[c] for c in hand if atk[c]]
        elif ph == HELPER:
            return [g.HELPER[c] for c in self._helpers_for(seat)]
        elif ph == DISCARD:
            return [g.DISCARD[c] for c in sorted(hand)]
        elif ph == NEGATE:
            return [g.NEGATE_ACT[c] for c in self._negate_targets(seat, g.NEGATE[self.evcard])]
        elif ph == TAKE:
            return [g.TAKE[c] for c in sorted(self.stack + self.pool)]
        out.append(g.PASS)
        return out

    def _pass(self) -> None:
        """Leave the current phase or window."""
        ph = self.phase
        if ph == MYSTIC:
            self.phase = XWIN
        elif ph == XWIN:
            self.phase = SUMMON
        elif ph == SUMMON:
            self.phase = DECLARE
        elif ph == DECLARE:
            self.ares = 0
            self.phase = RESOLVE
        elif ph == COUNTER:
            self.phase = DECLARE
        elif ph == EXCHANGE:
            self._finish_attack()
        elif ph == XANY:
            self.phase = self.xret
            self.xseat = -1
        elif ph == REST and self.game.rest_both:
            self.phase = OREST  # rest-events=both-rests: the other player's R events (DS7.1)
        else:  # REST, OREST
            self.phase = HANDLIMIT

    def _legal_actions(self) -> list[Action]:
        # Only reached when the cache was dropped (clone of a determinized state): recompute.
        self.current_player = self._decider()
        return self._options()

    def _do(self, action: Action) -> None:
        g = self.game
        seat = self.current_player
        assert seat is not None
        kind = action.kind
        ph = self.phase
        if g.x_every and not (kind == "pass" and ph in (XWIN, XANY)):
            self.xowed = 1 - seat  # any-time-events=after-every-action: the opponent's window is owed
        if kind == "pass":
            self._pass()
        else:
            card = action.args[0]
            assert isinstance(card, int)
            if kind == "play":
                self._play(seat, card)
            elif kind == "onto":
                self._attach(seat, card)
            elif kind == "attacker":
                self.decl_a = card
                self.phase = TARGET
            elif kind == "target":
                self.decl_t = card
                self.phase = WEAPON
            elif kind == "helper":
                self._call_helper(card)
            elif kind == "negate":
                self._negate(seat, card)
            elif kind == "take":
                self._take(seat, card)
            else:  # discard
                self.hands[seat].remove(card)
                self.discard.append(card)
                if self.changes is not None:
                    self.note(Z_HAND, seat, card, 0)
                    self.note(Z_DISCARD, 0, card, 1)
                self.phase = HANDLIMIT
                if self.log is not None:
                    self.tell("discard", said.said_hand_limit, (seat, card))
        self._run()

    def _play(self, seat: int, card: int) -> None:
        """Play ``card`` from ``seat``'s hand; what that means depends on the phase and card."""
        g = self.game
        hand = self.hands[seat]
        hand.remove(card)
        if self.changes is not None:
            self.note(Z_HAND, seat, card, 0)
        ph = self.phase
        t = g.TYPE[card]
        if self.log is not None and t != C.POWER and ph != WEAPON:  # those say more where they land
            self.tell("play", said.said_play, (seat, card))
        if t == C.CHARACTER:  # DS5.1
            self._enter(card, seat)
            return
        if g.IS_ATTACH[card]:  # DS5.2: chosen character next
            self.pending = card
            self.phase = ONTO
            return
        self.discard.append(card)
        if self.changes is not None:
            self.note(Z_DISCARD, 0, card, 1)
        if ph == WEAPON:  # DS6.2
            self._declare(seat, card)
        elif t == C.POWER:  # DS6.5
            self._power(seat, card)
        else:
            self._event(seat, card)

    def _attach(self, seat: int, host: int) -> None:
        g = self.game
        card = self.pending
        s = g.SLOT[host]
        self.own_att_on()[card] = host
        self.mpow = replaced(self.mpow, s, self.mpow[s] + g.POW[card])
        if self.changes is not None:
            self.note(Z_ATT, 0, card, 0)
            self.note(Z_CHAR, 0, host, 0)
        if g.TYPE[card] == C.LOCATION:
            self.loc = replaced(self.loc, s, card)
        self.pending = -1
        self.phase = SUMMON
        if self.log is not None:
            self.tell("attach", said.said_attach, (card, host, self.mpow[s] - g.POW[card], self.mpow[s]))

    def result(self) -> Result:
        if not self.is_over:
            raise ValueError("the game is not over")
        g = self.game
        details: dict[str, Any] = {
            "viable": [len(self._viable_on(s)) for s in (0, 1)],
            "good": g.good,
            "evil": g.evil,
        }
        if self.reason == "turn-limit" or self.winner == 2:
            return Result(
                (0.5, 0.5), (1, 1), (), self.reason, self.turn, truncated=self.reason == "turn-limit", draw=True,
                details=details,
            )  # fmt: skip
        w = self.winner
        scores = (1.0, 0.0) if w == 0 else (0.0, 1.0)
        ranks = (1, 2) if w == 0 else (2, 1)
        return Result(scores, ranks, (w,), self.reason, self.turn, details=details)

    def _why_illegal(self, action: Action) -> str | None:
        from cardtable.games.doctor_strange.refusals import why_illegal

        return why_illegal(self, action)

    def _view(self, seat: int | None) -> dict[str, JSON]:
        from cardtable.games.doctor_strange.view import view

        return view(self, seat)

    def _snapshot(self) -> dict[str, JSON]:
        from cardtable.games.doctor_strange.view import snapshot

        return snapshot(self)

    def _known_cards(self, seat: int | None) -> set[int]:
        self._check_seat(seat)
        known = set(self.chars)
        known.update(c for c, h in enumerate(self.att_on) if h >= 0)
        known.update(self.discard)
        known.update(self.killed)
        known.update(self.exiled)
        if self.pending >= 0:
            known.add(self.pending)
        if seat is not None:
            known.update(self.hands[seat])
            bits = self.peek[seat]
            known.update(c for c in self.stack + self.hands[1 - seat] if bits >> c & 1)
            if self.phase == TAKE and self.current_player == seat:
                known.update(self.stack)
                known.update(self.pool)
        return known

    def _new_blank(self) -> Self:
        # In the compiled build a DSState itself is made through its own constructor, told to set
        # nothing: a native call, where the default (``cls.__new__(cls)``, looked up and called as
        # Python) cost about a seventh of a clone. Pure Python, and subclasses, keep the default
        # (there the constructor's call costs more than ``__new__``).
        if COMPILED and type(self) is DSState:
            return cast(Self, DSState(self.game, 0, False, _blank=True))
        cls = type(self)  # the default's own line, not a super() call (which costs pure Python more)
        return cls.__new__(cls)

    def clone(self) -> DSState:
        o = self._clone_base()
        o.stack = self.stack.copy()
        o.pool = self.pool.copy()
        h = self.hands
        o.hands = [h[0].copy(), h[1].copy()]
        o.discard = self.discard.copy()
        o.killed = self.killed.copy()
        o.exiled = self.exiled.copy()
        o.chars = self.chars.copy()
        # Tuples (replaced whole by the rules, never changed in place): shared.
        o.side = self.side
        o.owner = self.owner
        o.incap = self.incap
        o.ctl = self.ctl
        o.cap = self.cap
        o.mpow = self.mpow
        o.loc = self.loc
        o.att_on = self.att_on  # shared until either changes it (own_att_on)
        o.changes = None  # the change list is its observer's, kept on the state it asked (DSBase.changes)
        self._att_shared = o._att_shared = True
        o.attacks = self.attacks
        o.peek = self.peek
        o.streak = self.streak
        o.fight = self.fight
        o.fpa = self.fpa
        o.fpd = self.fpd
        o.fhelp = self.fhelp
        o.xowed = self.xowed
        o.xseat = self.xseat
        o.xret = self.xret
        o.pending = self.pending
        o.evcard = self.evcard
        o.evseat = self.evseat
        o.ret = self.ret
        o.decl_a = self.decl_a
        o.decl_t = self.decl_t
        o.ares = self.ares
        o.ra = self.ra
        o.rd = self.rd
        o.ba = self.ba
        o.bd = self.bd
        o.helpers = self.helpers
        o.marked = self.marked
        o.attacked = self.attacked
        o.winner = self.winner
        o.reason = self.reason
        o.active = self.active
        o.phase = self.phase
        return o

    def _determinize(self, seat: int, rng: Rng) -> DSState:
        """Resample the deck and the opponent's hand, keeping every card ``seat`` knows in place.

        The unknown cards are the pool, the stack cards ``seat`` has not seen and the opponent's
        hand cards it has not seen. They are pooled (sorted, so the result depends only on *which*
        cards are unknown), the unknown stack and hand places are dealt uniformly from them, and the
        rest form the new pool (whose order is irrelevant: pool draws are random). This is what
        ``engine.zones.resample_hidden`` does, done in O(hand + stack) instead of a ~100-card shuffle.
        """
        self._check_seat(seat)
        other, r = self._reseeded_clone(rng)
        assert isinstance(other, DSState)
        bits = self.peek[seat]
        searching = self.phase == TAKE and self.current_player == seat
        zones = [other.hands[1 - seat]] if searching else [other.stack, other.hands[1 - seat]]
        places: list[tuple[list[int], int]] = []
        unknown: list[int] = []
        for zone in zones:
            for i, c in enumerate(zone):
                if not bits >> c & 1:
                    places.append((zone, i))
                    unknown.append(c)
        if not searching:
            unknown += other.pool
        unknown.sort()
        below = r.below
        for zone, i in places:
            j = below(len(unknown))
            zone[i] = unknown[j]
            unknown[j] = unknown[-1]
            unknown.pop()
        if not searching:
            other.pool = unknown
        if self.phase in (TARGET, WEAPON) and self.current_player != seat:
            self._keep_attack_card(other, seat, r)
        other.hands[1 - seat].sort()
        return other

    def _keep_attack_card(self, other: DSState, seat: int, r: Rng) -> None:
        """The opponent has chosen an attacker (and is choosing its target or Attack card), which is
        public proof that it holds an Attack card it may use: if the resampled hand has none, swap a
        random Attack card of the pool with a random unknown card of that hand (a small bias, but the
        state stays consistent)."""
        g = self.game
        foe = 1 - seat
        atk = g.ATK[foe]
        hand = other.hands[foe]
        if any(atk[c] for c in hand):
            return
        bits = self.peek[seat]
        pool = [i for i, c in enumerate(other.pool) if atk[c]]
        slots = [i for i, c in enumerate(hand) if not bits >> c & 1]
        if pool and slots:
            i, j = pool[r.below(len(pool))], slots[r.below(len(slots))]
            other.pool[i], hand[j] = hand[j], other.pool[i]
