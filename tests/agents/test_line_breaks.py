"""A one-line field holds no line break of any kind: every character ``str.splitlines`` ends a line at is
refused, in the reader's language, on every path a value comes in by (a form or ``runs.start_run``, the CLI,
the API, a lecture's plan edit), and nothing is written. Python's ``email`` splits a header at the same
characters, so a customer's name with U+2028 in it could otherwise not be put in a mail's ``Subject``.
"""

from __future__ import annotations

import sys

import pytest
from fastapi.testclient import TestClient

from agents import readmodel, runs
from agents.api.app import create_app
from agents.errors import InputError
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from agents.lecture.plans import apply_plan_edit
from agents.refund import ledger
from agents.validation import LINE_BREAKS, validate_text
from tests.agents.lecture.test_lecture_cli import start_args
from tests.factories import start_refund, thread_counts

BREAKS = sorted(LINE_BREAKS)
CASE = {"case_id": "C3", "customer": "Kim", "amount": 300_000, "reason": "r"}


def test_the_line_breaks_are_every_character_splitlines_ends_a_line_at():
    found = {chr(code) for code in range(sys.maxunicode + 1) if len(f"a{chr(code)}b".splitlines()) > 1}
    assert found == LINE_BREAKS


@pytest.mark.parametrize("char", BREAKS, ids=[f"U+{ord(char):04X}" for char in BREAKS])
def test_a_one_line_field_refuses_each_line_break_in_both_languages(char):
    with pytest.raises(InputError) as refused:
        validate_text(f"Kim{char}Bcc: x@evil.example", "customer", max_length=100)
    code = f"U+{ord(char):04X}"
    assert refused.value.field == "customer"
    assert refused.value.text.render("en") == f"customer: contains a line break ({code}); it is one line"
    assert refused.value.text.render("ko") == f"customer: 줄바꿈 문자({code})가 들어 있습니다. 한 줄로 써야 합니다"


def test_a_multi_line_field_keeps_its_lines():
    assert validate_text("broken\nscreen\tcracked", "reason", max_length=100, multiline=True) == (
        "broken\nscreen\tcracked"
    )


def test_a_refund_with_a_line_separator_in_its_customer_is_not_started(store, settings):
    with pytest.raises(InputError, match="^customer: contains a line break \\(U\\+2028\\)"):
        runs.start_run(store, settings, "refund", {**CASE, "customer": "Kim\u2028Bcc: x@evil.example"})
    assert readmodel.head_checkpoint_id(store, "refund-C3") is None


@pytest.mark.parametrize("field", ["approver", "note"])
def test_a_decision_with_a_line_separator_in_a_one_line_field_is_refused(store, settings, field):
    start_refund(store, settings, "C1")
    before = thread_counts(store, "refund-C1")
    answer = {"action": "approve", "approver": "kim", field: "kim\u2028Bcc: x@evil.example"}
    with pytest.raises(InputError, match=f"^{field}: contains a line break \\(U\\+2028\\)"):
        runs.resume_thread(store, settings, "refund-C1", answer)
    assert thread_counts(store, "refund-C1") == before and ledger.ledger_rows(store) == []


def test_the_cli_refuses_it_in_the_readers_language(run_cli):
    customer = "Kim\u2028Bcc: x@evil.example"
    args = ("run", "refund", "--case", "C3", "--customer", customer, "--amount", "300000", "--reason", "r")
    english = run_cli(*args)
    assert english.code == 2 and "customer: contains a line break (U+2028); it is one line" in english.err
    korean = run_cli("--lang", "ko", *args)
    assert korean.code == 2 and "customer: 줄바꿈 문자(U+2028)가 들어 있습니다" in korean.err
    assert "refund-C3" not in run_cli("threads").out


def test_the_api_refuses_it(store, settings):
    with TestClient(create_app(store, settings), base_url="http://127.0.0.1") as api:
        api.post("/threads", json={"thread_id": "refund-C3"}).raise_for_status()
        answer = api.post(
            "/threads/refund-C3/runs/wait",
            json={"assistant_id": "refund", "input": {**CASE, "customer": "Kim\u0085Bcc: x@evil.example"}},
        )
    assert answer.status_code == 422 and "contains a line break (U+0085)" in answer.text
    assert readmodel.head_checkpoint_id(store, "refund-C3") is None


def test_a_lecture_field_and_a_subtopic_title_refuse_it(run_cli):
    started = run_cli(*start_args(topic="LangGraph\u2029Bcc: x@evil.example"))
    assert started.code == 2 and "topic: contains a line break (U+2029)" in started.err
    plan = [{"id": f"s{n}", "title": f"T{n}", "description": ""} for n in (1, 2, 3)]
    edit = [{"id": "s1", "title": "=HYPERLINK\u2028x"}, {"id": "s2", "title": "T2"}, {"id": "s3", "title": "T3"}]
    with pytest.raises(InputError, match="title: contains a line break \\(U\\+2028\\)"):
        apply_plan_edit(plan, set(), edit, 4)
    assert DEFAULT_LECTURE_INPUT["topic"]  # the default input stays one line and valid
