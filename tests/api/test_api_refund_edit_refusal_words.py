"""A refund edit in LangChain's or Agent Inbox's shape refused in the reader's language, as every refusal is.

An edit of another action than ``pay_refund``, or of an argument an edit does not take, is refused naming
``decisions`` or the argument: in English and Korean, on the command line (``--lang``), and on LangGraph's
own tooling (``langgraph dev``), whose question is asked again with the refusal in the run's language
first in its description, which is what Agent Inbox shows. The HTTP API says it in English, as before.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from agents.errors import InputError
from agents.refund.spec import check_resume
from tests.api.conftest import Server, refused
from tests.factories import refuse_at_the_pause, start_refund

OTHER_ACTION = {"decisions": [{"type": "edit", "edited_action": {"name": "refund", "args": {"amount": 1}}}]}
UNKNOWN_ARG = {
    "decisions": [{"type": "edit", "edited_action": {"name": "pay_refund", "args": {"amount": 1, "colour": "red"}}}]
}
INBOX_UNKNOWN_ARG = [{"type": "edit", "args": {"action": "pay_refund", "args": {"amount": "1", "colour": "red"}}}]
KOREAN = {
    "decisions": "decisions: 여기서 edit는 'pay_refund'만 고칩니다. 입력값: 'refund'",
    "colour": "colour: edit가 바꿀 수 있는 인자가 아닙니다. amount, approver, note를 쓰세요",
}
ENGLISH = {
    "decisions": "decisions: an edit here edits 'pay_refund'; got 'refund'",
    "colour": "colour: is not an argument an edit may change; use amount, approver, note",
}


@pytest.fixture(scope="module")
def server(shared_server: Server) -> Server:
    """The worker's shared server (tests/api/conftest.py): this module's cases have ids of its own."""
    return shared_server


@pytest.mark.parametrize(("answer", "field"), [(OTHER_ACTION, "decisions"), (UNKNOWN_ARG, "colour")])
def test_a_refused_edit_is_said_in_english_and_korean(answer: Any, field: str) -> None:
    with pytest.raises(InputError) as caught:
        check_resume({**answer, "approver": "kim"})
    assert caught.value.field == field
    assert (caught.value.render("en"), caught.value.render("ko")) == (ENGLISH[field], KOREAN[field])


def test_the_command_line_says_a_refused_edit_in_its_language(run_cli: Any, store: Any, settings: Any) -> None:
    start_refund(store, settings, "EW1")
    for answer, field in ((OTHER_ACTION, "decisions"), (UNKNOWN_ARG, "colour")):
        said = run_cli("--lang", "ko", "resume", "refund-EW1", json.dumps({**answer, "approver": "kim"}))
        assert said.code == 2 and KOREAN[field] in said.err, said.err


def test_langgraph_s_own_tooling_asks_again_with_the_refusal_in_the_run_s_language(
    store: Any, settings: Any, db_location: str
) -> None:
    start_refund(store, settings, "EW2", lang="ko")
    error = refuse_at_the_pause("refund-EW2", INBOX_UNKNOWN_ARG, db_location)
    assert error == KOREAN["colour"], error


def test_the_api_refuses_it_in_english_naming_the_argument(client: Any) -> None:
    values = {"case_id": "EW3", "customer": "kim", "requested_amount": 500_000, "reason": "r"}
    client.threads.create(thread_id="refund-EW3")
    client.runs.wait("refund-EW3", "refund", input=values)
    answer = refused(client.runs.wait, "refund-EW3", "refund", command={"resume": {**UNKNOWN_ARG, "approver": "kim"}})
    assert answer.status_code == 422 and answer.json() == {"detail": ENGLISH["colour"], "field": "colour"}
