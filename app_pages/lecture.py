"""The lecture planner: start a run, follow it live, decide at the gate, download the plan."""

import streamlit as st

from agents import runs
from agents.errors import RunFailedError, UserError
from agents.identity import ANSWER, START_RUN
from agents.lecture.answers import editable_plan, gate_answer, gate_form_actions, plan_review_answer
from agents.lecture.graph import AGENT_NAME
from agents.lecture.progress import PROGRESS_WORDS, TaskProgress, latest_reviews, review_rows, score_rows, subtopic_rows
from agents.registry import get_agent
from dashboard import auth, lecture_gate, live, resources
from dashboard.agent_pages import linked_thread, own_threads, pick_own_thread, show_agent_queue
from dashboard.boxes import box
from dashboard.decision_view import forget
from dashboard.formats import code_word
from dashboard.forms import (
    drawn_head,
    field_help,
    field_label,
    show_run_failed,
    shown_head,
    sidebar_forms,
    status_word,
)
from dashboard.i18n import current_language, form_labels, localized, t
from dashboard.lecture_view import GATE_KEY, REFUSED_KEY, GateView, gate_view, question_shape, show_status, show_tables
from dashboard.lecture_view import follow as follow_in_box
from dashboard.safe_markdown import escape_markdown

store, settings = resources.store(), resources.settings()
spec = get_agent(AGENT_NAME)

st.title(t("lecture.title"))
st.caption(t("lecture.intro"))
# The open thread first, under no header of its own (the picker's label names it), so a waiting thread's question
# is near the top of the page, as the refund page's selected case; then the queue, then a new plan. The thread is
# drawn into its place at the end of the run: a new plan started below opens its thread above in the same run,
# while its progress and what it came to are said under the form, where the user clicked.
thread_place = st.container()
st.header(t("lecture.threads"))
queue_place = st.container()


def follow(run) -> runs.RunResult:
    """Runs ``run(on_event)`` in a status box listing each node as it starts and ends."""
    return follow_in_box(run, TaskProgress(words={mark: t(f"lecture.progress.{mark}") for mark in PROGRESS_WORDS}))


def resume_followed(thread_id: str, answer: object, head_seen: str | None) -> runs.RunResult:
    """Resumes the thread with ``answer`` (refused when the page showed another head), followed live."""
    return follow(
        lambda on_event: runs.resume_thread(
            store, settings, thread_id, answer, expected_head=head_seen, on_event=on_event, actor=auth.identity()
        )
    )


def decide(thread_id: str, action: str, notes: str, plan: str, head_seen: str | None) -> str:
    """Sends the gate's decision (notes with a rework, plan edit or reject; an edit's plan); the message to flash."""
    done = resume_followed(thread_id, gate_answer(action, notes, plan), head_seen)
    return t("lecture.decided", action=code_word("decision", action), status=status_word(done))


def review_plan(thread_id: str, approve: bool, edited: str, head_seen: str | None) -> str:
    """Sends the plan review's answer: approve, or the edited subtopics; the message to flash."""
    done = resume_followed(thread_id, plan_review_answer(approve, edited), head_seen)
    sent = code_word("decision", "approve" if approve else "edit_plan")
    return t("lecture.decided", action=sent, status=status_word(done))


def ask(thread_id: str, view: GateView, moved_on: str | None, values: dict) -> None:
    """The waiting question's form (:func:`dashboard.lecture_gate.ask`) with the agent's answers; the plan to
    edit is the plan review's, or at the gate the thread's (``values``)."""
    lecture_gate.ask(
        thread_id,
        view,
        moved_on,
        actions=gate_form_actions(view.payload),
        plan_text=editable_plan(view.payload, values),
        decide=lambda action, notes, plan, head_seen: decide(thread_id, action, notes, plan, head_seen),
        review=lambda approve, edited, head_seen: review_plan(thread_id, approve, edited, head_seen),
    )


def show_thread(thread_id: str) -> None:
    """The open thread, a live part (:func:`thread_part`)."""
    forget(st.session_state, GATE_KEY, REFUSED_KEY, lecture_gate.SAID_KEY)  # the page's run draws it as it is
    thread_part(thread_id)


