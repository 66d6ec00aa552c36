"""The deck and the Event cards: drawing, searching and looking (DS4), Negate (DS10.2), the
any-time looks (DS10.4) and knowledge of hidden cards."""

from __future__ import annotations

from mypy_extensions import mypyc_attr

from cardtable.engine.events import only
from cardtable.games.doctor_strange import cards as C
from cardtable.games.doctor_strange import fates as F
from cardtable.games.doctor_strange import said
from cardtable.games.doctor_strange.base import DECLARE, HELPER, NEGATE, TAKE, DSBase, replaced
from cardtable.games.doctor_strange.changes import Z_CHAR, Z_DISCARD, Z_EXILED, Z_HAND, Z_KILLED


@mypyc_attr(allow_interpreted_subclasses=True)  # clone's _new_blank, and subclasses in tests
class Effects(DSBase):
    """Deck and event rules: the first layer of :class:`~.state.DSState` over :class:`~.base.DSBase`."""

    __slots__ = ()

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
        peek = self.peek
        self.peek = (peek[0] & ~mask, peek[1] & ~mask)

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
                    if self.changes is not None:
                        for d in self.discard:
                            self.note(Z_DISCARD, 0, d, 0)
                    self.pool, self.discard = self.discard, []
                    self._forget_deck_order()
                    if self.fight and self.fight[4] >= 0:
                        self.fight = ()  # the last fight's cards are back in the deck: its record goes
                    self.emit("reshuffle", f"the deck ran out: the discard pile ({len(self.pool)} cards) is shuffled")
                c = self._pick()
            hand.append(c)
            got.append(c)
            if self.changes is not None:
                self.note(Z_HAND, seat, c, 1)
        hand.sort()  # hands are kept sorted: their order says nothing, and must not differ between deals
        if self.log is not None:
            self.tell("draw", said.said_draw, (seat, tuple(got)), only(seat))

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
                if self.changes is not None:
                    for d in hand:
                        self.note(Z_HAND, seat, d, 0)
                        self.note(Z_DISCARD, 0, d, 1)
                if self.log is not None:
                    self.emit("discard", f"{g.seat_name(seat)} discards their hand: {self._plain(hand)}")
                hand.clear()
            elif do == "look_hand":
                other = self.hands[1 - seat]
                bits = self.peek[seat]
                for c in other:
                    bits |= 1 << c
                self.peek = replaced(self.peek, seat, bits)
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
                bits = self.peek[seat]
                for c in top:
                    bits |= 1 << c
                self.peek = replaced(self.peek, seat, bits)
                if self.log is not None:
                    self.emit(
                        "look",
                        f"{g.seat_name(seat)} looks at the next {len(top)} card(s) of the deck",
                        f"next cards, top first: {self._plain(top[::-1])}",
                        (seat,),
                    )
            elif do == "counter":  # DS10.1: the attack being declared is cancelled
                a, _t, w = self.attacks[-3:]
                self.attacks = self.attacks[:-3]
                self.marked = 0
                for i in range(1, len(self.attacks), 3):
                    self.marked |= 1 << g.SLOT[self.attacks[i]]
                self.phase = DECLARE
                self.emit("counter", f"{g.NAMES[card]} counters {g.NAMES[w]}: {g.NAMES[a]}'s attack is cancelled")
            elif do == "call_defender":
                self.phase = HELPER
            else:  # negate or search_deck: a choice follows
                self.evcard = card
                self.evseat = seat
                self.ret = ph
                self.phase = NEGATE if do == "negate" else TAKE

    def _negate(self, seat: int, target: int) -> None:
        """A Negate ends a fate or discards an Item (DS10.2)."""
        g = self.game
        what = g.NEGATE[self.evcard]
        s = g.SLOT[target]
        if what in ("kill", "exile"):
            (self.killed if what == "kill" else self.exiled).remove(target)
            if self.changes is not None:
                self.note(Z_KILLED if what == "kill" else Z_EXILED, 0, target, 0)
            self._enter(target, seat)
            self.emit("negate", f"{g.NAMES[self.evcard]}: {g.card_name(target)} returns to play, viable")
        elif what == "incapacitate":
            self.incap = replaced(self.incap, s, 0)
            if self.changes is not None:
                self.note(Z_CHAR, 0, target, 0)
            self.emit("negate", f"{g.NAMES[self.evcard]}: {g.card_name(target)} is no longer incapacitated")
        elif what == "capture":
            F.release(self, target, f"{g.NAMES[self.evcard]}")
            F.settle(self)
        else:
            host = self.att_on[target]
            F.discard_attachment(self, target)
            self.emit("negate", f"{g.NAMES[self.evcard]}: {g.card_name(target)} on {g.NAMES[host]} is discarded")
        self.evcard = self.evseat = -1
        self.phase = self.ret

    def _take(self, seat: int, card: int) -> None:
        """Go Back in Time: keep the chosen card, then shuffle the deck (DS4.3)."""
        g = self.game
        (self.stack if card in self.stack else self.pool).remove(card)
        self.hands[seat].append(card)
        self.hands[seat].sort()
        if self.changes is not None:
            self.note(Z_HAND, seat, card, 1)
        self._forget_deck_order()
        # The other seat may have known this card's place in the deck; it cannot tell which card was taken.
        self.peek = replaced(self.peek, 1 - seat, self.peek[1 - seat] & ~(1 << card))
        # Nor may the action history tell it (searches and their tree reuse read the history).
        self.conceal_last((seat,))
        self.emit(
            "search",
            f"{g.seat_name(seat)} takes a card from the deck, which is shuffled",
            f"you take {g.card_name(card)}",
            (seat,),
        )
        self.evcard = self.evseat = -1
        self.phase = self.ret
