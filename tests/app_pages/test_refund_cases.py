"""The refund page's book of cases: reused while nothing changes, never older than the database."""

from __future__ import annotations

from agents import runs, runtime
from agents.registry import get_agent
from agents.runtime import open_store
from app_pages.refund_cases import case_book, read_book
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
    audit = at.dataframe[1].value
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
