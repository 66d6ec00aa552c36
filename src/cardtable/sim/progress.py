"""The progress bar of a run, drawn with rich (a base dependency) on stderr.

On a terminal it redraws in place; when stderr is a file or a pipe rich prints the final line once,
so a log gets one line rather than hundreds.
"""

from __future__ import annotations

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


class _Rate(ProgressColumn):
    """Games per second over the last half minute (rich's own speed estimate)."""

    def render(self, task: Task) -> Text:
        speed = task.speed
        return Text("" if speed is None else f"{speed:,.0f} games/s", style="progress.data.speed")


class ProgressBar:
    """``games done / total`` for one run; ``advance(n)`` after each batch, ``close()`` at the end.

    ``initial`` is what a resumed run already holds, so the bar and its rate show this run's work.
    With ``enabled=False`` nothing is drawn and nothing is imported beyond rich itself.
    """

    def __init__(self, label: str, total: int, initial: int = 0, *, enabled: bool = True) -> None:
        self._progress: Progress | None = None
        if not enabled:
            return
        self._progress = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("games"),
            _Rate(),
            TimeElapsedColumn(),
            TextColumn("left"),
            TimeRemainingColumn(),
            console=Console(stderr=True),
        )
        self._task = self._progress.add_task(label, total=total, completed=initial)
        self._progress.start()

    def advance(self, games: int) -> None:
        if self._progress is not None:
            self._progress.advance(self._task, games)

    def close(self) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None
