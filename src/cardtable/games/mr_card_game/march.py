"""The round end, the March poll and the March on the Tower (clauses K3.2, K14).

Whenever the turn order comes back to the Certificate holder (so after every full round, never
before the first), every player still in the game is asked in clockwise order, starting with the
holder, ``march`` or ``pass``. Everyone is asked, whatever their hand: whether the poll happens never
depends on a hidden card. If all pass, the next round begins. The first to march is the announcer
and everyone marches:

1. every buff on the table turns off;
2. non-combat phases, from the announcer's left clockwise, the announcer last (``done`` ends each);
3. combat phases in the same order: step 1 and a maneuver against the Sorceress, and each total is
   announced (``end-combat`` without a maneuver announces the damage alone);
4. the winner: the highest total among those reaching their own threshold (``march-winner``); the
   threshold is the Sorceress's power minus the reductions that player made (clarification 8).
   Ties follow ``march-tie``.

If nobody wins, an announcer who did not reach their threshold is out of the game (K14.7; other
marchers are not, A14). The players still in then finish the March "turn" in March order as at the
end of a turn (played cards discarded, escrow to the Heap, voluntary discards, draw to six), one map
update follows, and the next round begins with the Certificate holder (who passes it clockwise if
they are out) (interpretation A13). An eliminated player's cards stay where they are (A25).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardtable.engine import Action
from cardtable.games.mr_card_game import combat, flow, mapupdate, modifiers, said
from cardtable.games.mr_card_game.codes import (
    D_OVER,
    M_CLEANUP,
    M_MARCH,
    M_TURN,
    ST_COMBAT,
    ST_NONCOMBAT,
    ST_OVER,
    ST_POLL,
)

if TYPE_CHECKING:
    from cardtable.games.mr_card_game.state import McgState


def active_seats(s: McgState, start: int) -> list[int]:
    """The seats still in the game, clockwise from ``start`` (included if it is in)."""
    n = s.game.players
    out = s.out
    if not out:
        return [(start + i) % n for i in range(n)]
    return [(start + i) % n for i in range(n) if not out >> ((start + i) % n) & 1]


def next_active(s: McgState, seat: int) -> int:
    """The next seat clockwise after ``seat`` that is still in the game (someone is)."""
    n = s.game.players
    out = s.out
    for i in range(1, n + 1):
        nxt = (seat + i) % n
        if not out >> nxt & 1:
            return nxt
    raise AssertionError("every seat is out of the game")


def finish(s: McgState, reason: str, winners: tuple[int, ...] = ()) -> None:
    s.is_over = True
    s.current_player = None
    s.phase = D_OVER
    s.step = ST_OVER
    s.reason = reason
    s.winners = winners
    if s.log is not None:
        g = s.game
        if reason == "king-freed":
            s.emit("over", f"{g.seat_name(winners[0])} frees King Ralph and wins the ascension!")
        elif winners:
            names = " and ".join(g.seat_name(w) for w in winners)
            one = "s" if len(winners) == 1 else ""
            s.emit("over", f"{names} defeat{one} the {sorceress_name(s)} and win{one}!")
        elif reason == "all-eliminated":
            s.emit("over", "every adventurer is out of the game: nobody wins")
        else:
            s.emit("over", f"the turn limit ({g.turn_limit} rounds) is reached: the game stops undecided")


def after_cleanup(s: McgState) -> None:
    """The end of a turn (or of one marcher's cleanup) is done: what comes next."""
    if s.mode == M_TURN:
        mapupdate.update(s)
        nxt = next_active(s, s.active)
        if nxt == s.cert:
            g = s.game
            if g.ascension:
                _next_round(s)  # O3.1: no collective March in ascension
            elif g.quests_first and s.quests:
                # B2.8: no March may be announced while the quest boss pile holds a boss.
                if s.log is not None:
                    s.tell1("poll", said.said_poll_quests, s.round)
                _next_round(s)
            else:
                _begin_poll(s)
        else:
            s.turn += 1
            flow.prepare_turn(s, nxt)
        return
    assert s.mode == M_CLEANUP
    s.midx += 1
    if s.midx < len(s.morder):
        flow.start_end_of_turn(s, s.morder[s.midx])
        return
    mapupdate.update(s)
    _next_round(s)


def _begin_poll(s: McgState) -> None:
    """K14.1: the round is over; poll every player still in, from the Certificate holder."""
    s.poll = active_seats(s, s.cert)
    s.midx = 0
    s.step = ST_POLL
    if s.log is not None:
        s.tell1("poll", said.said_poll, s.round)


def _next_round(s: McgState) -> None:
    s.round += 1
    s.mode = M_TURN
    if s.round > s.game.turn_limit:
        finish(s, "turn-limit")
        return
    s.turn += 1
    flow.prepare_turn(s, s.cert)


def legal_poll(s: McgState) -> list[Action]:
    g = s.game
    return [g.MARCH, g.PASS]


def do_pass(s: McgState, action: Action) -> None:
    if s.log is not None:
        s.tell1("poll", said.said_passes, s.poll[s.midx])
    s.midx += 1
    if s.midx >= len(s.poll):
        _next_round(s)
    flow.advance(s)


def do_march(s: McgState, action: Action) -> None:
    """K14.2-K14.3: the announcer; every buff off; the non-combat phases begin."""
    g = s.game
    announcer = s.poll[s.midx]
    s.announcer = announcer
    s.turn += 1
    s.mode = M_MARCH
    if s.buffs:
        s.buffs = 0
        for p in range(g.players):
            modifiers.refresh(s, p)
    s.used = 0
    s.morder = active_seats(s, announcer + 1)
    s.mtotal = [-1] * g.players
    s.mthresh = [0] * g.players
    s.midx = 0
    s.active = announcer
    if s.log is not None:
        s.emit(
            "march",
            f"{g.seat_name(announcer)} announces a March on the Tower! Every buff turns off; "
            f"order: {', '.join(g.seat_name(p) for p in s.morder)}",
        )
    _begin_phase(s, ST_NONCOMBAT)
    flow.advance(s)


def _begin_phase(s: McgState, step: int) -> None:
    s.actor = s.morder[s.midx]
    s.mojo = 0
    flow.reset_combat(s)
    s.step = step
    if s.log is not None:
        s.tell2("march", said.said_march_phase, s.actor, step == ST_NONCOMBAT)


def noncombat_done(s: McgState) -> None:
    """K14.4: a marcher ends their non-combat phase; after the announcer, the combat phases."""
    flow.end_phase(s)
    s.midx += 1
    if s.midx >= len(s.morder):
        s.midx = 0
        _begin_phase(s, ST_COMBAT)
    else:
        _begin_phase(s, ST_NONCOMBAT)
    flow.advance(s)


def sorceress_card(s: McgState) -> int:
    """The Sorceress of a standard game: the foil on the Tower, or the standard card."""
    return s.tower if s.tower >= 0 else s.game.cards.sorceress


def sorceress_name(s: McgState) -> str:
    c = s.game.cards
    return c.mname[s.tower] if s.tower >= 0 else c.sorceress_name


def threshold(s: McgState) -> int:
    """What the acting marcher needs: the Sorceress's power, changed only by their own effects."""
    g = s.game
    element = g.cards.element[sorceress_card(s)]
    return g.sorceress_power + s.mods[s.actor][modifiers.MPOW + element] - s.red


def combat_done(s: McgState) -> None:
    """K14.5: a marcher's total is announced; after the last one, the March is decided."""
    g = s.game
    p = s.actor
    total = combat.score(s, g.cards.element[sorceress_card(s)])
    need = threshold(s)
    mtotal = s.mtotal.copy()  # shared between clones: replace, never change in place
    mtotal[p] = total
    s.mtotal = mtotal
    mthresh = s.mthresh.copy()
    mthresh[p] = need
    s.mthresh = mthresh
    if s.log is not None:
        s.tell3("march", said.said_announce, p, total, need)
    flow.end_phase(s)
    s.midx += 1
    if s.midx < len(s.morder):
        _begin_phase(s, ST_COMBAT)
        flow.advance(s)
        return
    _decide(s)
    if not s.is_over:
        flow.advance(s)


def qualifies(s: McgState, p: int) -> bool:
    return s.mtotal[p] >= s.mthresh[p] or s.mthresh[p] <= 0


def march_winners(s: McgState) -> tuple[int, ...]:
    """K14.6 with the options ``march-winner`` and ``march-tie``."""
    g = s.game
    order = s.morder
    qual = [p for p in order if qualifies(s, p)]
    if not qual:
        return ()
    if g.top_scorer:
        top = max(s.mtotal[p] for p in order)
        cands = [p for p in qual if s.mtotal[p] == top]
    else:
        best = max(s.mtotal[p] for p in qual)
        cands = [p for p in qual if s.mtotal[p] == best]
    if len(cands) <= 1 or g.tie == "shared":
        return tuple(sorted(cands))
    if g.tie == "announcer" and s.announcer in cands:
        return (s.announcer,)
    return (cands[0],)  # first in combat order (the announcer is last)


def _decide(s: McgState) -> None:
    g = s.game
    winners = march_winners(s)
    if winners:
        finish(s, "sorceress-defeated", winners)
        return
    a = s.announcer
    if not qualifies(s, a):
        s.out |= 1 << a
        s.elim = [*s.elim, a]  # shared between clones: replace, never change in place
        if s.log is not None:
            s.emit("march", f"nobody defeats the {sorceress_name(s)}: {g.seat_name(a)}, who announced, is out")
    elif s.log is not None:
        s.emit("march", f"nobody defeats the {sorceress_name(s)}")
    left = active_seats(s, 0)
    if not left:
        finish(s, "all-eliminated")
        return
    if s.out >> s.cert & 1:
        s.cert = next_active(s, s.cert)
        if s.log is not None:
            s.tell1("march", said.said_certificate, s.cert)
    s.morder = [p for p in s.morder if not s.out >> p & 1]
    s.mode = M_CLEANUP
    s.midx = 0
    flow.start_end_of_turn(s, s.morder[0])
