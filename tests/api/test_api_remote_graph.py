"""LangGraph's own remote client, ``RemoteGraph`` (``langgraph.pregel.remote``), unchanged, against
``python -m agents serve``: it reads a thread's state, its history, and answers its question, as it does on
``langgraph dev``.

``RemoteGraph.get_state`` asks ``POST /threads/{id}/state/checkpoint`` with ``{"checkpoint": {"thread_id":
...}}`` for the head (no checkpoint id), and every ``Command`` it sends carries ``goto: []`` (and
``graph``/``update``, ``null``, when a client does not drop them): these mean the head and "no goto". A real
``update`` or ``goto``, a parent ``graph``, and a checkpoint in a subgraph's namespace or of another thread
stay refused (422 naming the field), and a refund resumed through it meets the refund's rules and is paid once.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from langgraph.pregel.remote import RemoteGraph
from langgraph.types import Command
from langgraph_sdk import get_sync_client

from agents.refund import ledger
from agents.runtime import open_store
from tests.api.conftest import Server, refused


@pytest.fixture(scope="module")
def server(shared_server: Server) -> Server:
    """The worker's shared server (tests/api/conftest.py): this module's threads and cases have ids of its own."""
    return shared_server


@pytest.fixture
def sdk(server: Server) -> Iterator[Any]:
    with get_sync_client(url=server.url, api_key=None, headers=server.headers) as client:
        yield client


def remote(server: Server, sdk: Any, graph_id: str) -> RemoteGraph:
    """The graph as ``RemoteGraph`` drives it, over the SDK's synchronous client."""
    return RemoteGraph(graph_id, url=server.url, sync_client=sdk)


def new_thread() -> dict[str, Any]:
    """A config naming a thread nobody used (``RemoteGraph`` runs with ``if_not_exists="create"``)."""
    return {"configurable": {"thread_id": str(uuid.uuid4())}}


