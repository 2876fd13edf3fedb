"""Tests for dashboard.timeline_view: why a run is shown, and that a draw reads each run once, only as far as drawn."""

from __future__ import annotations

from typing import Any

import pytest

from agents import nodelog, run_index
from agents.run_index import RunEntry
from dashboard import timeline_view
from dashboard.timeline_view import ALL_RUNS, compare_side, read_timeline, shown_why
from tests.factories import node_log_row

NO_STORE: Any = None  # the node log is read through the patched reader


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The node-log reads made, each answered with two calls of run-1."""
    made: list[dict[str, Any]] = []

    def node_runs(store: object, **where: Any) -> list[dict[str, Any]]:
        made.append(where)
        return [node_log_row(1, "plan", 0.0, 1.0), node_log_row(2, "write", 1.0, 2.0, step=2)]

    monkeypatch.setattr(nodelog, "node_runs", node_runs)
    return made


def test_the_view_says_why_it_shows_its_run():
    parallel, latest = RunEntry("t", "r1", 0.0, 3, parallel=True), RunEntry("t", "r2", 0.0, 1)

    assert shown_why(ALL_RUNS, parallel) == "Shown: every run of the thread."
    assert "parallel" in shown_why("r1", parallel)
    assert "latest" in shown_why("r2", latest)
    assert shown_why("r2", parallel) == shown_why("r2", None) == "Shown: run r2, as picked."


def test_a_run_is_read_once_per_draw_and_all_runs_reads_the_whole_thread(reads):
    resolved: timeline_view.Resolved = {}

    first = read_timeline(NO_STORE, resolved, "t", "run-1")
    assert read_timeline(NO_STORE, resolved, "t", "run-1") is first
    read_timeline(NO_STORE, resolved, "t", ALL_RUNS)

    assert reads == [{"thread_id": "t", "run_id": "run-1"}, {"thread_id": "t"}]
    assert len(first.calls) == 2


def test_a_compared_run_read_above_is_not_read_again_and_a_short_one_is_read_whole(reads, monkeypatch):
    monkeypatch.setattr(run_index, "run_tail", lambda *args: pytest.fail("a short run is read whole"))
    resolved: timeline_view.Resolved = {}
    shown = read_timeline(NO_STORE, resolved, "t", "run-1")

    assert compare_side(NO_STORE, resolved, RunEntry("t", "run-1", 0.0, 5000), 10) == (shown, shown, None)
    drawn, summary, origin = compare_side(NO_STORE, resolved, RunEntry("u", "run-1", 0.0, 2), 10)
    assert drawn is summary and origin is None
    assert reads == [{"thread_id": "t", "run_id": "run-1"}, {"thread_id": "u", "run_id": "run-1"}]


def _more_twice() -> None:
    """The comparison's "more runs" click handed to two runs before the button is drawn again."""
    import streamlit as st

    from dashboard import timeline_view

    for _ in range(2):
        timeline_view.show_more("robot", timeline_view.COMPARE_PAGE)
    st.text(st.session_state[f"{timeline_view.LIMIT_KEY}-robot"])


def test_a_more_runs_click_handed_to_two_runs_lists_one_page_more():
    from streamlit.testing.v1 import AppTest

    from dashboard.timeline_view import COMPARE_PAGE

    at = AppTest.from_function(_more_twice).run()
    assert not at.exception, at.exception
    assert at.text[0].value == str(2 * COMPARE_PAGE)


def test_a_runs_option_counts_its_calls_in_words_that_fit_the_number():
    labels = timeline_view.run_labels([RunEntry("t", "r1", 0.0, 1), RunEntry("t", "r2", 0.0, 7)])
    assert labels["r1"].endswith(" · 1 call") and labels["r2"].endswith(" · 7 calls")
