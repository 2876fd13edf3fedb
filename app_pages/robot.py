"""The approval robot: start over, answer, and look inside the save file."""

import streamlit as st

from agents import lifecycle, readmodel, runs
from agents.errors import StaleFormError, UserError
from agents.identity import ANSWER
from agents.robot.graph import APPROVING_ANSWER
from agents.robot.graph import NODES as ROBOT_NODES
from agents.robot.spec import DEFAULT_THREAD_ID
from dashboard import auth, diff_view, live, presenter, resources, robot_lessons, robot_view
from dashboard.agent_pages import foreign_thread, show_agent_queue
from dashboard.boxes import box
from dashboard.decision_view import forget
from dashboard.forms import act, drawn_head, show_flash, show_refusal, sidebar_forms, status_word
from dashboard.i18n import localized, t
from dashboard.robot_start_over import start_over, start_over_asked
from dashboard.robot_view import answered_message, show_messages, show_outcome, show_question, typed_rule
from dashboard.safe_markdown import code_with_its_punctuation, escape_markdown
from dashboard.savefile import show_checkpoints, show_writes
from dashboard.views import lazy_expander

store, settings = resources.store(), resources.settings()

# In presenter mode the thread and Start over sit beside the title (see below), no taller than it: on a
# projector's 1280×720 first screen Start over is whole, and the answers under the question stay well inside.
title_place, thread_place = st.columns(presenter.STATE_BESIDE_FOLD) if presenter.is_on() else (st.container(), None)
title_place.title(t("robot.title"))
st.caption(code_with_its_punctuation(t("robot.intro")))
st.info(code_with_its_punctuation(t("robot.rule")))
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
expected = drawn_head("robot-page", thread_id, head)  # Start over and the sidebar act on the head the page drew

if thread_place is not None and head is not None:  # presenter mode: beside the title, no taller than it
    thread_box = thread_place.container(gap=None)
    thread_box.markdown(code_with_its_punctuation(t("robot.thread", thread=f"`{thread_id}`")))
    wide = st.container() if start_over_asked(thread_id, head) else thread_box  # a confirmation is drawn wide
    start_over(store, settings, thread_id, head, expected, thread_box, wide)
else:
    top_left, top_right = st.columns([3, 1])
    top_left.markdown(t("robot.thread", thread=f"`{thread_id}`"))
    wide = st.container() if start_over_asked(thread_id, head) else top_right  # a confirmation is drawn wide
    start_over(store, settings, thread_id, head, expected, top_right, wide)


def answer(text: str, head_seen: str | None) -> None:
    """Resumes the thread with ``text``, refusing if the controls were stale (drawn for another head).

    Only an executed action is reported as a success; a refusal is a warning, so an answer other
    than ``yes`` never looks approved.
    """

    def send(head: str | None) -> tuple[str, str]:
        result = runs.resume_thread(store, settings, thread_id, text, expected_head=head, actor=auth.identity())
        return answered_message(result.outcome, text)

    if isinstance(act(head_seen, send, thread_id=thread_id, refused_key=robot_view.REFUSED_KEY), StaleFormError):
        robot_view.draw_as_it_is(st.session_state)  # the thread moved on: not its old question, the refusal under it


def free_answer(head_seen: str | None) -> None:
    """A typed answer, its rule shown as it is typed (typing reruns the thread's live part alone).

    Not a fragment of its own: a click on yes / no that takes the focus from a typed answer sends both
    at once, and a run of an inner fragment first would use up the click before the part's run."""
    typed = st.text_input(t("robot.free_answer"), key="robot-free-text")
    rule = st.empty()  # drawn by every run, so a rule never outlives its text
    if typed:  # shown before sending, so the exact-"yes" rule is visible, not a surprise
        rule.caption(typed_rule(typed, APPROVING_ANSWER))
    if st.button(t("robot.send"), key="robot-send"):
        answer(typed, head_seen)


def ask_question(asked: robot_view.Asked, moved_on: str | None) -> None:
    """The question; kept, its box saying so (``moved_on``), when the thread moved on elsewhere."""
    notice = None if moved_on is None else t("robot.moved_on", status=moved_on)
    show_question(asked.payload, asked.pending_action, notice)  # the same box either way: nothing below moves


def ask_controls(head_seen: str | None) -> None:
    """The question's answers: a click is checked against ``head_seen`` (the head the question was drawn
    for), so one on a question kept after the thread moved on elsewhere is refused as stale."""
    yes_col, no_col = st.columns(2)
    if auth.why_not(ANSWER):  # the question is shown; answering is for approvers
        st.info(t("auth.cannot_act", reason=auth.why_not(ANSWER)))
        return
    if yes_col.button(t("robot.yes"), key="robot-yes", width="stretch"):
        answer(APPROVING_ANSWER, head_seen)
    if no_col.button(t("robot.no"), key="robot-no", width="stretch"):
        answer("no", head_seen)
    free_answer(head_seen)


