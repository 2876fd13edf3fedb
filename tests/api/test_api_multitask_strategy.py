"""A run's ``multitask_strategy`` through the official ``langgraph-sdk`` client.

LangGraph's server takes ``reject``, ``interrupt``, ``rollback`` and ``enqueue`` (its default) and refuses
any other value with a 422. This server takes the same four: on an idle thread each runs at once and the
run record shows it; on a busy thread every one is refused with a 409 that says this server does not queue,
interrupt or roll back a running run, names the strategy asked and says what to do. The thread is made busy
by this test process holding its lease, as a run of another session or process does: no timing involved.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from agents.leases import thread_lease
from agents.runtime import open_store
from tests.api.conftest import Server, refused

STRATEGIES = ("reject", "interrupt", "rollback", "enqueue")


@pytest.fixture(scope="module")
def server(shared_server: Server) -> Server:
    """The worker's shared server: these tests make robot threads of their own ids and read only those."""
    return shared_server


def waiting_robot(client: Any) -> str:
    """A robot thread waiting at its question."""
    thread_id = f"multitask-{uuid.uuid4().hex[:8]}"
    client.threads.create(thread_id=thread_id)
    assert client.runs.wait(thread_id, "robot", input={})["__interrupt__"]
    return thread_id


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_each_strategy_runs_at_once_on_an_idle_thread_and_the_run_shows_it(client: Any, strategy: str) -> None:
    thread_id = waiting_robot(client)
    run = client.runs.create(thread_id, "robot", command={"resume": "yes"}, multitask_strategy=strategy)
    assert run["multitask_strategy"] == strategy
    assert client.runs.join(thread_id, run["run_id"])["decision"] == "yes"
    assert client.runs.get(thread_id, run["run_id"])["multitask_strategy"] == strategy
    assert [r["multitask_strategy"] for r in client.runs.list(thread_id)] == [strategy, "reject"]  # and the wait's


def test_a_run_without_a_strategy_shows_this_servers_reject(client: Any) -> None:
    thread_id = waiting_robot(client)
    run = client.runs.create(thread_id, "robot", command={"resume": "yes"})
    assert run["multitask_strategy"] == "reject"


def test_an_unknown_strategy_is_refused_naming_it_and_runs_nothing(client: Any, server: Server) -> None:
    thread_id = waiting_robot(client)
    head, runs = client.threads.get_state(thread_id)["checkpoint_id"], client.runs.list(thread_id)
    body = {"assistant_id": "robot", "command": {"resume": "yes"}, "multitask_strategy": "bogus"}
    with server.client() as http:
        answers = [http.post(f"/threads/{thread_id}/runs{path}", json=body) for path in ("", "/wait", "/stream")]
    for answer in answers:
        assert answer.status_code == 422, answer.text
        assert answer.json()["field"] == "multitask_strategy"
        assert "'bogus'" in answer.json()["detail"] and "'enqueue'" in answer.json()["detail"]
    assert client.threads.get_state(thread_id)["checkpoint_id"] == head
    assert client.runs.list(thread_id) == runs


def test_a_run_on_a_busy_thread_is_refused_saying_this_server_does_not_queue_it(client: Any, server: Server) -> None:
    thread_id = waiting_robot(client)
    head, runs = client.threads.get_state(thread_id)["checkpoint_id"], client.runs.list(thread_id)
    store = open_store(server.db)
    try:
        with thread_lease(store, thread_id):  # held here, as a run of another process holds it
            assert client.threads.get(thread_id)["status"] == "busy"
            for strategy in (*STRATEGIES, None):
                answer = refused(
                    client.runs.create, thread_id, "robot", command={"resume": "yes"}, multitask_strategy=strategy
                )
                detail = answer.json()["detail"]
                assert answer.status_code == 409, answer.text
                assert "does not queue, interrupt or roll back a running run" in detail
                assert "runs.join" in detail and "send this again" in detail
                if strategy is None:
                    assert "no multitask_strategy was given" in detail and "'enqueue'" in detail
                else:
                    assert f"multitask_strategy '{strategy}' was asked" in detail
            bogus = refused(client.runs.create, thread_id, "robot", multitask_strategy="bogus")
            assert (bogus.status_code, bogus.json()["field"]) == (422, "multitask_strategy")  # checked first
    finally:
        store.close()
    assert client.threads.get_state(thread_id)["checkpoint_id"] == head  # nothing was done
    assert client.runs.list(thread_id) == runs

    again = client.runs.create(thread_id, "robot", command={"resume": "yes"}, multitask_strategy="enqueue")
    assert client.runs.join(thread_id, again["run_id"])["decision"] == "yes"  # sent again once it is free
