"""Players that choose actions through the protocol alone."""

from cardtable.agents.base import Agent, Observation
from cardtable.agents.registry import AGENTS, make_agent, parse_spec, register_agent

__all__ = ["AGENTS", "Agent", "Observation", "make_agent", "parse_spec", "register_agent"]
