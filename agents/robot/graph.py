"""The approval robot's graph: ``propose`` → ``approval`` (pauses) → ``execute``.

The pause is an ``interrupt()`` inside ``approval``. LangGraph saves a
checkpoint after every node, plus the interrupt as a write, so the question
survives a restart; on resume, ``approval`` runs again from its start and
``interrupt()`` returns the human's answer instead of pausing.
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import interrupt

from agents.common import node_decorator, require_checkpointer
from agents.db import Store
from agents.robot.state import RobotState

AGENT_NAME = "robot"
QUESTION = "execute this? (yes/no)"
#: The one answer that executes. Anything else, ``Yes``, ``y`` and ``네`` included, refuses.
APPROVING_ANSWER = "yes"
PROPOSED_ACTION: dict[str, Any] = {
    "type": "business_trip_request",
    "destination": "Busan",
    "days": 2,
    "budget_krw": 800_000,
}


def describe_action(action: dict[str, Any]) -> str:
    """One line naming the action, e.g. for the final message."""
    return f"business trip to {action['destination']}, {action['days']} days, budget {action['budget_krw']:,} KRW"


def propose(state: RobotState) -> dict[str, Any]:
    """Decides the action to ask about. Nothing is executed here."""
    return {"pending_action": dict(PROPOSED_ACTION)}


def approval(state: RobotState) -> dict[str, Any]:
    """Pauses with the action and the question; returns the answer exactly as given."""
    answer = interrupt({"action": state["pending_action"], "question": QUESTION})
    return {"decision": str(answer)}


def execute(state: RobotState) -> dict[str, Any]:
    """Executes the action on an exact ``yes``; otherwise records the refusal."""
    action = describe_action(state["pending_action"])
    if state.get("decision") == APPROVING_ANSWER:
        text = f"Executed: {action}."
    else:
        text = f"Refused: {action} was not executed (answer {state.get('decision')!r} is not 'yes')."
    return {"messages": [AIMessage(content=text)]}


def build_graph(checkpointer: Any, *, store: Store | None = None) -> CompiledStateGraph:
    """Builds the robot's graph on a checkpointer.

    Args:
        checkpointer: Required; a graph without one could never be resumed.
        store: When given, every node call is written to its node log.

    Raises:
        MissingCheckpointerError: ``checkpointer`` is missing.
    """
    saver = require_checkpointer(checkpointer, AGENT_NAME)
    log = node_decorator(store, AGENT_NAME)
    builder = StateGraph(RobotState)
    builder.add_node("propose", log(propose))
    builder.add_node("approval", log(approval))
    builder.add_node("execute", log(execute))
    builder.add_edge(START, "propose")
    builder.add_edge("propose", "approval")
    builder.add_edge("approval", "execute")
    builder.add_edge("execute", END)
    return builder.compile(checkpointer=saver)
