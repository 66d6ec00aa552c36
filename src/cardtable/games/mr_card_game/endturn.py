"""The end of a turn, drawing and rollover (clauses K8, K9 and K13).

End of turn (K8): the played stat cards go to the discard pile and escrow to the Heap in the order it
was set aside (:func:`clean_up`); the player may discard any cards (``discard stat=..``, ``done``);
then draws up to six, or discards down to six when holding more.

Rollover (K9): whenever a player must draw from an empty deck, their buffs turn off, they may make
one upgrade or exchange (``upgrade from=mus1 to=mus2`` or ``to=mys1``; ``no-upgrade``), and the
discard pile is shuffled into a new deck; drawing then goes on. With an empty discard pile too the
draw stops short. The same upgrade decision serves the ``upgrade_stat`` effect (without a shuffle).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardtable.engine import Action
from cardtable.engine.events import only
from cardtable.games.mr_card_game import flow, modifiers, said
from cardtable.games.mr_card_game.cards import K_BOSS, S_BUFF, STAT_CODE
from cardtable.games.mr_card_game.codes import Q_DRAW_TO
from cardtable.games.mr_card_game.shuffle import draw_list

if TYPE_CHECKING:
    from cardtable.games.mr_card_game.state import McgState


def clean_up(s: McgState, p: int) -> None:
    """K8.1, K8.2 for player ``p``."""
    played = s.played[p]
    log = s.log is not None
    if played:
        if log:
            s.tell2("discard", said.said_discard_played, p, tuple(played))
        s.disc[p].extend(played)
        played.clear()
        s.marks[p] += 1  # the rl observer's change mark (McgState.marks)
    escrow = s.escrow[p]
    if escrow:
        s.heap = s.heap + escrow
        s.escrow[p] = ()
        s.marks[p] += 1  # the rl observer's change mark (McgState.marks)
        if log:
            s.tell2("heap", said.said_escrow, p, escrow)


def take_kind(s: McgState, zone: list[int], kind: int) -> int:
    """Remove and return the last card of ``kind`` in ``zone`` (the caller knows there is one)."""
    skind = s.game.cards.skind
    for i in range(len(zone) - 1, -1, -1):
        if skind[zone[i]] == kind:
            return zone.pop(i)
    raise AssertionError(f"no card of kind {kind} in the zone")


def kind_mask(s: McgState, zone: list[int]) -> int:
    """The stat kinds ``zone`` holds, as a bit mask (bit k: kind code k); ``mask >> 4 * t & 15`` are
    the values of type t it holds (the index of the game's ``..._BY`` action tables)."""
    bit = s.game.kind_bit
    mask = 0
    for card in zone:
        mask |= bit[card]
    return mask


def discard_actions(s: McgState) -> list[Action]:
    """``discard stat=K`` for each kind in the acting player's hand, in kind order."""
    by = s.game.DISCARD_BY
    mask = kind_mask(s, s.hand[s.actor])
    return [*by[0][mask & 15], *by[1][mask >> 4 & 15], *by[2][mask >> 8]]


def legal_discard(s: McgState) -> list[Action]:
    out = discard_actions(s)
    out.append(s.game.DONE)
    return out


def legal_limit(s: McgState) -> list[Action]:
    return discard_actions(s)


def do_discard(s: McgState, action: Action) -> None:
    """``discard stat=K``: a voluntary discard (K8.3) or one down to six (K8.4)."""
    p = s.actor
    kind = STAT_CODE[action.args[0]]
    s.disc[p].append(take_kind(s, s.hand[p], kind))
    s.marks[p] += 1  # the rl observer's change mark (McgState.marks)
    if s.log is not None:
        s.tell2("discard", said.said_discard, p, kind)
    flow.advance(s)


# -- drawing and rollover ----------------------------------------------------------------------------


def _emit_draws(s: McgState, p: int, drawn: list[int]) -> None:
    if drawn and s.log is not None:
        s.tell_list1("draw", said.said_draws, p, drawn, only(p))


def draw_from_queue(s: McgState) -> bool:
    """Resolve the draw at the head of the queue (``Q_DRAW_TO``: up to a hand size; ``DRAW``: a
    number of cards). A rollover interrupts it: the rest stays queued behind the upgrade decision.
    Never opens a decision itself (returns False)."""
    q = s.queue
    op, n, b, src, x = q[0]
    p = s.actor
    hand = s.hand[p]
    deck = s.deck[p]
    start = len(hand)  # the cards drawn now are hand[start:]
    need = n - start if op == Q_DRAW_TO else n
    if need > 0 and deck:
        # One card at a time, as long as the deck lasts.
        draw_list(hand, deck, min(need, len(deck)), s.rng)
        s.marks[p] += 1  # the rl observer's change mark (McgState.marks)
        need = n - len(hand) if op == Q_DRAW_TO else n - (len(hand) - start)
    if s.log is not None:
        _emit_draws(s, p, hand[start:])
    if need <= 0:
        q.pop(0)
        return False
    # The deck is empty and cards are still to be drawn.
    if op != Q_DRAW_TO:
        q[0] = (op, need, b, src, x)
    if not s.disc[p]:
        # K9.5 (interpretation): nothing left anywhere to draw; the draw stops short. It is still a
        # rollover (K9.1: a draw from an empty deck): the buffs turn off and a negative effect may be
        # removed (O2.2); there is no card to upgrade and nothing to shuffle.
        q.pop(0)
        start_rollover(s, p, shuffle=False)
        if s.log is not None:
            s.emit("draw", f"{s.game.seat_name(p)} has no card left to draw")
        return False
    start_rollover(s, p)  # the flow opens the upgrade decision; the rest of the draw waits
    return False


def deactivate_buffs(s: McgState, p: int) -> bool:
    """Turn off ``p``'s active buffs; True if any was on."""
    c = s.game.cards
    mask = 0
    for card in s.skills[p]:
        if c.stype[card] == S_BUFF:
            mask |= 1 << card
    if s.buffs & mask:
        s.buffs &= ~mask
        modifiers.refresh(s, p)
        return True
    return False


def start_rollover(s: McgState, p: int, shuffle: bool = True) -> None:
    """K9.1-K9.2: ``p`` must draw from an empty deck: buffs off, then the upgrade decision (none when
    ``shuffle`` is False: the discard pile is empty too, so there is nothing to upgrade or shuffle)."""
    was_on = deactivate_buffs(s, p)
    if shuffle:
        s.upg_left = 1 + max(0, s.mods[p][modifiers.UPGRADES])
        s.upg_roll = True
    # O2.2: at a rollover the player may remove one negative effect (asked first).
    s.cure_left = any(s.game.cards.kind[x] == K_BOSS for x in s.lasting[p])
    if s.log is not None:
        s.tell2("rollover", said.said_rollover, p, bool(was_on))


def upgrade_options(s: McgState, p: int) -> list[tuple[int, int]]:
    """K9.3: (from kind, to kind) pairs: a card of the discard pile for one of the same type one value
    higher (never above 4, clarification 6) or of another type and the same value, from a pile that
    is not empty."""
    piles = s.piles
    present = kind_mask(s, s.disc[p])
    out = []
    for k in range(12):
        if not present >> k & 1:
            continue
        t, v = divmod(k, 4)
        if v < 3 and piles[k + 1]:
            out.append((k, k + 1))
        for t2 in range(3):
            if t2 != t and piles[t2 * 4 + v]:
                out.append((k, t2 * 4 + v))
    return out


def legal_upgrade(s: McgState) -> list[Action]:
    g = s.game
    table = g.UPGRADE
    out = []
    for k, j in upgrade_options(s, s.actor):
        a = table[k][j]
        assert a is not None
        out.append(a)
    out.append(g.NO_UPGRADE)
    return out


def do_upgrade(s: McgState, action: Action) -> None:
    p = s.actor
    k = STAT_CODE[action.args[0]]
    j = STAT_CODE[action.args[1]]
    old = take_kind(s, s.disc[p], k)
    s.piles[k] = (*s.piles[k], old)
    new_pile = s.piles[j]
    s.disc[p].append(new_pile[-1])
    s.piles[j] = new_pile[:-1]
    s.marks[p] += 1  # the rl observer's change mark (McgState.marks)
    if s.log is not None:
        s.tell3("upgrade", said.said_upgrade, p, k, j)
    s.upg_left -= 1
    if s.upg_left <= 0:
        _finish_upgrades(s)
    flow.advance(s)


def do_no_upgrade(s: McgState, action: Action) -> None:
    s.upg_left = 0
    _finish_upgrades(s)
    flow.advance(s)


def _finish_upgrades(s: McgState) -> None:
    """K9.4: after the rollover's upgrades, the discard pile becomes the new, shuffled deck."""
    s.upg_left = 0
    if not s.upg_roll:
        return
    s.upg_roll = False
    p = s.actor
    deck = s.deck[p]
    deck.extend(s.disc[p])  # unordered, kept sorted: every draw takes a random card (see .shuffle)
    deck.sort()
    s.disc[p].clear()
    s.marks[p] += 1  # the rl observer's change mark (McgState.marks)
    if s.log is not None:
        s.tell2("rollover", said.said_reshuffle, p, len(deck))
