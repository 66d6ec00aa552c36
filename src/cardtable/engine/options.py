"""Named, validated game options.

A game lists its options as :class:`Option` values. ``validate_options`` turns user input (Python
values or the strings a command line gives) into a complete, checked, immutable mapping, or raises
:class:`~cardtable.engine.errors.OptionError` naming the option and what is allowed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from cardtable.engine.errors import OptionError, did_you_mean, quoted

_INTEGER = re.compile(r"[-+]?[0-9]{1,18}")

OptionValue = int | str | bool


@dataclass(frozen=True)
class Option:
    """One option: its name, type, default, allowed values and a one-line explanation."""

    name: str
    default: OptionValue
    doc: str
    choices: tuple[OptionValue, ...] | None = None
    min: int | None = None
    max: int | None = None
    kind: type = field(default=type(None))

    def __post_init__(self) -> None:
        if self.kind is type(None):
            object.__setattr__(self, "kind", type(self.default))

    def coerce(self, game: str, raw: Any) -> OptionValue:
        """Return ``raw`` converted to this option's type, or raise OptionError."""
        value: OptionValue
        if self.kind is bool:
            if isinstance(raw, bool):
                value = raw
            elif isinstance(raw, str) and raw.lower() in ("true", "yes", "on", "1", "false", "no", "off", "0"):
                value = raw.lower() in ("true", "yes", "on", "1")
            else:
                raise OptionError(f"{game}: option {self.name!r} must be true or false, got {quoted(raw)}")
        elif self.kind is int:
            if isinstance(raw, bool) or (isinstance(raw, float) and not raw.is_integer()):
                raise OptionError(f"{game}: option {self.name!r} must be an integer, got {quoted(raw)}")
            if isinstance(raw, str) and not _INTEGER.fullmatch(raw.strip()):
                raise OptionError(f"{game}: option {self.name!r} must be an integer, got {quoted(raw)}")
            try:
                value = int(raw)
            except (TypeError, ValueError, OverflowError):
                raise OptionError(f"{game}: option {self.name!r} must be an integer, got {quoted(raw)}") from None
            if self.min is not None and value < self.min:
                raise OptionError(f"{game}: option {self.name!r} must be at least {self.min}, got {value}")
            if self.max is not None and value > self.max:
                raise OptionError(f"{game}: option {self.name!r} must be at most {self.max}, got {value}")
        else:
            if not isinstance(raw, str):
                raise OptionError(f"{game}: option {self.name!r} must be text, got {quoted(raw)}")
            value = raw
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise OptionError(f"{game}: option {self.name!r} must be one of {allowed}; got {quoted(value)}")
        return value

    def describe(self) -> str:
        allowed = ""
        if self.choices is not None:
            allowed = " (" + " | ".join(str(c) for c in self.choices) + ")"
        elif self.min is not None or self.max is not None:
            allowed = f" ({self.min if self.min is not None else ''}..{self.max if self.max is not None else ''})"
        return f"{self.name}={self.default}{allowed}: {self.doc}"


def validate_options(game: str, spec: Sequence[Option], given: Mapping[str, Any]) -> Mapping[str, OptionValue]:
    """Check ``given`` against ``spec`` and fill in defaults. Option names accept ``-`` or ``_``."""
    by_name = {o.name: o for o in spec}
    out: dict[str, OptionValue] = {o.name: o.default for o in spec}
    for raw_name, raw in given.items():
        name = raw_name.replace("_", "-")
        opt = by_name.get(name)
        if opt is None:
            known = ", ".join(by_name) or "none"
            hint = did_you_mean(str(raw_name), by_name)
            raise OptionError(f"{game}: unknown option {quoted(raw_name, 30)}{hint}; its options are: {known}")
        out[name] = opt.coerce(game, raw)
    return MappingProxyType(out)
