"""The robot page's lessons: six questions a newcomer should answer, each answered with the live thread.

Each answer is a fixed part (how LangGraph works) and a live part (what this thread's save file
shows: its count, its ids, its writes). The page shows every answer beside the data it explains.
:func:`show_quiz` then asks what the lessons let a reader work out but do not print (what the next
answer will add, where it will be written, what Start over keeps, what a graph without a saver
keeps), an answer revealed when its question is clicked: a quiz of the printed answers gives nothing
away that the page has not already shown.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

import streamlit as st

from agents.db import Store
from agents.errors import short_id
from agents.readsql import NULL_TASK_ID
from agents.texts import verbatim
from dashboard import presenter
from dashboard.checkpoint_ids import IdParts, id_parts, latest
from dashboard.fragments import fragment
from dashboard.i18n import t
from dashboard.safe_markdown import code_with_its_punctuation, escape_markdown
from dashboard.savefile import WriteRow, chain, writes
from dashboard.views import lazy_expander

#: The quiz: questions the lessons prepare for without answering them.
QUIZ = ("after_answer", "resume_under", "start_over", "no_saver")


@dataclass(frozen=True)
class ResumeWrite:
    """One ``__resume__`` row: under which checkpoint, for which task, with which value."""

    checkpoint_id: str
    task_id: str
    node: str
    value: object


@dataclass(frozen=True)
class Facts:
    """What the thread's save file shows, for the live part of the answers."""

    thread_id: str
    status: str
    next: tuple[str, ...]
    answer: str | None
    outcome: str
    checkpoints: int
    first_step: int | None
    last_step: int | None
    latest_id: str | None
    pause_id: str | None
    pause_step: int | None
    interrupts: int
    resumes: tuple[ResumeWrite, ...]


def facts(
    store: Store, thread_id: str, *, status: str, next_nodes: Sequence[str], answer: str | None, outcome: str
) -> Facts:
    """The live facts of ``thread_id`` (its chain and writes, shared with the tables; two values decoded)."""
    entries = chain(store, thread_id)
    rows = writes(store, thread_id)
    steps = {entry.checkpoint_id: entry.step for entry in entries}
    paused = [row for row in rows if row.channel == "__interrupt__"]
    pause_id = paused[-1].checkpoint_id if paused else None
    return Facts(
        thread_id=thread_id,
        status=status,
        next=tuple(next_nodes),
        answer=answer,
        outcome=outcome,
        checkpoints=len(entries),
        first_step=min(steps.values()) if steps else None,
        last_step=max(steps.values()) if steps else None,
        latest_id=latest(list(steps)),
        pause_id=pause_id,
        pause_step=steps.get(pause_id) if pause_id else None,
        interrupts=len(paused),
        resumes=tuple(_resume(store, row) for row in rows if row.channel == "__resume__"),
    )


def _resume(store: Store, row: WriteRow) -> ResumeWrite:
    value = store.saver.serde.loads_typed((row.type, row.blob))
    return ResumeWrite(row.checkpoint_id, row.task_id, row.node, value)


def _code(text: object) -> str:
    """``text`` as inline code (nothing in it is Markdown); one with a backtick or a line break is escaped."""
    shown = str(text)
    return f"`{shown}`" if "`" not in shown and len(shown.splitlines()) <= 1 else escape_markdown(shown)


def answer(question: str, found: Facts) -> str:
    """The answer to ``question``: the fixed part, then what this thread shows (Markdown)."""
    return f"{t(f'robot.a.{question}')} {_live(question, found)}".strip()


def _live(question: str, found: Facts) -> str:
    if question == "stop":
        key = "robot.live.stop.waiting" if found.status == "waiting" else "robot.live.stop.passed"
        return t(key, next=_code(", ".join(found.next) or "—"))
    if question == "checkpoints":
        return t("robot.live.checkpoints", count=found.checkpoints, first=found.first_step, last=found.last_step)
    if question == "ids":
        return t("robot.live.ids", thread=_code(found.thread_id), latest=_code(short_id(found.latest_id)))
    if question == "latest":
        parts = id_parts(found.latest_id or "")
        if parts is None:
            return t("robot.live.latest.other", latest=_code(found.latest_id or "—"))
        return t("robot.live.latest", short=_code(parts.short), time=_time(parts.taken_at), step=parts.step)
    if question == "pause":
        if found.pause_id is None:
            return t("robot.live.pause.none")
        key = "robot.live.pause.resumed" if found.resumes else "robot.live.pause.waiting"
        return t(key, count=found.interrupts, short=_code(short_id(found.pause_id)), step=found.pause_step)
    if question == "after_answer":
        key = "robot.live.after_answer.waiting" if found.status == "waiting" else "robot.live.after_answer.done"
        return t(key, count=found.checkpoints, first=found.first_step, last=found.last_step)
    if question == "resume_under":
        if found.pause_id is None:
            return t("robot.live.pause.none")
        return t("robot.live.resume_under", short=_code(short_id(found.pause_id)), step=found.pause_step)
    if question == "start_over":
        return t("robot.live.start_over", thread=_code(found.thread_id))
    if question == "no_saver":
        return ""
    if question == "yes":
        if found.answer is None:
            return t("robot.live.yes.none")
        outcome = t(f"outcome.{found.outcome}") if found.outcome else t("robot.outcome.none")
        return t("robot.live.yes", answer=_code(verbatim(found.answer)), outcome=outcome)
    raise ValueError(f"no question {question!r}")


