"""Words for event texts and prompts (built only when a state keeps a log, or for a view)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from cardtable.games.mr_card_game.effects import STAT_WORDS

if TYPE_CHECKING:
    from cardtable.games.mr_card_game.game import MrCardGame
    from cardtable.games.mr_card_game.state import McgState


def kind_text(s: McgState, kind: int) -> str:
    """``Beefiness (Muscle 2)``."""
    return kind_words(s.game, kind)


def kinds_text(s: McgState, cards: Iterable[int]) -> str:
    """Stat cards grouped by kind, highest first: ``2 x Cheek (Moxie 1), Beefiness (Muscle 2)``;
    ``nothing`` for none."""
    return kinds_words(s.game, cards)


def kind_words(game: MrCardGame, kind: int) -> str:
    """:func:`kind_text` from the game alone (for log lines worded when read)."""
    t, v = divmod(kind, 4)
    return f"{game.cards.stat_names[kind]} ({STAT_WORDS[t]} {v + 1})"


def kinds_words(game: MrCardGame, cards: Iterable[int]) -> str:
    """:func:`kinds_text` from the game alone."""
    skind = game.cards.skind
    counts: dict[int, int] = {}
    for card in cards:
        k = skind[card]
        counts[k] = counts.get(k, 0) + 1
    if not counts:
        return "nothing"
    parts = []
    for k in sorted(counts, key=lambda k: (k // 4, -(k % 4))):
        n = counts[k]
        parts.append(f"{n} x {kind_words(game, k)}" if n > 1 else kind_words(game, k))
    return ", ".join(parts)
