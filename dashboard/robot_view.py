"""The robot page's question, outcome and messages, and what it says about an answer (a typed text shown verbatim).

The open thread is a live part of the page (``app_pages/robot.py``): what it reads is :func:`read_thread`,
and the question it keeps drawn after another tab answered is :func:`question_view`. Streamlit 1.67 can
send the end of a live part's run as "stopped early" when another live part starts its run, and then
keeps the elements that run did not draw; so what comes and goes (a notice, a rule under a typed
answer) is drawn in ``st.empty()`` slots every run draws. A part that holds an input (the question and
its answers) is a container every run draws, never a slot refilled with a container: a slot is first
sent empty, and a browser that draws the empty slot before the container removes the input it held,
with its focus.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import streamlit as st
from streamlit.errors import StreamlitAPIException

from agents import readmodel, runs
from agents.db import Store
from agents.settings import Settings
from agents.texts import VISIBLE_SPACE, verbatim
from dashboard import presenter, robot_lessons, savefile, text_fit
from dashboard.boxes import box
from dashboard.decision_view import moved_on
from dashboard.diff_view import code_span
from dashboard.formats import node_name, unbroken_amounts
from dashboard.i18n import t, t_or
from dashboard.safe_markdown import escape_markdown


def waiting_question(interrupts: tuple[Any, ...] | list[Any]) -> dict[str, Any]:
    """The waiting question as ``{"question", "action"}``: a payload that is not an object is its action."""
    payload = interrupts[0] if interrupts else {}
    return payload if isinstance(payload, dict) else {"action": payload}


@dataclass(frozen=True)
class ThreadRead:
    """The robot's thread as read at one moment: its head (None: nothing saved), result, facts and row counts."""

    head: str | None
    result: runs.RunResult | None = None
    facts: robot_lessons.Facts | None = None
    counts: Mapping[str, int] | None = None


def read_thread(store: Store, settings: Settings, thread_id: str) -> ThreadRead:
    """Reads what the robot page's live part shows of ``thread_id``."""
    head = readmodel.head_checkpoint_id(store, thread_id)
    if head is None:
        return ThreadRead(None)
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
    return ThreadRead(result.head_checkpoint_id or head, result, found, readmodel.table_counts(store, thread_id))


@dataclass(frozen=True)
class Asked:
    """A question the robot asked: its payload (``{"question", "action"}``) and the state's pending action."""

    payload: Mapping[str, object]
    pending_action: object


@dataclass(frozen=True)
class QuestionView:
    """The question the live part draws controls for this run.

    Attributes:
        asked: The question (None: none to draw).
        stale: The thread moved on since the question was drawn: its controls stay, and a click is refused.
        head: The head a click is checked against (the one the question was drawn for when stale).
    """

    asked: Asked | None
    stale: bool
    head: str | None


#: The session key of (thread, head, question) the robot's controls were last drawn for.
QUESTION_KEY = "robot:question-view"


def question_view(thread_id: str, result: runs.RunResult, drawn: str | None, state: Any) -> QuestionView:
    """The question to draw for ``result``, given what was remembered in ``state`` (the session).

    A waiting thread's question is drawn (a click checked against ``drawn``, the head the previous run
    drew). A question drawn before whose thread moved on elsewhere (its head moved, or another process is
    answering it: ``decision_view.moved_on``) is drawn again, stale, with the head it was drawn for, until
    the page is drawn again (``decision_view.forget``): a click then lands on the refusal, never on controls
    that vanished under the pointer.
    """
    if result.status == "waiting":
        asked = Asked(waiting_question(result.interrupts), result.values.get("pending_action", ""))
        state[QUESTION_KEY] = (thread_id, result.head_checkpoint_id, asked)
        return QuestionView(asked, False, drawn)
    remembered = state.get(QUESTION_KEY)
    if remembered and remembered[0] == thread_id and moved_on(remembered[1], result.head_checkpoint_id, result.status):
        return QuestionView(remembered[2], True, remembered[1])
    state.pop(QUESTION_KEY, None)
    return QuestionView(None, False, drawn)


