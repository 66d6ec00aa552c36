"""The skill trainer (clause K12): a line of four face-up skills, newest at the start.

At each map update: if skills were bought this turn, the rest slide toward the end and new skills
from the draw pile fill the start; if none was bought, the oldest (at the end) goes to the skill
discard pile, the rest slide and one new skill comes in at the start. So the line turns over every
turn. When the draw pile runs out (option ``skill-pile-empty``): ``reshuffle`` shuffles the skill
discard pile into a new draw pile; ``shrink`` leaves the places empty and the line gets shorter.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardtable.games.mr_card_game.shuffle import pick_tuple

if TYPE_CHECKING:
    from cardtable.games.mr_card_game.state import McgState

TRAINER_SIZE = 4


def draw_skill(s: McgState) -> int:
    """The top card of the skill draw pile (-1 when there is none, after a reshuffle if allowed)."""
    pile = s.skill_pile
    if not pile:
        if not (s.game.reshuffle_skills and s.skill_disc):
            return -1
        pile = tuple(sorted(s.skill_disc))
        s.skill_disc = ()
        if s.log is not None:
            s.emit("trainer", f"the skill discard pile is shuffled into a new draw pile of {len(pile)} skills")
    card, s.skill_pile = pick_tuple(pile, s.rng)
    return card


def refresh(s: McgState) -> None:
    """K12.2-K12.3: update the trainer at the end of a turn (or after a failed March)."""
    line = s.trainer
    remaining = [x for x in line if x >= 0]
    log = s.log is not None
    if len(remaining) == len(line) and remaining:
        oldest = remaining.pop()
        s.skill_disc = (*s.skill_disc, oldest)
        if log:
            s.emit("trainer", f"no skill was trained: the oldest, {s.game.card_name(oldest)}, is discarded")
    new: list[int] = []
    for _ in range(TRAINER_SIZE - len(remaining)):
        card = draw_skill(s)
        if card < 0:
            if log:
                s.emit("trainer", "the skill draw pile is empty: the trainer has fewer skills")
            break
        new.insert(0, card)
        if log:
            s.emit("trainer", f"{s.game.card_name(card)} joins the trainer")
    s.trainer = (*new, *remaining)
