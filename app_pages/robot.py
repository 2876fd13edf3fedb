"""The approval robot: start over, answer, and look inside the save file."""

import streamlit as st

from agents import lifecycle, readmodel, runs
from agents.errors import UserError
from agents.identity import ANSWER, START_RUN
from agents.robot.graph import APPROVING_ANSWER
from agents.robot.spec import DEFAULT_THREAD_ID
from agents.validation import validate_thread_id
from dashboard import auth, resources
from dashboard.forms import act, drawn_head, show_flash, shown_head, sidebar_forms, status_word
from dashboard.i18n import t
from dashboard.savefile import show_checkpoints, show_writes
from dashboard.views import (
    escape_markdown,
    show_inbox,
)

store, settings = resources.store(), resources.settings()

st.title(t("robot.title"))
st.caption(t("robot.intro"))
st.info(t("robot.rule"))
show_flash()
thread_id = DEFAULT_THREAD_ID
try:
    thread_id = validate_thread_id(st.query_params.get("thread", DEFAULT_THREAD_ID))
except UserError as error:
    st.error(escape_markdown(str(error)))
    st.stop()
owner = readmodel.thread_agent(store, thread_id)
if owner not in (None, "robot"):
    st.error(escape_markdown(t("robot.other_agent", thread=thread_id, agent=owner)))
    st.stop()
head = readmodel.head_checkpoint_id(store, thread_id)
expected = drawn_head("robot-page", thread_id, head)

top_left, top_right = st.columns([3, 1])
top_left.markdown(t("robot.thread", thread=f"`{thread_id}`"))
if auth.why_not(START_RUN):
    top_right.caption(t("auth.cannot_act", reason=auth.why_not(START_RUN)))
elif top_right.button(t("robot.start_over"), help=t("robot.start_over.help"), type="primary"):
    try:
        runs.start_run(store, settings, "robot", {}, thread_id=thread_id, actor=auth.identity())
    except UserError as error:
        st.error(escape_markdown(str(error)))
    else:
        st.rerun()


def answer(text: str, head_seen: str | None = None) -> None:
    """Resumes the thread with ``text``, refusing if the page was stale (drawn for another head)."""

    def resume(head_seen: str | None) -> str:
        runs.resume_thread(store, settings, thread_id, text, expected_head=head_seen, actor=auth.identity())
        return t("robot.answered", answer=text)

    act(expected if head_seen is None else head_seen, resume)


@st.fragment
def free_answer() -> None:
    """A typed answer, its rule shown as it is typed; a fragment, so typing reruns only this."""
    typed = st.text_input(t("robot.free_answer"), key="robot-free-text")
    if typed:
        # Shown before sending, so the exact-"yes" rule is visible, not a surprise.
        will = "robot.will_execute" if typed.strip() == APPROVING_ANSWER else "robot.will_refuse"
        st.caption(t(will))
    if st.button(t("robot.send"), key="robot-send"):
        answer(typed, shown_head("robot-page", thread_id))  # the head the page around it shows


if head is None:
    st.warning(t("robot.not_started"))
else:
    result = runs.current_result(store, settings, thread_id)
    state_col, explain_col = st.columns([3, 2])
    with state_col:
        st.metric(t("robot.status"), escape_markdown(status_word(result)))  # a metric value is Markdown too
        if result.status == "attention":
            st.error(escape_markdown(t("robot.attention", reason=result.reason)))
        st.markdown(f"{t('robot.next')}: `{', '.join(result.next) or '—'}`")
        if result.status == "waiting":
            payload = result.interrupts[0]
            st.warning(t("robot.waiting"))
            st.markdown(f"**{t('robot.question')}:**")
            st.text(payload.get("question", ""))
            st.markdown(f"**{t('robot.action')}:**")
            st.json(payload.get("action", {}))
            yes_col, no_col = st.columns(2)
            if auth.why_not(ANSWER):  # the question is shown; answering is for approvers
                st.info(t("auth.cannot_act", reason=auth.why_not(ANSWER)))
            elif yes_col.button(t("robot.yes"), key="robot-yes", width="stretch"):
                answer(APPROVING_ANSWER)
            if not auth.why_not(ANSWER) and no_col.button(t("robot.no"), key="robot-no", width="stretch"):
                answer("no")
            if not auth.why_not(ANSWER):
                free_answer()
        st.markdown(f"**{t('robot.messages')}**")
        for message in readmodel.to_jsonable(result.values.get("messages", [])):
            with st.chat_message("user" if message["type"] == "human" else "assistant"):
                st.text(message["content"])
        with st.expander(t("robot.payload"), expanded=False):
            st.json(readmodel.to_jsonable(list(result.interrupts)))
    with explain_col, st.container(border=True):
        st.markdown(f"**{t('robot.explain.title')}**")
        for key in ("checkpoint", "write", "ids", "pause"):
            st.markdown(t(f"robot.explain.{key}"))

    st.header(t("robot.savefile"))
    counts = readmodel.table_counts(store, thread_id)
    st.markdown(t("robot.counts", **counts))
    st.subheader(t("robot.checkpoints"))
    show_checkpoints(store, thread_id)  # a page of rows at a time: only they are decoded
    st.subheader(t("robot.writes"))
    show_writes(store, thread_id)

robot_queue = [x for x in lifecycle.inbox(store, agent="robot") if x.thread_id != thread_id]
with st.expander(t("robot.queue", count=len(robot_queue))):
    # The thread shown above is not repeated here.
    show_inbox(
        "robot-queue",
        lambda shown=thread_id: [x for x in lifecycle.inbox(store, agent="robot") if x.thread_id != shown],
        t("robot.queue_empty"),
    )

sidebar_forms(store, settings, thread_id)
