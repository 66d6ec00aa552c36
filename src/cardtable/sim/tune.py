"""Balance search: which card numbers (and options) bring a game's figures to the designer's targets.

``cardtable tune GAME --vary 'Greataxe.cost=0..3' --vary 'Witch.attack=8..14' --target
first-player-edge=0 --budget 20000`` searches the settings the ``--vary`` axes span for the one whose
figures come closest to the ``--target`` values, playing at most ``budget`` games.

How it searches, and why it can be trusted:

* **Common random numbers.** Game ``i`` of every setting is dealt from ``seed + i`` with the same seat
  rotation and agent seeds, so two settings differ only by their cards: the noise of the deal cancels
  from their comparison, and a small difference shows with fewer games.
* **Optuna proposes, games decide.** Each round, Optuna's TPE sampler (a model of which settings score
  well, suited to noisy objectives) is shown every setting played so far with its current score and
  proposes new ones to try, each with a first batch of games.
* **Racing adds games to promising settings.** A setting stays in the race while its score's 95%
  range reaches below the lowest upper end of any setting's, and no other racer is clearly better on
  the games both played (paired: common random numbers). Each round the racers with the fewest games
  double them (spending about what exploring spends, while there is more to explore), so the games go
  where they can change the answer. The search stops early once one setting is left, each of its
  targets is decided, and either every setting was tried or it meets every target.
* **Claims follow the intervals.** A target is *met* only when the figure's whole 95% interval lies
  within the target's tolerance, *unmet* when the whole interval lies outside it, and *undecided*
  otherwise; the racers still in the race are named with the best (the one among those with at least
  half the most games that scores lowest). A target no setting
  reaches is reported unmet, with the setting that came closest.
* **Resumable and deterministic.** Every game lands in ``results.jsonl`` as it finishes, and the whole
  search is a pure function of the run's parameters and those games: running the same command again
  replays the search, takes every game it has from the folder and plays only the missing ones, so an
  interrupted search finishes exactly as an uninterrupted one would. A larger ``--budget`` continues
  a finished search.

The score of a setting is the sum over targets of ((figure - target) / tolerance)².
"""

from __future__ import annotations

import json
import math
import re
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cardtable
from cardtable.agents.registry import make_agent, split_specs
from cardtable.engine.card_edits import canonical_edits
from cardtable.engine.errors import CardtableError, OptionError
from cardtable.engine.game import JSON
from cardtable.engine.rng import Rng
from cardtable.sim.plan import Plan, Setting, manifest_differences, split_values
from cardtable.sim.progress import ProgressBar
from cardtable.sim.run import Appender, default_workers, execute
from cardtable.sim.stats import Interval, paired_difference, wilson
from cardtable.sim.store import REQUIRED, RESULTS, ResultsError, iter_lines, make_folder, repair_tail
from cardtable.sim.tally import WIN_UNITS, Tally, win_units

TUNE_FORMAT = "cardtable-tune/1"
MANIFEST = "tune.json"
SETTINGS = "settings.jsonl"
RANGE_LIMIT = 1000
"""Most values one ``--vary`` axis may span."""


class TuneError(CardtableError):
    """A tune that cannot run as asked (bad axis or target, a folder holding another search)."""


# -- what is varied ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Axis:
    """One varied quantity: a card field (``Greataxe.cost``) or a game option (``turn-limit``), and
    its values (texts, in order); ``bounds`` for an integer range ``lo..hi``."""

    name: str
    values: tuple[str, ...]
    bounds: tuple[int, int] | None = None

    @property
    def card(self) -> bool:
        return "." in self.name

    def text(self) -> str:
        if self.bounds is not None:
            return f"{self.name}={self.bounds[0]}..{self.bounds[1]}"
        return f"{self.name}={','.join(self.values)}"


_RANGE = re.compile(r"\s*([-+]?\d{1,9})\s*\.\.\s*([-+]?\d{1,9})\s*")


