"""The navigation counts what is overdue beside each page's name (home: every agent's), from the
inbox and the deadlines, with the clock as a parameter."""

from __future__ import annotations

import datetime as dt

from agents import lifecycle
from dashboard.navigation import nav_title, overdue_counts
from tests.factories import pause_robot, start_refund


def test_overdue_counts_per_page_and_in_total(store, settings):
    for index in range(5):
        start_refund(store, settings, f"N{index}")
    pause_robot(store, settings, "robot-late")
    items = lifecycle.inbox(store)
    refunds = [item for item in items if item.agent == "refund"]
    first, fourth = refunds[2].waiting_since, refunds[3].waiting_since
    assert first is not None and fourth is not None and first < fourth
    now = first + (fourth - first) / 2 + dt.timedelta(hours=24)  # the three oldest refunds are past 24 h
    counts = overdue_counts(items, {"refund": 24 * 3600, "robot": 3600}, now)
    assert (counts["refund"], counts["robot"], counts["home"]) == (3, 1, 4)
    assert counts["lecture"] == 0 and counts["explorer"] == 0
    assert overdue_counts(items, {}, now) == {}  # no deadline: nothing is overdue


def test_a_page_name_carries_its_count_only_when_it_has_one():
    assert nav_title("Refund", 3, "3 overdue") == "Refund · 3 overdue"
    assert nav_title("환불", 3, "3건 기한 지남") == "환불 · 3건 기한 지남"
    assert nav_title("Refund", 0, "0 overdue") == "Refund"
