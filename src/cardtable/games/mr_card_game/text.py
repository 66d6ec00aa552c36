"""Words for event texts and prompts (built only when a state keeps a log, or for a view)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from cardtable.games.mr_card_game.effects import STAT_WORDS

if TYPE_CHECKING:
    from cardtable.games.mr_card_game.state import McgState


def kind_text(s: McgState, kind: int) -> str:
    """``Beefiness (Muscle 2)``."""
    t, v = divmod(kind, 4)
    return f"{s.game.cards.stat_names[kind]} ({STAT_WORDS[t]} {v + 1})"


def kinds_text(s: McgState, cards: Iterable[int]) -> str:
    """Stat cards grouped by kind, highest first: ``2 x Cheek (Moxie 1), Beefiness (Muscle 2)``;
    ``nothing`` for none."""
    skind = s.game.cards.skind
    counts: dict[int, int] = {}
    for card in cards:
        k = skind[card]
        counts[k] = counts.get(k, 0) + 1
    if not counts:
        return "nothing"
    parts = []
    for k in sorted(counts, key=lambda k: (k // 4, -(k % 4))):
        n = counts[k]
        parts.append(f"{n} x {kind_text(s, k)}" if n > 1 else kind_text(s, k))
    return ", ".join(parts)
