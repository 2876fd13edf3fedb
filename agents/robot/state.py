"""State of the approval robot."""

from __future__ import annotations

from typing import Annotated

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages
from typing_extensions import TypedDict


class RobotState(TypedDict, total=False):
    """What the robot remembers between steps.

    Attributes:
        messages: The conversation, appended to by ``add_messages``.
        pending_action: The action the robot proposes and waits to execute, as plain text in the run
            language (a thread saved before it was text holds an object, which still displays and finishes).
        decision: The human's answer as typed, surrounding spaces dropped (case kept: only ``yes`` executes).
    """

    messages: Annotated[list[AnyMessage], add_messages]
    pending_action: str
    decision: str
