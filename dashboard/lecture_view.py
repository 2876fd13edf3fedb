"""The lecture page's tables, gate reviews and live progress box (cells and model text shown as text)."""

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import pandas as pd
import streamlit as st

from agents import runs
from agents.db import Store
from agents.errors import UserError
from agents.nodelog import node_runs
from dashboard import diff_view, text_fit
from dashboard.boxes import box
from dashboard.decision_view import moved_on
from dashboard.formats import code_word
from dashboard.forms import status_word
from dashboard.i18n import localized, t
from dashboard.safe_markdown import DOCUMENT_BOX, document_style, escape_markdown, inert_markdown
from dashboard.views import lazy_expander, show_table

#: Columns whose cells are stored codes, shown as words (reviewer names, node-log statuses).
CODE_COLUMNS = {"reviewer": "lecture.reviewer", "status": "nodelog"}


class Progress(Protocol):
    """Live progress lines fed with a run's events (``agents.lecture.progress.TaskProgress``)."""

    def feed(self, event: dict) -> None: ...

    def text(self) -> str: ...


def frame(rows: list[dict]) -> pd.DataFrame:
    """A table with translated column headers and code words (cells are text, never HTML)."""
    worded = [{k: code_word(CODE_COLUMNS[k], v) if k in CODE_COLUMNS else v for k, v in row.items()} for row in rows]
    return pd.DataFrame(worded).rename(columns=lambda column: t(f"lecture.col.{column}"))


#: The plan table's column widths in pixels: a 1280 px page's 818 px grid, its description the widest, each
#: cell's text wrapped in rows as tall as the longest needs (:func:`plan_row_height`), so none is cut.
PLAN_WIDTHS = {"id": 48, "title": 190, "description": 480, "researched": 96}


def plan_columns() -> dict[str, Any]:
    """The plan table's columns (by their headers in the session's language), sized by :data:`PLAN_WIDTHS`."""
    return {t(f"lecture.col.{name}"): st.column_config.Column(width=width) for name, width in PLAN_WIDTHS.items()}


def plan_row_height(plan: list[dict]) -> int:
    """The plan table's row height: every title and description whole, wrapped in its column."""
    lines = [
        text_fit.lines_needed(str(row.get(name) or ""), PLAN_WIDTHS[name])
        for row in plan
        for name in ("title", "description")
    ]
    return text_fit.row_height(max(lines, default=1))


def log_label(row: Mapping[str, Any]) -> str:
    """A node-log row's label: a reviewer's name in words, a subtopic's title as it is."""
    return code_word("lecture.reviewer", row["label"]) if row["node"].startswith("review_") else row["label"]


def log_rows(log: list[dict]) -> list[dict]:
    """Node-log rows as the table shows them: times in seconds from the first start, rounded to ms."""
    first = min((row["started_at"] for row in log), default=0.0)
    return [
        {
            "node": row["node"],
            "label": log_label(row),
            "step": row["step"],
            "status": row["status"],
            "start": round(row["started_at"] - first, 3),
            "duration": round(row["ended_at"] - row["started_at"], 3) if row["ended_at"] else None,
        }
        for row in log
    ]


def show_gate_reviews(reviews: list[dict]) -> None:
    """The latest round's reviews, whole, above the decision they explain: score and every feedback line."""
    if not reviews:
        return
    st.markdown(f"**{t('lecture.gate_reviews', round=reviews[0]['round'])}**")
    for review, column in zip(reviews, st.columns(len(reviews)), strict=True):
        with column, st.container(border=True):
            reviewer = escape_markdown(code_word("lecture.reviewer", review["reviewer"]))
            st.markdown(f"**{reviewer}** · {escape_markdown(str(review['score']))}")  # a value of the state
            st.text("\n".join(f"- {line}" for line in review["feedback"]) or "—")  # model text: shown as text


@dataclass(frozen=True)
class GateView:
    """The question the lecture's live part draws a form for this run.

    Attributes:
        payload: The question (the gate's or the plan review's).
        reviews: The latest round's reviews, drawn above the gate's form.
        stale: The thread moved on since the form was drawn: it stays, and a decision from it is refused.
        head: The head a decision is checked against (the one the form was drawn for when stale).
    """

    payload: dict[str, Any]
    reviews: tuple[dict[str, Any], ...]
    stale: bool
    head: str | None


#: The session key of (thread, head, payload, reviews) the lecture's form was last drawn for.
GATE_KEY = "lecture:gate-view"
#: The session key of (thread, message) of the last decision from the form that was refused.
REFUSED_KEY = "lecture:refused"


def gate_view(
    thread_id: str,
    result: runs.RunResult,
    drawn: str | None,
    state: Any,
    reviews_of: Callable[[Mapping[str, Any]], Iterable[dict[str, Any]]],
) -> GateView | None:
    """The question to draw a form for, given what was remembered in ``state`` (the session); None: none.

    A waiting thread's question is drawn (a decision checked against ``drawn``, the head the previous
    run drew). A form drawn before whose thread moved on elsewhere is drawn again, stale, with the head it
    was drawn for, until the page is drawn again (``decision_view.forget``). ``reviews_of(values)`` are the
    latest round's reviews (``agents.lecture.progress.latest_reviews``: the agent's, passed by its page).
    """
    if result.status == "waiting" and result.interrupts:
        payload = result.interrupts[0] if isinstance(result.interrupts[0], dict) else {}
        reviews = tuple(reviews_of(result.values))
        state[GATE_KEY] = (thread_id, result.head_checkpoint_id, payload, reviews)
        return GateView(payload, reviews, False, drawn)
    remembered = state.get(GATE_KEY)
    if remembered and remembered[0] == thread_id and moved_on(remembered[1], result.head_checkpoint_id, result.status):
        return GateView(remembered[2], remembered[3], True, remembered[1])
    state.pop(GATE_KEY, None)
    return None


