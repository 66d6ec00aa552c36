"""The progress bar of a run, drawn with rich (a base dependency) on stderr.

On a terminal it redraws in place. When stderr is a file or a pipe, rich prints the final line once,
and the run writes a plain line of how far it is at most once every :data:`LOG_EVERY_S` seconds, so
a log of a long run (strong bots: minutes a game) shows it alive without holding hundreds of lines.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import timedelta

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

LOG_EVERY_S = 60.0
"""The least time between two plain progress lines when stderr is not a terminal."""


def rate_text(games_per_s: float | None) -> str:
    """A run's speed in words that stay readable from searching bots to random ones: ``1,250
    games/s``, ``2.5 games/s``, ``40 s/game`` (below one game a second, never ``0 games/s``)."""
    if games_per_s is None or games_per_s <= 0:
        return ""
    if games_per_s >= 10:
        return f"{games_per_s:,.0f} games/s"
    if games_per_s >= 1:
        return f"{games_per_s:.1f} games/s"
    return f"{1 / games_per_s:,.0f} s/game"


class _Rate(ProgressColumn):
    """The run's speed over the last half minute (rich's own estimate), in :func:`rate_text`'s words."""

    def render(self, task: Task) -> Text:
        return Text(rate_text(task.speed), style="progress.data.speed")


class ProgressBar:
    """``games done / total`` for one run; ``advance(n)`` after each batch, ``close()`` at the end.

    ``initial`` is what a resumed run already holds, so the bar and its rate show this run's work.
    With ``enabled=False`` nothing is drawn and nothing is imported beyond rich itself. ``clock`` (seconds)
    paces the plain lines of a log.
    """

    def __init__(
        self,
        label: str,
        total: int,
        initial: int = 0,
        *,
        enabled: bool = True,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._progress: Progress | None = None
        if not enabled:
            return
        self._initial = initial
        self._clock = clock
        self._started = self._logged = clock()
        console = Console(stderr=True)
        self._console = console
        self._progress = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("games"),
            _Rate(),
            TimeElapsedColumn(),
            TextColumn("left"),
            TimeRemainingColumn(),
            console=console,
        )
        self._task = self._progress.add_task(label, total=total, completed=initial)
        self._progress.start()

    def advance(self, games: int) -> None:
        if self._progress is None:
            return
        self._progress.advance(self._task, games)
        now = self._clock()
        if not self._console.is_terminal and now - self._logged >= LOG_EVERY_S and not self._progress.finished:
            self._logged = now
            self._console.print(self.line(now - self._started), highlight=False, soft_wrap=True)

    def line(self, elapsed_s: float) -> str:
        """``mephisto: 12/200 games, 40 s/game, about 2:05:20 left`` after ``elapsed_s`` of this run (the
        bar's own task holds the label and the counts)."""
        assert self._progress is not None, "the bar is closed"
        (task,) = self._progress.tasks
        done, total = int(task.completed), int(task.total or 0)
        played = done - self._initial
        rate = played / elapsed_s if elapsed_s > 0 and played > 0 else None
        out = f"{task.description}: {done}/{total} games"
        if rate is not None:
            out += f", {rate_text(rate)}, about {timedelta(seconds=round((total - done) / rate))} left"
        return out

    def close(self) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None
