"""The Mr. Card Game state: its fields, ``clone``, ``determinize``, ``known_cards`` and dispatch.

The state is flat for speed. Card ids live in plain lists (zones that change on most decisions:
hands, decks, discard and played piles) or in tuples replaced on change (zones that change a few
times a turn: stat piles, location piles, the Heap, the trainer, display cases), so ``clone`` copies
little. Flags are bit masks over card ids (``eq`` equipped, ``buffs`` active buffs, ``used`` used
this turn). Each player's lasting bonuses are summed in ``mods[p]`` (see :mod:`.modifiers`).

Stat cards have ids (so every card is in exactly one place), but cards of one kind are
interchangeable: actions name kinds (``play stat=mus2``), views show kinds and counts, and the
rules move "a card of that kind" (the last one of the zone).

Face-down piles nobody has seen the order of (stat decks, the hidden part of each location pile, the
skill draw pile) are unordered and kept sorted: a draw or reveal takes a random card (:mod:`.shuffle`).

The rules are in the modules named in :mod:`.game`; this module only holds them together:
``_legal_actions`` asks the module of the open decision, ``_do`` the module of the action's kind.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final, Self, cast

from mypy_extensions import mypyc_attr

from cardtable.engine import JSON, Action, Result, Rng, State
from cardtable.engine.game import COMPILED
from cardtable.games.mr_card_game import (
    ascension,
    classes,
    combat,
    endturn,
    flow,
    hardcore,
    march,
    mojo,
    noncombat,
    setup,
)
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
    D_PULVERIZE,
    D_SIDE,
    D_SPELLX,
    D_TARGET,
    D_UNEQUIP,
    D_UPGRADE,
)
from cardtable.games.mr_card_game.effects import Effect

if TYPE_CHECKING:
    from cardtable.games.mr_card_game.game import MrCardGame

SHARED = ("kills", "trained", "top", "below", "elim", "klass", "runs", "poll", "morder", "mtotal", "mthresh")
"""The list fields :meth:`McgState.clone` shares instead of copying (copy on write): code that
changes one of them (the rules, and tests that set a position up) must assign a new list, e.g.
``kills = s.kills.copy(); kills[p] += 1; s.kills = kills``, never write into it."""

QueueItem = tuple[int, int, int, int, int]
"""A pending instant: ``(op, a, b, source card, x)``; x is the mojo spent on a Spell Attack ability."""


@mypyc_attr(allow_interpreted_subclasses=True)  # clone's _new_blank, and subclasses in tests
class McgState(State["MrCardGame"]):
    """A Mr. Card Game position. Fields are public for scenario tests; change them only between
    decisions (and call ``modifiers.refresh`` after changing what is active)."""

    __slots__ = (
        "active",
        "actor",
        "announcer",
        "asc_card",
        "asc_stage",
        "below",
        "box",
        "buffs",
        "cb",
        "cert",
        "cure_left",
        "deck",
        "disc",
        "dmg",
        "dmg_vs",
        "elim",
        "eq",
        "eq_seen",
        "escrow",
        "first",
        "foil_pool",
        "force",
        "global_fx",
        "gone",
        "hand",
        "hc",
        "hc_last",
        "hc_target",
        "hc_type",
        "heap",
        "items",
        "kills",
        "klass",
        "lasting",
        "man",
        "marks",
        "meat",
        "middle",
        "midx",
        "mode",
        "mods",
        "mojo",
        "morder",
        "mthresh",
        "mtotal",
        "out",
        "pending",
        "permed",
        "phase",
        "piles",
        "plain",
        "plast",
        "played",
        "poll",
        "pool",
        "psum",
        "pub",
        "quests",
        "queue",
        "reason",
        "red",
        "round",
        "runs",
        "skill_disc",
        "skill_pile",
        "skills",
        "step",
        "store",
        "store_aside",
        "taken",
        "top",
        "tower",
        "tower_left",
        "trained",
        "trainer",
        "upg_left",
        "upg_roll",
        "used",
        "winners",
    )

    # players
    hand: list[list[int]]
    deck: list[list[int]]
    disc: list[list[int]]
    played: list[list[int]]
    items: list[tuple[int, ...]]
    skills: list[tuple[int, ...]]
    escrow: list[tuple[int, ...]]
    lasting: list[tuple[int, ...]]
    store: list[tuple[int, ...]]
    meat: list[int]
    mods: list[tuple[int, ...]]
    kills: list[int]
    trained: list[int]
    marks: list[int]
    """``marks[p]``: a change mark for machines (the RL observer), bumped wherever the rules change
    player ``p``'s hand, deck, discard or played pile, display case, skills, escrow, lasting effects,
    Mr. Store items, meat, kills, class or ``mods``. It means nothing to the rules: an observer that
    saw this very state object with the same mark knows that part of its observation is unchanged
    (``cardtable.rl.observe.mr_card_game``; a property test proves it against a full rewrite). Each
    state has a list of its own: ``clone`` copies it, never shares it."""
    # table
    piles: list[tuple[int, ...]]
    top: list[int]
    below: list[tuple[int, ...]]
    heap: tuple[int, ...]
    trainer: tuple[int, ...]
    skill_pile: tuple[int, ...]
    skill_disc: tuple[int, ...]
    pool: int
    global_fx: tuple[Effect, ...]
    gone: tuple[int, ...]
    """Cards removed from the game, publicly (boss cards blocked or cured, used Mr. Store items with
    ``store-used=removed``)."""
    box: tuple[int, ...]
    """Cards never in play, publicly known (spare newbie sets, components not used, filtered Mr. Store
    items, unused class cards and boards outside ascension, the standard Sorceress when foils are used)."""
    middle: tuple[int, ...]
    """Ascension: the unused class cards or boards in the middle of the table (public)."""
    quests: tuple[int, ...]
    """The quest boss pile, top first (public, ordered by power)."""
    tower: int
    """The foil face up on top of the Sorceress' Tower (-1: the standard Sorceress, or the Tower's
    location card after the top foil was defeated this turn)."""
    tower_left: tuple[int, int, int]
    """How many foils of each form are still hidden in the Tower, below its top."""
    foil_pool: tuple[int, ...]
    """The foils nobody has seen: those hidden in the Tower and those removed unseen, together and
    unordered (a foil turned up is a random one of its form: the same as shuffling, see .shuffle)."""
    store_aside: tuple[int, ...]
    """Mr. Store items set aside unseen (not dealt)."""
    pub: int
    """Bit mask of face-down Mr. Store items whose identity is public (revealed once, then returned)."""
    klass: list[int]
    """Each player's class card or class board (-1: none)."""
    plain: int
    """Bit mask of the players whose class board shows the Mr. Card Game side (no class ability)."""
    runs: list[int]
    """Ascension runs each player has completed (the Sorceress form they face next is runs + 1)."""
    permed: int
    """Bit mask of the skills permed in ascension (kept through every reset)."""
    eq: int
    buffs: int
    used: int
    taken: int
    out: int
    elim: list[int]
    cert: int
    first: int
    round: int
    # flow
    active: int
    actor: int
    mode: int
    step: int
    phase: int
    queue: list[QueueItem]
    mojo: int
    pending: int
    upg_left: int
    upg_roll: bool
    cure_left: bool
    """A rollover's "remove one negative effect" decision is pending."""
    force: int
    """A piece of equipment just equipped as the fourth: another must be unequipped (-1: none)."""
    eq_seen: tuple[int, ...]
    """The equipment arrangements (``eq`` masks) held since the acting player's last action other
    than equipping or unequipping: an arrangement may not come back (docs/rules, "Equipment changes
    never return to an earlier arrangement"), so a turn never returns to a position it was in."""
    asc_stage: int
    """After defeating a Sorceress form: 0 perm a skill, 1 choose a class, 2 done."""
    asc_card: int
    """The class card or board just returned to the middle (a new class must be another one)."""
    # hardcore combat
    hc: int
    """The counter-attack still to block (0: none)."""
    hc_type: int
    """The stat type the block must use (-1: any single type, not chosen yet)."""
    hc_last: int
    """The value of the last card discarded to block (cards are offered in non-increasing value)."""
    hc_target: int
    """The monster, nemesis or boss killed, looted once the block is settled."""
    # combat
    man: int
    psum: int
    plast: int
    dmg: int
    dmg_vs: tuple[int, ...]
    cb: tuple[int, int, int, int]
    red: int
    # the March
    poll: list[int]
    morder: list[int]
    midx: int
    announcer: int
    mtotal: list[int]
    mthresh: list[int]
    winners: tuple[int, ...]
    reason: str

    def __init__(self, game: MrCardGame, seed: int, log: bool, *, _blank: bool = False) -> None:
        if _blank:  # the start of a clone (_new_blank): clone() sets every field
            return
        super().__init__(game, seed, log)
        setup.deal(self)

    # -- the protocol hooks ---------------------------------------------------------------------------
    def _legal_actions(self) -> list[Action]:
        # The commonest decisions by direct calls (native ones in the compiled build, where a call
        # through the table is a Python-level call); the rest through :data:`_LEGAL`, which names the
        # same function for every decision.
        phase = self.phase
        if phase == D_DISCARD:
            return endturn.legal_discard(self)
        if phase == D_NONCOMBAT:
            return noncombat.legal(self)
        if phase == D_MANEUVER:
            return combat.legal_maneuver(self)
        if phase == D_COMBAT:
            return combat.legal_step1(self)
        return _LEGAL[phase](self)

    def _do(self, action: Action) -> None:
        kind = action.kind
        if self.eq_seen and kind != "equip" and kind != "unequip":
            self.eq_seen = ()  # any other action changes the position for good
        # As in _legal_actions: the commonest kinds by direct calls, the rest through :data:`_HANDLERS`
        # (the same function for every kind).
        if kind == "discard":
            endturn.do_discard(self, action)
        elif kind == "done":
            flow.do_done(self, action)
        elif kind == "maneuver":
            combat.do_maneuver(self, action)
        elif kind == "end-turn":
            noncombat.do_end_turn(self, action)
        elif kind == "combat":
            combat.do_start(self, action)
        else:
            _HANDLERS[kind](self, action)

    def _new_blank(self) -> Self:
        # In the compiled build a McgState itself is made through its own constructor, told to set
        # nothing: a native call, where the default (``cls.__new__(cls)``, looked up and called as
        # Python) costs about 0.15 us. Pure Python, and subclasses, keep the default (there the
        # constructor's call costs more than ``__new__``).
        if COMPILED and type(self) is McgState:
            return cast(Self, McgState(self.game, 0, False, _blank=True))
        cls = type(self)  # the default's own line, not a super() call (which costs pure Python more)
        return cls.__new__(cls)

    def clone(self) -> McgState:
        """An exact, independent copy. Immutable fields (ints, tuples) are shared, and so are the
        lists in :data:`SHARED`, which change a few times a game at most: the rules replace them
        (copy, change, assign), never change them in place, so a clone and its original never see
        each other's moves. Every other list is copied."""
        o: McgState = self._clone_base()
        o.hand = [h.copy() for h in self.hand]
        o.deck = [d.copy() for d in self.deck]
        o.disc = [d.copy() for d in self.disc]
        o.played = [p.copy() for p in self.played]
        o.items = self.items.copy()
        o.skills = self.skills.copy()
        o.escrow = self.escrow.copy()
        o.lasting = self.lasting.copy()
        o.store = self.store.copy()
        o.meat = self.meat.copy()
        o.mods = self.mods.copy()
        o.kills = self.kills
        o.marks = self.marks.copy()  # the rl observer's change marks (never shared: see marks)
        o.trained = self.trained
        o.piles = self.piles.copy()
        o.top = self.top
        o.below = self.below
        o.heap = self.heap
        o.trainer = self.trainer
        o.skill_pile = self.skill_pile
        o.skill_disc = self.skill_disc
        o.pool = self.pool
        o.global_fx = self.global_fx
        o.gone = self.gone
        o.eq = self.eq
        o.buffs = self.buffs
        o.used = self.used
        o.taken = self.taken
        o.out = self.out
        o.elim = self.elim
        o.cert = self.cert
        o.first = self.first
        o.round = self.round
        o.active = self.active
        o.actor = self.actor
        o.mode = self.mode
        o.step = self.step
        o.phase = self.phase
        o.queue = self.queue.copy()
        o.mojo = self.mojo
        o.pending = self.pending
        o.upg_left = self.upg_left
        o.upg_roll = self.upg_roll
        o.cure_left = self.cure_left
        o.force = self.force
        o.eq_seen = self.eq_seen
        o.asc_stage = self.asc_stage
        o.asc_card = self.asc_card
        o.hc = self.hc
        o.hc_type = self.hc_type
        o.hc_last = self.hc_last
        o.hc_target = self.hc_target
        o.box = self.box
        o.middle = self.middle
        o.quests = self.quests
        o.tower = self.tower
        o.tower_left = self.tower_left
        o.foil_pool = self.foil_pool
        o.store_aside = self.store_aside
        o.pub = self.pub
        o.klass = self.klass
        o.plain = self.plain
        o.runs = self.runs
        o.permed = self.permed
        o.man = self.man
        o.psum = self.psum
        o.plast = self.plast
        o.dmg = self.dmg
        o.dmg_vs = self.dmg_vs
        o.cb = self.cb
        o.red = self.red
        o.poll = self.poll
        o.morder = self.morder
        o.midx = self.midx
        o.announcer = self.announcer
        o.mtotal = self.mtotal
        o.mthresh = self.mthresh
        o.winners = self.winners
        o.reason = self.reason
        return o

    def _determinize(self, seat: int, rng: Rng) -> McgState:
        """A state consistent with ``view(seat)``, with what that seat cannot know resampled:

        * each other player's hand and deck, pooled per player and dealt again (what they hold
          together is public: every stat card's arrival and departure is seen, only which are in
          the hand is not);
        * the Mr. Store items nobody but their owner has seen: the other players' face-down items
          (except those whose identity became public when they were revealed and returned) and the
          items set aside, pooled and dealt again, each player keeping their number;
        * the order of the seat's own deck, of the hidden part of each location pile, of the skill
          draw pile and the foils nobody has seen: these piles are unordered and kept sorted (every
          draw or reveal takes a random card, see :mod:`.shuffle`), so reseeding the state's
          generator (done by the engine) resamples them.

        Every pool is sorted before cards are drawn from it, so the result depends only on what the
        seat can know and on ``rng``. Only the cards dealt out are drawn (a hand of six from a pool of
        thirty is six draws from two 64-bit outputs, see :func:`deal`, not a thirty-card shuffle);
        what stays in the pool is the deck (or the Mr. Store items set aside), in sorted order.
        """
        o, r = self._reseeded_clone(rng)
        assert isinstance(o, McgState)
        players = self.game.players
        hands = o.hand
        decks = o.deck
        marks = o.marks
        for p in range(players):
            marks[p] += 1  # hands, decks and stores dealt again (a new marks list anyway: a guard)
        for p in range(players):
            if p == seat:
                continue
            hand = hands[p]
            deck = decks[p]
            if not deck or not hand:
                continue
            # The hand is a uniformly random subset of the pooled cards, drawn one card at a time
            # from the sorted pool; what is left is the deck, still sorted (decks are kept sorted).
            # (Hand order is hidden and carries nothing: cards of a kind are interchangeable.)
            pool = hand + deck
            pool.sort()
            if len(deck) < len(hand):
                # Fewer draws the other way round: deal the deck, the rest is the hand.
                dealt = r.deal(pool, len(deck))
                dealt.sort()
                hands[p] = pool
                decks[p] = dealt
            else:
                hands[p] = r.deal(pool, len(hand))
                decks[p] = pool
        if self.game.store:
            pub = o.pub
            stores = o.store
            pool = list(o.store_aside)
            takers: list[tuple[int, int, list[int] | None]] = []  # (player, items dealt, public items)
            for p in range(players):
                items = stores[p]
                if p == seat or not items:
                    continue
                if pub:
                    hidden = [x for x in items if not pub >> x & 1]
                    if not hidden:
                        continue
                    shown = [x for x in items if pub >> x & 1] if len(hidden) < len(items) else None
                    takers.append((p, len(hidden), shown))
                    pool += hidden
                else:
                    # Without a public item (the usual case) every face-down item is hidden.
                    takers.append((p, len(items), None))
                    pool += items
            # One player's hidden items and none set aside: dealing them again changes nothing.
            if len(takers) > 1 or (takers and o.store_aside):
                pool.sort()
                # All in one deal, handed out in seat order: the same as dealing each in turn.
                dealt = r.deal(pool, len(pool) - len(o.store_aside))
                i = 0
                for p, k, shown in takers:
                    mine = dealt[i : i + k]
                    i += k
                    if shown:
                        mine += shown
                    mine.sort()
                    stores[p] = tuple(mine)
                o.store_aside = tuple(pool)
        return o

    def _known_cards(self, seat: int | None) -> set[int]:
        """Every card whose identity and place ``seat`` knows: all but the decks, the other hands,
        the hidden part of the location piles, the skill draw pile, the other players' face-down
        Mr. Store items (unless their identity is public), the Mr. Store items set aside and the
        foils nobody has seen."""
        hidden: set[int] = set()
        pub = self.pub
        for p in range(self.game.players):
            hidden.update(self.deck[p])
            if p != seat:
                hidden.update(self.hand[p])
                hidden.update(x for x in self.store[p] if not pub >> x & 1)
        for pile in self.below:
            hidden.update(pile)
        hidden.update(self.skill_pile)
        hidden.update(self.store_aside)
        hidden.update(self.foil_pool)
        return set(range(self.game.cards.size)) - hidden

    def _why_illegal(self, action: Action) -> str | None:
        return noncombat.why_illegal(self, action)

    def _view(self, seat: int | None) -> dict[str, JSON]:
        from cardtable.games.mr_card_game.views import view

        return view(self, seat)

    def _snapshot(self) -> dict[str, JSON]:
        from cardtable.games.mr_card_game.views import snapshot

        return snapshot(self)

    def result(self) -> Result:
        from cardtable.games.mr_card_game.views import result

        return result(self)