def refused_422(call: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
    answer = refused(call, *args, **kwargs)
    assert answer.status_code == 422, answer.text
    body: dict[str, Any] = answer.json()
    return body


def paid(server: Server, case_id: str) -> list[tuple[int, int, str]]:
    store = open_store(str(server.db))
    try:
        rows = [row for row in ledger.ledger_rows(store) if row["case_id"] == case_id]
    finally:
        store.close()
    return [(row["requested_amount"], row["paid_amount"], row["approver"]) for row in rows]


def test_robot_waits_shows_its_question_in_get_state_and_finishes_on_a_resume(server: Server, sdk: Any) -> None:
    robot, config = remote(server, sdk, "robot"), new_thread()
    waiting = robot.invoke({}, config)
    (asked,) = waiting["__interrupt__"]

    state = robot.get_state(config)
    assert state.next == ("approval",)
    (interrupt,) = state.interrupts
    assert interrupt.id == asked["id"] and interrupt.value["question"] == asked["value"]["question"]
    assert state.config["configurable"]["thread_id"] == config["configurable"]["thread_id"]

    done = robot.invoke(Command(resume="yes"), config)
    assert done["decision"] == "yes" and done["messages"][-1]["content"].startswith("Executed")
    after = robot.get_state(config)
    assert after.next == () and after.interrupts == () and after.values["decision"] == "yes"
    assert sdk.threads.get(config["configurable"]["thread_id"])["lifecycle"]["outcome"] == "executed"


def test_robot_resumed_by_a_stream_of_updates(server: Server, sdk: Any) -> None:
    robot, config = remote(server, sdk, "robot"), new_thread()
    started = list(robot.stream({}, config, stream_mode="updates"))
    assert [next(iter(update)) for update in started] == ["propose", "__interrupt__"]

    answered = list(robot.stream(Command(resume="no"), config, stream_mode=["values", "updates"]))
    assert {part.event for part in answered} == {"values", "updates"}
    assert answered[-1].data["decision"] == "no"
    assert robot.get_state(config).values["messages"][-1]["content"].startswith("Refused")


def test_history_is_newest_first_from_the_head_and_each_checkpoint_reads_back(server: Server, sdk: Any) -> None:
    robot, config = remote(server, sdk, "robot"), new_thread()
    robot.invoke({}, config)
    head = robot.get_state(config)

    history = list(robot.get_state_history(config))
    assert history[0].config == head.config and history[0].interrupts == head.interrupts
    assert [step.next for step in history] == [("approval",), ("propose",), ("__start__",)]
    assert history[0].parent_config == history[1].config
    first = robot.get_state(history[-1].config)  # the config of a checkpoint: the state there
    assert first.config == history[-1].config and first.next == ("__start__",)
    older = list(robot.get_state_history(config, before=history[0].config, limit=1))
    assert [step.config for step in older] == [history[1].config]


def test_refund_resumed_through_remote_graph_meets_its_rules_and_pays_once(server: Server, sdk: Any) -> None:
    refund, config = remote(server, sdk, "refund"), new_thread()
    case_id = f"RG{uuid.uuid4().hex[:8].upper()}"
    request = {"case_id": case_id, "customer": "kim", "requested_amount": 500_000, "reason": "damaged"}
    waiting = refund.invoke(request, config)
    assert waiting["__interrupt__"] and waiting["threshold"] < 500_000
    assert refund.get_state(config).next

    unnamed = refused_422(refund.invoke, Command(resume={"action": "approve"}), config)
    assert unnamed["field"] == "approver"
    too_much = {"action": "edit", "amount": 600_000, "approver": "kim"}
    assert refused_422(refund.invoke, Command(resume=too_much), config)["field"] == "amount"
    assert paid(server, case_id) == [] and refund.get_state(config).next

    done = refund.invoke(Command(resume={"action": "approve", "approver": "kim"}), config)
    assert done["outcome"] == "paid" and "__interrupt__" not in done
    again = refused(refund.invoke, Command(resume={"action": "approve", "approver": "lee"}), config)
    assert again.status_code == 409
    assert paid(server, case_id) == [(500_000, 500_000, "kim")]
    assert refund.get_state(config).values["approver"] == "kim"


def test_a_real_goto_update_or_parent_graph_is_still_refused_and_changes_nothing(server: Server, sdk: Any) -> None:
    robot, config = remote(server, sdk, "robot"), new_thread()
    robot.invoke({}, config)
    head = robot.get_state(config)

    for command in (Command(goto="execute"), Command(resume="yes", goto=["execute"]), Command(update={"x": 1})):
        body = refused_422(robot.invoke, command, config)
        assert body["field"] == "command" and "only command.resume is supported" in body["detail"], body
    parent = refused_422(robot.invoke, Command(graph=Command.PARENT, resume="yes"), config)
    assert parent["field"] == "command.graph" and "__parent__" in parent["detail"], parent

    assert robot.get_state(config).config == head.config
    assert robot.invoke(Command(resume="yes"), config)["decision"] == "yes"


def test_a_command_with_null_graph_and_update_and_an_empty_goto_is_a_plain_answer(server: Server) -> None:
    thread_id = str(uuid.uuid4())
    with httpx.Client(base_url=server.url, headers=server.headers, timeout=120) as http:
        start = {"assistant_id": "robot", "input": {}, "if_not_exists": "create"}
        assert http.post(f"/threads/{thread_id}/runs/wait", json=start).status_code == 200
        command = {"graph": None, "update": None, "resume": "yes", "goto": []}
        answer = http.post(f"/threads/{thread_id}/runs/wait", json={"assistant_id": "robot", "command": command})
        assert answer.status_code == 200, answer.text
        assert answer.json()["decision"] == "yes"


def test_a_state_checkpoint_in_a_subgraph_or_of_another_thread_is_refused_naming_the_field(
    server: Server, sdk: Any
) -> None:
    robot, config = remote(server, sdk, "robot"), new_thread()
    robot.invoke({}, config)
    thread_id = config["configurable"]["thread_id"]
    in_subgraph = {"thread_id": thread_id, "checkpoint_ns": "review"}
    body = refused_422(sdk.threads.get_state, thread_id, checkpoint=in_subgraph)
    assert body["field"] == "checkpoint.checkpoint_ns" and "'review'" in body["detail"], body
    body = refused_422(sdk.threads.get_state, thread_id, checkpoint={"thread_id": "someone-else"})
    assert body["field"] == "checkpoint.thread_id" and "'someone-else'" in body["detail"], body
    head = sdk.threads.get_state(thread_id, checkpoint={"thread_id": thread_id}, subgraphs=True)
    assert head["next"] == ["approval"]
