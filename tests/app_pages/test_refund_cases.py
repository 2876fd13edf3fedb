"""The refund page's book of cases: reused while nothing changes, never older than the database."""

from __future__ import annotations

import json

from agents import lifecycle, runs, runtime
from agents.refund import ledger
from agents.registry import get_agent
from agents.runtime import open_store
from app_pages.refund_cases import DELETED, case_book, read_book
from tests.factories import start_refund

PAGE = "app_pages/refund.py"


def _decide(location, settings, case, action="approve"):
    other = open_store(location)  # another process decides
    try:
        runs.resume_from_fields(other, settings, f"refund-{case}", {"action": action, "approver": "kim"})
    finally:
        other.close()


def test_the_book_is_reused_until_a_write_and_then_holds_the_write(store, settings, db_location):
    start_refund(store, settings, "C1")
    start_refund(store, settings, "C2", amount=300_000)
    first = case_book(store)
    assert [row.case_id for row, _status in first.queue] == ["C1", "C2"]
    if store.change_token() is not None:  # where the store can tell, nothing is read again
        assert case_book(store) is first
    _decide(db_location, settings, "C1")
    start_refund(store, settings, "C3", amount=700_000)
    book = case_book(store)
    assert book is not first
    assert [row.case_id for row, _status in book.queue] == ["C2", "C3"]  # the longest wait first
    assert book.statuses["refund-C1"].status == "done"
    assert book.cases["refund-C1"].executed_amount == 500_000
    assert (first.payouts, [(p["case_id"], p["approver"]) for p in book.payouts]) == ((), [("C1", "kim")])
    assert book.options == ("refund-C2", "refund-C3", "refund-C1")
    assert book == read_book(store)  # the same as read afresh


def test_a_search_text_is_made_per_language(store, settings):
    start_refund(store, settings, "C1", customer="김철수")
    runs.resume_from_fields(store, settings, "refund-C1", {"action": "reject", "approver": "lee"})
    book = case_book(store)
    row = book.cases["refund-C1"]
    assert book.search_texts("en")[row] == "C1 refund-C1 김철수 done reject reject lee"
    assert book.search_texts("ko")[row] == "C1 refund-C1 김철수 완료 reject 거절 lee"  # the codes, and their words


def test_the_page_shows_a_decision_and_a_new_case_from_another_process_on_the_next_rerun(
    app, store, settings, db_location
):
    start_refund(store, settings, "C1")
    at = app(PAGE)
    assert list(at.dataframe[0].value["case"]) == ["C1"]
    _decide(db_location, settings, "C1")
    other = open_store(db_location)
    try:
        start_refund(other, settings, "C2", amount=200_000)
    finally:
        other.close()
    at.run()
    assert not at.exception
    assert list(at.dataframe[0].value["case"]) == ["C2"]  # the queue: C1 was decided elsewhere
    audit = next(frame.value for frame in at.dataframe if "outcome" in frame.value.columns)  # after the batch's
    assert list(audit["case"]) == ["C2", "C1"]
    assert "paid" in " ".join(audit["outcome"])
    assert at.selectbox(key="refund-case").options == ["C2 · 200,000 KRW · waiting", "C1 · 500,000 KRW · done · paid"]


def test_the_picker_of_many_cases_finds_by_customer_and_keeps_the_selected_case(app, store, settings):
    for number in range(102):
        start_refund(store, settings, f"C{number:03d}", customer="이영희" if number in (7, 70) else "김철수")
    at = app(PAGE)
    picker = at.selectbox(key="refund-case")
    assert (picker.value, len(picker.options)) == ("refund-C000", 101)  # the selected case and the next 100
    assert "The picker offers the first 100 of 102 matching cases; type more to narrow it." in [
        c.value for c in at.caption
    ]
    at.text_input(key="refund-case-find").input("영희").run()
    assert not at.exception
    assert at.selectbox(key="refund-case").options == [
        "C000 · 500,000 KRW · waiting",  # the selected case stays first
        "C007 · 500,000 KRW · waiting",
        "C070 · 500,000 KRW · waiting",
    ]
    assert at.selectbox(key="refund-case").value == "refund-C000"


def test_a_case_whose_amount_the_tooling_path_wrote_as_text_keeps_every_case_in_the_queue(app, store, settings):
    """LangGraph's own ``update_state`` checks no types: one such case may not take the page down."""
    start_refund(store, settings, "T1")
    start_refund(store, settings, "T2", amount=300_000)
    graph = runtime.graph(store, "refund")
    graph.update_state(runs.run_config(get_agent("refund"), "refund-T1"), {"amount": "400000"}, as_node="assess")
    at = app(PAGE)
    assert not at.exception, at.exception
    assert sorted(at.dataframe[0].value["case"]) == ["T1", "T2"]  # T2 waits, T1 needs attention
    assert at.selectbox(key="refund-case").options[0] == "T2 · 300,000 KRW · waiting"


