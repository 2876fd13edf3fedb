"""A run that names a checkpoint, through the official SDK against the real server.

useStream (``@langchain/langgraph-sdk``, which Agent Chat UI runs on) names the head of the history it
loaded as the checkpoint of every submit: a new message (``input``) and an interrupt's answer (``input:
{}`` with ``command.resume``) alike. Naming the thread's head is the run without it, through the same
checks; an answer naming an older checkpoint is stale (409), a start naming one is refused saying how a
re-run or a fork goes on from there (409), and a checkpoint the thread does not have is a 422. Nothing is
written by any refusal.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from agents.refund import ledger
from agents.runtime import open_store
from tests.api.conftest import Server, refused

ROBOT_START = {"messages": [{"role": "human", "content": "Start the task"}]}


@pytest.fixture(scope="module")
def server(shared_server: Server) -> Server:
    """The worker's shared server (tests/api/conftest.py): this module's threads and cases have ids of its own."""
    return shared_server


def head_of(client: Any, thread_id: str) -> str:
    return str(client.threads.get_state(thread_id)["checkpoint_id"])


def at(checkpoint_id: str) -> dict[str, str]:
    """A checkpoint as useStream sends it (its ``thread_id`` left out)."""
    return {"checkpoint_ns": "", "checkpoint_id": checkpoint_id}


def paid_cases(server: Server, case: str) -> list[tuple[int, str]]:
    store = open_store(str(server.db))
    try:
        return [(r["paid_amount"], r["approver"]) for r in ledger.ledger_rows(store) if r["case_id"] == case]
    finally:
        store.close()


def robot_thread(client: Any) -> str:
    thread_id = str(client.threads.create()["thread_id"])
    assert "__interrupt__" in client.runs.wait(thread_id, "robot", input=ROBOT_START)
    return thread_id


def test_an_answer_and_a_new_message_naming_the_head_run_as_without_it(client: Any) -> None:
    thread_id = robot_thread(client)
    done = client.runs.wait(
        thread_id, "robot", input={}, command={"resume": "yes"}, checkpoint=at(head_of(client, thread_id))
    )
    assert done["decision"] == "yes" and "__interrupt__" not in done
    assert client.threads.get(thread_id)["status"] == "idle"
    again = client.runs.wait(thread_id, "robot", input=ROBOT_START, checkpoint_id=head_of(client, thread_id))
    assert "__interrupt__" in again and client.threads.get(thread_id)["status"] == "interrupted"


def test_a_start_naming_an_older_checkpoint_or_none_of_the_thread_is_refused_and_writes_nothing(client: Any) -> None:
    thread_id = robot_thread(client)
    head = head_of(client, thread_id)
    older = client.threads.get_history(thread_id, limit=10)[-1]["checkpoint_id"]
    answer = refused(client.runs.wait, thread_id, "robot", input=ROBOT_START, checkpoint=at(older))
    assert answer.status_code == 409 and answer.json()["field"] == "checkpoint_id", answer.text
    detail = answer.json()["detail"]
    assert older in detail and head in detail and "re-run" in detail and "update_state" in detail
    unknown = refused(client.runs.create, thread_id, "robot", input=ROBOT_START, checkpoint_id=str(uuid.uuid4()))
    assert unknown.status_code == 422 and "no checkpoint" in unknown.json()["detail"], unknown.text
    other = refused(
        client.runs.wait, thread_id, "robot", input=ROBOT_START, checkpoint_id=head, headers={"If-Match": older}
    )
    assert other.status_code == 422 and other.json()["field"] == "checkpoint_id", other.text
    assert head_of(client, thread_id) == head


def test_an_answer_naming_the_head_meets_every_rule_and_one_naming_an_older_checkpoint_is_stale(
    client: Any, server: Server
) -> None:
    case = f"CK-{uuid.uuid4().hex[:6]}"
    thread_id = f"refund-{case}"
    client.threads.create(thread_id=thread_id)
    values = {"case_id": case, "customer": "홍길동", "amount": 500_000, "reason": "파손"}
    assert "__interrupt__" in client.runs.wait(thread_id, "refund", input=values)
    head = head_of(client, thread_id)
    older = client.threads.get_history(thread_id, limit=10)[-1]["checkpoint_id"]
    approve = {"decisions": [{"type": "approve"}], "approver": "kim"}
    stale = refused(client.runs.wait, thread_id, "refund", input={}, command={"resume": approve}, checkpoint=at(older))
    assert stale.status_code == 409 and stale.json()["field"] == "thread_id", stale.text
    assert older.rsplit("-", 1)[-1][:8] in stale.text and head.rsplit("-", 1)[-1][:8] in stale.text
    # the head's checkpoint takes no rule away: the approver, the amount range
    unnamed = refused(
        client.runs.wait,
        thread_id,
        "refund",
        command={"resume": {"decisions": [{"type": "approve"}]}},
        checkpoint=at(head),
    )
    assert unnamed.status_code == 422 and unnamed.json()["field"] == "approver", unnamed.text
    edit = {"action": "edit", "amount": 500_001, "approver": "kim"}
    over = refused(client.runs.wait, thread_id, "refund", command={"resume": edit}, checkpoint=at(head))
    assert over.status_code == 422 and over.json()["field"] == "amount", over.text
    assert head_of(client, thread_id) == head and paid_cases(server, case) == []
    paid = client.runs.wait(thread_id, "refund", input={}, command={"resume": approve}, checkpoint=at(head))
    assert paid["outcome"] == "paid" and paid_cases(server, case) == [(500_000, "kim")]
    again = refused(
        client.runs.wait, thread_id, "refund", command={"resume": approve}, checkpoint=at(head_of(client, thread_id))
    )
    assert again.status_code == 409 and paid_cases(server, case) == [(500_000, "kim")]