def deal(pool: list[int], k: int, rng: Rng) -> list[int]:
    """Remove ``k`` uniformly random cards from ``pool`` (at most its size) and return them, in the
    order drawn; the rest of ``pool`` keeps its order. This is ``determinize``'s hot loop: one output
    of the generator serves several draws (:meth:`Rng.deal`, a mixed-radix deal within ``2**-32`` of
    uniform), so dealing a hand of six from a pool of nine takes one output instead of six."""
    return rng.deal(pool, k)


_LEGAL: Final[dict[int, Callable[[McgState], list[Action]]]] = {
    D_NONCOMBAT: noncombat.legal,
    D_SPELLX: mojo.legal_spell_x,
    D_CHOOSE: noncombat.legal_choose,
    D_PULVERIZE: noncombat.legal_pulverize,
    D_UPGRADE: endturn.legal_upgrade,
    D_COMBAT: combat.legal_step1,
    D_MANEUVER: combat.legal_maneuver,
    D_TARGET: combat.legal_target,
    D_DISCARD: endturn.legal_discard,
    D_LIMIT: endturn.legal_limit,
    D_POLL: march.legal_poll,
    D_BLOCK: hardcore.legal_block,
    D_CURE: hardcore.legal_cure,
    D_UNEQUIP: noncombat.legal_forced_unequip,
    D_PERM: ascension.legal_perm,
    D_CLASS: classes.legal_class,
    D_SIDE: classes.legal_side,
}

