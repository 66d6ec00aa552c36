"""Tools for testing games on the cardtable protocol: the conformance harness and golden playthroughs.

Any game, built in or plug-in, can be checked with::

    from cardtable.testing.conformance import check_game
    check_game("toy", {"players": 2}, seeds=range(5))

A plug-in's own test suite can run the harness over all its configurations::

    import pytest
    import cardtable
    from cardtable.testing import check_game, configurations

    cardtable.register("my-game", MyGame)

    @pytest.mark.parametrize("options", configurations("my-game"))
    def test_conformance(options):
        check_game("my-game", options, seeds=range(3))

:mod:`cardtable.testing.playthrough` writes and reads the golden playthrough files.
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
