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
from typing import Any, Final

from cardtable.engine.card_edits import apply_edits, edited_sha
from cardtable.engine.errors import CardDataError
from cardtable.engine.files import CARD_FILE_LIMIT, FileRefused, read_regular_file

NAME_LIMIT: Final = 80
"""Longest card name (or other ``name`` field) accepted: names are shown in tables, logs and prompts."""
TEXT_LIMIT: Final = 2000
"""Longest text value of any other field."""


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
            raise CardDataError(file, card, where, f"must be {names}, got {_shown(value)}")
        if isinstance(value, str):
            check_text(file, card, where, value, NAME_LIMIT if self.name == "name" else TEXT_LIMIT)
        elif isinstance(value, list):
            for i, item in enumerate(value):
                if isinstance(item, str):
                    check_text(file, card, f"{where}[{i}]", item, TEXT_LIMIT)
        if self.choices is not None and value not in self.choices:
            raise CardDataError(file, card, where, f"must be one of {', '.join(map(str, self.choices))}; got {value!r}")
        if isinstance(value, int) and not isinstance(value, bool):
            if self.min is not None and value < self.min:
                raise CardDataError(file, card, where, f"must be at least {self.min}, got {value}")
            if self.max is not None and value > self.max:
                raise CardDataError(file, card, where, f"must be at most {self.max}, got {value}")
        return value


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:60] + "…"


def check_text(file: str, card: str | None, where: str, value: str, limit: int) -> None:
    """Refuse text with control characters (other than newline and tab) or longer than ``limit``."""
    if len(value) > limit:
        raise CardDataError(file, card, where, f"is {len(value)} characters long; at most {limit} are allowed")
    for ch in value:
        if (ch < " " and ch not in "\n\t") or "\x7f" <= ch <= "\x9f":
            raise CardDataError(file, card, where, f"contains the control character {ch!r}")


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


def read_card_file(path: str | Path, edits: Sequence[str] = (), names: Sequence[str] = ("name",)) -> CardFile:
    """Parse a TOML card file. Raises CardDataError for a path that is not a regular file of at most
    :data:`~cardtable.engine.files.CARD_FILE_LIMIT` bytes (a directory, device or FIFO is never read),
    for text that is not UTF-8 and for bad TOML. Every game reads its card files through here.

    ``edits`` are what-if card edits (:mod:`cardtable.engine.card_edits`) applied to the parsed data,
    finding cards by their ``names`` fields; they are folded into the hash, so an edited file is
    different card data. The caller validates the edited data as it validates any file."""
    p = Path(path)
    try:
        raw = read_regular_file(p, CARD_FILE_LIMIT, "the card file")
    except FileRefused as refused:
        label = str(p).encode("unicode_escape").decode("ascii")[:200]
        raise CardDataError(label, None, None, f"cannot read the card file: {refused.reason}") from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as not_utf8:
        raise CardDataError(str(p), None, None, "the card file is not UTF-8 text") from not_utf8
    except tomllib.TOMLDecodeError as bad_toml:
        raise CardDataError(str(p), None, None, f"not valid TOML: {bad_toml}") from bad_toml
    sha = hashlib.sha256(raw).hexdigest()[:16]
    if edits:
        apply_edits(str(p), data, edits, names)
    return CardFile(str(p), data, edited_sha(sha, edits))


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
