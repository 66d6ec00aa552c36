"""The report's figures, drawn with matplotlib (imported only here, and only when a report draws plots).

Every figure has labelled axes, a legend and a caption, and shows at least two things side by side:
a chart of a single bar or a single value says nothing, so such a quantity is left to the text and
tables. Figures use matplotlib's object API (no pyplot, no global state, no GUI backend), are 5 inches
per panel and shown at their size, so their lettering has one size on the page, and are saved as PNG.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardtable.sim.analysis import how_order
from cardtable.sim.summary import share, whole, words

CARD_PLOT_ROWS = 15
"""Cards per panel of a card figure (the most used)."""

WIDTH = 10.0
"""Inches: every figure is this wide (the page shows it at 96 pixels per inch)."""

BLUE, ORANGE, GREEN, GREY = "#3b6ea5", "#e07b39", "#4e9a5b", "#555555"
PALETTE = ("#3b6ea5", "#e07b39", "#4e9a5b", "#c44e52", "#8172b3", "#937860", "#da8bc3", "#8c8c8c")


@dataclass(frozen=True)
class Plot:
    """One figure: its file name, the page section it belongs to, its title, caption, PNG and width."""

    name: str
    section: str
    title: str
    caption: str
    png: bytes
    width: float = WIDTH
    """Inches; the page shows the figure at 96 pixels per inch, so all lettering has one size."""
    figure: Any = field(default=None, compare=False, repr=False)
    """The matplotlib figure it was drawn from (tests read its axes, labels and legends)."""


def _figure(height: float, panels: int = 1, width: float | None = None) -> tuple[Any, list[Any]]:
    """A figure of ``panels`` side by side, 5 inches each (at most :data:`WIDTH`) unless ``width``."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width or min(WIDTH, 5.0 * panels), height), layout="constrained")
    axes = fig.subplots(1, panels, squeeze=False)[0]
    for ax in axes:
        ax.spines[["top", "right"]].set_visible(False)
        ax.tick_params(labelsize=8)
        ax.xaxis.label.set_size(9)
        ax.yaxis.label.set_size(9)
    return fig, list(axes)


def _png(fig: Any) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=144)
    return buf.getvalue()


def _plot(name: str, section: str, title: str, caption: str, fig: Any) -> Plot:
    return Plot(name, section, title, caption, _png(fig), float(fig.get_figwidth()), fig)


def _legend_below(ax: Any, ncol: int = 2, drop: float = 0.0) -> None:
    """The legend under the axes, clear of the tick labels and the axis label whatever the axes' height;
    ``drop`` inches lower still, under tick labels taller than one line (slanted setting names)."""
    from matplotlib.transforms import ScaledTranslation

    below = ax.transAxes + ScaledTranslation(0, -0.48 - drop, ax.figure.dpi_scale_trans)
    ax.legend(fontsize=7.5, loc="upper center", bbox_to_anchor=(0.5, 0), bbox_transform=below, ncol=ncol, frameon=False)


def _errors(intervals: Sequence[Mapping[str, Any]], scale: float = 100.0) -> tuple[list[float], list[list[float]]]:
    """Estimates (times ``scale``) and their error bars (distances below and above)."""
    est, low, high = [], [], []
    for i in intervals:
        e = scale * i["estimate"] if i.get("estimate") is not None else 0.0
        est.append(e)
        low.append(max(0.0, e - scale * i["low"]) if i.get("low") is not None else 0.0)
        high.append(max(0.0, scale * i["high"] - e) if i.get("high") is not None else 0.0)
    return est, [low, high]


def _share_bars(
    ax: Any,
    labels: Sequence[str],
    intervals: Sequence[Mapping[str, Any]],
    title: str,
    xlabel: str,
    fair: float | None,
    color: str,
) -> None:
    """Horizontal bars of shares (in %) with their 95% intervals; a dashed line at the fair share."""
    est, err = _errors(intervals)
    ys = list(range(len(labels)))[::-1]
    style = {"color": color, "alpha": 0.85, "capsize": 3, "error_kw": {"elinewidth": 1}}
    ax.barh(ys, est, xerr=err, label="share, with its 95% interval", **style)
    ax.set_yticks(ys, labels)
    if fair is not None:
        ax.axvline(100 * fair, color=GREY, linestyle="--", linewidth=1, label=f"fair share ({share(fair)})")
    ax.set_xlim(0, 100)
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=10)
    _legend_below(ax)