#: The session key of (thread, message) of the last answer from the question's controls that was refused.
REFUSED_KEY = "robot:refused"


def draw_as_it_is(state: Any) -> None:
    """After an answer refused as stale (the thread moved on elsewhere since its question was drawn): the
    question kept for the old state goes, and the thread's live part is drawn again at once, as the thread is
    now, the refusal under where the question was; what is typed in the answer box stays, for a question
    asked again. A run of the whole page (not of the part alone) drew the thread as it is already."""
    state.pop(QUESTION_KEY, None)
    try:
        st.rerun(scope="fragment")
    except StreamlitAPIException:  # a run of the whole page: it kept no question to take away
        pass


def answered_message(outcome: str, text: str) -> tuple[str, str]:
    """``(kind, message)`` after an answer: only an executed action is a success, a refusal a warning.

    The message is plain text, the answer as typed: it is queued for :func:`dashboard.forms.show_flash`, which
    shows it as text (escaped there, once: escaped here too, it read ``\\<b\\>`` for ``<b>``).
    """
    shown = verbatim(text)
    if outcome in ("executed", "refused"):
        return ("success" if outcome == "executed" else "warning"), t(f"robot.answered.{outcome}", answer=shown)
    return "info", t("robot.answered", answer=shown)


def typed_rule(typed: str, approving: str) -> str:
    """What the robot will do with a typed answer, the answer shown with its spaces visible.

    Compared as typed, spaces included, as the robot compares it, so the exact-"yes" rule is no surprise.
    """
    will = "robot.will_execute" if typed == approving else "robot.will_refuse"
    return f"{escape_markdown(verbatim(typed))}: {t(will)}"


def labelled_line(label: str, text: object) -> str:
    """``**label:** text`` with the text escaped, so it reads as it is written, and each amount kept with its
    unit on one line ("800,000 KRW" never wraps before "KRW")."""
    return f"**{label}:** {escape_markdown(unbroken_amounts(str(text)))}"


def show_question(payload: Mapping[str, object], pending_action: object, headline: str | None = None) -> None:
    """That the robot waits, with its question in the same box; then the proposed action (the payload's,
    else the state's pending one).

    Compact, so the yes / no under it stay on a projector's 1280×720 first screen, presenter mode's larger
    type included: a text action takes one line after its bold label; an action that is not a text (a JSON
    object) is drawn as JSON under its label. The agent's text is escaped: Markdown in it reads as written.
    """
    said = headline or t("robot.waiting")  # a question kept after the thread moved on says so instead
    st.warning(f"{said}\n\n{labelled_line(t('robot.question'), payload.get('question', ''))}")
    action = payload.get("action", pending_action)
    if isinstance(action, str):
        st.markdown(labelled_line(t("robot.action"), action))
    else:
        st.markdown(f"**{t('robot.action')}:**")
        st.json(readmodel.to_jsonable(action))


#: The key of the status and outcome's row, and its style: a value wraps between its words where its column
#: cannot hold it on one line (Streamlit cuts a metric's value with "…").
OUTCOME_KEY = "robot-outcome"
OUTCOME_STYLE = f'<style>.st-key-{OUTCOME_KEY} [data-testid="stMetricValue"] * {{ white-space: normal; }}</style>'


def show_outcome(result: runs.RunResult, answered: str | None) -> None:
    """Status and outcome side by side, the outcome styled by what happened (a refusal is no success).

    Each column as wide as its value needs (:func:`dashboard.text_fit.metric_columns`): "needs attention"
    reads on one line beside "none yet" at 1280 px with the sidebar open. In presenter mode's larger type the
    row cannot hold both there: a value then wraps between its words (:data:`OUTCOME_STYLE`), never cut.
    """
    status = t_or(f"status.{result.status}", result.status)
    outcome = t(f"outcome.{result.outcome}") if result.outcome else t("robot.outcome.none")
    metrics = [(t("robot.status"), status), (t("robot.outcome"), outcome)]
    row = st.container(key=OUTCOME_KEY)
    row.html(OUTCOME_STYLE)  # a style of ours only: it takes no room
    status_col, outcome_col = row.columns(text_fit.metric_columns(metrics))
    status_col.metric(t("robot.status"), escape_markdown(status))
    outcome_col.metric(t("robot.outcome"), escape_markdown(outcome))  # a metric value is Markdown too
    said = st.empty()  # drawn by every run: the line of an outcome the thread no longer has goes with it
    if result.outcome == "executed":
        said.success(t("robot.outcome.executed", answer=escape_markdown(verbatim(answered))))
    elif result.outcome == "refused":
        said.warning(t("robot.outcome.refused", answer=escape_markdown(verbatim(answered))))
    st.caption(t("robot.outcome.apart"))


