"""Actions: small interned value objects with a stable text form.

A game declares every action it can ever offer in an :class:`ActionSpace` when it is loaded. Each
action is created once; ``legal_actions()`` hands out these same objects, so membership is an identity
test and no decision allocates a rich object. Every action also has a fixed ``index`` in its space,
which is what an RL layer uses for its action mask.

Text form: ``kind`` followed by ``name=value`` pairs in the declared order, e.g. ``play card=17`` or
``fight lane=2``. Parsing accepts the pairs in any order and extra spaces. A value is a number only
when it is written in ASCII digits (an optional ``-`` and at most 18 digits); anything else is text,
so ``card=²`` or a thousand-digit number is an action the game does not have, never a crash.
Values that name a seat are written as people number seats: ``P1``..``Pn`` (see
:mod:`cardtable.engine.seats`). A card parameter may also be given by the card's name
(``loot card=hex``): :func:`resolve_named` finds it among the legal actions, so a name only ever
picks a card the deciding seat may name now.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from typing import Final

from cardtable.engine.errors import IllegalAction, MalformedAction, quoted

ArgValue = int | str

MAX_TEXT: Final = 200
KINDS_LIMIT: Final = 340
"""The longest list of action kinds an error message quotes (see :meth:`ActionSpace.kinds_text`)."""
"""Longest action text worth parsing: no game's action is longer, and errors stay one line."""

_NUMBER = re.compile(r"-?[0-9]{1,18}")
_LONG_NUMBER = re.compile(r"-?[0-9]{19,}")


class Action:
    """One decision a seat can take. Compare actions by identity; they are interned per space."""

    __slots__ = ("args", "index", "kind", "space", "text")

    def __init__(self, space: ActionSpace, index: int, kind: str, args: tuple[ArgValue, ...], text: str):
        self.space = space
        self.index = index
        self.kind = kind
        self.args = args
        self.text = text

    def __repr__(self) -> str:
        return f"Action({self.text!r})"

    def __str__(self) -> str:
        return self.text

    def arg(self, name: str) -> ArgValue:
        """Return the value of the parameter ``name``."""
        return self.args[self.space.params[self.kind].index(name)]


def action_text(kind: str, params: Sequence[str], args: Sequence[ArgValue]) -> str:
    """The canonical text of an action."""
    if not params:
        return kind
    return kind + " " + " ".join(f"{p}={a}" for p, a in zip(params, args, strict=True))