def wins_plot(s: Mapping[str, Any], section: str, stem: str) -> Plot | None:
    """Win share per agent and per seat (each panel only when it compares two or more)."""
    panels: list[tuple[list[str], list[Mapping[str, Any]], str, str]] = []
    if len(s["agents"]) > 1:
        panels.append((list(s["agents"]), list(s["agents"].values()), "per agent (of the seats it held)", BLUE))
    if s["players"] > 1:
        panels.append((list(s["seat_names"]), list(s["seats"]), "per seat", GREEN))
    if not panels:
        return None
    rows = max(len(p[0]) for p in panels)
    fig, axes = _figure(1.5 + 0.4 * rows, len(panels))
    for ax, (labels, intervals, title, color) in zip(axes, panels, strict=True):
        _share_bars(ax, labels, intervals, f"Win share {title}", "win share (%)", s["first_player"]["fair"], color)
    what = " and ".join(p[2].split(" (")[0] for p in panels)
    caption = (
        f"Win share {what}, with 95% Wilson intervals. The dashed line is the fair share "
        f"({share(s['first_player']['fair'])}): what each seat would win if neither seat nor agent mattered. "
        "A tie counts as a shared win."
    )
    return _plot(f"{stem}-wins.png", section, "Who wins", caption, fig)


def _histogram(ax: Any, d: Mapping[str, Any], xlabel: str, color: str) -> None:
    edges, counts = d["histogram"]["edges"], d["histogram"]["counts"]
    widths = [edges[k + 1] - edges[k] for k in range(len(counts))]
    ax.bar(edges[:-1], counts, width=widths, align="edge", color=color, alpha=0.8, edgecolor="white", label="games")
    p = d["percentiles"]
    ax.axvspan(p["25"], p["75"], color=GREY, alpha=0.12, label=f"middle half ({whole(p['25'])} to {whole(p['75'])})")
    ax.axvline(p["50"], color="black", linewidth=1.2, label=f"median ({whole(p['50'])})")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("games")
    _legend_below(ax, 3)


def _varies(d: Mapping[str, Any]) -> bool:
    return bool(d["n"] > 1 and d["min"] != d["max"])


def length_plot(s: Mapping[str, Any], section: str, stem: str) -> Plot | None:
    """Histograms of turns and decisions per game (a panel only when lengths vary)."""
    measures = (("turns", "turns per game"), ("decisions", "decisions per game"))
    panels = [(key, label) for key, label in measures if _varies(s[key])]
    if not panels:
        return None
    fig, axes = _figure(3.3, len(panels))
    for ax, (key, label), color in zip(axes, panels, (BLUE, GREEN), strict=False):
        _histogram(ax, s[key], label, color)
        ax.set_title(f"How long games last: {label}", fontsize=10)
    caption = (
        "How many games lasted how long. The shaded band holds the middle half of the games (25th to 75th "
        "percentile) and the black line is the median."
    )
    if s.get("forced") and s["forced"]["share"]:
        caption += (
            f" Decisions include the forced ones (a single legal action, {share(s['forced']['share'])} of all "
            "decisions), which the simulator applies without asking the agent."
        )
    return _plot(f"{stem}-length.png", section, "Game length", caption, fig)


def scores_plot(s: Mapping[str, Any], section: str, stem: str) -> Plot | None:
    """Final scores per agent (per seat when one agent plays every seat), on shared bins."""
    by = "agent" if len(s["agents"]) > 1 else "seat"
    hist = s["scores"][f"histogram_by_{by}"]
    edges, series = hist["edges"], [(name, c) for name, c in hist["counts"].items() if sum(c)]
    # Two series at least; and three bins at least, as two (say scores 0 and 1) only repeat the win shares.
    if len(series) < 2 or len(edges) < 4:
        return None
    fig, (ax,) = _figure(3.3, width=WIDTH)
    for k, (name, counts) in enumerate(series):
        ax.stairs(counts, edges, label=f"{by} {name}", color=PALETTE[k % len(PALETTE)], linewidth=1.8)
    ax.set_xlabel("final score")
    ax.set_ylabel("games")
    ax.yaxis.get_major_locator().set_params(integer=True)  # games are counted whole: no 2.5 games
    ax.set_title(f"Final scores per {by}", fontsize=10)
    _legend_below(ax, len(series))
    caption = f"How many games ended with each final score, per {by} (the game's own scores, as its result gives them)."
    return _plot(f"{stem}-scores.png", section, "Scores", caption, fig)


