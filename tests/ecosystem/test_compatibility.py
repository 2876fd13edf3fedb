"""The same SDK calls against ``python -m agents serve`` and the real ``langgraph dev``: the same shapes.

Each test runs one scripted robot flow on both servers and compares what the official
``langgraph-sdk`` client gets back: keys, value types and which checkpoints a page holds. The values
themselves differ on purpose (thread ids, versions, this server's own ``lifecycle`` key), as the
README lists.
"""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.slow


def paused_robot(client: Any, name: str) -> str:
    """A robot thread waiting at its question, started as each server takes it."""
    if name == "ours":
        thread_id = client.threads.create(thread_id="compat-robot")["thread_id"]
        client.runs.wait(thread_id, "robot", input={})  # the CLI's start fields: none for the robot
    else:
        thread_id = client.threads.create()["thread_id"]
        client.runs.wait(thread_id, "robot", input={"messages": [{"role": "human", "content": "Start the task"}]})
    return str(thread_id)


def shape(value: Any) -> Any:
    """Keys and value types, one level into nested objects."""
    if isinstance(value, dict):
        return {key: type(item).__name__ for key, item in value.items()}
    return type(value).__name__


def test_info_has_the_reference_keys_and_types(both: dict[str, Any]) -> None:
    ours, reference = (client.http.get("/info") for client in both.values())
    assert shape(ours) == shape(reference)
    assert shape(ours["flags"]) == shape(reference["flags"])
    assert set(ours["host"]) == set(reference["host"])


def test_state_update_and_history_have_the_reference_shapes(both: dict[str, Any]) -> None:
    found: dict[str, dict[str, Any]] = {}
    for name, client in both.items():
        thread_id = paused_robot(client, name)
        state = client.threads.get_state(thread_id)
        update = client.threads.update_state(thread_id, {"decision": "no"}, as_node="approval")
        history = client.threads.get_history(thread_id, limit=10)
        ids = [entry["checkpoint_id"] for entry in history]
        page = client.threads.get_history(thread_id, limit=2, before={"configurable": {"checkpoint_id": ids[1]}})
        found[name] = {"state": state, "update": update, "history": history, "ids": ids, "page": page}

    ours, reference = found["ours"], found["langgraph dev"]
    assert shape(ours["state"]) == shape(reference["state"])
    assert shape(ours["state"]["checkpoint"]) == shape(reference["state"]["checkpoint"])
    assert shape(ours["state"]["parent_checkpoint"]) == shape(reference["state"]["parent_checkpoint"])
    assert shape(ours["update"]) == shape(reference["update"])
    for answer in (ours, reference):
        update = answer["update"]
        assert update["configurable"]["checkpoint_id"] == update["checkpoint_id"] == answer["ids"][0]
        assert [entry["checkpoint_id"] for entry in answer["page"]] == answer["ids"][2:4]
    assert len(ours["ids"]) == len(reference["ids"])
    assert [shape(entry) for entry in ours["history"]] == [shape(entry) for entry in reference["history"]]
