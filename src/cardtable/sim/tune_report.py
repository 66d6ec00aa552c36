"""The report of a balance search (:mod:`cardtable.sim.tune`): the best setting with its figures,
intervals and a verdict per target, the settings the games cannot tell from it, the exact command to
try it, every setting tried, and a plot of the search. Written as ``summary.txt``, ``report.json``,
``search.png`` and a self-contained ``report.html`` in the search's folder.
"""

from __future__ import annotations

import base64
import html
import json
import math
import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cardtable.sim.stats import Interval
from cardtable.sim.summary import game_info, number, points
from cardtable.sim.tune import METRICS, Candidate, Target, TuneResult

TABLE_ROWS = 25
"""Settings listed in the table of every setting tried (the best first)."""

VERDICT_WORDS = {
    "met": "met (the whole interval lies within the tolerance)",
    "unmet": "unmet (the whole interval lies outside the tolerance)",
    "undecided": "undecided (the interval reaches both inside and outside the tolerance: more games, a larger "
    "--budget, can decide it)",
}


def figure_text(t: Target, i: Interval) -> str:
    """A figure with its interval, in its unit: ``52.5% [49.0, 56.0]``, an edge (a difference of
    shares) in points as every report writes it, ``+0.3 points [-3.5, +4.1]``, or ``12.0 [11.9, 12.1]``."""
    if i.n == 0 or not math.isfinite(i.estimate):
        return "n/a"
    if t.unit == "share" and t.kind == "first-player-edge":
        return points(i.to_json())
    if t.unit == "share":
        return i.text(percent=True)
    if not (math.isfinite(i.low) and math.isfinite(i.high)):
        return f"{number(i.estimate)} [-inf, inf]"
    return f"{number(i.estimate)} [{number(i.low)}, {number(i.high)}]"


def target_text(t: Target) -> str:
    if t.unit == "share" and t.kind == "first-player-edge":
        return f"{100 * t.value:+g} ± {100 * t.tolerance:g} points"
    if t.unit == "share":
        return f"{100 * t.value:g}% ± {100 * t.tolerance:g}"
    return f"{t.value:g} ± {t.tolerance:g}"


def metric_name(t: Target) -> str:
    kind, _, arg = t.metric.partition(":")
    if kind == "win-share":
        return f"win share of {arg}"
    if kind == "end":
        return f"games ending by {arg.replace('-', ' ')}"
    return {
        "first-player-edge": "first player's edge",
        "length-turns": "game length in turns",
        "length-decisions": "game length in decisions",
    }[kind]


def try_command(result: TuneResult, c: Candidate) -> str:
    """The exact ``cardtable simulate`` line that plays the setting ``c``."""
    spec = result.spec
    parts = ["cardtable", "simulate", spec.game, "--seats", spec.seats]
    options = dict(spec.options)
    for axis, value in zip(spec.axes, c.key, strict=True):
        if not axis.card:
            options[axis.name] = value
    for k, v in options.items():
        parts += ["-o", f"{k}={v}"]
    for edit in c.setting.card_edits:
        parts += ["--card", edit]
    parts += ["--games", str(max(2000, c.games)), "--seed", str(spec.seed)]
    return " ".join(shlex.quote(p) for p in parts)


def _why_stopped(r: TuneResult) -> str:
    if r.stopped == "settled":
        return "settled: one setting is left that could be the best and each of its targets is decided"
    return "the budget is spent (run again with a larger --budget to continue)"


