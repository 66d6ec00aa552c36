"""Army of Darkness's observer: :class:`~cardtable.rl.encode.army_of_darkness.ArmyOfDarknessEncoder`'s
vector from the state.

Reads :class:`~cardtable.games.army_of_darkness.state.AodState` the way
:mod:`cardtable.games.army_of_darkness.view` builds a seat's view: the seat's own hand, other hands
only where a card was taken there face up (``shown``), every tabled card, the public piles, whose
turn and which step it is, and each seat's side and counts.
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
)
from cardtable.games.army_of_darkness.game import ArmyOfDarkness
from cardtable.games.army_of_darkness.state import AodState
from cardtable.rl.encode.army_of_darkness import PLAYER_FEATURES, STEPS, ArmyOfDarknessEncoder
from cardtable.rl.observe.base import Buffer, Memo, Observer, clip

_HAND: Final = 1
_DISCARD: Final = 2
_REMOVED: Final = 3
_PLAYING: Final = 4
_RETURNING: Final = 5
_TURN: Final = 6
_DECK: Final = 7
_SEEN: Final = 8
"""The ``marks`` list of the state this buffer last observed (its identity) and a copy of it then."""
_SEATS: Final = 9
"""Five slots per seat from here: numbers, monsters, allies, items, cards known in hand."""


class ArmyOfDarknessObserver(Observer):
    game_id: ClassVar[str] = "army-of-darkness"

    def build(self) -> None:
        enc = self.encoder
        assert isinstance(enc, ArmyOfDarknessEncoder)
        g = self.game
        assert isinstance(g, ArmyOfDarkness)
        n = self.players
        self.slots = _SEATS + 5 * n
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

    def fill(self, state: AodState, seat: int, out: Buffer, memo: Memo) -> None:
        st = state
        n = self.players
        cards = self.cards
        hand = st.hands[seat]
        if hand != memo[_HAND]:
            cards(out, self.c_hand, memo[_HAND], hand)
            memo[_HAND] = hand.copy()
        discard = st.discard
        if discard != memo[_DISCARD] and (discard or memo[_DISCARD]):
            cards(out, self.c_discard, memo[_DISCARD], discard)
            memo[_DISCARD] = discard.copy()
        if memo[_REMOVED] is None:
            cards(out, self.c_removed, None, self.removed)
            memo[_REMOVED] = True
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
        key: tuple[int, ...] = ()
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
            key = (self.turn_of_at + (st.active - seat) % n, self.step_at + k)
        old = memo[_TURN]
        if key != old:
            for i in old or ():
                out[i] = 0.0
            for i in key:
                out[i] = 1.0
            memo[_TURN] = key
        deck = len(st.deck)
        if deck != memo[_DECK]:
            out[self.deck_at] = clip(deck / self.n_cards)
            memo[_DECK] = deck

        # The seats' part is most of the work. The rules bump ``marks[s]`` whenever they change seat
        # ``s``'s hand, tabled cards, side, switches or reduced state (AodState's docstring): a seat
        # whose mark is the one this buffer saw, on this very state, wrote the same numbers last time
        # and is skipped. The state is known by its ``marks`` list, which no other state shares (a
        # clone copies it) and which the memo holds, so its identity cannot pass to another list
        # (a memo keeps no state alive, and pickles small). Any other state (a clone, a determinized
        # copy, a tracker unpickled on its own) goes through the comparisons below, as a first
        # observation does.
        marks = st.marks
        seen = memo[_SEEN]
        same = seen is not None and seen[0] is marks
        saw: list[int] = seen[1] if same else []
        width = self.width
        shown = st.shown
        necro = self.necro
        c_mon, c_ally, c_item = self.c_tabled
        for s in range(n):
            if same and saw[s] == marks[s]:
                continue
            r = (s - seat) % n
            slot = _SEATS + 5 * r
            hand = st.hands[s]
            mon, ally, item = st.mon[s], st.ally[s], st.item[s]
            holds = not necro.isdisjoint(item)
            key = (st.side[s], len(hand), len(mon), len(ally), len(item), holds, st.switches[s], st.reduced[s])
            was = memo[slot]
            if key != was:
                # Only the numbers that changed are written (a decision changes one or two counts of
                # a seat; a write into the buffer costs more than a comparison). The counts are never
                # negative: ``v if v < 1.0 else 1.0`` is ``clip(v)``.
                base = self.players_at + r * width
                fresh = was is None
                if fresh or key[0] != was[0]:
                    good = key[0] == GOOD
                    out[base] = 1.0 if good else 0.0
                    out[base + 1] = 0.0 if good else 1.0
                for i in range(1, 5):
                    if fresh or key[i] != was[i]:
                        v = key[i] / (10.0 if i == 1 else 5.0)
                        out[base + 1 + i] = v if v < 1.0 else 1.0
                if fresh or holds != was[5]:
                    out[base + 6] = 1.0 if holds else 0.0
                if fresh or key[6] != was[6]:
                    v = key[6] / 5.0
                    out[base + 7] = v if v < 1.0 else 1.0
                if fresh or key[7] != was[7]:
                    out[base + 8] = 1.0 if key[7] in (REDUCED, ARMED) else 0.0
                memo[slot] = key
            # The tabled cards, kind by kind (the state's list against the copy kept last time).
            now = mon
            old = memo[slot + 1]
            if now != old and (now or old):
                cards(out, c_mon[r], old, now)
                memo[slot + 1] = now.copy()
            now = ally
            old = memo[slot + 2]
            if now != old and (now or old):
                cards(out, c_ally[r], old, now)
                memo[slot + 2] = now.copy()
            now = item
            old = memo[slot + 3]
            if now != old and (now or old):
                cards(out, c_item[r], old, now)
                memo[slot + 3] = now.copy()
            if r:
                known = [c for c in hand if c in shown] if shown else []
                old = memo[slot + 4]
                if known != old and (known or old):
                    cards(out, self.c_known[r], old, known)
                    memo[slot + 4] = known
        memo[_SEEN] = (marks, marks.copy())
