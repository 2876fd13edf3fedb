"""The agent registry: name → :class:`~agents.spec.AgentSpec`.

One line per agent. Everything generic is built from here: the dashboard's
navigation and string catalogue, the inbox, the sidebar forms, the CLI's
``run`` commands, ``langgraph_app``, the database's tables and the settings.
An agent's own page may import its package; nothing generic does.
"""

from __future__ import annotations

from agents.errors import InputError
from agents.lecture.spec import SPEC as LECTURE
from agents.refund.spec import SPEC as REFUND
from agents.robot.spec import SPEC as ROBOT
from agents.spec import AgentSpec
from agents.strings import STRINGS
from agents.texts import text

AGENTS: dict[str, AgentSpec] = {spec.name: spec for spec in (ROBOT, REFUND, LECTURE)}


def get_agent(name: str) -> AgentSpec:
    """Returns the agent named ``name``.

    Raises:
        InputError: No such agent (the message lists the known ones).
    """
    try:
        return AGENTS[name]
    except KeyError:
        raise InputError(
            "agent", text(STRINGS, "error.unknown_agent", agent=repr(name), known=", ".join(AGENTS))
        ) from None
