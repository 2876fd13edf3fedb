"""AppTest of "What changed": the explorer's selected checkpoint against its parent or another, the agents'
thread views against the head's parent, and the refund case's requested vs executed amount."""

from __future__ import annotations

from unittest.mock import patch

from streamlit.testing.v1 import AppTest

from agents import readmodel, runs
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT
from dashboard import diff_view
from tests.conftest import APP_FILE
from tests.factories import answer_robot, pause_robot, start_refund

EXPLORER = "app_pages/explorer.py"
ACTION = "Business trip request: Busan, 2 days, budget 800,000 KRW"


def _markdown(at) -> str:
    return "\n".join(m.value for m in at.markdown)


def test_the_explorer_shows_what_an_update_state_changed_and_its_writes(app, store, settings):
    pause_robot(store, settings)
    runs.update_thread(store, settings, "hitl_demo", {"pending_action": "Seoul [x](http://e.test) <b>1</b> day"})
    at = app(EXPLORER)
    assert not at.exception, at.exception
    shown = _markdown(at)
    # The head is selected and compared with its parent; user text is escaped, never a link or HTML.
    assert f"- **changed** `pending_action`: `{ACTION}` → `Seoul [x](http://e.test) <b>1</b> day`" in shown
    assert "**Writes that produced it**" in shown
    assert "(update_state) · `pending_action` = `Seoul [x](http://e.test) <b>1</b> day`" in shown
    assert at.selectbox(key=f"diff-from-hitl_demo-{readmodel.head_checkpoint_id(store, 'hitl_demo')}").value == ""


def test_the_explorer_compares_any_two_checkpoints_and_a_message_append(app, store, settings):
    answer_robot(store, settings)
    at = app(EXPLORER)
    assert f"- **+1 message** `messages`: `ai: Executed: {ACTION}`" in _markdown(at)
    chain = readmodel.checkpoint_chain(store, "hitl_demo")
    head, first = chain[-1].checkpoint_id, chain[1].checkpoint_id  # step 0: only the first message
    picker = at.selectbox(key=f"diff-from-hitl_demo-{head}")
    assert picker.options[0] == "its parent" and len(picker.options) == len(chain)  # the parent, then the others
    picker.select(first).run()
    assert not at.exception, at.exception
    shown = _markdown(at)
    assert f"- **added** `pending_action`: `{ACTION}`" in shown
    assert "- **added** `decision`: `yes`" in shown and "- **+1 message** `messages`: `ai: Executed" in shown
    assert "an older checkpoint of the same line" in " ".join(c.value for c in at.caption)


def test_the_explorer_says_what_changed_and_when_nothing_did_in_korean(store, settings):
    pause_robot(store, settings, lang="ko")
    at = AppTest.from_file(APP_FILE, default_timeout=60)
    at.query_params["lang"] = "ko"
    at.run()
    at.switch_page(EXPLORER)
    at.run()
    assert not at.exception, at.exception
    assert "- **추가** `pending_action`: `출장 신청서 제출: 부산 2일, 예산 800,000원`" in _markdown(at)
    assert "이 체크포인트를 만든 쓰기" in _markdown(at)
    first = readmodel.checkpoint_chain(store, "hitl_demo")[0].checkpoint_id  # the input: an empty state
    # AppTest formats a selectbox's options in its own thread, which has no session language.
    with patch("dashboard.i18n.current_language", return_value="ko"):
        at.selectbox(key="explorer-checkpoint-hitl_demo").select(first).run()
    assert not at.exception, at.exception
    assert "바뀐 상태 키가 없습니다." in _markdown(at)


def test_each_agent_thread_view_shows_what_its_head_changed(app, store, settings):
    pause_robot(store, settings)
    runs.update_thread(store, settings, "hitl_demo", {"pending_action": "Seoul, 1 day"})
    start_refund(store, settings, "C7")
    runs.start_run(store, settings, "lecture", dict(DEFAULT_LECTURE_INPUT), thread_id="lec-1")
    pages = ("app_pages/robot.py", "robot"), ("app_pages/refund.py", "refund"), ("app_pages/lecture.py", "lecture")
    for page, name in pages:
        key = f"{name}-diff-open"
        at = app(page)
        assert not at.exception, at.exception
        box = next(e for e in at.expander if e.label == "What changed at the head")
        assert box.proto.expanded is False  # collapsed: nothing read until opened
        at.session_state[key] = True
        at.run()
        assert not at.exception, at.exception
        shown = _markdown(at)
        if name == "robot":
            assert f"- **changed** `pending_action`: `{ACTION}` → `Seoul, 1 day`" in shown
        elif name == "refund":
            assert "- **added** `threshold`: `100000`" in shown and "- **added** `amount`: `500000`" in shown
        else:  # the gate scored the reviews, then paused to ask
            assert "- **added** `scores`: " in shown
            assert " · gate · `scores` = " in shown


def test_the_refund_case_shows_requested_vs_executed_as_a_diff(app, store, settings):
    start_refund(store, settings, "C1", 500_000)
    runs.resume_thread(store, settings, "refund-C1", {"action": "edit", "amount": 50_000, "approver": "kim"})
    start_refund(store, settings, "C2", 300_000)
    runs.resume_thread(store, settings, "refund-C2", {"action": "reject", "approver": "lee"})
    at = app("app_pages/refund.py")
    for thread, line in (
        ("refund-C1", "- amount: 500,000 KRW → 50,000 KRW (-450,000 KRW)"),
        ("refund-C2", "- amount: 300,000 KRW → nothing paid (rejected)"),
    ):
        at.query_params["thread"] = thread
        at.run()
        assert not at.exception, at.exception
        shown = _markdown(at)
        assert "**Requested → executed**" in shown and line in shown


def test_amount_words_cover_paid_as_requested_and_not_yet_executed():
    assert diff_view.amount_words(500_000, 500_000, False) == "amount: 500,000 KRW, paid as requested"
    assert diff_view.amount_words(500_000, None, False) == "amount: 500,000 KRW → not executed yet"


def test_a_value_is_one_code_span_whatever_backticks_it_holds():
    assert diff_view.code_span("plain") == "`plain`"
    assert diff_view.code_span("a `b` c") == "``a `b` c``"
    assert diff_view.code_span("`x") == "`` `x ``"
    assert diff_view.code_span("two\nlines") == "`two lines`"
    assert diff_view.code_span("") == '`""`'
