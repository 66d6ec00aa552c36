"""Players that choose actions through the protocol alone: ``random``, per-game ``heuristic``, ``ismcts``."""

from cardtable.agents.base import Agent, Observation
from cardtable.agents.ismcts import Ismcts, seat_rewards, win_shares
from cardtable.agents.registry import AGENTS, make_agent, parse_spec, register_agent, split_specs

__all__ = [
    "AGENTS",
    "Agent",
    "Ismcts",
    "Observation",
    "make_agent",
    "parse_spec",
    "register_agent",
    "seat_rewards",
    "split_specs",
    "win_shares",
]
