"""A sidebar form keeps the head it was drawn at while the browser keeps it, whatever runs the page again.

What is typed in a form stays in the browser, unsent, across the page's runs: the explorer's live refresh,
the navigation's overdue counts, any other control. A run that shows a newer head (another tab, the CLI)
cannot tell what the user typed while the older one was shown, so a form drawn before is refused as stale,
naming both checkpoints, and only then acts on the head shown. A thread deleted meanwhile refuses a form
still in the browser, saying why.
"""

from __future__ import annotations

import pytest

from agents import deletion, readmodel, runs
from agents.errors import short_id
from dashboard.i18n import t
from tests.factories import messages, pause_robot, thread_counts

PAGES = {"robot": "app_pages/robot.py", "explorer": "app_pages/explorer.py"}
WIRE = "Wire 90,000,000 KRW to an unknown account"
#: (page, language): AppTest formats a selectbox's value in English (its thread has no session), so the
#: explorer's pickers are read in English; the robot page's sidebar is read in both.
PAGE_LANGS = [("robot", "en"), ("robot", "ko"), ("explorer", "en")]


def _open(app, page: str, thread: str, lang: str = "en"):
    at = app(PAGES[page])
    at.query_params["thread"] = thread
    at.query_params["lang"] = lang
    at.run()
    assert not at.exception, at.exception
    return at


def _another_process_proposes_a_wire(store, settings, thread: str) -> str:
    """The tester's steps: ``update --values ... --as-node propose`` then ``continue``; the new head."""
    runs.update_thread(store, settings, thread, {"pending_action": WIRE}, as_node="propose")
    runs.continue_thread(store, settings, thread)
    assert runs.current_result(store, settings, thread).status == "waiting"
    return str(readmodel.head_checkpoint_id(store, thread))


def _sidebar_button(at, label: str):
    return next(b for b in at.sidebar.button if b.label == label)


def _sidebar_warnings(at) -> list[str]:
    return [w.value for w in at.sidebar.warning]


@pytest.mark.parametrize(("page", "lang"), PAGE_LANGS)
def test_an_answer_typed_before_another_process_acted_is_refused_after_the_page_ran_again(
    app, store, settings, page, lang
):
    thread = f"tt-{page}"
    pause_robot(store, settings, thread)
    drawn = readmodel.head_checkpoint_id(store, thread)
    at = _open(app, page, thread, lang)
    head = _another_process_proposes_a_wire(store, settings, thread)
    at.run()  # the live refresh (or the overdue counts) draws the page again: the form stays in the browser
    assert not at.exception, at.exception
    said = t("forms.drawn_before", lang, drawn=short_id(drawn), head=short_id(head))
    lagging = _sidebar_warnings(at).count(said)
    assert lagging == 3  # resume, update, delete: each form drawn before says so, before anything is sent
    assert short_id(head) in " ".join(c.value for c in at.sidebar.caption)  # the page shows the new head
    saved = thread_counts(store, thread)

    # What the browser kept, typed for the proposal shown before (AppTest sends a form's values with its submit).
    at.sidebar.text_input(key=f"resume-answer-{thread}").input("yes")
    _sidebar_button(at, t("forms.resume.submit", lang)).click().run()
    assert not at.exception, at.exception
    refusal = messages(at)
    assert t("forms.refused", lang) in refusal and short_id(drawn) in refusal and short_id(head) in refusal
    assert thread_counts(store, thread) == saved  # the wire was not executed
    assert runs.current_result(store, settings, thread).status == "waiting"
    assert _sidebar_warnings(at).count(said) == lagging - 1  # told once: the resume form now acts on the head shown

    at.sidebar.text_input(key=f"resume-answer-{thread}").input("yes")
    _sidebar_button(at, t("forms.resume.submit", lang)).click().run()  # sent again, knowingly
    assert runs.current_result(store, settings, thread).outcome == "executed"


@pytest.mark.parametrize("page", ["robot", "explorer"])
def test_the_update_and_delete_forms_keep_their_head_too(app, store, settings, page):
    thread = f"tt-{page}"
    pause_robot(store, settings, thread)
    drawn = readmodel.head_checkpoint_id(store, thread)
    at = _open(app, page, thread)
    head = _another_process_proposes_a_wire(store, settings, thread)
    at.run()
    saved = thread_counts(store, thread)
    at.sidebar.text_input(key=f"update-decision-{thread}").input("yes")
    _sidebar_button(at, "Update state").click().run()
    assert f"changed since this form was drawn (checkpoint {short_id(drawn)} → {short_id(head)})" in messages(at)
    at.sidebar.text_input(key=f"delete-confirm-{thread}").input(thread)
    _sidebar_button(at, "Delete thread").click().run()
    assert f"changed since this form was drawn (checkpoint {short_id(drawn)} → {short_id(head)})" in messages(at)
    assert thread_counts(store, thread) == saved


def test_the_sessions_own_action_is_no_other_tabs_change(app, store, settings):
    pause_robot(store, settings)
    at = _open(app, "robot", "hitl_demo")
    at.sidebar.text_input(key="update-decision-hitl_demo").input("no")
    _sidebar_button(at, "Update state").click().run()  # this session's own change
    assert "Updated thread hitl_demo" in messages(at)
    assert not _sidebar_warnings(at)
    at.run()
    assert not _sidebar_warnings(at)


def test_after_starting_over_here_the_sidebar_answers_the_new_question(app, store, settings):
    pause_robot(store, settings)
    at = _open(app, "robot", "hitl_demo")
    next(b for b in at.button if b.key == "robot-start-over").click().run()
    next(b for b in at.button if b.key == "robot-start-over-delete").click().run()
    assert not at.exception, at.exception
    assert not _sidebar_warnings(at)  # this session started it over: nothing typed for another's change
    at.sidebar.text_input(key="resume-answer-hitl_demo").input("yes")
    _sidebar_button(at, "Resume").click().run()
    assert runs.current_result(store, settings, "hitl_demo").outcome == "executed"


@pytest.mark.parametrize(("page", "lang"), PAGE_LANGS)
def test_a_form_sent_for_a_thread_deleted_since_says_nothing_was_done_and_why(app, store, settings, page, lang):
    thread = f"gone-{page}"
    pause_robot(store, settings, thread)
    pause_robot(store, settings, "other")  # the explorer has another thread to fall back on
    at = _open(app, page, thread, lang)
    deletion.delete_thread(store, thread)  # another process, before this page ran again
    at.sidebar.text_input(key=f"resume-answer-{thread}").input("yes")
    _sidebar_button(at, t("forms.resume.submit", lang)).click().run()
    assert not at.exception, at.exception
    said = messages(at)
    assert t("forms.refused", lang) in said
    assert thread in said and "other" not in [c.value for c in at.sidebar.caption]
    assert readmodel.head_checkpoint_id(store, thread) is None
