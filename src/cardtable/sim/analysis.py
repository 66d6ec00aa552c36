"""The statistics of a simulation run, as one JSON-ready dict (the summary, plots and page are drawn from it).

The numbers come from a :class:`~cardtable.sim.aggregate.RunAggregate` (streamed, exact, mergeable):
:func:`finish` turns one into the dict; :func:`analyze` does both for a list of lines.

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

Across settings: each setting against its baseline (the first setting of a grid; for a what-if
comparison, the unedited game at the same grid point) on the *same* game indices — the same deals
with the same seat rotation — as paired differences of means with t intervals, each row named by
what it measures and the two settings by their labels ("players=4 vs players=2"): length, forced
decisions, the first player's share and advantage, each listed agent's and each seat's win share,
each end reason's share, and, where both settings seat the same agents, each card's win
contribution (its shift's interval by the delta method over the paired games).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from cardtable.sim.aggregate import PairAggregate, PairedSums, RunAggregate, SettingAggregate
from cardtable.sim.stats import Interval, proportion_difference, t_quantile, wilson
from cardtable.sim.tally import WIN_UNITS, Tally, bin_counts, histogram, integer_histogram

PERCENTILES = (5, 10, 25, 50, 75, 90, 95)


def _interval(i: Interval) -> dict[str, Any]:
    out: dict[str, Any] = i.to_json()
    for k in ("estimate", "low", "high"):
        if isinstance(out[k], float) and not math.isfinite(out[k]):
            out[k] = None  # JSON has no NaN/inf
    return out


def distribution(values: Tally | Sequence[float], bins: int = 20) -> dict[str, Any]:
    """Mean (with t interval), min, max, percentiles and a histogram of the values (whole-number
    bins when every value is a whole number, as turns and decisions are)."""
    t = values if isinstance(values, Tally) else Tally(values)
    n = len(t)
    whole = t.whole()
    edges, counts = integer_histogram(t) if whole else histogram(t, bins)
    return {
        "n": n,
        "mean": _interval(t.mean_interval()),
        "min": t.min(),
        "max": t.max(),
        "percentiles": {str(q): t.percentile(q) for q in PERCENTILES} if n else {},
        "histogram": {"edges": edges, "counts": counts, "whole": whole},
    }


def shared_histogram(series: Mapping[str, Tally | Sequence[float]], bins: int = 20) -> dict[str, Any]:
    """One set of bins for several series (so their histograms can be drawn over each other) and each
    series' counts in them: ``{"edges": [...], "counts": {name: [...]}}``."""
    tallies = {name: v if isinstance(v, Tally) else Tally(v) for name, v in series.items()}
    pooled = Tally()
    for t in tallies.values():
        pooled.merge(t)
    edges = (integer_histogram(pooled) if pooled.whole() else histogram(pooled, bins))[0]
    return {"edges": edges, "counts": {name: bin_counts(t, edges) for name, t in tallies.items()}}


def seat_names(names: Sequence[str], players: int) -> list[str]:
    """The stored seat names, or P1..Pn when the run did not store them."""
    return list(names) if len(names) == players else [f"P{s + 1}" for s in range(players)]


def listed_reward(line: Mapping[str, Any], j: int, listed: int) -> float:
    """The mean reward of the ``j``-th of ``listed`` listed agents in a game: the list repeats around
    the table, so the ``j``-th agent sits at every seat whose listed position is ``j`` mod ``listed``."""
    rewards = [float(w) for w, a in zip(line["wins"], line["agents"], strict=True) if a % listed == j]
    return math.fsum(rewards) / len(rewards)


def first_advantage(line: Mapping[str, Any]) -> float:
    """The first player's win share in one game minus that game's fair share (its total win share
    spread over the seats), so settings with different numbers of players compare fairly."""
    wins = [float(w) for w in line["wins"]]
    return float(wins[line["first"]] - math.fsum(wins) / len(wins))


def how_order(how: str) -> tuple[int, str]:
    """Ways of using a card in reading order: played (or used) before acquired, others after."""
    return ({"played": 0, "used": 0, "acquired": 1}.get(how, 2), how)


def _shares(units: int, n: int) -> Interval:
    return wilson(units / WIN_UNITS, n)


