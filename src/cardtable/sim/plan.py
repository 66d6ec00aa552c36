"""What a simulation run plays: its settings (option sets x seat lists), its games and their seeds.

A run is fully described by a :class:`Plan`, which is also what its folder's ``manifest.json`` holds;
resuming compares the manifest with the new plan and refuses to mix different runs.

Fair comparisons are built in:

* **Paired seeds.** Game ``i`` of every setting is dealt from seed ``seed + i``, so a grid compares
  settings on the same deals, and game ``i`` can be replayed alone with that seed.
* **Rotated seats.** The listed agents repeat around the table (``heuristic,random`` in a 4-player
  game is heuristic, random, heuristic, random); in game ``i`` the ``j``-th of them sits at seat
  ``(j + i) % players``,
  so over the games every agent plays every seat equally often and seat position and agent are not
  confounded.
* **Agent seeds** are derived from the run seed, the game index and the seat, never from the clock.

What-if comparisons (``compare``) are settings too: for every point of the grid, the game as its card
file has it (plus the run's own ``card_edits``) and one setting per combination of the compared
card values, each compared with that unedited setting on the same deals and seats.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import cardtable
from cardtable.agents.registry import make_agent, split_specs
from cardtable.engine.card_edits import canonical_edits
from cardtable.engine.errors import OptionError
from cardtable.engine.game import JSON, Game
from cardtable.engine.rng import Rng

MANIFEST_FORMAT = "cardtable-sim/3"
"""Version 2 added seat names to settings and forced decisions and card uses to every results line;
version 3 adds card edits and the setting each setting is compared with (``base``)."""


@dataclass(frozen=True)
class Setting:
    """One point of the grid: game options and one agent spec per listed agent."""

    label: str
    options: dict[str, JSON]
    seats: tuple[str, ...]
    config: str
    """The game's config hash (card data + options): a changed card file is a different run."""
    seat_names: tuple[str, ...] = ()
    """What people call each seat (``game.seat_name``: P1..Pn, Good/Evil), for the report."""
    card_edits: tuple[str, ...] = ()
    """What-if card edits this setting's game loads with (canonical texts)."""
    base: int | None = None
    """The setting this one is compared with, game by game (None: none)."""

    def to_json(self) -> dict[str, JSON]:
        return {
            "label": self.label,
            "options": dict(self.options),
            "seats": list(self.seats),
            "config": self.config,
            "seat_names": list(self.seat_names),
            "card_edits": list(self.card_edits),
            "base": self.base,
        }

    @staticmethod
    def from_json(s: Mapping[str, Any], k: int = 0) -> Setting:
        """A setting as stored (a manifest before format 3 compares every setting with the first)."""
        return Setting(
            s["label"],
            dict(s["options"]),
            tuple(s["seats"]),
            s["config"],
            tuple(s.get("seat_names", ())),
            tuple(s.get("card_edits", ())),
            s.get("base", 0 if k else None),
        )

    def load(self, game_id: str) -> Game:
        """This setting's game."""
        return cardtable.load(game_id, card_edits=self.card_edits, **self.options)


