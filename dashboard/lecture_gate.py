"""The lecture page's waiting question: what it says, its forms, and sending a decision from them.

The answers themselves are the agent's (``agents.lecture.answers``): the page passes the form's choices,
the plan's text and the functions that send an answer, so this module knows the agent only by its page.

What an action on the thread came to (a decision sent from the form, a sidebar form) is said by the
thread's live part right under the question's place (:func:`show_said`): where the form was, so after "Send
decision" it is where the user is looking, not at the top of a page scrolled far down. The page draws the open
thread before its new-plan form, so a waiting thread's question is near the top of the page.
"""

from collections.abc import Callable, Sequence
from typing import Any

import streamlit as st

from dashboard.forms import FLASH_KEY, act, show_refusal
from dashboard.i18n import t
from dashboard.lecture_view import REFUSED_KEY, GateView, show_gate_reviews
from dashboard.safe_markdown import escape_markdown

#: ``decide(action, notes, plan, head_seen)``: sends the gate's decision (``plan``: the edited subtopics' JSON text,
#: for ``edit_plan``), returns the message to flash.
Decide = Callable[[str, str, str, str | None], str]
#: ``review(approve, edited, head_seen)``: sends the plan review's answer, returns the message to flash.
Review = Callable[[bool, str, str | None], str]
#: The session key of (thread, kind, message): what the last action on the thread came to, said by every run of
#: its live part (:func:`show_said`) until the page is drawn again (``decision_view.forget``).
SAID_KEY = "lecture:said"


def said_now(thread_id: str, state: Any) -> tuple[str, str] | None:
    """What to say under ``thread_id``'s question as (kind, message), None: nothing. The message an action queued
    (:func:`dashboard.forms.flash`) is taken here, where the user acted, and kept for the part's next runs: a live
    part's run that no longer drew it would take it away within seconds. ``state``: the session, or a dict."""
    queued = state.pop(FLASH_KEY, None)
    if queued:
        state[SAID_KEY] = (thread_id, *queued)
    said = state.get(SAID_KEY)
    return (said[1], said[2]) if said and said[0] == thread_id else None


def show_said(thread_id: str) -> None:
    """What the last action on ``thread_id`` came to (:func:`said_now`), as text, in a slot every run draws: under
    the question's place, so a decision's result stands where its form was, and nothing below it moves."""
    slot = st.empty()
    if (said := said_now(thread_id, st.session_state)) is not None:
        kind, message = said
        getattr(slot, kind)(escape_markdown(message))


def question_notice(payload: dict[str, Any], moved_on: str | None) -> str:
    """What is said above the question's form: that the thread moved on (``moved_on``, its status), else
    which question waits (the plan review's version, or the gate's round, score and threshold)."""
    if moved_on is not None:
        return t("lecture.moved_on", status=moved_on)
    if payload.get("stage") == "plan_review":
        return escape_markdown(t("lecture.waiting_plan", version=payload.get("plan_version")))
    gate = {key: payload.get(key) for key in ("round", "score", "threshold")}
    return escape_markdown(t("lecture.waiting_gate", **gate))


def limit_notice(actions: Sequence[str], moved_on: str | None) -> tuple[str, str] | None:
    """What is said beside the gate's form, as (kind, text): the thread moved on (a warning), or no
    rework is left among ``actions`` (a caption); None: nothing."""
    if moved_on is not None:
        return "warning", t("lecture.moved_on.short", status=moved_on)
    if "rework" not in actions:
        return "caption", t("lecture.limit_reached")
    return None


def gate_plan_key(thread_id: str, payload: dict[str, Any]) -> str:
    """The key of the gate form's plan editor: one per plan version, so a new plan (after an edit) starts from
    itself, never from the text typed for the last one."""
    return f"lecture-gate-plan-{thread_id}-v{payload.get('plan_version')}"


def decision_form(
    thread_id: str, actions: Sequence[str], expected: str | None, decide: Decide, *, plan_text: str, plan_key: str
) -> None:
    """The gate's decision: rework (with notes), edit the plan (``plan_text``, a JSON list, then a rework with
    the notes), save as is, or reject. The plan editor is drawn only while the gate offers ``edit_plan``."""
    with st.form(f"lecture-decision-{thread_id}"):
        st.markdown(f"**{t('lecture.decision')}**")
        action = st.radio(
            t("lecture.action"),
            actions,
            format_func=lambda a: t(f"lecture.action.{a}"),
            key=f"lecture-action-{thread_id}",
        )
        notes = st.text_area(t("lecture.notes"), key=f"lecture-notes-{thread_id}")
        plan, editor = plan_text, st.empty()  # drawn on every run: the form keeps its shape at the round limit
        if "edit_plan" in actions:
            plan = editor.text_area(t("lecture.gate_plan_edit"), value=plan_text, height=260, key=plan_key)
        sent = st.form_submit_button(t("lecture.submit_decision"), type="primary")
    if sent:  # a refusal is kept in the session and drawn under the form by the thread's live part
        act(expected, lambda head: decide(action, notes, plan, head), thread_id=thread_id, refused_key=REFUSED_KEY)


def plan_review_form(thread_id: str, plan_text: str, expected: str | None, review: Review) -> None:
    """The optional plan review: approve, or edit the subtopics (``plan_text``, a JSON list)."""
    with st.form(f"lecture-plan-{thread_id}"):
        edited = st.text_area(t("lecture.plan_edit"), value=plan_text, height=260, key=f"lecture-plan-edit-{thread_id}")
        approve = st.form_submit_button(t("lecture.approve_plan"), type="primary")
        apply_edit = st.form_submit_button(t("lecture.save_plan_edit"))
    if approve or apply_edit:
        act(expected, lambda head: review(approve, edited, head), thread_id=thread_id, refused_key=REFUSED_KEY)


def ask(
    thread_id: str,
    view: GateView,
    moved_on: str | None,
    *,
    actions: Sequence[str],
    plan_text: str,
    decide: Decide,
    review: Review,
) -> None:
    """The waiting question's form; kept, its notice saying so, when the thread moved on elsewhere
    (``moved_on``), so a decision from it is refused as stale (checked against the head it was drawn for)."""
    payload = view.payload
    said = st.empty()  # the question, or the notice that it was answered elsewhere: the same place
    refused = st.empty()  # the refusal of the question's earlier answer (``payload["error"]``)
    said.warning(question_notice(payload, moved_on))
    if payload.get("error"):
        refused.error(escape_markdown(t("lecture.refused_answer", error=payload["error"])))
    if payload.get("stage") == "plan_review":
        plan_review_form(thread_id, plan_text, view.head, review)
    else:
        show_gate_reviews(list(view.reviews))  # what the decision is about comes before it
        limit = st.empty()
        if (notice := limit_notice(actions, moved_on)) is not None:  # beside the form, where the notes are typed
            kind, text = notice
            (limit.warning if kind == "warning" else limit.caption)(text)
        plan_key = gate_plan_key(thread_id, payload)
        decision_form(thread_id, actions, view.head, decide, plan_text=plan_text, plan_key=plan_key)
    show_refusal(REFUSED_KEY, thread_id)  # of a decision sent here