_HANDLERS: Final[dict[str, Callable[[McgState, Action], None]]] = {
    "equip": noncombat.do_equip,
    "unequip": noncombat.do_unequip,
    "autosell": noncombat.do_autosell,
    "use": noncombat.do_use,
    "train": noncombat.do_train,
    "dive": noncombat.do_dive,
    "skill": mojo.do_skill,
    "buff": mojo.do_buff,
    "mojo": mojo.do_mojo,
    "spend": mojo.do_spend,
    "choose": noncombat.do_choose,
    "target": noncombat.do_target,
    "upgrade": endturn.do_upgrade,
    "no-upgrade": endturn.do_no_upgrade,
    "combat": combat.do_start,
    "end-turn": noncombat.do_end_turn,
    "maneuver": combat.do_maneuver,
    "play": combat.do_play,
    "kill": combat.do_kill,
    "end-combat": combat.do_end_combat,
    "done": flow.do_done,
    "discard": endturn.do_discard,
    "march": march.do_march,
    "pass": march.do_pass,
    "reveal": noncombat.do_reveal,
    "block": hardcore.do_block,
    "suffer": hardcore.do_suffer,
    "cure": hardcore.do_cure,
    "no-cure": hardcore.do_no_cure,
    "perm": ascension.do_perm,
    "no-perm": ascension.do_no_perm,
    "class": classes.do_class,
    "side": classes.do_side,
    "kill-sorceress": ascension.do_kill_sorceress,
}
