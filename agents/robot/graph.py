"""The approval robot's graph: ``propose`` → ``approval`` (pauses) → ``execute``.

The pause is an ``interrupt()`` inside ``approval``. LangGraph saves a
checkpoint after every node, plus the interrupt as a write, so the question
survives a restart; on resume, ``approval`` runs again from its start and
``interrupt()`` returns the human's answer instead of pausing.
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage
from langchain_core.runnables import RunnableConfig
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import interrupt

from agents.common import node_decorator, require_checkpointer, run_language
from agents.db import Store
from agents.robot import AGENT_NAME, APPROVING_ANSWER
from agents.robot.answers import answer_of
from agents.robot.state import RobotState
from agents.robot.strings import STRINGS
from agents.texts import DEFAULT_LANGUAGE, say, verbatim


def proposed_action(lang: str = DEFAULT_LANGUAGE) -> str:
    """The action the robot proposes, as the plain text ``pending_action`` holds."""
    return say(STRINGS, "robot.say.action", lang)


def question(lang: str = DEFAULT_LANGUAGE) -> str:
    """The question of the pause: ``Execute this? (yes/no)`` / ``이 작업을 실행할까요? (yes/no)``."""
    return say(STRINGS, "robot.say.question", lang)


def describe_action(action: str | dict[str, Any]) -> str:
    """The action as one line: the text itself, or, for a thread saved when it was an object, its English."""
    if isinstance(action, str):
        return action
    return f"business trip to {action['destination']}, {action['days']} days, budget {action['budget_krw']:,} KRW"


def propose(state: RobotState, config: RunnableConfig) -> dict[str, Any]:
    """Decides the action to ask about. Nothing is executed here."""
    return {"pending_action": proposed_action(run_language(config))}


def approval(state: RobotState, config: RunnableConfig) -> dict[str, Any]:
    """Pauses with the action and the question; returns the answer exactly as given.

    The answer is read from the resume value by :func:`agents.robot.answers.answer_of`, the rule every
    path checks it by first, so LangGraph's own server (which checks nothing) decides as they do.
    """
    answer = interrupt({"action": state["pending_action"], "question": question(run_language(config))})
    return {"decision": str(answer_of(answer))}


def execute(state: RobotState, config: RunnableConfig) -> dict[str, Any]:
    """Executes the action on an exact ``yes`` (compared as given, spaces included); otherwise refuses."""
    lang = run_language(config)
    action = describe_action(state["pending_action"])
    if state.get("decision") == APPROVING_ANSWER:
        text = say(STRINGS, "robot.say.executed", lang, action=action)
    else:
        text = say(STRINGS, "robot.say.refused", lang, action=action, answer=verbatim(state.get("decision")))
    return {"messages": [AIMessage(content=text)]}


#: The nodes in the order every run passes them (a straight line: the presenter's step row draws it).
NODES = ("propose", "approval", "execute")


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
