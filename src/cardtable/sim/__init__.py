"""Batch simulation, statistics and reports.

* :mod:`~cardtable.sim.plan` — what a run plays: settings (options x agents x card edits, what-if
  arms), seeds, seat rotation.
* :mod:`~cardtable.sim.play` — playing one game / one batch (the unit of work of every backend).
* :mod:`~cardtable.sim.run` — running a plan into a resumable folder, locally or on Ray.
* :mod:`~cardtable.sim.workers` — the local worker processes (stopped at any moment, never outliving
  the run).
* :mod:`~cardtable.sim.store` — the folder's files, read strictly (and streamed).
* :mod:`~cardtable.sim.stats` — Wilson and t intervals, percentiles, paired differences.
* :mod:`~cardtable.sim.tally`, :mod:`~cardtable.sim.aggregate` — a run's statistics as streamed, exact,
  mergeable aggregates (workers fold their batches, the main process merges).
* :mod:`~cardtable.sim.progress` — the progress bar (rich).
* :mod:`~cardtable.sim.analysis` — the statistics of a run, as one JSON-ready dict.
* :mod:`~cardtable.sim.summary`, :mod:`~cardtable.sim.whatif`, :mod:`~cardtable.sim.plots`,
  :mod:`~cardtable.sim.page` — the report in words (with the what-if verdicts first), its figures
  (matplotlib) and its HTML page; :mod:`~cardtable.sim.report` writes them all.
* :mod:`~cardtable.sim.tune`, :mod:`~cardtable.sim.tune_report` — the balance search and its report.

>>> import tempfile, pathlib
>>> from cardtable.sim import make_plan, run_plan, build_report
>>> plan = make_plan("mephisto", options={"players": 2}, seats="heuristic,random", games=4)  # doctest: +SKIP
>>> run_plan(plan, pathlib.Path(tempfile.mkdtemp()), workers=1, progress=False)  # doctest: +SKIP
"""

from cardtable.sim.plan import Plan, Setting, make_plan, parse_grid
from cardtable.sim.report import PlotsUnavailable, Report, build_report, require_plotting
from cardtable.sim.run import ResumeRefused, RunSummary, run_plan
from cardtable.sim.store import ResultsError

__all__ = [
    "Plan",
    "PlotsUnavailable",
    "Report",
    "ResultsError",
    "ResumeRefused",
    "RunSummary",
    "Setting",
    "build_report",
    "make_plan",
    "parse_grid",
    "require_plotting",
    "run_plan",
]