def analysis(r: TuneResult) -> dict[str, Any]:
    """Everything the report says, JSON-ready."""

    def row(c: Candidate) -> dict[str, Any]:
        assert c.score is not None
        return {
            "setting": c.setting.label,
            "values": dict(zip((a.name for a in r.spec.axes), c.key, strict=True)),
            "card_edits": list(c.setting.card_edits),
            "games": c.games,
            "order": c.order,
            "score": c.score.estimate if math.isfinite(c.score.estimate) else None,
            "figures": {m: i.to_json() for m, i in c.score.figures.items()},
            "verdicts": dict(c.score.verdicts),
        }

    ranked = sorted(r.candidates, key=lambda c: (c.score.estimate if c.score else math.inf, c.order))
    return {
        "game": r.spec.game,
        "vary": [a.text() for a in r.spec.axes],
        "targets": [{"metric": t.metric, "value": t.value, "tolerance": t.tolerance} for t in r.spec.targets],
        "budget": r.budget,
        "games": r.games,
        "played_now": r.played_now,
        "space": _space(r),
        "stopped": r.stopped,
        "best": row(r.best) if r.best is not None else None,
        "try": try_command(r, r.best) if r.best is not None else None,
        "not_told_apart": [row(c) for c in r.contenders[1:]],
        "closest": {m: row(c) for m, c in r.closest.items()},
        "settings": [row(c) for c in ranked],
    }


def _space(r: TuneResult) -> int:
    return math.prod(len(a.values) for a in r.spec.axes)


