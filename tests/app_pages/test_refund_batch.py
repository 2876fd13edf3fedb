"""The refund queue's batch: several waiting items, across cases and within one, decided in one action;
each checked on its own (a refused one never stops the others), reported per item, and a repeated batch
(a second tab, a double click) pays nothing twice."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from agents import runs, threadindex
from agents.batch import Decided, decide_items
from agents.identity import Identity
from agents.refund import item_ledger, ledger
from agents.roles_file import parse_roles
from app_pages.refund_batch import DRAWN_KEY, SELECTED_KEY, waiting_items
from app_pages.refund_cases import read_book
from dashboard import text_fit
from dashboard.batch_decisions import ItemResult, item_result, result_rows, result_word, rows_digest, selected_keys
from dashboard.i18n import t
from tests.conftest import APP_FILE
from tests.factories import button_by_key, start_refund

PAGE = "app_pages/refund.py"
ITEMS = [{"item": "A-1", "amount": 300_000}, {"item": "A-2", "amount": 80_000}, {"item": "A-3", "amount": 200_000}]


def start_items(store, settings, case: str = "M1", actor: Identity | None = None) -> None:
    values = {"case_id": case, "customer": "kim", "reason": "r", "items": ITEMS}
    runs.start_run(store, settings, "refund", values, **({"actor": actor} if actor else {}))


def select_all(at: AppTest) -> list[str]:
    """Selects every listed item, as the table's selection callback records it (AppTest cannot click rows)."""
    keys = list(at.session_state[DRAWN_KEY][1])
    at.session_state[SELECTED_KEY] = keys
    at.run()
    assert at.caption and f"{len(keys)} item(s) selected." in [c.value for c in at.caption]
    return keys


def results_table(at: AppTest):
    return next(d for d in at.dataframe if "result" in d.value.columns).value


def result_cells(at: AppTest) -> list[tuple[str, str]]:
    table = results_table(at)
    return list(zip(table["case"], table["result"], strict=True))


def test_the_queue_lists_every_waiting_item_across_cases_and_within_one(app, store, settings):
    start_refund(store, settings, "C1")
    start_items(store, settings)
    start_refund(store, settings, "C2")
    at = app(PAGE)
    items = waiting_items(threadindex.pending_interrupts(store), read_book(store))
    assert [w.label for w in items] == ["C1", "M1 · A-1", "M1 · A-3", "C2"]  # oldest case first, then by item
    assert list(at.session_state[DRAWN_KEY][1]) == [w.key for w in items]


def test_several_items_are_approved_in_one_action_and_reported_per_item(app, store, settings):
    start_refund(store, settings, "C1")
    start_items(store, settings)
    at = app(PAGE)
    select_all(at)
    at.text_input(key="refund-batch-approver").input("kim")
    button_by_key(at, "refund-batch-approve").click().run()
    assert not at.exception, at.exception
    assert result_cells(at) == [("C1", "paid"), ("M1 · A-1", "paid"), ("M1 · A-3", "paid")]
    summary = "approve of 3 item(s): 3 paid, 0 rejected, 0 not accepted, 0 already decided."
    assert summary in [s.value for s in at.success]
    assert [(r["case_id"], r["approver"]) for r in ledger.ledger_rows(store)] == [("C1", "kim")]
    paid = {r["item"]: r["paid_amount"] for r in item_ledger.item_payouts(store, "M1")}
    assert paid == {"A-1": 300_000, "A-2": 80_000, "A-3": 200_000}
    assert not any(b.key == "refund-batch-approve" for b in at.button)  # nothing waits any more


def test_a_refused_item_is_reported_with_its_reason_and_the_others_are_decided(app, store, settings):
    start_items(store, settings)
    start_refund(store, settings, "C1")
    at = app(PAGE)
    select_all(at)
    at.text_input(key="refund-batch-approver").input("lee")
    at.text_input(key="refund-batch-note").input("checked")
    # The case C1 is decided elsewhere between drawing and the click; are still waiting.
    runs.resume_thread(store, settings, "refund-C1", {"action": "reject", "approver": "park"})
    button_by_key(at, "refund-batch-reject").click().run()
    assert not at.exception, at.exception
    assert result_cells(at) == [("M1 · A-1", "rejected"), ("M1 · A-3", "rejected"), ("C1", "already decided")]
    assert ledger.ledger_rows(store) == []
    assert runs.current_result(store, settings, "refund-M1").outcome == "partly paid"  # A-2 settled by itself