def _card_rows(agg: SettingAggregate) -> list[dict[str, Any]] | None:
    """Per (way of use, card name, agent): how often the agent used the card and how it fared.

    None when the lines hold no card counts (a run made before they were collected). One row per
    card an agent used at least once; ``games`` counts the (game, seat) pairs in which the agent used
    it, out of ``of`` pairs the agent played.
    """
    if agg.cardless_lines:
        return None
    c = agg.cards
    order = {spec: k for k, spec in enumerate(agg.agents())}
    rows: list[dict[str, Any]] = []
    for key, k in c.games.items():
        how, name, spec = key
        n = c.seats_of[spec]
        won, won_all = c.wins[key] / WIN_UNITS, c.wins_of[spec] / WIN_UNITS
        rows.append(
            {
                "how": how,
                "name": name,
                "agent": spec,
                "games": k,
                "of": n,
                "share_of_games": _interval(wilson(k, n)),
                "uses": c.uses[key],
                "per_game": c.uses[key] / k,
                "win_used": _interval(wilson(won, k)),
                "win_not_used": _interval(wilson(won_all - won, n - k)),
                "difference": _interval(proportion_difference(won, k, won_all - won, n - k)),
            }
        )
    rows.sort(
        key=lambda r: (
            order.get(str(r["agent"]), len(order)),
            how_order(str(r["how"])),
            -int(r["games"]),
            -int(r["uses"]),
            str(r["name"]),
        )
    )
    return rows


def setting_result(agg: SettingAggregate, names: Sequence[str] = ()) -> dict[str, Any]:
    """The statistics of one setting's games (``names``: the seats' names, P1..Pn by default)."""
    n = agg.games
    players = agg.players or len(names)
    agents = agg.agents()
    # The share a seat would get if seats did not matter: the mean total win share per game spread
    # over the seats (1/players, or e.g. 1/2 in a 2v2 game where both winners get a full share).
    fair = agg.total_wins / WIN_UNITS / (n * players) if n and players else math.nan
    first = _shares(agg.first_wins, agg.first_games)
    named = seat_names(names, players)
    forced: dict[str, Any] | None = None
    if not agg.unforced_lines:
        total_forced = int(agg.forced.total())
        total_decisions = int(agg.decisions.total())
        forced = {
            "per_game": distribution(agg.forced),
            "total": total_forced,
            "decisions": total_decisions,
            "share": total_forced / total_decisions if total_decisions else None,
        }
    seat_wins = agg.seat_wins + [0] * (players - len(agg.seat_wins))
    by_seat = agg.scores_by_seat + [Tally() for _ in range(players - len(agg.scores_by_seat))]
    scores_by_agent = {spec: agg.scores_by_agent[spec] for spec in agents if spec in agg.scores_by_agent}
    reasons = sorted(agg.reasons.items(), key=lambda kv: (-kv[1], kv[0]))
    return {
        "games": n,
        "players": players,
        "seat_names": named,
        "agents": {spec: _interval(_shares(agg.agent_wins[spec], agg.agent_seats[spec])) for spec in agents},
        "seats": [_interval(_shares(seat_wins[s], n)) for s in range(players)],
        "first_player": {
            "win": _interval(first),
            "fair": fair,
            "advantage": _interval(Interval(first.estimate - fair, first.low - fair, first.high - fair, first.n)),
            "by_seat": {named[s]: c for s, c in sorted(agg.first_seats.items())},
        },
        "turns": distribution(agg.turns),
        "decisions": distribution(agg.decisions),
        "forced": forced,
        "scores": {
            "by_agent": {spec: distribution(t) for spec, t in scores_by_agent.items()},
            "by_seat": [distribution(t) for t in by_seat],
            "histogram_by_agent": shared_histogram(scores_by_agent),
            "histogram_by_seat": shared_histogram(dict(zip(named, by_seat, strict=True))),
        },
        "reasons": {reason: {"count": count, "share": _interval(wilson(count, n))} for reason, count in reasons},
        "truncated": agg.truncated,
        "details": {
            # Most common first, as the reasons are (a ranking's "Expert, Hard" read as by name before).
            key: {
                value: {"count": c, "share": _interval(wilson(c, n))}
                for value, c in sorted(counter.items(), key=lambda vc: (-vc[1], vc[0]))
            }
            for key, counter in sorted(agg.details.items())
        },
        "cards": _card_rows(agg),
        "seconds": agg.seconds,
    }


def setting_stats(lines: Sequence[Mapping[str, Any]], names: Sequence[str] = ()) -> dict[str, Any]:
    """The statistics of one setting's games, from its results lines."""
    agg = RunAggregate([{"seats": []}]).add_all({**line, "setting": 0} for line in lines)
    return setting_result(agg.settings[0], names)


def card_rows(lines: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]] | None:
    """The per-card rows of one setting's lines (see :func:`setting_result`)."""
    rows: list[dict[str, Any]] | None = setting_stats(lines)["cards"]
    return rows


# -- paired comparisons ---------------------------------------------------------------------------


def _ordinal(j: int) -> str:
    return f"{j}{'th' if 10 <= j % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(j % 10, 'th')}"