def summary_lines(r: TuneResult) -> list[str]:
    """The report in words."""
    spec = r.spec
    title = game_info(spec.game).title
    out = [
        f"{title}: balance search, {r.games:,} games of a budget of {r.budget:,} ({r.played_now:,} played now), "
        f"{len(r.candidates)} of {_space(r):,} settings tried, seed {spec.seed}.",
        f"Stopped: {_why_stopped(r)}.",
        f"Varied: {', '.join(a.text() for a in spec.axes)}. Agents: {spec.seats} (seats rotate every game).",
        "Targets: " + "; ".join(f"{metric_name(t)} {target_text(t)}" for t in spec.targets) + ".",
        "Every setting is played on the same deals (game i dealt from seed + i: common random numbers); figures carry "
        "95% intervals, and a target is met only when the whole interval lies within its tolerance.",
    ]
    best = r.best
    if best is None or best.score is None:
        out.append("No setting has been played yet.")
        return out
    out.append("")
    out.append(f"Best setting found: {best.setting.label} ({best.games:,} games)")
    for t in spec.targets:
        i = best.score.figures[t.metric]
        out.append(
            f"  {metric_name(t)}: {figure_text(t, i)} (target {target_text(t)}): "
            f"{VERDICT_WORDS[best.score.verdicts[t.metric]]}."
        )
    if all(v == "met" for v in best.score.verdicts.values()):
        out.append("  It meets every target.")
    others = r.contenders[1:]
    if others:
        listed = ", ".join(f"{c.setting.label} ({c.games:,} games)" for c in others[:8])
        more = f" and {len(others) - 8} more" if len(others) > 8 else ""
        out.append(
            f"  The games cannot tell it apart from {len(others)} other setting(s) (paired on the same deals): "
            f"{listed}{more}. Any of them may be the best; more games can separate them."
        )
    else:
        out.append("  No other setting tried comes close enough to be confused with it (paired on the same deals).")
    out.append(f"  To try it: {try_command(r, best)}")
    for t in spec.targets:
        closest = r.closest.get(t.metric)
        if closest is None or closest.score is None:
            continue
        if all(c.score is not None and c.score.verdicts[t.metric] == "unmet" for c in r.candidates):
            i = closest.score.figures[t.metric]
            out.append("")
            out.append(
                f"Target {metric_name(t)} {target_text(t)} is unmet: no setting tried reaches it. The closest, "
                f"{closest.setting.label} ({closest.games:,} games), gives {figure_text(t, i)}."
            )
    out.append("")
    out.append("Settings tried, best first (score: the sum over targets of ((figure - target) / tolerance)²):")
    head, body = settings_table(r)
    widths = [max(len(x) for x in col) for col in zip(head, *body, strict=True)]
    out.append("  " + " | ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)))
    out.append("  " + "-+-".join("-" * w for w in widths))
    out += ["  " + " | ".join(x.ljust(w) for x, w in zip(row, widths, strict=True)) for row in body]
    if len(r.candidates) > TABLE_ROWS:
        out.append(f"  ... and {len(r.candidates) - TABLE_ROWS} more in report.json")
    out.append("")
    out.append("To resume or continue, run the same command again (with a larger --budget to search further).")
    return out


def settings_table(r: TuneResult) -> tuple[list[str], list[list[str]]]:
    head = ["setting", "games", "score", *(metric_name(t) for t in r.spec.targets)]
    ranked = sorted(r.candidates, key=lambda c: (c.score.estimate if c.score else math.inf, c.order))
    body = []
    for c in ranked[:TABLE_ROWS]:
        assert c.score is not None
        cells = [c.setting.label, f"{c.games:,}", f"{c.score.estimate:.3g}"]
        for t in r.spec.targets:
            mark = {"met": " ✓", "unmet": " ✗", "undecided": ""}[c.score.verdicts[t.metric]]
            cells.append(figure_text(t, c.score.figures[t.metric]) + mark)
        body.append(cells)
    return head, body


# -- the plot of the search -------------------------------------------------------------------------


def search_plot(r: TuneResult) -> bytes | None:
    """Left: every setting's score in the order tried (size: games), with the best so far. Right: the
    first target's figure (with its interval) against the first varied value, the tolerance shaded;
    with two or more axes, the settings tried over the first two axes, coloured by score."""
    played = [c for c in r.candidates if c.score is not None and math.isfinite(c.score.estimate)]
    if not played:
        return None
    from matplotlib.figure import Figure

    fig = Figure(figsize=(10.0, 3.8), layout="constrained")
    ax1, ax2 = fig.subplots(1, 2)
    for ax in (ax1, ax2):
        ax.spines[["top", "right"]].set_visible(False)
        ax.tick_params(labelsize=8)
    order = sorted(played, key=lambda c: c.order)
    xs = list(range(1, len(order) + 1))
    scores = [max(1e-3, c.score.estimate if c.score else 0.0) for c in order]
    sizes = [10 + 60 * math.sqrt(c.games / max(x.games for x in order)) for c in order]
    ax1.scatter(xs, scores, s=sizes, color="#3b6ea5", alpha=0.7, label="a setting (size: games played)")
    best, run = [], math.inf
    for sc in scores:
        run = min(run, sc)
        best.append(run)
    ax1.step(xs, best, where="post", color="#e07b39", label="best so far")
    ax1.set_yscale("log")
    ax1.set_xlabel("settings in the order tried", fontsize=9)
    ax1.set_ylabel("score (lower is closer to the targets)", fontsize=9)
    ax1.set_title("The search", fontsize=10)
    ax1.legend(fontsize=7.5, frameon=False)
    axes = r.spec.axes
    if len(axes) == 1 or any(a.bounds is None for a in axes[:2]):
        t = r.spec.targets[0]
        scale = 100.0 if t.unit == "share" else 1.0
        pts = sorted(played, key=lambda c: axes[0].values.index(c.key[0]))
        vx = [axes[0].values.index(c.key[0]) for c in pts]
        est = [scale * c.score.figures[t.metric].estimate if c.score else 0.0 for c in pts]
        lo = [
            max(0.0, e - scale * c.score.figures[t.metric].low) if c.score else 0.0
            for e, c in zip(est, pts, strict=True)
        ]
        hi = [
            max(0.0, scale * c.score.figures[t.metric].high - e) if c.score else 0.0
            for e, c in zip(est, pts, strict=True)
        ]
        lo = [x if math.isfinite(x) else 0.0 for x in lo]
        hi = [x if math.isfinite(x) else 0.0 for x in hi]
        ax2.errorbar(vx, est, yerr=[lo, hi], fmt="o", color="#3b6ea5", capsize=3, label="figure, 95% interval")
        band = (scale * (t.value - t.tolerance), scale * (t.value + t.tolerance))
        ax2.axhspan(*band, color="#4e9a5b", alpha=0.15, label="target ± tolerance")
        ax2.set_xticks(sorted(set(vx)), [axes[0].values[v] for v in sorted(set(vx))], fontsize=7)
        ax2.set_xlabel(axes[0].name, fontsize=9)
        ax2.set_ylabel(metric_name(t) + (" (%)" if t.unit == "share" else ""), fontsize=9)
        ax2.set_title(f"{metric_name(t).capitalize()} by {axes[0].name}", fontsize=10)
        ax2.legend(fontsize=7.5, frameon=False)
    else:
        a, b = axes[0], axes[1]
        px = [int(c.key[0]) for c in played]
        py = [int(c.key[1]) for c in played]
        logs = [math.log10(max(1e-3, c.score.estimate if c.score else 1e-3)) for c in played]
        sc = ax2.scatter(px, py, c=logs, cmap="viridis_r", s=40, label="a setting tried")
        if r.best is not None:
            ax2.scatter(
                [int(r.best.key[0])], [int(r.best.key[1])], marker="*", s=220, color="#e07b39", label="best found"
            )
        ax2.set_xlabel(a.name, fontsize=9)
        ax2.set_ylabel(b.name, fontsize=9)
        ax2.set_title(f"Settings tried over {a.name} and {b.name}", fontsize=10)
        cb = fig.colorbar(sc, ax=ax2)
        cb.set_label("log10 score", fontsize=8)
        ax2.legend(fontsize=7.5, frameon=False, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2)
    import io

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=144)
    return buf.getvalue()


