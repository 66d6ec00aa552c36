"""Ascension (clause O3, with the class changes of S2.3 and S3.5).

The Tower holds N first forms (N players), then N second forms, then the third form; its top foil is
face up and its global effect changes the kingdom. There is no March: in their combat phase a player
may defeat the Sorceress form of their run (run 1: form 1, and so on), as a target of step 3 (or by
damage alone in step 1): ``kill-sorceress``. A player whose form lies deeper digs past the lower
forms still on top (supplemental rules: they are set aside and put back), so the first card of their
form is turned up and fought; the top of the Tower stays.

Defeating form 1 or 2 completes a run, and the character is reset at once:

1. every stat card above level one (deck, hand, discard pile and the cards just played) goes back to
   its pile, and the deck becomes exactly four of each level-one card (extras back, missing ones
   from the piles); the hand is drawn at the end of the turn;
2. every acquired item goes into the Heap (in display-case order, A51), and the three newbie gear
   come back: the player's own set from their display case, their escrow, the Heap or the box, another spare set's
   card from the box when one of theirs is held by someone else, or none (A37). Mr. Store items
   (face up and face down), Instant Karmas and permed skills stay, and so does the meat;
3. negative effects are removed (A38: the character is reset to base), every buff turns off;
4. the player may perm one trained skill (``perm card=N`` / ``no-perm``); the other trained skills go
   to the skill discard pile;
5. the defeated foil goes Instant Karma side up into the display case;
6. with class cards or boards, the class card or board goes back to the middle and the player takes
   another one (``class card=N``), or, with boards, the Mr. Card Game side with the newbie gear
   (``side face=plain``); a board's class side brings its three equipment instead of the newbie gear.

The Tower's top changes at the map update. Defeating the third form frees King Ralph and wins the
game (reason ``king-freed``). Bosses and nemesis piles are built again as the options say
(:mod:`.hardcore`, :mod:`.mapupdate`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardtable.engine import Action
from cardtable.games.mr_card_game import flow, modifiers
from cardtable.games.mr_card_game.cards import K_BOARD_ITEM, K_BOSS, K_STORE
from cardtable.games.mr_card_game.classes import BOARDS, newbie_back
from cardtable.games.mr_card_game.codes import ASC_CLASS, ASC_DONE, ASC_PERM, ST_ASCEND
from cardtable.games.mr_card_game.setup import take_foil

if TYPE_CHECKING:
    from cardtable.games.mr_card_game.state import McgState


def form_of(s: McgState, p: int) -> int:
    """The Sorceress form ``p`` must defeat next (1, 2 or 3)."""
    return s.runs[p] + 1


def target_card(s: McgState, p: int) -> int:
    """The face-up foil ``p`` would fight (the Tower's top, if it is of their form), or -1 when they
    would dig for a hidden one (or none is left)."""
    top = s.tower
    if top >= 0 and s.game.cards.form[top] == form_of(s, p):
        return top
    return -1


def available(s: McgState, p: int) -> bool:
    """Whether a foil of ``p``'s form is there to fight: the top, or one hidden below it."""
    if target_card(s, p) >= 0:
        return True
    f = form_of(s, p)
    return f <= 3 and s.tower_left[f - 1] > 0


def sorceress_power(s: McgState, p: int) -> int | None:
    """The power of the Sorceress form ``p`` faces, with ``p``'s power changes (None: none to fight).
    Every foil of a form has the same power, so a hidden one's power is known."""
    g = s.game
    if not g.ascension or s.mode != 0 or not available(s, p):
        return None
    return g.cards.form_power[form_of(s, p) - 1] + s.mods[p][modifiers.MPOW]


def do_kill_sorceress(s: McgState, action: Action) -> None:
    """``kill-sorceress``: the Sorceress form of the player's run is defeated (O3.3-O3.6)."""
    from cardtable.games.mr_card_game.march import finish

    g = s.game
    c = g.cards
    p = s.actor
    form = form_of(s, p)
    card = target_card(s, p)
    log = s.log is not None
    if card >= 0:
        s.tower = -1  # the Tower shows its location card until the map update turns up the next foil
        s.taken |= 1 << c.tower
        s.global_fx = ()
        for q in range(g.players):
            modifiers.refresh(s, q)
    else:
        # O3.3: dig past the lower forms on top for the first card of this form.
        card = take_foil(s, form)
        left = list(s.tower_left)
        left[form - 1] -= 1
        s.tower_left = (left[0], left[1], left[2])
        if log:
            s.emit("tower", f"{g.seat_name(p)} sets the lower forms aside and finds {c.mname[card]}")
    if log:
        s.emit("kill", f"{g.seat_name(p)} defeats {c.mname[card]} (form {form}, power {c.mpower[card]})")
    s.lasting[p] = (*s.lasting[p], card)
    s.marks[p] += 1  # the rl observer's change mark (McgState.marks)
    runs = s.runs.copy()  # shared between clones: replace, never change in place
    runs[p] += 1
    s.runs = runs
    if form == 3:
        if log:
            s.emit("tower", f"{g.seat_name(p)} frees {c.iname[card]}!")
        finish(s, "king-freed", (p,))
        return
    reset(s, p)
    modifiers.refresh(s, p)
    if log:
        s.emit("ascension", f"{g.seat_name(p)} completes run {s.runs[p]} and takes {c.iname[card]}")
    s.asc_stage = ASC_PERM
    s.step = ST_ASCEND
    flow.advance(s)


def reset(s: McgState, p: int) -> None:
    """O3.4: the character back to its base stats and items (see the module docstring)."""
    g = s.game
    c = g.cards
    skind = c.skind
    piles = s.piles
    # 1. Stat cards.
    cards = [*s.hand[p], *s.deck[p], *s.disc[p], *s.played[p]]
    s.hand[p].clear()
    s.disc[p].clear()
    s.played[p].clear()
    s.marks[p] += 1  # the rl observer's change mark (McgState.marks)
    s.psum = 0
    kept: list[int] = []
    have = [0, 0, 0]
    for x in sorted(cards):
        k = skind[x]
        if k & 3 == 0 and have[k >> 2] < 4:
            have[k >> 2] += 1
            kept.append(x)
        else:
            piles[k] = (*piles[k], x)
    for t in range(3):
        while have[t] < 4 and piles[t * 4]:
            kept.append(piles[t * 4][-1])
            piles[t * 4] = piles[t * 4][:-1]
            have[t] += 1
    s.deck[p] = sorted(kept)
    # 2. Items.
    own = c.newbie[(p - s.first) % g.players]
    heap: list[int] = []
    keep: list[int] = []
    for x in s.items[p]:
        k = c.kind[x]
        if k == K_STORE or x in own or (k == K_BOARD_ITEM and g.classes != BOARDS):
            keep.append(x)
        elif k == K_BOARD_ITEM:
            s.eq &= ~(1 << x)  # the board goes back to the middle with its equipment (class stage)
        else:
            s.eq &= ~(1 << x)
            heap.append(x)
    s.items[p] = tuple(keep)
    s.heap = (*s.heap, *heap)
    if s.log is not None and heap:
        s.emit("ascension", f"{g.seat_name(p)}'s items go into the Heap: {', '.join(g.card_name(x) for x in heap)}")
    if g.classes != BOARDS:
        newbie_back(s, p)
    # 3. Negative effects and buffs.
    cured = [x for x in s.lasting[p] if c.kind[x] == K_BOSS]
    for x in cured:
        s.lasting[p] = tuple(y for y in s.lasting[p] if y != x)
        s.gone = (*s.gone, x)
    if s.log is not None and cured:
        names = ", ".join(c.negative_name[x] for x in cured)
        s.emit("ascension", f"{g.seat_name(p)}'s negative effects leave the game: {names}")
    for x in s.skills[p]:
        s.buffs &= ~(1 << x)


# -- the decisions after a run ---------------------------------------------------------------------


def perm_options(s: McgState, p: int) -> list[int]:
    permed = s.permed
    return [x for x in s.skills[p] if not permed >> x & 1]


def next_stage(s: McgState) -> bool:
    """Move through the stages that need no decision; True when the ascension is over (the flow goes
    on to the end of the turn), False when a decision is open (``asc_stage`` says which)."""
    g = s.game
    p = s.actor
    if s.asc_stage == ASC_PERM:
        if perm_options(s, p):
            s.current_player = p
            return False
        s.asc_stage = ASC_CLASS
    if s.asc_stage == ASC_CLASS:
        if g.classes:
            if s.asc_card < 0:
                # Return the class card or board to the middle first.
                old = s.klass[p]
                s.asc_card = old
                if old >= 0:
                    s.middle = tuple(sorted((*s.middle, old)))
                    klass = s.klass.copy()  # shared between clones: replace, never change in place
                    klass[p] = -1
                    s.klass = klass
                    s.marks[p] += 1  # the rl observer's change mark (McgState.marks)
                    s.plain &= ~(1 << p)
                    if g.classes == BOARDS:
                        board = g.cards.board_items[g.cards.class_boards.index(old)]
                        s.items[p] = tuple(x for x in s.items[p] if x not in board)
                        for x in board:
                            s.eq &= ~(1 << x)
                modifiers.refresh(s, p)
            s.current_player = p
            return False
        s.asc_stage = ASC_DONE
    s.asc_card = -1
    s.asc_stage = ASC_PERM
    flow.end_phase(s)
    flow.start_end_of_turn(s, p)
    return True


def legal_perm(s: McgState) -> list[Action]:
    g = s.game
    out = [g.PERM[x - g.skill0] for x in perm_options(s, s.actor)]
    out.append(g.NO_PERM)
    return out


def _drop_skills(s: McgState, p: int) -> None:
    """Every trained skill that is not permed goes to the skill discard pile."""
    permed = s.permed
    gone = [x for x in s.skills[p] if not permed >> x & 1]
    s.skills[p] = tuple(x for x in s.skills[p] if permed >> x & 1)
    s.marks[p] += 1  # the rl observer's change mark (McgState.marks)
    s.skill_disc = (*s.skill_disc, *gone)
    modifiers.refresh(s, p)
    if gone and s.log is not None:
        s.emit("ascension", f"{s.game.seat_name(p)}'s other skills go to the skill discard pile")


def do_perm(s: McgState, action: Action) -> None:
    card = int(action.args[0])
    p = s.actor
    s.permed |= 1 << card
    if s.log is not None:
        s.emit("ascension", f"{s.game.seat_name(p)} perms {s.game.card_name(card)}")
    _drop_skills(s, p)
    s.asc_stage = ASC_CLASS
    flow.advance(s)


def do_no_perm(s: McgState, action: Action) -> None:
    _drop_skills(s, s.actor)
    s.asc_stage = ASC_CLASS
    flow.advance(s)
