"""Agent Inbox's answer to the robot's question, through the official SDK against the real server.

The robot's question carries no action request, so Agent Inbox shows it as one it cannot fill in and
offers Ignore alone: it sends ``command={"resume": [{"type": "ignore", "args": null}]}`` (``runs.create``,
hooks/use-interrupted-actions.tsx, ``handleIgnore``). The robot then ends refused, as its own graph ends
on LangGraph's server, which hands the value to the graph unchecked: each value below is answered through
the API and given to the graph itself, and both record the same decision and the same final message.
"""

from __future__ import annotations

from typing import Any

import pytest
from langgraph.types import Command

from agents.robot.graph import build_graph
from tests.api.conftest import Server
from tests.factories import pause_robot

ROBOT_START = {"messages": [{"role": "human", "content": "Start the task"}]}
IGNORE = [{"type": "ignore", "args": None}]


@pytest.fixture(scope="module")
def server(shared_server: Server) -> Server:
    """The worker's shared server (tests/api/conftest.py): this module's threads have ids of its own."""
    return shared_server


def answered_through_the_api(client: Any, answer: Any) -> dict[str, Any]:
    """The robot's values after ``answer``, sent as Agent Inbox sends it: ``runs.create``, then ``runs.join``."""
    thread_id = str(client.threads.create()["thread_id"])
    assert "__interrupt__" in client.runs.wait(thread_id, "robot", input=ROBOT_START)
    run = client.runs.create(thread_id, "robot", command={"resume": answer})
    done = dict(client.runs.join(thread_id, run["run_id"]))
    thread = client.threads.get(thread_id)
    assert thread["status"] == "idle" and "__interrupt__" not in done, thread
    done["lifecycle"] = thread["lifecycle"]
    return done


def answered_by_the_graph(store: Any, settings: Any, answer: Any) -> dict[str, Any]:
    """The robot's values after ``answer`` given to its graph unchecked, as ``langgraph dev`` gives it."""
    pause_robot(store, settings, "tooling")
    config = {"configurable": {"thread_id": "tooling"}, "metadata": {"agent": "robot"}}
    return dict(build_graph(store.saver, store=store).invoke(Command(resume=answer), config))


def test_agent_inbox_s_ignore_ends_the_robot_refused_as_its_graph_does(client: Any, store: Any, settings: Any) -> None:
    done = answered_through_the_api(client, IGNORE)
    assert done["decision"] == "ignore"
    assert done["lifecycle"]["status"] == "done" and done["lifecycle"]["outcome"] == "refused"
    message = done["messages"][-1]["content"]
    assert message.startswith("Refused") and "'ignore'" in message, message
    tooling = answered_by_the_graph(store, settings, IGNORE)
    assert (tooling["decision"], tooling["messages"][-1].content) == (done["decision"], message)


@pytest.mark.parametrize(
    ("answer", "decision"),
    [
        ([{"type": "accept", "args": None}], "accept"),
        ([{"type": "response", "args": "yes"}], "response"),
        ({"answer": "yes"}, "yes"),
        ("yes", "yes"),
        ("no", "no"),
    ],
    ids=["inbox-accept", "inbox-response", "answer-object", "yes", "no"],
)
def test_the_api_and_the_robot_s_graph_read_an_answer_alike(
    client: Any, store: Any, settings: Any, answer: Any, decision: str
) -> None:
    done = answered_through_the_api(client, answer)
    tooling = answered_by_the_graph(store, settings, answer)
    assert done["decision"] == tooling["decision"] == decision
    assert done["messages"][-1]["content"] == tooling["messages"][-1].content
    outcome = "executed" if decision == "yes" else "refused"
    assert done["lifecycle"]["outcome"] == outcome
    assert done["messages"][-1]["content"].startswith("Executed" if decision == "yes" else "Refused")
