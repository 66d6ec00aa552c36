"""The budgets a search agent may be given, and their documented maxima.

Every search agent thinks within a **time budget**: ``ms=`` when the spec gives one, else the time cap
:data:`DEFAULT_MS_CAP` as a safety stop behind an ``iterations=`` budget (which alone would be
reproducible but could, on a slow machine or a huge position, run for minutes). A spec asking for more
than a maximum is refused with an :class:`~cardtable.engine.errors.OptionError` naming the option, the
value and the limit; the check runs in the agent registry (:func:`~cardtable.agents.registry.make_agent`),
so the command line (``--seats``), ``cardtable simulate`` and the web lobby all refuse the same specs
with the same words. A server may impose a smaller per-move cap of its own; these are the absolute limits.
"""

from __future__ import annotations

from typing import Final

from cardtable.engine.errors import OptionError

MAX_MS: Final = 60_000.0
"""The longest time budget per decision: one minute."""

MAX_ITERATIONS: Final = 1_000_000
"""The most iterations per decision (about a minute and a half of search on one core)."""

MAX_WORKERS: Final = 32
"""The most processes one search may run on (more than the machine's cores only slows it down)."""

MAX_TREES: Final = 64
"""The most independent search trees one decision may grow (``trees=``)."""

DEFAULT_MS_CAP: Final = MAX_MS
"""The time budget of a search whose spec gives only ``iterations``: it stops there even if the
iterations are not all done (a safety stop; at the budgets the levels use it is never reached)."""


def _number(agent: str, key: str, text: object, kind: type[int] | type[float]) -> float:
    try:
        value = kind(str(text))
    except ValueError:
        raise OptionError(f"agent {agent!r}: option {key!r} must be a {kind.__name__}, got {text!r}") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise OptionError(f"agent {agent!r}: option {key!r} must be a finite number, got {text!r}")
    return value


def parse_ms(agent: str, text: object) -> float:
    """``ms=``: a time budget in milliseconds, above 0 and at most :data:`MAX_MS`."""
    ms = _number(agent, "ms", text, float)
    if not ms > 0:
        raise OptionError(f"agent {agent!r}: ms must be positive, got {text!r}")
    if ms > MAX_MS:
        raise OptionError(
            f"agent {agent!r}: ms={text} is over the maximum time budget of {MAX_MS:,.0f} ms per decision"
        )
    return ms


def parse_iterations(agent: str, text: object) -> int:
    """``iterations=``: at least 1 and at most :data:`MAX_ITERATIONS`."""
    iterations = int(_number(agent, "iterations", text, int))
    if iterations < 1:
        raise OptionError(f"agent {agent!r}: iterations must be at least 1, got {iterations}")
    if iterations > MAX_ITERATIONS:
        raise OptionError(
            f"agent {agent!r}: iterations={text} is over the maximum of {MAX_ITERATIONS:,} iterations per decision"
        )
    return iterations


def parse_workers(agent: str, text: object) -> int:
    """``workers=``: processes one search runs on, at least 1 and at most :data:`MAX_WORKERS`."""
    workers = int(_number(agent, "workers", text, int))
    if workers < 1:
        raise OptionError(f"agent {agent!r}: workers must be at least 1, got {workers}")
    if workers > MAX_WORKERS:
        raise OptionError(f"agent {agent!r}: workers={text} is over the maximum of {MAX_WORKERS} worker processes")
    return workers


def parse_trees(agent: str, text: object) -> int:
    """``trees=``: independent search trees per decision, at least 1 and at most :data:`MAX_TREES`."""
    trees = int(_number(agent, "trees", text, int))
    if not 1 <= trees <= MAX_TREES:
        raise OptionError(f"agent {agent!r}: trees must be 1..{MAX_TREES}, got {trees}")
    return trees


def parse_float(agent: str, key: str, text: object, low: float, high: float) -> float:
    """A number option within ``low..high`` (inclusive)."""
    value = _number(agent, key, text, float)
    if not low <= value <= high:
        raise OptionError(f"agent {agent!r}: {key} must lie in {low:g}..{high:g}, got {text!r}")
    return value


def parse_int(agent: str, key: str, text: object, low: int, high: int) -> int:
    """An integer option within ``low..high`` (inclusive)."""
    value = int(_number(agent, key, text, int))
    if not low <= value <= high:
        raise OptionError(f"agent {agent!r}: {key} must lie in {low}..{high}, got {text!r}")
    return value