def outcomes_plot(s: Mapping[str, Any], section: str, stem: str) -> Plot | None:
    """End reasons and tabulated result details, each panel only when it has two or more values."""
    panels = []
    if len(s["reasons"]) > 1:
        panels.append(("How games end", {words(r): v["share"] for r, v in s["reasons"].items()}))
    for key, values in s["details"].items():
        if len(values) > 1:
            panels.append((words(key).capitalize(), {v: x["share"] for v, x in values.items()}))
    if not panels:
        return None
    rows = max(len(p[1]) for p in panels)
    fig, axes = _figure(1.5 + 0.4 * rows, len(panels))
    for ax, (title, values) in zip(axes, panels, strict=True):
        _share_bars(ax, list(values), list(values.values()), title, "share of games (%)", None, ORANGE)
    names = ", ".join(title.lower() for title, _ in panels)
    caption = f"Share of games by outcome ({names}), with 95% Wilson intervals."
    return _plot(f"{stem}-outcomes.png", section, "How games end", caption, fig)


def cards_plot(s: Mapping[str, Any], agent: str, section: str, stem: str) -> Plot | None:
    """For one agent's most used cards: how much more (or less) often it wins when it uses each card."""
    overall = s["agents"][agent]["estimate"]
    if overall in (0.0, 1.0):
        return None  # it won every game or none: no card can show a difference
    rows = [r for r in s.get("cards") or [] if r["agent"] == agent and 0 < r["games"] < r["of"]]
    panels = []
    for how in sorted({r["how"] for r in rows}, key=how_order):
        mine = [r for r in rows if r["how"] == how][:CARD_PLOT_ROWS]
        if len(mine) > 1:
            panels.append((how, mine))
    if not panels:
        return None
    n = max(len(p[1]) for p in panels)
    fig, axes = _figure(1.6 + 0.27 * n, len(panels))
    for ax, (how, mine) in zip(axes, panels, strict=True):
        ys = list(range(len(mine)))[::-1]
        est = [100 * r["difference"]["estimate"] for r in mine]
        err = [
            [100 * (r["difference"]["estimate"] - r["difference"]["low"]) for r in mine],
            [100 * (r["difference"]["high"] - r["difference"]["estimate"]) for r in mine],
        ]
        dots = {"fmt": "o", "color": BLUE, "markersize": 4, "elinewidth": 1, "capsize": 2}
        ax.errorbar(est, ys, xerr=err, label="difference, with its 95% interval", **dots)
        ax.axvline(0, color=GREY, linestyle="--", linewidth=1, label="no difference")
        ax.set_yticks(ys, [f"{r['name']} ({share(r['share_of_games']['estimate'])})" for r in mine])
        ax.set_xlabel(f"win share when {how} minus when not (points)")
        ax.set_title(f"Cards {agent} {how}", fontsize=10)
        _legend_below(ax)
    caption = (
        f"For the cards {agent} used in most games (in brackets: the share of its games in which it used the "
        "card): how many percentage points more often it won the games where it used the card than those where "
        "it did not, with Newcombe's 95% interval. This is an association, not a cause: a card used more often in "
        "long games, or by a player who is already ahead, looks better than it is."
    )
    return _plot(f"{stem}-cards-{_slug(agent)}.png", section, f"Cards: {agent}", caption, fig)


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in text).strip("-")[:40] or "agent"