def paired_interval(s: PairedSums, n: int | None = None) -> tuple[float, float, Interval]:
    """The two means and the mean paired difference (with its t interval) of exact paired sums;
    ``n`` overrides the count (for sums kept only over games where the value was not zero)."""
    n = s.n if n is None else n
    scale = s.scale
    if n == 0:
        return math.nan, math.nan, Interval(math.nan, math.nan, math.nan, 0)
    d_sum = s.sy - s.sx
    mean_d = d_sum / (n * scale)
    if n == 1:
        diff = Interval(mean_d, -math.inf, math.inf, 1)
    else:
        # Exact: sum of squared deviations = S(d²) - S(d)²/n, in units of 1/scale².
        ss = (s.sdd * n - d_sum * d_sum) / n
        var = ss / (n - 1) / (scale * scale)
        half = t_quantile(n - 1) * math.sqrt(max(0.0, var) / n)
        diff = Interval(mean_d, mean_d - half, mean_d + half, n)
    return s.sx / (n * scale), s.sy / (n * scale), diff


def _row(metric: str, label: str, unit: str, sums: PairedSums, n: int | None = None) -> dict[str, Any]:
    x, y, diff = paired_interval(sums, n)
    if unit in ("share", "points") and diff.n > 1:
        # A difference of shares lies in [-1, 1]; a t interval on few games can reach past that.
        diff = Interval(diff.estimate, max(-1.0, diff.low), min(1.0, diff.high), diff.n)
    return {
        "metric": metric,
        "label": label,
        "unit": unit,
        "baseline": x if math.isfinite(x) else None,
        "setting": y if math.isfinite(y) else None,
        "difference": _interval(diff),
    }


def comparison_rows(
    pair: PairAggregate, seat_labels: Sequence[str] = (), base_seat_labels: Sequence[str] | None = None
) -> list[dict[str, Any]]:
    """The rows of one paired comparison: ``{"metric", "label", "unit", "baseline", "setting",
    "difference"}`` (the two means and the mean paired difference with its t interval). ``unit`` is
    ``"share"`` for win shares, ``"points"`` for differences of shares and ``"count"`` for the rest.

    Seats are compared by position; ``seat_labels`` name the setting's seats and ``base_seat_labels``
    the baseline's (the same when None). A seat whose name differs between the two (Doctor Strange's
    Good and Evil swapped by its good-seat option) is labelled by position and both names:
    ``win share of P1 (Evil vs Good)``."""
    n = pair.n
    rows: list[dict[str, Any]] = []
    m = pair.metrics
    if not n:
        return rows
    rows.append(_row("turns", "turns per game", "count", m["turns"]))
    rows.append(_row("decisions", "decisions per game", "count", m["decisions"]))
    if "forced" in m and m["forced"].n == n:
        rows.append(_row("forced", "forced decisions per game", "count", m["forced"]))
    # The first player's rows need every paired game to have one (a game over before any decision has none).
    if "first" in m and m["first"].n == n:
        rows.append(_row("first", "first player's win share", "share", m["first"]))
        rows.append(
            _row("first-advantage", "first player's advantage (over a fair share)", "points", m["first-advantage"])
        )
    # Win shares per listed agent, by listed position: position j sits at the same seats in both settings
    # (rotation depends on the game index alone), so each row compares the agents on the same seats and
    # deals. Positions repeat with the lists' lengths; with one spec for every seat in both settings each
    # seat is the same agent and the mean win share is fair by construction, so there is no row.
    base_listed, other_listed = pair.base_listed, pair.other_listed
    la, lb = len(base_listed), len(other_listed)
    if la > 1 or lb > 1:
        lcm = math.lcm(la, lb)
        xs_specs = [base_listed[j % la] for j in range(lcm)]
        ys_specs = [other_listed[j % lb] for j in range(lcm)]
        for j in range(lcm):
            x, y = xs_specs[j], ys_specs[j]
            twice = xs_specs.count(x) > 1 or ys_specs.count(y) > 1
            if x == y:
                label = f"win share of {y}" + (f" ({_ordinal(j + 1)} listed)" if twice else "")
            else:
                label = f"win share of the {_ordinal(j + 1)} listed agent ({y} vs {x})"
            rows.append(_row(f"win:{j}", label, "share", m[f"win:{j}"]))
    seats = sorted(int(k.partition(":")[2]) for k in m if k.startswith("seat:"))
    base_labels = seat_labels if base_seat_labels is None else base_seat_labels
    for seat in seats:
        name = seat_labels[seat] if seat < len(seat_labels) else f"P{seat + 1}"
        was = base_labels[seat] if seat < len(base_labels) else f"P{seat + 1}"
        label = f"win share of {name}" if name == was else f"win share of P{seat + 1} ({name} vs {was})"
        rows.append(_row(f"seat:{seat}", label, "share", m[f"seat:{seat}"]))
    for reason in sorted(pair.reasons, key=lambda r: (-pair.reasons[r].sx - pair.reasons[r].sy, r)):
        rows.append(_row(f"reason:{reason}", f"games ending by {reason}", "share", pair.reasons[reason], n))
    return rows


