"""The statistics of a simulation run, as one JSON-ready dict (plots and pages are drawn from it).

Per setting: win share per agent and per seat position with 95% Wilson intervals (a tied win counts
as the seat's share, see :func:`cardtable.agents.ismcts.win_shares`), the first player's advantage
over a fair ``1/players``, game length in turns and decisions (percentiles and histograms), scores,
end reasons (limit stops counted and flagged) and every string-valued ``result.details`` entry
tabulated (e.g. Mephisto solitaire's ``ranking``).

Across settings (a grid): each setting against the first on the *same* game indices — the same deals
with the same seat rotation — as a paired difference of means with a t interval.

Per card (when records were kept): every action whose text has a ``card=`` parameter attributes that
card to the acting seat; for each card, in how many (game, seat) pairs it was used and the win share
of those seats, with a Wilson interval.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from cardtable.sim.stats import Interval, histogram, mean_interval, paired_difference, percentile, wilson

PERCENTILES = (5, 10, 25, 50, 75, 90, 95)
CARD_PARAM = re.compile(r"(?:^|\s)card=(-?\d+)(?:\s|$)")


def _interval(i: Interval) -> dict[str, Any]:
    out: dict[str, Any] = i.to_json()
    for k in ("estimate", "low", "high"):
        if isinstance(out[k], float) and not math.isfinite(out[k]):
            out[k] = None  # JSON has no NaN/inf
    return out


def distribution(values: Sequence[float], bins: int = 20) -> dict[str, Any]:
    """Mean (with t interval), min, max, percentiles and a histogram of ``values``."""
    edges, counts = histogram(values, bins)
    return {
        "n": len(values),
        "mean": _interval(mean_interval(values)),
        "min": min(values) if values else None,
        "max": max(values) if values else None,
        "percentiles": {str(q): percentile(values, q) for q in PERCENTILES} if values else {},
        "histogram": {"edges": edges, "counts": counts},
    }


def listed_reward(line: Mapping[str, Any], j: int) -> float:
    """The reward of the ``j``-th listed agent in a game (wherever rotation seated it)."""
    return float(line["wins"][list(line["agents"]).index(j)])


def setting_stats(lines: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The statistics of one setting's games."""
    n = len(lines)
    players = len(lines[0]["seats"]) if lines else 0
    by_agent_sum: dict[str, float] = defaultdict(float)
    by_agent_n: dict[str, int] = defaultdict(int)
    seat_sum = [0.0] * players
    first_sum, first_n = 0.0, 0
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
    return {
        "games": n,
        "players": players,
        "agents": {spec: _interval(wilson(by_agent_sum[spec], by_agent_n[spec])) for spec in by_agent_sum},
        "seats": [_interval(wilson(seat_sum[s], n)) for s in range(players)],
        "first_player": {
            "win": _interval(first),
            "fair": fair,
            "advantage": _interval(Interval(first.estimate - fair, first.low - fair, first.high - fair, first.n)),
        },
        "turns": distribution([float(line["turns"]) for line in lines]),
        "decisions": distribution([float(line["decisions"]) for line in lines]),
        "scores": {
            "by_agent": {spec: distribution(v) for spec, v in scores_by_agent.items()},
            "by_seat": [distribution(v) for v in scores_by_seat],
        },
        "reasons": {
            reason: {"count": count, "share": _interval(wilson(count, n))} for reason, count in reasons.most_common()
        },
        "truncated": truncated,
        "details": {
            key: {value: {"count": c, "share": _interval(wilson(c, n))} for value, c in sorted(counter.items())}
            for key, counter in sorted(details.items())
        },
        "seconds": seconds,
    }


def compare(
    baseline: Sequence[Mapping[str, Any]], other: Sequence[Mapping[str, Any]], listed: int
) -> dict[str, dict[str, Any]]:
    """Paired differences (other - baseline) over the game indices both settings played."""
    a = {line["index"]: line for line in baseline}
    b = {line["index"]: line for line in other}
    common = sorted(set(a) & set(b))
    out: dict[str, dict[str, Any]] = {}
    for metric in ("turns", "decisions"):
        xs = [float(a[i][metric]) for i in common]
        ys = [float(b[i][metric]) for i in common]
        out[metric] = _interval(paired_difference(xs, ys))
    for j in range(listed):
        xs = [listed_reward(a[i], j) for i in common]
        ys = [listed_reward(b[i], j) for i in common]
        out[f"win share of listed agent {j + 1}"] = _interval(paired_difference(xs, ys))
    return out


