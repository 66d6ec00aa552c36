"""Character class cards and boards (clauses S2 and S3) and the newbie gear they replace.

* Class cards (``classes=cards``): one dealt face up to each player; its ability works as a passive
  skill (:mod:`.modifiers` adds the effects of ``state.klass[p]``).
* Class boards (``classes=boards``): one dealt to each player, who chooses its side before the first
  turn, in turn order (``side face=class|plain``). The class side adds its ability and brings its
  three starting equipment (equipped) while the newbie gear goes back to the box; the Mr. Card Game
  side is played with the newbie gear and no ability. Board equipment is never AutoSold, pulverized,
  used up or put into the Heap; a new weapon, hat or pants is "laid over" its slot by equipping it
  (the board's item is then unequipped, and may be equipped again later).
* Ascension (S2.3, S3.5): after a run the class card or board goes back to the middle and the player
  takes another one from there (``class card=N``), or with boards the Mr. Card Game side
  (``side face=plain``), see :mod:`.ascension`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from cardtable.engine import Action
from cardtable.games.mr_card_game import flow, modifiers
from cardtable.games.mr_card_game.cards import T_ACCESSORY
from cardtable.games.mr_card_game.codes import ASC_DONE, D_SIDE

if TYPE_CHECKING:
    from cardtable.games.mr_card_game.state import McgState

CARDS: Final = 1
BOARDS: Final = 2
"""``game.classes``: 0 none, 1 class cards, 2 class boards."""


def _position(s: McgState, p: int) -> int:
    return (p - s.first) % s.game.players


def newbie_back(s: McgState, p: int) -> None:
    """A37: the three newbie gear back into ``p``'s display case, equipped: their own set's cards
    from the display case, their escrow (sold or used this turn), the Heap or the box; for a card
    held by another player, the same item of a spare set in the box; otherwise none."""
    g = s.game
    c = g.cards
    own = c.newbie[_position(s, p)]
    got = []
    for slot, card in enumerate(own):
        if card in s.items[p]:
            pick = card
        elif card in s.escrow[p]:
            # Sold or used this turn: on its way to the Heap, where it would be taken back from.
            s.escrow[p] = tuple(x for x in s.escrow[p] if x != card)
            s.marks[p] += 1  # the rl observer's change mark (McgState.marks)
            pick = card
        elif card in s.heap:
            s.heap = tuple(x for x in s.heap if x != card)
            pick = card
        elif card in s.box:
            s.box = tuple(x for x in s.box if x != card)
            pick = card
        else:
            spare = [gear[slot] for gear in c.newbie if gear[slot] in s.box]
            if not spare:
                continue
            pick = spare[0]
            s.box = tuple(x for x in s.box if x != pick)
        if pick not in s.items[p]:
            s.items[p] = (*s.items[p], pick)
            s.marks[p] += 1  # the rl observer's change mark (McgState.marks)
        got.append(pick)
    slots = {c.slot[x] for x in got}
    for x in s.items[p]:
        if c.slot[x] in slots and s.eq >> x & 1 and x not in got:
            # A Mr. Store item of a slot the newbie gear takes back steps aside; one whose newbie
            # piece does not come back (A37: none to be had) stays equipped.
            s.eq &= ~(1 << x)
    for x in got:
        s.eq |= 1 << x
    fit_equipment_limit(s, p)
    modifiers.refresh(s, p)


def fit_equipment_limit(s: McgState, p: int) -> None:
    """After an ascension reset brings back the newbie gear or a board's equipment (equipped, as at
    setup), the kept Mr. Store accessories step aside until at most three pieces of equipment are
    equipped (O5), the last laid down first; the player may equip them again later (with the forced
    unequip)."""
    c = s.game.cards
    on = [x for x in s.items[p] if s.eq >> x & 1]
    extra = len(on) - 3
    for x in reversed(on):
        if extra <= 0:
            break
        if c.slot[x] == T_ACCESSORY:
            s.eq &= ~(1 << x)
            extra -= 1


def class_options(s: McgState) -> list[int]:
    """The classes a player may take after a run: any in the middle but the one just returned."""
    return [x for x in s.middle if x != s.asc_card]


def legal_class(s: McgState) -> list[Action]:
    g = s.game
    out = [g.CLASS[x] for x in class_options(s)]
    if g.classes == BOARDS:
        out.append(g.SIDE_PLAIN)
    return out


def do_class(s: McgState, action: Action) -> None:
    """``class card=N``: the new class (a class card, or a board class side up with its equipment)."""
    card = int(action.args[0])
    p = s.actor
    take_class(s, p, card)
    s.asc_stage = ASC_DONE
    flow.advance(s)


def take_class(s: McgState, p: int, card: int) -> None:
    g = s.game
    c = g.cards
    s.middle = tuple(x for x in s.middle if x != card)
    klass = s.klass.copy()  # shared between clones: replace, never change in place
    klass[p] = card
    s.klass = klass
    s.marks[p] += 1  # the rl observer's change mark (McgState.marks)
    if g.classes == BOARDS:
        board_side(s, p, card)
    modifiers.refresh(s, p)
    if s.log is not None:
        s.emit("class", f"{g.seat_name(p)} takes the {c.iname[card]}")


def board_side(s: McgState, p: int, board: int) -> None:
    """S3.2: a class board class side up: its equipment replaces the newbie gear (back to the box)."""
    g = s.game
    c = g.cards
    s.plain &= ~(1 << p)
    newbie = {x for gear in c.newbie for x in gear}
    mine = [x for x in s.items[p] if x in newbie]
    s.items[p] = tuple(x for x in s.items[p] if x not in newbie)
    s.marks[p] += 1  # the rl observer's change mark (McgState.marks)
    for x in mine:
        s.eq &= ~(1 << x)
    s.box = tuple(sorted((*s.box, *mine)))
    equipment = c.board_items[c.class_boards.index(board)]
    for x in s.items[p]:
        if c.slot[x] in (0, 1, 2) and s.eq >> x & 1:
            s.eq &= ~(1 << x)
    s.items[p] = (*equipment, *s.items[p])
    s.marks[p] += 1  # the rl observer's change mark (McgState.marks)
    for x in equipment:
        s.eq |= 1 << x
    fit_equipment_limit(s, p)
    modifiers.refresh(s, p)


def legal_side(s: McgState) -> list[Action]:
    g = s.game
    return [g.SIDE_CLASS, g.SIDE_PLAIN]


def do_side(s: McgState, action: Action) -> None:
    """``side face=class|plain``: at setup, the side of the board dealt to the player (S3.2); after an
    ascension run, ``plain`` is the Mr. Card Game side with the newbie gear (S3.5)."""
    g = s.game
    c = g.cards
    face = str(action.args[0])
    if s.phase == D_SIDE:
        p = s.poll[s.midx]
        board = s.klass[p]
        if face == "class":
            board_side(s, p, board)
        else:
            s.plain |= 1 << p  # already so since the deal: the ability never counted
            modifiers.refresh(s, p)
        if s.log is not None:
            side = c.iname[board] + " class side up" if face == "class" else "its Mr. Card Game side up"
            s.emit("class", f"{g.seat_name(p)} places the board {side}")
        s.midx += 1
        if s.midx >= len(s.poll):
            s.poll = []
            s.midx = 0
            flow.start_turn(s, s.first)
        else:
            flow.advance(s)
        return
    p = s.actor
    newbie_back(s, p)
    if s.log is not None:
        s.emit("class", f"{g.seat_name(p)} takes the Mr. Card Game side (the newbie gear)")
    s.asc_stage = ASC_DONE
    flow.advance(s)
