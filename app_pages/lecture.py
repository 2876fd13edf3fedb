"""The lecture planner: start a run, follow it live, decide at the gate, download the plan."""

import json

import pandas as pd
import streamlit as st

from agents import lifecycle, runs
from agents.errors import RunFailedError, UserError
from agents.identity import ANSWER, START_RUN
from agents.lecture.graph import AGENT_NAME
from agents.lecture.progress import (
    PROGRESS_WORDS,
    TaskProgress,
    latest_reviews,
    review_rows,
    score_rows,
    subtopic_rows,
)
from agents.lecture.research import CorpusResearch, TavilyResearch, read_corpus
from agents.lecture.services import LectureServices
from agents.nodelog import node_runs
from agents.registry import get_agent
from agents.validation import parse_json
from dashboard import auth, diff_view, resources
from dashboard.formats import code_word
from dashboard.forms import (
    act,
    drawn_head,
    field_help,
    field_label,
    show_flash,
    show_run_failed,
    shown_head,
    sidebar_forms,
    status_word,
)
from dashboard.i18n import current_language, localized, t
from dashboard.safe_markdown import escape_markdown, inert_markdown
from dashboard.views import PICKER_LIMIT, lazy_expander, show_inbox, show_table, status_text

store, settings = resources.store(), resources.settings()
spec = get_agent(AGENT_NAME)

st.title(t("lecture.title"))
st.caption(t("lecture.intro"))
lecture_settings = settings.agent(AGENT_NAME)  # typed and validated when the settings were loaded


def model_words(services: LectureServices) -> str:
    """The model the planner uses, in the session's language (never a key)."""
    if services.gemini_key is None:
        return t("lecture.model.embedded", latency=f"{services.model_latency:g}")
    return t("lecture.model.gemini", models=" → ".join(services.gemini_models))


def research_words(services: LectureServices) -> str:
    """The research source, in the session's language (never a key)."""
    source = services.research_source()
    if isinstance(source, CorpusResearch):
        return t("lecture.research.corpus", count=len(read_corpus(source.corpus_dir)))
    if isinstance(source, TavilyResearch):
        return t("lecture.research.tavily")
    return source.describe()


st.caption(t("lecture.model", model=model_words(lecture_settings.services)))
st.caption(t("lecture.research", source=research_words(lecture_settings.services)))
st.info(t("lecture.gate_rule", threshold=lecture_settings.threshold, max_rounds=lecture_settings.max_rounds))
show_flash()


def follow(run) -> runs.RunResult:
    """Runs ``run(on_event)`` inside a status box that lists each node as it starts and ends."""
    progress = TaskProgress(words={mark: t(f"lecture.progress.{mark}") for mark in PROGRESS_WORDS})
    with st.status(t("lecture.running"), expanded=True) as status:
        lines = st.empty()

        def on_event(event: dict) -> None:
            progress.feed(event)
            lines.text(progress.text())

        try:
            result = run(on_event)
        except BaseException:
            status.update(label=t("lecture.run_failed"), state="error")
            raise
        status.update(
            label=escape_markdown(t("lecture.run_done", status=status_word(result))), state="complete", expanded=False
        )
    return result


st.subheader(t("lecture.new_run"))
with st.form("lecture-start"):
    values = {}
    for field in spec.start_fields:
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
        st.error(escape_markdown(t("lecture.bad_input", error=localized(error))))
    except RunFailedError as error:  # what finished is saved; the thread needs attention: it is shown below
        show_run_failed(error)
        st.query_params["thread"] = error.thread_id
    else:
        st.query_params["thread"] = result.thread_id

st.header(t("lecture.threads"))
own_statuses = {x.thread_id: x for x in lifecycle.thread_statuses(store, agent=AGENT_NAME)}
thread_ids = list(own_statuses)
thread_id = thread_ids[0] if thread_ids else None
missing = None  # a link's thread id that is malformed or not a lecture thread: named below, as text
requested = st.query_params.get("thread")
if requested:
    try:  # checked before anything uses it
        thread_id = lifecycle.thread_named(store, requested, exact=True)
    except UserError:
        thread_id, missing = None, requested
    if thread_id is not None and thread_id not in own_statuses:
        thread_id, missing = None, thread_id
