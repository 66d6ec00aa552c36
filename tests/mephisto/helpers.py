"""Scenario helpers: build Mephisto positions by setting state fields on a fresh ``new()`` state.

``arrange`` puts named cards where a test wants them and every other card in the deck, so the 60
cards stay conserved; the deck's top cards can be chosen too (``deck_top[0]`` is drawn first).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import cardtable
from cardtable.games.mephisto.rules import P_PLAY, S_PLAY, MephistoState
from tests.support import typed
from tests.support.typed import determinize as determinize


def new(seed: int = 0, /, **options: Any) -> MephistoState:
    options.setdefault("players", 2)
    return typed.deal(cardtable.load("mephisto", **options), MephistoState, seed)


def _first(name: str) -> int:
    """The id of the first card called ``name`` in the shipped card set."""
    return _NAMES.index(name)


_NAMES: list[str] = list(new().game.cards.names)

# The cards the scenario tests name: the id of the first card of that name in the shipped card set (one
# table for every test module, read from the card file rather than spelled out as numbers in each).
WITCH = _first("Witch")
IMP = _first("Imp")
SKELETON = _first("Skeleton")
BAT = _first("Bat Swarm")
CULTIST = _first("Cultist")
GHOUL = _first("Ghoul")
SLIME = _first("Slime")
HELLHOUND = _first("Hellhound")
HARPY = _first("Harpy")
WRAITH = _first("Wraith")
OGRE = _first("Ogre")
TROLL = _first("Troll")
BASILISK = _first("Basilisk")
LICH = _first("Lich")
MALLET = _first("Mallet")
GREATAXE = _first("Greataxe")
DAGGER = _first("Dagger")
SHORTSWORD = _first("Shortsword")
MORNINGSTAR = _first("Morningstar")
WARHAMMER = _first("Warhammer")
SHORTBOW = _first("Shortbow")
LONGBOW = _first("Longbow")
CROSSBOW = _first("Crossbow")
DEMON = _first("Demon Sword")
PACT = _first("Dark Pact")
OFFERING = _first("Offering")
FORESIGHT = _first("Foresight")
MEND = _first("Mend")
HEX = _first("Hex")
CORRODE = _first("Corrode")
SHATTER = _first("Shatter")
MIND_ROT = _first("Mind Rot")
FURY = _first("Battle Fury")
SHARPEN = _first("Sharpen")
BRAND = _first("Hellfire Brand")
CHALICE = _first("Chalice")
CANDLE = _first("Candle")
LANTERN = _first("Lantern")
WHETSTONE = _first("Whetstone")
WARDRUM = _first("War Drum")
FLASK = _first("Acid Flask")


def cid(state: MephistoState, name: str, nth: int = 0) -> int:
    """The id of the ``nth`` card called ``name``."""
    ids = [i for i, n in enumerate(state.game.cards.names) if n == name]
    if not ids:
        raise KeyError(name)
    return ids[nth]


def arrange(
    state: MephistoState,
    *,
    seat: int = 0,
    first: int | None = None,
    hands: Mapping[int, Sequence[int]] | None = None,
    dungeon: Sequence[int] | None = None,
    inplay: Mapping[int, Sequence[int]] | None = None,
    souls: Mapping[int, Sequence[int]] | None = None,
    discard: Sequence[int] = (),
    deck_top: Sequence[int] = (),
    deck: Sequence[int] | None = None,
    favor: Sequence[int] | None = None,
) -> MephistoState:
    """Rebuild ``state`` as the start of ``seat``'s play step with the given zones (all else in the deck).

    ``dungeon`` lists six entries (card id or -1 for an empty space); by default every space is empty.
    ``deck``, when given, is the whole deck (top first) and leftover cards go to the discard pile. A
    game with face-down corner cards gets the two highest-numbered cards nobody placed there.
    """
    g = state.game
    n = g.players
    used: list[int] = []
    hands = dict(hands or {})
    inplay = dict(inplay or {})
    souls = dict(souls or {})
    dungeon = list(dungeon) if dungeon is not None else [-1] * 6
    for group in (*hands.values(), *inplay.values(), *souls.values(), dungeon, discard, deck_top, deck or ()):
        used.extend(c for c in group if c >= 0)
    assert len(used) == len(set(used)), f"a card is placed twice: {sorted(used)}"
    rest = [c for c in range(len(g.cards)) if c not in set(used)]
    # Face-down corner cards (3-4 players, corner-cards=dungeon): the two highest unused cards.
    if state.corners:
        state.corners = rest[-2:]
        rest = rest[:-2]
    state.hands = [list(hands.get(p, [])) for p in range(n)]
    state.inplay = [list(inplay.get(p, [])) for p in range(n)]
    state.souls = [list(souls.get(p, [])) for p in range(n)]
    state.soul_pts = [sum(g.cards.souls[m] for m in state.souls[p]) for p in range(n)]
    state.dur = [0] * len(g.cards)
    for cards in state.inplay:
        for c in cards:
            state.dur[c] = g.cards.durability[c]
    state.host = [-1] * len(g.cards)
    state.attached = []
    state.limbo = []
    state.dungeon = dungeon
    state.emptied_by = [-1] * 6
    if deck is not None:
        state.deck = list(reversed(deck))
        state.discard = list(discard) + rest
    else:
        state.deck = rest + list(reversed(deck_top))
        state.discard = list(discard)
    state.favor = list(favor) if favor is not None else [5] * n
    state.pub = 0
    state.activated = 0
    state.bonus = [0] * n
    state.queue = []
    state.choices = []
    state.phase = P_PLAY
    state.step = S_PLAY
    state.side = seat % 2 if g.teams else seat
    state.first = state.side if first is None else first
    state.actor = seat
    state.current_player = seat
    state.paying = -1
    state.pending = -1
    state.pay_left = 0
    state.fight_lane = 0
    state.fight_mons = []
    state.fight_wpns = []
    state.team_done = 0
    state.acted = False
    state.handed = False
    state.runouts = 0
    state.end_turn = 0
    state._legal = None
    return state


def apply(state: MephistoState, *texts: str) -> MephistoState:
    for text in texts:
        state.apply(text)
    return state


def legal(state: MephistoState) -> list[str]:
    return [a.text for a in state.legal_actions()]


def where(state: MephistoState) -> dict[int, str]:
    """Every card's zone (for conservation checks): each card must be in exactly one place."""
    out: dict[int, str] = {}

    def put(cards: Iterable[int], zone: str) -> None:
        for c in cards:
            assert c not in out, f"card {c} is both in {out[c]} and {zone}"
            out[c] = zone

    put(state.deck, "deck")
    put(state.discard, "discard")
    put((c for c in state.dungeon if c >= 0), "dungeon")
    put(state.attached, "attached")
    put(state.limbo, "limbo")
    put(state.corners, "corners")
    for p in range(state.game.players):
        put(state.hands[p], f"hand{p}")
        put(state.inplay[p], f"inplay{p}")
        put(state.souls[p], f"souls{p}")
    return out
