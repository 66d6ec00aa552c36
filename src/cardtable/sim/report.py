"""A run's report: ``report.json`` (all statistics), PNG plots, a self-contained ``report.html``
(plots embedded as base64) and a short text summary for the terminal (also ``summary.txt``)."""

from __future__ import annotations

import base64
import html
import io
import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from cardtable.sim.analysis import CARD_PARAM, analyze
from cardtable.sim.store import RECORDS, RESULTS, ResultsError, iter_lines, read_manifest, read_results

CARD_ROWS = 40
"""How many cards (most used first) the page and the summary list per setting."""


def _pct(i: Mapping[str, Any]) -> str:
    if not i or i.get("n", 0) == 0 or i.get("estimate") is None:
        return "n/a"
    return f"{100 * i['estimate']:.1f}% [{100 * i['low']:.1f}, {100 * i['high']:.1f}]"


def _g(x: float, sign: str = "") -> str:
    """A number at a precision a reader wants: whole above 100, one decimal above 10, else 3 digits."""
    if abs(x) >= 100:
        return f"{x:{sign}.0f}"
    if abs(x) >= 10:
        return f"{x:{sign}.1f}"
    return f"{x:{sign}.3g}"


def _num(i: Mapping[str, Any]) -> str:
    if not i or i.get("n", 0) == 0 or i.get("estimate") is None:
        return "n/a"
    low = "-inf" if i.get("low") is None else _g(i["low"])
    high = "inf" if i.get("high") is None else _g(i["high"])
    return f"{_g(i['estimate'], '+')} [{low}, {high}]"


def _length(d: Mapping[str, Any]) -> str:
    p = d["percentiles"]
    if not p:
        return "n/a"
    return f"median {p['50']:g} (p10 {p['10']:g}, p90 {p['90']:g}; min {d['min']:g}, max {d['max']:g})"


def summary_text(a: Mapping[str, Any]) -> str:
    """The short text summary printed at the end of a run and by ``cardtable report``."""
    out = [f"{a['game']}: {a['games_played']} of {a['games_planned']} games (seed {a['seed']})"]
    for s in a["settings"]:
        out.append("")
        out.append(f"[{s['label']}] {s['games']} games, {s['players']} seats, listed agents: {', '.join(s['listed'])}")
        if not s["games"]:
            continue
        for spec, i in s["agents"].items():
            out.append(f"  win  {spec:<32} {_pct(i)}")
        for seat, i in enumerate(s["seats"]):
            out.append(f"  seat {seat + 1:<32} {_pct(i)}")
        fp = s["first_player"]
        if s["players"] > 1:
            out.append(f"  first player wins {_pct(fp['win'])} vs fair {100 * fp['fair']:.1f}%")
        out.append(f"  turns     {_length(s['turns'])}")
        out.append(f"  decisions {_length(s['decisions'])}")
        reasons = ", ".join(f"{r} {v['count']}" for r, v in s["reasons"].items())
        out.append(f"  end reasons: {reasons}")
        if s["truncated"]:
            out.append(f"  WARNING: {s['truncated']} game(s) stopped by a limit (truncated), not by the rules")
        for key, values in s["details"].items():
            cells = ", ".join(f"{v} {_pct(x['share'])}" for v, x in values.items())
            out.append(f"  {key}: {cells}")
    for c in a["comparisons"]:
        out.append("")
        out.append(f"[{c['setting']}] minus [{c['baseline']}] (paired games, 95% t interval):")
        for metric, i in c["differences"].items():
            out.append(f"  {metric:<32} {_num(i)}")
    return "\n".join(out)


# -- plots --------------------------------------------------------------------------------------


