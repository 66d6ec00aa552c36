"""Lasting effects: what each player's active cards add up to (K4.2, K7.3, K15.1).

Each player has one flat tuple of sums, ``state.mods[p]``, kept equal to :func:`compute` between
decisions: rebuilt by :func:`refresh` whenever what is active changes (equipping, a buff turned on or
off, a card gained or lost), or, where one card starts or stops counting, changed by that card alone
(:func:`update`; :func:`item_adds` and :func:`skill_adds` tell whether a card counts at all). Each
card's contribution is worked out once per card set (:class:`CardSums`). Scoring then reads a
handful of integers instead of walking the display case.

A card is *active* (its icons and lasting effects count) when it is:

* a piece of equipment that is **equipped** (clarification 1: unequipped equipment gives nothing);
* a passive skill (always, while in the display case);
* a buff skill that is turned on;
* a card in the player's ``lasting`` list (the supplemental rules' negative effects and Instant
  Karmas), the player's class card or the class side of their class board (``state.klass``), or a
  global effect of the table (a foil on top of the Tower): ``state.global_fx``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Final, NamedTuple

from cardtable.games.mr_card_game.cards import E_PASSIVE, S_BUFF, S_PASSIVE, CardSet
from cardtable.games.mr_card_game.effects import (
    ANY,
    AUTOSELL_BONUS,
    BONUS,
    BONUS_VS,
    DIVE_COST,
    EXTRA_UPGRADE,
    FAMILIAR_WEIGHT,
    FORBID,
    MEAT_BONUS,
    MONSTER_POWER,
    RESIST,
    SKILL_COST,
    Effect,
)

if TYPE_CHECKING:
    from cardtable.games.mr_card_game.state import McgState

# Layout of a mods tuple.
ICON: Final = 0
"""``mods[ICON + m]``: the bonus to maneuver m (melee, spell, ranged, evade) from icons and ``bonus``."""
VS: Final = 4
"""``mods[VS + 4 * element + m]``: the bonus to maneuver m against monsters of that element."""
MPOW: Final = 28
"""``mods[MPOW + element]``: the change to the power of monsters of that element on your turn."""
MEAT: Final = 34
SKILLCOST: Final = 35
SELL: Final = 36
DIVE: Final = 37
FORBIDS: Final = 38
UPGRADES: Final = 39
FAMILIAR: Final = 40
SIZE: Final = 41
ZERO: Final[tuple[int, ...]] = (0,) * SIZE


def add_effects(acc: list[int], effects: Iterable[Effect]) -> None:
    """Add lasting effects to a mods accumulator (instants never reach here: the loader refuses them)."""
    for op, a, b, c in effects:
        if op == BONUS:
            acc[ICON + a] += b
        elif op == BONUS_VS:
            acc[VS + 4 * a + b] += c
        elif op == RESIST:
            acc[VS + 4 * a + 3] += b
        elif op == MONSTER_POWER:
            if a == ANY:
                for e in range(6):
                    acc[MPOW + e] += b
            else:
                acc[MPOW + a] += b
        elif op == MEAT_BONUS:
            acc[MEAT] += a
        elif op == SKILL_COST:
            acc[SKILLCOST] += a
        elif op == AUTOSELL_BONUS:
            acc[SELL] += a
        elif op == DIVE_COST:
            acc[DIVE] += a
        elif op == FORBID:
            acc[FORBIDS] |= 1 << a
        elif op == EXTRA_UPGRADE:
            acc[UPGRADES] += a
        elif op == FAMILIAR_WEIGHT:
            acc[FAMILIAR] += a


def item_adds(s: McgState, card: int) -> bool:
    """Whether the item ``card``, in a display case now, adds anything to its owner's sums in
    :func:`compute` (its icons or passive effects, counted unless it is unequipped equipment). A change
    to an item that adds nothing before and after leaves the sums as they are."""
    c = s.game.cards
    if c.slot[card] >= 0 and not s.eq >> card & 1:
        return False
    return any(c.icons[card]) or bool(c.effects[card] and c.etype[card] == 1)  # E_PASSIVE


def skill_adds(s: McgState, card: int) -> bool:
    """Whether the skill ``card``, in a display case now, counts in :func:`compute` (a passive skill,
    or a buff turned on)."""
    st = s.game.cards.stype[card]
    return st == S_PASSIVE or (st == S_BUFF and bool(s.buffs >> card & 1))


class CardSums(NamedTuple):
    """What each card adds to a mods accumulator when it is active, worked out once per card set:
    per card id, the (index, amount) pairs to add (zeros left out) and the bits to OR into
    ``FORBIDS``."""

    item: tuple[tuple[tuple[tuple[int, int], ...], int], ...]
    """An item: its icons and its passive effects."""
    skill: tuple[tuple[tuple[tuple[int, int], ...], int], ...]
    """A skill: its icons and its effects."""
    lasting: tuple[tuple[tuple[tuple[int, int], ...], int], ...]
    """A negative effect, an Instant Karma or a class: its effects."""


_SUMS: Final[dict[str, CardSums]] = {}
_GLOBAL_SUMS: Final[dict[tuple[Effect, ...], tuple[tuple[tuple[int, int], ...], int]]] = {}


def global_sums(effects: tuple[Effect, ...]) -> tuple[tuple[tuple[int, int], ...], int]:
    """What a global effect of the table adds to every player's sums (cached by the effects)."""
    sums = _GLOBAL_SUMS.get(effects)
    if sums is None:
        sums = _GLOBAL_SUMS[effects] = _sparse((0, 0, 0, 0), effects)
    return sums


