"""Refusals as a client of the real server reads them: each says what is wrong in the words of what was sent.

A lecture reject through Agent Inbox's ``response`` (or LangChain's ``reject`` with a message) takes the
planner's own reason limit, not the refund note's; a message that is not text is told so; a missing token
and a wrong one get different 401s (the token sent never repeated); an empty case id is named as a case
id; a batch item naming a thread that asks several questions is told the batch's own item form.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from langgraph_sdk import get_sync_client

from agents.lecture.inputs import DEFAULT_LECTURE_INPUT, HUMAN_NOTES_MAX_LENGTH
from tests.api.conftest import Server, refused, start_server, stop_server

LECTURE_INPUT = dict(DEFAULT_LECTURE_INPUT)
#: Longer than the refund note's 300 characters, within the planner's 1,000.
REASON = "주제가 과정 목표와 맞지 않습니다. " * 30
TOKEN = "words-token-7f3e91"
WRONG = "not-the-token-c41d"


@pytest.fixture(scope="module")
def server(shared_server: Server) -> Server:
    """The worker's shared server (tests/api/conftest.py): this module's threads and cases have ids of its own."""
    return shared_server


def waiting_gate(client: Any, thread: str) -> None:
    client.threads.create(thread_id=thread)
    first = client.runs.wait(thread, "lecture", input=LECTURE_INPUT)
    assert first["__interrupt__"][0]["value"]["stage"] == "gate"


@pytest.mark.parametrize(
    "answer",
    [
        [{"type": "response", "args": REASON}],  # Agent Inbox's
        {"decisions": [{"type": "reject", "message": REASON}]},  # LangChain's
    ],
    ids=["agent-inbox", "langchain"],
)
def test_a_lecture_reject_message_takes_the_planners_own_reason_limit(client: Any, answer: Any) -> None:
    assert 300 < len(REASON.strip()) <= HUMAN_NOTES_MAX_LENGTH
    thread = f"words-lecture-{'inbox' if isinstance(answer, list) else 'langchain'}"
    waiting_gate(client, thread)
    done = client.runs.wait(thread, "lecture", command={"resume": answer})
    assert done["outcome"] == "rejected" and done["reject_reason"] == REASON.strip()
    assert client.threads.get_state(thread)["values"]["reject_reason"] == REASON.strip()


def test_a_lecture_reject_message_over_the_limit_or_not_text_is_told_which(client: Any) -> None:
    waiting_gate(client, "words-lecture-refused")
    asked = client.threads.get_state("words-lecture-refused")["interrupts"][0]["response_schema"]
    reject = next(
        branch
        for option in asked["anyOf"]
        if option.get("title") == "HITLResponse"
        for branch in option["properties"]["decisions"]["items"]["oneOf"]
        if branch["properties"]["type"] == {"const": "reject"}
    )
    assert reject["properties"]["message"]["maxLength"] == HUMAN_NOTES_MAX_LENGTH
    too_long = [{"type": "response", "args": "x" * (HUMAN_NOTES_MAX_LENGTH + 1)}]
    answer = refused(client.runs.wait, "words-lecture-refused", "lecture", command={"resume": too_long})
    assert answer.status_code == 422 and answer.json()["field"] == "decisions"
    assert f"the limit is {HUMAN_NOTES_MAX_LENGTH}" in answer.json()["detail"]
    for not_text in ({"decisions": [{"type": "reject", "message": 5}]}, [{"type": "response", "args": 5}]):
        answer = refused(client.runs.wait, "words-lecture-refused", "lecture", command={"resume": not_text})
        assert answer.status_code == 422 and answer.json()["field"] == "decisions"
        detail = answer.json()["detail"]
        assert "must be text, got int" in detail and "characters" not in detail
    assert client.threads.get("words-lecture-refused")["status"] == "interrupted"  # nothing was changed


def test_an_empty_case_id_is_named_a_case_id(client: Any) -> None:
    thread = client.threads.create()["thread_id"]
    values = {"case_id": "", "customer": "kim", "amount": 500_000, "reason": "r"}
    answer = refused(client.runs.wait, thread, "refund", input=values)
    assert answer.status_code == 422 and answer.json()["field"] == "case_id"
    assert "give a case id" in answer.json()["detail"] and "thread id" not in answer.json()["detail"]


def test_a_batch_item_of_a_thread_with_several_questions_is_told_the_batch_item_form(
    server: Server, client: Any
) -> None:
    items = [{"item": "A-1", "amount": 300_000}, {"item": "A-3", "amount": 200_000}]
    client.threads.create(thread_id="refund-WORDS1")
    client.runs.wait(
        "refund-WORDS1", "refund", input={"case_id": "WORDS1", "customer": "c", "reason": "r", "items": items}
    )
    ids = [i["id"] for i in client.threads.get_state("refund-WORDS1")["interrupts"]]
    assert len(ids) == 2
    with server.client() as http:
        body = {"items": ["refund-WORDS1"], "action": "approve", "approver": "kim"}
        (result,) = http.post("/decisions", json=body).json()["results"]
        assert result["result"] == "refused"
        reason = result["reason"]
        assert "THREAD:INTERRUPT_ID" in reason and all(f"refund-WORDS1:{i}" in reason for i in ids)
        assert "--interrupt" not in reason and "command.resume" not in reason
        # the items it names, as written, decide the questions
        named = [f"refund-WORDS1:{i}" for i in ids]
        decided = http.post("/decisions", json={**body, "items": named}).json()["results"]
        assert [r["result"] for r in decided] == ["paid", "paid"]  # one run answers both: the case is done


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server with HITL_API_TOKEN set."""
    running = start_server(tmp_path_factory.mktemp("words-guarded"), token=TOKEN)
    yield running
    stop_server(running)


def test_a_missing_token_and_a_wrong_one_are_told_apart(guarded: Server) -> None:
    missing = httpx.get(f"{guarded.url}/ok")
    assert missing.status_code == 401 and missing.headers["www-authenticate"] == "Bearer"
    assert "a bearer token is required" in missing.json()["detail"]
    for headers in ({"Authorization": f"Bearer {WRONG}"}, {"x-api-key": WRONG}):
        wrong = httpx.get(f"{guarded.url}/ok", headers=headers)
        assert wrong.status_code == 401 and "invalid_token" in wrong.headers["www-authenticate"]
        assert "not accepted" in wrong.json()["detail"] and "is required" not in wrong.json()["detail"]
        assert WRONG not in wrong.text + str(wrong.headers)
    with get_sync_client(url=guarded.url, api_key=WRONG) as sdk:
        answer = refused(sdk.assistants.search)
    assert answer.status_code == 401 and "not accepted" in answer.json()["detail"] and WRONG not in answer.text
    assert TOKEN not in missing.text + answer.text and WRONG not in guarded.log()