def parse_vary(items: Sequence[str]) -> tuple[Axis, ...]:
    """``["Greataxe.cost=0..3", "variant=standard,care-bear"]`` -> the axes of the search."""
    axes: list[Axis] = []
    for item in items:
        name, eq, rest = item.partition("=")
        name = name.strip()
        if not eq or not name or not rest.strip():
            raise TuneError(
                f"--vary expects CARD.FIELD=LO..HI, CARD.FIELD=V1,V2,... or OPTION=..., like 'Greataxe.cost=0..3'; "
                f"got {item!r}"
            )
        if any(a.name == name for a in axes):
            raise TuneError(f"--vary {name!r} given twice")
        m = _RANGE.fullmatch(rest)
        if m is not None:
            lo, hi = int(m.group(1)), int(m.group(2))
            if lo > hi:
                raise TuneError(f"--vary {name}: the range {lo}..{hi} is empty (write the smaller bound first)")
            if hi - lo + 1 > RANGE_LIMIT:
                raise TuneError(f"--vary {name}: {hi - lo + 1} values; at most {RANGE_LIMIT} per axis")
            axes.append(Axis(name, tuple(str(v) for v in range(lo, hi + 1)), (lo, hi)))
            continue
        values = split_values(rest)
        if any(not v for v in values) or len(set(values)) != len(values):
            raise TuneError(f"--vary {name}: empty or repeated value in {rest!r}")
        if len(values) > RANGE_LIMIT:
            raise TuneError(f"--vary {name}: {len(values)} values; at most {RANGE_LIMIT} per axis")
        axes.append(Axis(name, values))
    if not axes:
        raise TuneError("give at least one --vary axis")
    return tuple(axes)


# -- what is aimed at -------------------------------------------------------------------------------

METRICS: dict[str, tuple[str, str]] = {
    "first-player-edge": ("the first player's edge (win share over a fair share)", "share"),
    "length-turns": ("game length in turns (mean)", "count"),
    "length-decisions": ("game length in decisions (mean)", "count"),
    "win-share": ("win share of an agent spec (win-share:SPEC) or a seat (win-share:P1)", "share"),
    "end": ("share of games ending for a reason (end:REASON)", "share"),
}


@dataclass(frozen=True)
class Target:
    """A figure to bring to ``value`` within ``tolerance`` (shares as fractions: 0.02 is 2 points)."""

    metric: str
    value: float
    tolerance: float

    @property
    def kind(self) -> str:
        return self.metric.partition(":")[0]

    @property
    def unit(self) -> str:
        return METRICS[self.kind][1]

    def text(self) -> str:
        if self.unit == "share":
            return f"{self.metric}={100 * self.value:g}%±{100 * self.tolerance:g}"
        return f"{self.metric}={self.value:g}±{self.tolerance:g}"


def _number(text: str, share: bool, what: str) -> float:
    t = text.strip()
    percent = t.endswith("%")
    try:
        value = float(t[:-1] if percent else t)
    except ValueError:
        raise TuneError(f"{what}: {text!r} is not a number") from None
    if not math.isfinite(value):
        raise TuneError(f"{what}: {text!r} is not a finite number")
    if percent:
        if not share:
            raise TuneError(f"{what}: a percentage is for shares, not for {text!r}")
        value /= 100
    return value


def parse_target(text: str) -> Target:
    """``first-player-edge=0``, ``length-turns=30±2`` (or ``30+-2``), ``win-share:heuristic=55%``,
    ``end:turn-limit=0.1``. Without a tolerance: 2 points for shares, 5% of the target (at least 0.5)
    for lengths."""
    metric, eq, rest = text.partition("=")
    metric = metric.strip()
    kind, colon, arg = metric.partition(":")
    if not eq or kind not in METRICS or (kind in ("win-share", "end")) != bool(colon and arg):
        known = "; ".join(f"{k} ({v[0]})" for k, v in METRICS.items())
        raise TuneError(f"--target expects METRIC=VALUE[±TOLERANCE]; got {text!r}. Metrics: {known}")
    share = METRICS[kind][1] == "share"
    value_text, _, tol_text = rest.replace("+-", "±").partition("±")
    value = _number(value_text, share, f"--target {metric}")
    if tol_text:
        tolerance = _number(tol_text, share, f"--target {metric} tolerance")
    else:
        tolerance = 0.02 if share else max(0.5, 0.05 * abs(value))
    if tolerance <= 0:
        raise TuneError(f"--target {metric}: the tolerance must be positive")
    if share and not (-1 <= value <= 1):
        raise TuneError(f"--target {metric}: a share lies between 0 and 1 (or 0% and 100%), got {value_text!r}")
    return Target(metric, value, tolerance)


