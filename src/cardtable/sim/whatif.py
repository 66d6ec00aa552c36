"""The what-if part of a report: each card edit against the original cards, in plain verdicts.

A what-if comparison (``cardtable simulate --compare``) plays the edited and the original game on the
same deals and seats, so every headline figure has a *paired* shift with a 95% interval. Each
verdict names the figure, its value with the original cards and with the edit (with the edited
game's own interval), and the shift: "the first player's edge falls from +8.0 points to +2.0 points
[-1.0, +5.0]; shift -6.0 points [-9.1, -2.9]". A figure moves ("rises", "falls") only when the shift's interval
excludes 0; otherwise the verdict says there is no clear change and how large a change the games
could have missed. Several edits also get one table side by side (the grid).

Everything here reads the analysis dict (:func:`cardtable.sim.analysis.finish`) and returns text.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from cardtable.sim.summary import number, point, share, words

CARD_VERDICTS = 5
"""Cards named per edit (those whose win contribution shifts most clearly)."""


def whatif_comparisons(a: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [c for c in a["comparisons"] if c.get("kind") == "what-if"]


def _ok(i: Mapping[str, Any] | None) -> bool:
    return bool(i) and i is not None and i.get("n", 0) > 0 and i.get("low") is not None and i.get("high") is not None


def _pts(x: float, digits: int = 1) -> str:
    return f"{100 * x:+.{digits}f}"


def _fmt(unit: str, x: float | None) -> str:
    """A figure's value: a share as 52.5%, an edge (a difference of shares) as +2.5 points, as every
    other table writes it, a count as 34.1."""
    if x is None or not math.isfinite(x):
        return "n/a"
    if unit == "share":
        return share(x)
    if unit == "points":
        return point(x)
    return number(x)


def _own(unit: str, i: Mapping[str, Any] | None) -> str:
    """The edited game's own interval for a figure, `` [lo, hi]``."""
    if not _ok(i):
        return ""
    assert i is not None
    if unit == "share":
        return f" [{100 * i['low']:.1f}, {100 * i['high']:.1f}]"
    if unit == "points":
        return f" [{_pts(i['low'])}, {_pts(i['high'])}]"
    return f" [{number(i['low'])}, {number(i['high'])}]"


def shift_text(unit: str, d: Mapping[str, Any]) -> str:
    """A paired shift with its interval: ``-6.0 points [-9.1, -2.9]`` or ``+1.9 [+1.2, +2.6]``."""
    if not _ok(d):
        return "n/a"
    if unit in ("share", "points"):
        return f"{_pts(d['estimate'])} points [{_pts(d['low'])}, {_pts(d['high'])}]"
    return f"{number(d['estimate'], sign=True)} [{number(d['low'], sign=True)}, {number(d['high'], sign=True)}]"


def direction(d: Mapping[str, Any]) -> int:
    """+1 when the shift's interval lies above 0, -1 below, 0 when it includes 0 (or is unknown)."""
    if not _ok(d):
        return 0
    if d["low"] > 0:
        return 1
    if d["high"] < 0:
        return -1
    return 0


def verdict(
    name: str,
    unit: str,
    before: float | None,
    after: float | None,
    d: Mapping[str, Any],
    own: Mapping[str, Any] | None = None,
    up: str = "rises",
    down: str = "falls",
    clear: int | None = None,
) -> str:
    """One figure's verdict (see the module docstring). ``clear`` overrides whether the shift counts
    as clear (+1/-1) or not (0), for a figure judged against a stricter level than its own interval."""
    b, e = _fmt(unit, before), _fmt(unit, after)
    way = direction(d) if clear is None else clear
    shift = shift_text(unit, d)
    if way:
        return f"{name} {up if way > 0 else down} from {b} to {e}{_own(unit, own)}; shift {shift}"
    if _ok(d) and d["low"] == d["high"] == 0 and clear is None:
        return f"{name} is {b} with and without the edit, in every paired game; shift {shift}"
    if not _ok(d):
        return f"{name} is {b} with the original cards and {e} with the edit; too few paired games to tell"
    half = max(d["high"] - d["estimate"], d["estimate"] - d["low"])
    size = f"{100 * half:.1f} points" if unit in ("share", "points") else number(half)
    return (
        f"{name} is {b} with the original cards and {e} with the edit: no clear change (shift {shift}; a change "
        f"smaller than about {size} either way cannot be told apart from none)"
    )


