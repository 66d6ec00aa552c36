"""Named, validated game options, with what interfaces need to show them to people.

A game lists its options as :class:`Option` values. ``validate_options`` turns user input (Python
values or the strings a command line gives) into a complete, checked, immutable mapping, or raises
:class:`~cardtable.engine.errors.OptionError` naming the option (``exc.option``) and what is allowed.

Besides its id (``march-tie``, what records, the command line and the API use), an option carries
what a form or a listing shows a person: a ``label`` in words using the rulebook's terms ("What
happens when the March ties"), a ``group`` (one of :data:`GROUPS`), whether it is ``advanced`` (folded
away until asked for: a first game never needs it) and, for cryptic choice ids, ``choice_labels``.
Every whole-number option has a minimum and a maximum (checked when the option is declared), so no
input can ask a game for 10**40 turns.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final

from cardtable.engine.errors import OptionError, did_you_mean, quoted

_INTEGER: Final = re.compile(r"[-+]?[0-9]+")
_MAX_DIGITS: Final = 18
"""Longer digit strings are refused as out of range before Python converts them (no huge numbers)."""

OptionValue = int | str | bool

PLAYERS: Final = "Players"
"""How many play, who sits where, who goes first."""
VARIANTS: Final = "Rules variants"
"""Variants the rulebook offers (Mephisto's Care Bear, the Sorceress's side)."""
SUPPLEMENTAL: Final = "Supplemental rules"
"""Optional components and rules of a supplemental rulebook (Mr. Card Game's bonus components)."""
READINGS: Final = "Readings of unclear rules"
"""Where the rulebook can be read more than one way: the project's reading is the default."""
HOUSE: Final = "House rules / project settings"
"""Not in the rulebook: turn limits, a finite meat pool, a later victory check."""
CARD_FILE: Final = "Card file"
"""The cards to play with (a file on the machine running the game)."""
GROUPS: Final = (PLAYERS, VARIANTS, SUPPLEMENTAL, READINGS, HOUSE, CARD_FILE)
"""Every group, in the order forms and listings show them."""


@dataclass(frozen=True)
class Option:
    """One option: its id, default, one-line explanation, allowed values, and how people see it.

    ``choices`` lists the allowed values of a choice; ``min``/``max`` bound a whole number (both are
    required for one: a declaration without them raises ``ValueError``). ``label`` is the option in
    words (default: its id with spaces), ``group`` one of :data:`GROUPS`, ``advanced`` marks an option
    a form folds away, and ``choice_labels`` (parallel to ``choices``) say each choice in words.
    ``legacy`` is set on an option added after records were already being made: it is the value that
    gives the rules as they were before the option existed. A record whose options do not name the
    option replays with it (:func:`cardtable.engine.record.replay`), and a game's configuration hash
    leaves out an option at its legacy value, so such records still verify.
    """

    name: str
    default: OptionValue
    doc: str
    choices: tuple[OptionValue, ...] | None = None
    min: int | None = None
    max: int | None = None
    kind: type = field(default=type(None))
    label: str = ""
    group: str = HOUSE
    advanced: bool = False
    choice_labels: tuple[str, ...] | None = None
    legacy: OptionValue | None = None

    def __post_init__(self) -> None:
        if self.kind is type(None):
            object.__setattr__(self, "kind", type(self.default))
        if not self.label:
            object.__setattr__(self, "label", self.name.replace("-", " ").capitalize())
        if self.group not in GROUPS:
            raise ValueError(f"option {self.name!r}: group {self.group!r} is not one of {', '.join(GROUPS)}")
        if self.kind is int and (self.min is None or self.max is None):
            # Every whole number is bounded: 10**40 turns is no game, and a form needs to say the range.
            raise ValueError(f"option {self.name!r}: a whole-number option needs both min and max")
        if self.choice_labels is not None and (self.choices is None or len(self.choice_labels) != len(self.choices)):
            raise ValueError(f"option {self.name!r}: choice_labels must match choices one for one")

    def coerce(self, game: str, raw: Any) -> OptionValue:
        """Return ``raw`` converted to this option's type, or raise OptionError naming this option."""
        value: OptionValue
        if self.kind is bool:
            if isinstance(raw, bool):
                value = raw
            elif isinstance(raw, str) and raw.lower() in ("true", "yes", "on", "1", "false", "no", "off", "0"):
                value = raw.lower() in ("true", "yes", "on", "1")
            else:
                raise self.error(f"{game}: option {self.name!r} must be true or false, got {quoted(raw)}")
        elif self.kind is int:
            value = self._whole_number(game, raw)
        elif isinstance(raw, str):
            value = raw
        elif self.choices is not None and type(raw) is int and str(raw) in self.choices:
            value = str(raw)  # a choice that reads as a number ("25"), sent as one (JSON's 25; not True)
        elif self.choices is not None:
            # Refused here, not by the check below: ``value`` is an OptionValue, which the compiled
            # build checks on assignment (a float would raise TypeError there).
            allowed = ", ".join(str(c) for c in self.choices)
            raise self.error(f"{game}: option {self.name!r} must be one of {allowed}; got {quoted(raw)}")
        else:
            raise self.error(f"{game}: option {self.name!r} must be text, got {quoted(raw)}")
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise self.error(f"{game}: option {self.name!r} must be one of {allowed}; got {quoted(value)}")
        return value

    def _whole_number(self, game: str, raw: Any) -> int:
        low, high = self.min, self.max
        assert low is not None and high is not None  # __post_init__
        where = f"{game}: option {self.name!r}"
        if isinstance(raw, str):
            text = raw.strip()
            if not _INTEGER.fullmatch(text):
                raise self.error(f"{where} must be an integer from {low} to {high}, got {quoted(raw)}")
            if len(text.lstrip("+-")) > _MAX_DIGITS:
                bound = f"at least {low}" if text.startswith("-") else f"at most {high}"
                digits = len(text.lstrip("+-"))
                raise self.error(f"{where} must be {bound}, got a number of {digits} digits")
            number = int(text)
        elif isinstance(raw, int) and not isinstance(raw, bool):
            number = raw
        elif isinstance(raw, float) and raw.is_integer():
            # JSON has one number type: 40.0 is 40. A float this large was never typed as a count.
            if not low <= raw <= high:
                bound = f"at least {low}" if raw < low else f"at most {high}"
                raise self.error(f"{where} must be {bound}, got {quoted(raw)}")
            number = int(raw)
        else:
            raise self.error(f"{where} must be an integer from {low} to {high}, got {quoted(raw)}")
        if number < low:
            raise self.error(f"{where} must be at least {low}, got {quoted(number)}")
        if number > high:
            raise self.error(f"{where} must be at most {high}, got {quoted(number)}")
        return number

    def error(self, message: str) -> OptionError:
        """An :class:`OptionError` about this option (``exc.option`` is its id)."""
        return OptionError(message, option=self.name)

    def choice_label(self, value: OptionValue) -> str:
        """``value`` in words: its choice label, or the value itself."""
        if self.choices is not None and self.choice_labels is not None and value in self.choices:
            return self.choice_labels[self.choices.index(value)]
        if isinstance(value, bool):
            return "on" if value else "off"
        return str(value) if value != "" else "none"

    def describe(self) -> str:
        allowed = ""
        if self.choices is not None:
            allowed = " (" + " | ".join(str(c) for c in self.choices) + ")"
        elif self.min is not None or self.max is not None:
            allowed = f" ({self.min if self.min is not None else ''}..{self.max if self.max is not None else ''})"
        return f"{self.name}={self.default}{allowed}: {self.doc}"

    def to_json(self) -> dict[str, Any]:
        """What a form needs: id, label, group, advanced, doc, kind, default, choices (with labels), bounds."""
        return {
            "name": self.name,
            "label": self.label,
            "group": self.group,
            "advanced": self.advanced,
            "doc": self.doc,
            "kind": self.kind.__name__,
            "default": self.default,
            "choices": list(self.choices) if self.choices is not None else None,
            "choice_labels": [self.choice_label(c) for c in self.choices] if self.choices is not None else None,
            "min": self.min,
            "max": self.max,
        }


def grouped(spec: Sequence[Option]) -> list[tuple[str, list[Option]]]:
    """``spec``'s options by group, in the order of :data:`GROUPS` (declaration order within one)."""
    return [(g, [o for o in spec if o.group == g]) for g in GROUPS if any(o.group == g for o in spec)]


def validate_options(game: str, spec: Sequence[Option], given: Mapping[str, Any]) -> Mapping[str, OptionValue]:
    """Check ``given`` against ``spec`` and fill in defaults. Option names accept ``-`` or ``_``."""
    by_name = {o.name: o for o in spec}
    out: dict[str, OptionValue] = {o.name: o.default for o in spec}
    for raw_name, raw in given.items():
        name = raw_name.replace("_", "-")
        opt = by_name.get(name)
        if opt is None:
            raise unknown_option(game, raw_name, list(by_name))
        out[name] = opt.coerce(game, raw)
    return MappingProxyType(out)


def unknown_option(game: str, raw_name: object, known: Sequence[str]) -> OptionError:
    """The error for an option ``game`` does not take where it was given: the name, a near miss among
    ``known`` if there is one, and every name in ``known``."""
    hint = did_you_mean(str(raw_name), known)
    listed = ", ".join(known) or "none"
    return OptionError(
        f"{game}: unknown option {quoted(raw_name, 30)}{hint}; its options are: {listed}", option=str(raw_name)[:40]
    )
