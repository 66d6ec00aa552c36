"""Tools for testing games on the cardtable protocol: the conformance harness and golden playthroughs.

Any game, built in or plug-in, can be checked with::

    from cardtable.testing.conformance import check_game
    check_game("toy", {"players": 2}, seeds=range(5))
"""

from __future__ import annotations

from cardtable.testing.conformance import (
    ConformanceError,
    GameReport,
    PlayoutReport,
    cases,
    check_game,
    check_playout,
    config_label,
    configurations,
)

__all__ = [
    "ConformanceError",
    "GameReport",
    "PlayoutReport",
    "cases",
    "check_game",
    "check_playout",
    "config_label",
    "configurations",
]
