"""History and search filters, and threads that were created and never ran, through the official SDK.

The answers are LangGraph's server's (``tests/ecosystem/test_compatibility.py`` holds them next to the
real ``langgraph dev``): a history's ``metadata`` filter chooses before its ``limit`` counts, its
``checkpoint`` asks that checkpoint alone, a search's ``metadata`` and ``values`` find what contains
them, and a thread made by ``threads.create`` that never ran is waiting for nothing and has no state
to update yet.
"""

from __future__ import annotations

from typing import Any

import pytest
from langgraph_sdk.errors import BadRequestError, NotFoundError, UnprocessableEntityError

from tests.api.conftest import Server, refused

#: A checkpoint id of LangGraph's form that no thread has.
UNKNOWN_CHECKPOINT = "1f000000-0000-6000-8000-000000000000"


def waiting_robot(client: Any, thread_id: str) -> list[dict[str, Any]]:
    """A robot thread waiting at its question; its whole history, newest first: two steps, then its input."""
    client.threads.create(thread_id=thread_id)
    client.runs.wait(thread_id, "robot", input={})
    history: list[dict[str, Any]] = client.threads.get_history(thread_id, limit=10)
    assert [entry["metadata"]["source"] for entry in history] == ["loop", "loop", "input"]
    return history


def ids_of(entries: list[dict[str, Any]]) -> list[str]:
    return [entry["checkpoint_id"] for entry in entries]


def test_a_history_filter_chooses_before_the_limit_counts(client: Any) -> None:
    history = waiting_robot(client, "filter-history")
    ids = ids_of(history)
    assert client.threads.get_history("filter-history", limit=1, metadata={"source": "input"}) == [history[2]]
    assert ids_of(client.threads.get_history("filter-history", limit=10, metadata={"source": "loop"})) == ids[:2]
    assert client.threads.get_history("filter-history", limit=10, metadata={"source": "update"}) == []
    # ``before`` bounds what the filter reads from, in each form it is sent in.
    newest_loop = {"configurable": {"checkpoint_id": ids[0]}}
    older = client.threads.get_history("filter-history", limit=1, metadata={"source": "loop"}, before=newest_loop)
    assert ids_of(older) == [ids[1]]
    assert client.threads.get_history("filter-history", limit=5, metadata={"source": "loop"}, before=ids[1]) == []
    # The metadata contains the filter: a nested object is matched by what it holds.
    assert ids_of(client.threads.get_history("filter-history", limit=10, metadata={"parents": {}})) == ids
    with_step = {"source": "loop", "step": 0, "graph_id": "robot"}
    assert ids_of(client.threads.get_history("filter-history", limit=10, metadata=with_step)) == [ids[1]]


def test_a_history_of_one_checkpoint_is_that_checkpoint_alone(client: Any) -> None:
    history = waiting_robot(client, "filter-one")
    ids = ids_of(history)
    for entry in history:
        assert client.threads.get_history("filter-one", checkpoint={"checkpoint_id": entry["checkpoint_id"]}) == [entry]
    # As get_state gives a checkpoint: with its thread and (root) namespace.
    assert client.threads.get_history("filter-one", limit=10, checkpoint=history[1]["checkpoint"]) == [history[1]]
    assert client.threads.get_history("filter-one", checkpoint={"checkpoint_id": UNKNOWN_CHECKPOINT}) == []
    # ``before`` and ``metadata`` still apply to it.
    assert client.threads.get_history("filter-one", checkpoint={"checkpoint_id": ids[0]}, before=ids[1]) == []
    assert client.threads.get_history("filter-one", checkpoint={"checkpoint_id": ids[2]}, before=ids[1]) == [history[2]]
    loop_step = {"checkpoint_id": ids[1]}
    assert client.threads.get_history("filter-one", checkpoint=loop_step, metadata={"source": "input"}) == []


def test_a_history_checkpoint_this_server_cannot_honour_is_refused_naming_it(client: Any) -> None:
    history = waiting_robot(client, "filter-refused")
    subgraph = {"checkpoint_id": history[0]["checkpoint_id"], "checkpoint_ns": "approval:1"}
    with pytest.raises(UnprocessableEntityError) as namespace:
        client.threads.get_history("filter-refused", checkpoint=subgraph)
    assert namespace.value.response.json()["field"] == "checkpoint.checkpoint_ns"
    elsewhere = {"checkpoint_id": history[0]["checkpoint_id"], "thread_id": "another-thread"}
    with pytest.raises(UnprocessableEntityError) as thread:
        client.threads.get_history("filter-refused", checkpoint=elsewhere)
    assert thread.value.response.json()["field"] == "checkpoint.thread_id"
    unknown_before = refused(
        client.threads.get_history, "filter-refused", checkpoint={"checkpoint_id": UNKNOWN_CHECKPOINT}, before="nope"
    )
    assert unknown_before.status_code == 422 and unknown_before.json()["field"] == "before"


