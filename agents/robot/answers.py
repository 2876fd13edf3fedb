"""The robot's answer in a resume value: one rule for its graph and for every path before it.

The graph's ``approval`` node reads what ``interrupt()`` returned through :func:`answer_of`, and the
spec's answer check, which every path of this project runs first (the page, its forms, the CLI, the HTTP
API), reads the value through it too. So a value is the same answer wherever it arrives, LangGraph's own
server (``langgraph dev``, which hands the value to the graph unchecked) included:

* text is the answer exactly as given, case and spaces kept (only ``yes`` executes);
* ``{"answer": text}`` is that text;
* Agent Inbox's response (``[{"type", "args"}]``) is its type: ``ignore``, ``accept``, ``edit`` or
  ``response``, none of which is ``yes``, so the robot refuses and records it as the decision. The
  robot's question carries no action request (any text answers it), so Agent Inbox shows it as one it
  cannot fill in and offers Ignore alone (contexts/utils.ts, ``getInterruptFromThread``: an interrupt
  without an action request is ``improper_schema`` with only ``allow_ignore``); a person who ignores
  the question has not said yes.

Anything else is returned as it is: this project's paths refuse it (a 422 naming ``answer``), and the
graph, handed it by other tooling, records it as text, which refuses too.
"""

from __future__ import annotations

from typing import Any

from agents.hitl_shape import is_inbox_response


def answer_of(value: Any) -> Any:
    """The answer a resume value gives the robot's question (see the module's rules)."""
    if isinstance(value, dict) and set(value) == {"answer"}:
        return value["answer"]
    if is_inbox_response(value):
        return str(value[0]["type"])
    return value