# The queue of this agent, without the thread shown below.
queue = [x for x in lifecycle.unfinished(list(own_statuses.values())) if x.thread_id != thread_id]
if (queue_box := lazy_expander(t("lecture.queue", count=len(queue)), "lecture-queue-open")) is not None:
    with queue_box:
        show_inbox(
            "lecture-queue",
            lambda shown=thread_id: [x for x in lifecycle.inbox(store, agent=AGENT_NAME) if x.thread_id != shown],
            t("lecture.queue_empty"),
        )
if missing is not None:
    st.warning(escape_markdown(t("lecture.thread_missing", thread=missing)))
if not thread_ids:
    st.caption(t("lecture.no_threads"))
else:
    if len(thread_ids) > PICKER_LIMIT:  # the shown thread and the newest others; the rest open by link
        thread_ids = ([thread_id] if thread_id else []) + [x for x in thread_ids if x != thread_id][:PICKER_LIMIT]
        st.caption(t("lecture.pick_more", shown=PICKER_LIMIT, total=len(own_statuses)))
    picked = st.selectbox(
        t("lecture.pick_thread"),
        thread_ids,
        index=thread_ids.index(thread_id) if thread_id else None,
        format_func=lambda tid: f"{tid} · {status_text(own_statuses[tid])}",
        placeholder=t("lecture.pick_placeholder"),
    )
    if picked is not None and picked != thread_id:
        st.query_params["thread"] = picked
        st.rerun()


#: Columns whose cells are stored codes, shown as words (reviewer names, node-log statuses).
CODE_COLUMNS = {"reviewer": "lecture.reviewer", "status": "nodelog"}


def frame(rows: list[dict]) -> pd.DataFrame:
    """A table with translated column headers and code words (cells are text, never HTML)."""
    worded = [{k: code_word(CODE_COLUMNS[k], v) if k in CODE_COLUMNS else v for k, v in row.items()} for row in rows]
    return pd.DataFrame(worded).rename(columns=lambda column: t(f"lecture.col.{column}"))


def log_label(row: dict) -> str:
    """A node-log row's label: a reviewer's name in words, a subtopic's title as it is."""
    return code_word("lecture.reviewer", row["label"]) if row["node"].startswith("review_") else row["label"]


def show_gate_reviews(values: dict) -> None:
    """The latest round's reviews, whole, above the decision they explain: score and every feedback line."""
    reviews = latest_reviews(values)
    if not reviews:
        return
    st.markdown(f"**{t('lecture.gate_reviews', round=reviews[0]['round'])}**")
    for review, column in zip(reviews, st.columns(len(reviews)), strict=True):
        with column, st.container(border=True):
            st.markdown(f"**{escape_markdown(code_word('lecture.reviewer', review['reviewer']))}** · {review['score']}")
            st.text("\n".join(f"- {line}" for line in review["feedback"]) or "—")  # model text: shown as text


def decision_form(result: runs.RunResult, payload: dict, expected: str | None) -> None:
    """The gate's decision: rework (with notes), save as is, or reject."""
    if payload.get("error"):
        st.error(escape_markdown(t("lecture.refused_answer", error=payload["error"])))
    actions = [a for a in payload.get("options", []) if a in ("rework", "save", "reject")]
    if "rework" not in actions:
        st.caption(t("lecture.limit_reached"))
    with st.form(f"lecture-decision-{result.thread_id}"):
        st.markdown(f"**{t('lecture.decision')}**")
        action = st.radio(
            t("lecture.action"),
            actions,
            format_func=lambda a: t(f"lecture.action.{a}"),
            key=f"lecture-action-{result.thread_id}",
        )
        notes = st.text_area(t("lecture.notes"), key=f"lecture-notes-{result.thread_id}")
        sent = st.form_submit_button(t("lecture.submit_decision"), type="primary")
    if sent:
        answer = {"action": action, "notes": notes} if action == "rework" else {"action": action}

        def resume(head_seen: str | None) -> str:
            done = follow(
                lambda on_event: runs.resume_thread(
                    store,
                    settings,
                    result.thread_id,
                    answer,
                    expected_head=head_seen,
                    on_event=on_event,
                    actor=auth.identity(),
                )
            )
            return t("lecture.decided", action=code_word("decision", action), status=status_word(done))

        act(expected, resume)


