"""Tests for dashboard.lecture_view and dashboard.agent_pages: the lecture page's tables and an agent page's picker."""

from __future__ import annotations

from unittest.mock import patch

from agents import lifecycle, runs
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from dashboard.agent_pages import linked_thread, picker_options
from dashboard.lecture_view import frame, log_rows, status_metrics


def log_row(node: str, label: str, started: float, ended: float | None, status: str = "ok") -> dict:
    return {"node": node, "label": label, "step": 1, "status": status, "started_at": started, "ended_at": ended}


def test_the_node_log_counts_from_its_first_start_and_names_a_reviewer_in_words():
    log = [log_row("research", "content", 100.0, 100.25), log_row("review_content", "content", 100.5, None)]
    with patch("dashboard.i18n.current_language", return_value="ko"):
        rows = log_rows(log)

    assert [(r["label"], r["start"], r["duration"]) for r in rows] == [("content", 0.0, 0.25), ("내용", 0.5, None)]


def test_a_table_has_translated_headers_and_its_codes_as_words():
    with patch("dashboard.i18n.current_language", return_value="ko"):
        table = frame([{"reviewer": "content", "status": "error", "score": 6}])

    assert table.to_dict("records") == [{"검토자": "내용", "상태": "오류", "점수": 6}]
    assert log_rows([]) == []


def test_a_long_picker_keeps_the_shown_thread_and_the_newest_others():
    ids = [f"t{n}" for n in range(5)]

    assert picker_options(ids, "t4", limit=5) == ids
    assert picker_options(ids, "t4", limit=2) == ["t4", "t0", "t1"]
    assert picker_options(ids, None, limit=2) == ["t0", "t1"]


def test_a_link_opens_the_agents_own_thread_and_names_any_other_id(store, settings):
    runs.start_run(store, settings, "robot", {}, thread_id="bot-1")
    runs.start_run(store, settings, "robot", {}, thread_id="bot-2")
    runs.start_run(store, settings, "lecture", dict(DEFAULT_LECTURE_INPUT), thread_id="lec-1")
    own = {x.thread_id: x for x in lifecycle.thread_statuses(store, agent="robot")}

    assert linked_thread(store, own, None) == (next(iter(own)), None)
    assert linked_thread(store, own, "bot-1") == ("bot-1", None)
    assert linked_thread(store, own, "lec-1") == (None, "lec-1")
    assert linked_thread(store, own, "no such/thread") == (None, "no such/thread")
    assert linked_thread(store, {}, None) == (None, None)


def test_the_status_row_names_the_outcome_in_words_and_the_counts_as_text():
    with patch("dashboard.i18n.current_language", return_value="ko"):
        row = status_metrics("done", {"outcome": "saved_as_is", "round": 1, "plan_version": 2})
        empty = status_metrics("waiting", {})

    assert row == [("상태", "완료"), ("결과", "그대로 저장됨"), ("초안 라운드", "1"), ("계획 버전", "2")]
    assert [value for _, value in empty] == ["대기 중", "—", "—", "—"]