def _figures(a: Mapping[str, Any]) -> dict[str, bytes]:
    """Every plot as PNG bytes, by file name."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    def png(fig: Any) -> bytes:
        buf = io.BytesIO()
        fig.tight_layout()
        fig.savefig(buf, format="png", dpi=90)
        plt.close(fig)
        return buf.getvalue()

    def bars(ax: Any, labels: list[str], intervals: list[Mapping[str, Any]], title: str) -> None:
        est = [i["estimate"] if i.get("estimate") is not None else 0.0 for i in intervals]
        low = [max(0.0, e - (i["low"] if i.get("low") is not None else e)) for e, i in zip(est, intervals, strict=True)]
        high = [
            max(0.0, (i["high"] if i.get("high") is not None else e) - e) for e, i in zip(est, intervals, strict=True)
        ]
        ax.bar(range(len(labels)), est, yerr=[low, high], capsize=4, color="#4c72b0")
        ax.set_xticks(range(len(labels)), labels, rotation=20, ha="right", fontsize=8)
        ax.set_title(title, fontsize=10)

    figs: dict[str, bytes] = {}
    for k, s in enumerate(a["settings"]):
        if not s["games"]:
            continue
        fig, axes = plt.subplots(1, 3, figsize=(13, 3.6))
        bars(axes[0], list(s["agents"]), list(s["agents"].values()), "win share per agent (95% Wilson)")
        bars(axes[1], [f"seat {i + 1}" for i in range(s["players"])], s["seats"], "win share per seat")
        reasons = s["reasons"]
        axes[2].bar(range(len(reasons)), [v["count"] for v in reasons.values()], color="#dd8452")
        axes[2].set_xticks(range(len(reasons)), list(reasons), rotation=20, ha="right", fontsize=8)
        axes[2].set_title("end reasons", fontsize=10)
        figs[f"setting{k}_wins.png"] = png(fig)

        fig, axes = plt.subplots(1, 3, figsize=(13, 3.6))
        for ax, key in ((axes[0], "turns"), (axes[1], "decisions")):
            d = s[key]
            edges, counts = d["histogram"]["edges"], d["histogram"]["counts"]
            if counts:
                widths = [edges[i + 1] - edges[i] for i in range(len(counts))]
                ax.bar(edges[:-1], counts, width=widths, align="edge", color="#55a868", edgecolor="white")
                for q, style in (("25", ":"), ("50", "-"), ("75", ":")):
                    ax.axvline(d["percentiles"][q], color="black", linestyle=style, linewidth=1)
            ax.set_title(f"{key} per game (median, quartiles)", fontsize=10)
        for spec, d in s["scores"]["by_agent"].items():
            edges, counts = d["histogram"]["edges"], d["histogram"]["counts"]
            if counts:
                mids = [(edges[i] + edges[i + 1]) / 2 for i in range(len(counts))]
                axes[2].step(mids, counts, where="mid", label=spec)
        axes[2].set_title("scores per agent", fontsize=10)
        if s["scores"]["by_agent"]:
            axes[2].legend(fontsize=7)
        figs[f"setting{k}_length.png"] = png(fig)

        if s["details"]:
            keys = list(s["details"])
            fig, axes = plt.subplots(1, len(keys), figsize=(4.5 * len(keys), 3.4), squeeze=False)
            for ax, key in zip(axes[0], keys, strict=True):
                values = s["details"][key]
                bars(ax, list(values), [v["share"] for v in values.values()], f"{key} (share of games)")
            figs[f"setting{k}_details.png"] = png(fig)

    played = [s for s in a["settings"] if s["games"]]
    if len(played) > 1:
        labels = [s["label"] for s in played]
        fig, axes = plt.subplots(1, 3, figsize=(13, 3.6))
        for ax, key in ((axes[0], "turns"), (axes[1], "decisions")):
            bars(ax, labels, [s[key]["mean"] for s in played], f"mean {key} per setting (95% t)")
        first = played[0]["listed"][0]
        bars(
            axes[2],
            labels,
            [s["agents"].get(s["listed"][0], {"n": 0}) for s in played],
            f"win share of the first listed agent ({first}, ...)",
        )
        figs["grid.png"] = png(fig)
    return figs


# -- HTML ---------------------------------------------------------------------------------------


def _table(head: list[str], rows: list[list[str]]) -> str:
    h = "".join(f"<th>{html.escape(c)}</th>" for c in head)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><tr>{h}</tr>{body}</table>"


def render_html(a: Mapping[str, Any], figs: Mapping[str, bytes]) -> str:
    """The self-contained report page."""

    def img(name: str) -> str:
        if name not in figs:
            return ""
        data = base64.b64encode(figs[name]).decode()
        return f'<img alt="{html.escape(name)}" src="data:image/png;base64,{data}">'

    parts = [
        "<!doctype html><html><head><meta charset='utf-8'>",
        f"<title>cardtable report: {html.escape(a['game'])}</title>",
        "<style>body{font-family:sans-serif;margin:2em;max-width:1200px}table{border-collapse:collapse;"
        "margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;font-size:13px}"
        "img{max-width:100%}.warn{color:#b00;font-weight:bold}</style></head><body>",
        f"<h1>{html.escape(a['game'])}: {a['games_played']} of {a['games_planned']} games</h1>",
        f"<p>Run seed {a['seed']}. Intervals are 95%: Wilson for shares, t for means and paired differences."
        " A tied win counts as the seat's share.</p>",
    ]
    if len(a["settings"]) > 1:
        rows = []
        for s in a["settings"]:
            if not s["games"]:
                rows.append([s["label"], "0", "", "", "", ""])
                continue
            rows.append(
                [
                    s["label"],
                    str(s["games"]),
                    f"{s['turns']['percentiles']['50']:g}",
                    f"{s['decisions']['percentiles']['50']:g}",
                    _pct(s["agents"].get(s["listed"][0], {})),
                    str(s["truncated"]),
                ]
            )
        parts.append("<h2>Settings side by side</h2>")
        parts.append(
            _table(
                ["setting", "games", "median turns", "median decisions", "win share of 1st agent", "truncated"], rows
            )
        )
        for c in a["comparisons"]:
            parts.append(f"<h3>{html.escape(c['setting'])} minus {html.escape(c['baseline'])} (paired)</h3>")
            parts.append(
                _table(["metric", "difference [95% interval]"], [[m, _num(i)] for m, i in c["differences"].items()])
            )
        parts.append(img("grid.png"))
    for k, s in enumerate(a["settings"]):
        parts.append(f"<h2>Setting: {html.escape(s['label'])}</h2>")
        parts.append(
            f"<p>{s['games']} games, {s['players']} seats; options {html.escape(json.dumps(s['options']))}; "
            f"agents {html.escape(', '.join(s['listed']))}; {s['seconds']:.1f} s of play.</p>"
        )
        if not s["games"]:
            continue
        if s["truncated"]:
            parts.append(
                f"<p class='warn'>{s['truncated']} game(s) were stopped by a limit (truncated), "
                "not ended by the rules.</p>"
            )
        parts.append(_table(["agent", "win share"], [[spec, _pct(i)] for spec, i in s["agents"].items()]))
        fp = s["first_player"]
        seat_rows = [[f"seat {i + 1}", _pct(x)] for i, x in enumerate(s["seats"])]
        if s["players"] > 1:
            seat_rows.append(["first player", _pct(fp["win"]) + f" (fair {100 * fp['fair']:.1f}%)"])
            seat_rows.append(["first-player advantage", _num(fp["advantage"])])
        parts.append(_table(["seat position", "win share"], seat_rows))
        qs = list(s["turns"]["percentiles"])
        parts.append(
            _table(
                ["length", "mean [95%]", *[f"p{q}" for q in qs]],
                [
                    [key, _num(s[key]["mean"]).lstrip("+"), *[f"{s[key]['percentiles'][q]:g}" for q in qs]]
                    for key in ("turns", "decisions")
                ],
            )
        )
        parts.append(
            _table(
                ["end reason", "games", "share"],
                [[r, str(v["count"]), _pct(v["share"])] for r, v in s["reasons"].items()],
            )
        )
        score_rows = [
            [spec, _num(d["mean"]).lstrip("+"), f"{d['percentiles'].get('50', math.nan):g}"]
            for spec, d in s["scores"]["by_agent"].items()
            if d["n"]
        ]
        parts.append(_table(["scores of agent", "mean [95%]", "median"], score_rows))
        for key, values in s["details"].items():
            parts.append(
                _table([key, "games", "share"], [[v, str(x["count"]), _pct(x["share"])] for v, x in values.items()])
            )
        parts.append(img(f"setting{k}_wins.png"))
        parts.append(img(f"setting{k}_length.png"))
        parts.append(img(f"setting{k}_details.png"))
        cards = a["cards"].get(str(k))
        if cards:
            parts.append(f"<h3>Cards (the {min(CARD_ROWS, len(cards))} most used)</h3>")
            parts.append(
                _table(
                    ["card", "id", "games x seats", "actions", "kinds", "win share of its user"],
                    [
                        [
                            r["name"],
                            str(r["card"]),
                            str(r["uses"]),
                            str(r["actions"]),
                            ", ".join(r["kinds"]),
                            _pct(r["win"]),
                        ]
                        for r in cards[:CARD_ROWS]
                    ],
                )
            )
    parts.append("</body></html>")
    return "\n".join(parts)


# -- folder ---------------------------------------------------------------------------------------


def _describer(game_id: str, settings: list[Mapping[str, Any]]) -> Any:
    """``describe(setting, action_text)``: the acted-on card's name from the game's ``card_name``."""
    import cardtable

    def describe(setting: int, text: str) -> str | None:
        m = CARD_PARAM.search(text)
        if m is None:
            return None
        try:
            game = cardtable.load(game_id, **settings[setting]["options"])
        except Exception:  # the game may be unavailable here; the card id then names it
            return None
        return game.card_name(int(m.group(1)))

    return describe


def _card_uses(game_id: str) -> Mapping[str, str] | None:
    """The game's ``CARD_USES`` (which action kinds play or acquire a card), if the game loads."""
    import cardtable

    try:
        return cardtable.load(game_id).CARD_USES
    except Exception:  # unavailable game: count every action naming a card
        return None


