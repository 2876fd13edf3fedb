"""A run's ``input`` in the graph's own input schema, message ids, and the run's metadata in checkpoints.

LangGraph's clients start a graph with its own input (``{"messages": [...]}`` for the robot,
``{"request": {...}}`` for the lecture planner, the refund state's request keys). The server takes it
as it takes the start fields, through the same checks: bad input is a 422 naming the field and
saves nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from langgraph_sdk import get_sync_client

from tests.api.conftest import Server


@pytest.fixture(scope="module")
def server(shared_server: Server) -> Server:
    """The worker's shared server (tests/api/conftest.py): this module's threads and cases have ids of its own."""
    return shared_server


pytestmark = pytest.mark.slow

START = {"role": "human", "content": "Start the task"}
CASE = {"case_id": "GI-1", "customer": "Kim", "requested_amount": 50_000, "reason": "damaged"}


@pytest.fixture
def client(server: Server) -> Iterator[Any]:
    with get_sync_client(url=server.url, api_key=None) as sdk:
        yield sdk


def test_the_robot_starts_from_its_messages_and_every_message_has_an_id(client: Any) -> None:
    thread_id = client.threads.create()["thread_id"]
    waiting = client.runs.wait(thread_id, "robot", input={"messages": [START]})
    assert waiting["__interrupt__"][0]["value"]["question"]
    done = client.runs.wait(thread_id, "robot", command={"resume": "yes"})
    state = client.threads.get_state(thread_id)
    history = client.threads.get_history(thread_id, limit=20)
    for messages in (done["messages"], state["values"]["messages"], history[0]["values"]["messages"]):
        assert [message["type"] for message in messages] == ["human", "ai"]
        assert all(isinstance(message["id"], str) and message["id"] for message in messages)


def test_a_refund_starts_from_its_state_keys_and_checkpoints_carry_the_run(client: Any) -> None:
    thread_id = client.threads.create(thread_id="refund-GI-1")["thread_id"]
    run = client.runs.create(thread_id, "refund", input=CASE)
    values = client.runs.join(thread_id, run["run_id"])
    assert values["requested_amount"] == 50_000 and values["customer"] == "Kim"
    metadata = client.threads.get_state(thread_id)["metadata"]
    assert (metadata["graph_id"], metadata["assistant_id"], metadata["run_id"]) == ("refund", "refund", run["run_id"])


@pytest.mark.parametrize(
    ("agent", "thread_id", "graph_input", "field"),
    [
        ("robot", None, {"messages": "hi"}, "messages"),
        ("robot", None, {"messages": []}, "messages"),
        ("robot", None, {"messages": [{"role": "ai", "content": "x"}]}, "messages[0].role"),
        ("robot", None, {"messages": [{"role": "human", "content": 5}]}, "messages[0].content"),
        ("robot", None, {"messages": [START], "other": 1}, "other"),
        ("lecture", None, {"request": "a lecture"}, "request"),
        ("lecture", None, {"request": {"topic": "x"}}, "audience_level"),
        ("refund", "refund-GI-2", {**CASE, "case_id": "GI-2", "requested_amount": -1}, "amount"),
        ("refund", "refund-GI-3", {**CASE, "case_id": "GI-3", "requested_at": "now"}, "requested_at"),
    ],
)
def test_bad_graph_input_is_refused_naming_the_field_and_saves_nothing(
    client: Any, agent: str, thread_id: str | None, graph_input: dict[str, Any], field: str
) -> None:
    created = client.threads.create(thread_id=thread_id)["thread_id"]
    with pytest.raises(httpx.HTTPStatusError) as refused:
        client.runs.wait(created, agent, input=graph_input)
    assert refused.value.response.status_code == 422
    assert refused.value.response.json()["field"] == field
    assert client.threads.get_history(created, limit=5) == []
