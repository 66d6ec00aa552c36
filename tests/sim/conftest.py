"""Agents are developed against the toy game; the real games join the tests as they become loadable."""

from __future__ import annotations

import cardtable
from tests.engine.toy import Toy

cardtable.register("toy", Toy)
