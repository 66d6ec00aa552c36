"""The Doctor Strange rules: turn flow, decisions and effects (:class:`DSState`).

A turn is Mystic Arts (draw 2, E events), an any-time window for the other player, Summon,
Attack (declare every attack, each with a counter window for the defender; then resolve them in
order: dice, a power exchange, the fate) and Rest (R events, hand limit, recovery and departure
rolls, the victory check). ``_run`` advances through every automatic step and stops at the next
decision, caching its legal actions; a decision whose only choice would be ``pass`` is skipped.
Clause numbers (DS…) refer to docs/rules/doctor-strange.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardtable.engine import JSON, Action, Result, Rng, State
from cardtable.games.doctor_strange import cards as C
from cardtable.games.doctor_strange import fates as F

if TYPE_CHECKING:
    from cardtable.games.doctor_strange.game import DoctorStrange

# Decision phases (someone chooses) ...
MYSTIC, XWIN, SUMMON, ONTO, DECLARE, TARGET, WEAPON, COUNTER, EXCHANGE, HELPER, REST, DISCARD, NEGATE, TAKE = range(14)
# ... and automatic steps.
BEGIN, RESOLVE, HANDLIMIT, OVER = 20, 21, 22, 23
PHASE_NAMES = {
    MYSTIC: "mystic-arts",
    XWIN: "any-time-window",
    SUMMON: "summon",
    ONTO: "summon:choose-character",
    DECLARE: "attack:declare",
    TARGET: "attack:choose-target",
    WEAPON: "attack:choose-attack-card",
    COUNTER: "attack:counter-window",
    EXCHANGE: "attack:power-exchange",
    HELPER: "attack:call-defender",
    REST: "rest",
    DISCARD: "rest:hand-limit",
    NEGATE: "negate:choose-target",
    TAKE: "go-back-in-time:choose-card",
    BEGIN: "begin",
    RESOLVE: "attack:resolve",
    HANDLIMIT: "rest:hand-limit",
    OVER: "over",
}
# Phases in which `pass` moves on (a lone `pass` is skipped automatically).
PASSABLE = frozenset((MYSTIC, XWIN, SUMMON, DECLARE, COUNTER, EXCHANGE, REST))
HAND_LIMIT = 7


class DSState(State):
    """A Doctor Strange position. Per-character lists are indexed by slot (``game.SLOT[card]``)."""

    __slots__ = (
        "active",
        "ares",
        "att_on",
        "attacked",
        "attacks",
        "ba",
        "bd",
        "cap",
        "chars",
        "ctl",
        "decl_a",
        "decl_t",
        "discard",
        "evcard",
        "exiled",
        "hands",
        "helpers",
        "incap",
        "killed",
        "loc",
        "marked",
        "mpow",
        "owner",
        "peek",
        "pending",
        "phase",
        "pool",
        "ra",
        "rd",
        "reason",
        "ret",
        "side",
        "stack",
        "streak",
        "winner",
    )

    game: DoctorStrange

    def __init__(self, game: DoctorStrange, seed: int, log: bool) -> None:
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
        self.discard: list[int] = []
        self.killed: list[int] = []
        self.exiled: list[int] = []
        self.chars: list[int] = []
        self.side: list[int] = [-1] * k
        self.owner: list[int] = [-1] * k
        self.incap: list[int] = [0] * k
        self.ctl: list[int] = [-1] * k
        self.cap: list[int] = [-1] * k
        self.mpow: list[int] = [g.POW[c] for c in g.CHARS]
        self.loc: list[int] = [-1] * k
        self.att_on: list[int] = [-1] * n
        self.pending = -1  # a permanent card on its way to a character (public)
        self.evcard = -1  # the event waiting for its choice (negate target / Go Back in Time)
        self.ret = MYSTIC  # phase to return to after that choice
        self.decl_a = -1
        self.decl_t = -1
        self.attacks: list[int] = []  # flat triples: attacker, target, attack card
        self.ares = 0  # index of the attack being resolved
        self.ra = self.rd = self.ba = self.bd = 0  # dice and power-card bonuses of that attack
        self.helpers = 0  # bitmask of slots called to defend
        self.marked = 0  # bitmask of slots targeted this turn
        self.attacked = 0  # bitmask of slots that attacked this turn
        self.peek: list[int] = [0, 0]  # per seat: bitmask of hidden cards whose place it knows
        self.streak: list[int] = [0, 0]  # consecutive checked turns with no viable character
        self.winner = -1  # seat, 2 = both lost (draw), -1 = none
        self.reason = ""
        self._enter(g.DS, g.good)
        self._enter(g.BM, g.evil)
        self.active = g.evil
        self.phase = BEGIN
        if self.log is not None:
            self.emit(
                "setup",
                f"{g.seat_name(g.good)} (seat {g.good}) starts with Doctor Strange, {g.seat_name(g.evil)} "
                f"(seat {g.evil}) with Baron Mordo; each holds 7 cards. Evil goes first.",
            )
            for seat in (0, 1):
                self.emit("deal", f"{g.seat_name(seat)} is dealt 7 cards", self._names_text(self.hands[seat]), (seat,))
        self._run()

    # -- small helpers ------------------------------------------------------------------------------
    def _names_text(self, cards: list[int]) -> str:
        return "you hold: " + ", ".join(self.game.card_name(c) for c in sorted(cards))

    def _enter(self, card: int, seat: int) -> None:
        """A character comes into play on ``seat``'s side, owned by ``seat``, clean."""
        s = self.game.SLOT[card]
        self.side[s] = seat
        self.owner[s] = seat
        self.incap[s] = 0
        self.ctl[s] = -1
        self.cap[s] = -1
        self.loc[s] = -1
        self.mpow[s] = self.game.POW[card]
        self.chars.append(card)

    def _viable_on(self, seat: int) -> list[int]:
        slot, side, incap, cap = self.game.SLOT, self.side, self.incap, self.cap
        out = []
        for c in self.chars:
            s = slot[c]
            if side[s] == seat and not incap[s] and cap[s] < 0:
                out.append(c)
        return out

    @property
    def deck(self) -> list[int]:
        """The deck as one list, top card last (a copy; the pool part's order is arbitrary)."""
        return self.pool + self.stack

    def _pick(self) -> int:
        """Remove and return a uniform random card of the (non-empty) pool."""
        pool = self.pool
        i = self.rng.below(len(pool))
        c = pool[i]
        pool[i] = pool[-1]
        pool.pop()
        return c

    def _forget_deck_order(self) -> None:
        """The deck is shuffled: the stack goes back into the pool and nobody knows deck places."""
        self.pool += self.stack
        self.stack.clear()
        mask = 0
        for c in self.pool:
            mask |= 1 << c
        self.peek[0] &= ~mask
        self.peek[1] &= ~mask

    def _draw(self, seat: int, count: int) -> None:
        """Draw ``count`` cards; an empty deck is replaced by the shuffled discard pile (DS4.1)."""
        hand = self.hands[seat]
        got = []
        for _ in range(count):
            if self.stack:
                c = self.stack.pop()
            else:
                if not self.pool:
                    if not self.discard:
                        break
                    self.pool, self.discard = self.discard, []
                    self._forget_deck_order()
                    self.emit("reshuffle", f"the deck ran out: the discard pile ({len(self.pool)} cards) is shuffled")
                c = self._pick()
            hand.append(c)
            got.append(c)
        if self.log is not None:
            g = self.game
            self.emit(
                "draw",
                f"{g.seat_name(seat)} draws {len(got)} card(s)",
                f"you draw {', '.join(g.card_name(c) for c in got) or 'nothing'}",
                (seat,),
            )

    def _hosts(self, seat: int, card: int) -> list[int]:
        """Characters on ``seat``'s side (not captives) that may take the permanent ``card`` (DS5.2)."""
        g = self.game
        need_free_loc = g.TYPE[card] == C.LOCATION
        out = []
        for c in self.chars:
            s = g.SLOT[c]
            if self.side[s] == seat and self.cap[s] < 0 and not (need_free_loc and self.loc[s] >= 0):
                out.append(c)
        return out

    def _negate_targets(self, seat: int, what: str) -> list[int]:
        """What a Negate card of kind ``what`` played by ``seat`` may target (DS10.2)."""
        g = self.game
        slot, owner = g.SLOT, self.owner
        if what == "kill":
            return [c for c in self.killed if owner[slot[c]] == seat]
        if what == "exile":
            return [c for c in self.exiled if owner[slot[c]] == seat]
        if what == "incapacitate":
            return [c for c in self.chars if self.side[slot[c]] == seat and self.incap[slot[c]]]
        if what == "capture":
            return [c for c in self.chars if self.cap[slot[c]] >= 0 and owner[slot[c]] == seat]
        # item: any Item card attached to a character in play
        return [c for c in range(g.N) if g.TYPE[c] == C.ITEM and self.att_on[c] >= 0]

    def _event_ok(self, seat: int, card: int) -> bool:
        """Would the event have an effect now (a Negate needs a target, a deck search a deck)?"""
        kind = self.game.EVENT_KIND[card]
        if kind in ("search_deck", "look_deck"):
            return bool(self.stack or self.pool)
        if kind == "negate":
            return bool(self._negate_targets(seat, self.game.NEGATE[card]))
        return kind in ("draw", "discard_hand", "look_hand")

    def _any_time(self, seat: int, out: list[Action]) -> None:
        """Add the X events ``seat`` may play now (DS10.3)."""
        g = self.game
        hand = self.hands[seat]
        for c in g.XCARDS:
            if c in hand and g.USE[seat][c] and self._event_ok(seat, c):
                out.append(g.PLAY[c])

    def _totals(self) -> tuple[int, int]:
        """Attack Total and Defense Total of the attack being resolved (DS6.4)."""
        g = self.game
        i = self.ares * 3
        a, t = self.attacks[i], self.attacks[i + 1]
        atk = self.ra + self.mpow[g.SLOT[a]] + self.ba
        dfn = self.rd + self.mpow[g.SLOT[t]] + self.bd
        h = self.helpers
        s = 0
        while h:
            if h & 1:
                dfn += self.mpow[s]
            h >>= 1
            s += 1
        return atk, dfn

    def _helpers_for(self, seat: int) -> list[int]:
        """Unmarked friendly viable characters that are not yet helping (DS6.7)."""
        g = self.game
        t = self.attacks[self.ares * 3 + 1]
        out = []
        for c in self._viable_on(seat):
            b = 1 << g.SLOT[c]
            if c != t and not (self.marked & b) and not (self.helpers & b):
                out.append(c)
        return out

    # -- the flow ------------------------------------------------------------------------------------
    def _decider(self) -> int:
        ph = self.phase
        if ph in (COUNTER, HELPER, XWIN):
            return 1 - self.active
        if ph == EXCHANGE:
            atk, dfn = self._totals()
            return 1 - self.active if atk >= dfn else self.active
        return self.active

    def _run(self) -> None:
        """Carry out automatic steps until someone must decide (or the game ends)."""
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
            if ph in (MYSTIC, REST, XWIN) and not self._may_play_event(ph):
                self._pass()  # fast path: no event card in hand, so nothing to decide
                continue
            self.current_player = self._decider()
            opts = self._options()
            if ph in PASSABLE and len(opts) == 1:
                self._pass()
                continue
            self._legal = opts
            return

    def _may_play_event(self, ph: int) -> bool:
        """Cheap pre-check: does the deciding seat hold any event it could play in this phase?"""
        g = self.game
        seat = self.active if ph != XWIN else 1 - self.active
        ok = g.MYSTX[seat] if ph == MYSTIC else g.RESTX[seat] if ph == REST else None
        hand = self.hands[seat]
        if ok is None:
            return any(c in hand for c in g.XCARDS)
        return any(ok[c] for c in hand)

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
        elif ph in (MYSTIC, REST):  # DS4, DS7.1
            ok = g.MYST[seat] if ph == MYSTIC else g.RESTEV[seat]
            for c in hand:
                if ok[c] and self._event_ok(seat, c):
                    out.append(play[c])
            self._any_time(seat, out)
        elif ph in (XWIN, COUNTER):  # DS10.1, DS10.3
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
        else:  # REST
            self.phase = HANDLIMIT

    # -- decisions -----------------------------------------------------------------------------------
    def _legal_actions(self) -> list[Action]:
        # Only reached when the cache was dropped (clone of a determinized state): recompute.
        self.current_player = self._decider()
        return self._options()

    def _do(self, action: Action) -> None:
        g = self.game
        seat = self.current_player
        assert seat is not None
        kind = action.kind
        if kind == "pass":
            if self.log is not None:
                self.emit("pass", f"{g.seat_name(seat)} passes ({PHASE_NAMES[self.phase]})")
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
                self.helpers |= 1 << g.SLOT[card]
                self.phase = EXCHANGE
                self.emit(
                    "call-defender", f"{g.card_name(card)} adds its power {self.mpow[g.SLOT[card]]} to the defence"
                )
            elif kind == "negate":
                self._negate(seat, card)
            elif kind == "take":
                self._take(seat, card)
            else:  # discard
                self.hands[seat].remove(card)
                self.discard.append(card)
                self.phase = HANDLIMIT
                self.emit("discard", f"{g.seat_name(seat)} discards {g.card_name(card)} (hand limit)")
        self._run()

    def _play(self, seat: int, card: int) -> None:
        """Play ``card`` from ``seat``'s hand; what that means depends on the phase and card."""
        g = self.game
        hand = self.hands[seat]
        hand.remove(card)
        ph = self.phase
        t = g.TYPE[card]
        if self.log is not None:
            self.emit("play", f"{g.seat_name(seat)} plays {g.card_name(card)}")
        if t == C.CHARACTER:  # DS5.1
            self._enter(card, seat)
            return
        if g.IS_ATTACH[card]:  # DS5.2: chosen character next
            self.pending = card
            self.phase = ONTO
            return
        self.discard.append(card)
        if ph == WEAPON:  # DS6.2
            self._declare(seat, card)
        elif t == C.POWER:  # DS6.5
            if seat == self.active:
                self.ba += g.BONUS[0][card]
            else:
                self.bd += g.BONUS[1][card]
        else:
            self._event(seat, card)

    def _attach(self, seat: int, host: int) -> None:
        g = self.game
        card = self.pending
        s = g.SLOT[host]
        self.att_on[card] = host
        self.mpow[s] += g.POW[card]
        if g.TYPE[card] == C.LOCATION:
            self.loc[s] = card
        self.pending = -1
        self.phase = SUMMON
        if self.log is not None:
            self.emit("attach", f"{g.card_name(card)} is attached to {g.card_name(host)}")

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

    def _event(self, seat: int, card: int) -> None:
        """Carry out an event's effects (the card is already in the discard pile)."""
        g = self.game
        ph = self.phase
        for eff in g.cards.effects[card]:
            do = eff["do"]
            if do == "draw":
                self._draw(seat, int(eff["amount"]))
            elif do == "discard_hand":
                hand = self.hands[seat]
                self.discard.extend(hand)
                if self.log is not None:
                    self.emit("discard", f"{g.seat_name(seat)} discards their hand: {self._plain(hand)}")
                hand.clear()
            elif do == "look_hand":
                other = self.hands[1 - seat]
                for c in other:
                    self.peek[seat] |= 1 << c
                if self.log is not None:
                    self.emit(
                        "look",
                        f"{g.seat_name(seat)} looks at {g.seat_name(1 - seat)}'s hand",
                        f"{g.seat_name(1 - seat)} holds: {self._plain(sorted(other)) or 'nothing'}",
                        (seat,),
                    )
            elif do == "look_deck":
                count = int(eff["count"])
                while len(self.stack) < count and self.pool:
                    self.stack.insert(0, self._pick())  # fix the order of the next cards, from the pool
                top = self.stack[-count:]
                for c in top:
                    self.peek[seat] |= 1 << c
                if self.log is not None:
                    self.emit(
                        "look",
                        f"{g.seat_name(seat)} looks at the next {len(top)} card(s) of the deck",
                        f"next cards, top first: {self._plain(top[::-1])}",
                        (seat,),
                    )
            elif do == "counter":  # DS10.1: the attack being declared is cancelled
                a, _t, w = self.attacks[-3:]
                del self.attacks[-3:]
                self.marked = 0
                for i in range(1, len(self.attacks), 3):
                    self.marked |= 1 << g.SLOT[self.attacks[i]]
                self.phase = DECLARE
                self.emit("counter", f"{g.NAMES[card]} counters {g.NAMES[w]}: {g.NAMES[a]}'s attack is cancelled")
            elif do == "call_defender":
                self.phase = HELPER
            else:  # negate or search_deck: a choice follows
                self.evcard = card
                self.ret = ph
                self.phase = NEGATE if do == "negate" else TAKE

    def _plain(self, cards: list[int]) -> str:
        return ", ".join(self.game.card_name(c) for c in cards)

    def _negate(self, seat: int, target: int) -> None:
        """A Negate ends a fate or discards an Item (DS10.2)."""
        g = self.game
        what = g.NEGATE[self.evcard]
        s = g.SLOT[target]
        if what in ("kill", "exile"):
            (self.killed if what == "kill" else self.exiled).remove(target)
            self._enter(target, seat)
            self.emit("negate", f"{g.NAMES[self.evcard]}: {g.card_name(target)} returns to play, viable")
        elif what == "incapacitate":
            self.incap[s] = 0
            self.emit("negate", f"{g.NAMES[self.evcard]}: {g.card_name(target)} is no longer incapacitated")
        elif what == "capture":
            F.release(self, target, f"{g.NAMES[self.evcard]}")
            F.settle(self)
        else:
            host = self.att_on[target]
            F.discard_attachment(self, target)
            self.emit("negate", f"{g.NAMES[self.evcard]}: {g.card_name(target)} on {g.NAMES[host]} is discarded")
        self.evcard = -1
        self.phase = self.ret

    def _take(self, seat: int, card: int) -> None:
        """Go Back in Time: keep the chosen card, then shuffle the deck (DS4.3)."""
        g = self.game
        (self.stack if card in self.stack else self.pool).remove(card)
        self.hands[seat].append(card)
        self._forget_deck_order()
        # The other seat may have known this card's place in the deck; it cannot tell which card was taken.
        self.peek[1 - seat] &= ~(1 << card)
        self.emit(
            "search",
            f"{g.seat_name(seat)} takes a card from the deck, which is shuffled",
            f"you take {g.card_name(card)}",
            (seat,),
        )
        self.evcard = -1
        self.phase = self.ret

    # -- attack resolution ---------------------------------------------------------------------------
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

    # -- rest phase and end of turn -------------------------------------------------------------------
    def _rest_rolls(self) -> None:
        """Recovery rolls for incapacitated characters, then departure rolls for power >= 10 (DS7.2-7.3)."""
        g = self.game
        slot, me = g.SLOT, self.active
        for c in list(self.chars):
            s = slot[c]
            if self.side[s] == me and self.incap[s] and self.cap[s] < 0:
                r = self.rng.roll(12)
                if r >= 11:
                    self.incap[s] = 0
                self.emit("recover", f"{g.NAMES[c]} rolls {r}: {'recovers' if r >= 11 else 'stays incapacitated'}")
        for c in list(self.chars):
            s = slot[c]
            if self.side[s] == me and self.cap[s] < 0 and g.POW[c] >= 10:
                r = self.rng.roll(12)
                self.emit("depart", f"{g.NAMES[c]} (power {g.POW[c]}) rolls {r}")
                if r >= 11:
                    F.remove_from_play(self, c, self.discard, "called away by better things to do (discarded)")
                    F.settle(self)

    def _end_turn(self) -> None:
        """Victory check (DS11), turn limit (DS12), then the other player's turn begins."""
        g = self.game
        check = self.turn >= g.victory_from
        if g.rounds:
            check = self.active == g.good and (self.turn + 1) // 2 >= g.victory_from
        if check:
            for seat in (0, 1):
                self.streak[seat] = 0 if self._viable_on(seat) else self.streak[seat] + 1
            lost = [seat for seat in (0, 1) if self.streak[seat] >= 2]
            if lost:
                self.winner = 2 if len(lost) == 2 else 1 - lost[0]
                self.reason = "no-viable-characters"
                self.phase = OVER
                self.emit("end", self._end_text())
                return
        if self.turn >= g.turn_limit:
            self.reason = "turn-limit"
            self.phase = OVER
            self.emit("end", f"the turn limit ({g.turn_limit}) is reached: the game stops undecided")
            return
        self.turn += 1
        self.active = 1 - self.active
        self.attacks = []
        self.ares = 0
        self.marked = self.attacked = 0
        self.phase = BEGIN
        if self.log is not None:
            self.emit("turn", f"turn {self.turn}: {g.seat_name(self.active)}")

    def _end_text(self) -> str:
        g = self.game
        if self.winner == 2:
            return "both players have had no viable character for 2 turns: nobody wins"
        return (
            f"{g.seat_name(1 - self.winner)} has had no viable character for 2 turns: {g.seat_name(self.winner)} wins"
        )

    # -- protocol ------------------------------------------------------------------------------------
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

    def _view(self, seat: int | None) -> dict[str, JSON]:
        from cardtable.games.doctor_strange.view import view

        return view(self, seat)

    def _snapshot(self) -> dict[str, JSON]:
        from cardtable.games.doctor_strange.view import snapshot

        return snapshot(self)

    def known_cards(self, seat: int | None) -> set[int]:
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

    def clone(self) -> DSState:
        o: Any = self._clone_base()
        o.stack = self.stack.copy()
        o.pool = self.pool.copy()
        h = self.hands
        o.hands = [h[0].copy(), h[1].copy()]
        o.discard = self.discard.copy()
        o.killed = self.killed.copy()
        o.exiled = self.exiled.copy()
        o.chars = self.chars.copy()
        o.side = self.side.copy()
        o.owner = self.owner.copy()
        o.incap = self.incap.copy()
        o.ctl = self.ctl.copy()
        o.cap = self.cap.copy()
        o.mpow = self.mpow.copy()
        o.loc = self.loc.copy()
        o.att_on = self.att_on.copy()
        o.attacks = self.attacks.copy()
        o.peek = self.peek.copy()
        o.streak = self.streak.copy()
        o.pending = self.pending
        o.evcard = self.evcard
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
        return o  # type: ignore[no-any-return]

    def determinize(self, seat: int, rng: Rng | int) -> DSState:
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
        if self.phase == WEAPON and self.current_player != seat:
            self._keep_attack_card(other, seat, r)
        return other

    def _keep_attack_card(self, other: DSState, seat: int, r: Rng) -> None:
        """The opponent is choosing the Attack card for a declared attacker, which is public proof
        that it holds one: if the resampled hand has none, swap a random Attack card of the pool with
        a random unknown card of that hand (a small bias, but the state stays consistent)."""
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