# -- one setting's figures ----------------------------------------------------------------------------


class Figures:
    """The running figures of one setting's games (prefix of game indices 0..n-1), and each target
    figure's value game by game (for paired comparisons between settings on the same deals)."""

    def __init__(self, players: int, metrics: Sequence[str] = (), seat_names: Sequence[str] = ()) -> None:
        self.metrics = tuple(metrics)
        self.seat_names = tuple(seat_names)
        self.per_game: dict[str, list[float]] = {m: [] for m in self.metrics}
        self.games = 0
        self.players = players
        self.first_units = 0
        self.first_games = 0
        self.total_units = 0
        self.turns = Tally()
        self.decisions = Tally()
        self.seat_units = [0] * players
        self.agent_units: dict[str, int] = {}
        self.agent_seats: dict[str, int] = {}
        self.reasons: dict[str, int] = {}

    def add(self, c: Compact) -> None:
        wins, seats, first, turns, decisions, reason = c
        self.games += 1
        if first is not None:
            self.first_units += wins[first]
            self.first_games += 1
        self.total_units += sum(wins)
        self.turns.add(turns)
        self.decisions.add(decisions)
        for seat, spec in enumerate(seats):
            self.seat_units[seat] += wins[seat]
            self.agent_units[spec] = self.agent_units.get(spec, 0) + wins[seat]
            self.agent_seats[spec] = self.agent_seats.get(spec, 0) + 1
        self.reasons[reason] = self.reasons.get(reason, 0) + 1
        for m in self.metrics:
            self.per_game[m].append(game_value(m, c, self.seat_names))

    def interval(self, metric: str, seat_names: Sequence[str]) -> Interval:
        """A figure with its 95% interval (Wilson for shares, t for means)."""
        kind, _, arg = metric.partition(":")
        n = self.games
        if kind == "first-player-edge":
            fair = self.total_units / WIN_UNITS / (n * self.players) if n else 0.0
            w = wilson(self.first_units / WIN_UNITS, self.first_games)
            return Interval(w.estimate - fair, w.low - fair, w.high - fair, w.n)
        if kind == "length-turns":
            return self.turns.mean_interval()
        if kind == "length-decisions":
            return self.decisions.mean_interval()
        if kind == "end":
            return wilson(self.reasons.get(arg, 0), n)
        if arg in seat_names:
            return wilson(self.seat_units[list(seat_names).index(arg)] / WIN_UNITS, n)
        return wilson(self.agent_units.get(arg, 0) / WIN_UNITS, self.agent_seats.get(arg, 0))


def game_value(metric: str, c: Compact, seat_names: Sequence[str]) -> float:
    """One game's contribution to a target figure (the figure is the mean of these over the games):
    the first player's share minus the game's fair share, its length, a seat's or an agent's share,
    whether it ended for a reason."""
    wins, seats, first, turns, decisions, reason = c
    kind, _, arg = metric.partition(":")
    if kind == "first-player-edge":
        return 0.0 if first is None else (wins[first] - sum(wins) / len(wins)) / WIN_UNITS
    if kind == "length-turns":
        return float(turns)
    if kind == "length-decisions":
        return float(decisions)
    if kind == "end":
        return float(reason == arg)
    if arg in seat_names:
        return wins[list(seat_names).index(arg)] / WIN_UNITS
    mine = [w for w, spec in zip(wins, seats, strict=True) if spec == arg]
    return sum(mine) / len(mine) / WIN_UNITS if mine else 0.0


Compact = tuple[tuple[int, ...], tuple[str, ...], int | None, int, int, str]
"""What the search keeps of a game: win units per seat, seat specs, first seat, turns, decisions, reason."""


def compact(line: Mapping[str, Any]) -> Compact:
    return (
        tuple(win_units(float(w)) for w in line["wins"]),
        tuple(line["seats"]),
        line.get("first"),
        int(line["turns"]),
        int(line["decisions"]),
        str(line["reason"]),
    )


