"""The refund batch's selection outlives a change of its list made elsewhere (a case decided on the CLI, a new
case requested): the items still waiting stay selected, by item, ticked at their new rows; a selected item
that left the list is dropped, and a notice names it, in English and Korean. A batch then decides only what
is still selected."""

from __future__ import annotations

import json
from unittest import mock

from streamlit.testing.v1 import AppTest

from agents import runs
from agents.refund import item_ledger, ledger
from app_pages.refund_batch import DRAWN_KEY, SELECTED_KEY
from dashboard.batch_decisions import selection_of, still_listed
from tests.conftest import APP_FILE
from tests.factories import button_by_key, start_refund

PAGE = "app_pages/refund.py"
ITEMS = [{"item": "A-1", "amount": 300_000}, {"item": "A-2", "amount": 80_000}, {"item": "A-3", "amount": 200_000}]


def _open(lang: str = "en") -> AppTest:
    test = AppTest.from_file(APP_FILE, default_timeout=60)
    test.query_params["lang"] = lang
    test.switch_page(PAGE).run()  # opened at its address, as a link opens it
    assert not test.exception, test.exception
    return test


def _listed(test: AppTest) -> list[str]:
    """The batch's rows as last drawn, by label (``C1``, ``M1 · A-1``)."""
    _digest, keys, labels = test.session_state[DRAWN_KEY]
    return [labels[key] for key in keys]


def _key(test: AppTest, label: str) -> str:
    """The selection's name of the listed item ``label`` (``THREAD:INTERRUPT_ID``)."""
    _digest, keys, labels = test.session_state[DRAWN_KEY]
    return next(key for key in keys if labels[key] == label)


def _selected(test: AppTest) -> list[str]:
    """The selected items, by label (as the list last drawn names them)."""
    labels = test.session_state[DRAWN_KEY][2]
    return [labels[key] for key in test.session_state[SELECTED_KEY]]


def _batch_table(test: AppTest):
    return next(frame for frame in test.dataframe if (frame.key or "").startswith("refund-batch-"))


def _ticked(test: AppTest) -> list[int]:
    """The rows the batch table is drawn with ticked (what a new table shows selected in the browser)."""
    shown = _batch_table(test).proto.selection_default
    return json.loads(shown)["selection"]["rows"] if shown else []


def _captions(test: AppTest) -> list[str]:
    return [caption.value for caption in test.caption]


def _select(test: AppTest, labels: list[str]) -> None:
    """Ticks the rows of ``labels``, as the table's selection callback records them (AppTest cannot click rows)."""
    keys = [_key(test, label) for label in labels]
    test.session_state[SELECTED_KEY] = keys
    test.run()
    assert f"{len(keys)} item(s) selected." in _captions(test) or f"항목 {len(keys)}개를 골랐습니다." in _captions(test)


def test_a_selection_stays_when_another_case_is_decided_or_requested_elsewhere(store, settings):
    for case in ("C1", "C2", "C3", "C4"):
        start_refund(store, settings, case)
    test = _open()
    assert _listed(test) == ["C1", "C2", "C3", "C4"]
    _select(test, ["C2", "C4"])
    # Elsewhere: the oldest case, not selected, is decided (`decide refund-C1 --action reject`), a new one requested.
    runs.resume_thread(store, settings, "refund-C1", {"action": "reject", "approver": "park"})
    start_refund(store, settings, "C5")
    test.run()
    assert not test.exception, test.exception
    assert _listed(test) == ["C2", "C3", "C4", "C5"]  # every row moved up one
    assert _selected(test) == ["C2", "C4"]  # kept by item, not by row
    assert "2 item(s) selected." in _captions(test)
    assert _ticked(test) == [0, 2]  # the new table ticks them where they are now
    assert not [notice.value for notice in test.info if "no longer selected" in notice.value]
    test.text_input(key="refund-batch-approver").input("kim")
    button_by_key(test, "refund-batch-approve").click().run()
    assert not test.exception, test.exception
    paid = sorted((row["case_id"], row["approver"]) for row in ledger.ledger_rows(store))
    assert paid == [("C2", "kim"), ("C4", "kim")]  # what was selected, nothing else
    assert runs.current_result(store, settings, "refund-C3").status == "waiting"


