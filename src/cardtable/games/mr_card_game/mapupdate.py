"""The Heap and the map update (clauses K10 and K11).

The Heap is a public face-up stack (``state.heap``, its top last). Escrowed items reach it at the end
of their owner's turn, in the order they were set aside (:func:`.endturn.clean_up`); only its top
card can be dived (:mod:`.noncombat`).

The map update, at the end of every turn (and once after a failed March): the trainer turns over
(:mod:`.trainer`); every location whose top monster was taken moves its bottom card to the top; then
every kingdom location with no card left is rebuilt from the Heap: all of its monster/item cards
there are taken out (the rest of the Heap keeps its order), shuffled, and the new pile's bottom card
is turned up. A location with none in the Heap stays empty and is checked again at every update
(interpretation A7). The update comes after the end of the turn, so items escrowed this turn can
already rebuild a pile. Nemesis piles turn up their next card the same way but are never rebuilt
(B1.6), except under ascension (O3.7); under ascension the Tower turns up its next foil here (O3.5).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardtable.games.mr_card_game import trainer
from cardtable.games.mr_card_game.cards import K_NEMESIS
from cardtable.games.mr_card_game.shuffle import pick_tuple

if TYPE_CHECKING:
    from cardtable.games.mr_card_game.state import McgState


def update(s: McgState) -> None:
    """K11: trainer, revealed tops, rebuilt locations."""
    trainer.refresh(s)
    c = s.game.cards
    log = s.log is not None
    taken = s.taken
    if taken:
        # ``top`` and ``below`` are shared between clones: replaced, never changed in place.
        top = s.top = s.top.copy()
        below = s.below = s.below.copy()
        for li in range(len(top)):
            if taken >> li & 1 and top[li] < 0 and below[li]:
                top[li], below[li] = pick_tuple(below[li], s.rng)
                if log:
                    s.emit("map", f"{c.locations[li].name}: {c.mname[top[li]]} is turned up")
        if c.tower >= 0 and taken >> c.tower & 1 and s.tower < 0:
            from cardtable.games.mr_card_game.setup import reveal_tower

            reveal_tower(s)  # O3.5: the next Sorceress of the Tower and her global effect
        s.taken = 0
    for li in c.kingdom:
        if s.top[li] < 0 and not s.below[li]:
            rebuild(s, li)
    # B1.6: an emptied nemesis pile stays empty, except under ascension (O3.7, ``nemesis-rebuild``).
    if s.game.ascension and s.game.nemesis:
        for li in c.nemesis_locations:
            if s.top[li] < 0 and not s.below[li]:
                rebuild_nemesis(s, li)


def rebuild(s: McgState, li: int) -> None:
    """K11.3: form location ``li`` again from its monster/item cards in the Heap (if any)."""
    c = s.game.cards
    mine = [x for x in s.heap if c.loc[x] == li]
    if not mine:
        return
    taken = set(mine)
    s.heap = tuple(x for x in s.heap if x not in taken)
    put_location(s, li, *pick_tuple(tuple(sorted(mine)), s.rng))
    if s.log is not None:
        s.emit(
            "map",
            f"{c.locations[li].name} is rebuilt from the Heap ({len(mine)} cards): {c.mname[s.top[li]]} is turned up",
        )


def rebuild_nemesis(s: McgState, li: int) -> None:
    """O3.7 (ascension): a new pile for an emptied nemesis location, from its epic items in the Heap
    (``nemesis-rebuild=heap``) or from all of its cards, display cases included (``all``)."""
    g = s.game
    c = g.cards
    mine = [x for x in s.heap if c.loc[x] == li]
    taken = set(mine)
    s.heap = tuple(x for x in s.heap if x not in taken)
    if g.nemesis_all:
        from cardtable.games.mr_card_game import modifiers

        for p in range(g.players):
            held = [x for x in s.items[p] if c.loc[x] == li and c.kind[x] == K_NEMESIS]
            if held:
                s.items[p] = tuple(x for x in s.items[p] if x not in held)
                s.marks[p] += 1  # the rl observer's change mark (McgState.marks)
                for x in held:
                    s.eq &= ~(1 << x)
                mine += held
                modifiers.refresh(s, p)
    if not mine:
        return
    put_location(s, li, *pick_tuple(tuple(sorted(mine)), s.rng))
    if s.log is not None:
        s.emit(
            "map",
            f"{c.locations[li].name} is built again ({len(mine)} cards): {c.mname[s.top[li]]} is turned up",
        )


def put_location(s: McgState, li: int, top: int, below: tuple[int, ...]) -> None:
    """Set location ``li``'s face-up card and hidden pile. ``s.top`` and ``s.below`` are shared
    between clones (see ``McgState.clone``): they are replaced, never changed in place."""
    tops = s.top.copy()
    tops[li] = top
    s.top = tops
    belows = s.below.copy()
    belows[li] = below
    s.below = belows
