"""Put on ``PYTHONPATH`` of a test server (``Server(..., pythonpath=[SLOWBOT])``): registers the agent
``sleepy:s=SECONDS``, which blocks for that long whatever its time budget says and then takes the first
legal action. It stands for a third-party agent that ignores its deadline, the case the worker
deadline exists for: the server must end the worker and replace it, never merely stop waiting."""

from __future__ import annotations

import time
from typing import Any


def _register() -> None:
    from cardtable.agents import Agent, Observation
    from cardtable.agents.registry import register_agent
    from cardtable.engine.actions import Action

    class Sleepy(Agent):
        name = "sleepy"

        def __init__(self, seed: int, seconds: float) -> None:
            super().__init__(seed)
            self.seconds = seconds

        def choose(self, obs: Observation) -> Action:
            time.sleep(self.seconds)
            return obs.legal_actions()[0]

    def factory(game: Any, seed: int, **opts: Any) -> Agent:
        return Sleepy(seed, float(opts.get("s", "1")))

    register_agent("sleepy", factory, "sleepy", "a test agent that ignores its time budget")


_register()