def _sparse(icons: tuple[int, int, int, int], effects: Iterable[Effect]) -> tuple[tuple[tuple[int, int], ...], int]:
    acc = [0] * SIZE
    acc[ICON : ICON + 4] = icons
    add_effects(acc, effects)
    forbid = acc[FORBIDS]
    acc[FORBIDS] = 0
    return tuple((i, v) for i, v in enumerate(acc) if v), forbid


def card_sums(cards: CardSet) -> CardSums:
    """The :class:`CardSums` of a card set (cached by its hash)."""
    sums = _SUMS.get(cards.sha)
    if sums is None:
        no_icons = (0, 0, 0, 0)
        ids = range(cards.size)
        sums = _SUMS[cards.sha] = CardSums(
            item=tuple(_sparse(cards.icons[x], cards.effects[x] if cards.etype[x] == E_PASSIVE else ()) for x in ids),
            skill=tuple(_sparse(cards.icons[x], cards.effects[x]) for x in ids),
            lasting=tuple(_sparse(no_icons, cards.effects[x]) for x in ids),
        )
    return sums


def compute(s: McgState, p: int) -> tuple[int, ...]:
    """The sums of everything active for player ``p`` (see the module docstring)."""
    g = s.game
    sums = g.sums
    slot, stype = g.cards.slot, g.cards.stype
    acc = [0] * SIZE
    forbid = 0
    eq = s.eq
    table = sums.item
    for card in s.items[p]:
        pairs, bits = table[card]
        if (pairs or bits) and (slot[card] < 0 or eq >> card & 1):
            for i, v in pairs:
                acc[i] += v
            forbid |= bits
    buffs = s.buffs
    table = sums.skill
    for card in s.skills[p]:
        st = stype[card]
        if st == S_PASSIVE or (st == S_BUFF and buffs >> card & 1):
            pairs, bits = table[card]
            for i, v in pairs:
                acc[i] += v
            forbid |= bits
    table = sums.lasting
    lasting = s.lasting[p]
    k = s.klass[p]
    if k >= 0 and not s.plain >> p & 1:
        lasting = (*lasting, k)  # the class card, or the class side of a class board
    for card in lasting:
        pairs, bits = table[card]
        for i, v in pairs:
            acc[i] += v
        forbid |= bits
    if s.global_fx:
        pairs, bits = global_sums(s.global_fx)
        for i, v in pairs:
            acc[i] += v
        forbid |= bits
    acc[FORBIDS] |= forbid
    return tuple(acc)


def refresh(s: McgState, p: int) -> None:
    """Rebuild player ``p``'s sums after a change of what is active."""
    s.mods[p] = compute(s, p)
    s.marks[p] += 1  # the rl observer's change mark (McgState.marks)


Entry = tuple[tuple[tuple[int, int], ...], int]
"""One card's contribution: a :class:`CardSums` entry."""


def update(s: McgState, p: int, gained: tuple[Entry, ...], lost: tuple[Entry, ...]) -> None:
    """Player ``p``'s sums after cards became active (``gained``) or stopped being active (``lost``),
    called once the state has changed: the same as :func:`refresh`, without going over every card
    (the sums are integer additions, so taking a card away is exact), except when a lost card
    forbids something (bits OR-ed together cannot be taken away one by one): then a refresh."""
    if not gained and not lost:
        return
    if any(bits for _, bits in lost):
        refresh(s, p)
        return
    acc = list(s.mods[p])
    for pairs, _ in lost:
        for i, v in pairs:
            acc[i] -= v
    for pairs, bits in gained:
        for i, v in pairs:
            acc[i] += v
        acc[FORBIDS] |= bits
    s.mods[p] = tuple(acc)
    s.marks[p] += 1  # the rl observer's change mark (McgState.marks)
