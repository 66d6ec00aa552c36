"""The skill trainer (clause K12): a line of four face-up skills, newest at the start; or (option
``class-trainer``, clause O6) six class piles, each with its top card face up.

At each map update: if skills were bought this turn, the rest slide toward the end and new skills
from the draw pile fill the start; if none was bought, the oldest (at the end) goes to the skill
discard pile, the rest slide and one new skill comes in at the start. So the line turns over every
turn. When the draw pile runs out (option ``skill-pile-empty``): ``reshuffle`` shuffles the skill
discard pile into a new draw pile; ``shrink`` leaves the places empty and the line gets shorter.

Class-based (O6): ``state.trainer`` has one place per class (in the order of ``cards.CLASSES``) and
the face-down class piles are the class's cards in the (unordered) skill draw pile. Only a pile whose
face-up skill was bought turns up its next card at the map update; nothing is discarded. An empty
class pile stays empty, unless ``skill-pile-empty=reshuffle`` and the skill discard pile (where an
ascension sends the trained skills) holds cards of that class: they become its new pile.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from cardtable.games.mr_card_game import said
from cardtable.games.mr_card_game.cards import CLASS_WORDS, CLASSES
from cardtable.games.mr_card_game.shuffle import pick_tuple

if TYPE_CHECKING:
    from cardtable.games.mr_card_game.state import McgState

TRAINER_SIZE: Final = 4


def deal(s: McgState) -> None:
    """K2.5 / O6.1: the trainer at setup (the draw pile's remaining cards stay face down)."""
    g = s.game
    skills = g.all_skills
    trainer: list[int] = []
    if g.class_trainer:
        s.skill_pile = skills
        s.trainer = tuple(_draw_class(s, k) for k in range(len(CLASSES)))
        return
    for _ in range(min(TRAINER_SIZE, len(skills))):
        card, skills = pick_tuple(skills, s.rng)
        trainer.insert(0, card)
    s.trainer = tuple(trainer)
    s.skill_pile = skills


def _draw_class(s: McgState, k: int) -> int:
    """The next card of class pile ``k`` (-1 when it is empty, after a reshuffle if allowed)."""
    c = s.game.cards
    mine = tuple(x for x in s.skill_pile if c.sclass[x] == k)
    if not mine and s.game.reshuffle_skills:
        back = tuple(x for x in s.skill_disc if c.sclass[x] == k)
        if back:
            s.skill_disc = tuple(x for x in s.skill_disc if c.sclass[x] != k)
            s.skill_pile = tuple(sorted((*s.skill_pile, *back)))
            mine = back
            if s.log is not None:
                s.emit("trainer", f"the {CLASS_WORDS[k]} skills of the skill discard pile form a new class pile")
    if not mine:
        return -1
    card, _ = pick_tuple(tuple(sorted(mine)), s.rng)
    s.skill_pile = tuple(x for x in s.skill_pile if x != card)
    return card


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
    if s.game.class_trainer:
        _refresh_classes(s)
        return
    line = s.trainer
    log = s.log is not None
    if -1 in line:
        remaining = tuple(x for x in line if x >= 0)
    elif line:
        oldest = line[-1]
        remaining = line[:-1]
        s.skill_disc = (*s.skill_disc, oldest)
        if log:
            s.tell1("trainer", said.said_untrained, oldest)
    else:
        remaining = line
    if len(remaining) == TRAINER_SIZE - 1 and s.skill_pile:
        # The usual turn: one new skill, straight from a draw pile that is not empty.
        card, s.skill_pile = pick_tuple(s.skill_pile, s.rng)
        s.trainer = (card, *remaining)
        if log:
            s.tell1("trainer", said.said_joins, card)
        return
    new: list[int] = []
    for _ in range(TRAINER_SIZE - len(remaining)):
        card = draw_skill(s)
        if card < 0:
            if log:
                s.emit("trainer", "the skill draw pile is empty: the trainer has fewer skills")
            break
        new.insert(0, card)
        if log:
            s.tell1("trainer", said.said_joins, card)
    s.trainer = (*new, *remaining)


def _refresh_classes(s: McgState) -> None:
    """O6.3: each class pile whose face-up skill was bought turns up its next card."""
    line = list(s.trainer)
    for k, card in enumerate(line):
        if card >= 0:
            continue
        line[k] = _draw_class(s, k)
        if s.log is not None and line[k] >= 0:
            s.tell2("trainer", said.said_turned_up, line[k], k)
    s.trainer = tuple(line)
