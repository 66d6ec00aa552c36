"""The report in words: number formats, the plain-language summary and the terminal text.

Everything here reads the analysis dict of :func:`cardtable.sim.analysis.analyze` (plus, optionally,
the game's title and option descriptions) and returns text; the HTML page uses the same sentences.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardtable.sim.analysis import how_order

TOP_CARDS = 5
"""How many cards per agent the terminal summary names."""

RESUME = "run the same `cardtable simulate` command again"


@dataclass(frozen=True)
class GameInfo:
    """What the report says about the game beyond the run's folder (from the installed game, if any)."""

    title: str
    options: Mapping[str, tuple[str, Any]] = field(default_factory=dict)
    """Option name -> (its one-line description, its default)."""


def game_info(game_id: str) -> GameInfo:
    """The game's title and option descriptions, or just its id when the game is not installed here."""
    try:
        import cardtable.games

        cls = cardtable.games.game_class(game_id)
    except Exception:  # a plug-in game absent here: the report still reads the folder
        return GameInfo(game_id)
    options = {o.name: (o.doc, o.default) for o in getattr(cls, "OPTIONS", ())}
    return GameInfo(getattr(cls, "title", "") or game_id, options)


# -- numbers ------------------------------------------------------------------------------------


def _ok(i: Mapping[str, Any] | None) -> bool:
    return bool(i) and i is not None and i.get("n", 0) > 0 and i.get("estimate") is not None


def share(x: float | None) -> str:
    """``0.5823`` -> ``"58.2%"``."""
    return "n/a" if x is None or not math.isfinite(x) else f"{100 * x:.1f}%"


def point(x: float | None) -> str:
    """A difference of shares: ``0.04`` -> ``"+4.0 points"``."""
    return "n/a" if x is None or not math.isfinite(x) else f"{100 * x:+.1f} points"


def pct(i: Mapping[str, Any] | None) -> str:
    """A share with its interval: ``"58.2% [54.1, 62.3]"``."""
    if not _ok(i):
        return "n/a"
    assert i is not None
    return f"{100 * i['estimate']:.1f}% [{100 * i['low']:.1f}, {100 * i['high']:.1f}]"


def points(i: Mapping[str, Any] | None) -> str:
    """A difference of shares in percentage points: ``"+7.3 points [+2.1, +12.4]"``."""
    if not _ok(i):
        return "n/a"
    assert i is not None
    return f"{100 * i['estimate']:+.1f} points [{100 * i['low']:+.1f}, {100 * i['high']:+.1f}]"


def number(x: float, sign: bool = False) -> str:
    """A number at a precision a reader wants: whole above 100, one decimal above 10, else 3 digits."""
    s = "+" if sign else ""
    if abs(x) >= 100:
        return f"{x:{s}.0f}"
    if abs(x) >= 10:
        return f"{x:{s}.1f}"
    return f"{x:{s}.3g}"


def num(i: Mapping[str, Any] | None, sign: bool = False) -> str:
    """A mean or difference with its interval, all three to the precision the interval allows (two
    significant digits of its half-width, more if a bound would round to zero): ``"+10.1 [-0.2, +20.5]"``."""
    if not _ok(i):
        return "n/a"
    assert i is not None
    est, low, high = i["estimate"], i.get("low"), i.get("high")
    if low is None or high is None:
        return f"{number(est, sign)} [-inf, inf]"
    half = max(high - est, est - low)
    digits = 1 if half <= 0 else min(3, max(0, 1 - math.floor(math.log10(half))))
    while digits < 3 and any(x != 0 and round(x, digits) == 0 for x in (est, low, high)):
        digits += 1
    s = "+" if sign else ""
    return f"{est:{s}.{digits}f} [{low:{s}.{digits}f}, {high:{s}.{digits}f}]"


def whole(x: float) -> str:
    """A count or a percentile of counts: ``30``, ``95`` (from 94.95), ``2.5``, ``28.5`` (a median
    halfway between two whole numbers keeps its half: rounded, 28.5 would read 28 and 29.5 would read 30)."""
    if float(x).is_integer():
        return f"{x:.0f}"
    if abs(x) >= 10 and not float(2 * x).is_integer():
        return f"{x:.0f}"
    return f"{x:.1f}"


