"""The robot page's Start over: a saved thread is deleted and started again only after a second click."""

from __future__ import annotations

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from agents import runs
from agents.db import Store
from agents.errors import RunFailedError, UserError
from agents.identity import START_RUN
from agents.settings import Settings
from dashboard import auth
from dashboard.forms import mark_changed_here, refused_text, show_run_failed
from dashboard.i18n import current_language, t
from dashboard.safe_markdown import escape_markdown

#: The (thread, head seen) a Start over click asked to delete, until the deletion is confirmed or kept.
START_OVER_KEY = "robot:start-over"


def start_over_asked(thread_id: str, head: str | None) -> bool:
    """Whether this thread's deletion waits for its confirmation."""
    asked = st.session_state.get(START_OVER_KEY)
    return head is not None and isinstance(asked, tuple) and asked[0] == thread_id


def start_over(
    store: Store,
    settings: Settings,
    thread_id: str,
    head: str | None,
    expected: str | None,
    button_place: DeltaGenerator,
    confirm_place: DeltaGenerator,
) -> None:
    """Start over: a thread with checkpoints (``head``) is deleted only after a second, explicit click.

    The deletion is checked against the head this tab saw when Start over was pressed (``expected`` then),
    so another tab's answer since then is not deleted. A thread with nothing saved yet starts at once:
    nothing is lost. A thread that had not finished (its question waiting) is deleted as the sidebar's
    delete deletes it: by an admin, and recorded (*Deleted threads*, ``python -m agents deletions``).
    """
    if auth.why_not(START_RUN):
        button_place.caption(t("auth.cannot_act", reason=auth.why_not(START_RUN)))
        return
    if start_over_asked(thread_id, head):
        confirm_place.warning(t("robot.start_over.confirm", thread=f"`{thread_id}`"))
        choices = confirm_place.container(horizontal=True)  # side by side; they wrap in a narrow column
        if choices.button(t("robot.start_over.keep"), key="robot-start-over-keep"):
            st.session_state.pop(START_OVER_KEY, None)
            st.rerun()
        if not choices.button(t("robot.start_over.delete"), key="robot-start-over-delete", type="primary"):
            return
        seen = st.session_state[START_OVER_KEY][1]
    elif button_place.button(t("robot.start_over"), help=t("robot.start_over.help"), key="robot-start-over"):
        if head is not None:  # something to delete: asked first
            st.session_state[START_OVER_KEY] = (thread_id, expected)
            st.rerun()
        seen = expected
    else:
        return
    st.session_state.pop(START_OVER_KEY, None)
    try:
        runs.start_run(
            store,
            settings,
            "robot",
            {},
            thread_id=thread_id,
            lang=current_language(),
            actor=auth.identity(),
            expected_head=seen,  # what this tab saw: another tab's answer since is not deleted
            delete_unfinished=True,  # confirmed for that head: a waiting thread is deleted, and recorded
        )
    except UserError as error:
        confirm_place.error(escape_markdown(refused_text(error)))
        if head is not None:  # asked again, for the thread as this run draws it
            st.session_state[START_OVER_KEY] = (thread_id, head)
    except RunFailedError as error:  # what finished is saved; the thread needs attention: it is shown below
        with confirm_place:
            show_run_failed(error)
    else:
        mark_changed_here(thread_id)  # this session's own change: the sidebar's forms follow the new head
        st.rerun()