@dataclass
class Score:
    """A setting's distance from the targets: estimate and a conservative 95% range, each target's
    figure and verdict."""

    estimate: float
    low: float
    high: float
    figures: dict[str, Interval]
    verdicts: dict[str, str]


def verdict(target: Target, i: Interval) -> str:
    """``met`` (the whole interval within the tolerance), ``unmet`` (wholly outside), else ``undecided``."""
    if i.n == 0 or not (math.isfinite(i.low) and math.isfinite(i.high)):
        return "undecided"
    lo, hi = target.value - target.tolerance, target.value + target.tolerance
    if lo <= i.low and i.high <= hi:
        return "met"
    if i.high < lo or i.low > hi:
        return "unmet"
    return "undecided"


def score(targets: Sequence[Target], figures: Figures, seat_names: Sequence[str]) -> Score:
    est = low = high = 0.0
    found: dict[str, Interval] = {}
    verdicts: dict[str, str] = {}
    for t in targets:
        i = figures.interval(t.metric, seat_names)
        found[t.metric] = i
        verdicts[t.metric] = verdict(t, i)
        if i.n == 0 or not math.isfinite(i.estimate):
            return Score(math.inf, math.inf, math.inf, found, verdicts)
        d = (i.estimate - t.value) / t.tolerance
        est += d * d
        if not (math.isfinite(i.low) and math.isfinite(i.high)):
            high = math.inf
            continue
        a, b = (i.low - t.value) / t.tolerance, (i.high - t.value) / t.tolerance
        low += 0.0 if a <= 0 <= b else min(a * a, b * b)
        high += max(a * a, b * b)
    return Score(est, low, high, found, verdicts)


# -- the search -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TuneSpec:
    """Everything that defines a search (its folder's ``tune.json``; the budget is not part of it)."""

    game: str
    options: dict[str, JSON]
    seats: str
    card_edits: tuple[str, ...]
    axes: tuple[Axis, ...]
    targets: tuple[Target, ...]
    seed: int = 0
    max_decisions: int = 1_000_000
    first: int | None = None
    """Games in a new setting's first batch (default: a hundredth of the first run's budget, 20 to
    200). Fixed when the search starts, so a larger budget later continues the same search."""

    def manifest(self) -> dict[str, JSON]:
        return {
            "format": TUNE_FORMAT,
            "game": self.game,
            "options": dict(self.options),
            "seats": self.seats,
            "card_edits": list(self.card_edits),
            "vary": [a.text() for a in self.axes],
            "targets": [t.text() for t in self.targets],
            "seed": self.seed,
            "max_decisions": self.max_decisions,
            "engine": cardtable.__version__,
        }


@dataclass
class Candidate:
    """A setting the search has played: its place in ``settings.jsonl``, its values, games, figures."""

    index: int
    key: tuple[str, ...]
    setting: Setting
    games: int = 0
    figures: Figures | None = None
    score: Score | None = None
    order: int = 0
    """When the search first tried it (0 = first)."""


@dataclass
class TuneResult:
    """The outcome: every candidate, the best, those not told apart from it, the games played."""

    spec: TuneSpec
    candidates: list[Candidate]
    best: Candidate | None
    contenders: list[Candidate]
    budget: int
    games: int
    played_now: int
    stopped: str
    """Why the search stopped: "budget" or "settled" (one setting left, every target decided)."""
    closest: dict[str, Candidate] = field(default_factory=dict)
    """Per target, the candidate whose figure came closest to it (among those with the most games)."""


def _seat_names(setting: Setting, players: int) -> list[str]:
    return list(setting.seat_names) if len(setting.seat_names) == players else [f"P{s + 1}" for s in range(players)]


