"""Setting up the table (clauses K2 and O4).

Randomness is used in a fixed order: the first player (``first-player=random``), the card revealed
on each location pile in grid order, the four trainer skills, then each player's first six cards in
seat order. Face-down piles are unordered and every draw or reveal takes a random card of the pile
(:mod:`.shuffle`), which is the same as shuffling them here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardtable.engine.events import only
from cardtable.games.mr_card_game import flow, modifiers, said
from cardtable.games.mr_card_game import trainer as trainer_mod
from cardtable.games.mr_card_game.classes import BOARDS, CARDS
from cardtable.games.mr_card_game.codes import ASC_PERM, D_NONCOMBAT, HAND_SIZE, M_TURN, NO_LIMIT, ST_NONCOMBAT, ST_SIDE
from cardtable.games.mr_card_game.game import starting_meat
from cardtable.games.mr_card_game.shuffle import draw_list, pick_tuple

if TYPE_CHECKING:
    from cardtable.games.mr_card_game.state import McgState


def position(s: McgState, seat: int) -> int:
    """A seat's place in the turn order: 0 for the first player (the Certificate holder at setup)."""
    return (seat - s.first) % s.game.players


def deal(s: McgState) -> None:
    """Lay out the table and deal every player's starting kit, then start the first turn."""
    g = s.game
    c = g.cards
    n = g.players
    rng = s.rng
    # Everything empty first (the state's fields are declared in .state).
    s.hand = [[] for _ in range(n)]
    s.deck = [[] for _ in range(n)]
    s.disc = [[] for _ in range(n)]
    s.played = [[] for _ in range(n)]
    s.items = [() for _ in range(n)]
    s.skills = [() for _ in range(n)]
    s.escrow = [() for _ in range(n)]
    s.lasting = [() for _ in range(n)]
    s.store = [() for _ in range(n)]
    s.meat = [0] * n
    s.mods = [modifiers.ZERO] * n
    s.kills = [0] * n
    s.marks = [0] * n  # the rl observer's change marks (see McgState.marks)
    s.trained = [0] * n
    s.global_fx = ()
    s.gone = ()
    s.box = ()
    s.middle = ()
    s.quests = ()
    s.tower = -1
    s.tower_left = (0, 0, 0)
    s.foil_pool = ()
    s.store_aside = ()
    s.pub = 0
    s.klass = [-1] * n
    s.plain = 0
    s.runs = [0] * n
    s.permed = 0
    s.cure_left = False
    s.force = -1
    s.eq_seen = ()
    s.asc_stage = ASC_PERM
    s.asc_card = -1
    s.hc = 0
    s.hc_type = -1
    s.hc_last = 3
    s.hc_target = -1
    s.heap = ()
    s.eq = s.buffs = s.used = s.taken = s.out = 0
    s.elim = []
    s.round = 1
    s.mode = M_TURN
    s.step = ST_NONCOMBAT
    s.phase = D_NONCOMBAT
    s.queue = []
    s.mojo = 0
    s.pending = -1
    s.upg_left = 0
    s.upg_roll = False
    flow.reset_combat(s)
    s.poll = []
    s.morder = []
    s.midx = 0
    s.announcer = -1
    s.mtotal = [-1] * n
    s.mthresh = [0] * n
    s.winners = ()
    s.reason = ""

    # K2.10: the Certificate holder goes first (a seat named by the option, or a random one).
    first = g.first_player if g.first_player >= 0 else rng.below(n)
    s.first = s.cert = first
    # K2.1, K2.4: each location shuffled, its bottom card moved to the top (revealed). The hidden
    # part of a pile is unordered (see .shuffle): the revealed card is a random one of the pile.
    s.top = [-1] * len(c.locations)
    s.below = [()] * len(c.locations)
    for li in c.kingdom:
        s.top[li], s.below[li] = pick_tuple(c.location_cards[li], rng)
    # K2.5: the skill pile shuffled; four skills face up (the trainer, newest first). O6: six class
    # piles, each with its top face up.
    s.skill_disc = ()
    trainer_mod.deal(s)
    # K2.6: the twelve stat piles; the level-1 cards of the starting decks come off their ends.
    piles = list(c.stat_piles)
    for k in (0, 4, 8):
        piles[k] = piles[k][: len(piles[k]) - 4 * n]
    # K2.7: the meat pool.
    total = sum(starting_meat(i) for i in range(n))
    s.pool = g.meat_supply - total if g.meat_supply else NO_LIMIT
    log = s.log is not None
    if log:
        s.emit("setup", f"{g.seat_name(first)} holds the {c.certificate_name} and goes first")
    for seat in range(n):
        pos = position(s, seat)
        # K2.8 / O4: newbie gear set by turn order (the fifth player's set is Noblesse Oblige), equipped.
        gear = c.newbie[pos]
        s.items[seat] = gear
        for card in gear:
            s.eq |= 1 << card
        # K2.11: 5 meat plus one per player before you.
        s.meat[seat] = starting_meat(pos)
        # K2.9: four of each level-1 stat card, shuffled into a deck; draw six.
        deck = [*g.start_decks[seat]]
        s.deck[seat] = deck
        draw_list(s.hand[seat], deck, HAND_SIZE, rng)
        # The sums of a player holding only their newbie gear, equipped: the same in every game.
        mods = g.newbie_mods.get(pos)
        if mods is None:
            mods = g.newbie_mods[pos] = modifiers.compute(s, seat)
        s.mods[seat] = mods
        if log:
            s.tell4("setup", said.said_newbie, seat, pos, s.meat[seat], tuple(s.hand[seat]), only(seat))
    s.piles = piles
    supplement(s)
    if g.classes == BOARDS:
        # S3.2: each player in turn order chooses the side of the board dealt to them.
        s.poll = [(first + i) % n for i in range(n)]
        s.midx = 0
        s.active = s.actor = first
        s.step = ST_SIDE
        flow.advance(s)
    else:
        flow.start_turn(s, first)


