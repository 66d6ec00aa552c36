"""The decision machine: runs the steps of a turn in order and stops wherever someone must decide.

A turn (K3.3) is: the non-combat phase (``ST_NONCOMBAT``), an optional combat (``ST_COMBAT``,
``ST_MANEUVER``, ``ST_TARGET``), the end of the turn (``ST_DISCARD``, ``ST_DRAW``, ``ST_LIMIT``) and
the map update with the round end (``ST_END``). The March (K14) reuses the same steps for each
marcher in turn (``mode`` says which). Sub-decisions interrupt any step: choosing X for a Spell
Attack ability, an effect's choice, and an upgrade at rollover; when they are settled the step
resumes.

Every decision with at least one option is offered, even a single one (a choice that has no option
is skipped: an effect with no valid target is ignored, clarification 2). So whether a decision
appears depends only on public information, never on a hidden card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from cardtable.engine import Action
from cardtable.games.mr_card_game import ascension, combat, endturn, march, resolve, said
from cardtable.games.mr_card_game.codes import (
    ASC_PERM,
    D_BLOCK,
    D_CLASS,
    D_COMBAT,
    D_CURE,
    D_DISCARD,
    D_LIMIT,
    D_MANEUVER,
    D_NONCOMBAT,
    D_PERM,
    D_POLL,
    D_SIDE,
    D_SPELLX,
    D_TARGET,
    D_UNEQUIP,
    D_UPGRADE,
    HAND_SIZE,
    M_MARCH,
    M_TURN,
    NO_ELEMENT_BONUS,
    Q_DRAW_TO,
    ST_ASCEND,
    ST_BLOCK,
    ST_COMBAT,
    ST_DISCARD,
    ST_DRAW,
    ST_END,
    ST_LIMIT,
    ST_MANEUVER,
    ST_NONCOMBAT,
    ST_POLL,
    ST_SIDE,
    ST_TARGET,
)

if TYPE_CHECKING:
    from cardtable.games.mr_card_game.state import McgState


_DECISION_AT: Final[tuple[int, ...]] = tuple(
    {
        ST_NONCOMBAT: D_NONCOMBAT,
        ST_COMBAT: D_COMBAT,
        ST_MANEUVER: D_MANEUVER,
        ST_TARGET: D_TARGET,
        ST_DISCARD: D_DISCARD,
        ST_BLOCK: D_BLOCK,
    }.get(step, -1)
    for step in range(ST_SIDE + 1)
)
"""The decision the acting player takes at each step that always opens one (-1: a step that runs
rules first, see :func:`advance`)."""


def reset_combat(s: McgState) -> None:
    """Clear the per-combat scratch values (before each combat phase)."""
    s.man = -1
    s.psum = 0
    s.plast = 3
    s.dmg = 0
    s.dmg_vs = NO_ELEMENT_BONUS
    s.cb = (0, 0, 0, 0)
    s.red = 0


def end_phase(s: McgState) -> None:
    """K5.3: the mojo pool empties at the end of every phase."""
    s.mojo = 0


def start_turn(s: McgState, seat: int) -> None:
    """K3.3: ``seat`` begins a turn with its non-combat phase; run the flow to its first decision."""
    prepare_turn(s, seat)
    advance(s)


def prepare_turn(s: McgState, seat: int) -> None:
    """Set up ``seat``'s turn (the caller runs the flow)."""
    s.active = s.actor = seat
    s.mode = M_TURN
    s.used = 0
    s.mojo = 0
    reset_combat(s)
    s.step = ST_NONCOMBAT
    if s.log is not None:
        s.tell3("turn", said.said_turn, s.round, s.turn, seat)


def advance(s: McgState) -> None:
    """Run the flow until a decision is open (``phase``, ``current_player``) or the game is over."""
    while True:
        if s.is_over:
            return
        if s.pending >= 0:
            s.phase = D_SPELLX
            s.current_player = s.actor
            return
        if s.force >= 0:
            s.phase = D_UNEQUIP
            s.current_player = s.actor
            return
        if s.cure_left:
            s.phase = D_CURE
            s.current_player = s.actor
            return
        if s.upg_left > 0:
            s.phase = D_UPGRADE
            s.current_player = s.actor
            return
        if s.queue:
            if resolve.head(s):
                return
            continue
        step = s.step
        phase = _DECISION_AT[step]
        if phase >= 0:
            s.phase = phase
        elif step == ST_DRAW:
            # K8.4: draw up to six, queued so that a rollover can interrupt it (the queue is empty
            # here, so the draw is its head).
            s.queue.append((Q_DRAW_TO, HAND_SIZE, 0, -1, 0))
            s.step = ST_LIMIT
            endturn.draw_from_queue(s)
            continue
        elif step == ST_LIMIT:
            if len(s.hand[s.actor]) > HAND_SIZE:
                s.phase = D_LIMIT
            else:
                s.step = ST_END
                continue
        elif step == ST_END:
            march.after_cleanup(s)  # sets the next step (a new turn, the poll, the next cleanup) or ends
            if s.is_over:
                return
            continue
        elif step == ST_POLL:
            s.phase = D_POLL
            s.current_player = s.poll[s.midx]
            return
        elif step == ST_ASCEND:
            if ascension.next_stage(s):
                continue
            s.phase = D_PERM if s.asc_stage == ASC_PERM else D_CLASS
        elif step == ST_SIDE:
            s.phase = D_SIDE
            s.current_player = s.poll[s.midx]
            return
        else:  # pragma: no cover - every step is handled above
            raise AssertionError(f"unknown step {step}")
        s.current_player = s.actor
        return


def do_done(s: McgState, action: Action) -> None:
    """``done``: finish playing maneuver cards, the voluntary discards, or a March non-combat phase."""
    phase = s.phase
    if phase == D_MANEUVER:
        combat.maneuver_done(s)
    elif phase == D_DISCARD:
        s.step = ST_DRAW
        advance(s)
    else:
        assert phase == D_NONCOMBAT and s.mode == M_MARCH
        march.noncombat_done(s)


def start_end_of_turn(s: McgState, seat: int) -> None:
    """K8.1, K8.2: the played stat cards go to the discard pile and escrow to the Heap, in order;
    then the voluntary discards (K8.3) for ``seat``."""
    endturn.clean_up(s, seat)
    s.actor = seat
    s.step = ST_DISCARD
