"""What a seat sees: the table as a person in that seat sees it (DESIGN.md, "Views are for people").

:func:`view` builds a seat's view; :func:`prompt` says what is being decided now, by whom and why;
:func:`needs` says what a player still lacks for her Necronomicon victory; :func:`result_text` says how
the game ended. Everything here reads public facts and, for the seat itself, its own hand: whatever a
view shows another seat's hand contributes only through its size and the cards publicly known to be
in it. Engine bookkeeping (phase codes, the card being resolved, the seat taking a hit, counters) is
turned into words here and stays in ``snapshot()`` otherwise.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from cardtable.engine import JSON
from cardtable.engine.memo import per_game
from cardtable.games.army_of_darkness.cards import (
    DISCARD_TABLED,
    FROM_DISCARD,
    NECRONOMICON,
    TAKE_TABLED,
    kinds_text,
)
from cardtable.games.army_of_darkness.codes import (
    ARMED,
    GOOD,
    P_DEST,
    P_FREE,
    P_HIT,
    P_PICK,
    P_PLACE,
    P_PLAY,
    P_SLAY,
    P_TARGET,
    REDUCED,
    SIDE_NAMES,
)

if TYPE_CHECKING:
    from cardtable.games.army_of_darkness.game import ArmyOfDarkness
    from cardtable.games.army_of_darkness.state import AodState

VIEW_KEYS = frozenset(
    {
        "prompt",
        "turn_of",
        "step",
        "players",
        "hand",
        "deck_size",
        "discard",
        "removed",
        "being_played",
        "returning",
        "result",
    }
)
"""The top-level keys :func:`view` adds to the engine's: see :func:`view` for their meaning."""

ALLIES_TO_WIN: Final = 3
NAMES_TO_WIN: Final = 5


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def needs(st: AodState, s: int) -> str:
    """What seat ``s`` still needs for the Necronomicon victory of her current side (AD7), in words:
    ``"Good: needs the Necronomicon tabled, 1 more ally, no monsters (has 2)"``."""
    g = st.game
    types = g.TYPE
    parts: list[str] = []
    if NECRONOMICON not in map(types.__getitem__, st.item[s]):
        parts.append("the Necronomicon tabled")
    if st.side[s] == GOOD:
        more = ALLIES_TO_WIN - len(st.ally[s])
        if more > 0:
            parts.append(_plural(more, "more ally", "more allies"))
        if st.mon[s]:
            parts.append(f"no monsters (has {len(st.mon[s])})")
    else:
        names = g.NAME_ID
        more = NAMES_TO_WIN - len(set(map(names.__getitem__, st.mon[s])))
        if more > 0:
            parts.append(_plural(more, "more monster name", "more monster names"))
        if st.ally[s]:
            parts.append(f"no allies (has {len(st.ally[s])})")
    if not st.hands[s]:
        parts.append("a hand card")
    side = "Good" if st.side[s] == GOOD else "Evil"
    if not parts:
        return f"{side}: has all they need; wins at their step 5 if it still holds"
    return f"{side}: needs " + ", ".join(parts)


def switching(st: AodState, s: int) -> str | None:
    """Seat ``s``'s way towards switching sides for want of hand cards (AD8.2, I8), or None."""
    r = st.reduced[s]
    if r == REDUCED:
        return "switches sides after their next turn unless they get a card"
    if r == ARMED:
        return "switches sides at the end of this turn unless they get a card"
    return None


def result_text(st: AodState) -> str:
    """How the game ended, in words (only once it is over)."""
    w = st.winner
    if w < 0:
        return f"stopped at the turn limit ({_plural(st.game.turn_limit, 'turn', 'turns')}): nobody wins"
    if st.side[w] == GOOD:
        how = f"{_plural(len(st.ally[w]), 'ally', 'allies')} and no monsters"
    else:
        names = st.game.NAME_ID
        how = f"monsters of {len({names[c] for c in st.mon[w]})} different names and no allies"
    return f"{st.who(w)} wins with the Necronomicon, {how} in front of them (turn {st.turn})"


