"""Players that choose actions through the protocol alone: ``random``, per-game ``heuristic``, ``ismcts``,
``strong``, and the levels ``easy``, ``normal``, ``hard``, ``expert``."""

from cardtable.agents.base import Agent, Observation
from cardtable.agents.ismcts import Ismcts
from cardtable.agents.registry import (
    AGENT_INFO,
    AGENTS,
    AgentInfo,
    catalogue,
    make_agent,
    parse_spec,
    register_agent,
    split_specs,
)
from cardtable.agents.rewards import seat_rewards, win_shares

__all__ = [
    "AGENTS",
    "AGENT_INFO",
    "Agent",
    "AgentInfo",
    "Ismcts",
    "Observation",
    "catalogue",
    "make_agent",
    "parse_spec",
    "register_agent",
    "seat_rewards",
    "split_specs",
    "win_shares",
]