def test_a_search_finds_the_threads_whose_metadata_contains_the_filter(client: Any) -> None:
    metadata = {"user": {"id": "u1", "name": "x"}, "tag": "demo", "labels": ["a", "b"]}
    created = client.threads.create(metadata=metadata)["thread_id"]

    def found(**filters: Any) -> list[str]:
        return [thread["thread_id"] for thread in client.threads.search(limit=100, **filters)]

    assert found(metadata={"user": {"id": "u1"}}) == [created]
    assert client.threads.count(metadata={"user": {"id": "u1"}}) == 1
    assert found(metadata={"user": {"id": "u1"}, "tag": "demo", "labels": ["b"]}) == [created]
    assert found(metadata={"user": {"id": "u2"}}) == []
    assert found(metadata={"user": "u1"}) == []
    assert found(metadata={"labels": "a"}) == []
    # Once it ran it is saved, and still found by what it was created with.
    client.runs.wait(created, "robot", input={})
    assert found(metadata={"user": {"id": "u1"}, "graph_id": "robot"}) == [created]


def test_a_search_finds_the_threads_whose_values_contain_the_filter(client: Any) -> None:
    ran = client.threads.create(thread_id="filter-values")["thread_id"]
    client.runs.wait(ran, "robot", input={})
    never_ran = client.threads.create(thread_id="filter-values-never")["thread_id"]
    both = [ran, never_ran]

    def found(values: dict[str, Any]) -> list[str]:
        return [thread["thread_id"] for thread in client.threads.search(ids=both, values=values)]

    assert found({"messages": [{"type": "human", "content": "Start the task"}]}) == [ran]
    assert found({"messages": [{"type": "tool"}]}) == []
    assert sorted(found({})) == sorted(both)  # an empty filter filters nothing, as on LangGraph's server


def test_a_filter_nested_too_deep_is_refused_naming_it(client: Any) -> None:
    deep: dict[str, Any] = {"leaf": 1}
    for _ in range(40):
        deep = {"a": deep}
    for field in ("metadata", "values"):
        with pytest.raises(UnprocessableEntityError) as refusal:
            client.threads.search(**{field: deep})
        assert refusal.value.response.json()["field"] == field
    with pytest.raises(UnprocessableEntityError) as history:
        client.threads.get_history("filter-deep", metadata=deep)
    assert history.value.response.json()["field"] == "metadata"


def test_a_created_thread_that_never_ran_is_not_waiting_for_an_answer(client: Any, server: Server) -> None:
    thread_id = client.threads.create()["thread_id"]
    answer = {"action": "approve", "approver": "kim"}
    for call in (client.runs.wait, client.runs.create):
        conflict = refused(call, thread_id, "refund", command={"resume": answer})
        assert conflict.status_code == 409 and conflict.json()["field"] == "thread_id"
        assert "is not waiting for an answer" in conflict.json()["detail"]
    with server.client() as http:
        body = {"assistant_id": "robot", "command": {"resume": "yes"}}
        streamed = http.post(f"/threads/{thread_id}/runs/stream", json=body)
    assert streamed.status_code == 409 and "is not waiting for an answer" in streamed.json()["detail"]
    # Nothing changed: it is still a new thread, which then runs.
    assert client.threads.get(thread_id)["status"] == "idle"
    assert client.threads.get_history(thread_id) == []
    assert client.runs.wait(thread_id, "robot", input={})["__interrupt__"]


def test_update_state_of_a_created_thread_that_never_ran_says_it_has_no_state_yet(client: Any) -> None:
    thread_id = client.threads.create()["thread_id"]
    with pytest.raises(BadRequestError) as refusal:  # LangGraph's server answers 400 too
        client.threads.update_state(thread_id, {"decision": "no"}, as_node="approval")
    assert refusal.value.response.json()["field"] == "thread_id"
    assert "has not run yet" in refusal.value.response.json()["detail"]
    assert client.threads.get(thread_id)["status"] == "idle"
    assert client.threads.get_history(thread_id) == []
    with pytest.raises(NotFoundError):  # a thread no one created is still unknown
        client.threads.update_state("filter-nobody", {"decision": "no"}, as_node="approval")