def grid_plot(a: Mapping[str, Any], section: str) -> Plot | None:
    """Each setting's mean game length and first player's win share, side by side."""
    played = [s for s in a["settings"] if s["games"]]
    if len(played) < 2:
        return None
    grid = a.get("grid") or []
    numeric = len(grid) == 1 and all(v.lstrip("-").isdigit() for v in grid[0][1]) and len(played) == len(a["settings"])
    xs: list[float] = [float(v) for v in grid[0][1]] if numeric else [float(k) for k in range(len(played))]
    xlabel = grid[0][0] if numeric else "setting"
    panels = [
        ("turns per game", [s["turns"]["mean"] for s in played], 1.0),
        ("decisions per game", [s["decisions"]["mean"] for s in played], 1.0),
    ]
    if all(s["players"] > 1 for s in played):
        panels.append(("first player's win share (%)", [s["first_player"]["win"] for s in played], 100.0))
    fig, axes = _figure(3.4, len(panels))
    for ax, (label, intervals, scale) in zip(axes, panels, strict=True):
        est = [scale * (i["estimate"] or 0.0) for i in intervals]
        low = [scale * i["low"] if i.get("low") is not None else e for i, e in zip(intervals, est, strict=True)]
        high = [scale * i["high"] if i.get("high") is not None else e for i, e in zip(intervals, est, strict=True)]
        below = [max(0.0, e - lo) for e, lo in zip(est, low, strict=True)]
        above = [max(0.0, h - e) for e, h in zip(est, high, strict=True)]
        what = "share" if scale == 100.0 else "mean"
        style = {"fmt": "o-" if numeric else "o", "color": BLUE, "capsize": 3}
        ax.errorbar(xs, est, yerr=[below, above], label=f"{what}, with its 95% interval", **style)
        if scale == 100.0:
            ax.plot(xs, [100 * s["first_player"]["fair"] for s in played], "--", color=GREY, label="fair share")
        if numeric:
            ax.set_xticks(xs, [f"{x:g}" for x in xs])
        else:
            ax.set_xticks(xs, [s["label"] for s in played], rotation=20, ha="right")
        ax.set_xlabel(xlabel)
        ax.set_ylabel(label)
        ax.set_title(label.replace(" (%)", "").capitalize(), fontsize=10)
        # Names slanted at 20 degrees reach lower the longer they are (8-point letters, about 0.06 inch
        # wide, drop sin 20 x 0.06 = 0.021 inch each): the legend goes under them, not across the axis label.
        slant = 0.0 if numeric else 0.021 * max(len(str(s["label"])) for s in played)
        _legend_below(ax, 1, slant)
    caption = (
        "Each setting's mean game length and the first player's win share, with 95% intervals (t for means, "
        "Wilson for shares). Every setting plays the same deals, so the paired differences in the table above "
        "are tighter than these intervals suggest."
    )
    return _plot("grid.png", section, "Settings side by side", caption, fig)


def whatif_plot(a: Mapping[str, Any], section: str) -> Plot | None:
    """The shift each card edit makes in the first player's edge and in game length, with paired 95%
    intervals, one row per edit (a forest plot): where a bar crosses 0, the games cannot tell."""
    from cardtable.sim.whatif import whatif_comparisons

    comparisons = [c for c in whatif_comparisons(a) if c["rows"]]
    if not comparisons:
        return None
    measures = [("first-advantage", "first player's edge (points)", 100.0), ("turns", "turns per game", 1.0)]
    panels = [m for m in measures if any(r["metric"] == m[0] for c in comparisons for r in c["rows"])]
    fig, axes = _figure(1.6 + 0.42 * len(comparisons), len(panels))
    labels = [str(c["setting"]) for c in comparisons]
    ys = list(range(len(labels)))[::-1]
    for ax, (metric, label, scale) in zip(axes, panels, strict=True):
        est, low, high = [], [], []
        for c in comparisons:
            r = next((r for r in c["rows"] if r["metric"] == metric), None)
            d = r["difference"] if r is not None else {}
            e = scale * d["estimate"] if d.get("estimate") is not None else 0.0
            est.append(e)
            low.append(max(0.0, e - scale * d["low"]) if d.get("low") is not None else 0.0)
            high.append(max(0.0, scale * d["high"] - e) if d.get("high") is not None else 0.0)
        ax.errorbar(est, ys, xerr=[low, high], fmt="o", color=BLUE, capsize=3, label="shift, paired 95% interval")
        ax.axvline(0, color=GREY, linestyle="--", linewidth=1, label="no change")
        ax.set_yticks(ys, labels)
        ax.set_xlabel(f"shift in {label}")
        ax.set_title(f"Shift in {label.split(' (')[0]}", fontsize=10)
        _legend_below(ax)
    caption = (
        "Each card edit against the original cards on the same deals and seats: the mean paired shift with its 95% "
        "t interval. An interval that does not cross the dashed line at 0 is a clear change."
    )
    return _plot("whatif.png", section, "What the edits change", caption, fig)
