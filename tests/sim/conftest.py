"""Agents are developed against the toy game; the real games join the tests as they become loadable.

Dial (two card numbers set its figures) is the balance search's test game. It is registered for each
test and removed after it, not at import: the conformance and playthrough tests list
``cardtable.available()`` when they are collected and must not find a game only these tests define.
"""

from __future__ import annotations

import pytest

import cardtable
from tests.engine.toy import Toy
from tests.sim.dial import Dial

cardtable.register("toy", Toy)


@pytest.fixture(autouse=True)
def dial_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(cardtable.games._EXTRA, "dial", Dial)
