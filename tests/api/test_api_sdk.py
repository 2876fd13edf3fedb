"""The official ``langgraph-sdk`` client, unchanged, against ``python -m agents serve`` on a save file."""

from __future__ import annotations

from typing import Any

import pytest
from langgraph_sdk.errors import NotFoundError, UnprocessableEntityError

from agents import lifecycle, runs
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from agents.refund.ledger import ledger_rows
from agents.runtime import load_settings, open_store
from tests.api.conftest import Server, refused

LECTURE_INPUT = dict(DEFAULT_LECTURE_INPUT)


def test_assistants_are_the_registered_agents(client: Any) -> None:
    found = client.assistants.search()
    assert [a["assistant_id"] for a in found] == ["robot", "refund", "lecture"]
    assert all(a["graph_id"] == a["assistant_id"] for a in found)
    assert client.assistants.get("refund")["graph_id"] == "refund"
    assert [a["assistant_id"] for a in client.assistants.search(graph_id="lecture")] == ["lecture"]
    with pytest.raises(NotFoundError):
        client.assistants.get("nobody")


def test_robot_flow_interrupt_then_exact_yes_executes(client: Any) -> None:
    thread = client.threads.create(thread_id="sdk-robot")
    assert thread["status"] == "idle"
    waiting = client.runs.wait("sdk-robot", "robot", input={})
    assert waiting["__interrupt__"][0]["value"]["question"]
    state = client.threads.get_state("sdk-robot")
    assert state["next"] == ["approval"]
    (interrupt,) = state["interrupts"]
    assert interrupt["id"] and interrupt["id"] == waiting["__interrupt__"][0]["id"]
    assert state["tasks"][0]["interrupts"][0]["id"] == interrupt["id"]
    assert client.threads.get("sdk-robot")["status"] == "interrupted"

    done = client.runs.wait("sdk-robot", "robot", command={"resume": "yes"})
    assert "__interrupt__" not in done
    assert done["decision"] == "yes"
    assert done["messages"][-1]["content"].startswith("Executed")
    assert client.threads.get("sdk-robot")["status"] == "idle"
    assert client.threads.get("sdk-robot")["lifecycle"]["outcome"] == "executed"


def test_robot_capital_yes_refuses(client: Any) -> None:
    client.threads.create(thread_id="sdk-robot-capital")
    waiting = client.runs.wait("sdk-robot-capital", "robot", input={})
    # LangGraph's own form of an answer: {interrupt id: value}
    answer = {waiting["__interrupt__"][0]["id"]: "Yes"}
    done = client.runs.wait("sdk-robot-capital", "robot", command={"resume": answer})
    assert done["messages"][-1]["content"].startswith("Refused")
    assert client.threads.get("sdk-robot-capital")["lifecycle"]["outcome"] == "refused"


def test_resume_of_a_finished_thread_is_a_conflict(client: Any) -> None:
    client.threads.create(thread_id="sdk-robot-twice")
    client.runs.wait("sdk-robot-twice", "robot", input={})
    client.runs.wait("sdk-robot-twice", "robot", command={"resume": "no"})
    answer = refused(client.runs.wait, "sdk-robot-twice", "robot", command={"resume": "yes"})
    assert answer.status_code == 409 and answer.json()["field"] == "thread_id"
    assert client.threads.get_state("sdk-robot-twice")["values"]["decision"] == "no"