# --- One snapshot: the statuses and the audit of a book agree, whatever another process writes between ---


def _between_the_reads(monkeypatch, write):
    """Runs ``write`` once, right after the refund cases' statuses are read (before their audit is)."""
    original = lifecycle.thread_statuses
    done = []

    def thread_statuses(*args, **kwargs):
        found = original(*args, **kwargs)
        if _agent_of(args, kwargs) == ledger.AGENT_NAME and not done:
            done.append(write())
        return found

    monkeypatch.setattr(lifecycle, "thread_statuses", thread_statuses)
    return done


def _elsewhere(location, settings, act):
    other = open_store(location)  # another process's connection
    try:
        return act(other)
    finally:
        other.close()


def _consistent(book):
    """Every case the book offers has its status, and every row's status is the one the statuses hold."""
    for thread_id in book.options:
        assert book.label(thread_id, "en")  # KeyError when a case has no status
    for row in book.audit:
        if row.status != DELETED:
            assert row.status == book.statuses[row.thread_id].status, row
    assert {row.thread_id for row, _status in book.queue} <= set(book.statuses)


def test_a_case_created_between_the_two_reads_is_in_neither(monkeypatch, store, settings, db_location):
    start_refund(store, settings, "OLD1")
    created = _between_the_reads(
        monkeypatch, lambda: _elsewhere(db_location, settings, lambda other: start_refund(other, settings, "NEW1"))
    )
    book = read_book(store)
    assert created
    _consistent(book)
    assert set(book.cases) == set(book.statuses) == {"refund-OLD1"}
    after = case_book(store)  # the next read has it, with its status
    _consistent(after)
    assert after.statuses["refund-NEW1"].status == "waiting" and "refund-NEW1" in after.options


def test_a_case_created_and_paid_between_the_reads_is_not_taken_for_a_deleted_one(
    monkeypatch, store, settings, db_location
):
    start_refund(store, settings, "OLD2")
    _between_the_reads(
        monkeypatch,
        lambda: _elsewhere(db_location, settings, lambda other: start_refund(other, settings, "AUTO1", amount=50_000)),
    )
    book = read_book(store)
    _consistent(book)
    assert [row.case_id for row in book.audit] == ["OLD2"]  # not "AUTO1 · thread deleted"
    assert "refund-AUTO1" not in book.statuses and book.payouts == ()  # its payout comes with its row
    after = case_book(store)
    assert after.cases["refund-AUTO1"].status == "done" and after.cases["refund-AUTO1"].executed_amount == 50_000
    assert [p["case_id"] for p in after.payouts] == ["AUTO1"]


def test_a_case_decided_between_the_reads_is_shown_as_its_status_saw_it(monkeypatch, store, settings, db_location):
    start_refund(store, settings, "DEC1")
    _between_the_reads(monkeypatch, lambda: _decide(db_location, settings, "DEC1"))
    book = read_book(store)
    _consistent(book)
    row = book.cases["refund-DEC1"]
    assert (book.statuses["refund-DEC1"].status, row.status, row.decision) == ("waiting", "waiting", "")
    # The payout read after the status is shown beside the row it belongs to, in both tables.
    assert row.executed_amount == 500_000 and [p["case_id"] for p in book.payouts] == ["DEC1"]
    after = case_book(store)
    assert (after.cases["refund-DEC1"].status, after.cases["refund-DEC1"].decision) == ("done", "approve")


def test_a_case_deleted_between_the_reads_leaves_no_half_row(monkeypatch, store, settings, db_location):
    start_refund(store, settings, "DEL1")
    start_refund(store, settings, "KEEP1", amount=300_000)
    _between_the_reads(
        monkeypatch,
        lambda: _elsewhere(
            db_location, settings, lambda other: runs.delete_thread(other, "refund-DEL1", reason="entered twice")
        ),
    )
    book = read_book(store)
    _consistent(book)
    assert "" not in {row.case_id for row in book.audit}
    assert list(book.options) == ["refund-KEEP1"]


def test_the_ledger_audit_on_the_command_line_agrees_with_its_statuses(
    monkeypatch, store, settings, db_location, run_cli
):
    start_refund(store, settings, "CLI1")
    _between_the_reads(
        monkeypatch, lambda: _elsewhere(db_location, settings, lambda other: start_refund(other, settings, "CLI2"))
    )
    result = run_cli("ledger", "--audit", "--json")
    assert result.code == 0, result.err
    rows = json.loads(result.out)
    assert [(row["case_id"], row["status"]) for row in rows] == [("CLI1", "waiting")]


def _agent_of(args, kwargs):
    """The ``agent`` a ``thread_statuses(store, agent)`` call asks for, however it is passed."""
    return kwargs.get("agent", args[1] if len(args) > 1 else None)
