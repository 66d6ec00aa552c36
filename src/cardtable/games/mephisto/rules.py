"""Mephisto's rules: the state, the turn flow, every action and every effect.

The state is flat for speed: card ids in plain lists, per-card durability/host tables, bit masks for
"publicly known in a hand" and "activated this turn", and an effect queue of small tuples.

Turn flow (clause M6): ``_start_turn`` draws, then the seat decides in the *play* step (play a card,
activate, or start its one action); after the action comes the solitaire discard step (solo only)
and the *refill* step; ``_advance`` drives this machine and stops whenever someone must decide. Every
effect goes through the queue; an effect that needs a choice (which card to discard, which weapon to
repair or damage, ...) opens a decision for the seat that makes it.

Single forced choices (docs/rules/mephisto.md, "Who decides"): a choice resolves by itself exactly
when every seat can tell from public information that it has a single outcome (one monster in the
fight's lane, no favor to spend, one damaged card to repair, a hand no bigger than the number of
cards to discard or to pay, ...); otherwise it is offered, even when the deciding seat's hidden
cards leave it one sensible move.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final, Self, cast

from mypy_extensions import mypyc_attr

from cardtable.engine import JSON, Action, Result, Rng, State
from cardtable.engine.changes import append_entry
from cardtable.engine.events import only
from cardtable.engine.game import COMPILED
from cardtable.engine.seats import label_seat
from cardtable.games.mephisto.cards import (
    ALL,
    BONUS,
    DAMAGE,
    DISCARD,
    DRAW,
    GAIN,
    LOSE,
    MONSTER,
    REPAIR,
    SPELL,
    T_FIGHT_WON,
    T_FIGHTING,
    T_LOOT,
    T_SUMMON,
    T_TURN_START,
    WEAPON,
    YOU,
    Effect,
)
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
)
from cardtable.games.mephisto.words import (
    said_activate,
    said_attach,
    said_beside,
    said_bonus,
    said_break,
    said_damage,
    said_deal,
    said_discard,
    said_draw,
    said_favor,
    said_fight,
    said_fight_over,
    said_first,
    said_into_lane,
    said_loot,
    said_loot_deck,
    said_over,
    said_pay,
    said_refill,
    said_repair,
    said_solo_none,
    said_solo_remove,
    said_solo_top,
    said_summon,
    said_summon_take,
    said_target,
    said_turn,
    team_name,
)

if TYPE_CHECKING:
    from cardtable.games.mephisto.game import Mephisto

# Steps of a turn (where the flow resumes once the effect queue is empty).
_COW_DUR: Final = 1
_COW_HOST: Final = 2
"""Bits of ``MephistoState._cow``: the per-card tables a clone shares with its original until one of
the two changes them (copy on write, so that clone need not copy 2 x the deck's size)."""

S_PLAY: Final = 0
S_AFTER: Final = 1
S_SOLO: Final = 2
S_REFILL: Final = 3
S_END: Final = 4
STEP_NAMES = ("play", "after-action", "solitaire-discard", "refill", "end")
# Open decisions.
P_PLAY: Final = 0
P_PAY: Final = 1
P_MON: Final = 2
P_WPN: Final = 3
P_FAVOR: Final = 4
P_TAKE: Final = 5
P_ATTACH: Final = 6
P_TARGET: Final = 7
P_REPAIR: Final = 8
P_DAMAGE: Final = 9
P_DISCARD: Final = 10
P_REMOVE: Final = 11
P_OVER: Final = 12
PHASE_NAMES = (
    "play",
    "pay",
    "fight-monsters",
    "fight-weapons",
    "fight-favor",
    "summon-take",
    "attach",
    "target",
    "repair",
    "damage",
    "discard",
    "solitaire-remove",
    "over",
)
PHASE_KINDS: tuple[frozenset[str], ...] = (
    frozenset({"play", "activate", "loot", "loot-deck", "fight", "summon", "done", "switch"}),
    frozenset({"discard"}),
    frozenset({"monster", "done"}),
    frozenset({"weapon", "done"}),
    frozenset({"spend"}),
    frozenset({"take"}),
    frozenset({"attach"}),
    frozenset({"target"}),
    frozenset({"repair"}),
    frozenset({"damage"}),
    frozenset({"discard"}),
    frozenset({"remove"}),
    frozenset(),
)
"""The action kinds each decision offers (for errors that say what is being decided instead)."""
FINISH: Final = 7
"""Queue op after a spell's effects: the spell leaves limbo for the discard pile."""
PHANTOM: Final = -1
"""The causer of solitaire refill effects ("as if it isn't your turn")."""
DUNGEON_SPACES: Final = 6
HAND_SIZE: Final = 3
START_FAVOR: Final = 5
MAX_FAVOR: Final = 10
SUMMON_FAVOR: Final = 3

QueueEntry = tuple[int, int, int, int, int]
"""An effect waiting to resolve: (op, amount, affected seat (-1: the chooser picks among opponents),
chooser, source card)."""


@mypyc_attr(allow_interpreted_subclasses=True)  # clone's _new_blank, and subclasses in tests
class MephistoState(State["Mephisto"]):
    """A Mephisto position. Fields are public for scenario tests; change them only between decisions.

    ``dur`` and ``host`` (per-card tables) are shared by a state and its clones until one of them
    changes its own (``_own_dur``/``_own_host`` copy first): replace them, never change them in place
    from outside.

    ``changes``: the change list for machines (the RL observer), ``None`` (kept by nobody) unless an
    observer asked for it by setting it to a list. While it is a list the rules append to it an entry
    for every change to what an observation shows of the hands, the cards in play, the souls, the
    seats' numbers, the discard pile, the dungeon, the public bits, the durabilities, activations and
    attached spells (:mod:`.changes`). An observer that kept its place in this very list reads only
    what is new. A clone or a determinized copy starts without one. Code that changes those fields by
    hand (a scenario test) sets ``changes`` to ``None``, so that every buffer is written afresh."""

    __slots__ = (
        "_cow",
        "acted",
        "activated",
        "actor",
        "attached",
        "bonus",
        "changes",
        "choices",
        "corners",
        "deck",
        "discard",
        "dungeon",
        "dur",
        "emptied_by",
        "end_turn",
        "favor",
        "fight_lane",
        "fight_mons",
        "fight_wpns",
        "first",
        "handed",
        "hands",
        "host",
        "inplay",
        "limbo",
        "pay_left",
        "paying",
        "pending",
        "phase",
        "pub",
        "queue",
        "runouts",
        "side",
        "soul_pts",
        "souls",
        "step",
        "team_done",
    )

    deck: list[int]
    discard: list[int]
    dungeon: list[int]
    corners: list[int]
    emptied_by: list[int]
    hands: list[list[int]]
    favor: list[int]
    souls: list[list[int]]
    soul_pts: list[int]
    inplay: list[list[int]]
    dur: list[int]
    host: list[int]
    attached: list[int]
    limbo: list[int]
    pub: int
    activated: int
    bonus: list[int]
    changes: list[int] | None
    queue: list[QueueEntry]
    choices: list[int]
    phase: int
    step: int
    actor: int
    side: int
    first: int
    runouts: int
    end_turn: int
    paying: int
    pay_left: int
    pending: int
    fight_lane: int
    fight_mons: list[int]
    fight_wpns: list[int]
    team_done: int
    acted: bool
    handed: bool
    _cow: int

    def __init__(self, game: Mephisto, seed: int, log: bool, *, _blank: bool = False) -> None:
        if _blank:  # the start of a clone (_new_blank): clone() sets every field
            return
        super().__init__(game, seed, log)
        n = game.players
        size = len(game.cards)
        self.deck = list(range(size))
        self.rng.shuffle(self.deck)
        self.discard = []
        self.hands = [[] for _ in range(n)]
        self.favor = [START_FAVOR] * n
        self.souls = [[] for _ in range(n)]
        self.soul_pts = [0] * n
        self.inplay = [[] for _ in range(n)]
        self.dur = [0] * size
        self.host = [-1] * size
        self._cow = 0
        self.attached = []
        self.limbo = []
        self.pub = 0
        self.activated = 0
        self.bonus = [0] * n
        self.changes = None
        self.queue = []
        self.choices = []
        self.phase = P_PLAY
        self.step = S_PLAY
        self.runouts = 0
        self.end_turn = 0
        self.paying = -1
        self.pay_left = 0
        self.pending = -1
        self.fight_lane = 0
        self.fight_mons = []
        self.fight_wpns = []
        self.team_done = 0
        self.acted = False
        self.handed = False
        # Setup (M3): random first player (or team), 3 cards each, 2 face-up cards in each of 3 columns;
        # 3-4 players (M10.1): two face-down corner cards (from the deck with corner-cards=dungeon).
        self.first = self.rng.below(game.n_sides)
        for _ in range(HAND_SIZE):
            for hand in self.hands:
                hand.append(self.deck.pop())
        self.dungeon = [self.deck.pop() for _ in range(DUNGEON_SPACES)]
        self.corners = [self.deck.pop(), self.deck.pop()] if game.corners_from_deck else []
        self.emptied_by = [-1] * DUNGEON_SPACES
        self.side = self.first
        self.actor = self.first
        if self.log is not None:
            self.tell("setup", said_first, (self.first,))
            if self.corners:
                self.emit("setup", "two dungeon cards are placed face down at the corners: out of the game, unseen")
            for seat in range(n):
                self.tell("deal", said_deal, (seat, tuple(self.hands[seat])), only(seat))
        self._start_turn()

    # ------------------------------------------------------------------ the log
    def _take_top(self) -> int:
        """The top card of the deck (-1 if none): an empty deck is re-formed from the discard pile."""
        deck = self.deck
        if not deck:
            if not self.discard:
                return -1
            self._reform()
            deck = self.deck
        card = deck.pop()
        if not deck:
            self._ran_out()
        return card

    def _ran_out(self) -> None:
        """M9: the deck ran out: count the pass, maybe trigger the end, re-form the deck."""
        g = self.game
        while True:
            self.runouts += 1
            if self.log is not None:
                self.emit("deck", f"the dungeon deck ran out: pass {self.runouts} of {g.passes} through it is over")
            if self.runouts >= g.passes and not self.end_turn:
                self._trigger_end()
            self._reform()
            # An empty re-formed deck (empty discard pile) is a pass that is over at once.
            if self.deck or self.end_turn:
                return

    def _reform(self) -> None:
        """The player whose turn it is shuffles the discard pile into a new deck."""
        if not self.discard:
            return
        if self.changes is not None:
            for c in self.discard:
                self._note(Z_DISCARD, 0, c, 0)
        self.deck = self.discard
        self.discard = []
        self.rng.shuffle(self.deck)
        if self.log is not None:
            self.emit(
                "shuffle",
                f"{self.game.seat_name(self.actor)} shuffles the discard pile into a new deck "
                f"of {len(self.deck)} cards",
            )

    def _trigger_end(self) -> None:
        g = self.game
        if g.solo:
            self.end_turn = self.turn + 1  # M12.7: one more turn
        elif g.left_of_start:
            # Literal M9.2: play passes to the left (clockwise), so the player to the left of the
            # starting player is the next side after it; the game ends when that side next finishes.
            target = (self.first + 1) % g.n_sides
            self.end_turn = self.turn + (target - self.side) % g.n_sides
        elif not g.complete_round:
            self.end_turn = self.turn
        else:
            # M9.2: play on until the last side in turn order (the one before the first) has played.
            last = (self.first - 1) % g.n_sides
            self.end_turn = self.turn + (last - self.side) % g.n_sides
        if self.log is not None:
            self.emit("end", "the end is triggered: " + self.end_words())

    def end_words(self) -> str:
        """When the game ends, once the end is triggered ("the game ends after turn 17 (P2's turn)")."""
        g = self.game
        if self.end_turn == self.turn:
            return "the game ends after this turn"
        last = (self.side + self.end_turn - self.turn) % g.n_sides
        return f"the game ends after turn {self.end_turn} ({team_name(g, last)}'s turn)"

    def _draw(self, seat: int, src: int = -1) -> None:
        """``seat`` draws the top card (``src``: the card whose effect makes it draw, for the log)."""
        card = self._take_top()
        if card < 0:
            return
        self.hands[seat].append(card)
        if self.changes is not None:
            self._note(Z_HAND, seat, card, 1)
        if self.log is not None:
            self.tell("draw", said_draw, (src, seat, card), only(seat))

    # ------------------------------------------------------------------ turn flow
    def _members(self) -> tuple[int, ...]:
        return (self.side, self.side + 2) if self.game.teams else (self.side,)

    def _start_turn(self) -> None:
        """M6.1: draw; turn-start abilities; then the play step."""
        g = self.game
        if self.changes is not None:
            self._note_turn_start()
        self.activated = 0
        self.bonus = [0] * g.players
        self.team_done = 0
        self.acted = False
        self.handed = False
        members = self._members()
        self.actor = members[0]
        if self.log is not None:
            self.tell("turn", said_turn, (self.turn, self.side))
        for seat in members:
            self._draw(seat)
        trig = g.cards.trigger
        for seat in members:
            for m in self.souls[seat]:
                if trig[m] == T_TURN_START:
                    self._push(g.cards.ability[m], seat, seat, m)
        self.step = S_PLAY
        self._advance()

    def _advance(self) -> None:
        """Run the flow until a decision is open or the game is over."""
        g = self.game
        queue = self.queue
        while True:
            if queue:
                if self._resolve_head():
                    return
                continue
            step = self.step
            if step == S_PLAY:
                self.phase = P_PLAY
                self.current_player = self.actor
                return
            if step == S_AFTER:
                if g.teams:
                    partner = g.partner[self.actor]
                    if not self.team_done >> partner & 1:
                        self.actor = partner
                        self.acted = False
                        self.handed = False
                        self.step = S_PLAY
                        continue
                self.step = S_SOLO if g.solo else S_REFILL
            elif step == S_SOLO:
                self.step = S_REFILL
                if self._solo_discard():
                    return
            elif step == S_REFILL:
                if not self._refill_one():
                    self.step = S_END
            else:
                if self.end_turn and self.turn >= self.end_turn:
                    self._finish()
                    return
                self.turn += 1
                self.side = (self.side + 1) % g.n_sides
                self._start_turn()
                return

    def _finish(self) -> None:
        self.is_over = True
        self.current_player = None
        self.phase = P_OVER
        if self.log is not None:
            # Worded from a copy of the final state, when read (working out the result takes time).
            self.tell("over", said_over, (self.clone(),))

    def _refill_one(self) -> bool:
        """M6.4: fill the first empty space from the deck; False when nothing is left to fill."""
        dungeon = self.dungeon
        for space in range(DUNGEON_SPACES):
            if dungeon[space] < 0:
                break
        else:
            return False
        card = self._take_top()
        if card < 0:
            return False  # deck and discard pile both empty: the space stays empty (see the rules notes)
        dungeon[space] = card
        if self.changes is not None:
            self._note(Z_SPACE, 0, space, 0)
        g = self.game
        if self.log is not None:
            self.tell_seated("refill", said_refill, (card, space))
        imm = g.cards.immediate[card]
        if imm:
            if g.solo:
                if not g.solo_skip_refill:
                    self._push(imm, PHANTOM, PHANTOM, card)  # M12.4: as if it isn't your turn
            else:
                causer = self.emptied_by[space] if g.teams else self.side
                if causer < 0 or g.team_of[causer] != g.team_of[self.actor]:
                    causer = self.actor
                self._push(imm, causer, causer, card)
        self.emptied_by[space] = -1
        return True

    def _end_action(self) -> None:
        self.team_done |= 1 << self.actor
        self.step = S_AFTER
        self._advance()

    # ------------------------------------------------------------------ solitaire discard step
    def _solo_discard(self) -> bool:
        """M12.1-M12.3; True when the player must break a tie."""
        g = self.game
        c = g.cards
        card = self._take_top()
        if card < 0:
            return False
        self._discard_add(card)
        self.tell("solo", said_solo_top, (card,))
        kind = c.type[card]
        best: list[int] = []
        best_key = (-1, -1)
        for d in self.dungeon:
            if d < 0 or c.type[d] != kind:
                continue
            if kind == MONSTER:
                key = (c.attack[d], 0)
            elif kind == WEAPON:
                key = (c.attack[d], c.cost[d])
            else:
                key = (c.cost[d], 0)
            if key > best_key:
                best_key = key
                best = [d]
            elif key == best_key:
                best.append(d)
        if not best:
            second = self._take_top()  # M12.3: one more card from the deck, and no more
            if second >= 0:
                self._discard_add(second)
                self.tell("solo", said_solo_none, (second,))
            return False
        if len(best) == 1:
            self._solo_remove(best[0])
            return False
        self.choices = best
        self.phase = P_REMOVE
        self.current_player = 0
        return True

    def _solo_remove(self, card: int) -> None:
        space = self.dungeon.index(card)
        self.dungeon[space] = -1
        self.emptied_by[space] = 0
        if self.changes is not None:
            self._note(Z_SPACE, 0, space, 0)
        self._discard_add(card)
        self.tell("solo", said_solo_remove, (card, space))

    # ------------------------------------------------------------------ effects
    def _push(self, effects: tuple[Effect, ...], causer: int, beneficiary: int, src: int) -> None:
        """Queue ``effects`` of card ``src`` caused by ``causer``; "you" effects go to ``beneficiary``
        (a team partner may be chosen); take-that effects follow Care Bear and the solitaire
        substitutions."""
        g = self.game
        q = self.queue
        for op, n, who in effects:
            if op == DAMAGE:
                if causer == PHANTOM:
                    q.append((DAMAGE, n, 0, 0, src))  # solitaire refill: you are the opponent, you choose
                elif g.solo or g.care_bear:
                    q.append((REPAIR, n, causer, causer, src))  # M12.5 / M13: repair your own instead
                else:
                    q.append((DAMAGE, n, -1, causer, src))
                continue
            if who == YOU:
                if causer != PHANTOM:
                    # a repair for a partner is still the caster's choice of card
                    q.append((op, n, beneficiary, causer if op == REPAIR else beneficiary, src))
                continue
            if causer == PHANTOM:
                q.append((op, n, 0, 0, src))  # "opponents" and "all" both mean you now
                continue
            if who == ALL:
                for t in range(g.players):
                    q.append((op, n, t, t, src))
                continue
            if g.solo:
                if op == LOSE:
                    q.append((GAIN, n, causer, causer, src))  # M12.6: an opponent's loss is your gain
                continue
            for t in g.opponents[causer]:
                q.append((op, n, t, t, src))

    def _resolve_head(self) -> bool:
        """Resolve the first queued effect; True when it needs a decision (left at the head)."""
        q = self.queue
        op, n, t, chooser, src = q[0]
        if op in (GAIN, LOSE):
            old = self.favor[t]
            new = old + n if op == GAIN else old - n
            new = self.favor[t] = MAX_FAVOR if new > MAX_FAVOR else (0 if new < 0 else new)
            if self.changes is not None:
                self._note(Z_SEAT, t, 0, 0)
            if self.log is not None and new != old:
                self.tell("favor", said_favor, (src, t, old, new))
        elif op == DRAW:
            for _ in range(n):
                self._draw(t, src)
        elif op == BONUS:
            self.bonus[t] += n
            if self.changes is not None:
                self._note(Z_BONUS, t, 0, 0)
            if self.log is not None:
                self.tell("bonus", said_bonus, (src, t, n))
        elif op == FINISH:
            self.limbo.remove(n)
            self._discard_add(n)
        elif op == DISCARD:
            hand = self.hands[t]
            if len(hand) > n:  # a choice among more cards than must go (hand sizes are public)
                self.choices = hand
                self.phase = P_DISCARD
                self.current_player = t
                return True
            while hand:
                self._discard_from_hand(t, hand[-1], src)
        elif op == REPAIR:
            cands = self._repairable(t)
            if len(cands) > 1:
                self.choices = cands
                self.phase = P_REPAIR
                self.current_player = chooser
                return True
            if cands:
                self._repair(cands[0], n, src)
        else:  # DAMAGE
            cands = self._damageable(t, chooser)
            if len(cands) > 1:
                self.choices = cands
                self.phase = P_DAMAGE
                self.current_player = chooser
                return True
            if cands:
                self._damage(cands[0], n, src)
        del q[0]
        return False

    def _repairable(self, seat: int) -> list[int]:
        if not self.game.repair_cap:
            return list(self.inplay[seat])
        printed = self.game.cards.durability
        dur = self.dur
        return [c for c in self.inplay[seat] if dur[c] < printed[c]]

    def _damageable(self, victim: int, chooser: int) -> list[int]:
        if victim >= 0:
            return list(self.inplay[victim])
        out: list[int] = []
        for o in self.game.opponents[chooser]:
            out.extend(self.inplay[o])
        return out

    def holder(self, card: int) -> int:
        """The seat that has ``card`` in play, or -1 if none has."""
        for seat, cards in enumerate(self.inplay):
            if card in cards:
                return seat
        return -1

    def owner(self, card: int) -> int:
        """The seat that has ``card`` in play (it must be in play)."""
        seat = self.holder(card)
        if seat < 0:
            raise AssertionError(f"card {card} is not in play")
        return seat

    def _own_dur(self) -> list[int]:
        """``dur``, to change: this state's own copy if a clone still shares it (see ``_cow``)."""
        if self._cow & _COW_DUR:
            self.dur = self.dur.copy()
            self._cow &= ~_COW_DUR
        return self.dur

    def _own_host(self) -> list[int]:
        """``host``, to change: this state's own copy if a clone still shares it (see ``_cow``)."""
        if self._cow & _COW_HOST:
            self.host = self.host.copy()
            self._cow &= ~_COW_HOST
        return self.host

    def _repair(self, card: int, n: int, src: int) -> None:
        old = self.dur[card]
        cap = self.game.cards.durability[card]
        self._own_dur()[card] = min(old + n, cap) if self.game.repair_cap else old + n
        if self.changes is not None:
            self._note(Z_DUR, 0, card, 0)
        if self.log is not None and self.dur[card] != old:
            self.tell("repair", said_repair, (src, self.owner(card), card, old, self.dur[card]))

    def _damage(self, card: int, n: int, src: int) -> None:
        old = self.dur[card]
        self._own_dur()[card] -= n
        if self.changes is not None:
            self._note(Z_DUR, 0, card, 0)
        if self.log is not None:
            self.tell("damage", said_damage, (src, self.owner(card), card, n, old, max(0, self.dur[card])))
        if self.dur[card] <= 0:
            self._break(card)

    def _wear(self, card: int) -> None:
        """Remove one durability (activation or fight); break at 0 (M7.4)."""
        self._own_dur()[card] -= 1
        if self.changes is not None:
            self._note(Z_DUR, 0, card, 0)
        if self.dur[card] <= 0:
            self._break(card)

    def _break(self, card: int) -> None:
        """M7.5: the item/weapon goes to the discard pile, with any spells attached to it."""
        seat = self.owner(card)
        if self.log is not None:
            self.tell("break", said_break, (seat, card))
        self.inplay[seat].remove(card)
        self._own_dur()[card] = 0
        if self.changes is not None:
            self._note(Z_PLAY, seat, card, 0)
            self._note(Z_DUR, 0, card, 0)
        self._discard_add(card)
        host = self.host
        for s in [s for s in self.attached if host[s] == card]:
            self.attached.remove(s)
            self._own_host()[s] = -1
            if self.changes is not None:
                self._note(Z_ATTACH, 0, s, 0)
            self._discard_add(s)

    def _discard_from_hand(self, seat: int, card: int, src: int = -1, paying: int = -1) -> None:
        """``seat`` discards ``card`` (``src``: the card whose effect makes it; ``paying``: the card it
        pays for; both for the log)."""
        self.hands[seat].remove(card)
        self.pub &= ~(1 << card)
        if self.changes is not None:
            self._note(Z_HAND, seat, card, 0)
        self._discard_add(card)
        if self.log is not None:
            self.tell("discard", said_discard, (src, seat, card, paying))

    def _discard_add(self, card: int) -> None:
        """``card`` onto the discard pile."""
        self.discard.append(card)
        if self.changes is not None:
            self._note(Z_DISCARD, 0, card, 1)

    def _note(self, zone: int, seat: int, card: int, added: int) -> None:
        """Append a change list entry (:mod:`.changes`); called only while ``changes`` is kept."""
        append_entry(self.changes, self.game.NOTE, zone, seat, card, added)

    def _note_turn_start(self) -> None:
        """The entries of a new turn's reset: every card activated last turn, every seat with a bonus."""
        activated = self.activated
        while activated:
            low = activated & -activated
            self._note(Z_ACT, 0, low.bit_length() - 1, 0)
            activated ^= low
        for seat, bonus in enumerate(self.bonus):
            if bonus:
                self._note(Z_BONUS, seat, 0, 0)

    # ------------------------------------------------------------------ legal actions
    def _legal_actions(self) -> list[Action]:
        g = self.game
        phase = self.phase
        if phase == P_PLAY:
            return self._legal_play()
        if phase == P_PAY:
            paying = self.paying
            d = g.DISCARD
            return [d[c] for c in self.hands[self.actor] if c != paying]
        if phase == P_DISCARD:
            d = g.DISCARD
            return [d[c] for c in self.choices]
        if phase == P_MON:
            out = [g.MON[c] for c in self._lane_monsters() if c not in self.fight_mons]
            if self.fight_mons:
                out.append(g.DONE)
            return out
        if phase == P_WPN:
            out = [g.WPN[c] for c in self._lane_weapons() if c not in self.fight_wpns]
            out.append(g.DONE)
            return out
        if phase == P_FAVOR:
            return g.SPEND[: self.favor[self.actor] + 1]
        if phase == P_TAKE:
            return [g.TAKE[c] for c in self.dungeon if c >= 0]
        if phase == P_TARGET:
            return [g.TARGET[self.actor], g.TARGET[g.partner[self.actor]]]
        table = {P_ATTACH: g.ATTACH, P_REPAIR: g.REPAIR, P_DAMAGE: g.DAMAGE, P_REMOVE: g.REMOVE}[phase]
        return [table[c] for c in self.choices]

    def _legal_play(self) -> list[Action]:
        """The play step: plays, activations, then the action choices (M6.2, M6.3)."""
        g = self.game
        seat = self.actor
        hand = self.hands[seat]
        out: list[Action] = []
        spare = len(hand) - 1
        play_cost = g.play_cost  # monsters cost 99: they are summoned, never played
        attach = g.cards.attach
        play = g.PLAY
        ismon = g.is_monster
        monsters_in_hand = False
        hosts = -1
        for card in hand:
            if play_cost[card] <= spare:
                if attach[card]:
                    if hosts < 0:
                        hosts = len(self._hosts(seat))
                    if not hosts:
                        continue
                out.append(play[card])
            elif ismon[card]:
                monsters_in_hand = True
        inplay = self.inplay[seat]
        if inplay:
            act = g.has_activate
            mask = self.activated
            acts = g.ACT
            for card in inplay:
                if act[card] and not mask >> card & 1:
                    out.append(acts[card])
        n_before = len(out)
        dungeon = self.dungeon
        loot = g.LOOT
        lootable = g.lootable
        for card in dungeon:
            if lootable[card]:
                out.append(loot[card])
        if self.deck or self.discard:
            out.append(g.LOOT_DECK)
        fight = g.FIGHT
        for lane, spaces in g.lane_list[seat]:
            for space in spaces:
                if ismon[dungeon[space]]:
                    out.append(fight[lane])
                    break
        if monsters_in_hand and dungeon.count(-1) < len(dungeon):
            summon = g.SUMMON
            for card in hand:
                if ismon[card]:
                    out.append(summon[card])
        if len(out) == n_before:
            # No action at all (this needs an empty dungeon and no card in the deck or the discard
            # pile, all public): the action step passes (rules notes, I7).
            out.append(g.DONE)
        if g.teams and self.can_switch():
            out.append(g.SWITCH)
        return out

    def can_switch(self) -> bool:
        """M11 (I13): in a team turn the deciding team-mate may hand the decision to the partner
        while the partner has not taken its action, from the start of the turn; after a hand-over
        with nothing done since (no card played or activated), the decision cannot go straight back,
        so the hand-overs between two things done are at most one and the turn always moves on."""
        g = self.game
        return g.teams and not self.team_done >> g.partner[self.actor] & 1 and (self.acted or not self.handed)

    def _hosts(self, seat: int) -> list[int]:
        """Weapons a spell played by ``seat`` may attach to (a partner's too, in teams)."""
        g = self.game
        ctype = g.cards.type
        out = [w for w in self.inplay[seat] if ctype[w] == WEAPON]
        if g.teams:
            out.extend(w for w in self.inplay[g.partner[seat]] if ctype[w] == WEAPON)
        return out

    def _lane_monsters(self) -> list[int]:
        ctype = self.game.cards.type
        dungeon = self.dungeon
        out = []
        for space in self.game.board.lane_spaces[self.actor][self.fight_lane]:
            card = dungeon[space]
            if card >= 0 and ctype[card] == MONSTER:
                out.append(card)
        return out

    def _lane_weapons(self) -> list[int]:
        return self.lane_weapons(self.actor, self.fight_lane)

    def lane_weapons(self, seat: int, lane: int) -> list[int]:
        """``seat``'s weapons in play in its lane ``lane`` (range ``lane``)."""
        c = self.game.cards
        return [w for w in self.inplay[seat] if c.type[w] == WEAPON and c.range[w] == lane]

    def lane_monsters(self, seat: int, lane: int) -> list[int]:
        """The monsters in ``seat``'s lane ``lane`` of the dungeon."""
        ctype = self.game.cards.type
        out = []
        for space in self.game.board.lane_spaces[seat][lane]:
            card = self.dungeon[space]
            if card >= 0 and ctype[card] == MONSTER:
                out.append(card)
        return out

    # ------------------------------------------------------------------ doing actions
    def _do(self, action: Action) -> None:
        # The commonest kinds by direct method calls (native ones in the compiled build, where a
        # call through the table is a Python-level call); the rest through :data:`_HANDLERS`, which
        # names the same method for every kind.
        kind = action.kind
        if kind == "discard":
            self._a_discard(action)
        elif kind == "play":
            self._a_play(action)
        elif kind == "monster":
            self._a_monster(action)
        elif kind == "fight":
            self._a_fight(action)
        elif kind == "summon":
            self._a_summon(action)
        elif kind == "take":
            self._a_take(action)
        elif kind == "spend":
            self._a_spend(action)
        else:
            _HANDLERS[kind](self, action)

    def _acts(self) -> None:
        """The deciding seat did something (played or activated a card): a hand-over is open again."""
        self.acted = True
        self.handed = False

    def _a_play(self, action: Action) -> None:
        card = int(action.args[0])
        self._acts()
        self.paying = card
        self.pub |= 1 << card  # announced: everyone now knows this card is in the hand
        if self.changes is not None:
            self._note(Z_PUB, 0, card, 1)
        g = self.game
        cost = g.cards.cost[card]
        if self.log is not None:
            self.tell("play", said_pay, (self.actor, card, cost))
        self.pay_left = cost
        self._pay_step()

    def _pay_step(self) -> None:
        """M7.2: ask for the next discard, or pay by itself when every other card in the hand must go
        (the hand size and the cost are public, so everyone can tell there is nothing to choose)."""
        hand = self.hands[self.actor]
        paying = self.paying
        if self.pay_left and len(hand) - 1 == self.pay_left:
            for c in [c for c in hand if c != paying]:
                self._discard_from_hand(self.actor, c, paying=paying)
            self.pay_left = 0
        if self.pay_left:
            self.phase = P_PAY
            return
        self._finish_play(paying)

    def _a_discard(self, action: Action) -> None:
        card = int(action.args[0])
        if self.phase == P_PAY:
            self._discard_from_hand(self.actor, card, paying=self.paying)
            self.pay_left -= 1
            self._pay_step()
            return
        op, n, t, chooser, src = self.queue[0]
        self.choices = []  # it aliased the hand; the next resolution sets it again if needed
        self._discard_from_hand(t, card, src)
        if n > 1:
            self.queue[0] = (op, n - 1, t, chooser, src)
        else:
            del self.queue[0]
        self._advance()

    def _finish_play(self, card: int) -> None:
        """M7: the cost is paid; the card enters play (weapon/item), attaches or resolves (spell)."""
        g = self.game
        c = g.cards
        seat = self.actor
        self.hands[seat].remove(card)
        self.pub &= ~(1 << card)
        self.paying = -1
        if self.changes is not None:
            self._note(Z_HAND, seat, card, 0)
        kind = c.type[card]
        if kind != SPELL:
            self.inplay[seat].append(card)
            self._own_dur()[card] = c.durability[card]
            if self.changes is not None:
                self._note(Z_PLAY, seat, card, 1)
                self._note(Z_DUR, 0, card, 0)
            if self.log is not None:
                if kind == WEAPON:
                    self.tell_seated("play", said_into_lane, (seat, card, c.range[card]))
                else:
                    self.tell("play", said_beside, (seat, card))
            if c.on_play[card]:
                self._push(c.on_play[card], seat, seat, card)
            self._advance()
            return
        self.limbo.append(card)
        if c.attach[card]:
            hosts = self._hosts(seat)
            if len(hosts) > 1:
                self.pending = card
                self.choices = hosts
                self.phase = P_ATTACH
                return
            self._attach(card, hosts[0])
            return
        if g.teams and g.spell_beneficial[card]:
            self.pending = card
            self.phase = P_TARGET
            return
        self._push(c.effects[card], seat, seat, card)
        self.queue.append((FINISH, card, 0, 0, card))
        self._advance()

    def _attach(self, spell: int, weapon: int) -> None:
        self.pending = -1
        self.choices = []
        self.limbo.remove(spell)
        self.attached.append(spell)
        self._own_host()[spell] = weapon
        if self.changes is not None:
            self._note(Z_ATTACH, 0, spell, 1)
        g = self.game
        if self.log is not None:
            self.tell("attach", said_attach, (spell, self.owner(weapon), weapon))
        self._push(g.cards.effects[spell], self.actor, self.owner(weapon), spell)
        self._advance()

    def _a_attach(self, action: Action) -> None:
        self._attach(self.pending, int(action.args[0]))

    def _a_target(self, action: Action) -> None:
        seat = label_seat(str(action.args[0]))
        card = self.pending
        self.pending = -1
        g = self.game
        c = g.cards
        if self.log is not None:
            self.tell("target", said_target, (self.actor, seat, card))
        if card in self.limbo:
            self._push(c.effects[card], self.actor, seat, card)
            self.queue.append((FINISH, card, 0, 0, card))
        else:
            self._push(c.activate[card], self.actor, seat, card)
        self._advance()

    def _a_activate(self, action: Action) -> None:
        """M7.1: once per turn, one durability; the ability resolves even if the card breaks."""
        card = int(action.args[0])
        g = self.game
        self._acts()
        self.activated |= 1 << card
        if self.changes is not None:
            self._note(Z_ACT, 0, card, 0)
        if self.log is not None:
            self.tell("activate", said_activate, (self.actor, card, self.dur[card] - 1))
        self._wear(card)
        if g.teams and g.act_beneficial[card]:
            self.pending = card
            self.phase = P_TARGET
            return
        self._push(g.cards.activate[card], self.actor, self.actor, card)
        self._advance()

    def _triggers(self, seat: int, trigger: int) -> None:
        c = self.game.cards
        for m in self.souls[seat]:
            if c.trigger[m] == trigger:
                self._push(c.ability[m], seat, seat, m)

    def _a_loot(self, action: Action) -> None:
        """M8.1: a non-monster dungeon card into your hand."""
        card = int(action.args[0])
        seat = self.actor
        space = self.dungeon.index(card)
        self.dungeon[space] = -1
        self.emptied_by[space] = seat
        self.hands[seat].append(card)
        self.pub |= 1 << card
        if self.changes is not None:
            self._note(Z_SPACE, 0, space, 0)
            self._note(Z_HAND, seat, card, 1)
            self._note(Z_PUB, 0, card, 1)
        if self.log is not None:
            self.tell_seated("loot", said_loot, (seat, card, space))
        self._triggers(seat, T_LOOT)
        self._end_action()

    def _a_loot_deck(self, action: Action) -> None:
        """M8.1: or the top card of the deck."""
        if self.log is not None:
            self.tell("loot", said_loot_deck, (self.actor,))
        self._draw(self.actor)
        self._triggers(self.actor, T_LOOT)
        self._end_action()

    def _a_done(self, action: Action) -> None:
        phase = self.phase
        if phase == P_MON:
            self._weapons_step()
        elif phase == P_WPN:
            self._favor_step()
        else:  # P_PLAY with no action possible
            if self.log is not None:
                self.emit(
                    "pass",
                    f"{self.game.seat_name(self.actor)} has no action to take "
                    "(the dungeon, the deck and the discard pile are empty)",
                )
            self._end_action()

    def _a_switch(self, action: Action) -> None:
        g = self.game
        partner = g.partner[self.actor]
        if self.log is not None:
            self.emit("switch", f"{g.seat_name(self.actor)} hands the decision to {g.seat_name(partner)}")
        self.handed = not self.acted
        self.actor = partner
        self.acted = False
        self._advance()

    # fight (M8.2)
    def _a_fight(self, action: Action) -> None:
        self.fight_lane = lane = int(action.args[0])
        self.fight_mons = []
        self.fight_wpns = []
        if self.log is not None:
            self.tell_seated("fight", said_fight, (self.actor, lane))
        mons = self._lane_monsters()
        if len(mons) == 1:
            self.fight_mons.append(mons[0])
            self._weapons_step()
        else:
            self.phase = P_MON

    def _a_monster(self, action: Action) -> None:
        self.fight_mons.append(int(action.args[0]))
        if len(self.fight_mons) == len(self._lane_monsters()):
            self._weapons_step()

    def _weapons_step(self) -> None:
        if self._lane_weapons():
            self.phase = P_WPN
        else:
            self._favor_step()

    def _a_weapon(self, action: Action) -> None:
        self.fight_wpns.append(int(action.args[0]))
        if len(self.fight_wpns) == len(self._lane_weapons()):
            self._favor_step()

    def _favor_step(self) -> None:
        if self.favor[self.actor]:
            self.phase = P_FAVOR
        else:
            self._resolve_fight(0)

    def _a_spend(self, action: Action) -> None:
        self._resolve_fight(int(action.args[0]))

    def attack_parts(self, seat: int, weapons: list[int], favor: int) -> list[tuple[str, int]]:
        """What ``seat``'s attack is made of (M8.2 step 4), as (label, amount), nothing that adds 0:
        each weapon with the spells under it, this turn's bonus, defeated monsters' fighting
        abilities, the favor spent."""
        c = self.game.cards
        out: list[tuple[str, int]] = []
        host = self.host
        for w in weapons:
            out.append((c.names[w], c.attack[w] + sum(c.attach_bonus[s] for s in self.attached if host[s] == w)))
        if self.bonus[seat]:
            out.append(("this turn's bonus", self.bonus[seat]))
        for m in self.souls[seat]:
            if c.trigger[m] == T_FIGHTING:
                out.append((c.names[m], c.ability[m][0][1]))
        if favor:
            out.append(("favor", favor))
        return out

    def fight_attack(self, seat: int, weapons: list[int], favor: int) -> int:
        """Total attack of ``seat`` fighting with ``weapons`` and ``favor`` spent (M8.2 step 4)."""
        c = self.game.cards
        total = favor + self.bonus[seat]
        host = self.host
        for w in weapons:
            total += c.attack[w]
            for s in self.attached:
                if host[s] == w:
                    total += c.attach_bonus[s]
        for m in self.souls[seat]:
            if c.trigger[m] == T_FIGHTING:
                total += c.ability[m][0][1]
        return total

    def _resolve_fight(self, spent: int) -> None:
        g = self.game
        c = g.cards
        seat = self.actor
        mons = self.fight_mons
        wpns = self.fight_wpns
        attack = self.fight_attack(seat, wpns, spent)
        need = sum(c.attack[m] for m in mons)
        won = attack >= need
        if self.log is not None:
            self._log_fight(seat, attack, need, spent, won)
        self.favor[seat] -= spent
        if spent and self.changes is not None:
            self._note(Z_SEAT, seat, 0, 0)
        before = list(self.souls[seat])
        for w in wpns:
            self._wear(w)
        if won:
            for m in mons:
                space = self.dungeon.index(m)
                self.dungeon[space] = -1
                self.emptied_by[space] = seat
                self.souls[seat].append(m)
                self.soul_pts[seat] += c.souls[m]
                if self.changes is not None:
                    self._note(Z_SPACE, 0, space, 0)
                    self._note(Z_SOULS, seat, m, 1)
                    self._note(Z_SEAT, seat, 0, 0)
            for m in before:
                if c.trigger[m] == T_FIGHT_WON:
                    self._push(c.ability[m], seat, seat, m)
        self.fight_lane = 0
        self.fight_mons = []
        self.fight_wpns = []
        self._end_action()

    def _log_fight(self, seat: int, attack: int, need: int, spent: int, won: bool) -> None:
        # The parts are taken now (they read the table as it is); their words are joined when read.
        parts = tuple(self.attack_parts(seat, self.fight_wpns, spent))
        args = (seat, self.fight_lane, attack, need, parts, tuple(self.fight_mons), won)
        self.tell_seated("fight", said_fight_over, args)

    # summon (M8.3)
    def _a_summon(self, action: Action) -> None:
        self.pending = int(action.args[0])
        self.pub |= 1 << self.pending
        if self.changes is not None:
            self._note(Z_PUB, 0, self.pending, 1)
        if self.log is not None:
            self.tell("summon", said_summon, (self.actor, self.pending))
        present = [c for c in self.dungeon if c >= 0]
        if len(present) == 1:
            self._summon_take(present[0])
        else:
            self.phase = P_TAKE

    def _a_take(self, action: Action) -> None:
        self._summon_take(int(action.args[0]))

    def _summon_take(self, taken: int) -> None:
        g = self.game
        seat = self.actor
        monster = self.pending
        self.pending = -1
        space = self.dungeon.index(taken)
        hand = self.hands[seat]
        hand.remove(monster)
        self.pub &= ~(1 << monster)
        hand.append(taken)
        self.pub |= 1 << taken
        self.dungeon[space] = monster
        old = self.favor[seat]
        self.favor[seat] = min(MAX_FAVOR, old + SUMMON_FAVOR)
        if self.changes is not None:
            self._note(Z_HAND, seat, monster, 0)
            self._note(Z_HAND, seat, taken, 1)
            self._note(Z_PUB, 0, taken, 1)
            self._note(Z_SPACE, 0, space, 0)
            self._note(Z_SEAT, seat, 0, 0)
        if self.log is not None:
            self.tell_seated("summon", said_summon_take, (seat, taken, monster, space, old, self.favor[seat]))
        self._push(g.cards.immediate[monster], seat, seat, monster)
        self._triggers(seat, T_SUMMON)
        self._end_action()

    # decisions opened by effects
    def _a_repair(self, action: Action) -> None:
        self.choices = []
        entry = self.queue.pop(0)
        self._repair(int(action.args[0]), entry[1], entry[4])
        self._advance()

    def _a_damage(self, action: Action) -> None:
        self.choices = []
        entry = self.queue.pop(0)
        self._damage(int(action.args[0]), entry[1], entry[4])
        self._advance()

    def _a_remove(self, action: Action) -> None:
        self.choices = []
        self._solo_remove(int(action.args[0]))
        self._advance()

    # ------------------------------------------------------------------ errors
    def _why_illegal(self, action: Action) -> str | None:
        from cardtable.games.mephisto.errors import why_illegal

        return why_illegal(self, action)

    # ------------------------------------------------------------------ protocol
    def _new_blank(self) -> Self:
        # In the compiled build a MephistoState itself is made through its own constructor, told to set
        # nothing: a native call, where the default (``cls.__new__(cls)``, looked up and called as
        # Python) costs about 0.15 us. Pure Python, and subclasses, keep the default (there the
        # constructor's call costs more than ``__new__``).
        if COMPILED and type(self) is MephistoState:
            return cast(Self, MephistoState(self.game, 0, False, _blank=True))
        cls = type(self)  # the default's own line, not a super() call (which costs pure Python more)
        return cls.__new__(cls)

    def clone(self) -> MephistoState:
        o: MephistoState = self._clone_base()
        o.deck = self.deck.copy()
        o.discard = self.discard.copy()
        o.dungeon = self.dungeon.copy()
        o.corners = self.corners.copy()
        o.emptied_by = self.emptied_by.copy()
        o.hands = [h.copy() for h in self.hands]
        o.favor = self.favor.copy()
        o.souls = [s.copy() for s in self.souls]
        o.soul_pts = self.soul_pts.copy()
        o.inplay = [p.copy() for p in self.inplay]
        o.dur = self.dur  # shared until either state changes them (_own_dur, _own_host)
        o.host = self.host
        self._cow = o._cow = _COW_DUR | _COW_HOST
        o.attached = self.attached.copy()
        o.limbo = self.limbo.copy()
        o.pub = self.pub
        o.activated = self.activated
        o.bonus = self.bonus.copy()
        o.changes = None  # the change list is its observer's, kept on the state it asked (class docstring)
        o.queue = self.queue.copy()
        o.choices = self.choices.copy()
        o.phase = self.phase
        o.step = self.step
        o.actor = self.actor
        o.side = self.side
        o.first = self.first
        o.runouts = self.runouts
        o.end_turn = self.end_turn
        o.paying = self.paying
        o.pay_left = self.pay_left
        o.pending = self.pending
        o.fight_lane = self.fight_lane
        o.fight_mons = self.fight_mons.copy()
        o.fight_wpns = self.fight_wpns.copy()
        o.team_done = self.team_done
        o.acted = self.acted
        o.handed = self.handed
        if self.phase == P_DISCARD:
            # choices aliases the discarding player's hand: keep the alias in the copy
            o.choices = o.hands[self.queue[0][2]]
        return o

    def hidden_zones(self, seat: int | None) -> list[list[int]]:
        """The zones whose order/identity ``seat`` cannot see: the deck, the other hands and the
        face-down corner cards (seen by nobody)."""
        return [self.deck, *(h for s, h in enumerate(self.hands) if s != seat), self.corners]

    def _known_cards(self, seat: int | None) -> set[int]:
        pub = self.pub
        hidden = set(self.deck)
        hidden.update(self.corners)
        for s, hand in enumerate(self.hands):
            if s != seat:
                hidden.update(c for c in hand if not pub >> c & 1)
        return set(range(len(self.game.cards))) - hidden

    def _determinize(self, seat: int, rng: Rng) -> MephistoState:
        """Resample the deck order, the face-down corner cards and the cards of other hands that
        ``seat`` cannot know.

        Same contract as :func:`cardtable.engine.zones.resample_hidden` (known cards stay put; the
        unknown ones are pooled in sorted order, shuffled and dealt back into the freed slots), done
        inline for speed.
        """
        other, r = self._reseeded_clone(rng)
        assert isinstance(other, MephistoState)
        pub = other.pub
        zones = other.hidden_zones(seat)
        pool: list[int] = []
        if pub:
            for zone in zones:
                pool.extend(c for c in zone if not pub >> c & 1)
        else:
            for zone in zones:
                pool.extend(zone)
        pool.sort()
        r.shuffle32(pool)
        it = iter(pool)
        for zone in zones:
            if pub:
                for i, c in enumerate(zone):
                    if not pub >> c & 1:
                        zone[i] = next(it)
            else:
                zone[:] = [next(it) for _ in zone]
        if other.phase == P_DISCARD:
            other.choices = other.hands[other.queue[0][2]]
        return other

    def _view(self, seat: int | None) -> dict[str, JSON]:
        from cardtable.games.mephisto.views import view

        return view(self, seat)

    def _snapshot(self) -> dict[str, JSON]:
        from cardtable.games.mephisto.views import snapshot

        return snapshot(self)

    def result(self) -> Result:
        from cardtable.games.mephisto.views import result

        return result(self)


_HANDLERS: Final[dict[str, Callable[[MephistoState, Action], None]]] = {
    "play": MephistoState._a_play,
    "activate": MephistoState._a_activate,
    "discard": MephistoState._a_discard,
    "loot": MephistoState._a_loot,
    "loot-deck": MephistoState._a_loot_deck,
    "fight": MephistoState._a_fight,
    "monster": MephistoState._a_monster,
    "weapon": MephistoState._a_weapon,
    "done": MephistoState._a_done,
    "spend": MephistoState._a_spend,
    "summon": MephistoState._a_summon,
    "take": MephistoState._a_take,
    "attach": MephistoState._a_attach,
    "target": MephistoState._a_target,
    "repair": MephistoState._a_repair,
    "damage": MephistoState._a_damage,
    "remove": MephistoState._a_remove,
    "switch": MephistoState._a_switch,
}
