"""Setting up the table (clauses K2 and O4).

Randomness is used in a fixed order: the first player (``first-player=random``), the card revealed
on each location pile in grid order, the four trainer skills, then each player's first six cards in
seat order. Face-down piles are unordered and every draw or reveal takes a random card of the pile
(:mod:`.shuffle`), which is the same as shuffling them here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardtable.games.mr_card_game import flow, modifiers
from cardtable.games.mr_card_game.codes import D_NONCOMBAT, HAND_SIZE, M_TURN, NO_LIMIT, ST_NONCOMBAT
from cardtable.games.mr_card_game.game import starting_meat
from cardtable.games.mr_card_game.shuffle import pick_list, pick_tuple
from cardtable.games.mr_card_game.text import kinds_text

if TYPE_CHECKING:
    from cardtable.games.mr_card_game.state import McgState

TRAINER_SIZE = 4


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
    s.trained = [0] * n
    s.global_fx = ()
    s.gone = ()
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
    # K2.5: the skill pile shuffled; four skills face up (the trainer, newest first).
    skills = g.all_skills
    trainer: list[int] = []
    for _ in range(min(TRAINER_SIZE, len(skills))):
        card, skills = pick_tuple(skills, rng)
        trainer.insert(0, card)
    s.trainer = tuple(trainer)
    s.skill_pile = skills
    s.skill_disc = ()
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
        for _ in range(HAND_SIZE):
            s.hand[seat].append(pick_list(deck, rng))
        modifiers.refresh(s, seat)
        if log:
            name = g.seat_name(seat)
            s.emit(
                "setup",
                f"{name} takes the {c.newbie_set_names[pos]} newbie gear, {s.meat[seat]} meat, "
                f"and draws {HAND_SIZE} cards",
                f"{name} takes the {c.newbie_set_names[pos]} newbie gear, {s.meat[seat]} meat, "
                f"and draws {kinds_text(s, s.hand[seat])}",
                (seat,),
            )
    s.piles = piles
    flow.start_turn(s, first)