def step_text(st: AodState) -> str:
    """Where the turn stands, in the rulebook's steps (public)."""
    ph = st.phase
    if st.is_over:
        return "the game is over"
    if ph == P_PLAY:
        return f"step 1, play cards ({st.plays} of 2 played)"
    if ph == P_PLACE:
        return f"step 1, placing {st.game.cards.names[st.pending]}"
    if ph in (P_PICK, P_TARGET, P_DEST):
        return f"step 1, resolving {st.game.cards.names[st.pending]}"
    if ph == P_SLAY:
        return "step 2, attack"
    if ph == P_FREE:
        return "step 3, draw or attack a character"
    if st.hit_step == 3:
        return f"step 3, {st.game.seat_name(st.victim)} takes a hit"
    return "step 4, take a hit"


def _hit_what(st: AodState, v: int) -> str:
    """What the seat taking a hit must discard: her tabled support if she has any, else a hand card."""
    if st.item[v] or (st.ally[v] if st.side[v] == GOOD else st.mon[v]):
        return "a tabled item or ally" if st.side[v] == GOOD else "a tabled item or monster"
    return "a hand card"


def _decision(st: AodState, me: bool) -> str:
    """The open decision, for the deciding seat (``me``) or as the others read it (after her name)."""
    g = st.game
    cs = g.cards
    ph = st.phase
    a = st.active
    if ph == P_PLAY:
        if st.plays:
            return "play a second card, or end step 1 (done)" if me else "may play a second card (step 1)"
        if not me:
            return "is playing cards (step 1: one if they can, then a second if they wish)"
        if st.can_play():
            return "play a card (step 1: one if you can, then a second if you wish)"
        return "none of your cards can be played now: end step 1 (done)"
    if ph == P_PLACE:
        name = cs.names[st.pending]
        return (
            f"choose the player in front of whom {name} goes (step 1)"
            if me
            else f"is choosing the player in front of whom {name} goes (step 1)"
        )
    event = cs.names[st.pending]
    eff = cs.effects[st.pending]
    if ph == P_DEST:
        name = cs.names[st.chosen]
        what = f"the player in front of whom {name} comes back ({event})"
    elif ph == P_TARGET:
        assert eff is not None
        turn = "to the other side" if eff.side == "switch" else f"{eff.side}"
        what = f"a character to turn {turn} ({event})"
    elif ph == P_PICK:
        assert eff is not None
        kinds = kinds_text(eff.kinds, cs.necro_ok[st.pending])
        if eff.kind == DISCARD_TABLED:
            what = f"{kinds} to discard ({event})"
        elif eff.kind == TAKE_TABLED:
            what = f"{kinds} to take ({event})"
        else:
            assert eff.kind == FROM_DISCARD
            what = f"{kinds} from the discard pile ({event})"
    elif ph == P_SLAY:
        foe = "a monster" if st.side[a] == GOOD else "an ally"
        three = ", or three monsters of one name" if any(x.kind == "slay-three" for x in st.legal_actions()) else ""
        return (
            f"attack: discard {foe} in front of you{three} (step 2)"
            if me
            else f"attacks: they discard {foe} in front of them{three} (step 2)"
        )
    elif ph == P_FREE:
        legal = {x.kind for x in st.legal_actions()}
        options = [
            w for k, w in (("draw", "draw a card"), ("attack", "attack a character"), ("pass", "neither")) if k in legal
        ]
        if options == ["neither"]:
            listed = "there is nothing to draw and nobody you may attack, so pass"
        else:
            listed = ", ".join(options[:-1]) + " or " + options[-1] if len(options) > 1 else options[0]
        return (
            f"nothing opposes you: {listed} (step 3)"
            if me
            else "has nothing opposing them and chooses whether to draw or attack a character (step 3)"
        )
    else:
        assert ph == P_HIT
        v = st.victim
        lose = _hit_what(st, v)
        foes = "monsters" if st.side[v] == GOOD else "allies"
        if st.hit_step == 3:
            why = f"{g.seat_name(a)} attacked {'you' if me else 'them'}"
        else:
            why = f"{foes} are still in front of {'you' if me else 'them'}, step 4"
        return f"take a hit: discard {lose} ({why})" if me else f"takes a hit: they discard {lose} ({why})"
    return f"choose {what}" if me else f"is choosing {what}"