class Tuner:
    """Runs one search into a folder (see the module docstring); :meth:`run` returns a :class:`TuneResult`."""

    def __init__(
        self,
        spec: TuneSpec,
        folder: Path,
        budget: int,
        *,
        workers: int | None = None,
        backend: str = "local",
        address: str | None = None,
        progress: bool = True,
        on_batch: Callable[[int], None] | None = None,
    ) -> None:
        if budget < 1:
            raise TuneError(f"--budget must be at least 1 game, got {budget}")
        self.spec = spec
        self.folder = folder
        self.budget = budget
        self.workers = workers if workers is not None else default_workers()
        self.backend = backend
        self.address = address
        self.progress = progress
        self.on_batch = on_batch
        self.candidates: list[Candidate] = []
        self.by_key: dict[tuple[str, ...], Candidate] = {}
        self.stored: dict[tuple[int, int], Compact] = {}
        self.registry: dict[tuple[str, ...], Setting] = {}
        self.games = 0
        self.played_now = 0
        self.space = math.prod(len(a.values) for a in spec.axes)
        self.players = 0
        self.first = spec.first if spec.first is not None else max(20, min(200, budget // 100))
        if self.first < 1:
            raise TuneError(f"the first batch of a setting must be at least 1 game, got {self.first}")
        self._check()

    # -- setting up ------------------------------------------------------------------------------
    def _check(self) -> None:
        """Validate the axes (every value of every axis loads) and targets before any game."""
        spec = self.spec
        base = self._setting(tuple(a.values[0] for a in spec.axes))
        game = base.load(spec.game)
        self.players = game.players
        for k, axis in enumerate(spec.axes):
            for value in axis.values:
                key = tuple(value if j == k else a.values[0] for j, a in enumerate(spec.axes))
                self._setting(key).load(spec.game)
        specs = split_specs(spec.seats)
        if game.players % len(specs):
            raise OptionError(f"{len(specs)} agent specs for a {game.players}-player game")
        for s in specs:
            make_agent(s, game, 0)
        names = [game.seat_name(s) for s in range(game.players)]
        for t in spec.targets:
            kind, _, arg = t.metric.partition(":")
            if kind == "first-player-edge" and game.players < 2:
                raise TuneError("first-player-edge needs a game of two or more players")
            if kind == "win-share" and arg not in names and arg not in specs:
                raise TuneError(
                    f"--target {t.metric}: {arg!r} is neither a seat ({', '.join(names)}) nor a listed agent"
                )

    def _setting(self, key: tuple[str, ...]) -> Setting:
        """The setting of one combination of axis values (validated: its game loads)."""
        cached = self.registry.get(key)
        if cached is not None:
            return cached
        spec = self.spec
        options = dict(spec.options)
        edits = list(spec.card_edits)
        for axis, value in zip(spec.axes, key, strict=True):
            if axis.card:
                edits.append(f"{axis.name}={value}")
            else:
                options[axis.name] = value
        game = cardtable.load(spec.game, card_edits=edits, **options)
        specs = tuple(split_specs(spec.seats))
        label = " ".join(f"{a.name}={v}" for a, v in zip(spec.axes, key, strict=True))
        names = tuple(game.seat_name(s) for s in range(game.players))
        setting = Setting(
            label, dict(game.options), specs, game.config_hash, names, tuple(canonical_edits(spec.game, edits))
        )
        self.registry[key] = setting
        return setting

    def _open(self) -> None:
        """Create the folder or check it holds this search; read its settings and games."""
        folder = self.folder
        make_folder(folder)
        manifest = self.spec.manifest()
        path = folder / MANIFEST
        if path.exists():
            try:
                old = json.loads(path.read_text())
            except (OSError, json.JSONDecodeError) as exc:
                raise ResultsError(f"{path}: not a readable tune manifest ({exc})") from None
            if not isinstance(old, dict):
                raise ResultsError(f"{path}: not a tune manifest")
            if self.spec.first is None and isinstance(old.get("first"), int) and old["first"] > 0:
                self.first = old["first"]  # the search's own first batch, whatever the budget now
            manifest["first"] = self.first
            diffs = manifest_differences(old, manifest, this="this search")
            if diffs:
                raise TuneError(
                    f"{folder} holds a different search; refusing to resume into it:\n  " + "\n  ".join(diffs)
                )
        else:
            manifest["first"] = self.first
            if (folder / RESULTS).exists() and (folder / RESULTS).stat().st_size:
                raise TuneError(f"{folder} has a {RESULTS} but no {MANIFEST}; use an empty folder")
            tmp = folder / (MANIFEST + ".tmp")
            tmp.write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
            tmp.replace(path)
        settings = folder / SETTINGS
        repair_tail(settings)
        if settings.exists():
            for number, obj in iter_lines(settings, ("setting", "key")):
                if obj["setting"] != len(self.candidates):
                    raise ResultsError(f"{settings}:{number}: setting {obj['setting']} out of order")
                key = tuple(str(v) for v in obj["key"])
                if len(key) != len(self.spec.axes) or key in self.by_key:
                    raise ResultsError(f"{settings}:{number}: not a setting of this search")
                self._add_candidate(key, write=False)
        results = folder / RESULTS
        repair_tail(results)
        if results.exists():
            for number, line in iter_lines(results, REQUIRED):
                k, i = line["setting"], line["index"]
                if not (type(k) is int and 0 <= k < len(self.candidates) and type(i) is int and i >= 0):
                    raise ResultsError(f"{results}:{number}: game {i!r} of setting {k!r} is not part of this search")
                if (k, i) in self.stored:
                    raise ResultsError(f"{results}:{number}: game {i} of setting {k} is given twice")
                self.stored[(k, i)] = compact(line)

    def _add_candidate(self, key: tuple[str, ...], write: bool = True) -> Candidate:
        setting = self._setting(key)
        c = Candidate(len(self.candidates), key, setting)
        self.candidates.append(c)
        self.by_key[key] = c
        if write:
            with (self.folder / SETTINGS).open("a", encoding="utf-8") as fh:
                fh.write(json.dumps({"setting": c.index, "key": list(key), **setting.to_json()}) + "\n")
        return c

    # -- playing ---------------------------------------------------------------------------------
    def _plan(self) -> Plan:
        return Plan(
            game=self.spec.game,
            settings=tuple(c.setting for c in self.candidates),
            games=1,
            seed=self.spec.seed,
            max_decisions=self.spec.max_decisions,
            factory=_factory(self.spec.game),
        )

    def _grow(self, wanted: Sequence[tuple[Candidate, int]], bar: ProgressBar) -> None:
        """Give each candidate games 0..n-1: take the stored ones, play the rest, in index order."""
        missing = [(c.index, i) for c, n in wanted for i in range(c.games, n) if (c.index, i) not in self.stored]
        if missing:
            plan = self._plan()
            batches = _batches(missing, self.workers)
            results = Appender(self.folder / RESULTS)
            try:
                with execute(plan, batches, self.workers, self.backend, self.address) as stream:
                    for batch in stream:
                        results.write(batch.results)
                        for raw in batch.results.splitlines():
                            line = json.loads(raw)
                            self.stored[(line["setting"], line["index"])] = compact(line)
                        self.played_now += batch.games
                        bar.advance(batch.games)
                        if self.on_batch is not None:
                            self.on_batch(self.played_now)
            finally:
                results.close()
        bar.advance(sum(n - c.games for c, n in wanted) - len(missing))
        for c, n in wanted:
            if c.figures is None:
                players = len(c.setting.seat_names) or self.players
                names = _seat_names(c.setting, players)
                c.figures = Figures(players, [t.metric for t in self.spec.targets], names)
            for i in range(c.games, n):
                c.figures.add(self.stored[(c.index, i)])
            self.games += n - c.games
            c.games = n
            c.score = score(self.spec.targets, c.figures, _seat_names(c.setting, c.figures.players))

    # -- deciding ----------------------------------------------------------------------------------
    def _contenders(self) -> list[Candidate]:
        """The settings that could still be the best (their score's range reaches below the lowest
        upper end of any), the surest first: lowest upper end, then lowest estimate."""
        played = [c for c in self.candidates if c.score is not None and c.games]
        if not played:
            return []
        best_high = min(c.score.high for c in played if c.score is not None)
        out = [c for c in played if c.score is not None and c.score.low <= best_high]
        return sorted(out, key=lambda c: (c.score.high, c.score.estimate, c.order) if c.score else (math.inf,) * 3)

    def _propose(self, count: int, round_no: int) -> list[tuple[str, ...]]:
        """Up to ``count`` settings not tried yet, proposed by Optuna's TPE sampler from the scores so far."""
        tried = {c.key for c in self.candidates if c.games}
        if count <= 0 or len(tried) >= self.space:
            return []
        import optuna
        from optuna.distributions import CategoricalDistribution, IntDistribution
        from optuna.samplers import TPESampler
        from optuna.trial import create_trial

        optuna.logging.set_verbosity(optuna.logging.WARNING)
        dists: dict[str, Any] = {}
        for k, a in enumerate(self.spec.axes):
            name = f"{k}:{a.name}"
            dists[name] = IntDistribution(*a.bounds) if a.bounds is not None else CategoricalDistribution(a.values)

        def params(key: tuple[str, ...]) -> dict[str, Any]:
            return {
                name: int(v) if a.bounds is not None else v
                for (name, a), v in zip(zip(dists, self.spec.axes, strict=True), key, strict=True)
            }

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            sampler = TPESampler(
                seed=_derive(self.spec.seed, round_no), n_startup_trials=min(8, self.space), multivariate=True
            )
            study = optuna.create_study(direction="minimize", sampler=sampler)
            for c in sorted(self.candidates, key=lambda c: c.order):
                if c.score is not None and math.isfinite(c.score.estimate):
                    study.add_trial(create_trial(params=params(c.key), distributions=dists, value=c.score.estimate))
            out: list[tuple[str, ...]] = []
            for _ in range(12 * count):
                if len(out) == count:
                    break
                trial = study.ask(dists)
                key = tuple(str(trial.params[name]) for name in dists)
                known = self.by_key.get(key)
                if known is not None and known.score is not None and key in tried:
                    study.tell(trial, known.score.estimate)  # a setting tried already: the model learns it again
                elif key in out:
                    study.tell(trial, state=optuna.trial.TrialState.FAIL)
                else:
                    out.append(key)
                    study.tell(trial, state=optuna.trial.TrialState.FAIL)  # its games come later
        # TPE may keep returning to known settings in a small space: fill up with untried ones, in a
        # fixed pseudo-random order, so every round explores.
        if len(out) < count:
            r = Rng(_derive(self.spec.seed, 10_000 + round_no))
            for _ in range(50 * count):
                if len(out) == count or len(tried) + len(out) >= self.space:
                    break
                key = tuple(a.values[r.below(len(a.values))] for a in self.spec.axes)
                if key not in tried and key not in out:
                    out.append(key)
        return out

    def clearly_worse(self, c: Candidate, b: Candidate) -> bool:
        """Whether ``c`` is clearly further from the targets than ``b``, judged on the games both
        played (the same deals: common random numbers): each target figure of ``c`` is ``b``'s
        figure over those games plus their paired difference, whose 95% interval bounds how close
        ``c`` can be; ``c`` is clearly worse when even its closest is further than ``b``."""
        if c.figures is None or b.figures is None:
            return False
        m = min(c.games, b.games)
        if m < 2:
            return False
        low_c = 0.0
        score_b = 0.0
        for t in self.spec.targets:
            xs = b.figures.per_game[t.metric][:m]
            ys = c.figures.per_game[t.metric][:m]
            mean_b = math.fsum(xs) / m
            d = paired_difference(xs, ys)
            near = mean_b + min(max(t.value - mean_b, d.low), d.high)  # c's figure closest to the target
            low_c += ((near - t.value) / t.tolerance) ** 2
            score_b += ((mean_b - t.value) / t.tolerance) ** 2
        return low_c > score_b

    def _best(self, survivors: Sequence[Candidate]) -> list[Candidate]:
        """The survivors, the best first: among those with at least half the games of the most
        played, the lowest score; then the rest (too few games to rank) by score."""
        if not survivors:
            return []
        most = max(c.games for c in survivors)

        def rank(c: Candidate) -> tuple[int, float, int]:
            est = c.score.estimate if c.score is not None else math.inf
            return (0 if 2 * c.games >= most else 1, est, c.order)

        return sorted(survivors, key=rank)

    def _racing(self, contenders: Sequence[Candidate]) -> list[Candidate]:
        """The contenders that no other contender is clearly better than (paired on the same deals,
        see :meth:`clearly_worse`); never none."""
        out = [c for c in contenders if not any(b is not c and self.clearly_worse(c, b) for b in contenders)]
        return out or list(contenders[:1])

    def _settled(self, contenders: Sequence[Candidate]) -> bool:
        """One setting left that could be the best, every target decided for it, and nothing left to
        try that could beat it (every setting tried, or every target met)."""
        if len(contenders) != 1 or contenders[0].score is None:
            return False
        verdicts = contenders[0].score.verdicts.values()
        if any(v == "undecided" for v in verdicts):
            return False
        explored = sum(1 for c in self.candidates if c.games) >= self.space
        return explored or all(v == "met" for v in verdicts)

    def schedule(self) -> tuple[int, int, int]:
        """(settings tried in the first round, settings tried in each later round, games in a new
        setting's first batch): by default about a hundredth of the budget per new setting (20 to 200
        games), so a search explores dozens of settings before it spends the rest where it matters."""
        initial = min(self.space, max(8, 4 * len(self.spec.axes)))
        return initial, 4, self.first

    def run(self) -> TuneResult:
        self._open()
        spec = self.spec
        budget = self.budget
        initial, per_round, first = self.schedule()
        bar = ProgressBar(f"tune {spec.game}", budget, 0, enabled=self.progress)
        stopped = "budget"
        try:
            round_no = 0
            while self.games < budget:
                left = budget - self.games
                wanted: list[tuple[Candidate, int]] = []
                # Explore: new settings, each with a first batch of games.
                explored = 0
                for key in self._propose(initial if round_no == 0 else per_round, round_no):
                    if left <= 0:
                        break
                    c = self.by_key.get(key) or self._add_candidate(key)
                    c.order = c.index
                    n = min(first, left)
                    wanted.append((c, n))
                    left -= n
                    explored += n
                # Exploit: double the games of the (at most three) best settings that could still be the
                # best, spending about what exploring did while there is more to explore.
                contenders = self._racing(self._contenders())
                cap = left if explored == 0 else max(explored, 4 * first)
                # Racing: the survivors advance together, the fewest games first, so that the best and
                # those it cannot yet be told from end with comparable evidence.
                hopeful = sorted(contenders, key=lambda c: (c.games, c.order))
                for c in hopeful[:4]:
                    spend = min(c.games, left, cap)
                    if spend <= 0:
                        break
                    wanted.append((c, c.games + spend))
                    left -= spend
                    cap -= spend
                if not wanted or (round_no and self._settled(contenders)):
                    stopped = "settled"
                    break
                self._grow(wanted, bar)
                round_no += 1
        finally:
            bar.close()
        return self._result(stopped)

    def _result(self, stopped: str) -> TuneResult:
        played = [c for c in self.candidates if c.score is not None and c.games]
        contenders = self._best(self._racing(self._contenders()))
        best = contenders[0] if contenders else None
        closest: dict[str, Candidate] = {}
        for t in self.spec.targets:
            scored = [c for c in played if c.score is not None and c.score.figures[t.metric].n]
            if scored:
                closest[t.metric] = min(
                    scored,
                    key=lambda c: (abs(c.score.figures[t.metric].estimate - t.value) if c.score else math.inf, c.order),
                )
        return TuneResult(
            self.spec,
            sorted(played, key=lambda c: c.order),
            best,
            contenders,
            self.budget,
            self.games,
            self.played_now,
            stopped,
            closest,
        )


def _derive(seed: int, k: int) -> int:
    r = Rng(seed)
    return Rng(r.next64() ^ k).next64() >> 33


def _factory(game_id: str) -> str | None:
    cls = cardtable.games.game_class(game_id)
    module = getattr(cls, "__module__", "")
    return None if module.startswith("cardtable.games.") else f"{module}:{getattr(cls, '__qualname__', '')}"


def _batches(missing: Sequence[tuple[int, int]], workers: int) -> list[list[tuple[int, int]]]:
    """Games to play, grouped by game index (the same deal for every setting in one batch), in
    batches of about 1/(4 x workers) of them, at most 250."""
    by_index = sorted(missing, key=lambda p: (p[1], p[0]))
    size = max(1, min(250, math.ceil(len(by_index) / (4 * max(1, workers)))))
    return [list(by_index[k : k + size]) for k in range(0, len(by_index), size)]