def card_stats(
    records: Iterable[Mapping[str, Any]],
    results: Mapping[tuple[int, int], Mapping[str, Any]],
    describe: Any = None,
    uses_kinds: Mapping[str, str] | None = None,
) -> dict[int, list[dict[str, Any]]]:
    """Per setting, one row per card: uses (game, seat pairs), actions, win share with interval.

    ``describe(setting, action_text)``, when given, names the card (over the record's ``names``).
    ``uses_kinds`` (the game's ``CARD_USES``), when not empty, limits the count to the action kinds
    that play or acquire a card: discarding a card to pay a cost is not using it.
    """
    uses: dict[int, dict[int, set[tuple[int, int]]]] = defaultdict(lambda: defaultdict(set))
    actions: dict[int, Counter[int]] = defaultdict(Counter)
    kinds: dict[int, dict[int, set[str]]] = defaultdict(lambda: defaultdict(set))
    names: dict[int, dict[int, str]] = defaultdict(dict)
    described: dict[int, set[int]] = defaultdict(set)
    for rec in records:
        setting, index = int(rec["setting"]), int(rec["index"])
        if (setting, index) not in results:
            continue
        texts = rec["record"]["actions"]
        actors = rec["actors"]
        for key, name in (rec.get("names") or {}).items():
            names[setting].setdefault(int(key), name)
        for text, seat in zip(texts, actors, strict=True):
            m = CARD_PARAM.search(text)
            if m is None or (uses_kinds and text.split()[0] not in uses_kinds):
                continue
            card = int(m.group(1))
            uses[setting][card].add((index, seat))
            actions[setting][card] += 1
            kinds[setting][card].add(text.split()[0])
            if card not in described[setting] and describe is not None:
                # The game's own name for the card wins over names gathered from views.
                described[setting].add(card)
                label = describe(setting, text)
                if label:
                    names[setting][card] = label
    out: dict[int, list[dict[str, Any]]] = {}
    for setting, by_card in uses.items():
        rows: list[dict[str, Any]] = []
        for card, pairs in by_card.items():
            wins = sum(float(results[(setting, idx)]["wins"][seat]) for idx, seat in pairs)
            rows.append(
                {
                    "card": card,
                    "name": names[setting].get(card, f"card {card}"),
                    "uses": len(pairs),
                    "actions": actions[setting][card],
                    "kinds": sorted(kinds[setting][card]),
                    "win": _interval(wilson(wins, len(pairs))),
                }
            )
        rows.sort(key=lambda r: (-r["uses"], r["card"]))
        out[setting] = rows
    return out


def analyze(
    manifest: Mapping[str, Any],
    lines: Sequence[Mapping[str, Any]],
    records: Iterable[Mapping[str, Any]] | None = None,
    describe: Any = None,
    uses_kinds: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """All the statistics of a run (see the module docstring)."""
    settings = manifest["settings"]
    groups: dict[int, list[Mapping[str, Any]]] = defaultdict(list)
    for line in sorted(lines, key=lambda o: (o["setting"], o["index"])):
        groups[int(line["setting"])].append(line)
    out_settings = []
    for k, setting in enumerate(settings):
        stats = setting_stats(groups.get(k, []))
        stats["label"] = setting["label"]
        stats["options"] = setting["options"]
        stats["listed"] = setting["seats"]
        out_settings.append(stats)
    comparisons = []
    if len(settings) > 1:
        listed = min(
            (
                len(s["seats"]) if len(s["seats"]) > 1 else out_settings[k]["players"]
                for k, s in enumerate(settings)
                if groups.get(k)
            ),
            default=0,
        )
        for k in range(1, len(settings)):
            comparisons.append(
                {
                    "baseline": settings[0]["label"],
                    "setting": settings[k]["label"],
                    "differences": compare(groups.get(0, []), groups.get(k, []), listed),
                }
            )
    cards: dict[int, list[dict[str, Any]]] = {}
    if records is not None:
        results = {(int(o["setting"]), int(o["index"])): o for o in lines}
        cards = card_stats(records, results, describe, uses_kinds)
    return {
        "game": manifest["game"],
        "games_planned": manifest["games"] * len(settings),
        "games_played": len(lines),
        "seed": manifest["seed"],
        "settings": out_settings,
        "comparisons": comparisons,
        "cards": {str(k): v for k, v in sorted(cards.items())},
    }
