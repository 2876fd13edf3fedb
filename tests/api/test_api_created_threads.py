"""``threads.create`` is bounded: the server remembers the latest ``CREATED_KEPT`` threads that have
not run, each for ``CREATED_TTL_SECONDS``; within that bound a created thread answers as on
LangGraph's server (get, search, count, state, history), and past it a never-run thread is unknown."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from langgraph_sdk import get_sync_client

from agents.api.app import create_app
from agents.api.context import CREATED_KEPT, CREATED_TTL_SECONDS, ApiContext, CreatedThreads
from agents.db import Store
from agents.settings import Settings
from tests.api.conftest import Server

EXTRA = 300


@pytest.fixture
def api(store: Store, settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(store, settings), base_url="http://127.0.0.1") as client:
        yield client


def _context(api: TestClient) -> ApiContext:
    context: ApiContext = api.app.state.context  # type: ignore[attr-defined]  # the app is FastAPI's
    return context


def _behaves_as_created(api: TestClient, thread_id: str, metadata: dict[str, Any]) -> None:
    """What LangGraph's server answers for a thread created and not run yet."""
    got = api.get(f"/threads/{thread_id}")
    assert got.status_code == 200 and got.json()["status"] == "idle" and got.json()["metadata"] == metadata
    listed = api.post("/threads/search", json={"ids": [thread_id]}).json()
    assert [t["thread_id"] for t in listed] == [thread_id]
    assert api.post("/threads/count", json={"ids": [thread_id]}).json() == 1
    state = api.get(f"/threads/{thread_id}/state").json()
    assert state["values"] == {} and state["next"] == [] and state["checkpoint"] is None
    assert api.post(f"/threads/{thread_id}/history", json={}).json() == []


@pytest.mark.slow  # 1,300 creates, about 10 seconds
def test_many_never_run_threads_keep_a_bounded_number_of_entries(api: TestClient) -> None:
    total = CREATED_KEPT + EXTRA
    for i in range(total):
        answer = api.post("/threads", json={"thread_id": f"never-{i}", "metadata": {"n": i}})
        assert answer.status_code == 200, answer.text
    assert len(_context(api).created) == CREATED_KEPT
    # The oldest are forgotten, as after a restart: unknown, and free to be created again.
    assert api.get("/threads/never-0").status_code == 404
    assert api.get(f"/threads/never-{EXTRA - 1}").status_code == 404
    assert api.post("/threads", json={"thread_id": "never-0"}).status_code == 200
    # The latest behave as on LangGraph's server.
    for i in (EXTRA + 1, total // 2, total - 1):
        _behaves_as_created(api, f"never-{i}", {"n": i})
    assert api.post("/threads", json={"thread_id": f"never-{total - 1}"}).status_code == 409
    assert len(_context(api).created) == CREATED_KEPT


def test_an_entry_is_forgotten_after_its_time(api: TestClient) -> None:
    now = [1000.0]
    _context(api).created = CreatedThreads(limit=CREATED_KEPT, ttl=CREATED_TTL_SECONDS, clock=lambda: now[0])
    api.post("/threads", json={"thread_id": "early", "metadata": {"k": "early"}}).raise_for_status()
    now[0] += CREATED_TTL_SECONDS / 2
    api.post("/threads", json={"thread_id": "later", "metadata": {"k": "later"}}).raise_for_status()
    _behaves_as_created(api, "early", {"k": "early"})
    now[0] += CREATED_TTL_SECONDS / 2  # "early" is a day old now
    assert api.get("/threads/early").status_code == 404
    assert api.post("/threads/search", json={"ids": ["early", "later"]}).json()[0]["thread_id"] == "later"
    assert api.post("/threads/count", json={"ids": ["early", "later"]}).json() == 1
    run = api.post("/threads/early/runs/wait", json={"assistant_id": "robot", "input": {}})
    assert run.status_code == 404  # a forgotten thread must be created again before it runs
    _behaves_as_created(api, "later", {"k": "later"})
    assert len(_context(api).created) == 1


def test_a_thread_that_ran_is_saved_whatever_the_bound(api: TestClient) -> None:
    _context(api).created = CreatedThreads(limit=2)
    api.post("/threads", json={"thread_id": "ran", "metadata": {"k": 1}}).raise_for_status()
    api.post("/threads/ran/runs/wait", json={"assistant_id": "robot", "input": {}}).raise_for_status()
    assert api.get("/threads/ran").json()["metadata"]["k"] == 1  # still remembered: its metadata shows
    for name in ("a", "b"):  # push it out of memory
        api.post("/threads", json={"thread_id": name}).raise_for_status()
    assert len(_context(api).created) == 2
    found = api.get("/threads/ran").json()
    assert found["status"] == "interrupted" and found["metadata"]["graph_id"] == "robot"
    assert "k" not in found["metadata"]  # what only memory held is gone; the saved thread is not


def test_deleting_a_created_thread_forgets_it(api: TestClient) -> None:
    api.post("/threads", json={"thread_id": "gone"}).raise_for_status()
    assert api.delete("/threads/gone").status_code == 204
    assert api.get("/threads/gone").status_code == 404 and len(_context(api).created) == 0


def test_the_sdk_sees_a_created_thread_on_the_real_server(server: Server) -> None:
    client = get_sync_client(url=server.url, api_key=None)
    client.threads.create(thread_id="sdk-created", metadata={"owner": "kim"})
    assert client.threads.get("sdk-created")["metadata"] == {"owner": "kim"}
    assert [t["thread_id"] for t in client.threads.search(metadata={"owner": "kim"})] == ["sdk-created"]
    assert client.threads.get_state("sdk-created")["values"] == {}
    assert client.threads.get_history("sdk-created") == []
