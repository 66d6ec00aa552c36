"""The state of a game and its turn flow (Rules of Kalle, "Player Turn").

A turn is: step 1 play one card (two at most; events resolve through :mod:`.effects`; the decision
opens whenever she holds a card, since whether one can be played is hidden from the others), step 2
attack (discard one opposing card in front of you, or three same-name monsters when good), or
step 3 when nothing opposes you (draw, attack another character, or pass), step 4 take a hit if
something still opposes you, step 5 the Necronomicon victory check, step 6 draw one card, or
switch sides and draw five when you have had no hand cards since before this turn.

Representation (for speed): card ids are ints; each seat has a hand and three tabled zones
(``mon``, ``ally``, ``item`` — the Necronomicon lies among the items); sides and reduction
states are int lists; the phase and pending choices are ints. What a seat sees is built in
:mod:`.view`; why an action is refused, in :mod:`.illegal`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Self, cast

from mypy_extensions import mypyc_attr

from cardtable.engine import JSON, Action, Result, Rng, State
from cardtable.engine.events import only
from cardtable.engine.game import COMPILED
from cardtable.games.army_of_darkness import effects, illegal, said, view
from cardtable.games.army_of_darkness.cards import ALLY, EVENT, MONSTER, NECRONOMICON
from cardtable.games.army_of_darkness.codes import (
    A_ATTACK,
    A_DISCARD,
    A_DONE,
    A_DRAW,
    A_PASS,
    A_PICK,
    A_PLAY,
    A_SLAY,
    A_SLAY3,
    A_TO,
    ARMED,
    GOOD,
    HAS_CARDS,
    P_DEST,
    P_FREE,
    P_HIT,
    P_OVER,
    P_PICK,
    P_PLACE,
    P_PLAY,
    P_SLAY,
    REDUCED,
    REDUCTION_NAMES,
    SIDE_NAMES,
    Z_ALLY,
    Z_DISCARD,
    Z_HAND,
    Z_ITEM,
    Z_MON,
    Z_SEAT,
)

if TYPE_CHECKING:
    from cardtable.games.army_of_darkness.game import ArmyOfDarkness

PHASE_NAMES = ("play", "place", "pick", "target", "destination", "attack", "free", "hit", "over")


@mypyc_attr(allow_interpreted_subclasses=True)  # clone's _new_blank, and subclasses in tests
class AodState(State["ArmyOfDarkness"]):
    """One position. Field meanings:

    ``hands[s]``, ``mon[s]``, ``ally[s]``, ``item[s]``: seat ``s``'s hand and tabled cards;
    ``side[s]``: GOOD or EVIL; ``char[s]``: index of the character card; ``reduced[s]``:
    HAS_CARDS, REDUCED (hand emptied, her next turn has not begun) or ARMED (her next turn has
    begun with an empty hand; at its end she switches if still empty); ``active``: whose turn;
    ``phase``: the open decision; ``plays``: cards played this turn; ``pending``: the card being
    played (-1); ``chosen``: a discard-pile card waiting for its destination (-1); ``victim``: the
    seat taking a hit; ``hit_step``: 3 (attacked by the active player) or 4 (the active player's
    own hit); ``shown``: cards publicly known to be in a hand (taken there face up);
    ``winner``/``reason``: how it ended; ``switches[s]``: how often seat ``s`` switched sides.

    ``changes``: the change list for machines (the RL observer), ``None`` (kept by nobody) unless an
    observer set it to a list of its own. While it is a list, the rules append an entry for every card
    that enters or leaves a hand, a tabled zone or the discard pile, and for every change of a seat's
    side, switches or ``reduced``: ``game.NOTE[zone][seat] + 2 * card + added`` (``codes.Z_*``; which
    hand cards are ``shown`` changes only with them). An observer that kept its place in this very
    list reads what changed since, instead of comparing zones (``cardtable.rl.observe.army_of_darkness``;
    a property test proves it against a full rewrite). It means nothing to the rules: a clone, a
    determinized copy and a new game start with ``None``, so searches never pay for it.
    """

    __slots__ = (
        "active",
        "ally",
        "changes",
        "char",
        "chosen",
        "deck",
        "discard",
        "hands",
        "hit_step",
        "item",
        "mon",
        "pending",
        "phase",
        "plays",
        "reason",
        "reduced",
        "shown",
        "side",
        "switches",
        "victim",
        "winner",
    )

    hands: list[list[int]]
    changes: list[int] | None
    mon: list[list[int]]
    ally: list[list[int]]
    item: list[list[int]]
    side: list[int]
    char: list[int]
    reduced: list[int]
    switches: list[int]
    deck: list[int]
    discard: list[int]
    shown: set[int]
    active: int
    phase: int
    plays: int
    pending: int
    chosen: int
    victim: int
    hit_step: int
    winner: int
    reason: str

    def __init__(self, game: ArmyOfDarkness, seed: int, log: bool, *, _blank: bool = False) -> None:
        if _blank:  # the start of a clone (_new_blank): clone() sets every field
            return
        super().__init__(game, seed, log)
        n = game.players
        cs = game.cards
        rng = self.rng
        self.hands = [[] for _ in range(n)]
        self.mon = [[] for _ in range(n)]
        self.ally = [[] for _ in range(n)]
        self.item = [[] for _ in range(n)]
        self.side = [GOOD] * n
        self.reduced = [HAS_CARDS] * n
        self.switches = [0] * n
        self.changes = None
        self.discard = []
        self.shown = set()
        self.pending = self.chosen = self.victim = self.winner = -1
        self.hit_step = 0
        self.plays = 0
        self.reason = ""
        # Setup (AD2): the first `n` characters of the file (Ash, Arthur, Henry, Sheila, then the
        # generic extras) are dealt to the seats at random; the removed events stay in the box.
        chars = list(range(n))
        first = cs.first_character
        if first >= n:
            chars[0] = first
        rng.shuffle(chars)
        self.char = chars
        # The deck is an unordered pile: every draw takes a uniformly random card of it, which is
        # the same as drawing the top card of a shuffled deck, and lets determinize resample only
        # the hands (AD1.4).
        deck = [k for k in range(len(cs)) if not cs.removed[k]]
        self.deck = deck
        types = game.TYPE
        below = rng.below
        for s in range(n):
            # One random monster in front of each player (AD2.2).
            monsters = [i for i, c in enumerate(deck) if types[c] == MONSTER]
            i = monsters[below(len(monsters))]
            deck[i], deck[-1] = deck[-1], deck[i]
            self.mon[s].append(deck.pop())
        for s in range(n):
            hand = self.hands[s]
            for _ in range(5):
                i = below(len(deck))
                deck[i], deck[-1] = deck[-1], deck[i]
                hand.append(deck.pop())
        self.active = chars.index(first)
        self.current_player = self.active
        if self.log is not None:
            titles = tuple(self.character(s) for s in range(n))
            self.tell2("setup", said.said_characters, titles, self.active)
            for s in range(n):
                args = (s, titles[s], self.mon[s][0], tuple(self.hands[s]))
                self.tell("setup", said.said_dealt, args, only(s))
        self.phase = P_PLAY
        self._enter_play()

    # -- small helpers used by the effects -----------------------------------------------------
    def character(self, s: int) -> str:
        """The title of seat ``s``'s character on its current side (``Ash``, ``Evil Ash``)."""
        return said.title(self.game, self.title_code(s))

    def title_code(self, s: int) -> int:
        """Seat ``s``'s character and side as one number, ``char << 1 | side``: what a log line
        records for the title (``said.title`` words it when read; cheaper than the title's text)."""
        return self.char[s] << 1 | self.side[s]

    def who(self, s: int) -> str:
        """Seat ``s`` as people read it: ``P1 (Ash)``."""
        return f"{self.game.seat_name(s)} ({self.character(s)})"

    def table(self, s: int, c: int) -> None:
        """Put card ``c`` in front of seat ``s``."""
        t = self.game.TYPE[c]
        (self.mon if t == MONSTER else self.ally if t == ALLY else self.item)[s].append(c)
        ch = self.changes
        if ch is not None:
            ch.append(self.game.NOTE[Z_MON if t == MONSTER else Z_ALLY if t == ALLY else Z_ITEM][s] + 2 * c + 1)

    def untable(self, c: int) -> int:
        """Take tabled card ``c`` off the table; return the seat it was in front of."""
        t = self.game.TYPE[c]
        zones = self.mon if t == MONSTER else self.ally if t == ALLY else self.item
        for s, zone in enumerate(zones):
            if c in zone:
                zone.remove(c)
                ch = self.changes
                if ch is not None:
                    ch.append(self.game.NOTE[Z_MON if t == MONSTER else Z_ALLY if t == ALLY else Z_ITEM][s] + 2 * c)
                return s
        raise AssertionError(f"card {c} is not tabled")

    def hand_gain(self, s: int, c: int, public: bool) -> None:
        self.hands[s].append(c)
        ch = self.changes
        if ch is not None:
            ch.append(self.game.NOTE[Z_HAND][s] + 2 * c + 1)
        if public:
            self.shown.add(c)
        self.reduced[s] = HAS_CARDS

    def hand_lose(self, s: int, c: int) -> None:
        hand = self.hands[s]
        hand.remove(c)
        ch = self.changes
        if ch is not None:
            ch.append(self.game.NOTE[Z_HAND][s] + 2 * c)
        self.shown.discard(c)
        if not hand and self.reduced[s] == HAS_CARDS:
            self.reduced[s] = REDUCED
            if self.log is not None:
                self.tell2("no-cards", said.said_no_cards, s, self.title_code(s))

    def discard_add(self, c: int) -> None:
        """Card ``c`` goes on the discard pile."""
        self.discard.append(c)
        ch = self.changes
        if ch is not None:
            ch.append(self.game.NOTE[Z_DISCARD][0] + 2 * c + 1)

    def discard_take(self, c: int) -> None:
        """Card ``c`` is taken from the discard pile."""
        self.discard.remove(c)
        ch = self.changes
        if ch is not None:
            ch.append(self.game.NOTE[Z_DISCARD][0] + 2 * c)

    def note_seat(self, s: int) -> None:
        """For the change list: seat ``s``'s side, switches or reduction state changed."""
        ch = self.changes
        if ch is not None:
            ch.append(self.game.NOTE[Z_SEAT][s] + 1)

    def draw(self, s: int, k: int) -> int:
        """Seat ``s`` draws up to ``k`` cards, each a uniformly random card of the deck (AD1.4).
        An empty deck is remade from the discard pile (AD1.5); when both are empty the draw stops
        short. Returns how many were drawn."""
        deck = self.deck
        hand = self.hands[s]
        below = self.rng.below
        got = 0
        for _ in range(k):
            if not deck:
                if not self.discard:
                    if self.log is not None:
                        self.tell("empty", said.said_nothing_to_draw, ())
                    break
                deck.extend(self.discard)
                ch = self.changes
                if ch is not None:
                    at = self.game.NOTE[Z_DISCARD][0]
                    ch.extend(at + 2 * d for d in self.discard)
                self.discard.clear()
                if self.log is not None:
                    self.tell1("reshuffle", said.said_reshuffle, len(deck))
            i = below(len(deck))
            deck[i], deck[-1] = deck[-1], deck[i]
            hand.append(deck.pop())
            got += 1
        if got:
            ch = self.changes
            if ch is not None:
                at = self.game.NOTE[Z_HAND][s] + 1
                ch.extend(at + 2 * c for c in hand[len(hand) - got :])
            self.reduced[s] = HAS_CARDS
            if self.log is not None:
                self.tell_list("draw", said.said_draw, s, self.title_code(s), hand, len(hand) - got, only(s))
        return got

    def opposing(self, s: int) -> list[int]:
        """The tabled cards that fight seat ``s``: monsters when good, allies when evil."""
        return self.mon[s] if self.side[s] == GOOD else self.ally[s]

    def hit_options(self, s: int) -> list[int]:
        """What seat ``s`` may discard when taking a hit (AD6): a tabled item or a supporting card
        (ally when good, monster when evil) if she has one, otherwise a hand card."""
        tabled = self.item[s] + (self.ally[s] if self.side[s] == GOOD else self.mon[s])
        return tabled if tabled else sorted(self.hands[s])

    def has_won(self, s: int) -> bool:
        """The Necronomicon victory (AD7) for seat ``s``, checked in her step 5."""
        if not self.hands[s]:
            return False
        types = self.game.TYPE
        if not any(types[c] == NECRONOMICON for c in self.item[s]):
            return False
        if self.side[s] == GOOD:
            return len(self.ally[s]) >= 3 and not self.mon[s]
        if self.ally[s] or len(self.mon[s]) < 5:
            return False
        names = self.game.NAME_ID
        return len({names[c] for c in self.mon[s]}) >= 5

    # -- turn flow -------------------------------------------------------------------------------
    def can_play(self) -> bool:
        """Whether the active player holds a card she can play now (known only to her)."""
        types = self.game.TYPE
        return any(types[c] != EVENT or effects.playable(self, c) for c in self.hands[self.active])

    def _enter_play(self) -> None:
        """Step 1 (again): open the play decision whenever she holds a card and has played fewer
        than two. Whether a card of hers *can* be played is hidden from the others, so the decision
        opens on the public facts alone; with nothing playable her one choice is ``done``."""
        if self.plays < 2 and self.hands[self.active]:
            self.phase = P_PLAY
            self.current_player = self.active
        else:
            self._attack_step()

    def _attack_step(self) -> None:
        """Step 2, or step 3 when nothing opposes the active player."""
        a = self.active
        self.current_player = a
        self.phase = P_SLAY if self.opposing(a) else P_FREE

    def _after_attack(self) -> None:
        """After step 2: step 4, or (option ``step3=after-clearing``) step 3 first when the attack
        removed the last card opposing her (interpretation I4)."""
        if self.game.step3_after_clearing and not self.opposing(self.active):
            self.phase = P_FREE
        else:
            self._take_hit_step()

    def _hit(self, victim: int, step: int) -> None:
        """``victim`` takes a hit: open her choice, or carry on when she has nothing to discard
        (public: her tabled cards and her hand size show it)."""
        if self.hit_options(victim):
            self.phase = P_HIT
            self.victim = victim
            self.hit_step = step
            self.current_player = victim
            return
        if self.log is not None:
            self.tell2("hit", said.said_hit_nothing, victim, self.title_code(victim))
        if step == 3:
            self._take_hit_step()
        else:
            self._end_turn()

    def _take_hit_step(self) -> None:
        """Step 4: if something still opposes the active player, she takes a hit."""
        a = self.active
        if self.opposing(a):
            self._hit(a, 4)
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        """Steps 5 and 6, then the next player's turn (or the end)."""
        a = self.active
        g = self.game
        if self.has_won(a):
            self.winner = a
            self.reason = "necronomicon-good" if self.side[a] == GOOD else "necronomicon-evil"
            if self.log is not None:
                self.tell2("win", said.said_win, a, self.title_code(a))
            self._finish()
            return
        if self.hands[a]:
            self.draw(a, 1)
        elif self.reduced[a] == ARMED:
            self.side[a] = 1 - self.side[a]
            self.switches[a] += 1
            self.reduced[a] = REDUCED
            self.note_seat(a)
            if self.log is not None:
                self.tell2("switch", said.said_switch, a, self.title_code(a))
            self.draw(a, 5)
        if self.turn >= g.turn_limit:
            self.reason = "turn-limit"
            if self.log is not None:
                self.tell1("limit", said.said_limit, g.turn_limit)
            self._finish()
            return
        nxt = a + 1
        if nxt == g.players:
            nxt = 0
        self.active = nxt
        self.turn += 1
        self.plays = 0
        if self.reduced[nxt] == REDUCED:
            self.reduced[nxt] = ARMED
            self.note_seat(nxt)
        if self.log is not None:
            self.tell3("turn", said.said_turn, self.turn, nxt, self.title_code(nxt))
        self._enter_play()

    def _finish(self) -> None:
        self.is_over = True
        self.current_player = None
        self.phase = P_OVER

    def _event_done(self) -> None:
        self.discard_add(self.pending)
        self.pending = -1
        self.plays += 1
        self._enter_play()

    # -- protocol hooks --------------------------------------------------------------------------
    def _legal_actions(self) -> list[Action]:
        g = self.game
        ph = self.phase
        a = self.active
        if ph == P_PLAY:
            types = g.TYPE
            play = g.PLAY
            # In id order: the order of a hand is how it was drawn, which a seat may learn two ways.
            out = [play[c] for c in sorted(self.hands[a]) if types[c] != EVENT or effects.playable(self, c)]
            # The first card is a must when she can play one (AD3.1); the second is optional (AD3.2).
            if self.plays or not out:
                out.append(g.DONE)
            return out
        if ph in (P_PLACE, P_DEST):
            return g.TO.copy()
        if ph == P_HIT:
            d = g.DISCARD
            return [d[c] for c in self.hit_options(self.victim)]
        if ph == P_SLAY:
            slay = g.SLAY
            opp = self.opposing(a)
            out = [slay[c] for c in opp]
            if self.side[a] == GOOD and len(opp) >= 3:
                names = g.NAME_ID
                counts: dict[int, int] = {}
                for c in opp:
                    counts[names[c]] = counts.get(names[c], 0) + 1
                out.extend(g.SLAY3[k] for k in sorted(counts) if counts[k] >= 3)
            return out
        if ph == P_FREE:
            out = [g.DRAW] if self.deck or self.discard else []
            att = g.ATTACK
            side = self.side
            good = side[a] == GOOD
            out.extend(att[s] for s in range(g.players) if s != a and not (good and side[s] == GOOD))
            if g.step3_may_pass or not out:
                out.append(g.PASS)
            return out
        if ph == P_PICK:
            pick = g.PICK
            return [pick[c] for c in effects.choices(self)]
        target = g.TARGET
        return [target[s] for s in effects.choices(self)]

    def _do(self, action: Action) -> None:
        g = self.game
        i = action.index
        op = g.CODE[i]
        arg = g.ARG[i]
        a = self.active
        if op == A_PLAY:
            self.hand_lose(a, arg)
            self.pending = arg
            if g.TYPE[arg] == EVENT:
                if self.log is not None:
                    self.tell3("play", said.said_play_event, a, self.title_code(a), arg)
                if effects.start(self):
                    self._event_done()
            else:
                # Logged once placed (one line: what went where); meanwhile the view shows it.
                self.phase = P_PLACE
        elif op == A_TO:
            if self.phase == P_DEST:
                effects.dest(self, arg)
                self._event_done()
            else:
                c = self.pending
                self.pending = -1
                self.table(arg, c)
                self.plays += 1
                if self.log is not None:
                    self.tell5("play", said.said_play, a, self.title_code(a), c, arg, self.title_code(arg))
                self._enter_play()
        elif op == A_DISCARD:
            v = self.victim
            if arg in self.hands[v]:
                self.hand_lose(v, arg)
            else:
                self.untable(arg)
            self.discard_add(arg)
            if self.log is not None:
                self.tell3("hit", said.said_hit, v, self.title_code(v), arg)
            self.victim = -1
            if self.hit_step == 3:
                self.current_player = a
                self._take_hit_step()
            else:
                self._end_turn()
        elif op == A_SLAY:
            good = self.side[a] == GOOD
            (self.mon if good else self.ally)[a].remove(arg)
            ch = self.changes
            if ch is not None:
                ch.append(g.NOTE[Z_MON if good else Z_ALLY][a] + 2 * arg)
            self.discard_add(arg)
            if self.log is not None:
                self.tell3("attack", said.said_attack_discard, a, self.title_code(a), arg)
            self._after_attack()
        elif op == A_SLAY3:
            names = g.NAME_ID
            mon = self.mon[a]
            three = [c for c in mon if names[c] == arg][:3]
            for c in three:
                mon.remove(c)
                ch = self.changes
                if ch is not None:
                    ch.append(g.NOTE[Z_MON][a] + 2 * c)
                self.discard_add(c)
            if self.log is not None:
                self.tell3("attack", said.said_slay3, a, self.title_code(a), g.cards.monster_names[arg])
            self._after_attack()
        elif op == A_DRAW:
            self.draw(a, 1)
            self._take_hit_step()
        elif op == A_ATTACK:
            if self.log is not None:
                self.tell4("attack", said.said_attack, a, self.title_code(a), arg, self.title_code(arg))
            self._hit(arg, 3)
        elif op == A_PASS:
            if self.log is not None:
                self.tell2("pass", said.said_pass, a, self.title_code(a))
            self._take_hit_step()
        elif op == A_DONE:
            if self.log is not None:
                self.tell3("play", said.said_done, a, self.title_code(a), bool(self.plays))
            self._attack_step()
        elif op == A_PICK:
            if effects.pick(self, arg):
                self._event_done()
        else:  # A_TARGET
            effects.target(self, arg)
            self._event_done()

    # -- views -----------------------------------------------------------------------------------
    def _view(self, seat: int | None) -> dict[str, JSON]:
        return view.view(self, seat)

    def _why_illegal(self, action: Action) -> str | None:
        return illegal.why(self, action)

    def _snapshot(self) -> dict[str, JSON]:
        g = self.game
        return {
            "active": self.active,
            "phase": PHASE_NAMES[self.phase],
            "plays": self.plays,
            "pending": self.pending,
            "chosen": self.chosen,
            "victim": self.victim,
            "hit_step": self.hit_step,
            "winner": self.winner,
            "reason": self.reason,
            "hands": [list(h) for h in self.hands],
            "deck": list(self.deck),
            "discard": list(self.discard),
            "tables": [[list(self.mon[s]), list(self.ally[s]), list(self.item[s])] for s in range(g.players)],
            "shown": sorted(self.shown),
            "sides": list(self.side),
            "chars": list(self.char),
            "reduced": [REDUCTION_NAMES[r] for r in self.reduced],
            "switches": list(self.switches),
        }

    def _known_cards(self, seat: int | None) -> set[int]:
        known = set(self.discard)
        for zones in (self.mon, self.ally, self.item):
            for z in zones:
                known.update(z)
        known.update(self.shown)
        if self.pending >= 0:
            known.add(self.pending)
        if self.chosen >= 0:
            known.add(self.chosen)
        cs = self.game.cards
        known.update(c for c in range(len(cs)) if cs.removed[c])
        if seat is not None:
            known.update(self.hands[seat])
        return known

    # -- search support --------------------------------------------------------------------------
    def _new_blank(self) -> Self:
        # In the compiled build a AodState itself is made through its own constructor, told to set
        # nothing: a native call, where the default (``cls.__new__(cls)``, looked up and called as
        # Python) costs about 0.15 us. Pure Python, and subclasses, keep the default (there the
        # constructor's call costs more than ``__new__``).
        if COMPILED and type(self) is AodState:
            return cast(Self, AodState(self.game, 0, False, _blank=True))
        cls = type(self)  # the default's own line, not a super() call (which costs pure Python more)
        return cls.__new__(cls)

    def clone(self) -> AodState:
        o = self._clone_base()
        o.hands = [h.copy() for h in self.hands]
        o.mon = [z.copy() for z in self.mon]
        o.ally = [z.copy() for z in self.ally]
        o.item = [z.copy() for z in self.item]
        o.side = self.side.copy()
        o.char = self.char
        o.reduced = self.reduced.copy()
        o.switches = self.switches.copy()
        o.changes = None  # the change list is its observer's, kept on the state it asked (class docstring)
        o.deck = self.deck.copy()
        o.discard = self.discard.copy()
        o.shown = self.shown.copy()
        o.active = self.active
        o.phase = self.phase
        o.plays = self.plays
        o.pending = self.pending
        o.chosen = self.chosen
        o.victim = self.victim
        o.hit_step = self.hit_step
        o.winner = self.winner
        o.reason = self.reason
        return o

    def _determinize(self, seat: int, rng: Rng) -> AodState:
        """Redeal the cards ``seat`` cannot see: the other hands' cards not publicly known to be
        there, and the deck. The deck is an unordered pile (each draw is random), so only the
        hand slots need drawing from the pooled unknown cards; the rest form the new deck."""
        self._check_seat(seat)
        other, r = self._reseeded_clone(rng)
        assert isinstance(other, AodState)
        shown = self.shown
        pool = other.deck
        slots: list[tuple[list[int], int]] = []
        for s, hand in enumerate(other.hands):
            if s == seat:
                continue
            for i, c in enumerate(hand):
                if c not in shown:
                    pool.append(c)
                    slots.append((hand, i))
        # Sorting makes the result a function of which cards are unknown, never of where they were.
        pool.sort()
        below = r.below
        last = len(pool) - 1
        for hand, i in slots:
            j = below(last + 1)
            pool[j], pool[last] = pool[last], pool[j]
            hand[i] = pool.pop()
            last -= 1
        return other

    def result(self) -> Result:
        if not self.is_over:
            raise ValueError("the game is not over")
        n = self.game.players
        w = self.winner
        details: dict[str, JSON] = {
            "sides": [SIDE_NAMES[s] for s in self.side],
            "switches": list(self.switches),
            "rounds": self.turn / n,
            "turn_limit": self.game.turn_limit,
        }
        if w < 0:
            return Result(
                tuple(0.0 for _ in range(n)),
                tuple(1 for _ in range(n)),
                (),
                self.reason,
                self.turn,
                truncated=True,
                draw=True,
                details=details,
            )
        return Result(
            tuple(1.0 if s == w else 0.0 for s in range(n)),
            tuple(1 if s == w else 2 for s in range(n)),
            (w,),
            self.reason,
            self.turn,
            details=details,
        )
