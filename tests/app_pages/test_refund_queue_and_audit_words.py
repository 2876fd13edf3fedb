"""The refund queue and audit say what they show: the queue's heading names no order (its Order control
does), its attention column says what it holds, the audit's deletions and decisions views start with the
cases they are about, and the audit's view control has one name in both languages."""

from __future__ import annotations

import pytest

from agents import runs
from agents.refund import strings as refund_strings
from dashboard.strings import core as core_strings
from tests.factories import start_refund

PAGE = "app_pages/refund.py"
LANGS = ["en", "ko"]


def _page(app, lang, **state):
    at = app(PAGE)
    at.query_params["lang"] = lang
    for key, value in state.items():
        at.session_state[key] = value
    at.run()
    assert not at.exception, at.exception
    return at


def _label(key, lang, strings=refund_strings.STRINGS):
    return strings[key][lang == "ko"]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("order", ["oldest", "newest", "amount"])
def test_the_queue_heading_names_no_order_so_it_never_contradicts_the_order_control(app, store, settings, lang, order):
    start_refund(store, settings, "C1", 480_000)
    start_refund(store, settings, "C2", 580_000)
    at = _page(app, lang, **{"refund-queue-order": order})
    heading = next(h.value for h in at.header if h.value == _label("refund.queue.header", lang))
    chosen = at.segmented_control(key="refund-queue-order")
    assert chosen.value == order
    # No word of any order ("largest first", "큰 금액 순"): the control under the heading names the one shown.
    order_words = {"first", "largest", "oldest", "newest"} if lang == "en" else {"순"}
    assert not [word for word in order_words if word in heading], heading


@pytest.mark.parametrize("lang", LANGS)
def test_the_queue_column_of_why_a_case_needs_attention_says_so_and_is_not_called_reason(app, store, settings, lang):
    start_refund(store, settings, "C1", 480_000)
    at = _page(app, lang)
    case = _label("refund.col.case", lang)
    deciders = _label("col.deciders", lang, core_strings.STRINGS)
    queue = next(frame for frame in at.dataframe if deciders in frame.value.columns)
    assert "C1" in set(queue.value[case])
    header = ("attention because", "확인 필요 이유")[lang == "ko"]
    assert header in list(queue.value.columns)
    # "reason" / "사유" on this page is the customer's refund reason (the case's headline and section).
    assert ("reason", "사유")[lang == "ko"] not in list(queue.value.columns)
    assert list(queue.value[header]) == [""]  # a waiting case needs no attention: nothing to say


def _audit_cases(at, lang):
    case = _label("refund.col.case", lang)
    outcome = _label("refund.col.outcome", lang)
    audit = next(frame for frame in at.dataframe if outcome in frame.value.columns)
    return list(audit.value[case])


@pytest.mark.parametrize("lang", LANGS)
def test_the_deletions_view_starts_with_the_deleted_cases_and_the_amounts_view_keeps_the_audit_order(
    app, store, settings, lang
):
    start_refund(store, settings, "GONE1", 120_000)
    for case in ("LIVE1", "LIVE2", "LIVE3"):
        start_refund(store, settings, case, 480_000)
    runs.delete_thread(store, "refund-GONE1", reason="entered twice")
    deletions = _audit_cases(_page(app, lang, **{"refund-audit-view": "deletions"}), lang)
    assert deletions[0] == "GONE1"
    assert sorted(deletions) == ["GONE1", "LIVE1", "LIVE2", "LIVE3"]  # first, not only: one table, one search
    amounts = _audit_cases(_page(app, lang, **{"refund-audit-view": "amounts"}), lang)
    assert amounts[-1] == "GONE1"  # the audit's own order, newest first, as before


@pytest.mark.parametrize("lang", LANGS)
def test_the_decisions_view_starts_with_the_decided_cases(app, store, settings, lang):
    start_refund(store, settings, "AUTO1", 90_000)  # at or below the threshold: settled automatically
    for case in ("WAIT1", "WAIT2"):
        start_refund(store, settings, case, 480_000)
    decisions = _audit_cases(_page(app, lang, **{"refund-audit-view": "decisions"}), lang)
    assert decisions == ["AUTO1", "WAIT2", "WAIT1"]  # decided first, then the rest newest first
    times = _audit_cases(_page(app, lang, **{"refund-audit-view": "times"}), lang)
    assert times == ["WAIT2", "WAIT1", "AUTO1"]


def test_the_audit_view_control_has_one_name_in_both_languages(app, store, settings):
    start_refund(store, settings, "C1", 480_000)
    labels = [_page(app, lang).segmented_control(key="refund-audit-view").label for lang in LANGS]
    assert labels == ["View", "보기"]  # "보기" is "view": not "Columns" in English