def test_a_selected_item_decided_elsewhere_is_dropped_with_a_notice_naming_it(store, settings):
    start_refund(store, settings, "C1")
    runs.start_run(store, settings, "refund", {"case_id": "M1", "customer": "kim", "reason": "r", "items": ITEMS})
    start_refund(store, settings, "C2")
    test = _open()
    assert _listed(test) == ["C1", "M1 · A-1", "M1 · A-3", "C2"]
    _select(test, ["C1", "M1 · A-3", "C2"])
    runs.resume_thread(store, settings, "refund-C1", {"action": "approve", "approver": "park"})  # selected, decided
    a_1 = _key(test, "M1 · A-1").split(":", 1)[1]  # not selected; its case's A-3 is
    runs.resume_thread(store, settings, "refund-M1", {"action": "reject", "approver": "park"}, interrupt_id=a_1)
    test.run()
    assert not test.exception, test.exception
    assert _listed(test) == ["M1 · A-3", "C2"]
    assert _selected(test) == ["M1 · A-3", "C2"]
    assert "No longer waiting, so no longer selected: C1." in [notice.value for notice in test.info]
    assert "2 item(s) selected." in _captions(test)
    assert _ticked(test) == [0, 1]
    drawn = len(test.main.children)
    test.run()  # said once: the next run has nothing to say
    assert not [notice.value for notice in test.info if "no longer selected" in notice.value]
    assert len(test.main.children) == drawn  # in a place kept: the request form below it does not move
    test.text_input(key="refund-batch-approver").input("kim")
    button_by_key(test, "refund-batch-approve").click().run()
    paid = sorted((row["case_id"], row["approver"]) for row in ledger.ledger_rows(store))
    assert paid == [("C1", "park"), ("C2", "kim")]
    approvers = {row["item"]: row["approver"] for row in item_ledger.item_payouts(store, "M1")}
    assert approvers == {"A-2": "automatic", "A-3": "kim"}  # A-1 was rejected elsewhere, and stays so


def test_in_korean_the_notice_names_the_dropped_item_too(store, settings):
    start_refund(store, settings, "K1")
    start_refund(store, settings, "K2")
    test = _open("ko")
    # AppTest labels a selectbox's value (the sidebar's) in the test's own thread, which has no language: the
    # reruns are in Korean in every thread (as tests/app_pages/test_korean_pages.py does).
    with mock.patch("dashboard.i18n.current_language", return_value="ko"):
        _select(test, ["K1", "K2"])
        runs.resume_thread(store, settings, "refund-K1", {"action": "reject", "approver": "park"})
        test.run()
    assert not test.exception, test.exception
    assert "더 이상 결정을 기다리지 않아 선택에서 뺐습니다: K1." in [notice.value for notice in test.info]
    assert "항목 1개를 골랐습니다." in _captions(test)
    assert _selected(test) == ["K2"]


def test_the_last_selected_item_decided_elsewhere_leaves_an_empty_list_and_says_so(store, settings):
    start_refund(store, settings, "E1")
    test = _open()
    _select(test, ["E1"])
    runs.resume_thread(store, settings, "refund-E1", {"action": "reject", "approver": "park"})
    test.run()
    assert "No longer waiting, so no longer selected: E1." in [notice.value for notice in test.info]
    assert "No item waits for a decision." in _captions(test)
    assert test.session_state[SELECTED_KEY] == []


def test_what_stays_selected_is_found_by_item_and_ticked_at_its_new_row():
    assert still_listed(["b", "x", "d", "b"], ["a", "b", "c", "d"]) == (["b", "d"], ["x"])
    assert selection_of(["d", "b"], ["b", "c", "d"]) == {"selection": {"rows": [0, 2]}}
    assert selection_of(["x"], ["b"]) is None and selection_of([], ["b"]) is None


def _hand_over(shown: list[str], table: list[str]) -> None:
    """A selection event of the batch table that showed ``table``, while the page last drew ``shown``; then says
    what is selected."""
    import streamlit as st

    from app_pages import refund_batch
    from dashboard.batch_decisions import rows_digest

    st.session_state[refund_batch.SELECTED_KEY] = ["kept"]
    st.session_state[refund_batch.DRAWN_KEY] = (rows_digest(shown), tuple(shown), {})
    refund_batch._remember_selection("refund-batch-table", tuple(table))  # no row ticked in it
    st.text(",".join(st.session_state[refund_batch.SELECTED_KEY]))


def test_a_selection_handed_over_again_by_a_table_no_longer_drawn_changes_nothing():
    """The browser can send a table's selection again once the next list is drawn (as it does a click): only
    the table last drawn selects, so the batch never acts on rows the person no longer sees ticked."""
    stale = AppTest.from_function(_hand_over, args=(["b", "d"], ["b", "c", "d"])).run()
    assert [text.value for text in stale.text] == ["kept"]
    drawn = AppTest.from_function(_hand_over, args=(["b", "d"], ["b", "d"])).run()
    assert [text.value for text in drawn.text] == [""]  # the table on the screen: its (empty) selection is taken