def test_refund_edited_and_approved_by_a_named_approver_pays_once(client: Any, server: Server) -> None:
    case = {"case_id": "SDK1", "customer": "홍길동", "amount": 500_000, "reason": "파손된 상품"}
    client.threads.create(thread_id="refund-SDK1")
    waiting = client.runs.wait("refund-SDK1", "refund", input=case)
    assert waiting["__interrupt__"]
    unnamed = refused(client.runs.wait, "refund-SDK1", "refund", command={"resume": {"action": "edit", "amount": 1}})
    assert unnamed.status_code == 422 and unnamed.json()["field"] == "approver"
    above = {"action": "edit", "amount": 600_000, "approver": "kim"}
    too_much = refused(client.runs.wait, "refund-SDK1", "refund", command={"resume": above})
    assert too_much.status_code == 422 and too_much.json()["field"] == "amount"
    with pytest.raises(UnprocessableEntityError):
        client.threads.update_state("refund-SDK1", {"decision": "approve", "approver": "kim"}, as_node="settle")
    done = client.runs.wait(
        "refund-SDK1", "refund", command={"resume": {"action": "edit", "amount": 50_000, "approver": "kim"}}
    )
    assert "__interrupt__" not in done
    store = open_store(server.db)
    try:
        rows = [row for row in ledger_rows(store) if row["case_id"] == "SDK1"]
    finally:
        store.close()
    paid = [(row["requested_amount"], row["paid_amount"], row["approver"]) for row in rows]
    assert paid == [(500_000, 50_000, "kim")]
    approve = {"action": "approve", "approver": "lee"}
    again = refused(client.runs.wait, "refund-SDK1", "refund", command={"resume": approve})
    assert again.status_code == 409


def test_lecture_gate_rework_then_save_streamed(client: Any) -> None:
    client.threads.create(thread_id="sdk-lecture")
    parts = list(client.runs.stream("sdk-lecture", "lecture", input=LECTURE_INPUT, stream_mode=["values", "updates"]))
    assert parts[0].event == "metadata" and parts[0].data["run_id"]
    updates = [p.data for p in parts if p.event == "updates"]
    assert {"research", "review_content", "review_time_allocation", "review_difficulty"} <= {
        node for update in updates for node in update
    }
    gate = next(u["__interrupt__"][0]["value"] for u in updates if "__interrupt__" in u)
    assert gate["score"] < gate["threshold"] and gate["stage"] == "gate"
    assert client.threads.get("sdk-lecture")["status"] == "interrupted"

    rework = list(
        client.runs.stream("sdk-lecture", "lecture", command={"resume": {"action": "rework"}}, stream_mode="values")
    )
    assert {p.event for p in rework} == {"metadata", "values"}
    last = rework[-1].data
    # The embedded model's rework fixes the flagged items, so the second draft passes the gate and is saved.
    assert "__interrupt__" not in last
    assert last["outcome"] == "saved" and last["final_plan"] and last["round"] == 2
    assert client.threads.get("sdk-lecture")["status"] == "idle"


def test_lecture_gate_then_save_as_is_streamed(client: Any) -> None:
    client.threads.create(thread_id="sdk-lecture-save")
    first = list(client.runs.stream("sdk-lecture-save", "lecture", input=LECTURE_INPUT, stream_mode="updates"))
    assert any("__interrupt__" in p.data for p in first if p.event == "updates")
    saved = list(client.runs.stream("sdk-lecture-save", "lecture", command={"resume": "save"}, stream_mode="updates"))
    nodes = [node for p in saved if p.event == "updates" for node in p.data]
    assert nodes[-1] == "save"
    state = client.threads.get_state("sdk-lecture-save")
    assert state["values"]["outcome"] == "saved_as_is" and state["next"] == []


def test_a_thread_created_without_an_id_gets_one(client: Any) -> None:
    thread = client.threads.create(metadata={"owner": "kim"})
    assert client.threads.get(thread["thread_id"])["metadata"] == {"owner": "kim"}
    assert client.threads.get_state(thread["thread_id"])["values"] == {}
    client.runs.wait(thread["thread_id"], "robot", input={})
    found = client.threads.get(thread["thread_id"])
    assert found["status"] == "interrupted" and found["metadata"]["owner"] == "kim"
    assert [t["thread_id"] for t in client.threads.search(metadata={"owner": "kim"})] == [thread["thread_id"]]


