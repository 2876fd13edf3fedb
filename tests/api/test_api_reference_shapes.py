"""State, ``update_state`` and history answer in the shapes LangGraph's server gives, through the SDK.

``tests/ecosystem/test_compatibility.py`` compares the same calls with the real ``langgraph dev``.
"""

from __future__ import annotations

from typing import Any

import pytest
from langgraph_sdk.errors import UnprocessableEntityError

from tests.api.conftest import Server


@pytest.fixture(scope="module")
def server(shared_server: Server) -> Server:
    """The worker's shared server (tests/api/conftest.py): this module's threads and cases have ids of its own."""
    return shared_server


@pytest.fixture
def answered_robot(client: Any) -> tuple[str, list[str]]:
    """A robot thread answered ``no`` after an ``update_state``; its checkpoint ids, newest first."""
    thread_id = "shapes-robot"
    client.threads.create(thread_id=thread_id, if_exists="do_nothing")
    client.runs.wait(thread_id, "robot", input={})
    client.runs.wait(thread_id, "robot", command={"resume": "no"})
    return thread_id, [
        entry["checkpoint"]["checkpoint_id"] for entry in client.threads.get_history(thread_id, limit=50)
    ]


def test_state_names_its_checkpoint_and_parent_at_the_top(client: Any, answered_robot: tuple[str, list[str]]) -> None:
    thread_id, ids = answered_robot
    state = client.threads.get_state(thread_id)
    assert state["checkpoint_id"] == state["checkpoint"]["checkpoint_id"] == ids[0]
    assert state["parent_checkpoint_id"] == state["parent_checkpoint"]["checkpoint_id"] == ids[1]
    assert set(state["checkpoint"]) == {"thread_id", "checkpoint_ns", "checkpoint_id"}
    first = client.threads.get_state(thread_id, checkpoint_id=ids[-1])
    assert first["checkpoint_id"] == ids[-1] and first["parent_checkpoint_id"] is None


def test_update_state_answers_the_new_checkpoint_as_config_and_id(client: Any) -> None:
    thread_id = "shapes-update"
    client.threads.create(thread_id=thread_id)
    client.runs.wait(thread_id, "robot", input={})
    answer = client.threads.update_state(thread_id, {"decision": "no"}, as_node="approval")
    head = client.threads.get_state(thread_id)["checkpoint_id"]
    assert answer["checkpoint_id"] == head
    assert (
        answer["configurable"]
        == answer["checkpoint"]
        == {"thread_id": thread_id, "checkpoint_ns": "", "checkpoint_id": head}
    )


@pytest.mark.parametrize("form", ["config", "flat", "text", "query"])
def test_history_before_a_checkpoint_pages_in_every_form(
    client: Any, answered_robot: tuple[str, list[str]], form: str
) -> None:
    thread_id, ids = answered_robot
    before = {
        "config": {"configurable": {"checkpoint_id": ids[1]}},  # the JS SDK's form, and LangGraph's server's
        "flat": {"checkpoint_id": ids[1]},
        "text": ids[1],
        "query": ids[1],
    }[form]
    if form == "query":  # LangGraph's server also serves GET …/history?limit=&before=
        page = client.http.get(f"/threads/{thread_id}/history", params={"limit": 2, "before": ids[1]})
    else:
        page = client.threads.get_history(thread_id, limit=2, before=before)
    assert [entry["checkpoint_id"] for entry in page] == ids[2:4]


@pytest.mark.parametrize("before", [{"configurable": {}}, {"configurable": {"thread_id": "x"}}, {"thread_id": "x"}])
def test_a_before_that_names_no_checkpoint_is_refused(
    client: Any, answered_robot: tuple[str, list[str]], before: dict[str, Any]
) -> None:
    thread_id, _ids = answered_robot
    with pytest.raises(UnprocessableEntityError) as refusal:
        client.threads.get_history(thread_id, limit=2, before=before)
    assert refusal.value.response.json()["field"] == "before"