def _rows(c: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    return {str(r["metric"]): r for r in c["rows"]}


def headlines(a: Mapping[str, Any], c: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The verdicts of one what-if comparison, headline figures first: (topic, sentence) pairs."""
    if not c["rows"]:
        return [("Games", "no game index was played with both the edit and the original cards yet.")]
    s = a["settings"][c["index"]]
    rows = _rows(c)
    out: list[tuple[str, str]] = []
    adv = rows.get("first-advantage")
    if adv is not None and s["players"] > 1:
        own = s["first_player"]["advantage"]
        text = verdict("the first player's edge", "points", adv["baseline"], adv["setting"], adv["difference"], own)
        out.append(("First player", text + "."))
    wins = []
    listed = [r for m, r in rows.items() if m.startswith("win:")]
    seated = [r for m, r in rows.items() if m.startswith("seat:")]
    for r in listed:
        spec = s["listed"][int(str(r["metric"]).partition(":")[2]) % len(s["listed"])]
        wins.append(
            verdict(str(r["label"]), "share", r["baseline"], r["setting"], r["difference"], s["agents"].get(spec))
        )
    if not listed:  # one agent at every seat: the seats' shares are the win shares
        for r in seated:
            seat = int(str(r["metric"]).partition(":")[2])
            own = s["seats"][seat] if seat < len(s["seats"]) else None
            wins.append(verdict(str(r["label"]), "share", r["baseline"], r["setting"], r["difference"], own))
    if wins:
        out.append(("Win shares", "; ".join(wins) + "."))
    turns = rows["turns"]
    out.append(
        (
            "Length",
            verdict(
                "a game's length in turns",
                "count",
                turns["baseline"],
                turns["setting"],
                turns["difference"],
                s["turns"]["mean"],
                up="grows",
                down="shrinks",
            )
            + ".",
        )
    )
    endings = []
    for m, r in rows.items():
        if m.startswith("reason:"):
            reason = m.partition(":")[2]
            own = s["reasons"].get(reason, {}).get("share")
            name = f"games ending by {words(reason)}"
            endings.append(verdict(name, "share", r["baseline"], r["setting"], r["difference"], own))
    if endings:
        out.append(("How games end", "; ".join(endings) + "."))
    out.append(("Cards", card_verdicts(s, c)))
    return out


def card_verdicts(s: Mapping[str, Any], c: Mapping[str, Any]) -> str:
    """The cards whose win contribution (win share when the agent used the card minus when it did
    not) shifts clearly, most clearly first; or how close the clearest came."""
    rows = c.get("cards") or []
    if not rows:
        return (
            "no card's win contribution can be compared (no card was both used and not used in 20 seats of each "
            "setting, or the two settings seat different agents)."
        )
    own = {(r["how"], r["name"], r["agent"]): r["difference"] for r in s.get("cards") or []}
    if all(_ok(r["difference"]) and r["difference"]["low"] == r["difference"]["high"] == 0 for r in rows):
        return f"no card's win contribution (win share when used minus when not) changes ({len(rows)} compared)."
    # Many cards are compared at once: at 95% each, one in twenty would seem to move by chance. A card
    # is named as moving only when its shift clears a Bonferroni-adjusted level over all of them.
    level = card_level(len(rows))
    ranked = sorted(rows, key=lambda r: (-strength(r), str(r["name"])))
    clear = [r for r in ranked if strength(r) > level]
    agents = len({r["agent"] for r in rows})

    def one(r: Mapping[str, Any], moves: bool) -> str:
        who = f" ({r['how']}{', ' + r['agent'] if agents > 1 else ''})"
        return verdict(
            f"{r['name']}{who}",
            "points",
            r["baseline"],
            r["setting"],
            r["difference"],
            own.get((r["how"], r["name"], r["agent"])),
            clear=(1 if r["difference"]["estimate"] > 0 else -1) if moves else 0,
        )

    family = f"judged together at 95% over the {len(rows)} compared (Bonferroni)"
    what = "win contribution (win share when used minus when not)"
    if not clear:
        return f"no card's {what} shifts clearly ({family}); the closest: {one(ranked[0], False)}."
    more = f" ({len(clear) - CARD_VERDICTS} more in the tables)" if len(clear) > CARD_VERDICTS else ""
    return (
        f"{what} shifts clearly for {len(clear)} card(s) ({family}): "
        + "; ".join(one(r, True) for r in clear[:CARD_VERDICTS])
        + more
        + "."
    )


def strength(r: Mapping[str, Any]) -> float:
    """A card shift's estimate in units of its 95% half-width (above 1: its interval excludes 0)."""
    d = r["difference"]
    if not _ok(d):
        return 0.0
    half = float(d["high"] - d["low"]) / 2
    if half <= 0:
        return math.inf if d["estimate"] else 0.0
    return abs(float(d["estimate"])) / half


def card_level(m: int) -> float:
    """How many 95% half-widths a shift must clear so that ``m`` cards judged together keep a 95%
    family-wise level (Bonferroni: the normal quantile at 1 - 0.025/m over the one at 0.975)."""
    from statistics import NormalDist

    z = NormalDist()
    return z.inv_cdf(1 - 0.025 / max(1, m)) / z.inv_cdf(0.975)


# -- several edits side by side -------------------------------------------------------------------

GRID_FIGURES: tuple[tuple[str, str, str], ...] = (
    ("first-advantage", "first player's edge", "points"),
    ("turns", "turns", "count"),
)


def grid_columns(a: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    """The figures of the side-by-side table: the first player's edge, turns, then every win share
    and end reason any comparison has."""
    cols = list(GRID_FIGURES)
    seen = {m for m, _, _ in cols}
    comparisons = whatif_comparisons(a)
    listed = any(str(r["metric"]).startswith("win:") for c in comparisons for r in c["rows"])
    kinds = ("win:", "reason:") if listed else ("seat:", "reason:")
    for c in comparisons:
        for r in c["rows"]:
            m = str(r["metric"])
            if m not in seen and m.startswith(kinds):
                seen.add(m)
                label = str(r["label"]).replace("games ending by ", "ending: ")
                cols.append((m, label, str(r["unit"])))
    return cols


def grid_table(a: Mapping[str, Any]) -> tuple[list[str], list[list[str]]]:
    """Header and rows: one row per edit, each cell the edited value and its shift [interval]."""
    cols = grid_columns(a)
    head = ["edit", "games", *(label for _, label, _ in cols)]
    body = []
    for c in whatif_comparisons(a):
        rows = _rows(c)
        cells = [str(c["setting"]), str(c["games"])]
        for metric, _, unit in cols:
            r = rows.get(metric)
            if r is None:
                cells.append("")
                continue
            mark = {1: " ▲", -1: " ▼", 0: ""}[direction(r["difference"])]
            cells.append(f"{_fmt(unit, r['setting'])} ({shift_text(unit, r['difference'])}){mark}")
        body.append(cells)
    return head, body


def whatif_text(a: Mapping[str, Any]) -> list[str]:
    """The what-if section of the text summary (empty for a run without ``--compare``)."""
    comparisons = whatif_comparisons(a)
    if not comparisons:
        return []
    out = [
        "",
        "What if: each edit against the original cards on the same deals and seats (game i of both dealt from one "
        "seed, seats rotated alike); values with the edit [95% interval]; shift = paired difference [95% interval]. "
        "Each figure is judged on its own interval, so among many figures about one in twenty may seem to move by "
        "chance: a shift that matters holds up in a second run with another --seed.",
    ]
    for c in comparisons:
        out.append("")
        out.append(f"{c['setting']} vs {c['baseline']} ({c['games']} paired games):")
        out += [f"  {topic}: {line}" for topic, line in headlines(a, c)]
    if len(comparisons) > 1:
        head, body = grid_table(a)
        out.append("")
        out.append("The edits side by side (value with the edit, shift against the original cards; ▲▼ clear shifts):")
        out += text_table(head, body)
    return out


def text_table(head: Sequence[str], body: Sequence[Sequence[str]], width: int = 80, keep: int = 2) -> list[str]:
    """A plain-text table at most ``width`` columns wide where it can be: the columns after the first
    ``keep`` (the edit and its games, repeated in every part) go into as many parts, one under the
    other, as it takes (a pandas-style wrap: a terminal would otherwise fold every row of a wide table)."""
    widths = [max(len(str(x)) for x in col) for col in zip(head, *body, strict=True)]
    fixed = list(range(min(keep, len(widths))))
    parts: list[list[int]] = []
    used = 2 + sum(widths[i] + 3 for i in fixed)  # the indent and each column's " | "
    for i in range(len(fixed), len(widths)):
        if not parts or (used + widths[i] > width and len(parts[-1]) > len(fixed)):
            parts.append(list(fixed))
            used = 2 + sum(widths[j] + 3 for j in fixed)
        parts[-1].append(i)
        used += widths[i] + 3
    lines: list[str] = []
    for part in parts or [fixed]:
        if lines:
            lines.append("")
        lines.append("  " + " | ".join(str(head[i]).ljust(widths[i]) for i in part).rstrip())
        lines.append("  " + "-+-".join("-" * widths[i] for i in part))
        lines += ["  " + " | ".join(str(row[i]).ljust(widths[i]) for i in part).rstrip() for row in body]
    return lines