class ActionSpace:
    """The closed set of actions a game can ever offer, in a fixed order."""

    def __init__(self) -> None:
        self.items: list[Action] = []
        self.params: dict[str, tuple[str, ...]] = {}
        self.by_text: dict[str, Action] = {}
        # The values each parameter of each kind takes, for errors that say what would be accepted.
        self.values: dict[str, list[set[ArgValue]]] = {}
        self.explain: Callable[[str, tuple[ArgValue, ...]], str | None] | None = None
        """Set by a game whose kinds take only some combinations of their values: given a kind and
        arguments each of which the kind takes but which together name no action, the rule that
        forbids the combination, in words ("a Melee Attack is played with Muscle cards"); None
        when it has none to say. It sees no state, so it can reveal nothing hidden."""

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Iterator[Action]:
        return iter(self.items)

    def declare(self, kind: str, *params: str) -> None:
        """Declare an action kind and the names of its parameters, in text order."""
        if kind in self.params and self.params[kind] != params:
            raise ValueError(f"action kind {kind!r} declared twice with different parameters")
        if not kind or any(c.isspace() or c == "=" for c in kind):
            raise ValueError(f"bad action kind {kind!r}")
        self.params[kind] = params
        self.values.setdefault(kind, [set() for _ in params])

    def add(self, kind: str, *args: ArgValue) -> Action:
        """Intern and return the action ``kind`` with ``args`` (the kind must be declared)."""
        params = self.params.get(kind)
        if params is None:
            raise ValueError(f"action kind {kind!r} was not declared")
        if len(args) != len(params):
            raise ValueError(f"{kind!r} takes {len(params)} arguments, got {len(args)}")
        text = action_text(kind, params, args)
        found = self.by_text.get(text)
        if found is not None:
            return found
        action = Action(self, len(self.items), kind, tuple(args), text)
        self.items.append(action)
        self.by_text[text] = action
        for seen, value in zip(self.values[kind], args, strict=True):
            seen.add(value)
        return action

    def grid(self, kind: str, values: Sequence[ArgValue]) -> list[Action]:
        """Declare a one-parameter kind's actions for ``values``; returns them indexed like ``values``."""
        return [self.add(kind, v) for v in values]

    def get(self, kind: str, *args: ArgValue) -> Action:
        """Return the interned action, raising :class:`MalformedAction` if the space lacks it."""
        params = self.params.get(kind)
        if params is None:
            raise MalformedAction(f"unknown action {quoted(kind)}; this game's actions are: {self.kinds_text()}")
        text = action_text(kind, params, args)
        found = self.by_text.get(text)
        if found is None:
            raise MalformedAction(self._why_missing(kind, params, args, text))
        return found

    def _why_missing(self, kind: str, params: Sequence[str], args: Sequence[ArgValue], text: str) -> str:
        """Why ``text`` names no action: the first value the kind never takes, and what it takes."""
        for param, value, seen in zip(params, args, self.values.get(kind, ()), strict=False):
            if value in seen:
                continue
            numeric = all(isinstance(v, int) for v in seen)
            if isinstance(value, int) and numeric:
                problem = f"{param}={value} is out of range ({param} is {_domain(seen)})"
            elif numeric and _LONG_NUMBER.fullmatch(str(value)):
                # Too many digits to read as a number at all: still a number, just far out of range.
                problem = f"{param}={quoted(value, 20)} is out of range ({param} is {_domain(seen)})"
            elif numeric and param in CARD_PARAMS:
                problem = (
                    f"{param}={quoted(value, 20)} is neither a card's number ({param} is {_domain(seen)}) "
                    "nor the name of a card the deciding seat may name now"
                )
            elif numeric:
                problem = f"{param}={quoted(value, 20)} is not a number ({param} is {_domain(seen)})"
            else:
                problem = f"{param}={quoted(str(value), 20)} is not allowed ({param} is {_domain(seen)})"
            return f"no such action {quoted(text)}: {problem}"
        reason = self.explain(kind, tuple(args)) if self.explain is not None else None
        if reason:
            return f"no such action {quoted(text)}: {reason}"
        return f"no such action {quoted(text)} in this game"

    def kinds_text(self) -> str:
        """The action kinds for an error message: with their parameters, or (for a game with many
        kinds) the names alone, so that a message stays one bounded line."""
        full = ", ".join(action_text(k, p, [f"<{x}>" for x in p]) for k, p in self.params.items())
        if len(full) <= KINDS_LIMIT:
            return full
        names = ", ".join(self.params)
        return names if len(names) <= KINDS_LIMIT else names[: KINDS_LIMIT - 3] + "..."

    def parse(self, text: object) -> Action:
        """Parse an action's text form. Raises :class:`MalformedAction` naming what is wrong."""
        if not isinstance(text, str):
            raise MalformedAction(f"an action must be an Action or its text, not a {type(text).__name__}")
        found = self.by_text.get(text)
        if found is not None:
            return found
        if len(text) > MAX_TEXT:
            raise MalformedAction(f"action text too long ({len(text)} characters): {quoted(text)}")
        words = text.split()
        if not words:
            raise MalformedAction("empty action text")
        kind, rest = words[0], words[1:]
        params = self.params.get(kind)
        if params is None:
            raise MalformedAction(
                f"unknown action {quoted(kind, 30)} in {quoted(text)}; this game's actions are: {self.kinds_text()}"
            )
        given: dict[str, str] = {}
        for word in rest:
            name, eq, value = word.partition("=")
            if not eq or not name or not value:
                raise MalformedAction(f"in {quoted(text)}: expected name=value, got {quoted(word, 30)}")
            if name not in params:
                takes = f"it takes {', '.join(params)}" if params else "it takes none"
                raise MalformedAction(f"in {quoted(text)}: {kind!r} has no parameter {quoted(name, 30)} ({takes})")
            if name in given:
                raise MalformedAction(f"in {quoted(text)}: parameter {name!r} given twice")
            given[name] = value
        missing = [p for p in params if p not in given]
        if missing:
            raise MalformedAction(f"in {quoted(text)}: missing parameter(s) {', '.join(missing)}")
        args: list[ArgValue] = [_value(given[p]) for p in params]
        return self.get(kind, *args)


def _value(text: str) -> ArgValue:
    """A parameter value: an int when written in ASCII digits (bounded), else the text itself."""
    return int(text) if _NUMBER.fullmatch(text) else text