def _time(moment: dt.datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M:%S.%f UTC")


def lesson(question: str, found: Facts) -> None:
    """One answer, shown beside its data: the question in bold, then the answer (folded for a presenter)."""
    if presenter.is_on():
        with st.expander(f":material/school: **{t(f'robot.q.{question}')}**", expanded=False):
            st.markdown(code_with_its_punctuation(answer(question, found)))
        return
    with st.container(border=True, key=f"robot-lesson-{question}"):
        said = f":material/school: **{t(f'robot.q.{question}')}** {answer(question, found)}"
        st.markdown(code_with_its_punctuation(said))


def show_id_anatomy(checkpoint_id: str) -> None:
    """The parts of a checkpoint id, what each encodes, and the full id to copy."""
    parts = id_parts(checkpoint_id)
    st.markdown(f"**{t('robot.anatomy.title')}**")
    # As text to select and copy: a code box's copy button would load the syntax highlighter's code,
    # about 300 ms of the 2.5 s this page takes in a new tab (a CPU profile in Chromium).
    st.text(checkpoint_id)
    if parts is None:
        st.caption(t("robot.anatomy.other"))
        return
    st.markdown(code_with_its_punctuation(_anatomy_table(parts)))


def _anatomy_table(parts: IdParts) -> str:
    rows = [
        (t("robot.anatomy.time"), parts.time_groups, t("robot.anatomy.time.means", time=_time(parts.taken_at))),
        (t("robot.anatomy.step"), parts.step_group, t("robot.anatomy.step.means", step=parts.step)),
        (t("robot.anatomy.tail"), parts.tail, t("robot.anatomy.tail.means", short=_code(parts.short))),
    ]
    head = f"| {t('robot.anatomy.part')} | {t('robot.anatomy.here')} | {t('robot.anatomy.means')} |\n|---|---|---|\n"
    return head + "\n".join(f"| {name} | `{value}` | {means} |" for name, value, means in rows)


def show_resume_rows(found: Facts) -> None:
    """Why two ``__resume__`` rows appear, with this thread's rows (folded for a presenter)."""
    question = f":material/school: **{t('robot.q.two_resumes')}**"
    if presenter.is_on():
        with st.expander(question, expanded=False):
            st.markdown(code_with_its_punctuation(t("robot.a.two_resumes")))
            _resume_list(found)
        return
    with st.container(border=True, key="robot-lesson-two-resumes"):
        st.markdown(code_with_its_punctuation(f"{question} {t('robot.a.two_resumes')}"))
        _resume_list(found)


def _resume_list(found: Facts) -> None:
    for row in found.resumes:
        key = "robot.resume.null" if row.task_id == NULL_TASK_ID else "robot.resume.task"
        said = t(
            key,
            short=_code(short_id(row.checkpoint_id)),
            task=_code(row.task_id),
            node=_code(row.node),
            value=_code(repr(row.value)),
        )
        st.markdown("- " + code_with_its_punctuation(said))


def show_quiz(found: Facts) -> None:
    """The quiz: each question a closed expander; its answer (with the live values) is made once it is opened."""
    st.header(t("robot.quiz"))
    st.caption(code_with_its_punctuation(t("robot.quiz.intro")))
    _quiz(found)


@fragment
def _quiz(found: Facts) -> None:
    """The questions, rerun alone when one is opened or closed.

    Open or closed is each expander's own value, which the browser sends (``lazy_expander``), not a click
    that flips a kept flag: the browser can hand one click to two runs (a live part's tick that leaves
    while the click waits to be sent takes it along, and the click's own message follows), and a flag
    flipped twice is the answer hidden again.
    """
    for number, question in enumerate(QUIZ, start=1):
        label = code_with_its_punctuation(f"{number}. {t(f'robot.q.{question}')}")
        if (opened := lazy_expander(label, f"robot-quiz-{question}")) is not None:
            opened.info(code_with_its_punctuation(answer(question, found)))