def card_shift_rows(pair: PairAggregate) -> list[dict[str, Any]]:
    """Per (way of use, card, agent): the card's win contribution (win share when the agent used it
    minus when it did not) in both settings, and its paired shift with a 95% interval. Only cards
    each setting saw both used and unused by that agent often enough
    (:data:`~cardtable.sim.aggregate.MIN_CARD_SEATS` seats each); most-used first."""
    cards = pair.cards
    if cards is None:
        return []
    rows: list[dict[str, Any]] = []
    for key in cards.card:
        s = cards.shift(key)
        if s is None:
            continue
        n = int(s["n"])
        half = t_quantile(n - 1) * s["se"] if n > 1 else math.inf
        est = s["shift"]
        how, name, spec = key
        acc = cards.card[key]
        rows.append(
            {
                "how": how,
                "name": name,
                "agent": spec,
                "games": n,
                "uses": acc[1] + acc[3],
                "baseline": s["contributionA"],
                "setting": s["contributionB"],
                "difference": _interval(Interval(est, max(-2.0, est - half), min(2.0, est + half), n)),
            }
        )
    rows.sort(key=lambda r: (str(r["agent"]), how_order(str(r["how"])), -int(r["uses"]), str(r["name"])))
    return rows


def compare(
    baseline: Sequence[Mapping[str, Any]],
    other: Sequence[Mapping[str, Any]],
    base_listed: Sequence[str],
    other_listed: Sequence[str],
) -> list[dict[str, Any]]:
    """Paired differences (other - baseline) over the game indices both settings played (see
    :func:`comparison_rows`)."""
    settings: list[dict[str, Any]] = [
        {"seats": list(base_listed), "base": None},
        {"seats": list(other_listed), "base": 0},
    ]
    agg = RunAggregate(settings)
    agg.add_all([*({**x, "setting": 0} for x in baseline), *({**y, "setting": 1} for y in other)])
    return comparison_rows(agg.pairs[(0, 1)])


# -- the whole run --------------------------------------------------------------------------------


def finish(manifest: Mapping[str, Any], agg: RunAggregate) -> dict[str, Any]:
    """All the statistics of a run (see the module docstring), from its aggregate.

    ``complete`` says whether every planned game is in the aggregate; each setting carries ``planned``
    (its planned games) beside ``games`` (those played).
    """
    settings = manifest["settings"]
    out_settings = []
    for k, setting in enumerate(settings):
        stats = setting_result(agg.settings[k], setting.get("seat_names", ()))
        stats["label"] = setting["label"]
        stats["options"] = setting["options"]
        stats["listed"] = setting["seats"]
        stats["card_edits"] = list(setting.get("card_edits", []))
        stats["planned"] = manifest["games"]
        out_settings.append(stats)
    comparisons = []
    for b, k in agg.comparisons:
        pair = agg.pairs[(b, k)]
        names = out_settings[k]["seat_names"]
        whatif = list(setting_edits(settings[k])) != list(setting_edits(settings[b]))
        comparisons.append(
            {
                "baseline": settings[b]["label"],
                "setting": settings[k]["label"],
                "base_index": b,
                "index": k,
                "kind": "what-if" if whatif else "grid",
                "title": f"{settings[k]['label']} vs {settings[b]['label']}",
                "games": pair.n,
                "rows": comparison_rows(pair, names, out_settings[b]["seat_names"]),
                "cards": card_shift_rows(pair),
            }
        )
    played = sum(s.games for s in agg.settings)
    planned = manifest["games"] * len(settings)
    return {
        "game": manifest["game"],
        "format": manifest.get("format"),
        "engine": manifest.get("engine"),
        "games_planned": planned,
        "games_played": played,
        "complete": played == planned,
        "seed": manifest["seed"],
        "records": bool(manifest.get("records")),
        "grid": manifest.get("grid", []),
        "card_edits": list(manifest.get("card_edits", [])),
        "compare": manifest.get("compare", []),
        "settings": out_settings,
        "comparisons": comparisons,
    }


def setting_edits(setting: Mapping[str, Any]) -> list[str]:
    return list(setting.get("card_edits", []))


def analyze(manifest: Mapping[str, Any], lines: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """All the statistics of a run from its results lines (see :func:`finish`)."""
    agg = RunAggregate(manifest["settings"])
    agg.add_all(sorted(lines, key=lambda o: (o["setting"], o["index"])))
    return finish(manifest, agg)
