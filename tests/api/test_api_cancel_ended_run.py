"""``runs.cancel`` of a run that has ended, through the official ``langgraph-sdk`` client.

LangGraph's server answers it 404 ("No matching runs to cancel", ``Runs.cancel`` of
langgraph_runtime_inmem when no run asked is pending or running), with or without ``wait``; so does
this one, and the run and its thread stay as they are.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from tests.api.conftest import Server, refused


@pytest.fixture(scope="module")
def server(shared_server: Server) -> Server:
    """The worker's shared server: these tests make robot threads of their own ids and read only those."""
    return shared_server


def new_robot_thread(client: Any) -> str:
    thread_id = f"cancel-ended-{uuid.uuid4().hex[:8]}"
    client.threads.create(thread_id=thread_id)
    return thread_id


@pytest.mark.parametrize("wait", [False, True])
def test_cancelling_a_finished_background_run_is_a_404_and_changes_nothing(client: Any, wait: bool) -> None:
    thread_id = new_robot_thread(client)
    run = client.runs.create(thread_id, "robot", input={})
    client.runs.join(thread_id, run["run_id"])
    head = client.threads.get_state(thread_id)["checkpoint_id"]
    answer = refused(client.runs.cancel, thread_id, run["run_id"], wait=wait)
    assert answer.status_code == 404 and "has already ended" in answer.json()["detail"], answer.text
    assert client.runs.get(thread_id, run["run_id"])["status"] == "success"
    assert client.threads.get_state(thread_id)["checkpoint_id"] == head
    assert client.threads.get(thread_id)["status"] == "interrupted"  # still waiting at its question


def test_cancelling_a_finished_wait_run_is_a_404_naming_the_run(client: Any, server: Server) -> None:
    thread_id = new_robot_thread(client)
    client.runs.wait(thread_id, "robot", input={})
    (run,) = client.runs.list(thread_id)
    with server.client() as http:
        answer = http.post(f"/threads/{thread_id}/runs/{run['run_id']}/cancel")
    assert answer.status_code == 404, answer.text
    assert answer.json()["field"] == "run_id" and "(success)" in answer.json()["detail"]
    assert client.runs.get(thread_id, run["run_id"])["status"] == "success"