@dataclass(frozen=True)
class Plan:
    """A whole run: ``games`` games for every setting, dealt from ``seed + index``."""

    game: str
    settings: tuple[Setting, ...]
    games: int
    seed: int
    records: bool = False
    max_decisions: int = 1_000_000
    grid: tuple[tuple[str, tuple[str, ...]], ...] = ()
    card_edits: tuple[str, ...] = ()
    """The run's card edits (every setting's game has them)."""
    compare: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """What-if axes: a card field and the values to compare the unedited game with."""
    factory: str | None = field(default=None, compare=False)
    """``module:qualname`` of a game registered at run time (plug-ins, tests), for worker processes."""

    def manifest(self) -> dict[str, JSON]:
        """The run's parameters as stored in ``manifest.json`` (compared on resume)."""
        return {
            "format": MANIFEST_FORMAT,
            "game": self.game,
            "games": self.games,
            "seed": self.seed,
            "records": self.records,
            "max_decisions": self.max_decisions,
            "grid": [[k, list(v)] for k, v in self.grid],
            "card_edits": list(self.card_edits),
            "compare": [[k, list(v)] for k, v in self.compare],
            "settings": [s.to_json() for s in self.settings],
            "engine": cardtable.__version__,
        }

    def to_json(self) -> dict[str, JSON]:
        """Everything a worker needs (the manifest plus how to find a run-time registered game)."""
        out = self.manifest()
        out["factory"] = self.factory
        return out

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Plan:
        return Plan(
            game=data["game"],
            settings=tuple(Setting.from_json(s, k) for k, s in enumerate(data["settings"])),
            games=int(data["games"]),
            seed=int(data["seed"]),
            records=bool(data["records"]),
            max_decisions=int(data["max_decisions"]),
            grid=tuple((k, tuple(v)) for k, v in data.get("grid", [])),
            card_edits=tuple(data.get("card_edits", ())),
            compare=tuple((k, tuple(v)) for k, v in data.get("compare", [])),
            factory=data.get("factory"),
        )

    @property
    def total(self) -> int:
        return self.games * len(self.settings)


