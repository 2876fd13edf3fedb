"""``runs.list`` through the official ``langgraph-sdk`` client, as LangGraph's server answers it.

LangGraph's server (``list_runs`` of langgraph_api, ``Runs.search``) lists a thread's runs newest first,
``limit`` (10) from ``offset`` (0), those in ``status`` only, each with the ``select`` fields only; an
unknown thread is a 404. A bad value is a 422 naming the parameter, as everywhere in this API.
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


def robot_thread_with_runs(client: Any, count: int) -> tuple[str, list[str]]:
    """A robot thread on which ``count`` runs ran one after the other, each a success: a start, then the answer
    to its question, then a start again (a finished robot starts over)...: ``(thread_id, run ids oldest first)``."""
    thread_id = f"runs-list-{uuid.uuid4().hex[:8]}"
    client.threads.create(thread_id=thread_id)
    run_ids = []
    for index in range(count):
        step: dict[str, Any] = {"command": {"resume": "no"}} if index % 2 else {"input": {}}
        run = client.runs.create(thread_id, "robot", **step)
        client.runs.join(thread_id, run["run_id"])
        run_ids.append(run["run_id"])
    return thread_id, run_ids


def ids(runs: list[dict[str, Any]]) -> list[str]:
    return [run["run_id"] for run in runs]


def test_limit_and_offset_page_the_runs_newest_first(client: Any) -> None:
    thread_id, run_ids = robot_thread_with_runs(client, 3)
    newest_first = run_ids[::-1]
    assert ids(client.runs.list(thread_id)) == newest_first
    assert ids(client.runs.list(thread_id, limit=2)) == newest_first[:2]
    assert ids(client.runs.list(thread_id, limit=2, offset=1)) == newest_first[1:]
    assert ids(client.runs.list(thread_id, offset=3)) == []


def test_ten_runs_are_listed_unless_a_limit_says_otherwise(client: Any) -> None:
    thread_id, run_ids = robot_thread_with_runs(client, 11)
    assert ids(client.runs.list(thread_id)) == run_ids[::-1][:10]
    assert ids(client.runs.list(thread_id, limit=11)) == run_ids[::-1]


def test_status_keeps_the_runs_in_that_status(client: Any) -> None:
    thread_id, run_ids = robot_thread_with_runs(client, 2)
    assert ids(client.runs.list(thread_id, status="success")) == run_ids[::-1]
    assert client.runs.list(thread_id, status="error") == []
    assert client.runs.list(thread_id, status="pending") == []


def test_select_keeps_only_the_fields_named(client: Any) -> None:
    thread_id, run_ids = robot_thread_with_runs(client, 2)
    selected = client.runs.list(thread_id, select=["run_id", "status"])
    assert selected == [{"run_id": run_id, "status": "success"} for run_id in run_ids[::-1]]
    (whole,) = client.runs.list(thread_id, limit=1)
    assert {"thread_id", "assistant_id", "created_at", "metadata", "multitask_strategy"} <= set(whole)


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"limit": 0}, "limit"),
        ({"offset": -1}, "offset"),
        ({"status": "done"}, "status"),
        ({"select": ["run_id", "owner"]}, "select"),
        ({"params": {"limit": "many"}}, "limit"),
    ],
)
def test_a_bad_value_is_a_422_naming_the_parameter(client: Any, options: dict[str, Any], field: str) -> None:
    thread_id, _ = robot_thread_with_runs(client, 1)
    answer = refused(client.runs.list, thread_id, **options)
    assert answer.status_code == 422 and answer.json()["field"] == field, answer.text


def test_an_unknown_thread_is_a_404_and_a_created_one_has_no_runs(client: Any) -> None:
    answer = refused(client.runs.list, f"runs-list-nobody-{uuid.uuid4().hex[:8]}")
    assert answer.status_code == 404 and answer.json()["field"] == "thread_id", answer.text
    created = client.threads.create()["thread_id"]
    assert client.runs.list(created) == []