def show_messages(values: Mapping[str, Any]) -> None:
    """The thread's messages as a chat, each as text, in a box (:func:`dashboard.boxes.box`): a thread sent
    back to an earlier checkpoint elsewhere has fewer, and none of the later ones stays on screen."""
    st.markdown(f"**{t('robot.messages')}**")
    messages = readmodel.to_jsonable(values.get("messages", []))
    with box("robot-messages", len(messages)):
        for message in messages:
            with st.chat_message("user" if message["type"] == "human" else "assistant"):
                st.text(message["content"])


#: The rows of the save file a presenter sees beside the answers when nothing is new yet.
LATEST_ROWS = 4
#: How many characters of a value the presenter's box shows: its column is a third of the page.
LATEST_VALUE_LENGTH = 24


def latest_value(value: Any, limit: int = LATEST_VALUE_LENGTH) -> str:
    """A write's value for the presenter's box, in at most ``limit`` characters, as the save file's table
    previews it, except that no space is lost: a text whose preview would hide one (:func:`_hides_spaces`) is
    shown as :func:`agents.texts.verbatim` shows it, quoted with its spaces visible (``'yes␣'``, as the
    outcome says it), and such a text inside a value (``__resume__``'s ``["yes␣"]``) with its spaces visible.
    ``yes `` never reads as ``yes``."""
    plain = readmodel.to_jsonable(value)
    if isinstance(plain, str) and _hides_spaces(plain):
        shown = verbatim(plain)
        return shown if len(shown) <= limit else f"{shown[: limit - 1]}…"
    return savefile.value_preview(_spaces_shown(plain), limit=limit)


def _hides_spaces(text: str) -> bool:
    """Whether a one-line preview of ``text`` would hide something: a space at its start or end or two in a
    row (a preview keeps one between words), a line break or an invisible character, or a typed "␣"."""
    return " ".join(text.split()) != text or not text.isprintable() or VISIBLE_SPACE in text


def _spaces_shown(value: Any) -> Any:
    """``value`` (plain data) with each text that would hide a space written as :func:`verbatim` writes it,
    without its quotes (a JSON preview quotes it)."""
    if isinstance(value, str):
        return verbatim(value)[1:-1] if _hides_spaces(value) else value
    if isinstance(value, dict):
        return {key: _spaces_shown(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_spaces_shown(item) for item in value]
    return value


def show_latest_writes(store: Store, thread_id: str) -> None:
    """For a presenter: the writes new since the previous action (marked "new" in the table below), else
    the last few, each as ``node · channel = value``, in a box beside the answers."""
    rows = savefile.writes(store, thread_id)
    new = presenter.new_keys(f"presenter-seen-writes-{thread_id}", (savefile.write_key(row) for row in rows))
    shown = [row for row in rows if savefile.write_key(row) in new] if new else rows[-LATEST_ROWS:]
    # In a box (:mod:`dashboard.boxes`): the next action's rows may be fewer, and none of these may stay.
    with box("presenter-latest-rows", len(shown), border=True, key="presenter-latest-rows"):
        st.markdown(f"**{t('presenter.rows.new' if new else 'presenter.rows.latest')}**")
        for row in shown:
            value = latest_value(savefile.decoded_value(store, row))
            # Each part as a code span: a value is the model's or the user's text, shown literally.
            st.caption(  # small: the column beside the answers is narrow
                t(
                    "presenter.rows.line",
                    node=code_span(node_name(row.node)),
                    channel=code_span(row.channel),
                    value=code_span(value),
                )
            )
