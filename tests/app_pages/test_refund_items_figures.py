"""A several-item case with some items paid and others waiting says what still waits for a decision and
what the ledger paid so far, never the whole request as "to pay"."""

from __future__ import annotations

import pytest

from agents import runs
from tests.factories import start_refund

PAGE = "app_pages/refund.py"
#: A-2 (80,000) is under the threshold and pays itself; A-1 and A-3 wait for an approver.
ITEMS = [{"item": "A-1", "amount": 300_000}, {"item": "A-2", "amount": 80_000}, {"item": "A-3", "amount": 200_000}]


def _figures(app, lang: str) -> dict[str, str]:
    at = app(PAGE)
    at.query_params["thread"] = "refund-M1"
    at.query_params["lang"] = lang
    at.run()
    assert not at.exception, at.exception
    return {metric.label: metric.value for metric in at.main.metric}


@pytest.mark.parametrize(
    ("lang", "waiting", "paid", "to_pay"),
    [
        ("en", "Waiting for a decision", "Paid so far (ledger)", "To pay"),
        ("ko", "결정 대기 금액", "지금까지 지급 (원장)", "지급할 금액"),
    ],
)
def test_an_items_case_shows_what_waits_and_what_was_paid(app, store, settings, lang, waiting, paid, to_pay):
    runs.start_run(store, settings, "refund", {"case_id": "M1", "customer": "kim", "reason": "r", "items": ITEMS})
    figures = _figures(app, lang)
    won = "원" if lang == "ko" else " KRW"
    assert figures[waiting] == f"500,000{won}"  # not the 580,000 requested
    assert figures[paid] == f"80,000{won}"  # A-2, as in the item ledger
    assert to_pay not in figures


def test_a_rejected_item_leaves_only_the_other_waiting_and_a_finished_case_shows_what_it_pays(app, store, settings):
    runs.start_run(store, settings, "refund", {"case_id": "M1", "customer": "kim", "reason": "r", "items": ITEMS})
    first, second = runs.thread_snapshot(store, settings, "refund-M1")[1].interrupts
    amounts = {str(first.id): first.value["requested_amount"], str(second.id): second.value["requested_amount"]}
    rejected = next(i for i, a in amounts.items() if a == 300_000)
    approved = next(i for i, a in amounts.items() if a == 200_000)
    runs.resume_thread(store, settings, "refund-M1", {"action": "reject", "approver": "lee"}, interrupt_id=rejected)
    figures = _figures(app, "en")
    assert (figures["Waiting for a decision"], figures["Paid so far (ledger)"]) == ("200,000 KRW", "80,000 KRW")
    runs.resume_thread(store, settings, "refund-M1", {"action": "approve", "approver": "lee"}, interrupt_id=approved)
    figures = _figures(app, "en")
    assert (figures["To pay"], figures["Executed (ledger)"]) == ("280,000 KRW", "280,000 KRW")  # done: partly paid


@pytest.mark.parametrize(
    ("lang", "columns", "waiting"),
    [
        ("en", ("case", "to pay", "executed", "outcome"), "500,000 KRW waiting"),
        ("ko", ("건", "지급 예정 금액", "지급된 금액", "결과"), "500,000원 결정 대기"),
    ],
)
def test_the_queue_and_the_audit_show_an_items_cases_figures_as_its_panel_does(
    app, store, settings, lang, columns, waiting
):
    runs.start_run(store, settings, "refund", {"case_id": "M1", "customer": "kim", "reason": "r", "items": ITEMS})
    at = app(PAGE)
    at.query_params["lang"] = lang
    at.run()
    assert not at.exception, at.exception
    case, to_pay, executed, outcome = columns
    frames = [frame.value for frame in at.dataframe if to_pay in frame.value.columns]
    audit = next(frame for frame in frames if outcome in frame.columns)
    queue = next(frame for frame in frames if outcome not in frame.columns)
    row = audit[audit[case] == "M1"].iloc[0]
    won = "원" if lang == "ko" else " KRW"
    assert (row[to_pay], row[executed]) == (waiting, f"80,000{won}")  # wait; A-2 was paid
    assert list(queue[to_pay]) == [waiting]  # never the 580,000 requested


@pytest.mark.parametrize(
    ("lang", "columns", "waiting", "decided"),
    [
        ("en", ("case", "to pay", "outcome"), ("480,000 KRW waiting", "500,000 KRW waiting"), "250,000 KRW"),
        ("ko", ("건", "지급 예정 금액", "결과"), ("480,000원 결정 대기", "500,000원 결정 대기"), "250,000원"),
    ],
)
def test_every_case_waiting_for_a_decision_says_so_in_the_queue_and_the_audit(
    app, store, settings, lang, columns, waiting, decided
):
    """A case with one amount waits like one with several items: its "to pay" is marked the same way."""
    start_refund(store, settings, "C1", 480_000)
    runs.start_run(store, settings, "refund", {"case_id": "M1", "customer": "kim", "reason": "r", "items": ITEMS})
    start_refund(store, settings, "C2", 300_000)
    runs.resume_from_fields(store, settings, "refund-C2", {"action": "edit", "amount": 250_000, "approver": "kim"})
    at = app(PAGE)
    at.query_params["lang"] = lang
    at.run()
    assert not at.exception, at.exception
    case, to_pay, outcome = columns
    frames = [frame.value for frame in at.dataframe if to_pay in frame.value.columns]
    audit = next(frame for frame in frames if outcome in frame.columns)
    queue = next(frame for frame in frames if outcome not in frame.columns)
    in_audit = dict(zip(audit[case], audit[to_pay], strict=True))
    assert (in_audit["C1"], in_audit["M1"], in_audit["C2"]) == (*waiting, decided)
    assert dict(zip(queue[case], queue[to_pay], strict=True)) == {"C1": waiting[0], "M1": waiting[1]}
