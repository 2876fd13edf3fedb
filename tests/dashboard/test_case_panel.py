"""What a case panel shows of a case, decided without Streamlit: the parts each status calls for, the case a
link selects, the picker's options, the asking node's entries and the summary above the buttons."""

from __future__ import annotations

import pytest

from agents.errors import InputError
from dashboard.case_panel import (
    SUMMARY_REASON_CHARS,
    CaseParts,
    asking_node_entries,
    case_parts,
    case_summary,
    picker_choices,
    reason_toggle,
    selected_case,
)


@pytest.mark.parametrize(
    ("status", "stale", "action", "why_not", "parts"),
    [
        ("waiting", False, "decide", None, CaseParts("waiting", controls=True)),
        ("done", True, "", None, CaseParts("moved_on", controls=True)),
        ("running", True, "wait", None, CaseParts("moved_on", controls=True)),
        ("attention", False, "continue", None, CaseParts("attention", attention="continue")),
        ("attention", False, "continue", "viewers cannot", CaseParts("attention", attention="cannot_continue")),
        ("attention", False, "rerun", "viewers cannot", CaseParts("attention", attention="explorer")),
        ("attention", False, "inspect", None, CaseParts("attention")),
        ("running", False, "wait", None, CaseParts("running")),
        ("done", False, "", None, CaseParts("done")),
    ],
)
def test_each_status_calls_for_its_parts(status, stale, action, why_not, parts):
    assert case_parts(status, stale, action, why_not) == parts


def _refuse(thread_id: str) -> str:
    raise InputError("thread", f"not a thread id: {thread_id}")


def test_a_link_selects_its_case_the_first_option_without_one_and_names_an_unknown_one():
    cases, options = {"refund-a", "refund-b"}, ["refund-b", "refund-a"]
    assert selected_case("refund-a", cases, options, _refuse) == ("refund-a", None)
    assert selected_case(None, cases, options, _refuse) == ("refund-b", None)
    assert selected_case(None, set(), [], _refuse) == (None, None)
    assert selected_case("refund-z", cases, options, lambda tid: tid) == (None, "refund-z")
    assert selected_case("bad id", cases, options, _refuse) == (None, "bad id")
    assert selected_case("refund-a ", cases, options, str.strip) == ("refund-a", None)  # a look-alike resolved


def test_the_picker_keeps_the_selected_case_first_and_at_most_the_limit_of_matches():
    texts = {"a": "Kim paid", "b": "kim waiting", "c": "Lee", "d": "KIM"}
    assert picker_choices(list(texts), "c", texts.__getitem__, "  kim ", 2) == (["c", "a", "b"], 3)
    assert picker_choices(list(texts), None, texts.__getitem__, "lee", 5) == (["c"], 1)
    assert picker_choices(list(texts), "a", _refuse, "", 2) == (["a", "b", "c"], 4)  # no query: no texts read


def test_the_asking_nodes_that_ran_are_listed_in_order_else_the_first_with_none():
    rows = [
        {"node": "item", "status": "interrupted"},
        {"node": "settle", "status": "ok"},
        {"node": "item", "status": "ok"},
    ]
    assert asking_node_entries(rows, ("review", "item")) == [("item", ["interrupted", "ok"])]
    assert asking_node_entries([], ("review", "item")) == [("review", [])]


def test_the_summary_cuts_a_long_reason_and_folds_its_white_space():
    long = "x" * (SUMMARY_REASON_CHARS + 40)
    said = case_summary({"customer": "Kim", "requested_amount": 1_000, "reason": f"a\n  b {long}"})
    assert "Kim" in said and "1,000 KRW" in said and "a b x" in said
    assert "x" * SUMMARY_REASON_CHARS not in said and "…" in said
    assert case_summary({}).count("—") >= 2


def test_a_long_reason_shown_whole_is_the_whole_reason_once_in_the_summary():
    long = "the box came crushed " * 12
    values = {"customer": "Kim", "requested_amount": 1_000, "reason": f"{long}\n end"}
    whole = case_summary(values, whole_reason=True)
    assert whole.endswith(f"{long.strip()} end") and "…" not in whole and whole.count("the box came crushed") == 12
    assert reason_toggle("waiting", values) == f"Show the whole reason ({len(long.strip()) + 4:,} characters)"


def test_only_a_waiting_case_whose_reason_is_cut_has_a_switch_to_show_it_whole():
    long, short = {"reason": "x" * (SUMMARY_REASON_CHARS + 1)}, {"reason": "x" * SUMMARY_REASON_CHARS}
    assert reason_toggle("waiting", short) is None  # said whole already
    assert case_summary(short) == case_summary(short, whole_reason=True)
    assert reason_toggle("done", long) is None and reason_toggle("moved_on", long) is None