def test_search_interrupted_is_the_inbox_waiting(client: Any, server: Server) -> None:
    for name in ("sdk-inbox-1", "sdk-inbox-2"):
        client.threads.create(thread_id=name)
        client.runs.wait(name, "robot", input={})
    client.threads.create(thread_id="sdk-inbox-done")
    client.runs.wait("sdk-inbox-done", "robot", input={})
    client.runs.wait("sdk-inbox-done", "robot", command={"resume": "yes"})
    found = client.threads.search(status="interrupted", limit=1000)
    store = open_store(server.db)
    try:
        waiting = {t.thread_id for t in lifecycle.inbox(store) if t.status == "waiting"}
    finally:
        store.close()
    assert {t["thread_id"] for t in found} == waiting
    assert {"sdk-inbox-1", "sdk-inbox-2"} <= waiting and "sdk-inbox-done" not in waiting
    page = client.threads.search(status="interrupted", limit=1, offset=1)
    assert len(page) == 1 and page[0]["thread_id"] in waiting
    by_agent = client.threads.search(metadata={"graph_id": "robot"}, status="idle", limit=1000)
    assert "sdk-inbox-done" in {t["thread_id"] for t in by_agent}


def test_update_state_at_a_checkpoint_forks_and_history_shows_it(client: Any) -> None:
    client.threads.create(thread_id="sdk-fork")
    client.runs.wait("sdk-fork", "robot", input={})
    waiting_head = client.threads.get_state("sdk-fork")["checkpoint"]["checkpoint_id"]
    client.runs.wait("sdk-fork", "robot", command={"resume": "yes"})
    at = client.threads.get_state("sdk-fork", checkpoint_id=waiting_head)
    assert at["next"] == ["approval"]
    assert client.threads.get_state("sdk-fork", checkpoint={"checkpoint_id": waiting_head}) == at
    written = client.threads.update_state(
        "sdk-fork", {"decision": "no"}, as_node="approval", checkpoint={"checkpoint_id": waiting_head}
    )
    fork_id = written["checkpoint"]["checkpoint_id"]
    history = client.threads.get_history("sdk-fork", limit=20)
    assert history[0]["checkpoint"]["checkpoint_id"] == fork_id
    children = [h for h in history if (h["parent_checkpoint"] or {}).get("checkpoint_id") == waiting_head]
    assert len(children) == 2  # the answered run, and the fork beside it
    assert history[0]["metadata"]["source"] == "update"
    older = client.threads.get_history("sdk-fork", limit=2, before=fork_id)
    assert [h["checkpoint"]["checkpoint_id"] for h in older] == [h["checkpoint"]["checkpoint_id"] for h in history[1:3]]


def test_create_join_and_delete(client: Any) -> None:
    client.threads.create(thread_id="sdk-join")
    run = client.runs.create("sdk-join", "robot", input={})
    assert run["run_id"] and run["thread_id"] == "sdk-join"
    joined = client.runs.join("sdk-join", run["run_id"])
    assert joined["__interrupt__"]
    assert client.runs.get("sdk-join", run["run_id"])["status"] == "success"
    client.threads.delete("sdk-join")
    with pytest.raises(NotFoundError):
        client.threads.get("sdk-join")
    with pytest.raises(NotFoundError):
        client.threads.delete("sdk-join")


def test_same_rules_as_runs_directly(client: Any, server: Server) -> None:
    """A thread changed through ``runs`` in another process is what the API reads, and back."""
    settings = load_settings(db_override=str(server.db), secrets={})
    store = open_store(server.db)
    try:
        runs.start_run(store, settings, "robot", {}, thread_id="sdk-shared")
        assert client.threads.get("sdk-shared")["status"] == "interrupted"
        client.runs.wait("sdk-shared", "robot", command={"resume": "yes"})
        assert runs.current_result(store, settings, "sdk-shared").outcome == "executed"
    finally:
        store.close()


def test_a_run_started_with_metadata_lang_ko_speaks_korean_to_the_end(client: Any) -> None:
    client.threads.create(thread_id="sdk-ko")
    waiting = client.runs.wait("sdk-ko", "robot", input={}, metadata={"lang": "ko"})
    assert waiting["__interrupt__"][0]["value"]["question"] == "이 작업을 실행할까요? (yes/no)"
    done = client.runs.wait("sdk-ko", "robot", command={"resume": "yes"})  # no language: the thread's own
    assert done["messages"][-1]["content"] == "실행됨: 출장 신청서 제출: 부산 2일, 예산 800,000원"