@live.fragment
def thread_part() -> None:
    """The open thread, a live part: it follows the database alone, within ``HITL_LIVE_REFRESH`` s.

    The thread is read again only after the database changed (:func:`dashboard.live.rows`). Another tab's
    answer shows here without drawing the page again; the question's controls stay, with a notice, until
    the page is drawn again, and a click on them is refused as stale. Parts that come and go are drawn in
    slots every run draws (see ``dashboard/robot_view.py``).
    """
    read = live.rows(f"robot-thread:{thread_id}", lambda: robot_view.read_thread(store, settings, thread_id))
    # A thread deleted elsewhere is one warning: none of the thread's elements stays on screen beside it.
    with box("robot-thread", read.head is None):
        if read.head is None:
            st.warning(t("robot.not_started"))
        else:
            show_thread(read)


def show_thread(read: robot_view.ThreadRead) -> None:
    """:func:`thread_part` of a thread that has a head: the question, the outcome, the save file."""
    result, found, counts = read.result, read.facts, read.counts
    assert result is not None and found is not None and counts is not None  # read with a head
    drawn = drawn_head("robot-thread", thread_id, read.head)
    view = robot_view.question_view(thread_id, result, drawn, st.session_state)
    moved_on = status_word(result) if view.stale else None
    presenting = presenter.is_on()
    # For a presenter the question is as wide as the page, so its proposal reads on one line, and the
    # column beside the answers shows the graph and the save file's rows as they change.
    wide_question = st.container() if presenting else None
    if wide_question is not None and view.asked is not None:
        with wide_question:
            ask_question(view.asked, moved_on)
    state_col, explain_col = st.columns(presenter.STATE_BESIDE_FOLD if presenting else [3, 2])
    with state_col:
        # The question and its answers come first: on a projector's 1280×720 they are on the first screen.
        question = st.container()  # a block every run draws: what is typed in it keeps its place and focus
        if view.asked is not None:
            with question:
                if wide_question is None:
                    ask_question(view.asked, moved_on)
                ask_controls(view.head)
        show_refusal(robot_view.REFUSED_KEY, thread_id)  # of an answer from its controls, drawn or taken away
        show_outcome(result, found.answer)
        attention = st.empty()
        if result.status == "attention":
            attention.error(
                escape_markdown(t("robot.attention", reason=localized(result.reason_text or result.reason)))
            )
        st.markdown(code_with_its_punctuation(f"{t('robot.next')}: `{', '.join(result.next) or '—'}`"))
        robot_lessons.lesson("stop", found)
        robot_lessons.lesson("ids", found)
        robot_lessons.lesson("yes", found)
        show_messages(result.values)
        if (payload_box := lazy_expander(t("robot.payload"), "robot-payload-open")) is not None:
            with payload_box:
                st.json(readmodel.to_jsonable(list(result.interrupts)))
    with explain_col:
        if presenting:  # beside the answers: where the run is, highlighted as it moves
            steps = presenter.step_states(ROBOT_NODES, result.next, result.status)
            st.markdown(presenter.steps_markdown(steps, finished=result.status == "done"))
            # what the save file gained with the last action
            robot_view.show_latest_writes(store, thread_id)
        with presenter.folded(f"**{t('robot.explain.title')}**", "robot-explain"):
            if not presenter.is_on():  # a folded box says its title on its fold
                st.markdown(f"**{t('robot.explain.title')}**")
            for key in ("checkpoint", "write", "ids", "pause"):
                said = t(f"robot.explain.{key}", thread=thread_id)  # the thread shown, not the default
                st.markdown(code_with_its_punctuation(said))

    st.header(t("robot.savefile"))
    st.markdown(code_with_its_punctuation(t("robot.counts", **counts)))
    st.caption(code_with_its_punctuation(t("robot.ids.short")))
    st.subheader(code_with_its_punctuation(t("robot.checkpoints")))
    robot_lessons.lesson("checkpoints", found)
    show_checkpoints(store, thread_id)  # a page of rows at a time: only they are decoded
    latest_col, anatomy_col = st.columns([2, 3])
    with latest_col:
        robot_lessons.lesson("latest", found)
    with anatomy_col:
        robot_lessons.show_id_anatomy(found.latest_id or read.head)
    st.subheader(code_with_its_punctuation(t("robot.writes")))
    robot_lessons.lesson("pause", found)
    show_writes(store, thread_id)
    diff_view.show_head_change(store, thread_id, "robot")  # what the last step or update_state changed
    with box("robot-resumes", len(found.resumes)):  # a thread started over elsewhere lists none of its old rows
        if found.resumes:
            robot_lessons.show_resume_rows(found)
    robot_lessons.show_quiz(found)


forget(st.session_state, robot_view.QUESTION_KEY, robot_view.REFUSED_KEY)  # the page's run draws the thread as it is
thread_part()

show_agent_queue(store, "robot", thread_id)  # the thread shown above is not repeated here

sidebar_forms(store, settings, thread_id, head)  # the head the page drew