def plan_review_form(result: runs.RunResult, payload: dict, expected: str | None) -> None:
    """The optional plan review: approve, or edit the subtopics as a JSON list."""
    if payload.get("error"):
        st.error(escape_markdown(t("lecture.refused_answer", error=payload["error"])))
    current = [
        {"id": s["id"], "title": s["title"], "description": s["description"]} for s in payload.get("subtopics", [])
    ]
    with st.form(f"lecture-plan-{result.thread_id}"):
        edited = st.text_area(
            t("lecture.plan_edit"),
            value=json.dumps(current, ensure_ascii=False, indent=2),
            height=260,
            key=f"lecture-plan-edit-{result.thread_id}",
        )
        approve = st.form_submit_button(t("lecture.approve_plan"), type="primary")
        apply_edit = st.form_submit_button(t("lecture.save_plan_edit"))
    if approve or apply_edit:

        def resume(head_seen: str | None) -> str:
            if approve:
                answer: object = "approve"
            else:
                answer = {"action": "edit_plan", "subtopics": parse_json(edited, "subtopics")}
            done = follow(
                lambda on_event: runs.resume_thread(
                    store,
                    settings,
                    result.thread_id,
                    answer,
                    expected_head=head_seen,
                    on_event=on_event,
                    actor=auth.identity(),
                )
            )
            sent = code_word("decision", "approve" if approve else "edit_plan")
            return t("lecture.decided", action=sent, status=status_word(done))

        act(expected, resume)


def show_thread(thread_id: str) -> None:
    """Status, plan, rounds, the waiting question, the draft or final plan, and the node log."""
    result = runs.current_result(store, settings, thread_id)
    values = result.values
    expected = drawn_head("lecture-page", thread_id, result.head_checkpoint_id)
    status_col, outcome_col, round_col, version_col = st.columns(4)
    status_col.metric(t("lecture.status"), code_word("status", result.status))
    if result.status == "attention":
        st.error(escape_markdown(t("lecture.attention", reason=localized(result.reason_text or result.reason))))
    outcome = values.get("outcome") or "none"
    outcome_col.metric(t("lecture.outcome"), t(f"lecture.outcome.{outcome}"))
    round_col.metric(t("lecture.round"), values.get("round", "—"))
    version_col.metric(t("lecture.plan_version"), values.get("plan_version", "—"))
    if outcome != "none":
        st.caption(t(f"lecture.outcome_why.{outcome}"))

    if result.status == "waiting" and auth.why_not(ANSWER):  # the state shows; answering is for approvers
        st.info(t("auth.cannot_act", reason=auth.why_not(ANSWER)))
    elif result.status == "waiting":
        payload = result.interrupts[0]
        if payload.get("stage") == "plan_review":
            st.warning(escape_markdown(t("lecture.waiting_plan", version=payload.get("plan_version"))))
            plan_review_form(result, payload, expected)
        else:
            st.warning(
                escape_markdown(
                    t(
                        "lecture.waiting_gate",
                        round=payload.get("round"),
                        score=payload.get("score"),
                        threshold=payload.get("threshold"),
                    )
                )
            )
            show_gate_reviews(values)  # what the decision is about comes before it
            decision_form(result, payload, expected)

    st.subheader(t("lecture.plan"))
    show_table(frame(subtopic_rows(values)), t("lecture.no_rows"))
    st.subheader(t("lecture.scores"))
    show_table(frame(score_rows(values)), t("lecture.no_reviews"))
    st.subheader(t("lecture.reviews"))
    feedback = st.column_config.TextColumn(width="large")  # the widest column: the whole text is above, at the gate
    show_table(frame(review_rows(values)), t("lecture.no_reviews"), column_config={t("lecture.col.feedback"): feedback})

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
        with st.container(border=True):
            # Model text (it quotes the user's fields): formatting renders; images, links and HTML are text.
            st.markdown(inert_markdown(document))

    diff_view.show_head_change(store, thread_id, "lecture")  # what the last step or update_state changed
    if (log_box := lazy_expander(t("lecture.node_log"), "lecture-node-log-open")) is not None:
        with log_box:
            log = node_runs(store, thread_id=thread_id)
            first = min((row["started_at"] for row in log), default=0.0)
            show_table(
                frame(
                    [
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
                ),
                t("lecture.no_rows"),
            )


if thread_id:
    show_thread(thread_id)

shown = shown_head("lecture-page", thread_id) if thread_id else None  # the head show_thread drew
sidebar_forms(store, settings, thread_id if thread_id in thread_ids else None, shown)
