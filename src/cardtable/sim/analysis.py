"""The statistics of a simulation run, as one JSON-ready dict (the summary, plots and page are drawn from it).

Per setting:

* win share per agent and per seat with 95% Wilson intervals (a tied win counts as the seat's share,
  see :func:`cardtable.agents.ismcts.win_shares`), seats named as people name them (P1..Pn,
  Good/Evil);
* the first player's win share against a fair share (the mean win share per seat), and which seats
  moved first;
* game length in turns and decisions (mean, percentiles, whole-number histograms), and the forced
  decisions (a single legal action, applied without asking the agent): per game and their share;
* scores, end reasons (limit stops counted and flagged) and every string-valued ``result.details``
  entry tabulated (e.g. Mephisto solitaire's ``ranking``);
* per card *name* (copies together), per way of using it (played, acquired) and per agent: in how
  many of the agent's games it was used, how often, and the agent's win share in the games it used
  the card against the games it did not, with Newcombe's interval for the difference.

Across settings (a grid): each setting against the first on the *same* game indices — the same deals
with the same seat rotation — as paired differences of means with t intervals, each row named by
what it measures and the two settings by their labels ("players=4 vs players=2").
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from cardtable.sim.stats import (
    Interval,
    bin_counts,
    histogram,
    integer_histogram,
    mean_interval,
    paired_difference,
    percentile,
    proportion_difference,
    wilson,
)

PERCENTILES = (5, 10, 25, 50, 75, 90, 95)


def _interval(i: Interval) -> dict[str, Any]:
    out: dict[str, Any] = i.to_json()
    for k in ("estimate", "low", "high"):
        if isinstance(out[k], float) and not math.isfinite(out[k]):
            out[k] = None  # JSON has no NaN/inf
    return out


def distribution(values: Sequence[float], bins: int = 20) -> dict[str, Any]:
    """Mean (with t interval), min, max, percentiles and a histogram of ``values`` (whole-number
    bins when every value is a whole number, as turns and decisions are)."""
    whole = all(float(v).is_integer() for v in values)
    edges, counts = integer_histogram(values) if whole else histogram(values, bins)
    return {
        "n": len(values),
        "mean": _interval(mean_interval(values)),
        "min": min(values) if values else None,
        "max": max(values) if values else None,
        "percentiles": {str(q): percentile(values, q) for q in PERCENTILES} if values else {},
        "histogram": {"edges": edges, "counts": counts, "whole": whole},
    }


def shared_histogram(series: Mapping[str, Sequence[float]], bins: int = 20) -> dict[str, Any]:
    """One set of bins for several series (so their histograms can be drawn over each other) and each
    series' counts in them: ``{"edges": [...], "counts": {name: [...]}}``."""
    pooled = [v for values in series.values() for v in values]
    whole = all(float(v).is_integer() for v in pooled)
    edges = (integer_histogram(pooled) if whole else histogram(pooled, bins))[0]
    return {"edges": edges, "counts": {name: bin_counts(values, edges) for name, values in series.items()}}


def seat_names(names: Sequence[str], players: int) -> list[str]:
    """The stored seat names, or P1..Pn when the run did not store them."""
    return list(names) if len(names) == players else [f"P{s + 1}" for s in range(players)]


def listed_reward(line: Mapping[str, Any], j: int, listed: int) -> float:
    """The mean reward of the ``j``-th of ``listed`` listed agents in a game: the list repeats around
    the table, so the ``j``-th agent sits at every seat whose listed position is ``j`` mod ``listed``."""
    rewards = [float(w) for w, a in zip(line["wins"], line["agents"], strict=True) if a % listed == j]
    return math.fsum(rewards) / len(rewards)


def how_order(how: str) -> tuple[int, str]:
    """Ways of using a card in reading order: played (or used) before acquired, others after."""
    return ({"played": 0, "used": 0, "acquired": 1}.get(how, 2), how)


