"""A finished case reads as finished: a rejection owes nothing, an outcome is not cut, counts agree."""

from __future__ import annotations

import dataclasses

from agents import lifecycle, runs
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from agents.refund.rules import amount_to_pay
from dashboard.views import inbox_counts
from tests.factories import button_by_key, pause_robot, start_refund


def test_a_rejected_case_has_nothing_to_pay_in_the_case_and_the_audit(app, store, settings):
    start_refund(store, settings, "R1", 250_000)
    at = app("app_pages/refund.py")
    at.text_input(key="refund-approver").input("lee")
    button_by_key(at, "refund-reject").click().run()
    assert not at.exception, at.exception
    to_pay = next(m for m in at.metric if m.label == "To pay")
    assert to_pay.value == "— (rejected)"
    audit = at.dataframe[-1].value  # the ledger is empty: the audit is the last table
    assert list(audit["to pay"]) == ["—"] and list(audit["requested"]) == ["250,000 KRW"]


def test_the_amount_to_pay_is_none_only_for_a_rejection():
    assert amount_to_pay(250_000, "reject") is None
    assert amount_to_pay(250_000, "approve") == 250_000
    assert amount_to_pay(250_000, None) == 250_000


def test_the_lecture_outcome_is_a_short_word_with_its_reason_beside_it(app, store, settings):
    result = runs.start_run(store, settings, "lecture", dict(DEFAULT_LECTURE_INPUT), thread_id="lecture-o1")
    runs.resume_thread(store, settings, result.thread_id, "save")
    at = app("app_pages/lecture.py")
    at.query_params["thread"] = "lecture-o1"
    at.run()
    assert not at.exception, at.exception
    outcome = next(m for m in at.metric if m.label == "Outcome")
    assert outcome.value == "saved as is"  # short enough for a quarter of the row: never cut to "saved (pass…"
    assert "Saved as is: a human saved the draft below the threshold." in [c.value for c in at.caption]


def test_the_inbox_count_agrees_with_its_number(store, settings):
    pause_robot(store, settings, "robot-a")
    waiting = lifecycle.inbox(store)[0]
    attention = dataclasses.replace(waiting, status="attention")
    assert inbox_counts([attention], "en") == "1 needs attention"
    assert inbox_counts([waiting, attention, attention], "en") == "1 waiting · 2 need attention"
    assert inbox_counts([attention], "ko") == "1건 확인 필요"
