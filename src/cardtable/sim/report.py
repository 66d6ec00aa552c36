"""A run's report: ``report.json`` (all statistics), ``summary.txt`` (the plain-language summary, also
printed), PNG figures and a self-contained ``report.html`` (figures embedded).

The pieces: :mod:`~cardtable.sim.analysis` (the numbers), :mod:`~cardtable.sim.summary` (the words),
:mod:`~cardtable.sim.plots` (the figures, with matplotlib) and :mod:`~cardtable.sim.page` (the HTML).
A folder holding part of a run, or none of it yet, gets a report that says exactly that.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardtable.engine.errors import CardtableError
from cardtable.sim import plots as P
from cardtable.sim.aggregate import RunAggregate
from cardtable.sim.analysis import finish
from cardtable.sim.page import render_html
from cardtable.sim.store import RESULTS, ResultsError, read_manifest, scan_results
from cardtable.sim.summary import GameInfo, game_info, summary_text

PLOT_INSTALL = "pip install 'matplotlib>=3.8,<4'"


class PlotsUnavailable(CardtableError):
    """matplotlib cannot be imported, so a report with plots cannot be drawn."""


def require_plotting() -> None:
    """Raise :class:`PlotsUnavailable` (a one-line message naming the install command) unless
    matplotlib imports. Commands call this before any work, so a missing library never leaves a
    half-written folder behind."""
    try:
        import matplotlib  # noqa: F401
        from matplotlib.figure import Figure  # noqa: F401
    except Exception as exc:  # ImportError, or a broken install failing in its own way
        reason = " ".join(str(exc).split()) or type(exc).__name__
        raise PlotsUnavailable(
            f"the report's plots need matplotlib, which cannot be imported ({reason}); install it with "
            f"`{PLOT_INSTALL}` (a normal `pip install cardtable` includes it), or add --no-plots"
        ) from None


def figures(a: Mapping[str, Any]) -> list[P.Plot]:
    """Every figure of the report (only those that show at least two things side by side)."""
    out: list[P.Plot | None] = [P.whatif_plot(a, "whatif")]
    if len(a["settings"]) > 1:
        out.append(P.grid_plot(a, "grid"))
    for k, s in enumerate(a["settings"]):
        if not s["games"]:
            continue
        stem = f"setting{k + 1}"
        out += [
            P.wins_plot(s, stem, stem),
            P.length_plot(s, stem, stem),
            P.outcomes_plot(s, stem, stem),
            P.scores_plot(s, stem, stem),
        ]
        out += [P.cards_plot(s, agent, stem, stem) for agent in s["agents"]]
    return [p for p in out if p is not None]


@dataclass(frozen=True)
class Report:
    """What :func:`build_report` wrote: the analysis, the text summary and the figures."""

    analysis: dict[str, Any]
    text: str
    plots: list[P.Plot]


def aggregate_folder(folder: Path, manifest: Mapping[str, Any]) -> RunAggregate:
    """The aggregate of every game in ``folder``'s results, streamed (memory does not grow with the
    number of games). Raises :class:`ResultsError` naming the line of a corrupt or duplicate game."""
    aggregate = RunAggregate(manifest["settings"])
    results_path = folder / RESULTS
    if results_path.exists():
        for _, line in scan_results(results_path, len(manifest["settings"]), int(manifest["games"])):
            aggregate.add(line)
    return aggregate


def build_report(folder: Path, *, plots: bool = True, aggregate: RunAggregate | None = None) -> Report:
    """Analyse ``folder``, write ``report.json``, ``summary.txt``, the figures and ``report.html``.

    ``aggregate`` is the folder's games already aggregated (what :func:`~cardtable.sim.run.run_plan`
    returns); without it the results file is read, streamed. Returns what it wrote. Raises
    :class:`ResultsError` for a folder that is not a run or whose results file has a corrupt line
    (named by its line number), and :class:`PlotsUnavailable` (before writing anything) when plots
    are asked for and matplotlib cannot be imported.
    """
    manifest = read_manifest(folder)
    if manifest is None:
        if (folder / "tune.json").exists():
            raise ResultsError(
                f"{folder} is a balance search (`cardtable tune`): run the same tune command again to write and "
                "print its report (it plays no game it has already played)"
            )
        if not folder.exists():
            raise ResultsError(f"{folder}: no such folder (give the --out folder of a `cardtable simulate` run)")
        raise ResultsError(f"{folder} is not a simulation folder (no manifest.json)")
    if plots:
        require_plotting()
    if aggregate is None:
        aggregate = aggregate_folder(folder, manifest)
    a = finish(manifest, aggregate)
    info: GameInfo = game_info(manifest["game"])
    text = summary_text(a, info)
    figs = figures(a) if plots and a["games_played"] else []
    try:
        # Figures of an earlier report of this folder would be stale: remove them first.
        for old in folder.glob("setting*.png"):
            old.unlink()
        (folder / "grid.png").unlink(missing_ok=True)
        (folder / "whatif.png").unlink(missing_ok=True)
        for fig in figs:
            (folder / fig.name).write_bytes(fig.png)
        (folder / "report.json").write_text(json.dumps(a, indent=1, sort_keys=True) + "\n")
        (folder / "summary.txt").write_text(text + "\n")
        (folder / "report.html").write_text(render_html(a, figs, info))
    except OSError as exc:
        raise ResultsError(f"cannot write the report in {folder}: {exc.strerror or exc} ({exc.filename})") from None
    return Report(a, text, figs)