@live.fragment
def thread_part(thread_id: str) -> None:
    """Status, plan, rounds, the waiting question, the draft or final plan, and the node log.

    A live part: it follows the database alone, within ``HITL_LIVE_REFRESH`` s, and reads the thread
    again only after the database changed (:func:`dashboard.live.rows`). A decision made elsewhere shows
    here without drawing the page again; the form drawn for the question stays, with a notice, and a
    decision from it is refused as stale; what is half typed in it keeps its text and its focus.
    """
    result = live.rows(f"lecture-thread:{thread_id}", lambda: runs.current_result(store, settings, thread_id))
    values = result.values
    drawn = drawn_head("lecture-page", thread_id, result.head_checkpoint_id)
    view = gate_view(thread_id, result, drawn, st.session_state, latest_reviews)
    show_status(result)
    # A block every run draws: what is typed in it keeps its place and focus while the question's form keeps
    # its shape; a form of another shape (the plan review after the gate) leaves nothing of the last one.
    question = box("lecture-question", question_shape(view, bool(auth.why_not(ANSWER))))
    if view is not None and auth.why_not(ANSWER):  # the state shows; answering is for approvers
        question.info(t("auth.cannot_act", reason=auth.why_not(ANSWER)))
    elif view is not None:
        with question:
            ask(thread_id, view, status_word(result) if view.stale else None, values)
    lecture_gate.show_said(thread_id)  # what the last action came to: where the question's form was

    rows = {"plan": subtopic_rows(values), "scores": score_rows(values), "reviews": review_rows(values)}
    show_tables(store, thread_id, values, **rows)


lecture_settings = settings.agent(AGENT_NAME)  # typed and validated when the settings were loaded
st.caption(t("lecture.model", model=localized(lecture_settings.services.model_text())))
st.caption(t("lecture.research", source=localized(lecture_settings.services.research_text())))
st.info(t("lecture.gate_rule", threshold=lecture_settings.threshold, max_rounds=lecture_settings.max_rounds))
st.subheader(t("lecture.new_run"))
with st.form("lecture-start"):
    values = {}
    for field in spec.run.start_fields:
        widget = st.text_area if field.kind == "textarea" else st.text_input
        values[field.name] = widget(
            field_label(field),
            value=field.default,
            key=f"lecture-field-{field.name}",
            help=field_help(AGENT_NAME, "start", field),
        )
    requested_thread = st.text_input(t("lecture.thread_id"), key="lecture-thread-id", help=t("lecture.thread_id.help"))
    if auth.why_not(START_RUN):
        st.caption(t("auth.cannot_act", reason=auth.why_not(START_RUN)))
    started = st.form_submit_button(t("lecture.start"), type="primary", disabled=bool(auth.why_not(START_RUN)))
if started:
    try:
        result = follow(
            lambda on_event: runs.start_run(
                store,
                settings,
                AGENT_NAME,
                values,
                thread_id=requested_thread.strip() or None,
                on_event=on_event,
                lang=current_language(),
                actor=auth.identity(),
            )
        )
    except UserError as error:
        with form_labels(thread_id="lecture.thread_id"):  # the field by the label above it
            st.error(escape_markdown(t("lecture.bad_input", error=localized(error))))
    except RunFailedError as error:  # what finished is saved; the thread needs attention: it is shown above
        show_run_failed(error)
        st.query_params["thread"] = error.thread_id
    else:
        st.query_params["thread"] = result.thread_id

own_statuses, more_threads = own_threads(store, AGENT_NAME, st.query_params.get("thread"))
# A link's thread id that is malformed or not a lecture thread is named above, as text.
thread_id, missing = linked_thread(store, own_statuses, st.query_params.get("thread"))
with thread_place:
    if missing is not None:
        st.warning(escape_markdown(t("lecture.thread_missing", thread=missing)))
    if not own_statuses:
        st.caption(t("lecture.no_threads"))
    else:
        pick_own_thread(AGENT_NAME, own_statuses, thread_id, more=more_threads)
    if thread_id:
        show_thread(thread_id)
with queue_place:
    show_agent_queue(store, AGENT_NAME, thread_id)  # the agent's queue, without the thread shown above

shown = shown_head("lecture-page", thread_id) if thread_id else None  # the head show_thread drew
sidebar_forms(store, settings, thread_id, shown)
