"""A run's ``context`` (LangGraph's runtime context) through the Python SDK: no agent declares a context
schema, so this server refuses a non-empty one naming ``context`` (LangGraph's server hands it to the
graph, which reads none of it), and takes an empty one; ``context`` beside ``config.configurable`` is
refused on both servers."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

START = {"messages": [{"role": "human", "content": "Start the task"}]}

pytestmark = pytest.mark.slow


def refusal(client: Any, thread: str, agent: str, **run: Any) -> tuple[int, str]:
    with pytest.raises(httpx.HTTPStatusError) as caught:
        client.runs.wait(thread, agent, input=START, **run)
    return caught.value.response.status_code, caught.value.response.text


def test_a_context_no_agent_can_take_is_refused_and_changes_nothing(both: dict[str, Any]) -> None:
    ours, reference = both["ours"], both["langgraph dev"]
    for agent in ("robot", "refund", "lecture"):
        thread = ours.threads.create()["thread_id"]
        status, body = refusal(ours, thread, agent, context={"user_id": "u1"})
        assert status == 422 and "context" in body and f"the {agent} agent declares no runtime context" in body
        assert ours.threads.get_state(thread)["values"] == {}  # nothing started
    thread = reference.threads.create()["thread_id"]
    assert "__interrupt__" in reference.runs.wait(thread, "robot", input=START, context={"user_id": "u1"})


def test_an_empty_context_runs_as_without_one(both: dict[str, Any]) -> None:
    for client in both.values():
        thread = client.threads.create()["thread_id"]
        assert "__interrupt__" in client.runs.wait(thread, "robot", input=START, context={})


def test_context_beside_configurable_is_refused_on_both_servers(both: dict[str, Any]) -> None:
    both_keys = {"config": {"configurable": {"user_id": "u1"}}, "context": {"user_id": "u1"}}
    for name, client in both.items():
        thread = client.threads.create()["thread_id"]
        status, body = refusal(client, thread, "robot", **both_keys)
        assert status in (400, 422) and "context" in body, name