def supplement(s: McgState) -> None:
    """Lay out the bonus and supplemental components the options ask for (after the core setup, so
    the core game deals exactly as before); what is not used goes into the box."""
    g = s.game
    c = g.cards
    rng = s.rng
    n = g.players
    log = s.log is not None
    box: list[int] = [x for gear in c.newbie[n:] for x in gear]
    # B1.2: each nemesis pile shuffled under its location card, its bottom card turned up.
    for li in c.nemesis_locations:
        if g.nemesis and c.location_cards[li]:
            s.top[li], s.below[li] = pick_tuple(c.location_cards[li], rng)
        else:
            box += c.location_cards[li]
    # B2.2: the quest boss pile, lowest power on top.
    if g.bosses:
        s.quests = c.bosses
    else:
        box += c.bosses
    # B3.2 / O3.2: the Sorceress' Tower.
    if g.ascension:
        # N first forms, then N second forms, then the third form; the rest removed unseen. The top
        # is turned up; the foils below and those removed are one unordered hidden pool per form
        # (which of them are in the Tower and which were removed, nobody can tell).
        box.append(c.sorceress)
        s.foil_pool = c.foils
        s.tower_left = (n, n, 1)
        reveal_tower(s)
    elif g.foil_form:
        box.append(c.sorceress)
        form = c.foil_forms[g.foil_form - 1]
        s.tower, rest = pick_tuple(form, rng)
        s.foil_pool = rest  # removed from the game without looking at them
        box += [x for x in c.foils if c.form[x] != g.foil_form]
        s.global_fx = c.gfx[s.tower]
        if log:
            s.emit("setup", f"the Sorceress' Tower hides {c.mname[s.tower]} (power {c.mpower[s.tower]})")
    else:
        box += c.foils
    # S1.1: Mr. Store items, three face down to each player; the rest set aside unseen.
    if g.store:
        left = g.in_store
        box += [x for x in c.store if x not in left]
        for seat in range(n):
            mine = []
            for _ in range(3):
                card, left = pick_tuple(left, rng)
                mine.append(card)
            s.store[seat] = tuple(sorted(mine))
            if log:
                name = g.seat_name(seat)
                s.emit(
                    "setup",
                    f"{name} is dealt 3 Mr. Store items face down",
                    f"{name} is dealt 3 Mr. Store items face down: " + ", ".join(c.iname[x] for x in s.store[seat]),
                    (seat,),
                )
        s.store_aside = left
    else:
        box += c.store
    # S2.1 / S3.2: a class card or board dealt to each player; the rest aside (the middle of the
    # table under ascension).
    kinds = ((), c.class_cards, c.class_boards)
    deck = kinds[g.classes]
    # A class and a foil's global effect are active from the start; with neither, nothing active has
    # changed since the deal refreshed each player's sums.
    changed = bool(deck) or bool(s.global_fx)
    for seat in range(n):
        if deck:
            s.klass[seat], deck = pick_tuple(deck, rng)
            if log and g.classes == CARDS:
                s.emit("setup", f"{g.seat_name(seat)} is dealt the {c.iname[s.klass[seat]]}")
            if g.classes == BOARDS:
                # Mr. Card Game side (no ability) until the player turns the class side up (S3.2).
                s.plain |= 1 << seat
                if log:
                    s.emit("setup", f"{g.seat_name(seat)} is dealt the {c.iname[s.klass[seat]]}")
        if changed:
            modifiers.refresh(s, seat)
    if g.ascension:
        s.middle = tuple(sorted(deck))
    else:
        box += deck
    for other in kinds:
        if other is not kinds[g.classes]:
            box += other
    s.box = tuple(sorted(box))


def reveal_tower(s: McgState) -> None:
    """Turn up the top of the Tower (ascension): a random hidden foil of the lowest form left; its
    global effect now changes the kingdom."""
    c = s.game.cards
    for f in range(3):
        if s.tower_left[f]:
            s.tower = take_foil(s, f + 1)
            left = list(s.tower_left)
            left[f] -= 1
            s.tower_left = (left[0], left[1], left[2])
            s.global_fx = c.gfx[s.tower]
            for p in range(s.game.players):
                modifiers.refresh(s, p)
            if s.log is not None:
                fx = " (no global effect)" if not c.gfx[s.tower] else ""
                s.emit("tower", f"the Sorceress' Tower shows {c.mname[s.tower]}, power {c.mpower[s.tower]}{fx}")
            return
    s.tower = -1


def take_foil(s: McgState, form: int) -> int:
    """A random hidden foil of ``form`` out of the pool (the next such card of the Tower)."""
    c = s.game.cards
    mine = tuple(x for x in s.foil_pool if c.form[x] == form)
    card, _ = pick_tuple(mine, s.rng)
    s.foil_pool = tuple(x for x in s.foil_pool if x != card)
    return card