def value_text(value: Any) -> str:
    """An option value for people: yes/no for booleans, "(none)" for empty text."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value == "":
        return "(none)"
    return str(value)


def words(code: str) -> str:
    """A stable code word for people: ``"deck-exhausted"`` -> ``"deck exhausted"``."""
    return code.replace("-", " ").replace("_", " ")


# -- sentences ----------------------------------------------------------------------------------


def status(a: Mapping[str, Any]) -> str:
    """What the folder holds: a complete run, part of one, or no game yet."""
    played, planned = a["games_played"], a["games_planned"]
    if played == 0:
        return (
            f"No game has finished in this folder yet (0 of {planned} planned): there is nothing to report. "
            f"To play them, {RESUME}."
        )
    if not a["complete"]:
        per = "; ".join(f"{s['label']}: {s['games']} of {s['planned']}" for s in a["settings"])
        extra = f" ({per})" if len(a["settings"]) > 1 else ""
        return (
            f"Incomplete run: {played} of {planned} planned games are in this folder{extra}; it was interrupted "
            f"or is still running. The statistics cover these games only. To finish it, {RESUME}."
        )
    return f"Complete: all {planned} planned games."


def options_text(options: Mapping[str, Any], info: GameInfo) -> str:
    """``"players 4; every other option at its default"`` or the full list when no defaults are known."""
    if not info.options:
        return "; ".join(f"{k} {value_text(v)}" for k, v in options.items()) or "none"
    changed = [
        f"{k} {value_text(v)}" for k, v in ordered(options, info) if k not in info.options or info.options[k][1] != v
    ]
    if not changed:
        return "all at their defaults"
    return "; ".join(changed) + ("; every other option at its default" if len(changed) < len(options) else "")


def ordered(options: Mapping[str, Any], info: GameInfo) -> list[tuple[str, Any]]:
    """The options in the order the game declares them (unknown ones after, by name)."""
    rank = {name: k for k, name in enumerate(info.options)}
    return sorted(options.items(), key=lambda kv: (rank.get(kv[0], len(rank)), kv[0]))


def agents_sentence(s: Mapping[str, Any]) -> str | None:
    """Who wins, per agent (None when every seat is played by the same agent)."""
    if len(s["agents"]) < 2:
        return None
    parts = [f"{spec} {pct(i)}" for spec, i in s["agents"].items()]
    return ", ".join(parts) + " of the seats each held."


def seats_sentence(s: Mapping[str, Any]) -> str:
    names = s["seat_names"]
    if s["players"] == 1:
        return f"{names[0]} wins {pct(s['seats'][0])} of games."
    by = ", ".join(f"{names[k]} {pct(i)}" for k, i in enumerate(s["seats"]))
    only = f" (every seat played by {next(iter(s['agents']))})" if len(s["agents"]) == 1 else ""
    return f"{by}{only}."


def first_player_sentence(s: Mapping[str, Any]) -> str | None:
    """The plain verdict on moving first, with its interval (None for a one-player game)."""
    if s["players"] < 2 or not s["games"]:
        return None
    fp = s["first_player"]
    win, fair, adv = fp["win"], fp["fair"], fp["advantage"]
    if not _ok(win) or not _ok(adv):
        return None
    if not fair:
        # No game had a winner (all stopped by a limit, or all lost together): a 0% share "against a
        # fair share of 0.0%" would read as a verdict where there is nothing to compare.
        return f"cannot be judged: none of the {win['n']} games had a winner, so no seat won more often than another."
    by = fp["by_seat"]
    who = f" ({next(iter(by))} in every game)" if len(by) == 1 else ""
    base = f"the player who decides first{who} wins {pct(win)} of games against a fair share of {share(fair)}"
    gap = f"{abs(100 * adv['estimate']):.1f} percentage points"
    if adv["low"] > 0:
        return f"an advantage: {base}, {gap} more often ({points(adv)})."
    if adv["high"] < 0:
        return f"a disadvantage: {base}, {gap} less often ({points(adv)})."
    half = 100 * max(adv["high"] - adv["estimate"], adv["estimate"] - adv["low"])
    return (
        f"no clear advantage: {base}; with {win['n']} games, a difference smaller than about "
        f"{half:.1f} points either way cannot be told apart from none."
    )


def _spread(d: Mapping[str, Any], unit: str) -> str:
    p = d["percentiles"]
    return (
        f"median {whole(p['50'])} {unit} (half of the games {whole(p['25'])} to {whole(p['75'])}, "
        f"90% {whole(p['5'])} to {whole(p['95'])})"
    )


def length_sentence(s: Mapping[str, Any]) -> str:
    out = f"{_spread(s['turns'], 'turns')}; {_spread(s['decisions'], 'decisions')}"
    forced = s.get("forced")
    if forced and forced["total"] == 0:
        out += ", none of them forced (a single legal action)"
    elif forced and forced["share"] is not None:
        out += (
            f", of which {share(forced['share'])} were forced (a single legal action: "
            f"{number(forced['per_game']['mean']['estimate'])} per game)"
        )
    return out + "."


def ending_sentence(s: Mapping[str, Any]) -> str:
    parts = [f"{words(r)} {pct(v['share'])}" for r, v in s["reasons"].items()]
    out = ", ".join(parts) + "."
    if s["truncated"]:
        out += f" {s['truncated']} game(s) were stopped by a limit rather than ended by the rules."
    return out


def details_sentences(s: Mapping[str, Any]) -> list[tuple[str, str]]:
    return [
        (words(key).capitalize(), ", ".join(f"{v} {pct(x['share'])}" for v, x in values.items()) + ".")
        for key, values in s["details"].items()
    ]


def top_cards(rows: Sequence[Mapping[str, Any]], agent: str, how: str, n: int = TOP_CARDS) -> list[Mapping[str, Any]]:
    return [r for r in rows if r["agent"] == agent and r["how"] == how][:n]


def cards_sentences(s: Mapping[str, Any]) -> list[str]:
    rows = s.get("cards")
    if rows is None:
        return ["Cards: this run holds no per-card counts (made by an older cardtable); run it again to get them."]
    out = []
    for agent in s["agents"]:
        for how in sorted({r["how"] for r in rows if r["agent"] == agent}, key=how_order):
            top = top_cards(rows, agent, how)
            listed = ", ".join(f"{r['name']} {share(r['share_of_games']['estimate'])}" for r in top)
            out.append(f"Cards {agent} {how} most often (share of its games): {listed}.")
    return out


def setting_summary(s: Mapping[str, Any], info: GameInfo) -> list[tuple[str, str]]:
    """The plain-language summary of one setting: (topic, sentence) pairs."""
    if not s["games"]:
        return [("Games", f"none of this setting has finished yet (0 of {s['planned']}).")]
    out = [("Options", f"{options_text(s['options'], info)}.")]
    if s.get("card_edits"):
        out.append(("Card edits", f"{', '.join(s['card_edits'])}."))
    rotate = " (seats rotate every game)" if s["players"] > 1 else ""
    out.append(("Agents", f"{', '.join(s['listed'])}{rotate}."))
    who = agents_sentence(s)
    if who:
        out.append(("Win share per agent", who))
    out.append(("Win share per seat", seats_sentence(s)))
    first = first_player_sentence(s)
    if first:
        out.append(("First player", first))
    out.append(("Length", length_sentence(s)))
    out.append(("How games end", ending_sentence(s)))
    out += details_sentences(s)
    return out


def _count(n: int, noun: str) -> str:
    """``1 seat``, ``2 seats``."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def comparison_lines(c: Mapping[str, Any]) -> list[str]:
    if not c["rows"]:
        return [f"{c['title']}: no game index was played in both settings yet."]
    out = [f"{c['title']} (the same {c['games']} deals, paired; difference [95% interval]):"]
    for r in c["rows"]:
        if r["unit"] in ("share", "points"):
            f = share if r["unit"] == "share" else point
            out.append(f"  {r['label']}: {f(r['baseline'])} -> {f(r['setting'])}, {points(r['difference'])}")
        else:
            out.append(
                f"  {r['label']}: {number(r['baseline'])} -> {number(r['setting'])}, {num(r['difference'], sign=True)}"
            )
    return out


def summary_text(a: Mapping[str, Any], info: GameInfo | None = None) -> str:
    """The text printed at the end of a run and by ``cardtable report`` (also ``summary.txt``)."""
    from cardtable.sim.whatif import whatif_text

    info = info or GameInfo(a["game"])
    out = [f"{info.title}: {a['games_played']} of {a['games_planned']} games, run seed {a['seed']}", status(a)]
    if not a["games_played"]:
        return "\n".join(out)
    if a.get("card_edits"):
        out.append(f"Every game with the card edits: {', '.join(a['card_edits'])}.")
    # A what-if run answers its question first: the shift in every headline figure.
    out += whatif_text(a)
    for s in a["settings"]:
        out.append("")
        out.append(f"[{s['label']}] {_count(s['games'], 'game')}, {_count(s['players'], 'seat')}")
        out += [f"  {topic}: {line}" for topic, line in setting_summary(s, info)]
        if s["games"]:
            out += [f"  {line}" for line in cards_sentences(s)]
    for c in a["comparisons"]:
        out.append("")
        out += comparison_lines(c)
    out.append("")
    out.append("Intervals are 95%: Wilson for shares, t for means and paired differences.")
    return "\n".join(out)