def build_report(folder: Path, *, plots: bool = True) -> tuple[dict[str, Any], str]:
    """Analyse ``folder``, write ``report.json``, ``summary.txt``, the plots and ``report.html``.

    Returns the analysis and the text summary. Raises :class:`ResultsError` for a folder that is
    not a run or whose results file has a corrupt line (named by its line number).
    """
    manifest = read_manifest(folder)
    if manifest is None:
        raise ResultsError(f"{folder} is not a simulation folder (no manifest.json)")
    results_path = folder / RESULTS
    lines = read_results(results_path) if results_path.exists() else []
    records_path = folder / RECORDS
    records = None
    if records_path.exists():
        records = [obj for _, obj in iter_lines(records_path, ("setting", "index", "record", "actors"))]
    a = analyze(
        manifest, lines, records, _describer(manifest["game"], manifest["settings"]), _card_uses(manifest["game"])
    )
    text = summary_text(a)
    (folder / "report.json").write_text(json.dumps(a, indent=1, sort_keys=True) + "\n")
    (folder / "summary.txt").write_text(text + "\n")
    figs = _figures(a) if plots and lines else {}
    for name, data in figs.items():
        (folder / name).write_bytes(data)
    (folder / "report.html").write_text(render_html(a, figs))
    return a, text
