"""The agent registry: name → :class:`~agents.spec.AgentSpec`.

Pages and the CLI look agents up here and never import an agent directly.
"""

from __future__ import annotations

from agents.errors import InputError
from agents.lecture.spec import SPEC as LECTURE
from agents.refund.spec import SPEC as REFUND
from agents.robot.spec import SPEC as ROBOT
from agents.spec import AgentSpec

AGENTS: dict[str, AgentSpec] = {spec.name: spec for spec in (ROBOT, REFUND, LECTURE)}


def get_agent(name: str) -> AgentSpec:
    """Returns the agent named ``name``.

    Raises:
        InputError: No such agent (the message lists the known ones).
    """
    try:
        return AGENTS[name]
    except KeyError:
        raise InputError("agent", f"unknown agent {name!r}; known: {', '.join(AGENTS)}") from None


def agent_names() -> list[str]:
    """The registered agent names, in registry order."""
    return list(AGENTS)
