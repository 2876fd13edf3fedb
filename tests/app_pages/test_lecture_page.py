"""AppTest for the lecture planner's page: prefilled form, gate decision, rework, save, download."""

from __future__ import annotations

import json

from agents import runs
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from agents.nodelog import node_runs
from agents.runtime import load_settings
from tests.factories import thread_counts

PAGE = "app_pages/lecture.py"


def _button(at, label):
    for button in at.button:
        if button.label == label:
            return button
    raise AssertionError(f"no button {label}; have {[b.label for b in at.button]}")


def _messages(at, kind: str) -> str:
    return " ".join(element.value for element in getattr(at, kind))


def _thread(at) -> str:
    value = at.query_params["thread"]
    thread_id = value[0] if isinstance(value, list) else value
    assert thread_id.startswith("lecture-")
    return thread_id


def _start(at):
    _button(at, "Plan the lecture").click().run()
    assert not at.exception, at.exception
    return at


def test_the_form_is_prefilled_with_the_korean_example(app):
    at = app(PAGE)
    assert not at.exception
    for name, value in DEFAULT_LECTURE_INPUT.items():
        widget = (
            at.text_area(key=f"lecture-field-{name}")
            if name == "constraints"
            else at.text_input(key=f"lecture-field-{name}")
        )
        assert widget.value == value
    assert "Embedded offline model" in _messages(at, "caption")
    assert "Bundled corpus" in _messages(at, "caption")


def test_run_waits_at_the_gate_then_rework_passes_and_saves(app, store, settings):
    at = _start(app(PAGE))
    assert "round 1 scored 75, below the threshold 80" in _messages(at, "warning")
    progress = _messages(at, "text")  # the live progress box: one line per node call
    assert "research: 프롬프트 작성 기본 — ✓" in progress and "decide — ⏸ waiting for a human" in progress
    thread_id = _thread(at)
    assert len([r for r in node_runs(store, thread_id=thread_id) if r["node"] == "research"]) == 5
    assert at.radio(key=f"lecture-action-{thread_id}").options == [
        "rework: revise the flagged items",
        "edit the plan: the subtopics below, research the new ones, then rework",
        "save as is",
        "reject (the run ends)",
    ]
    assert len(at.get("download_button")) == 1
    at.radio(key=f"lecture-action-{thread_id}").set_value("rework")
    at.text_area(key=f"lecture-notes-{thread_id}").input("점심 이후 실습을 늘려 주세요")
    _button(at, "Send decision").click().run()
    assert not at.exception, at.exception
    assert "Sent rework: done · saved." in _messages(at, "success")
    assert "saved" in [m.value for m in at.metric]
    assert "Saved: the draft passed the gate." in _messages(at, "caption")
    assert len(at.get("download_button")) == 1
    assert any("점심 이후 실습을 늘려 주세요" in m.value for m in at.markdown)
    assert runs.current_result(store, settings, thread_id).values["outcome"] == "saved"


def test_save_as_is_from_the_gate(app, store):
    at = _start(app(PAGE))
    thread_id = _thread(at)
    at.radio(key=f"lecture-action-{thread_id}").set_value("save")
    _button(at, "Send decision").click().run()
    assert not at.exception, at.exception
    assert "saved as is" in [m.value for m in at.metric]
    assert "Saved to" in _messages(at, "caption")


def test_a_reject_from_the_gate_keeps_its_notes_as_the_reason(app, store, settings):
    at = _start(app(PAGE))
    thread_id = _thread(at)
    at.radio(key=f"lecture-action-{thread_id}").set_value("reject")
    at.text_area(key=f"lecture-notes-{thread_id}").input("청중과 **맞지** 않음")
    _button(at, "Send decision").click().run()
    assert not at.exception, at.exception
    assert "rejected" in [m.value for m in at.metric]
    assert "Reason: 청중과 \\*\\*맞지\\*\\* 않음" in _messages(at, "caption")  # as text, not Markdown
    assert runs.current_result(store, settings, thread_id).values["reject_reason"] == "청중과 **맞지** 않음"


def test_bad_input_shows_a_message_and_starts_nothing(app, store):
    at = app(PAGE)
    at.text_input(key="lecture-field-topic").input("   ")
    _button(at, "Plan the lecture").click().run()
    assert not at.exception
    assert "Nothing was started: Topic: is empty" in _messages(at, "error")
    assert not node_runs(store)


def test_a_thread_opens_from_the_query_parameter(app, store, settings):
    result = runs.start_run(store, settings, "lecture", dict(DEFAULT_LECTURE_INPUT), thread_id="lecture-q1")
    runs.resume_thread(store, settings, result.thread_id, "reject")
    at = app(PAGE)
    at.query_params["thread"] = "lecture-q1"
    at.run()
    assert not at.exception
    assert "rejected" in [m.value for m in at.metric]
    assert "lecture-q1" in [box.value for box in at.selectbox]


def test_the_queue_leaves_out_the_thread_shown_even_without_a_link(app, store, settings):
    for name in ("lecture-a", "lecture-b"):  # both wait at the gate (the first draft scores 75)
        assert (
            runs.start_run(store, settings, "lecture", dict(DEFAULT_LECTURE_INPUT), thread_id=name).status == "waiting"
        )
    at = app(PAGE)  # no ?thread=: the newest thread is shown
    assert not at.exception
    at.session_state["lecture-queue-open"] = True  # the queue's expander opened
    at.run()
    queued = [cell for frame in at.dataframe for cell in frame.value.get("thread", [])]
    assert queued == ["lecture-a"]


def test_a_plan_edit_the_plan_cannot_take_is_refused_on_the_page_and_writes_nothing(app, store, monkeypatch):
    monkeypatch.setenv("HITL_PLAN_REVIEW", "on")
    settings = load_settings(db_override=str(store.path), secrets={})
    runs.start_run(store, settings, "lecture", dict(DEFAULT_LECTURE_INPUT), thread_id="lecture-r1")
    before = thread_counts(store, "lecture-r1")
    at = app(PAGE)
    at.query_params["thread"] = "lecture-r1"
    at.run()
    at.text_area(key="lecture-plan-edit-lecture-r1").input(json.dumps([{"id": "s9", "title": "A"}, "B", "C"]))
    _button(at, "Apply the edit").click().run()
    assert not at.exception, at.exception
    assert "Subtopics: no subtopic 's9' in the plan" in _messages(at, "error")  # the field by its label
    assert thread_counts(store, "lecture-r1") == before  # refused before anything is written
    assert "error" not in runs.current_result(store, settings, "lecture-r1").interrupts[0]