def card_rows(lines: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]] | None:
    """Per (way of use, card name, agent): how often the agent used the card and how it fared.

    None when the lines hold no card counts (a run made before they were collected). One row per
    card an agent used at least once; ``games`` counts the (game, seat) pairs in which the agent used
    it, out of ``of`` pairs the agent played.
    """
    if any("cards" not in line for line in lines):
        return None
    seats_of: Counter[str] = Counter()
    wins_of: dict[str, float] = defaultdict(float)
    games: Counter[tuple[str, str, str]] = Counter()
    uses: Counter[tuple[str, str, str]] = Counter()
    wins: dict[tuple[str, str, str], float] = defaultdict(float)
    order: dict[str, int] = {}
    for line in lines:
        for seat, spec in enumerate(line["seats"]):
            order.setdefault(spec, len(order))
            win = float(line["wins"][seat])
            seats_of[spec] += 1
            wins_of[spec] += win
            for how, names in line["cards"][seat].items():
                for name, count in names.items():
                    key = (how, name, spec)
                    games[key] += 1
                    uses[key] += int(count)
                    wins[key] += win
    rows: list[dict[str, Any]] = []
    for key, k in games.items():
        how, name, spec = key
        n = seats_of[spec]
        rows.append(
            {
                "how": how,
                "name": name,
                "agent": spec,
                "games": k,
                "of": n,
                "share_of_games": _interval(wilson(k, n)),
                "uses": uses[key],
                "per_game": uses[key] / k,
                "win_used": _interval(wilson(wins[key], k)),
                "win_not_used": _interval(wilson(wins_of[spec] - wins[key], n - k)),
                "difference": _interval(proportion_difference(wins[key], k, wins_of[spec] - wins[key], n - k)),
            }
        )
    rows.sort(
        key=lambda r: (
            order[str(r["agent"])],
            how_order(str(r["how"])),
            -int(r["games"]),
            -int(r["uses"]),
            str(r["name"]),
        )
    )
    return rows


