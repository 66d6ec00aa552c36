"""Actions: small interned value objects with a stable text form.

A game declares every action it can ever offer in an :class:`ActionSpace` when it is loaded. Each
action is created once; ``legal_actions()`` hands out these same objects, so membership is an identity
test and no decision allocates a rich object. Every action also has a fixed ``index`` in its space,
which is what an RL layer uses for its action mask.

Text form: ``kind`` followed by ``name=value`` pairs in the declared order, e.g. ``play card=17`` or
``fight lane=2``. Parsing accepts the pairs in any order and extra spaces.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from cardtable.engine.errors import MalformedAction

ArgValue = int | str


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
        return action

    def grid(self, kind: str, values: Sequence[ArgValue]) -> list[Action]:
        """Declare a one-parameter kind's actions for ``values``; returns them indexed like ``values``."""
        return [self.add(kind, v) for v in values]

    def get(self, kind: str, *args: ArgValue) -> Action:
        """Return the interned action, raising :class:`MalformedAction` if the space lacks it."""
        params = self.params.get(kind)
        if params is None:
            raise MalformedAction(f"unknown action {kind!r}; this game's actions are: {self.kinds_text()}")
        text = action_text(kind, params, args)
        found = self.by_text.get(text)
        if found is None:
            raise MalformedAction(f"no such action {text!r} in this game")
        return found

    def kinds_text(self) -> str:
        return ", ".join(action_text(k, p, [f"<{x}>" for x in p]) for k, p in self.params.items())

    def parse(self, text: str) -> Action:
        """Parse an action's text form. Raises :class:`MalformedAction` naming what is wrong."""
        if not isinstance(text, str):
            raise MalformedAction(f"an action must be an Action or its text, not {type(text).__name__}")
        found = self.by_text.get(text)
        if found is not None:
            return found
        words = text.split()
        if not words:
            raise MalformedAction("empty action text")
        kind, rest = words[0], words[1:]
        params = self.params.get(kind)
        if params is None:
            raise MalformedAction(f"unknown action {kind!r} in {text!r}; this game's actions are: {self.kinds_text()}")
        given: dict[str, str] = {}
        for word in rest:
            name, eq, value = word.partition("=")
            if not eq or not name or not value:
                raise MalformedAction(f"in {text!r}: expected name=value, got {word!r}")
            if name not in params:
                raise MalformedAction(f"in {text!r}: {kind!r} has no parameter {name!r} (it takes {params})")
            if name in given:
                raise MalformedAction(f"in {text!r}: parameter {name!r} given twice")
            given[name] = value
        missing = [p for p in params if p not in given]
        if missing:
            raise MalformedAction(f"in {text!r}: missing parameter(s) {', '.join(missing)}")
        args: list[ArgValue] = []
        for p in params:
            v = given[p]
            args.append(int(v) if v.lstrip("-").isdigit() else v)
        return self.get(kind, *args)