def seat_specs(setting: Setting, players: int, index: int) -> tuple[list[str], list[int]]:
    """For game ``index``: the agent spec at each seat and which listed agent (0-based) sits there."""
    listed = setting.seats * (players // len(setting.seats))
    rotation = index % players
    agent_at = [(seat - rotation) % players for seat in range(players)]
    return [listed[j] for j in agent_at], agent_at


def agent_seed(seed: int, index: int, seat: int) -> int:
    """The seed of the agent at ``seat`` in game ``index`` (independent of the setting: paired)."""
    r = Rng(seed)
    for part in (index, seat):
        r = Rng(r.next64() ^ part)
    return r.next64() >> 16


def grid_values(key: str, text: str) -> tuple[str, ...]:
    """Split a grid's values: ``;`` separates them when present (always for ``seats``), else ``,``."""
    sep = ";" if key == "seats" or ";" in text else ","
    values = tuple(v.strip() for v in text.split(sep))
    if not values or any(not v for v in values):
        raise OptionError(f"grid {key!r}: empty value in {text!r}")
    return values


def parse_grid(items: Sequence[str]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """``["players=2,4,6", "seats=ismcts,random;heuristic,random"]`` -> the grid axes, in order."""
    axes: list[tuple[str, tuple[str, ...]]] = []
    for item in items:
        key, eq, rest = item.partition("=")
        key = key.strip()
        if not eq or not key or not rest.strip():
            raise OptionError(f"--grid expects key=value1,value2,..., got {item!r}")
        if any(k == key for k, _ in axes):
            raise OptionError(f"--grid {key!r} given twice")
        axes.append((key, grid_values(key, rest)))
    return tuple(axes)


def split_values(text: str) -> tuple[str, ...]:
    """Split ``8,10,[20, 30]`` at the commas outside brackets and quotes (card edit values are TOML)."""
    out: list[str] = []
    depth, quote, start = 0, "", 0
    for k, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(text[start:k].strip())
            start = k + 1
    out.append(text[start:].strip())
    return tuple(out)


def parse_compare(items: Sequence[str]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """``["Witch.attack=8,10", "Greataxe.cost=0"]`` -> the what-if axes, in order: each a card field
    (``CARD.FIELD``) and the values to try; several axes make a cross product."""
    axes: list[tuple[str, tuple[str, ...]]] = []
    for item in items:
        target, eq, rest = item.partition("=")
        target = target.strip()
        if not eq or "." not in target or not rest.strip():
            raise OptionError(f"--compare expects CARD.FIELD=VALUE[,VALUE...], like 'Witch.attack=10'; got {item!r}")
        if any(k == target for k, _ in axes):
            raise OptionError(f"--compare {target!r} given twice; list its values in one: {target}=8,10")
        values = split_values(rest)
        if any(not v for v in values):
            raise OptionError(f"--compare {target!r}: empty value in {rest!r}")
        if len(set(values)) != len(values):
            raise OptionError(f"--compare {target!r}: a value is listed twice in {rest!r}")
        axes.append((target, values))
    return tuple(axes)


def make_plan(
    game_id: str,
    *,
    options: Mapping[str, JSON] | None = None,
    seats: str = "random",
    games: int = 100,
    seed: int = 0,
    grid: Sequence[tuple[str, Sequence[str]]] = (),
    records: bool = False,
    max_decisions: int = 1_000_000,
    card_edits: Sequence[str] = (),
    compare: Sequence[tuple[str, Sequence[str]]] = (),
) -> Plan:
    """Build and validate a plan: every setting's options and card edits load, every agent spec builds.

    ``card_edits`` apply to every setting. ``compare`` axes (:func:`parse_compare`) add, at every grid
    point, one setting per combination of their values, compared with the unedited setting there.

    Raises :class:`OptionError` naming what is wrong (unknown game or option, bad agent spec, a seat
    list whose length does not divide the number of players), and
    :class:`~cardtable.engine.CardDataError` for a card edit the card file refuses.
    """
    if games < 1:
        raise OptionError(f"--games must be at least 1, got {games}")
    if max_decisions < 1:
        raise OptionError(f"the decision limit must be at least 1, got {max_decisions}")
    cls = cardtable.games.game_class(game_id)
    module = getattr(cls, "__module__", "")
    # Built-in games import themselves in any process; a game registered at run time (a plug-in,
    # a test's game) must be registered again in worker processes, from its import path.
    factory = None if module.startswith("cardtable.games.") else f"{module}:{getattr(cls, '__qualname__', '')}"
    base = dict(options or {})
    axes = [(k, tuple(v)) for k, v in grid]
    whatif = [(k, tuple(v)) for k, v in compare]
    edits = tuple(canonical_edits(game_id, list(card_edits)))
    arms: list[tuple[str, tuple[str, ...]]] = [("original cards" if whatif else "", ())]
    for combo in itertools.product(*(values for _, values in whatif)) if whatif else ():
        texts = tuple(f"{target}={value}" for (target, _), value in zip(whatif, combo, strict=True))
        arms.append((" ".join(canonical_edits(game_id, list(texts))), texts))
    settings: list[Setting] = []
    for combo in itertools.product(*(values for _, values in axes)):
        opts = dict(base)
        seat_text = seats
        parts = []
        for (key, _), value in zip(axes, combo, strict=True):
            parts.append(f"{key}={value}")
            if key == "seats":
                seat_text = value
            else:
                opts[key] = value  # text, as from a command line: the game's option types coerce it
        game = cardtable.load(game_id, card_edits=edits, **opts)
        specs = tuple(split_specs(seat_text))
        if game.players % len(specs):
            raise OptionError(
                f"{len(specs)} agent specs ({', '.join(specs)}) for a {game.players}-player game: give one "
                "spec for every seat, one for all, or a list the number of players is a multiple of"
            )
        for spec in specs:
            make_agent(spec, game, 0)  # validates the spec now rather than in a worker
        names = tuple(game.seat_name(seat) for seat in range(game.players))
        original = len(settings)
        for arm_label, arm_edits in arms:
            label = " ".join([*parts, arm_label]).strip() or "default"
            if arm_edits:
                armed = cardtable.load(game_id, card_edits=(*edits, *arm_edits), **opts)
                setting = Setting(
                    label, dict(armed.options), specs, armed.config_hash, names, armed.card_edits, original
                )
            else:
                # The first grid point's unedited game is every other grid point's baseline.
                setting = Setting(
                    label, dict(game.options), specs, game.config_hash, names, edits, 0 if original else None
                )
            settings.append(setting)
    return Plan(
        game=game_id,
        settings=tuple(settings),
        games=games,
        seed=seed,
        records=records,
        max_decisions=max_decisions,
        grid=tuple(axes),
        card_edits=edits,
        compare=tuple(whatif),
        factory=factory,
    )


REPEATED_FLAGS = {"vary": "--vary", "targets": "--target"}
"""Manifest keys that hold one typed text per use of a repeatable flag (``cardtable tune``)."""


def manifest_differences(old: Mapping[str, Any], new: Mapping[str, Any], this: str = "this run") -> list[str]:
    """Human-readable differences between two manifests (empty when a resume is safe): one short
    phrase per run parameter, and per setting its agents, options and card edits by name, so that the
    one-line refusal says what changed (``seats: folder has heuristic,random, this run has random``)
    instead of printing both manifests. ``this`` names the new side (``this search`` for a tune)."""
    out = []
    for key in sorted(set(old) | set(new)):
        a, b = old.get(key), new.get(key)
        if a == b:
            continue
        if key == "settings" and isinstance(a, list) and isinstance(b, list):
            out += _settings_differences(a, b, this)
        elif key in ("grid", "compare"):  # [[KEY, [V1, V2]], ...] as typed: KEY=V1,V2
            out.append(f"--{key}: folder has {_axes(a)}, {this} has {_axes(b)}")
        elif key in REPEATED_FLAGS:
            out.append(f"{REPEATED_FLAGS[key]}: folder has {_typed(a)}, {this} has {_typed(b)}")
        else:
            out.append(f"{key.replace('_', ' ')}: folder has {brief(a)}, {this} has {brief(b)}")
    return list(dict.fromkeys(out))  # the run's card edits are also each setting's: said once


def _typed(value: Any) -> str:
    """Texts of a repeated flag, each as typed: ``Clock.ticks=5..9 and length-turns=8``."""
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return " and ".join(value)
    return brief(value)


def brief(value: Any) -> str:
    """A manifest value as a designer typed it: ``heuristic,random``, ``players=3``, ``(none)``, ``30``."""
    if value is None or value == [] or value == "" or value == {}:
        return "(none)"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Mapping):
        return ",".join(f"{k}={brief(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ",".join(brief(v) if isinstance(v, list | tuple) else str(v) for v in value)
    return str(value)


def _axes(value: Any) -> str:
    try:
        return " ".join(f"{k}={brief(v)}" for k, v in value) or "(none)"
    except (TypeError, ValueError):
        return brief(value)


def _settings_differences(old: Sequence[Any], new: Sequence[Any], this: str) -> list[str]:
    if len(old) != len(new) or not all(isinstance(x, Mapping) for x in (*old, *new)):
        labels = [str(x.get("label", "?")) if isinstance(x, Mapping) else "?" for x in old]
        mine = [str(x.get("label", "?")) if isinstance(x, Mapping) else "?" for x in new]
        return [f"settings: folder has {len(old)} ({', '.join(labels)}), {this} has {len(new)} ({', '.join(mine)})"]
    out: list[str] = []
    for a, b in zip(old, new, strict=True):
        where = f" of setting {b.get('label')}" if len(new) > 1 else ""
        found = len(out)
        if a.get("seats") != b.get("seats"):
            out.append(f"seats{where}: folder has {brief(a.get('seats'))}, {this} has {brief(b.get('seats'))}")
        oa, ob = a.get("options") or {}, b.get("options") or {}
        for name in sorted(set(oa) | set(ob)):
            if oa.get(name) != ob.get(name):
                out.append(f"option {name}{where}: folder has {brief(oa.get(name))}, {this} has {brief(ob.get(name))}")
        if a.get("card_edits") != b.get("card_edits"):
            out.append(
                f"card edits{where}: folder has {brief(a.get('card_edits'))}, {this} has {brief(b.get('card_edits'))}"
            )
        if len(out) == found:  # what remains (the cards' hash, seat names, label) follows from the game itself
            fields = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
            out.append(
                f"setting {b.get('label')}: {', '.join(fields)} differ (another version of the game or its cards?)"
            )
    return out
