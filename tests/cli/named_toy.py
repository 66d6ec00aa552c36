"""The toy game with distinctively named cards, so tests can tell whether a card's name leaked.

Its views show cards as ``{"id", "name", "points"}`` dicts, the shape real games use.
"""

from __future__ import annotations

from typing import Any

from cardtable.engine import JSON, Action, State
from tests.engine.toy import Toy, ToyState

NAMES = (
    "Amber Owl",
    "Basalt Heron",
    "Cobalt Lynx",
    "Dusk Marten",
    "Ember Stoat",
    "Frost Wren",
    "Gilded Newt",
    "Hollow Crane",
    "Ivory Vole",
    "Jade Ibis",
)


def card(c: int) -> dict[str, JSON]:
    return {"id": c, "name": NAMES[c], "points": c}


class NamedToy(Toy):
    id = "named-toy"
    title = "Draw or Play (named cards)"

    def new_state(self, seed: int, log: bool) -> State:
        return NamedToyState(self, seed, log)

    def card_name(self, card: int) -> str:
        return f"{NAMES[card]} (card {card})"

    def describe_action(self, action: Action) -> str:
        if action.kind == "play":
            c = int(action.args[0])
            return f"play {NAMES[c]} (card {c})"
        return action.text


class NamedToyState(ToyState):
    __slots__ = ()

    def _view(self, seat: int | None) -> dict[str, JSON]:
        view: dict[str, Any] = super()._view(seat)
        view["hand"] = [card(c) for c in view["hand"]] if view["hand"] is not None else None
        view["table"] = [card(c) for c in view["table"]]
        return view