def _domain(values: set[ArgValue]) -> str:
    """The values a parameter takes, in words: ``a number from 0 to 111``, ``one of P1, P2``."""
    numbers = sorted(v for v in values if isinstance(v, int))
    words = sorted(str(v) for v in values if not isinstance(v, int))
    if numbers and not words:
        low, high = numbers[0], numbers[-1]
        if len(numbers) == high - low + 1:
            return f"a number from {low} to {high}" if low != high else f"{low}"
    shown = [str(n) for n in numbers] + words
    more = f", … ({len(shown)} values)" if len(shown) > 12 else ""
    return "one of " + ", ".join(shown[:12]) + more


CARD_PARAMS = frozenset({"card"})
"""Parameters whose values are card ids, and so may be given by a card's name instead."""
NAMED_LIMIT: Final = 8
"""The most candidates an error about a card name lists."""


def name_key(name: str) -> str:
    """A name as typed names compare: lower case, every run of other characters one space
    (``Will-o'-the-Wisp`` is ``will o the wisp``; ``mind_rot`` is ``mind rot``)."""
    return " ".join(re.sub(r"[^0-9a-z]+", " ", name.lower()).split())


def _name_matches(typed: str, names: Sequence[str]) -> int:
    """How well ``typed`` (a :func:`name_key`) names a card called ``names``: 3 the whole name, 2 the
    start of it, 1 the start of one of its words, 0 not at all."""
    best = 0
    for name in names:
        key = name_key(name)
        if key == typed:
            return 3
        if key.startswith(typed):
            best = max(best, 2)
        elif f" {typed}" in f" {key}":
            best = max(best, 1)
    return best


def resolve_named(
    space: ActionSpace,
    kind: str,
    given: Sequence[tuple[str, str]],
    legal: Sequence[Action],
    names: Callable[[int], Sequence[str]],
    describe: Callable[[Action], str],
) -> Action:
    """The one action of ``legal`` that ``kind`` with the values ``given`` (``(param, text)`` pairs,
    every parameter of the kind once) names, where a card parameter may be a card's name or the start
    of it, in any case (``("card", "hex")``, ``("card", "mind rot")``): the whole name first, then
    the start of a name, then the start of a word of it.

    Raises :class:`MalformedAction` when a name is no card's of this game at all (the kind's every
    possible card is searched: static data, nothing hidden), and :class:`IllegalAction` when it names
    no card among ``legal`` or several of them, listing (at most :data:`NAMED_LIMIT`) the choices it
    could mean. Only the seat whose decision it is may be told about ``legal``.
    """
    params = space.params.get(kind)
    if params is None:
        raise MalformedAction(f"unknown action {quoted(kind, 30)}; this game's actions are: {space.kinds_text()}")
    values = dict(given)
    shown = action_text(kind, params, [values.get(p, "?") for p in params])
    candidates = [a for a in legal if a.kind == kind]
    named = ""
    for position, param in enumerate(params):
        text = values.get(param, "")
        number = _value(text) if " " not in text else text
        if isinstance(number, int):
            candidates = [a for a in candidates if a.args[position] == number]
            continue
        if param not in CARD_PARAMS:
            candidates = [a for a in candidates if str(a.args[position]) == text]
            continue
        typed = name_key(text)
        named = text
        known = space.values.get(kind, [])
        everywhere = known[position] if position < len(known) else set()
        if not typed or not any(isinstance(c, int) and _name_matches(typed, names(c)) for c in everywhere):
            raise MalformedAction(
                f"no such action {quoted(shown)}: {quoted(text, 30)} is neither a number nor the name of a card "
                f"this game's {quoted(kind, 30)} can name"
            )
        scored = [(_name_matches(typed, names(int(a.args[position]))), a) for a in candidates]
        best = max((score for score, _ in scored), default=0)
        candidates = [a for score, a in scored if best and score == best]
    if len(candidates) == 1:
        return candidates[0]
    possible = [a for a in legal if a.kind == kind]
    if not possible:
        kinds = ", ".join(dict.fromkeys(a.kind for a in legal)) or "nothing"
        raise IllegalAction(
            f"{quoted(shown)} is not legal now: no {quoted(kind, 30)} is possible (you may now: {kinds})"
        )
    listed = candidates if candidates else possible
    more = f"; and {len(listed) - NAMED_LIMIT} more" if len(listed) > NAMED_LIMIT else ""
    choices = "; ".join(describe(a) for a in listed[:NAMED_LIMIT]) + more
    if candidates:
        raise IllegalAction(
            f"{quoted(shown)} could be any of {len(candidates)} choices ({choices}): give the card's number"
        )
    raise IllegalAction(f"{quoted(shown)}: no card called {quoted(named, 30)} is among the choices now: {choices}")
