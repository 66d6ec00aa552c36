"""What a person typed at their decision, resolved to one legal action, or not.

Only these act: an action's exact text (``play card=17``, or with the card's name: ``play card=hex``);
its number in the list; its kind with its values in order (``play 17``, ``fight 2``, ``loot mind rot``:
a card's name or the start of it works wherever a card's number does); and an unambiguous start of one
action (``draw``, ``summon og``: the first word whole, the action's kind or the first word of its
description). Anything else never acts: a near miss (``card 211``, a typo, a word from the middle of
one description) is a :class:`Ask` — "did you mean …? (y/n)" — and the rest a :class:`Problem`
saying what was wrong. So a word meant as an inspection can never carry out a move.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cardtable.engine import Action, Game, IllegalAction
from cardtable.engine.actions import CARD_PARAMS, action_text, resolve_named
from cardtable.engine.errors import quoted

Why = Callable[[Action], str | None]
"""The game's reason an action of its space is not legal now (``State.why_illegal``), or None."""

LISTED = 6
"""The most choices a message lists."""
CARD_MARK = re.compile(r" \(card (\d+)\)")


@dataclass(frozen=True)
class Ask:
    """A near miss: ask before taking ``action``."""

    action: Action
    question: str


@dataclass(frozen=True)
class Problem:
    """Why a typed line names no single action (shown to the person, who types again)."""

    message: str


def shown(game: Game, action: Action) -> str:
    """An action as the list of choices shows it: its description, ``(card 17)`` as ``#17``."""
    return CARD_MARK.sub(r" #\1", game.describe_action(action))


def _listing(game: Game, legal: Sequence[Action], matches: Sequence[Action]) -> str:
    numbered = {a.text: n for n, a in enumerate(legal, 1)}
    listed = "; ".join(f"{numbered[a.text]}. {shown(game, a)}" for a in matches[:LISTED])
    more = f"; and {len(matches) - LISTED} more" if len(matches) > LISTED else ""
    return listed + more


def _by_kind(game: Game, legal: Sequence[Action], words: list[str], why: Why | None = None) -> Action | Problem | None:
    """``play 17``, ``loot mind rot``, ``play card=hex``, ``done``: the line starts with an action's
    kind. None when the first word is no kind of this game."""
    space = game.actions
    kind = words[0] if words[0] in space.params else words[0].lower()
    params = space.params.get(kind)
    if params is None:
        return None
    rest = words[1:]
    of_kind = [a for a in legal if a.kind == kind]
    if not rest:
        if len(of_kind) == 1:
            return of_kind[0]
        if not of_kind:
            kinds = ", ".join(dict.fromkeys(a.kind for a in legal))
            return Problem(f"no {quoted(kind)} is possible now (you may: {kinds})")
        listed = _listing(game, legal, of_kind)
        return Problem(f"{quoted(kind)} could be any of {len(of_kind)} choices ({listed}): say which")
    if all("=" in w for w in rest):
        pairs = [w.partition("=") for w in rest]
        given = [(name, value) for name, _, value in pairs]
    elif not any("=" in w for w in rest) and len(params) == 1:
        given = [(params[0], " ".join(rest))]
    elif not any("=" in w for w in rest) and len(rest) == len(params):
        given = list(zip(params, rest, strict=True))
    else:
        return Problem(
            f"{quoted(kind)} takes {len(params)} value(s): {action_text(kind, params, [f'<{p}>' for p in params])}"
        )
    if sorted(name for name, _ in given) != sorted(params):
        return Problem(f"{quoted(kind)} takes {action_text(kind, params, [f'<{p}>' for p in params])}")
    text = action_text(kind, params, [dict(given)[p] for p in params])
    by_text = {a.text: a for a in legal}
    if text in by_text:
        return by_text[text]
    named = any(p in CARD_PARAMS and not v.lstrip("-").isdigit() for p, v in given)
    if not named:
        choices = _listing(game, legal, of_kind) or "none now"
        action = space.by_text.get(text)
        reason = why(action) if why is not None and action is not None else None
        if reason:
            return Problem(f"{quoted(text)} is not legal now: {reason}; the choices of {quoted(kind)}: {choices}")
        return Problem(f"{quoted(text)} is not among your choices now; the choices of {quoted(kind)}: {choices}")
    try:
        return resolve_named(space, kind, given, legal, game.card_names, lambda a: shown(game, a))
    except IllegalAction as exc:
        return Problem(str(exc))


def _starts(game: Game, legal: Sequence[Action], norm: str) -> list[Action]:
    """The actions whose text, or description, starts with ``norm`` (any case), its first word
    whole: ``summon og`` names ``summon Ogre (card 17)``; ``og`` names nothing."""
    lowered = norm.lower()
    first = lowered.split()[0]
    out = []
    for a in legal:
        for said in (a.text.lower(), shown(game, a).lower()):
            if said.split()[0] == first and said.startswith(lowered):
                out.append(a)
                break
    return out


def _near(game: Game, legal: Sequence[Action], norm: str) -> list[Action]:
    """Actions ``norm`` might have meant: it appears inside their description (``card 211``,
    ``amulet``), or it is close to its start (a typo: ``sumon ogre``)."""
    lowered = norm.lower()
    inside = [a for a in legal if lowered in shown(game, a).lower() or lowered in game.describe_action(a).lower()]
    if inside:
        return inside
    heads: dict[str, Action] = {}
    for a in legal:
        said = shown(game, a).lower()
        heads[said[: len(lowered)]] = heads.get(said[: len(lowered)], a)
        heads.setdefault(a.text.lower()[: len(lowered)], a)
    close = difflib.get_close_matches(lowered, list(heads), n=LISTED, cutoff=0.75)
    return list(dict.fromkeys(heads[c] for c in close))


def pick(game: Game, legal: Sequence[Action], line: str, why: Why | None = None) -> Action | Ask | Problem:
    """Resolve what a person typed (see the module's docstring for what acts). ``why`` gives the
    game's reason an action of its space is refused (``State.why_illegal``): a line that names one
    exactly (``equip 97``) is then told why, not only what may be done instead."""
    words = line.split()
    norm = " ".join(words)
    if not words:
        return Problem("type a number, an action, or `?` for help")
    by_text = {a.text: a for a in legal}
    if norm in by_text:
        return by_text[norm]
    if norm.isdigit():
        number = int(norm)
        if 1 <= number <= len(legal):
            return legal[number - 1]
        return Problem(f"there is no choice {number}: type a number from 1 to {len(legal)}")
    found = _by_kind(game, legal, words, why)
    if isinstance(found, Action):
        return found
    starts = _starts(game, legal, norm)
    if len(starts) == 1:
        return starts[0]
    if len(starts) > 1:
        return Problem(
            f"{quoted(norm)} could be any of {len(starts)} choices ({_listing(game, legal, starts)}): "
            "type more, or a number"
        )
    if isinstance(found, Problem):
        return found
    near = _near(game, legal, norm)
    if len(near) == 1:
        return Ask(near[0], f"did you mean “{shown(game, near[0])}”? (y/n) ")
    if near:
        return Problem(
            f"{quoted(norm)} is not an action; did you mean one of: {_listing(game, legal, near)}? Type its number"
        )
    return Problem(
        f"{quoted(norm)} is neither an action nor a command: "
        f"type a number from 1 to {len(legal)}, an action, or `?` for help"
    )
