"""What-if card edits: change numbers on cards when a game loads, without editing its card file.

An edit is the text ``CARD.FIELD=VALUE``:

* ``CARD`` is a card's name as its card file spells it (``Witch``, ``Knight of Arthur``); every copy of
  that name changes. ``CARD#N`` changes only the N-th copy in file order (``Imp#2``). A game says
  which fields name its cards (Mr. Card Game's two-sided cards answer to their monster and their item).
* ``FIELD`` is a field of the card's table (``attack``), or a path into it: ``bonus.melee``,
  ``immediate[0].amount``, ``powers[1]`` (a list counts from 0).
* ``VALUE`` is a TOML value: ``10``, ``-1``, ``true``, ``"text"``, ``[20, 30]``.

Edits change the parsed card file before the game validates it, so an edited card is checked exactly
like a card in a file: a value out of range, a field the card's type does not have, a number where
text belongs, each raises :class:`~cardtable.engine.errors.CardDataError` naming the file, the card
and the field. An edit naming no card of the file, or a path into a field that is not there, raises
the same error here. An edit cannot rename a card (the names are how edits find cards).

The edits are part of the game's identity: :func:`edited_sha` folds them into the card data hash, so
an edited game's config hash differs from the unedited game's, and records carry them
(``record["card_edits"]``) so that a replay rebuilds the same edited game.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import math
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from cardtable.engine.errors import CardDataError, OptionError, quoted

EDIT_LIMIT: Final = 200
"""Longest edit text accepted (an edit is one short line)."""
EDITS_LIMIT: Final = 100
"""Most edits one game accepts."""

_KEY: Final = r"[A-Za-z_][A-Za-z0-9_-]*"
_STEP: Final = re.compile(rf"\.({_KEY})|\[([0-9]{{1,4}})\]")
_COPY: Final = re.compile(r"#([0-9]{1,4})")
EXAMPLE: Final = "'Witch.attack=10'"


class CardEditError(OptionError):
    """An edit that is not of the form ``CARD.FIELD=VALUE`` (before any card file is read)."""


Step = str | int
"""One step of a field path: a key of a table, or an index into a list."""


@dataclass(frozen=True)
class CardEdit:
    """One parsed edit: ``target`` (``CARD[#N].FIELD...``, as written), its ``value`` and its canonical
    ``text`` (``target=value`` with the value written back as TOML: ``Witch.attack=10``)."""

    target: str
    value: Any
    text: str


def _toml(value: Any) -> str:
    """``value`` written as a TOML value (the canonical form of an edit's value)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        keys = (k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else json.dumps(k, ensure_ascii=False) for k in value)
        return "{" + ", ".join(f"{k} = {_toml(v)}" for k, v in zip(keys, value.values(), strict=True)) + "}"
    raise CardEditError(f"a card edit's value must be a number, true/false, text, a list or a table, got {value!r}")


def parse_edit(text: Any) -> CardEdit:
    """Parse one edit's text (see the module docstring); raise :class:`CardEditError` saying what is wrong.

    >>> parse_edit(" Witch.attack = +10 ").text
    'Witch.attack=10'
    """
    if not isinstance(text, str):
        raise CardEditError(f"a card edit must be text like {EXAMPLE}, got {quoted(text)}")
    if len(text) > EDIT_LIMIT:
        raise CardEditError(f"the card edit {quoted(text)} is longer than {EDIT_LIMIT} characters")
    if any(ch < " " or "\x7f" <= ch <= "\x9f" for ch in text):
        raise CardEditError(f"the card edit {quoted(text)} contains a control character")
    target, eq, raw = text.partition("=")
    target, raw = target.strip(), raw.strip()
    if not eq or "." not in target or not raw or target.startswith(".") or target.endswith("."):
        raise CardEditError(f"a card edit is CARD.FIELD=VALUE, like {EXAMPLE}; got {quoted(text)}")
    try:
        parsed = tomllib.loads(f"value = {raw}")
    except tomllib.TOMLDecodeError:
        raise CardEditError(
            f"the card edit {quoted(text)}: {quoted(raw)} is not a value (write a number like 10, true or false, "
            '"text" in double quotes, or a list like [20, 30])'
        ) from None
    value = parsed["value"]
    return CardEdit(target, value, f"{target}={_toml(value)}")


def parse_edits(game: str, edits: object) -> tuple[CardEdit, ...]:
    """Parse a game's edits (one text, or a list or tuple of texts); the same field edited twice is
    refused later, once the card file says which tables the edits name. ``edits`` is typed ``object``
    because it comes from callers' keyword arguments and JSON: anything else is refused here."""
    if isinstance(edits, str):
        items: list[object] = [edits]
    elif isinstance(edits, list | tuple):
        items = list(edits)
    else:
        raise CardEditError(f"{game}: card edits must be a list of texts like {EXAMPLE}, got {quoted(edits)}")
    if len(items) > EDITS_LIMIT:
        raise CardEditError(f"{game}: at most {EDITS_LIMIT} card edits are accepted, got {len(items)}")
    return tuple(parse_edit(item) for item in items)


def canonical_edits(game: str, edits: object) -> tuple[str, ...]:
    """The canonical texts of ``edits`` (what records and hashes hold), in the order given."""
    return tuple(e.text for e in parse_edits(game, edits))


def edited_sha(sha: str, edits: Sequence[str]) -> str:
    """The card data hash of a file whose content hash is ``sha`` with ``edits`` applied (``sha`` itself
    when there are none). Order does not matter: two edits of one field are refused."""
    if not edits:
        return sha
    text = sha + "\n" + "\n".join(sorted(edits))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


# -- applying edits to a parsed card file ---------------------------------------------------------


@dataclass(frozen=True)
class _Card:
    name: str
    copy: int
    """1-based, among the tables answering to ``name``, in file order."""
    where: str
    """The table's place in the file: ``card[40]``, ``sorceress``."""
    table: dict[str, Any]


def _cards(data: Mapping[str, Any], name_keys: Sequence[str]) -> dict[str, list[_Card]]:
    """Every table of the file that a name answers to, by name: top-level ``[table]`` and
    ``[[array]]`` entries whose ``name_keys`` fields hold text."""
    out: dict[str, list[_Card]] = {}

    def add(table: Any, where: str) -> None:
        if not isinstance(table, dict):
            return
        for key in name_keys:
            name = table.get(key)
            if isinstance(name, str) and name:
                found = out.setdefault(name, [])
                if not any(c.table is table for c in found):
                    found.append(_Card(name, len(found) + 1, where, table))

    for section, value in data.items():
        if isinstance(value, dict):
            add(value, section)
        elif isinstance(value, list):
            for i, item in enumerate(value):
                add(item, f"{section}[{i}]")
    return out


def _split(target: str, names: Iterable[str]) -> tuple[str, str] | None:
    """``(card name, rest)`` for the longest card name ``target`` starts with, followed by ``#`` or ``.``."""
    best: str | None = None
    for name in names:
        if target.startswith(name) and target[len(name) : len(name) + 1] in ("#", ".") and len(name) > len(best or ""):
            best = name
    return None if best is None else (best, target[len(best) :])


def _steps(file: str, card: str, text: str, rest: str) -> list[Step]:
    steps: list[Step] = []
    pos = 0
    while pos < len(rest):
        m = _STEP.match(rest, pos)
        if m is None or (pos == 0 and m.group(1) is None):
            raise CardDataError(
                file,
                card,
                rest.lstrip("."),
                f"the edit {quoted(text)} names no field: write CARD.FIELD=VALUE, a path like bonus.melee or "
                "immediate[0].amount",
            )
        steps.append(m.group(1) if m.group(1) is not None else int(m.group(2)))
        pos = m.end()
    return steps


def _path_text(steps: Sequence[Step]) -> str:
    out = ""
    for step in steps:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else step)
    return out


def apply_edits(file: str, data: dict[str, Any], edits: Sequence[str], name_keys: Sequence[str] = ("name",)) -> None:
    """Apply ``edits`` (texts) to a parsed card file in place. Raises :class:`CardDataError` naming the
    file, the card and the field for an edit naming no card, no copy or no field on the way, an edit
    of a name field, and two edits of the same field of the same card. Values are not checked here:
    the game's loader checks the edited file as it checks any file."""
    cards = _cards(data, name_keys)
    done: dict[tuple[int, tuple[Step, ...]], str] = {}
    for edit in parse_edits(file, edits):
        split = _split(edit.target, cards)
        if split is None:
            guess = re.split(r"[.#]", edit.target, maxsplit=1)[0]
            close = difflib.get_close_matches(guess, list(cards), n=3, cutoff=0.6)
            hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else " (names are case-sensitive)"
            raise CardDataError(file, guess, None, f"the edit {quoted(edit.text)} names no card of this file{hint}")
        name, rest = split
        found = cards[name]
        targets = found
        m = _COPY.match(rest)
        if m is not None:
            copy = int(m.group(1))
            if not 1 <= copy <= len(found):
                have = "one table" if len(found) == 1 else f"{len(found)} tables (copies #1..#{len(found)})"
                raise CardDataError(
                    file, f"{name}#{copy}", None, f"the edit {quoted(edit.text)} names copy {copy}; the file has {have}"
                )
            targets = [found[copy - 1]]
            rest = rest[m.end() :]
        label = name if m is None else f"{name}#{targets[0].copy}"
        steps = _steps(file, label, edit.text, rest)
        if steps[0] in name_keys:
            raise CardDataError(
                file, label, str(steps[0]), f"the edit {quoted(edit.text)} would rename the card; edits change numbers"
            )
        for card in targets:
            key = (id(card.table), tuple(steps))
            if key in done:
                raise CardDataError(
                    file, label, _path_text(steps), f"edited twice ({quoted(done[key])} and {quoted(edit.text)})"
                )
            done[key] = edit.text
            _set(file, label, card.table, steps, edit)


def _set(file: str, card: str, table: dict[str, Any], steps: Sequence[Step], edit: CardEdit) -> None:
    """Set the value at ``steps`` inside ``table``: every step but the last must exist; the last may
    add a field (the game's validation refuses one its schema does not know)."""
    node: Any = table
    for k, step in enumerate(steps):
        last = k == len(steps) - 1
        where = _path_text(steps[: k + 1])
        parent = _path_text(steps[:k])
        if isinstance(step, int):
            if not isinstance(node, list):
                raise CardDataError(
                    file, card, parent, f"the edit {quoted(edit.text)} indexes it, but it is not a list"
                )
            if not 0 <= step < len(node):
                raise CardDataError(
                    file, card, where, f"the edit {quoted(edit.text)} names entry {step}; the list has {len(node)}"
                )
        else:
            if not isinstance(node, dict):
                raise CardDataError(
                    file, card, parent, f"the edit {quoted(edit.text)} looks inside it, but it is not a table"
                )
            if step not in node and not last:
                fields = ", ".join(sorted(str(f) for f in node))
                raise CardDataError(
                    file, card, where, f"the edit {quoted(edit.text)} names no field of this card (it has: {fields})"
                )
        if last:
            node[step] = edit.value
        else:
            node = node[step]


def note_edits(exc: BaseException, edits: Sequence[str]) -> None:
    """Add to the message of an error raised while loading an edited game which edits it may come
    from (those naming a card the message names, else all), so the reader knows the file is fine."""
    message = str(exc)
    related = [e for e in edits if any(part and part in message for part in _names_in(e))] or list(edits)
    if all(quoted(e) in message for e in related):
        return  # the message already quotes the edit it is about
    which = ", ".join(quoted(e) for e in related)
    note = f" (with the card edit{'s' if len(related) > 1 else ''} {which})"
    if exc.args and isinstance(exc.args[0], str) and note not in exc.args[0]:
        exc.args = (exc.args[0] + note, *exc.args[1:])


def _names_in(edit: str) -> list[str]:
    """The card names an edit's text may name: every prefix of its target that ends before a ``.``/``#``."""
    target = edit.partition("=")[0]
    return [target[:i] for i, ch in enumerate(target) if ch in ".#"]
