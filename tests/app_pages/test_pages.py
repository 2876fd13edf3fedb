"""AppTest for the frame, the home page, the robot page and the sidebar forms."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from agents import readmodel, runs
from dashboard.navigation import pages
from tests.conftest import APP_FILE
from tests.factories import pause_robot, table_cells


def _button(at, label=None, key=None):
    for button in at.button:
        if (label is None or button.label == label) and (key is None or button.key == key):
            return button
    raise AssertionError(f"no button {label or key}; have {[b.label for b in at.button]}")


def _sidebar_text(at):
    """Messages anywhere on the page (a success is shown on the next run, in the main area)."""
    return " ".join(e.value for e in [*at.error, *at.success, *at.sidebar.caption])


@pytest.mark.parametrize("page", [p.path for p in pages()])
def test_every_page_runs_without_exception(app, page):
    at = app(page)
    assert not at.exception, at.exception


def test_home_lists_the_inbox_and_threads(app, store, settings):
    runs.start_run(store, settings, "robot", {})
    at = app()
    assert "1 waiting" in [c.value for c in at.caption]
    cells = table_cells(at)
    assert "Execute this? (yes/no)" in cells and "hitl_demo" in cells
    assert "robot?thread=hitl_demo" in cells  # the link column opens it on its page


@pytest.mark.parametrize(("name", "value"), [("HITL_REFUND_POLICY", "lenient"), ("HITL_GATE_THRESHOLD", "101")])
def test_a_bad_setting_stops_the_frame_with_the_setting_named(app, monkeypatch, name, value):
    monkeypatch.setenv(name, value)
    at = app()
    assert not at.exception
    assert [e.value for e in at.error] == [at.error[0].value] and name in at.error[0].value
    assert at.error[0].value.startswith("A setting cannot be used:")
    assert not at.markdown  # nothing of the page was drawn


def test_a_bad_setting_is_said_in_the_pages_language(monkeypatch):
    monkeypatch.setenv("HITL_NOTIFY_TO", "nobody")
    at = AppTest.from_file(APP_FILE, default_timeout=60)
    at.query_params["lang"] = "ko"
    at.run()
    assert [e.value for e in at.error] == [
        "설정값을 사용할 수 없습니다: HITL_NOTIFY_TO: 'nobody'는 이메일 주소가 아닙니다"
    ]


def test_home_with_an_empty_database(app):
    at = app()
    assert [i.value for i in at.info] == ["Nothing is waiting for a human and nothing needs attention."]


def test_robot_start_over_yes_and_counts(app):
    at = app("app_pages/robot.py")
    _button(at, "Start over").click().run()
    assert "checkpoints: 3 · writes: 5" in [m.value for m in at.markdown]
    assert any("**Question:** Execute this? (yes/no)" in w.value for w in at.warning)  # in the waiting notice
    _button(at, key="robot-yes").click().run()
    assert "checkpoints: 5 · writes: 10" in [m.value for m in at.markdown]
    assert any(x.value.startswith("Executed") for x in at.text)


def test_robot_start_over_after_another_tabs_answer_is_refused_and_deletes_nothing(app, store, settings):
    pause_robot(store, settings)
    at = app("app_pages/robot.py")  # this tab shows the question
    runs.resume_thread(store, settings, "hitl_demo", "yes")  # another tab answers it
    head = readmodel.head_checkpoint_id(store, "hitl_demo")
    _button(at, "Start over").click().run()
    _button(at, key="robot-start-over-delete").click().run()
    assert not at.exception
    [stale] = [e.value for e in at.error if "changed since this form was drawn" in e.value]
    assert stale.lower().count("nothing was done") == 1, stale  # said once, by the refusal's own words
    assert readmodel.head_checkpoint_id(store, "hitl_demo") == head
    assert runs.current_result(store, settings, "hitl_demo").outcome == "executed"
    # The page now shows the answer and asks again: starting over is this tab's to do.
    _button(at, key="robot-start-over-delete").click().run()
    assert readmodel.head_checkpoint_id(store, "hitl_demo") != head
    assert runs.current_result(store, settings, "hitl_demo").status == "waiting"


@pytest.mark.parametrize(
    ("lang", "start_over", "keep", "delete", "asked"),
    [
        ("en", "Start over", "Keep the thread", "Delete and start over", "deletes thread `hitl_demo`"),
        ("ko", "처음부터 다시", "스레드 유지", "삭제하고 다시 시작", "스레드 `hitl_demo`와 그 안의 모든 체크포인트"),
    ],
)
def test_robot_start_over_deletes_a_saved_thread_only_once_confirmed(
    app, store, settings, lang, start_over, keep, delete, asked
):
    pause_robot(store, settings)
    head = readmodel.head_checkpoint_id(store, "hitl_demo")
    at = app("app_pages/robot.py")
    at.selectbox(key="lang").select(lang).run()
    _button(at, start_over).click().run()
    assert readmodel.head_checkpoint_id(store, "hitl_demo") == head  # one click deletes nothing
    assert any(asked in w.value for w in at.warning), [w.value for w in at.warning]
    assert start_over not in [b.label for b in at.button]  # the question replaces the button until answered
    _button(at, keep).click().run()
    assert readmodel.head_checkpoint_id(store, "hitl_demo") == head
    assert not any(asked in w.value for w in at.warning)
    _button(at, start_over).click().run()
    _button(at, delete).click().run()
    assert not at.exception
    assert readmodel.head_checkpoint_id(store, "hitl_demo") != head
    assert runs.current_result(store, settings, "hitl_demo").status == "waiting"
    assert [b.label for b in at.button].count(start_over) == 1


def test_robot_free_answer_shows_the_rule_and_refuses(app):
    at = app("app_pages/robot.py")
    _button(at, "Start over").click().run()
    at.text_input(key="robot-free-text").input("Yes").run()
    assert any("not exactly `yes`" in c.value for c in at.caption)
    _button(at, key="robot-send").click().run()
    assert any(x.value.startswith("Refused") for x in at.text)


def test_language_switch_changes_labels(app):
    at = app("app_pages/robot.py")
    at.selectbox(key="lang").select("ko").run()
    assert any(b.label == "처음부터 다시" for b in at.button)


def test_the_language_lives_in_the_url(app, store, settings):
    pause_robot(store, settings)
    at = app()
    assert at.query_params.get("lang") in ("en", ["en"])  # written on the first run
    at.selectbox(key="lang").select("ko").run()
    assert at.query_params.get("lang") in ("ko", ["ko"])
    assert [h.value for h in at.header][0] == "대기 목록: 사람이 처리할 모든 항목"
    # The inbox's links open their tab in Korean too.
    assert "robot?thread=hitl_demo&lang=ko" in table_cells(at)


def test_a_link_or_reload_with_lang_opens_in_that_language_and_a_bad_one_is_ignored(store, settings):
    pause_robot(store, settings)
    korean = AppTest.from_file(APP_FILE, default_timeout=60)
    korean.query_params["lang"] = "ko"
    korean.run()
    assert not korean.exception and korean.selectbox(key="lang").value == "ko"
    english = AppTest.from_file(APP_FILE, default_timeout=60)
    english.query_params["lang"] = "fr"
    english.run()
    assert not english.exception and english.selectbox(key="lang").value == "en"
    # The switch's own choice is not undone by the URL it wrote before.
    korean.selectbox(key="lang").select("en").run()
    assert korean.selectbox(key="lang").value == "en"
    korean.run()
    assert korean.selectbox(key="lang").value == "en"


def test_resume_form_in_sidebar(app, store, settings):
    runs.start_run(store, settings, "robot", {})
    at = app("app_pages/robot.py")
    at.sidebar.text_input(key="resume-answer-hitl_demo").input("yes")
    at.sidebar.button[0].click().run()  # the resume form's submit
    assert not at.exception
    assert "Resumed thread hitl_demo: done · executed." in _sidebar_text(at)
    assert runs.current_result(store, settings, "hitl_demo").status == "done"


def test_resume_form_refuses_a_stale_form(app, store, settings):
    runs.start_run(store, settings, "robot", {})
    at = app("app_pages/robot.py")
    runs.resume_thread(store, settings, "hitl_demo", "no")  # another tab answers first
    at.sidebar.text_input(key="resume-answer-hitl_demo").input("yes")
    at.sidebar.button[0].click().run()
    assert "changed since this form was drawn" in _sidebar_text(at)
    assert runs.current_result(store, settings, "hitl_demo").values["decision"] == "no"


def test_resume_form_refuses_bad_input(app, store, settings):
    runs.start_run(store, settings, "robot", {})
    at = app("app_pages/robot.py")
    at.sidebar.button[0].click().run()  # empty answer
    assert "Answer: is required" in _sidebar_text(at)
    assert runs.current_result(store, settings, "hitl_demo").status == "waiting"


def test_update_form_typed_and_raw(app, store, settings):
    runs.start_run(store, settings, "robot", {})
    at = app("app_pages/robot.py")
    at.sidebar.text_input(key="update-decision-hitl_demo").input("yes")
    at.sidebar.selectbox(key="update-asnode-hitl_demo").select("approval")
    at.sidebar.button[1].click().run()
    assert "Updated thread hitl_demo" in _sidebar_text(at)
    assert runs.current_result(store, settings, "hitl_demo").next == ("execute",)
    at.sidebar.toggle(key="update-raw-hitl_demo").set_value(True).run()  # the raw text shows in raw mode only
    at.sidebar.text_area(key="update-rawvalue-hitl_demo").input('{"colour": "red"}')
    # By its label: the thread now needs "continue", and the continue button comes first.
    next(button for button in at.sidebar.button if button.label == "Update state").click().run()
    assert "colour: is not a state key" in _sidebar_text(at)


def test_update_form_refuses_a_stale_form(app, store, settings):
    runs.start_run(store, settings, "robot", {})
    at = app("app_pages/robot.py")
    runs.update_thread(store, settings, "hitl_demo", {"decision": "no"})
    head = readmodel.head_checkpoint_id(store, "hitl_demo")
    at.sidebar.text_input(key="update-decision-hitl_demo").input("yes")
    at.sidebar.button[1].click().run()
    assert "changed since this form was drawn" in _sidebar_text(at)
    assert readmodel.head_checkpoint_id(store, "hitl_demo") == head


def test_delete_form_needs_the_typed_thread_id(app, store, settings):
    runs.start_run(store, settings, "robot", {})
    at = app("app_pages/robot.py")
    at.sidebar.text_input(key="delete-confirm-hitl_demo").input("wrong")
    at.sidebar.button[2].click().run()
    assert "type the thread id hitl_demo exactly" in _sidebar_text(at)
    assert readmodel.head_checkpoint_id(store, "hitl_demo") is not None
    at.sidebar.text_input(key="delete-confirm-hitl_demo").input("hitl_demo")
    at.sidebar.button[2].click().run()
    assert "Deleted thread hitl_demo." in _sidebar_text(at)
    assert readmodel.head_checkpoint_id(store, "hitl_demo") is None


def test_delete_form_refuses_a_stale_form(app, store, settings):
    runs.start_run(store, settings, "robot", {})
    at = app("app_pages/robot.py")
    runs.resume_thread(store, settings, "hitl_demo", "yes")
    at.sidebar.text_input(key="delete-confirm-hitl_demo").input("hitl_demo")
    at.sidebar.button[2].click().run()
    assert "changed since this form was drawn" in _sidebar_text(at)
    assert readmodel.head_checkpoint_id(store, "hitl_demo") is not None


def test_a_file_that_is_not_a_database_gives_a_clear_message(app, db_path):
    db_path.write_bytes(b"garbage" * 1000)
    at = app()
    assert any("not a SQLite database" in e.value for e in at.error)
