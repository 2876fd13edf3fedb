"""Run and search options LangGraph's server honours, through the SDK against a real ``serve``: each one is
honoured as LangGraph's server honours it, or refused with a 422 naming it, never accepted and dropped.

Honoured: a run's ``metadata`` (in every checkpoint the run writes, so a history filter finds the run),
``config.recursion_limit`` (the graph's step limit: a run past it fails), ``runs.wait``'s ``stream_mode``
(checked as ``runs.stream`` and ``runs.create`` check it) and ``threads.search``'s ``select``. Refused:
``webhook`` (this server makes no outbound calls), ``after_seconds`` other than 0 and ``extract``.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.api.conftest import Server, refused

pytestmark = pytest.mark.slow


def _thread(client: Any, thread_id: str) -> str:
    return str(client.threads.create(thread_id=thread_id)["thread_id"])


def _field(client: Any, call: Any, *args: Any, **kwargs: Any) -> str:
    """The field a refusal names (422)."""
    answer = refused(call, *args, **kwargs)
    assert answer.status_code == 422, answer.text
    return str(answer.json().get("field"))


def _never_ran(client: Any, thread_id: str) -> None:
    """Nothing was run or saved: the thread has no state and no run."""
    assert client.threads.get_state(thread_id)["checkpoint"] is None
    assert client.runs.list(thread_id) == []


@pytest.mark.parametrize("kind", ["wait", "create", "stream"])
def test_a_webhook_is_refused_naming_it_and_nothing_runs(client: Any, kind: str) -> None:
    thread_id = _thread(client, f"options-webhook-{kind}")
    call = {"wait": client.runs.wait, "create": client.runs.create, "stream": client.runs.stream}[kind]

    def run() -> Any:
        answer = call(thread_id, "robot", input={}, webhook="http://127.0.0.1:9/done")
        return list(answer) if kind == "stream" else answer

    assert _field(client, run) == "webhook"
    _never_ran(client, thread_id)


def test_after_seconds_is_refused_naming_it_and_zero_runs_at_once(client: Any) -> None:
    thread_id = _thread(client, "options-after-seconds")
    assert _field(client, client.runs.create, thread_id, "robot", input={}, after_seconds=5) == "after_seconds"
    _never_ran(client, thread_id)
    answer = client.runs.wait(thread_id, "robot", input={}, after_seconds=0)
    assert answer["__interrupt__"]  # the robot asks: it ran


def test_a_recursion_limit_is_the_runs_step_limit(client: Any) -> None:
    thread_id = _thread(client, "options-recursion-limit")
    answer = client.runs.wait(thread_id, "robot", input={}, config={"recursion_limit": 1}, raise_error=False)
    assert answer["__error__"]["error"] == "GraphRecursionError", answer
    ample = _thread(client, "options-recursion-ample")
    assert client.runs.wait(ample, "robot", input={}, config={"recursion_limit": 100})["__interrupt__"]


@pytest.mark.parametrize("limit", [0, "5", 2.5, True])
def test_a_recursion_limit_that_is_not_a_step_count_is_refused(client: Any, limit: Any) -> None:
    thread_id = _thread(client, f"options-bad-limit-{type(limit).__name__}-{limit}")
    field = _field(client, client.runs.wait, thread_id, "robot", input={}, config={"recursion_limit": limit})
    assert field == "config.recursion_limit"
    _never_ran(client, thread_id)


def test_runs_wait_refuses_an_unknown_stream_mode_as_stream_and_create_do(server: Server, client: Any) -> None:
    thread_id = _thread(client, "options-stream-mode")
    body = {"assistant_id": "robot", "input": {}, "stream_mode": "bogus"}
    with server.client() as http:  # the Python SDK's runs.wait sends no stream_mode; the JS SDK's and others may
        for kind in ("runs/wait", "runs", "runs/stream"):
            answer = http.post(f"/threads/{thread_id}/{kind}", json=body)
            assert (answer.status_code, answer.json().get("field")) == (422, "stream_mode"), (kind, answer.text)
    _never_ran(client, thread_id)


def test_a_runs_metadata_is_in_its_checkpoints_so_the_history_filter_finds_it(client: Any) -> None:
    thread_id = _thread(client, "options-metadata")
    client.runs.wait(thread_id, "robot", input={}, metadata={"origin": "sdk-test", "lang": "ko"})
    found = client.threads.get_history(thread_id, metadata={"origin": "sdk-test"})
    assert found, "the run's metadata is in none of its checkpoints"
    for entry in found:
        assert entry["metadata"]["agent"] == "robot" and entry["metadata"]["lang"] == "ko"
    answered = client.runs.wait(thread_id, "robot", command={"resume": "yes"}, metadata={"origin": "answer"})
    assert "__error__" not in answered
    assert client.threads.get_history(thread_id, metadata={"origin": "answer"})
    assert client.threads.get_history(thread_id, metadata={"origin": "nobody"}) == []


@pytest.mark.parametrize("key", ["agent", "graph_id", "assistant_id", "run_id", "batch_id"])
def test_metadata_may_not_name_a_key_the_run_writes_itself(client: Any, key: str) -> None:
    thread_id = _thread(client, f"options-own-key-{key}")
    assert _field(client, client.runs.wait, thread_id, "robot", input={}, metadata={key: "x"}) == f"metadata.{key}"
    _never_ran(client, thread_id)


def test_search_select_keeps_the_selected_fields(client: Any) -> None:
    thread_id = _thread(client, "options-select")
    client.runs.wait(thread_id, "robot", input={})
    found = client.threads.search(ids=[thread_id], select=["thread_id", "status"])
    assert found == [{"thread_id": thread_id, "status": "interrupted"}]
    created = _thread(client, "options-select-created")  # one that never ran too
    assert client.threads.search(ids=[created], select=["thread_id", "values"]) == [
        {"thread_id": created, "values": None}
    ]
    assert _field(client, client.threads.search, ids=[thread_id], select=["thread_id", "bogus"]) == "select"


def test_search_extract_is_refused_naming_it(client: Any) -> None:
    assert _field(client, client.threads.search, extract={"last": "values.messages[-1]"}) == "extract"
