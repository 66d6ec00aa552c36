"""Scenario helpers for Doctor Strange tests: build positions by moving cards, rig dice, play by name.

Tests put a state into a rulebook situation by moving cards between zones (never creating or
dropping a card, so card conservation still holds) and then play it through the public protocol.
"""

from __future__ import annotations

from typing import Any

import pytest

import cardtable
from cardtable.engine import IllegalAction, Rng
from cardtable.games.doctor_strange import state as S
from cardtable.games.doctor_strange.game import DoctorStrange
from cardtable.games.doctor_strange.state import DSState
from tests.support import typed
from tests.support.typed import determinize as determinize

EVIL, GOOD = 0, 1


def game(**options: Any) -> DoctorStrange:
    g = cardtable.load("doctor-strange", **options)
    assert isinstance(g, DoctorStrange)
    return g


def deal(g: DoctorStrange, seed: int = 0, *, log: bool = True) -> DSState:
    """``g.new(seed, log=log)``, typed as the game's own state."""
    return typed.deal(g, DSState, seed, log=log)


def cid(name: str, g: DoctorStrange | None = None) -> int:
    """The id of the card called ``name``."""
    return (g or game()).cards.id_of(name)


def take_out(st: DSState, card: int) -> None:
    """Remove ``card`` from whichever hidden or pile zone holds it (deck, hands, piles)."""
    for zone in (st.stack, st.pool, st.hands[0], st.hands[1], st.discard, st.killed, st.exiled):
        if card in zone:
            zone.remove(card)
            return
    raise AssertionError(f"card {card} is in play or pending; move it explicitly")


def scenario(
    hands: dict[int, list[str]] | None = None,
    play: dict[int, list[str]] | None = None,
    seed: int = 0,
    phase: int = S.SUMMON,
    active: int = EVIL,
    run: bool = True,
    lone_passes: bool = True,
    **options: Any,
) -> DSState:
    """A fresh game at ``phase`` of ``active``'s turn 1 (draws done) with exactly the given hands
    (other hand cards go back to the deck) and extra characters in play (``play[seat]``).

    The state then runs to its next decision. With ``lone_passes`` (the default) decisions whose
    only legal action is ``pass`` are then passed, as bots do, so the scenario stops where someone
    has a real choice; ``lone_passes=False`` stops at the first decision the game offers (windows
    open whenever public information allows a play, DS13.2). ``run=False``: the state is left at
    ``phase`` without running; call :func:`goto` to start it."""
    g = game(**options)
    st = deal(g, seed)
    for seat in (0, 1):
        st.pool.extend(st.hands[seat])
        st.hands[seat].clear()
    for seat, names in (hands or {}).items():
        for n in names:
            c = g.cards.id_of(n)
            take_out(st, c)
            st.hands[seat].append(c)
    for seat, names in (play or {}).items():
        for n in names:
            c = g.cards.id_of(n)
            take_out(st, c)
            st._enter(c, seat)
    if run:
        goto(st, phase, active, lone_passes)
    else:
        st.phase, st.active = phase, active
    return st


def goto(st: DSState, phase: int, active: int | None = None, lone_passes: bool = True) -> None:
    """Put the state at ``phase`` of ``active``'s (default: the active player's) turn and let it run
    to the next decision (then pass lone passes, see :func:`scenario`)."""
    if active is not None:
        st.active = active
    st.phase = phase
    st._legal = None
    st._run()
    if lone_passes:
        pass_lone(st)


def pass_lone(st: DSState) -> int:
    """Apply ``pass`` while it is the only legal action (as bots may); returns how many."""
    n = 0
    while not st.is_over and [a.text for a in st.legal_actions()] == ["pass"]:
        st.apply("pass")
        n += 1
    return n


def attach(st: DSState, card_name: str, host_name: str) -> None:
    """Attach a card directly (scenario setup, bypassing the Summon phase)."""
    g = st.game
    c, h = g.cards.id_of(card_name), g.cards.id_of(host_name)
    take_out(st, c)
    st.pending = c
    st._attach(st.side[g.SLOT[h]], h)
    st._legal = None
    st._run()
    pass_lone(st)


def act(st: DSState, kind: str, name: str | None = None, lone_passes: bool = True) -> None:
    """Apply ``kind card=<id of name>`` (or ``pass``) through the protocol, then pass lone passes
    (unless ``lone_passes`` is false)."""
    if name is None:
        st.apply(kind)
    else:
        st.apply(f"{kind} card={st.game.cards.id_of(name)}")
    if lone_passes:
        pass_lone(st)


def texts(st: DSState) -> list[str]:
    return [a.text for a in st.legal_actions()]


def legal_cards(st: DSState, kind: str) -> set[str]:
    """Names of the cards the legal actions of ``kind`` refer to."""
    g = st.game
    return {g.NAMES[int(a.args[0])] for a in st.legal_actions() if a.kind == kind}


def rig(st: DSState, attack_roll: int, defense_roll: int) -> None:
    """Set the dice of the attack being resolved (the state is in its power exchange)."""
    assert st.phase == S.EXCHANGE, S.PHASE_NAMES[st.phase]
    st.ra, st.rd = attack_roll, defense_roll
    st._legal = None
    st._run()
    pass_lone(st)


def where(st: DSState, name: str) -> str:
    """The zone a card is in: 'deck', 'hand0', 'hand1', 'discard', 'killed', 'exiled', 'play', 'attached'."""
    g = st.game
    c = g.cards.id_of(name)
    for label, zone in (
        ("deck", st.stack + st.pool),
        ("hand0", st.hands[0]),
        ("hand1", st.hands[1]),
        ("discard", st.discard),
        ("killed", st.killed),
        ("exiled", st.exiled),
        ("play", st.chars),
    ):
        if c in zone:
            return label
    if st.att_on[c] >= 0:
        return "attached"
    return "pending" if st.pending == c else "nowhere"


def side_of(st: DSState, name: str) -> int:
    g = st.game
    return st.side[g.SLOT[g.cards.id_of(name)]]


def all_cards(st: DSState) -> list[int]:
    """Every card id in every zone (for conservation checks)."""
    out = st.stack + st.pool + st.hands[0] + st.hands[1] + st.discard + st.killed + st.exiled + st.chars
    out += [c for c, h in enumerate(st.att_on) if h >= 0]
    if st.pending >= 0:
        out.append(st.pending)
    return sorted(out)


class Dice(Rng):
    """A generator whose D12 rolls are scripted (shuffles still use the seeded stream)."""

    __slots__ = ("rolls",)

    def __init__(self, rolls: list[int], seed: int = 0) -> None:
        super().__init__(seed)
        self.rolls = list(rolls)

    def roll(self, sides: int) -> int:
        # Scripted rolls first; afterwards the ordinary seeded stream (later turns of the scenario).
        return self.rolls.pop(0) if self.rolls else super().roll(sides)


def dice(st: DSState, *rolls: int) -> Dice:
    """Script the next D12 rolls of ``st``."""
    d = Dice(list(rolls))
    st.rng = d
    return d


def refusal(st: DSState, text: str) -> str:
    """The message of the :class:`IllegalAction` that ``text`` raises, checking the refusal changed nothing."""
    snap = st.snapshot()
    with pytest.raises(IllegalAction) as err:
        st.apply(text)
    assert st.snapshot() == snap
    return str(err.value)
