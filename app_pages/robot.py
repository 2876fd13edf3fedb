"""The approval robot: start over, answer, and look inside the save file."""

import streamlit as st

from agents import lifecycle, readmodel, runs
from agents.errors import RunFailedError, UserError
from agents.identity import ANSWER
from agents.robot.graph import APPROVING_ANSWER
from agents.robot.graph import NODES as ROBOT_NODES
from agents.robot.spec import DEFAULT_THREAD_ID
from dashboard import auth, diff_view, live, presenter, resources, robot_lessons
from dashboard.agent_pages import foreign_thread, show_agent_queue
from dashboard.forms import drawn_head, flash, show_flash, show_run_failed, shown_head, sidebar_forms
from dashboard.fragments import fragment
from dashboard.i18n import localized, t
from dashboard.robot_start_over import start_over, start_over_asked
from dashboard.robot_view import (
    answered_message,
    show_messages,
    show_outcome,
    show_question,
    typed_rule,
    waiting_question,
)
from dashboard.safe_markdown import escape_markdown
from dashboard.savefile import show_checkpoints, show_writes
from dashboard.views import lazy_expander

store, settings = resources.store(), resources.settings()

st.title(t("robot.title"))
st.caption(t("robot.intro"))
st.info(t("robot.rule"))
show_flash()
thread_id = DEFAULT_THREAD_ID
try:
    thread_id = lifecycle.thread_named(store, st.query_params.get("thread", DEFAULT_THREAD_ID), exact=True)
except UserError as error:
    st.error(escape_markdown(localized(error)))
    st.stop()
head = readmodel.head_checkpoint_id(store, thread_id)
if about := foreign_thread(store, thread_id, head, "robot"):  # a thread with no agent recorded is no robot's either
    st.error(escape_markdown(about))
    st.stop()
expected = drawn_head("robot-page", thread_id, head)
live.follow_thread(store, thread_id, head)  # another tab's answer redraws the page

# In presenter mode the thread and Start over sit beside the question (see below), so the answer buttons
# under it stay well inside a projector's 1280×720 first screen.
thread_beside_question = presenter.is_on() and head is not None
if not thread_beside_question:
    top_left, top_right = st.columns([3, 1])
    top_left.markdown(t("robot.thread", thread=f"`{thread_id}`"))
    wide = st.container() if start_over_asked(thread_id, head) else top_right  # a confirmation is drawn wide
    start_over(store, settings, thread_id, head, expected, top_right, wide)


def answer(text: str, head_seen: str | None = None) -> None:
    """Resumes the thread with ``text``, refusing if the page was stale (drawn for another head).

    Only an executed action is reported as a success; a refusal is a warning, so an answer other
    than ``yes`` never looks approved.
    """
    try:
        result = runs.resume_thread(
            store,
            settings,
            thread_id,
            text,
            expected_head=expected if head_seen is None else head_seen,
            actor=auth.identity(),
        )
    except UserError as error:
        st.error(escape_markdown(f"{t('forms.refused')} {localized(error)}"))
        return
    except RunFailedError as error:  # what finished is saved; the thread is in the inbox
        show_run_failed(error)
        return
    flash(*answered_message(result.outcome, text))
    st.rerun()


@fragment
def free_answer() -> None:
    """A typed answer, its rule shown as it is typed; a fragment, so typing reruns only this."""
    typed = st.text_input(t("robot.free_answer"), key="robot-free-text")
    if typed:  # shown before sending, so the exact-"yes" rule is visible, not a surprise
        st.caption(typed_rule(typed, APPROVING_ANSWER))
    if st.button(t("robot.send"), key="robot-send"):
        answer(typed, shown_head("robot-page", thread_id))  # the head the page around it shows


if head is None:
    st.warning(t("robot.not_started"))
else:
    result = runs.current_result(store, settings, thread_id)
    decision = result.values.get("decision")
    found = robot_lessons.facts(
        store,
        thread_id,
        status=result.status,
        next_nodes=result.next,
        answer=None if decision is None else str(decision),
        outcome=result.outcome,
    )
    state_col, explain_col = st.columns(presenter.STATE_BESIDE_FOLD if presenter.is_on() else [3, 2])
    with state_col:
        # The question and its answers come first: on a projector's 1280×720 they are on the first screen.
        if result.status == "waiting":
            payload = waiting_question(result.interrupts)
            show_question(payload, result.values.get("pending_action", ""))
            yes_col, no_col = st.columns(2)
            if auth.why_not(ANSWER):  # the question is shown; answering is for approvers
                st.info(t("auth.cannot_act", reason=auth.why_not(ANSWER)))
            elif yes_col.button(t("robot.yes"), key="robot-yes", width="stretch"):
                answer(APPROVING_ANSWER)
            if not auth.why_not(ANSWER) and no_col.button(t("robot.no"), key="robot-no", width="stretch"):
                answer("no")
            if not auth.why_not(ANSWER):
                free_answer()
        show_outcome(result, found.answer)
        if result.status == "attention":
            st.error(escape_markdown(t("robot.attention", reason=localized(result.reason_text or result.reason))))
        st.markdown(f"{t('robot.next')}: `{', '.join(result.next) or '—'}`")
        if presenter.is_on():  # where the run is, highlighted as it moves
            steps = presenter.step_states(ROBOT_NODES, result.next, result.status)
            st.markdown(presenter.steps_markdown(steps, finished=result.status == "done"))
        robot_lessons.lesson("stop", found)
        robot_lessons.lesson("ids", found)
        robot_lessons.lesson("yes", found)
        show_messages(result.values)
        if (payload_box := lazy_expander(t("robot.payload"), "robot-payload-open")) is not None:
            with payload_box:
                st.json(readmodel.to_jsonable(list(result.interrupts)))
    with explain_col:
        if thread_beside_question:
            st.markdown(t("robot.thread", thread=f"`{thread_id}`"))
            start_over(store, settings, thread_id, head, expected, explain_col, explain_col)
        with presenter.folded(f"**{t('robot.explain.title')}**", "robot-explain"):
            if not presenter.is_on():  # a folded box says its title on its fold
                st.markdown(f"**{t('robot.explain.title')}**")
            for key in ("checkpoint", "write", "ids", "pause"):
                st.markdown(t(f"robot.explain.{key}", thread=thread_id))  # the thread shown, not the default

    st.header(t("robot.savefile"))
    counts = readmodel.table_counts(store, thread_id)
    st.markdown(t("robot.counts", **counts))
    st.caption(t("robot.ids.short"))
    st.subheader(t("robot.checkpoints"))
    robot_lessons.lesson("checkpoints", found)
    show_checkpoints(store, thread_id)  # a page of rows at a time: only they are decoded
    latest_col, anatomy_col = st.columns([2, 3])
    with latest_col:
        robot_lessons.lesson("latest", found)
    with anatomy_col:
        robot_lessons.show_id_anatomy(found.latest_id or head)
    st.subheader(t("robot.writes"))
    robot_lessons.lesson("pause", found)
    show_writes(store, thread_id)
    diff_view.show_head_change(store, thread_id, "robot")  # what the last step or update_state changed
    if found.resumes:
        robot_lessons.show_resume_rows(found)
    robot_lessons.show_quiz(found)

show_agent_queue(store, "robot", thread_id)  # the thread shown above is not repeated here

sidebar_forms(store, settings, thread_id, head)  # the head the page drew