def question_shape(view: GateView | None, read_only: bool) -> tuple[object, ...] | None:
    """What decides the elements of the question's part (:mod:`dashboard.boxes`): no question, or its stage
    (the gate's form or the plan review's), how many reviews are shown above the gate's, and whether the
    user may only read it (``read_only``)."""
    if view is None:
        return None
    return view.payload.get("stage"), len(view.reviews), read_only


def follow(run: Callable[[Callable[[dict], None]], runs.RunResult], progress: Progress) -> runs.RunResult:
    """Runs ``run(on_event)`` inside a status box that lists each node as it starts and ends."""
    with st.status(t("lecture.running"), expanded=True) as status:
        lines = st.empty()

        def on_event(event: dict) -> None:
            progress.feed(event)
            lines.text(progress.text())

        try:
            result = run(on_event)
        except UserError:  # refused before anything was written: no run failed
            status.update(label=t("lecture.run_refused"), state="error")
            raise
        except BaseException:
            status.update(label=t("lecture.run_failed"), state="error")
            raise
        status.update(
            label=escape_markdown(t("lecture.run_done", status=status_word(result))), state="complete", expanded=False
        )
    return result


def status_metrics(status: str, values: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The thread's status, outcome, draft round and plan version, each as ``(label, value)`` for a metric."""
    return [
        (t("lecture.status"), code_word("status", status)),
        (t("lecture.outcome"), t(f"lecture.outcome.{values.get('outcome') or 'none'}")),
        (t("lecture.round"), str(values.get("round", "—"))),
        (t("lecture.plan_version"), str(values.get("plan_version", "—"))),
    ]


def show_status(result: runs.RunResult) -> None:
    """Status, outcome (and why it came), round and plan version; the reason a thread needs attention.

    The metrics' columns are as wide as their values need (:func:`dashboard.text_fit.metric_columns`): a word
    such as "그대로 저장됨" reads whole at 1280×720 beside the round's and the version's single digits.

    Drawn in the thread's live part: what comes and goes is drawn in slots every run draws, so a status
    that changed under the user moves nothing below it (a half-typed note keeps its place and focus).
    """
    values = result.values
    outcome = values.get("outcome") or "none"
    metrics = status_metrics(result.status, values)
    for column, (label, value) in zip(st.columns(text_fit.metric_columns(metrics)), metrics, strict=True):
        column.metric(label, value)
    attention, why, reason = st.empty(), st.empty(), st.empty()
    if result.status == "attention":
        attention.error(escape_markdown(t("lecture.attention", reason=localized(result.reason_text or result.reason))))
    if outcome != "none":
        why.caption(t(f"lecture.outcome_why.{outcome}"))
    if outcome == "rejected" and values.get("reject_reason"):
        reason.caption(escape_markdown(t("lecture.reject_reason", reason=values["reject_reason"])))


def document_shape(values: Mapping[str, Any]) -> tuple[str | None, bool]:
    """What :func:`show_document` draws for ``values``: which document (``final``, ``draft``, None: none),
    and whether where it was saved is said."""
    kind = "final" if values.get("final_plan") else "draft" if values.get("draft") else None
    return kind, kind is not None and bool(values.get("plan_path"))


#: The key of the box the draft or final plan is drawn in (its style is scoped to it).
DOCUMENT_KEY = f"lecture-{DOCUMENT_BOX}"


def show_document(thread_id: str, values: Mapping[str, Any]) -> None:
    """The final plan, else the draft: where it was saved, its download, and the document itself."""
    document = values.get("final_plan") or values.get("draft")
    if document:
        st.subheader(t("lecture.final_plan" if values.get("final_plan") else "lecture.draft"))
        if values.get("plan_path"):
            st.caption(escape_markdown(t("lecture.saved_to", path=values["plan_path"])))
        st.download_button(
            t("lecture.download"),
            data=document.encode("utf-8"),
            file_name=f"{thread_id}.md",
            mime="text/markdown",
            key=f"lecture-download-{thread_id}",
        )
        with st.container(border=True, key=DOCUMENT_KEY):
            # Model text (it quotes the user's fields): formatting renders; images, links and HTML are text.
            document_style()  # its tables' long words wrap
            st.markdown(inert_markdown(document))


def show_tables(
    store: Store,
    thread_id: str,
    values: Mapping[str, Any],
    *,
    plan: list[dict],
    scores: list[dict],
    reviews: list[dict],
) -> None:
    """The plan, scores and reviews tables, the draft or final plan, the head's change and the node log."""
    st.subheader(t("lecture.plan"))
    show_table(frame(plan), t("lecture.no_rows"), column_config=plan_columns(), row_height=plan_row_height(plan))
    st.subheader(t("lecture.scores"))
    show_table(frame(scores), t("lecture.no_reviews"))
    st.subheader(t("lecture.reviews"))
    feedback = st.column_config.TextColumn(width="large")  # the widest column: the whole text is above, at the gate
    show_table(frame(reviews), t("lecture.no_reviews"), column_config={t("lecture.col.feedback"): feedback})
    # The draft, then the final plan: more or fewer elements, nothing below moves, and a plan sent back to
    # its draft elsewhere keeps no line of the saved one (:func:`dashboard.boxes.box`).
    with box("lecture-document", document_shape(values)):
        show_document(thread_id, values)
    diff_view.show_head_change(store, thread_id, "lecture")  # what the last step or update_state changed
    if (log_box := lazy_expander(t("lecture.node_log"), "lecture-node-log-open")) is not None:
        with log_box:
            show_table(frame(log_rows(node_runs(store, thread_id=thread_id))), t("lecture.no_rows"))