def prompt(st: AodState, seat: int | None) -> str:
    """One sentence: what is being decided now, by whom and why, as ``seat`` may know it."""
    if st.is_over:
        return "Game over: " + result_text(st)
    d = st.current_player
    assert d is not None
    if d == seat:
        return f"{st.game.seat_name(d)}: {_decision(st, True)}"
    return f"{st.who(d)} {_decision(st, False)}"


class _Cards:
    """Per game, what a view draws from the card data alone (built once, on first need): every card
    object as ``game.card_json`` makes it, and the cards the Rules of Kalle removed. A view hands out
    copies (:meth:`json`), never these dicts: callers may change what a view returns."""

    __slots__ = ("json", "objects", "removed")

    def __init__(self, g: ArmyOfDarkness) -> None:
        cs = g.cards
        self.objects = tuple(g.card_json(c) for c in range(len(cs)))
        self.removed = tuple(c for c in range(len(cs)) if cs.removed[c])
        objects = self.objects

        def json(card: int) -> dict[str, JSON]:
            return dict(objects[card])

        self.json: Callable[[int], dict[str, JSON]] = json


_cards = per_game(_Cards)


def _seat(st: AodState, s: int, cj: Callable[[int], dict[str, JSON]]) -> dict[str, JSON]:
    g = st.game
    cs = g.cards
    other = cs.evil_names[st.char[s]] if st.side[s] == GOOD else cs.good_names[st.char[s]]
    return {
        "seat": s,
        "character": st.character(s),
        "side": SIDE_NAMES[st.side[s]],
        "other_side": other,
        "hand_size": len(st.hands[s]),
        "known_in_hand": [cj(c) for c in sorted(st.shown.intersection(st.hands[s]))],
        "monsters": [cj(c) for c in st.mon[s]],
        "allies": [cj(c) for c in st.ally[s]],
        "items": [cj(c) for c in st.item[s]],
        "needs": needs(st, s),
        "switching": switching(st, s),
        "switches": st.switches[s],
    }


def view(st: AodState, seat: int | None) -> dict[str, JSON]:
    """The game's part of ``view(seat)`` (the engine adds game, seat, seat_names, turn,
    current_player, is_over):

    ``prompt``: :func:`prompt`; ``turn_of``: whose turn it is (a seat, None at the end); ``step``: where
    the turn stands; ``players``: per seat its character (current side's title, ``side``, the title of
    the ``other_side``), ``hand_size``, the cards ``known_in_hand`` (taken there face up), its tabled
    ``monsters``, ``allies`` and ``items`` (the Necronomicon among the items), what it ``needs`` to win,
    its way towards a side switch (``switching``) and how many ``switches`` it made; ``hand``: the
    seat's own cards (None for a spectator); ``deck_size``; the ``discard`` pile (oldest first); the
    cards the Rules of Kalle ``removed``; the card ``being_played`` (until it is resolved or placed),
    the card ``returning`` from the discard pile while its player chooses where it goes; ``result``:
    how the game ended, in words (None until then)."""
    g = st.game
    cards = _cards(g)
    cj = cards.json
    return {
        "prompt": prompt(st, seat),
        "turn_of": None if st.is_over else st.active,
        "step": step_text(st),
        "players": [_seat(st, s, cj) for s in range(g.players)],
        "hand": [cj(c) for c in sorted(st.hands[seat])] if seat is not None else None,
        "deck_size": len(st.deck),
        "discard": [cj(c) for c in st.discard],
        "removed": [cj(c) for c in cards.removed],
        "being_played": cj(st.pending) if st.pending >= 0 else None,
        "returning": cj(st.chosen) if st.chosen >= 0 else None,
        "result": result_text(st) if st.is_over else None,
    }
