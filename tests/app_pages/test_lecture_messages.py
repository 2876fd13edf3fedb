"""The lecture page's messages: in the page's language, each said once, a field named by the label the page shows."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator
from pathlib import Path
from unittest.mock import patch

import pytest
from streamlit.testing.v1 import AppTest

import app_pages
import dashboard
from agents import lifecycle, runs
from agents.lecture import graph as lecture_graph
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from agents.nodelog import node_runs
from dashboard.navigation import pages
from tests.conftest import APP_FILE
from tests.factories import messages

PAGE = "app_pages/lecture.py"
LANGS = pytest.mark.parametrize("lang", ["en", "ko"])
START = {"en": "Plan the lecture", "ko": "강의 계획 시작"}


@pytest.fixture(autouse=True)
def _labels_in_the_pages_language(request: pytest.FixtureRequest) -> Iterator[None]:
    """AppTest labels a selectbox's value with its ``format_func`` in the test's own thread, which has no
    session and so no language: there the language is the test's too (Korean unless the test names one).

    Every module that imports ``current_language`` is imported first: one imported while it is patched
    would keep the stand-in for the rest of the test session.
    """
    scripts = {Path(page.path).stem for page in pages()}
    for package in (app_pages, dashboard):
        for module in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            if module.name.startswith("app_pages.") and module.name.split(".")[1] in scripts:
                continue  # a page script runs on import; AppTest runs it
            importlib.import_module(module.name)
    params = getattr(request.node, "callspec", None)
    lang = params.params.get("lang", "ko") if params is not None else "ko"
    with patch("dashboard.i18n.current_language", return_value=lang):
        yield


def _page(lang: str, thread: str | None = None) -> AppTest:
    test = AppTest.from_file(APP_FILE, default_timeout=60)
    test.query_params["lang"] = lang  # a link in that language: every widget is drawn in it from the start
    if thread is not None:
        test.query_params["thread"] = thread
    test.run()
    test.switch_page(PAGE)
    test.run()
    return test


def _start(at: AppTest, lang: str) -> None:
    next(b for b in at.button if b.label == START[lang]).click().run()
    assert not at.exception, at.exception


def _shown(at: AppTest) -> str:
    """The page's messages as read: Markdown's escapes (the page shows typed text as text) taken out."""
    return messages(at).replace("\\", "")


def _status_labels(at: AppTest) -> list[str]:
    return [box.label for box in at.status]


@LANGS
def test_a_duration_no_lecture_has_is_refused_naming_the_field_and_starts_nothing(store, lang):
    at = _page(lang)
    at.text_input(key="lecture-field-duration").input("1000000000000000000000일")
    _start(at, lang)
    expected = {
        "en": "Nothing was started: Duration: reads as 1,000,000,000,000,000,000,000 teaching days of 8 hours; "
        "a lecture plan covers at most 30 days",
        "ko": "시작하지 않았습니다: 기간: 하루 8시간 기준 수업일 1,000,000,000,000,000,000,000일로 읽힙니다. "
        "강의 계획은 최대 30일까지 다룹니다",
    }[lang]
    assert expected in _shown(at)
    assert not node_runs(store) and not lifecycle.inbox(store)
    assert _status_labels(at) == [
        {"en": "Not accepted: nothing was changed", "ko": "받아들여지지 않음: 아무것도 바뀌지 않았습니다"}[lang]
    ]


@LANGS
def test_a_too_short_duration_is_refused_on_the_page(store, lang):
    at = _page(lang)
    at.text_input(key="lecture-field-duration").input("1분")
    _start(at, lang)
    label = {"en": "Duration: reads as 1 min of teaching", "ko": "기간: 수업 시간이 1분으로 읽힙니다"}[lang]
    assert label in _shown(at)
    assert not node_runs(store)


@LANGS
def test_a_thread_id_taken_is_named_by_its_label_and_nothing_ran(store, settings, lang):
    runs.start_run(store, settings, "lecture", dict(DEFAULT_LECTURE_INPUT), thread_id="cli-1")
    before = len(node_runs(store))
    at = _page(lang)
    at.text_input(key="lecture-thread-id").input("cli-1")
    _start(at, lang)
    expected = {
        "en": "Nothing was started: Thread id (optional): thread 'cli-1' already exists; pick another id",
        "ko": "시작하지 않았습니다: 스레드 ID (선택): 스레드 'cli-1'이 이미 있습니다. 다른 id를 고르세요",
    }[lang]
    assert expected in _shown(at)
    assert "thread_id:" not in _shown(at)  # never the field's code
    assert not any(label in ("The run failed", "실행 실패") for label in _status_labels(at))
    assert len(node_runs(store)) == before


def test_a_failed_run_is_said_once_in_korean(store, monkeypatch):
    def fails(*args, **kwargs):
        raise OverflowError("cannot convert float infinity to integer")

    monkeypatch.setattr(lecture_graph, "write_draft", fails)
    at = _page("ko")
    at.text_input(key="lecture-thread-id").input("ovf-ko")
    _start(at, "ko")
    shown = " ".join(e.value for e in at.error).replace("\\", "")
    assert "스레드 'ovf-ko'에서 단계 하나가 실패했습니다(OverflowError: " in shown
    assert shown.count("실패했습니다") == 1 and shown.count("대기 목록에 있습니다") == 1
    assert "What finished" not in shown and "a step failed" not in shown
    assert _status_labels(at) == ["실행 실패"]
    assert lifecycle.thread_status(store, "ovf-ko").status == "attention"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("maybe", "조치: rework, edit_plan, save, reject, approve 중 하나여야 합니다. 입력값: 'maybe'"),
        (
            '{"action": "edit_plan", "subtopics": ["A"]}',
            "세부 주제: 계획의 세부 주제는 3~5개입니다. 수정안에는 1개가 있습니다",
        ),
        ('{"action": "save", "notes": "x"}', "메모는 rework, edit_plan, reject(거절 사유)에만 붙일 수 있습니다"),
    ],
)
def test_a_raw_answer_is_refused_in_korean(store, settings, raw, expected):
    runs.start_run(store, settings, "lecture", dict(DEFAULT_LECTURE_INPUT), thread_id="lecture-raw", lang="ko")
    head = runs.current_result(store, settings, "lecture-raw").head_checkpoint_id
    at = _page("ko", "lecture-raw")
    at.sidebar.toggle(key="resume-raw-lecture-raw").set_value(True).run()
    at.sidebar.text_area(key="resume-rawvalue-lecture-raw").input(raw)
    at.sidebar.button[0].click().run()
    assert not at.exception, at.exception
    shown = _shown(at)
    assert expected in shown, shown
    assert "must be one of" not in shown and "a plan has" not in shown and "notes go with" not in shown
    assert runs.current_result(store, settings, "lecture-raw").head_checkpoint_id == head