def setting_stats(lines: Sequence[Mapping[str, Any]], names: Sequence[str] = ()) -> dict[str, Any]:
    """The statistics of one setting's games (``names``: the seats' names, P1..Pn by default)."""
    n = len(lines)
    players = len(lines[0]["seats"]) if lines else len(names)
    by_agent_sum: dict[str, float] = defaultdict(float)
    by_agent_n: dict[str, int] = defaultdict(int)
    seat_sum = [0.0] * players
    first_sum, first_n = 0.0, 0
    first_seats: Counter[int] = Counter()
    scores_by_agent: dict[str, list[float]] = defaultdict(list)
    scores_by_seat: list[list[float]] = [[] for _ in range(players)]
    reasons: Counter[str] = Counter()
    truncated = 0
    details: dict[str, Counter[str]] = defaultdict(Counter)
    seconds = 0.0
    for line in lines:
        wins = line["wins"]
        for seat, spec in enumerate(line["seats"]):
            by_agent_sum[spec] += wins[seat]
            by_agent_n[spec] += 1
            seat_sum[seat] += wins[seat]
        if line.get("first") is not None:
            first_sum += wins[line["first"]]
            first_n += 1
            first_seats[int(line["first"])] += 1
        result = line.get("result")
        if result is not None:
            for seat, score in enumerate(result["scores"]):
                scores_by_seat[seat].append(float(score))
                scores_by_agent[line["seats"][seat]].append(float(score))
            for key, value in (result.get("details") or {}).items():
                if isinstance(value, str):
                    details[key][value] += 1
        reasons[line["reason"]] += 1
        truncated += bool(line.get("truncated"))
        seconds += float(line.get("seconds", 0.0))
    # The share a seat would get if seats did not matter: the mean total win share per game spread
    # over the seats (1/players, or e.g. 1/2 in a 2v2 game where both winners get a full share).
    fair = math.fsum(math.fsum(line["wins"]) for line in lines) / (n * players) if n and players else math.nan
    first = wilson(first_sum, first_n)
    named = seat_names(names, players)
    forced: dict[str, Any] | None = None
    if all("forced" in line for line in lines):
        total_forced = sum(int(line["forced"]) for line in lines)
        total_decisions = sum(int(line["decisions"]) for line in lines)
        forced = {
            "per_game": distribution([float(line["forced"]) for line in lines]),
            "total": total_forced,
            "decisions": total_decisions,
            "share": total_forced / total_decisions if total_decisions else None,
        }
    return {
        "games": n,
        "players": players,
        "seat_names": named,
        "agents": {spec: _interval(wilson(by_agent_sum[spec], by_agent_n[spec])) for spec in by_agent_sum},
        "seats": [_interval(wilson(seat_sum[s], n)) for s in range(players)],
        "first_player": {
            "win": _interval(first),
            "fair": fair,
            "advantage": _interval(Interval(first.estimate - fair, first.low - fair, first.high - fair, first.n)),
            "by_seat": {named[s]: c for s, c in sorted(first_seats.items())},
        },
        "turns": distribution([float(line["turns"]) for line in lines]),
        "decisions": distribution([float(line["decisions"]) for line in lines]),
        "forced": forced,
        "scores": {
            "by_agent": {spec: distribution(v) for spec, v in scores_by_agent.items()},
            "by_seat": [distribution(v) for v in scores_by_seat],
            "histogram_by_agent": shared_histogram(scores_by_agent),
            "histogram_by_seat": shared_histogram(dict(zip(named, scores_by_seat, strict=True))),
        },
        "reasons": {
            reason: {"count": count, "share": _interval(wilson(count, n))} for reason, count in reasons.most_common()
        },
        "truncated": truncated,
        "details": {
            key: {value: {"count": c, "share": _interval(wilson(c, n))} for value, c in sorted(counter.items())}
            for key, counter in sorted(details.items())
        },
        "cards": card_rows(lines),
        "seconds": seconds,
    }


def first_advantage(line: Mapping[str, Any]) -> float:
    """The first player's win share in one game minus that game's fair share (its total win share
    spread over the seats), so settings with different numbers of players compare fairly."""
    wins = [float(w) for w in line["wins"]]
    return float(wins[line["first"]] - math.fsum(wins) / len(wins))


def _ordinal(j: int) -> str:
    return f"{j}{'th' if 10 <= j % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(j % 10, 'th')}"


