"""Agents are developed against the toy game; the real games join the tests as they become loadable.
Dial (two card numbers set its figures) is the balance search's test game."""

from __future__ import annotations

import cardtable
from tests.engine.toy import Toy
from tests.sim.dial import Dial

cardtable.register("toy", Toy)
cardtable.register("dial", Dial)
