"""Reading and validating card files (TOML), shared by every game.

A game describes its card schema with :class:`Field` and its effect vocabulary with
:class:`EffectSpec`; :func:`check_table` and :func:`check_effects` validate one card against them and
raise :class:`~cardtable.engine.errors.CardDataError` naming the file, the card and the field.
"""

from __future__ import annotations

import hashlib
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardtable.engine.errors import CardDataError


@dataclass(frozen=True)
class Field:
    """One field of a card (or of an effect): its name, accepted types and limits."""

    name: str
    types: tuple[type, ...]
    required: bool = True
    default: Any = None
    choices: tuple[Any, ...] | None = None
    min: int | None = None
    max: int | None = None
    doc: str = ""

    def check(self, file: str, card: str | None, where: str, value: Any) -> Any:
        if (bool not in self.types and isinstance(value, bool)) or not isinstance(value, self.types):
            names = " or ".join(t.__name__ for t in self.types)
            raise CardDataError(file, card, where, f"must be {names}, got {value!r}")
        if self.choices is not None and value not in self.choices:
            raise CardDataError(file, card, where, f"must be one of {', '.join(map(str, self.choices))}; got {value!r}")
        if isinstance(value, int) and not isinstance(value, bool):
            if self.min is not None and value < self.min:
                raise CardDataError(file, card, where, f"must be at least {self.min}, got {value}")
            if self.max is not None and value > self.max:
                raise CardDataError(file, card, where, f"must be at most {self.max}, got {value}")
        return value


@dataclass(frozen=True)
class EffectSpec:
    """One effect name of a game's vocabulary and the parameters it takes."""

    name: str
    params: Sequence[Field] = field(default_factory=tuple)
    doc: str = ""


@dataclass(frozen=True)
class CardFile:
    """A parsed card file: its path, raw TOML data and content hash."""

    path: str
    data: Mapping[str, Any]
    sha: str


def read_card_file(path: str | Path) -> CardFile:
    """Parse a TOML card file. Raises CardDataError for a missing file or bad TOML."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise CardDataError(str(p), None, None, f"cannot read the card file: {exc.strerror}") from exc
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise CardDataError(str(p), None, None, "the card file is not UTF-8 text") from exc
    except tomllib.TOMLDecodeError as exc:
        raise CardDataError(str(p), None, None, f"not valid TOML: {exc}") from exc
    return CardFile(str(p), data, hashlib.sha256(raw).hexdigest()[:16])


def check_table(file: str, card: str | None, table: Any, fields: Sequence[Field], where: str = "") -> dict[str, Any]:
    """Validate one TOML table against ``fields``: unknown keys, missing keys and bad values are errors.

    Returns a dict with every field present (defaults filled in).
    """
    if not isinstance(table, dict):
        raise CardDataError(file, card, where or None, f"must be a table, got {table!r}")
    known = {f.name for f in fields}
    for key in table:
        if key not in known:
            raise CardDataError(file, card, where + key, f"unknown field (expected one of: {', '.join(sorted(known))})")
    out: dict[str, Any] = {}
    for f in fields:
        if f.name in table:
            out[f.name] = f.check(file, card, where + f.name, table[f.name])
        elif f.required:
            raise CardDataError(file, card, where + f.name, "is required")
        else:
            out[f.name] = f.default
    return out


def check_effects(
    file: str, card: str, where: str, value: Any, vocabulary: Mapping[str, EffectSpec]
) -> list[dict[str, Any]]:
    """Validate a list of effects (``[{do = "gain_favor", amount = 3}, ...]``) against a vocabulary."""
    if value is None:
        return []
    if isinstance(value, dict):
        value = [value]
    if not isinstance(value, list):
        raise CardDataError(file, card, where, f"must be a list of effects, got {value!r}")
    out = []
    for i, eff in enumerate(value):
        at = f"{where}[{i}]"
        if not isinstance(eff, dict) or "do" not in eff:
            raise CardDataError(file, card, at, "an effect must be a table with a 'do' key")
        name = eff["do"]
        spec = vocabulary.get(name) if isinstance(name, str) else None
        if spec is None:
            raise CardDataError(
                file, card, at + ".do", f"unknown effect {name!r}; known effects: {', '.join(sorted(vocabulary))}"
            )
        params = check_table(file, card, {k: v for k, v in eff.items() if k != "do"}, spec.params, at + ".")
        params["do"] = name
        out.append(params)
    return out
