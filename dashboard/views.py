"""Small drawing helpers shared by pages. User and model text is always drawn as text."""

from __future__ import annotations

import re
from typing import Any

import pandas as pd
import streamlit as st

from agents import lifecycle, readmodel
from agents.errors import UserError, short_id
from agents.registry import AGENTS
from agents.validation import validate_thread_id
from dashboard.i18n import t, t_or

_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_LINK = re.compile(r"(?<!!)\[([^\]]*)\]\(([^)]*)\)")


def inert_markdown(text: str) -> str:
    """Model-written Markdown made safe to render: no images, no clickable links.

    Streamlit already escapes raw HTML; this also stops an image from making
    every viewer's browser fetch a URL planted in the text, and shows a link's
    target as plain text instead of a link.
    """
    text = _IMAGE.sub(lambda m: f"[image: {m.group(1)}]", text)
    return _LINK.sub(lambda m: f"{m.group(1)} ({m.group(2).replace('://', ':// ')})", text)


def payload_summary(payload: Any) -> str:
    """One line for an interrupt payload: its question, or its JSON."""
    if isinstance(payload, dict) and isinstance(payload.get("question"), str):
        return payload["question"]
    return readmodel.to_json(payload).replace("\n", " ")


def describe_status(status: str, outcome: str, why: str) -> str:
    """A status in words: ``done · paid``, ``needs attention · <why>``, ``waiting``."""
    if status == "done":
        return f"{t('status.done')} · {t_or(f'outcome.{outcome}', outcome)}"
    if status == "attention":
        return f"{t('status.attention')} · {why}"
    return t(f"status.{status}")


def status_text(status: lifecycle.ThreadStatus) -> str:
    """A thread's status in a few words, e.g. ``needs attention · a step failed`` (for lists)."""
    return describe_status(status.status, status.outcome,
                           t_or(f"reason.{status.reason_code}", status.reason_code))


def threads_frame(threads: list[lifecycle.ThreadStatus]) -> pd.DataFrame:
    """The threads table, with translated headers and statuses."""
    return pd.DataFrame(
        {
            t("col.thread"): [x.thread_id for x in threads],
            t("col.agent"): [x.agent for x in threads],
            t("col.status"): [status_text(x) for x in threads],
            t("col.updated"): [x.updated_at.strftime("%Y-%m-%d %H:%M:%S") for x in threads],
            t("col.checkpoints"): [x.checkpoint_count for x in threads],
        }
    )


def show_inbox(items: list[lifecycle.ThreadStatus], empty_text: str, *, link: bool = True) -> None:
    """The inbox: each unfinished thread with its status, its reason (as text) and a link to act."""
    if not items:
        st.info(empty_text)
        return
    counts = {kind: sum(item.status == kind for item in items) for kind in ("waiting", "attention", "running")}
    keys = {"waiting": "home.inbox_count", "attention": "home.inbox_attention", "running": "home.inbox_running"}
    st.caption(" · ".join(t(keys[kind], count=count) for kind, count in counts.items() if count))
    for item in items:
        spec = AGENTS.get(item.agent)
        with st.container(border=True):
            left, right = st.columns([4, 1])
            title = t_or(f"agent.{item.agent}.title", item.agent)
            left.markdown(f"**{title}** · `{item.thread_id}` · {status_text(item)}")
            left.text(item.reason)
            if item.action:
                left.caption(t(f"action.{item.action}"))
            if link and spec is not None:
                right.page_link(spec.page, label=t("home.open"), icon=":material/open_in_new:",
                                query_params={"thread": item.thread_id})


def thread_details(store: Any, thread_id: str) -> list[tuple[readmodel.ChainCheckpoint, readmodel.CheckpointDetail]]:
    """Every checkpoint of a thread with its decoded detail, oldest first; decoded once per draw."""
    found = []
    for entry in readmodel.checkpoint_chain(store, thread_id):
        detail = readmodel.checkpoint_detail(store, thread_id, entry.checkpoint_id)
        if detail is not None:
            found.append((entry, detail))
    return found


def checkpoints_frame(details: list[tuple[readmodel.ChainCheckpoint, readmodel.CheckpointDetail]]) -> pd.DataFrame:
    """The save-file view's checkpoints table: one decoded row per checkpoint, oldest first."""
    return pd.DataFrame([
        {
            t("col.step"): entry.step,
            t("col.source"): entry.source,
            t("col.checkpoint_id"): entry.checkpoint_id,
            t("col.parent_id"): entry.parent_checkpoint_id or "",
            t("col.next"): ", ".join(entry.next),
            t("col.state"): readmodel.to_json(detail.values).replace("\n", " "),
        }
        for entry, detail in details
    ])


def writes_frame(writes: list[tuple[str, readmodel.WriteRecord]]) -> pd.DataFrame:
    """A writes table: checkpoint, task id, node, channel, value (as JSON text)."""
    return pd.DataFrame(
        {
            t("col.checkpoint_id"): [short_id(c) for c, _ in writes],
            t("col.task_id"): [w.task_id for _, w in writes],
            t("col.node"): [w.node for _, w in writes],
            t("col.channel"): [w.channel for _, w in writes],
            t("col.value"): [readmodel.to_json(w.value).replace("\n", " ") for _, w in writes],
        }
    )


def thread_writes(
    details: list[tuple[readmodel.ChainCheckpoint, readmodel.CheckpointDetail]],
) -> list[tuple[str, readmodel.WriteRecord]]:
    """Every write of a thread, decoded, oldest checkpoint first."""
    return [(entry.checkpoint_id, write) for entry, detail in details for write in detail.writes]


def preselect_query_thread(
    known: dict[str, lifecycle.ThreadStatus], *, page: str, agent_key: str, thread_key: str
) -> None:
    """Preselects the agent and thread named by ``?thread=``, once per link.

    An invalid or unknown id gets a clear message (``<page>.bad_thread`` /
    ``<page>.unknown_thread``) and selects nothing.
    """
    requested = st.query_params.get("thread")
    if not requested:
        return
    try:
        thread_id = validate_thread_id(requested)
    except UserError as error:
        st.error(t(f"{page}.bad_thread", error=error))
        return
    if thread_id not in known or known[thread_id].agent not in AGENTS:
        st.warning(t(f"{page}.unknown_thread", thread=thread_id))
        return
    applied_key = f"{page}:query-thread"
    if st.session_state.get(applied_key) != thread_id:
        st.session_state[applied_key] = thread_id
        st.session_state[agent_key] = known[thread_id].agent
        st.session_state[thread_key] = thread_id


def show_table(frame: pd.DataFrame, empty_text: str, **kwargs: Any) -> None:
    """A dataframe (cells are text, never HTML), or a caption when it has no rows."""
    if frame.empty:
        st.caption(empty_text)
    else:
        st.dataframe(frame, hide_index=True, width="stretch", **kwargs)