CAPTION = (
    "Left: every setting the search tried, in order, by its score (the sum over targets of ((figure - target) / "
    "tolerance)², log scale; lower is closer), the dot's size growing with its games; the line is the best so far. "
    "Right: how the figures depend on the varied numbers."
)


def write_report(r: TuneResult, folder: Path, *, plots: bool = True) -> str:
    """Write ``summary.txt``, ``report.json``, ``search.png`` and ``report.html``; return the summary."""
    lines = summary_lines(r)
    text = "\n".join(lines)
    data = analysis(r)
    png = search_plot(r) if plots else None
    (folder / "search.png").unlink(missing_ok=True)
    if png is not None:
        (folder / "search.png").write_bytes(png)
    (folder / "summary.txt").write_text(text + "\n")
    (folder / "report.json").write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    (folder / "report.html").write_text(render_html(r, lines, png))
    return text


def render_html(r: TuneResult, lines: Sequence[str], png: bytes | None) -> str:
    from cardtable.sim.page import CSS, table

    title = game_info(r.spec.game).title
    e = html.escape
    head, body = settings_table(r)
    intro, _, _ = "\n".join(lines).partition("\nSettings tried, best first")
    paragraphs = "".join(
        f"<p>{e(block).replace(chr(10), '<br>')}</p>" for block in intro.split("\n\n") if block.strip()
    )
    figure = ""
    if png is not None:
        data = base64.b64encode(png).decode()
        figure = (
            f'<figure><img alt="the search" style="width:960px" src="data:image/png;base64,{data}">'
            f"<figcaption><b>Figure 1. The search.</b> {e(CAPTION)}</figcaption></figure>"
        )
    return "\n".join(
        [
            "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
            "<meta name='viewport' content='width=device-width, initial-scale=1'>",
            f"<title>{e(title)}: balance search</title><style>{CSS}</style></head><body><main>",
            f"<header><h1>{e(title)}: balance search</h1></header>",
            f"<section id='summary'><div class='summary'>{paragraphs}</div></section>",
            figure,
            table(head, body, numeric=tuple(range(1, len(head))), title="Settings tried, best first"),
            "</main></body></html>",
        ]
    )


def describe_metrics() -> str:
    return "; ".join(f"{k}: {v[0]}" for k, v in METRICS.items())