def compare(
    baseline: Sequence[Mapping[str, Any]],
    other: Sequence[Mapping[str, Any]],
    base_listed: Sequence[str],
    other_listed: Sequence[str],
) -> list[dict[str, Any]]:
    """Paired differences (other - baseline) over the game indices both settings played, one row per
    measure: ``{"metric", "label", "unit", "baseline", "setting", "difference"}`` (the two means and
    the mean paired difference with its t interval). ``unit`` is ``"share"`` for win shares,
    ``"points"`` for differences of shares and ``"count"`` for the rest."""
    a = {line["index"]: line for line in baseline}
    b = {line["index"]: line for line in other}
    common = sorted(set(a) & set(b))
    rows: list[dict[str, Any]] = []

    def row(metric: str, label: str, unit: str, xs: list[float], ys: list[float]) -> None:
        diff = paired_difference(xs, ys)
        if unit in ("share", "points") and diff.n > 1:
            # A difference of shares lies in [-1, 1]; a t interval on few games can reach past that.
            diff = Interval(diff.estimate, max(-1.0, diff.low), min(1.0, diff.high), diff.n)
        rows.append(
            {
                "metric": metric,
                "label": label,
                "unit": unit,
                "baseline": _interval(mean_interval(xs))["estimate"],
                "setting": _interval(mean_interval(ys))["estimate"],
                "difference": _interval(diff),
            }
        )

    for metric, label in (("turns", "turns per game"), ("decisions", "decisions per game")):
        row(metric, label, "count", [float(a[i][metric]) for i in common], [float(b[i][metric]) for i in common])
    if all("forced" in a[i] and "forced" in b[i] for i in common):
        row(
            "forced",
            "forced decisions per game",
            "count",
            [float(a[i]["forced"]) for i in common],
            [float(b[i]["forced"]) for i in common],
        )
    # The first player's rows need every paired game to have one (a game over before any decision has none).
    if all(a[i].get("first") is not None and b[i].get("first") is not None for i in common):
        row(
            "first",
            "first player's win share",
            "share",
            [float(a[i]["wins"][a[i]["first"]]) for i in common],
            [float(b[i]["wins"][b[i]["first"]]) for i in common],
        )
        row(
            "first-advantage",
            "first player's advantage (over a fair share)",
            "points",
            [first_advantage(a[i]) for i in common],
            [first_advantage(b[i]) for i in common],
        )
    # Win shares per listed agent, by listed position: position j sits at the same seats in both settings
    # (rotation depends on the game index alone), so each row compares the agents on the same seats and
    # deals. Positions repeat with the lists' lengths; with one spec for every seat in both settings each
    # seat is the same agent and the mean win share is fair by construction, so there is no row.
    la, lb = len(base_listed), len(other_listed)
    if la > 1 or lb > 1:
        m = math.lcm(la, lb)
        xs_specs = [base_listed[j % la] for j in range(m)]
        ys_specs = [other_listed[j % lb] for j in range(m)]
        for j in range(m):
            x, y = xs_specs[j], ys_specs[j]
            twice = xs_specs.count(x) > 1 or ys_specs.count(y) > 1
            if x == y:
                label = f"win share of {y}" + (f" ({_ordinal(j + 1)} listed)" if twice else "")
            else:
                label = f"win share of the {_ordinal(j + 1)} listed agent ({y} vs {x})"
            row(
                f"win:{j}",
                label,
                "share",
                [listed_reward(a[i], j, m) for i in common],
                [listed_reward(b[i], j, m) for i in common],
            )
    return rows


def analyze(manifest: Mapping[str, Any], lines: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """All the statistics of a run (see the module docstring).

    ``complete`` says whether every planned game is in ``lines``; each setting carries ``planned``
    (its planned games) beside ``games`` (those in the folder).
    """
    settings = manifest["settings"]
    groups: dict[int, list[Mapping[str, Any]]] = defaultdict(list)
    for line in sorted(lines, key=lambda o: (o["setting"], o["index"])):
        groups[int(line["setting"])].append(line)
    out_settings = []
    for k, setting in enumerate(settings):
        stats = setting_stats(groups.get(k, []), setting.get("seat_names", ()))
        stats["label"] = setting["label"]
        stats["options"] = setting["options"]
        stats["listed"] = setting["seats"]
        stats["planned"] = manifest["games"]
        out_settings.append(stats)
    comparisons = []
    for k in range(1, len(settings)):
        common = {line["index"] for line in groups.get(0, [])} & {line["index"] for line in groups.get(k, [])}
        comparisons.append(
            {
                "baseline": settings[0]["label"],
                "setting": settings[k]["label"],
                "title": f"{settings[k]['label']} vs {settings[0]['label']}",
                "games": len(common),
                "rows": compare(groups.get(0, []), groups.get(k, []), settings[0]["seats"], settings[k]["seats"])
                if common
                else [],
            }
        )
    planned = manifest["games"] * len(settings)
    return {
        "game": manifest["game"],
        "format": manifest.get("format"),
        "engine": manifest.get("engine"),
        "games_planned": planned,
        "games_played": len(lines),
        "complete": len(lines) == planned,
        "seed": manifest["seed"],
        "records": bool(manifest.get("records")),
        "grid": manifest.get("grid", []),
        "settings": out_settings,
        "comparisons": comparisons,
    }