def test_a_second_tab_repeating_the_batch_pays_nothing_twice(app, store, settings):
    start_refund(store, settings, "C1")
    start_items(store, settings)
    first, second = app(PAGE), app(PAGE)
    select_all(first)
    select_all(second)
    for tab, who in ((first, "kim"), (second, "lee")):
        tab.text_input(key="refund-batch-approver").input(who)
        button_by_key(tab, "refund-batch-approve").click().run()
        assert not tab.exception, tab.exception
    assert [result for _, result in result_cells(second)] == ["already decided"] * 3
    assert [r["approver"] for r in ledger.ledger_rows(store)] == ["kim"]
    approvers = {r["item"]: r["approver"] for r in item_ledger.item_payouts(store, "M1")}
    assert (len(approvers), approvers["A-1"], approvers["A-3"]) == (3, "kim", "kim")


def test_without_an_approver_every_item_is_refused_and_nothing_is_paid(app, store, settings):
    start_refund(store, settings, "C1")
    start_refund(store, settings, "C2")
    at = app(PAGE)
    select_all(at)
    button_by_key(at, "refund-batch-approve").click().run()
    assert [result for _, result in result_cells(at)] == ["not accepted", "not accepted"]
    assert list(results_table(at)["why"]) == ["Approver: is empty"] * 2
    assert ledger.ledger_rows(store) == []


def test_a_selection_is_kept_by_item_never_by_position():
    assert selected_keys([2, 0, 0, 7], ["a", "b", "c"]) == ["a", "c"]
    assert rows_digest(["a", "b"]) != rows_digest(["b", "c"]) and rows_digest(["a"]) == rows_digest(["a"])


def test_an_item_whose_case_still_waits_was_paid_or_rejected():
    waiting = Decided("t:1", "t", "1", "waiting")
    assert item_result(waiting, "approve").result == "paid"
    assert item_result(waiting, "reject").result == "rejected"
    refused = Decided("t", "t", "", "refused", "approver: is required")
    assert (item_result(refused, "approve").result, item_result(refused, "approve").reason) == (
        "refused",
        "approver: is required",
    )


def test_every_result_a_batch_reports_is_named_in_words_on_the_page_in_both_languages():
    words = ("paid", "rejected", "refused", "already decided", "busy", "failed")
    rows = result_rows([ItemResult(f"refund-C{n}", word) for n, word in enumerate(words)], {})
    assert [row["result"] for row in rows] == [result_word(word, "en") for word in words]
    assert all(result_word(word, "ko") != result_word(word, "en") for word in words)
    assert len({result_word(word, "en") for word in words}) == len(words)  # each result its own word
    assert result_word("refused", "en") == "not accepted"  # as the batch's summary counts it


ROLES = """
[users]
"ann@example.com" = { role = "approver", limit_krw = 1_000_000 }
"""


def _ann_approves_big_and_small(store, settings, use_roles: Callable[[str], Path]) -> AppTest:
    """Ann (an approver up to 1,000,000 KRW, signed in) selects a 2,000,000 and a 300,000 KRW case and approves both."""
    use_roles(ROLES)
    start_refund(store, settings, "BIG", 2_000_000)
    start_refund(store, settings, "SMALL", 300_000)
    at = AppTest.from_file(APP_FILE, default_timeout=60)
    at.user = {"is_logged_in": True, "email": "ann@example.com", "name": "Ann"}
    at.run()
    at.switch_page(PAGE).run()
    select_all(at)
    button_by_key(at, "refund-batch-approve").click().run()
    assert not at.exception, at.exception
    return at


def test_a_signed_in_batch_refuses_the_item_above_the_limit_and_pays_the_others(
    store, settings, use_roles: Callable[[str], Path]
):
    at = _ann_approves_big_and_small(store, settings, use_roles)
    assert [result for _, result in result_cells(at)] == ["not accepted", "paid"]
    assert "your limit is 1,000,000 KRW" in results_table(at)["why"].iloc[0]
    assert [(r["case_id"], r["approver"]) for r in ledger.ledger_rows(store)] == [("SMALL", "ann@example.com")]


#: A grid's inner width in a 1280×720 window (measured in Chromium: the main block's grid, 818 px).
GRID_AT_1280 = 818


def _whole_in_its_cell(frame, why: str) -> None:
    """The results' columns fit a 1280-pixel window's grid, and each row is as tall as its reason needs whole."""
    widths = {label: config.get("width") for label, config in json.loads(frame.proto.columns).items()}
    assert all(isinstance(widths.get(label), int) for label in frame.value.columns), widths
    assert sum(widths[label] for label in frame.value.columns) <= GRID_AT_1280, widths
    for reason in frame.value[why]:
        lines = text_fit.lines_needed(reason, widths[why])
        assert frame.proto.row_height >= text_fit.row_height(lines), (reason, lines, frame.proto.row_height)


