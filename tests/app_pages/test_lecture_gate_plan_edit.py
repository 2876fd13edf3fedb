"""The lecture gate's form offers what its question asks for: rework, edit the plan, save or reject. An edit of
the plan from the page is the answer the CLI's and the API's raw value is, sent through the same write path
(``agents.runs.resume_thread``), so it passes the same checks: an edit the plan cannot take is refused with a
message naming the field, and nothing is written."""

from __future__ import annotations

import importlib
import json
import pkgutil
from pathlib import Path
from unittest.mock import patch

import pytest
from streamlit.testing.v1 import AppTest

import app_pages
import dashboard
from agents import runs
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from agents.nodelog import node_runs
from dashboard.navigation import pages
from tests.conftest import APP_FILE
from tests.factories import messages, thread_counts

PAGE = "app_pages/lecture.py"
THREAD = "lecture-e1"
EDITOR = f"lecture-gate-plan-{THREAD}-v1"  # the gate's plan editor, of plan version 1
ACTION = f"lecture-action-{THREAD}"
SEND = {"en": "Send decision", "ko": "결정 보내기"}
#: A new subtopic, in place of the plan's last one.
NEW = {"title": "마무리 실습: 나만의 프롬프트", "description": "배운 기법으로 자기 업무 프롬프트를 고친다"}


def _gate(store, settings, thread: str = THREAD) -> list[dict]:
    """Starts a run that waits at the gate (the first draft scores 75); its plan as the editor shows it."""
    result = runs.start_run(store, settings, "lecture", dict(DEFAULT_LECTURE_INPUT), thread_id=thread)
    assert result.status == "waiting" and result.interrupts[0]["stage"] == "gate"
    return [{key: s[key] for key in ("id", "title", "description")} for s in result.values["subtopics"]]


def _page(lang: str = "en") -> AppTest:
    test = AppTest.from_file(APP_FILE, default_timeout=60)
    test.query_params["lang"] = lang
    test.query_params["thread"] = THREAD
    test.run()
    test.switch_page(PAGE)
    test.run()
    assert not test.exception, test.exception
    return test


def _send(at: AppTest, lang: str, edited: object, notes: str = "") -> None:
    """Chooses "edit the plan" with the plan ``edited`` (JSON text, or a list made JSON) and sends it.

    AppTest labels a radio's value with its ``format_func`` in the test's thread, which has no session and so
    no language: there the page's language is patched in, once every module that imports it was imported.
    """
    for package in (app_pages, dashboard):
        scripts = {Path(page.path).stem for page in pages()}
        for module in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            if not (module.name.startswith("app_pages.") and module.name.split(".")[1] in scripts):
                importlib.import_module(module.name)  # a page script runs on import; AppTest runs it
    typed = edited if isinstance(edited, str) else json.dumps(edited, ensure_ascii=False)
    with patch("dashboard.i18n.current_language", return_value=lang):
        at.radio(key=ACTION).set_value("edit_plan")
        at.text_area(key=f"lecture-notes-{THREAD}").input(notes)
        at.text_area(key=EDITOR).input(typed)
        next(button for button in at.button if button.label == SEND[lang]).click().run()
    assert not at.exception, at.exception


def test_the_gate_form_offers_edit_the_plan_in_the_order_the_question_asks(store, settings):
    plan = _gate(store, settings)
    at = _page()
    assert at.radio(key=ACTION).options == [
        "rework: revise the flagged items",
        "edit the plan: the subtopics below, research the new ones, then rework",
        "save as is",
        "reject (the run ends)",
    ]
    assert json.loads(at.text_area(key=EDITOR).value) == plan  # the thread's plan: the gate's question has none
    question = runs.current_result(store, settings, THREAD).interrupts[0]["question"]
    assert "edit the plan" in question  # what the form offers is what the question asks


def test_an_edit_of_the_plan_from_the_gate_form_is_the_cli_s_edit(store, settings, run_cli):
    plan = _gate(store, settings)
    _gate(store, settings, "lecture-cli")
    edited = [*plan[:-1], NEW]  # the last subtopic out, a new one in
    at = _page()
    _send(at, "en", edited, notes="실습 위주로")
    assert "Sent edit_plan: " in messages(at)

    raw = json.dumps({"action": "edit_plan", "subtopics": edited, "notes": "실습 위주로"}, ensure_ascii=False)
    assert run_cli("resume", "lecture-cli", raw).code == 0  # the same answer as the CLI's raw value
    page, cli = (runs.current_result(store, settings, thread) for thread in (THREAD, "lecture-cli"))
    assert page.status == cli.status
    for key in ("subtopics", "plan_version", "round", "reworks", "human_notes", "decision"):
        assert page.values[key] == cli.values[key], key
    assert page.values["plan_version"] == 2 and page.values["human_notes"] == "실습 위주로"
    assert [s["title"] for s in page.values["subtopics"]] == [s["title"] for s in plan[:-1]] + [NEW["title"]]
    researched = [run["label"] for run in node_runs(store, thread_id=THREAD) if run["node"] == "research"]
    assert len(researched) == len(plan) + 1 and researched[-1] == NEW["title"]  # only the new one researched


def _renamed(plan: list[dict]) -> list[dict]:
    return [{**plan[0], "title": "다른 제목"}, *plan[1:]]


#: What the page says first of an answer it refused, in each language.
REFUSED = {"en": "Nothing was done: Subtopics: ", "ko": "아무것도 실행하지 않았습니다: 세부 주제: "}
RESEARCHED = {
    "en": "subtopic s1 ('생성형 AI 핵심 개념과 용어') was already researched; its definition cannot change under the"
    " same id.",
    "ko": "세부 주제 s1('생성형 AI 핵심 개념과 용어')의 조사가 이미 끝났습니다. 같은 id로는 정의를 바꿀 수 없습니다.",
}


@pytest.mark.parametrize(
    ("lang", "edit", "said"),
    [
        (
            "en",
            lambda plan: "[{",
            "is not valid JSON (Expecting property name enclosed in double quotes at position 2)",
        ),
        ("en", lambda plan: plan, "the edit changes nothing"),
        ("en", _renamed, RESEARCHED["en"]),
        ("ko", _renamed, RESEARCHED["ko"]),
    ],
    ids=["not-json", "unchanged", "researched-renamed", "researched-renamed-ko"],
)
def test_an_edit_the_plan_cannot_take_is_refused_on_the_form_and_writes_nothing(
    store, settings, run_cli, lang, edit, said
):
    plan = _gate(store, settings)
    before = thread_counts(store, THREAD)
    at = _page(lang)
    edited = edit(plan)
    _send(at, lang, edited)
    shown = " ".join(error.value for error in at.error).replace("\\", "")
    assert REFUSED[lang] + said in shown, shown  # the field by the label the page shows
    assert thread_counts(store, THREAD) == before  # refused before anything is written
    result = runs.current_result(store, settings, THREAD)
    assert result.status == "waiting" and "error" not in result.interrupts[0]
    assert [s["title"] for s in result.values["subtopics"]] == [s["title"] for s in plan]
    if not isinstance(edited, str):  # the CLI's raw value of the same edit: refused by the same rule
        raw = json.dumps({"action": "edit_plan", "subtopics": edited}, ensure_ascii=False)
        refused = run_cli("--lang", lang, "resume", THREAD, raw)
        assert refused.code == 2 and said in refused.err, refused.err
        assert thread_counts(store, THREAD) == before
