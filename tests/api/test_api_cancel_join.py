"""``runs.cancel`` and ``runs.join_stream`` through the official ``langgraph-sdk`` client.

The lecture planner's embedded model is given a latency (``HITL_MODEL_LATENCY``), so a run lasts
several model calls: long enough to cancel it after its first step, or to leave its stream and
rejoin it. Nothing sleeps: the tests act on the events the run sends and read the run's status.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from langgraph_sdk import get_sync_client
from langgraph_sdk.errors import NotFoundError, UnprocessableEntityError

from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from tests.api.conftest import Server, start_server, stop_server
from tests.serving import http_client

pytestmark = pytest.mark.slow

LECTURE_REQUEST = dict(DEFAULT_LECTURE_INPUT)
#: Seconds per embedded model call: a lecture run to its gate makes several.
LATENCY = "0.4"


@pytest.fixture(scope="module")
def slow_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Our server whose lecture model takes ``LATENCY`` seconds a call."""
    running = start_server(tmp_path_factory.mktemp("slow"), HITL_MODEL_LATENCY=LATENCY)
    yield running
    stop_server(running)


@pytest.fixture
def client(slow_server: Server) -> Iterator[Any]:
    with get_sync_client(url=slow_server.url, api_key=None) as sdk:
        yield sdk


def started_lecture(client: Any, modes: list[str]) -> tuple[str, str]:
    """A lecture run started in the background: ``(thread_id, run_id)``."""
    thread_id = client.threads.create()["thread_id"]
    run = client.runs.create(thread_id, "lecture", input={"request": LECTURE_REQUEST}, stream_mode=modes)
    return thread_id, run["run_id"]


def test_a_cancelled_run_stops_at_a_step_and_the_thread_goes_on_from_there(client: Any) -> None:
    thread_id, run_id = started_lecture(client, ["updates"])
    seen = []
    for part in client.runs.join_stream(thread_id, run_id, last_event_id="-1"):
        seen.append(part.event)
        if part.event == "updates" and seen.count("updates") == 1:
            assert client.runs.cancel(thread_id, run_id) is None  # 202: asked; the run stops at its next step
    assert seen[0] == "metadata" and "error" not in seen
    assert client.runs.get(thread_id, run_id)["status"] == "interrupted"

    state = client.threads.get_state(thread_id)
    assert state["next"] and not state["interrupts"]  # stopped between steps, not at the gate
    assert client.threads.get(thread_id)["status"] == "error"  # a stopped run needs attention
    saved = client.threads.get_history(thread_id, limit=100)  # the input, the start, then each step streamed
    assert len(saved) == seen.count("updates") + 2 and saved[0]["checkpoint_id"] == state["checkpoint_id"]

    gate = client.runs.wait(thread_id, "lecture")  # no input: the thread goes on from its head
    assert gate["__interrupt__"][0]["value"]["stage"] == "gate"
    assert client.threads.get(thread_id)["status"] == "interrupted"


@pytest.mark.parametrize(("on_disconnect", "status"), [("cancel", "interrupted"), ("continue", "success")])
def test_a_stream_left_by_its_client_cancels_its_run_only_when_asked(
    client: Any, on_disconnect: str, status: str
) -> None:
    thread_id = client.threads.create()["thread_id"]
    request = {"request": LECTURE_REQUEST}
    parts = client.runs.stream(thread_id, "lecture", input=request, stream_mode="updates", on_disconnect=on_disconnect)
    first = next(parts)
    parts.close()  # the page is closed: the connection goes
    run_id = first.data["run_id"]
    client.runs.join(thread_id, run_id)  # waits for the run to end
    assert client.runs.get(thread_id, run_id)["status"] == status
    assert bool(client.threads.get_state(thread_id)["interrupts"]) == (status == "success")  # at the gate or not


def test_cancel_wait_answers_once_the_run_stopped(client: Any) -> None:
    thread_id, run_id = started_lecture(client, ["values"])
    answer = client.runs.cancel(thread_id, run_id, wait=True)
    assert "__interrupt__" not in answer and answer["request"] == LECTURE_REQUEST
    assert client.runs.get(thread_id, run_id)["status"] == "interrupted"
    restarted = client.runs.wait(thread_id, "lecture")
    assert restarted["__interrupt__"][0]["value"]["stage"] == "gate"


def test_a_run_left_and_rejoined_sends_every_event_once(client: Any) -> None:
    whole_thread, whole_run = started_lecture(client, ["updates"])
    whole = [(p.event, p.id) for p in client.runs.join_stream(whole_thread, whole_run, last_event_id="-1")]

    thread_id, run_id = started_lecture(client, ["updates"])
    first: list[Any] = []
    for part in client.runs.join_stream(thread_id, run_id, last_event_id="-1"):
        first.append(part)
        if part.event == "updates":
            break  # the page is reloaded
    rest = list(client.runs.join_stream(thread_id, run_id, last_event_id=first[-1].id))
    events = [part.event for part in first + rest]
    assert events == [event for event, _ in whole]
    assert [int(part.id) for part in first + rest] == list(range(len(events)))
    assert client.runs.get(thread_id, run_id)["status"] == "success"
    assert list(client.runs.join_stream(thread_id, run_id)) == []  # ended: nothing new to follow


def test_cancel_and_join_refuse_what_they_cannot_do(client: Any, slow_server: Server) -> None:
    thread_id, run_id = started_lecture(client, ["values"])
    with pytest.raises(UnprocessableEntityError, match="action"):
        client.runs.cancel(thread_id, run_id, action="rollback")
    with pytest.raises(NotFoundError, match="run_id"):
        client.runs.cancel(thread_id, "no-such-run")
    with http_client(slow_server.url) as http:
        bad = http.get(f"/threads/{thread_id}/runs/{run_id}/stream", headers={"Last-Event-ID": "x"})
        mode = http.get(f"/threads/{thread_id}/runs/{run_id}/stream", params={"stream_mode": "nope"})
    assert (bad.status_code, bad.json()["field"]) == (422, "Last-Event-ID")
    assert (mode.status_code, mode.json()["field"]) == (422, "stream_mode")
    client.runs.join(thread_id, run_id)
    with pytest.raises(NotFoundError, match="already ended"):  # an ended run: 404, as on LangGraph's server
        client.runs.cancel(thread_id, run_id)
    assert client.runs.get(thread_id, run_id)["status"] == "success"