def test_a_batchs_summary_and_its_rows_name_an_item_not_accepted_alike_and_its_reason_reads_whole(
    store, settings, use_roles: Callable[[str], Path]
):
    at = _ann_approves_big_and_small(store, settings, use_roles)
    assert "1 paid, 0 rejected, 1 not accepted, 0 already decided" in " ".join(w.value for w in at.warning)
    assert [result for _, result in result_cells(at)] == ["not accepted", "paid"]  # the summary's word
    frame = next(d for d in at.dataframe if "why" in d.value.columns)
    reason = frame.value["why"].iloc[0]
    assert "your limit is 1,000,000 KRW" in reason and text_fit.lines_needed(reason, 500) > 1, reason
    _whole_in_its_cell(frame, "why")


def _korean_results(results: list, labels: dict) -> None:
    """The batch's results as the page shows them, in Korean."""
    import streamlit as st

    from app_pages import refund_batch

    st.session_state["lang"] = "ko"
    st.session_state[refund_batch.RESULTS_KEY] = ("approve", results, labels)
    refund_batch.show_results()


def test_in_korean_too_the_summary_and_the_rows_say_one_word_and_the_reason_reads_whole(store, settings):
    start_refund(store, settings, "BIG", 2_000_000)
    start_refund(store, settings, "SMALL", 300_000)
    ann = parse_roles(ROLES).identity_for("ann@example.com")
    keys = ["refund-BIG", "refund-SMALL"]
    answer = {"action": "approve", "approver": ann.email}
    done = [item_result(d, "approve") for d in decide_items(store, settings, keys, answer, actor=ann, lang="ko")]
    at = AppTest.from_function(_korean_results, args=(done, {}), default_timeout=60).run()
    assert not at.exception, at.exception
    word = "받아들여지지 않음"
    assert f"{word} 1," in at.warning[0].value, at.warning[0].value
    frame = at.dataframe[0]
    assert list(frame.value["결과"]) == [word, "지급됨"]
    assert "1,000,000원" in frame.value["이유"].iloc[0]
    _whole_in_its_cell(frame, "이유")


@pytest.mark.parametrize(
    ("lang", "batch", "outcome"), [("en", "decided in batch", "outcome"), ("ko", "일괄 결정", "결과")]
)
def test_the_audit_names_the_batch_each_case_was_decided_in(store, settings, lang, batch, outcome):
    start_refund(store, settings, "C1")
    start_refund(store, settings, "C2")
    start_refund(store, settings, "C3")
    decided = decide_items(store, settings, ["refund-C1", "refund-C2"], {"action": "approve", "approver": "kim"})
    runs.resume_thread(store, settings, "refund-C3", {"action": "reject", "approver": "kim"})
    at = AppTest.from_file(APP_FILE, default_timeout=60)
    at.query_params["lang"] = lang
    at.run()
    at.switch_page(PAGE)
    at.run()
    assert not at.exception, at.exception
    audit = next(frame.value for frame in at.dataframe if outcome in frame.value.columns)
    batch_id = decided[0].batch_id
    cells = dict(zip(audit[t("refund.col.case", lang)], audit[batch], strict=True))
    assert cells == {"C1": batch_id, "C2": batch_id, "C3": ""}  # a decision on its own names no batch


def _decide_twice(store, settings, keys) -> None:
    """One approve click handed to two runs before the batch is drawn again (a live part's tick took it
    along), then the batch's results as the next drawing shows them."""
    import streamlit as st

    from app_pages import refund_batch

    if not st.session_state.get("clicked"):
        st.session_state["clicked"] = True
        st.session_state[refund_batch.SELECTED_KEY] = list(keys)
        st.session_state[refund_batch.APPROVER_KEY] = "kim"
        for _ in range(2):
            refund_batch._decide(store, settings, "approve")
    refund_batch.show_results()


def test_a_click_handed_to_two_runs_keeps_the_batchs_results(store, settings):
    start_refund(store, settings, "C1")
    keys = [w.key for w in waiting_items(threadindex.pending_interrupts(store), read_book(store))]
    at = AppTest.from_function(_decide_twice, args=(store, settings, keys), default_timeout=60).run()
    assert not at.exception, at.exception
    assert [result for _, result in result_cells(at)] == ["paid"]  # the first call's, not "select items first"
    assert not [w.value for w in at.warning], [w.value for w in at.warning]
    assert [r["case_id"] for r in ledger.ledger_rows(store)] == ["C1"]  # paid once
