"""Shared ground of the Doctor Strange rules modules: phase numbers, the state's fields and the small
queries every rules module uses (who is viable, who may take an attachment, fight totals).

:class:`DSBase` declares every field of a state (``__slots__``); the rules are split into layers
over it, each a subclass of the one before — :mod:`.effects` (deck and events), :mod:`.combat`
(attacks), :mod:`.upkeep` (Rest phase rolls and the end of a turn) — and :class:`~.state.DSState`
adds the turn flow on top. One line of single inheritance (no diamond of mixins), as the compiled
build needs; the state object and its fields are the same as ever.
Per-character lists are indexed by slot (``game.SLOT[card]``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from mypy_extensions import mypyc_attr

from cardtable.engine import State
from cardtable.engine.changes import append_entry
from cardtable.games.doctor_strange import cards as C
from cardtable.games.doctor_strange.changes import Z_CHAR

if TYPE_CHECKING:
    from cardtable.games.doctor_strange.game import DoctorStrange  # noqa: F401  (named in a string below)

# Decision phases (someone chooses) ...
MYSTIC: Final = 0
XWIN: Final = 1
SUMMON: Final = 2
ONTO: Final = 3
DECLARE: Final = 4
TARGET: Final = 5
WEAPON: Final = 6
COUNTER: Final = 7
EXCHANGE: Final = 8
HELPER: Final = 9
REST: Final = 10
DISCARD: Final = 11
NEGATE: Final = 12
TAKE: Final = 13
OREST: Final = 14  # the other player's Rest window (rest-events=both-rests)
XANY: Final = 15  # an any-time window
# ... and automatic steps.
BEGIN: Final = 20
RESOLVE: Final = 21
HANDLIMIT: Final = 22
OVER: Final = 23
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
    OREST: "rest:opponent-window",
    XANY: "any-time-window:after-action",
    DISCARD: "rest:hand-limit",
    NEGATE: "negate:choose-target",
    TAKE: "go-back-in-time:choose-card",
    BEGIN: "begin",
    RESOLVE: "attack:resolve",
    HANDLIMIT: "rest:hand-limit",
    OVER: "over",
}
"""Phase codes for the snapshot (engine bookkeeping: views say where the turn is in words)."""
# Windows: decisions in which `pass` moves on. A window opens when, from public information, its
# player might hold a card to play in it (``DSState._might_play``), and is then offered even if the
# player's hand holds nothing playable (a lone `pass`): whether it opens never reveals a hand.
PASSABLE: Final = frozenset((MYSTIC, XWIN, SUMMON, DECLARE, COUNTER, EXCHANGE, REST, OREST, XANY))
# Decisions before which an owed any-time window may open (any-time-events=after-every-action): not in
# the middle of a choice (an attachment's character, a target, an Attack card, a helper, a Negate's
# target, a search), which an event never interrupts.
SETTLED: Final = frozenset((MYSTIC, XWIN, SUMMON, DECLARE, COUNTER, EXCHANGE, REST, OREST, DISCARD))
HAND_LIMIT: Final = 7


def replaced(table: tuple[int, ...], i: int, value: int) -> tuple[int, ...]:
    """``table`` with item ``i`` set to ``value``: how the rules change a per-slot tuple of a state."""
    if table[i] == value:
        return table
    items = list(table)
    items[i] = value
    return tuple(items)


@mypyc_attr(allow_interpreted_subclasses=True)  # clone's _new_blank, and subclasses in tests
class DSBase(State["DoctorStrange"]):
    """The fields of a Doctor Strange state and the queries shared by its rules modules."""

    __slots__ = (
        "_att_shared",
        "active",
        "ares",
        "att_on",
        "attacked",
        "attacks",
        "ba",
        "bd",
        "cap",
        "changes",
        "chars",
        "ctl",
        "decl_a",
        "decl_t",
        "discard",
        "evcard",
        "evseat",
        "exiled",
        "fhelp",
        "fight",
        "fpa",
        "fpd",
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
        "xowed",
        "xret",
        "xseat",
    )

    # Field types (assigned in DSState.__init__ and clone).
    stack: list[int]
    pool: list[int]
    hands: list[list[int]]
    discard: list[int]
    killed: list[int]
    exiled: list[int]
    chars: list[int]
    # Per character slot (``game.SLOT``): its side (-1: not in play), owner, incapacitated (0/1), the
    # character controlling it and the one holding it captive (-1: none), its modified power. These
    # change a few times a game and are read on every decision: immutable tuples that the rules
    # replace whole (:func:`replaced`), so a clone shares them for free and a change made in place to
    # either of two states fails loudly instead of showing in the other.
    side: tuple[int, ...]
    owner: tuple[int, ...]
    incap: tuple[int, ...]
    ctl: tuple[int, ...]
    cap: tuple[int, ...]
    mpow: tuple[int, ...]
    changes: list[int] | None
    """The change list for machines (the RL observer), ``None`` (kept by nobody) unless an observer
    asked for it by setting it to a list. While it is a list the rules append to it an entry for
    every card into or out of a hand, the discard, killed or exiled pile, every character that entered
    or left play or whose ``side``, ``owner``, ``incap``, ``ctl``, ``cap``, ``mpow`` or ``loc``
    changed, and every change of ``att_on`` (:mod:`.changes`; it means nothing to the rules). An
    observer that kept its place in this very list reads only what is new. A clone or a determinized
    copy starts without one. Code that changes those fields by hand (a scenario test) sets
    ``changes`` to ``None``, so that every buffer is written afresh."""
    loc: tuple[int, ...]
    """Per character slot: the Location attached to it (-1: none). A tuple, replaced whole."""
    att_on: list[int]
    """Per card: the character card it is attached to (-1: none). Shared by a state and its clones
    until one of them changes its own (copy on write, :meth:`own_att_on`): never change it in place
    from outside."""
    _att_shared: bool
    pending: int
    evcard: int
    evseat: int
    ret: int
    decl_a: int
    decl_t: int
    attacks: tuple[int, ...]
    """This turn's declared attacks, flat triples (attacker, target, Attack card). A tuple, replaced
    whole as attacks are declared."""
    ares: int
    ra: int
    rd: int
    ba: int
    bd: int
    helpers: int
    marked: int
    attacked: int
    peek: tuple[int, ...]
    """Per seat: a bit mask of the hidden cards whose place it knows. Replaced whole."""
    streak: tuple[int, ...]
    """Per seat: consecutive checked turns with no viable character. Replaced whole."""
    winner: int
    reason: str
    active: int
    phase: int
    # The last fight (kept for the view until the next one starts): [attacker, target, Attack card,
    # turn, outcome (-1 in progress, 1 attacker won, 0 defender won), attacker's and target's
    # modified power at the end, attacking seat]; the Power cards each side played; helpers and
    # their power at the end (card, power, card, power...). Tuples, replaced whole: they change a few
    # times a fight, and a clone shares them.
    fight: tuple[int, ...]
    fpa: tuple[int, ...]
    fpd: tuple[int, ...]
    fhelp: tuple[int, ...]
    # Any-time windows (any-time-events=after-every-action): the seat owed a window (-1 none), and
    # while one is open, its seat and the phase it interrupts.
    xowed: int
    xseat: int
    xret: int

    def own_att_on(self) -> list[int]:
        """``att_on``, to change: this state's own copy if a clone still shares it (the caller notes
        the change: ``note``)."""
        if self._att_shared:
            self.att_on = self.att_on.copy()
            self._att_shared = False
        return self.att_on

    def _enter(self, card: int, seat: int) -> None:
        """A character comes into play on ``seat``'s side, owned by ``seat``, clean."""
        s = self.game.SLOT[card]
        self.side = replaced(self.side, s, seat)
        self.owner = replaced(self.owner, s, seat)
        self.incap = replaced(self.incap, s, 0)
        self.ctl = replaced(self.ctl, s, -1)
        self.cap = replaced(self.cap, s, -1)
        self.loc = replaced(self.loc, s, -1)
        self.mpow = replaced(self.mpow, s, self.game.POW[card])
        self.chars.append(card)
        if self.changes is not None:
            self.note(Z_CHAR, 0, card, 0)

    def note(self, zone: int, seat: int, card: int, added: int) -> None:
        """Append a change list entry (:mod:`.changes`); called only while ``changes`` is kept."""
        append_entry(self.changes, self.game.NOTE, zone, seat, card, added)

    def _viable_on(self, seat: int) -> list[int]:
        slot, side, incap, cap = self.game.SLOT, self.side, self.incap, self.cap
        out = []
        for c in self.chars:
            s = slot[c]
            if side[s] == seat and not incap[s] and cap[s] < 0:
                out.append(c)
        return out

    def _plain(self, cards: list[int]) -> str:
        return ", ".join(self.game.card_name(c) for c in cards)

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
