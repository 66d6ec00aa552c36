"""The report as one self-contained HTML page: a summary in words at the top, a table of contents,
styled tables, figures with captions (PNG embedded as base64), and a note on the method.

The page is a pure function of the analysis dict, the game's description and the figures.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Mapping, Sequence
from typing import Any

from cardtable.sim.analysis import how_order
from cardtable.sim.plots import Plot
from cardtable.sim.summary import (
    GameInfo,
    cards_sentences,
    first_player_sentence,
    num,
    number,
    ordered,
    pct,
    point,
    points,
    setting_summary,
    share,
    status,
    value_text,
    whole,
    words,
)
from cardtable.sim.whatif import grid_table, headlines, whatif_comparisons

CARD_ROWS = 20
"""Cards per table shown at once (the rest fold away under "all cards")."""

CSS = """
:root { --ink:#1f2933; --muted:#616e7c; --line:#d9e2ec; --band:#f5f7fa; --accent:#3b6ea5; }
* { box-sizing: border-box; }
body { font: 15px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
       color: var(--ink); margin: 0; background: #fff; }
main { max-width: 1080px; margin: 0 auto; padding: 2rem 2.2rem 4rem; }
header h1 { font-size: 1.9rem; margin: 0 0 .2rem; }
header .meta { color: var(--muted); margin: 0 0 1.2rem; }
h2 { font-size: 1.35rem; margin: 2.4rem 0 .8rem; padding-bottom: .3rem; border-bottom: 2px solid var(--line); }
h3 { font-size: 1.08rem; margin: 1.8rem 0 .5rem; }
h4 { font-size: .98rem; margin: 1.2rem 0 .4rem; color: var(--muted); }
.status { padding: .7rem 1rem; border-radius: 6px; margin: 0 0 1.2rem; border-left: 5px solid; }
.status.ok { background: #eef7f0; border-color: #4e9a5b; }
.status.warn { background: #fff7e6; border-color: #e0a030; }
.warn-text { color: #a33a1e; font-weight: 600; }
nav.toc { background: var(--band); border: 1px solid var(--line); border-radius: 6px; padding: .6rem 1.2rem;
          margin: 0 0 1rem; }
nav.toc h2 { border: 0; margin: .2rem 0; font-size: 1rem; text-transform: uppercase; letter-spacing: .05em;
             color: var(--muted); }
nav.toc ol { margin: .2rem 0 .4rem; padding-left: 1.4rem; }
nav.toc ol ol { margin: 0 0 .2rem; padding-left: .2rem; list-style: none; font-size: 14px; }
nav.toc ol ol li { display: inline; }
nav.toc ol ol li + li::before { content: " · "; color: var(--muted); }
nav.toc a { color: var(--accent); text-decoration: none; }
nav.toc a:hover { text-decoration: underline; }
.summary { background: var(--band); border-radius: 6px; padding: .3rem 1.2rem .6rem; margin: .6rem 0 1rem; }
.summary h3 { margin-top: .9rem; }
.summary ul { margin: .2rem 0; padding-left: 1.2rem; }
.summary li { margin: .15rem 0; }
table { border-collapse: collapse; margin: .4rem 0 1.2rem; font-size: 13.5px; min-width: 40%; }
caption { caption-side: top; text-align: left; font-weight: 600; padding: 0 0 .3rem; color: var(--ink); }
th, td { padding: .32rem .75rem; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
th { background: #e8eef5; font-weight: 600; white-space: nowrap; }
tbody tr:nth-child(even) { background: var(--band); }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.nw { white-space: nowrap; }
td:first-child { white-space: nowrap; }
figure { margin: 1rem 0 1.6rem; }
figure img { max-width: 100%; height: auto; display: block; border: 1px solid var(--line); border-radius: 4px; }
figcaption { color: var(--muted); font-size: 13.5px; margin-top: .45rem; max-width: 900px; }
figcaption b { color: var(--ink); }
details { margin: .2rem 0 1.2rem; }
summary { cursor: pointer; color: var(--accent); }
p.note { color: var(--muted); font-size: 13.5px; }
"""


def _e(text: Any) -> str:
    return html.escape(str(text))


def table(
    head: Sequence[str],
    rows: Sequence[Sequence[str]],
    numeric: Sequence[int] = (),
    title: str = "",
    nowrap: Sequence[int] = (),
) -> str:
    """A styled table; columns listed in ``numeric`` are right-aligned, those in ``nowrap`` never wrap."""
    cls = [' class="n"' if k in numeric else ' class="nw"' if k in nowrap else "" for k in range(len(head))]
    th = "".join(f"<th{cls[k]}>{_e(h)}</th>" for k, h in enumerate(head))
    body = "".join("<tr>" + "".join(f"<td{cls[k]}>{_e(c)}</td>" for k, c in enumerate(row)) + "</tr>" for row in rows)
    cap = f"<caption>{_e(title)}</caption>" if title else ""
    return f"<table>{cap}<thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"


class _Figures:
    """Numbers the figures in page order and renders each with its caption."""

    def __init__(self, plots: Sequence[Plot]) -> None:
        self.by_name = {p.name: p for p in plots}
        self.count = 0

    def render(self, name: str) -> str:
        plot = self.by_name.get(name)
        if plot is None:
            return ""
        self.count += 1
        data = base64.b64encode(plot.png).decode()
        return (
            f'<figure><img alt="{_e(plot.title)}" style="width:{round(96 * plot.width)}px" '
            f'src="data:image/png;base64,{data}">'
            f"<figcaption><b>Figure {self.count}. {_e(plot.title)}.</b> {_e(plot.caption)}</figcaption></figure>"
        )

    def with_prefix(self, prefix: str) -> list[str]:
        return [name for name in self.by_name if name.startswith(prefix)]


def _stem(k: int) -> str:
    return f"setting{k + 1}"


def _options_table(options: Mapping[str, Any], info: GameInfo) -> str:
    rows = []
    for name, value in ordered(options, info):
        doc, default = info.options.get(name, ("", None))
        rows.append([name, value_text(value), "" if name not in info.options else value_text(default), doc])
    return table(["option", "value", "default", "what it means"], rows, title="Game options", nowrap=(1, 2))


def _length_rows(s: Mapping[str, Any]) -> list[list[str]]:
    rows = []
    measures = [("turns", "turns per game"), ("decisions", "decisions per game")]
    if s.get("forced"):
        measures.append(("forced", "forced decisions per game"))
    for key, label in measures:
        d = s[key]["per_game"] if key == "forced" else s[key]
        p = d["percentiles"]
        rows.append(
            [
                label,
                num(d["mean"]),
                *(whole(p[q]) for q in ("5", "25", "50", "75", "95")),
                whole(d["min"]),
                whole(d["max"]),
            ]
        )
    return rows


def _cards_section(s: Mapping[str, Any], k: int, figs: _Figures, a: Mapping[str, Any]) -> list[str]:
    rows = s.get("cards")
    out = [f'<h3 id="{_stem(k)}-cards">Cards</h3>']
    if rows is None:
        out.append(f"<p>{_e(cards_sentences(s)[0])}</p>")
        return out
    if not rows:
        out.append("<p>No agent put a card to use in these games.</p>")
        return out
    out.append(
        "<p>Per card name (the copies of a card counted together), per way of using it and per agent: in how many "
        "of the agent's games it used the card, how often, and the agent's win share in the games where it used "
        "the card against those where it did not. Counted in every game (no <code>--records</code> needed).</p>"
    )
    for agent in s["agents"]:
        mine = [r for r in rows if r["agent"] == agent]
        if not mine:
            continue
        if len(s["agents"]) > 1:
            out.append(f"<h4>{_e(agent)}</h4>")
        overall = s["agents"][agent]["estimate"]
        if overall in (0.0, 1.0):
            out.append(
                f"<p>{_e(agent)} {'won every game' if overall else 'won no game'} it played, so no card can show "
                "a difference in its win share; the counts below still show what it played.</p>"
            )
        for name in figs.with_prefix(f"{_stem(k)}-cards-"):
            if figs.by_name[name].title == f"Cards: {agent}":
                out.append(figs.render(name))
        for how in sorted({r["how"] for r in mine}, key=how_order):
            these = [r for r in mine if r["how"] == how]
            head = ["card", f"games {how} in", "times per game", f"win share when {how}", "when not", "difference"]

            def row(r: Mapping[str, Any]) -> list[str]:
                return [
                    r["name"],
                    f"{r['games']} of {r['of']} ({share(r['share_of_games']['estimate'])})",
                    f"{r['per_game']:.2f}",
                    pct(r["win_used"]),
                    pct(r["win_not_used"]),
                    points(r["difference"]),
                ]

            title = f"Cards {agent} {how} ({len(these)} cards, most used first)"
            out.append(table(head, [row(r) for r in these[:CARD_ROWS]], numeric=(1, 2, 3, 4, 5), title=title))
            if len(these) > CARD_ROWS:
                out.append(
                    f"<details><summary>the other {len(these) - CARD_ROWS} cards {_e(agent)} {_e(how)}</summary>"
                    + table(head, [row(r) for r in these[CARD_ROWS:]], numeric=(1, 2, 3, 4, 5))
                    + "</details>"
                )
    out.append(
        '<p class="note">A difference here is an association, not a cause: cards used in long games or by a player '
        "who is already ahead look better than they are. Compare cards across a grid (paired deals) to measure a "
        "change.</p>"
    )
    return out


def _setting_section(a: Mapping[str, Any], k: int, s: Mapping[str, Any], info: GameInfo, figs: _Figures) -> list[str]:
    stem = _stem(k)
    title = "Results" if len(a["settings"]) == 1 else f"Setting {k + 1}: {s['label']}"
    out = [f'<section id="{stem}"><h2>{_e(title)}</h2>']
    agents = ", ".join(s["listed"])
    rotating = ", seats rotating every game" if s["players"] > 1 else ""
    out.append(
        f"<p>{s['games']} of {s['planned']} games, {s['players']} seat{'s' if s['players'] != 1 else ''} "
        f"({_e(', '.join(s['seat_names']))}); agents listed: {_e(agents)}{rotating}; "
        f"{s['seconds']:.1f} s of play.</p>"
    )
    out.append(f'<h3 id="{stem}-options">Options</h3>')
    out.append(_options_table(s["options"], info))
    if not s["games"]:
        out.append("<p>No game of this setting has finished yet.</p></section>")
        return out
    if s["truncated"]:
        out.append(
            f'<p class="warn-text">{s["truncated"]} game(s) were stopped by a limit, not ended by the rules: '
            "they count as no one's win.</p>"
        )
    out.append(f'<h3 id="{stem}-wins">Who wins</h3>')
    if len(s["agents"]) > 1:
        n_seats = {spec: i["n"] for spec, i in s["agents"].items()}
        out.append(
            table(
                ["agent", "seats held", "win share [95%]"],
                [[spec, str(n_seats[spec]), pct(i)] for spec, i in s["agents"].items()],
                numeric=(1, 2),
                title="Per agent",
            )
        )
    out.append(
        table(
            ["seat", "win share [95%]"],
            [[s["seat_names"][j], pct(i)] for j, i in enumerate(s["seats"])],
            numeric=(1,),
            title="Per seat",
        )
    )
    out.append(figs.render(f"{stem}-wins.png"))
    first = first_player_sentence(s)
    if first:
        fp = s["first_player"]
        out.append(f'<h3 id="{stem}-first">First player</h3><p>{_e(first[:1].upper() + first[1:])}</p>')
        rows = [
            ["first player's win share", pct(fp["win"])],
            ["fair share", share(fp["fair"])],
            ["advantage", points(fp["advantage"])],
        ]
        rows += [[f"games {name} decided first", str(c)] for name, c in fp["by_seat"].items()]
        out.append(table(["measure", "value"], rows, numeric=(1,)))
    out.append(f'<h3 id="{stem}-length">Game length</h3>')
    forced = s.get("forced")
    if forced and forced["total"] == 0:
        out.append("<p>No decision was forced: the deciding player always had a choice.</p>")
    elif forced and forced["share"] is not None:
        out.append(
            f"<p>{share(forced['share'])} of all decisions ({forced['total']} of {forced['decisions']}) were "
            "forced: the deciding player had a single legal action (often a lone <em>pass</em> in a window the "
            "rules open whenever a response might be possible). The simulator applies these without asking the "
            "agent.</p>"
        )
    out.append(
        table(
            ["measure", "mean [95%]", "5%", "25%", "median", "75%", "95%", "min", "max"],
            _length_rows(s),
            numeric=(1, 2, 3, 4, 5, 6, 7, 8),
            title="Per game (percentiles)",
        )
    )
    out.append(figs.render(f"{stem}-length.png"))
    out.append(f'<h3 id="{stem}-end">How games end</h3>')
    out.append(
        table(
            ["end", "games", "share [95%]"],
            [[words(r), str(v["count"]), pct(v["share"])] for r, v in s["reasons"].items()],
            numeric=(1, 2),
        )
    )
    for key, values in s["details"].items():
        out.append(
            table(
                [words(key), "games", "share [95%]"],
                [[v, str(x["count"]), pct(x["share"])] for v, x in values.items()],
                numeric=(1, 2),
            )
        )
    out.append(figs.render(f"{stem}-outcomes.png"))
    score_rows = []
    series = (
        s["scores"]["by_agent"]
        if len(s["agents"]) > 1
        else dict(zip(s["seat_names"], s["scores"]["by_seat"], strict=True))
    )
    for name, d in series.items():
        if d["n"]:
            score_rows.append([name, num(d["mean"]), whole(d["percentiles"]["50"]), whole(d["min"]), whole(d["max"])])
    if score_rows:
        out.append(f'<h3 id="{stem}-scores">Scores</h3>')
        by = "agent" if len(s["agents"]) > 1 else "seat"
        out.append(table([by, "mean [95%]", "median", "min", "max"], score_rows, numeric=(1, 2, 3, 4)))
        out.append(figs.render(f"{stem}-scores.png"))
    out += _cards_section(s, k, figs, a)
    out.append("</section>")
    return out


def _grid_section(a: Mapping[str, Any], figs: _Figures) -> list[str]:
    out = ['<section id="grid"><h2>Settings compared</h2>']
    rows = []
    for s in a["settings"]:
        if not s["games"]:
            rows.append([s["label"], f"0 of {s['planned']}", "", "", "", ""])
            continue
        fp = s["first_player"]
        rows.append(
            [
                s["label"],
                f"{s['games']} of {s['planned']}",
                whole(s["turns"]["percentiles"]["50"]),
                whole(s["decisions"]["percentiles"]["50"]),
                share(s["forced"]["share"]) if s.get("forced") else "n/a",
                pct(fp["win"]) if s["players"] > 1 else "n/a",
            ]
        )
    out.append(
        table(
            ["setting", "games", "median turns", "median decisions", "forced", "first player wins"],
            rows,
            numeric=(1, 2, 3, 4, 5),
        )
    )
    out.append(
        "<p>Each setting against the first, on the same deals (game <em>i</em> of every setting is dealt from the "
        "same seed, with the same seat rotation): the mean of each setting and the mean paired difference with "
        "its 95% t interval. An interval that excludes 0 is a clear difference.</p>"
    )
    for c in a["comparisons"]:
        if not c["rows"]:
            out.append(f"<p>{_e(c['title'])}: no game index was played in both settings yet.</p>")
            continue
        body = []
        for r in c["rows"]:
            if r["unit"] in ("share", "points"):
                f = share if r["unit"] == "share" else point
                body.append([r["label"], f(r["baseline"]), f(r["setting"]), points(r["difference"])])
            else:
                body.append([r["label"], number(r["baseline"]), number(r["setting"]), num(r["difference"], sign=True)])
        out.append(
            table(
                ["measure", c["baseline"], c["setting"], "difference [95%]"],
                body,
                numeric=(1, 2, 3),
                title=f"{c['title']} ({c['games']} paired games)",
            )
        )
    out.append(figs.render("grid.png"))
    out.append("</section>")
    return out


def _whatif_section(a: Mapping[str, Any], figs: _Figures) -> list[str]:
    """The answer to a what-if run, first: each edit's verdicts, the edits side by side, the figure."""
    comparisons = whatif_comparisons(a)
    if not comparisons:
        return []
    out = [
        '<section id="whatif"><h2>What the card edits change</h2>',
        "<p>Each edit against the original cards on the same deals and seats (game <em>i</em> of both is dealt "
        "from one seed, with the same seat rotation). A value with the edit carries its own 95% interval; the "
        "<b>shift</b> is the mean paired difference with its 95% interval, and a figure rises or falls only when "
        "that interval excludes 0. Each figure is judged on its own interval, so among many figures about one in "
        "twenty may seem to move by chance: a shift that matters holds up in a second run with another seed.</p>",
    ]
    for c in comparisons:
        items = "".join(f"<li><b>{_e(topic)}:</b> {_e(line)}</li>" for topic, line in headlines(a, c))
        out.append(
            f"<div class='summary'><h3>{_e(c['setting'])} <small>vs {_e(c['baseline'])}, "
            f"{c['games']} paired games</small></h3><ul>{items}</ul></div>"
        )
    if len(comparisons) > 1:
        head, body = grid_table(a)
        out.append(
            table(head, body, numeric=tuple(range(1, len(head))), title="The edits side by side (▲▼: clear shifts)")
        )
    out.append(figs.render("whatif.png"))
    for c in comparisons:
        if c["cards"]:
            out.append(_card_shift_table(c))
    out.append("</section>")
    return out


def _card_shift_table(c: Mapping[str, Any]) -> str:
    rows = [
        [
            r["name"],
            r["how"],
            r["agent"],
            point(r["baseline"]),
            point(r["setting"]),
            points(r["difference"]),
        ]
        for r in sorted(c["cards"], key=lambda r: -abs(r["difference"]["estimate"] or 0))[:CARD_ROWS]
    ]
    more = len(c["cards"]) - len(rows)
    note = f" (the {len(rows)} largest shifts of {len(c['cards'])})" if more > 0 else ""
    return table(
        ["card", "how", "agent", "contribution, original", "with the edit", "shift [95%]"],
        rows,
        numeric=(3, 4, 5),
        title=f"{c['setting']}: each card's win contribution (win share when used minus when not){note}",
    )


def _toc(a: Mapping[str, Any]) -> str:
    items = ['<li><a href="#summary">Summary</a></li>']
    if whatif_comparisons(a):
        items.insert(0, '<li><a href="#whatif">What the card edits change</a></li>')
    if len(a["settings"]) > 1:
        items.append('<li><a href="#grid">Settings compared</a></li>')
    for k, s in enumerate(a["settings"]):
        stem = _stem(k)
        title = "Results" if len(a["settings"]) == 1 else f"Setting {k + 1}: {s['label']}"
        subs = [("options", "Options")]
        if s["games"]:
            subs.append(("wins", "Who wins"))
            if first_player_sentence(s):
                subs.append(("first", "First player"))
            subs += [("length", "Game length"), ("end", "How games end")]
            if any(d["n"] for d in s["scores"]["by_seat"]):
                subs.append(("scores", "Scores"))
            subs.append(("cards", "Cards"))
        inner = "".join(f'<li><a href="#{stem}-{anchor}">{label}</a></li>' for anchor, label in subs)
        items.append(f'<li><a href="#{stem}">{_e(title)}</a><ol>{inner}</ol></li>')
    items.append('<li><a href="#method">How to read this report</a></li>')
    return f'<nav class="toc"><h2>Contents</h2><ol>{"".join(items)}</ol></nav>'


METHOD = """
<section id="method"><h2>How to read this report</h2>
<ul>
<li><b>Intervals</b> are 95%: Wilson score intervals for shares, Student t intervals for means and for paired
differences, Newcombe's hybrid score interval for the difference of two shares.</li>
<li><b>Win share</b>: a win counts 1, a win shared by a tie counts its share, a game stopped by a limit counts
as no one's win. In a team game every member of the winning team wins.</li>
<li><b>Seats rotate</b>: the listed agents repeat around the table and move one seat on every game, so every
agent plays every seat equally often and seat and agent are not confounded.</li>
<li><b>Paired deals</b>: game <em>i</em> of every setting is dealt from seed + <em>i</em>, so settings are compared
on the same deals; any single game can be replayed from its seed.</li>
<li><b>Forced decisions</b>: decisions where the deciding player had exactly one legal action. The engine still
offers them (whether a decision appears must not depend on a hidden card); the simulator applies them without
asking the agent.</li>
<li><b>First player</b>: the seat that makes the game's first decision (in some games a response window of
another seat can come before the first turn's main decision); the fair share is the mean win share per seat, and
the advantage is the first player's win share minus the fair share.</li>
</ul>
</section>
"""


def render_html(a: Mapping[str, Any], plots: Sequence[Plot], info: GameInfo | None = None) -> str:
    """The self-contained report page."""
    info = info or GameInfo(a["game"])
    figs = _Figures(plots)
    ok = a["complete"] and a["games_played"] > 0
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        "<meta name='viewport' content='width=device-width, initial-scale=1'>",
        f"<title>{_e(info.title)}: simulation report</title><style>{CSS}</style></head><body><main>",
        f"<header><h1>{_e(info.title)}: simulation report</h1>",
        f"<p class='meta'>{a['games_played']} of {a['games_planned']} games · {len(a['settings'])} setting"
        f"{'s' if len(a['settings']) != 1 else ''} · run seed {a['seed']} · cardtable {_e(a.get('engine') or '?')}"
        "</p></header>",
        f"<div class='status {'ok' if ok else 'warn'}'>{_e(status(a))}</div>",
    ]
    if not a["games_played"]:
        parts.append("</main></body></html>")
        return "\n".join(parts)
    parts.append(_toc(a))
    parts += _whatif_section(a, figs)
    parts.append('<section id="summary"><h2>Summary</h2>')
    for k, s in enumerate(a["settings"]):
        head = "" if len(a["settings"]) == 1 else f"<h3>Setting {k + 1}: {_e(s['label'])}</h3>"
        items = "".join(f"<li><b>{_e(topic)}:</b> {_e(line)}</li>" for topic, line in setting_summary(s, info))
        parts.append(f"<div class='summary'>{head}<ul>{items}</ul></div>")
    parts.append("</section>")
    if len(a["settings"]) > 1:
        parts += _grid_section(a, figs)
    for k, s in enumerate(a["settings"]):
        parts += _setting_section(a, k, s, info, figs)
    parts.append(METHOD)
    parts.append("</main></body></html>")
    return "\n".join(parts)
