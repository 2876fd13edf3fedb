"""The checkpoint explorer's *Deleted threads*: every agent's unfinished threads deleted, newest first.

A thread deleted while it waited or needed attention has no checkpoints left to pick; its record
(:func:`agents.deletion_record.deleted_threads`) says when, whose, its status then, who deleted it and why,
as ``python -m agents deletions`` lists it. A deletion's notification links here with the thread named
(``?deleted=THREAD``): the view then opens with that row first and marked.
"""

from __future__ import annotations

import streamlit as st

from agents.db import Store
from agents.deletion_record import DELETED_QUERY, DeletedThread, deleted_by_words, deleted_threads
from agents.registry import AGENTS
from agents.texts import render
from dashboard.formats import code_word, display_zone, timestamp
from dashboard.i18n import current_language, t, t_or
from dashboard.tables import Column, paged_table

#: The mark of the row the link names.
LINKED_MARK = "→"


def linked_first(rows: list[DeletedThread], linked: str | None) -> list[DeletedThread]:
    """``rows`` with the deletions of the thread ``linked`` names first (in their order), then the others."""
    return [row for row in rows if row.thread_id == linked] + [row for row in rows if row.thread_id != linked]


def deleted_columns(lang: str | None = None) -> list[Column[DeletedThread]]:
    """When, the agent (as people call it), the thread, its status then, who deleted it, why, and how a thread
    deleted once decided had ended (a refund case a person decided), in ``lang``."""
    lang, zone = lang or current_language(), display_zone()
    return [
        Column(t("deleted.col.deleted_at", lang), lambda row: timestamp(row.deleted_at, zone)),
        Column(t("col.agent", lang), lambda row: t_or(f"agent.{row.agent}.title", row.agent)),
        Column(t("col.thread", lang), lambda row: row.thread_id),
        Column(t("deleted.col.status", lang), lambda row: code_word("status", row.status, lang)),
        Column(t("deleted.col.deleted_by", lang), lambda row: render(deleted_by_words(row.deleted_by), lang)),
        Column(t("deleted.col.reason", lang), lambda row: row.reason),
        Column(t("deleted.col.outcome", lang), lambda row: render(row.outcome, lang)),
    ]


def show_deleted_threads(store: Store) -> None:
    """The folded list of deleted threads, open (the linked thread first) when the URL names one."""
    linked = st.query_params.get(DELETED_QUERY) or None
    rows = deleted_threads(store, AGENTS.values())
    with st.expander(t("deleted.title", count=len(rows)), expanded=linked is not None, icon=":material/delete:"):
        st.caption(t("deleted.help"))
        columns = deleted_columns()
        paged_table(
            "explorer-deleted",
            lambda: linked_first(rows, linked),  # the rows the title counted: read once a run
            columns,
            empty_text=t("deleted.none"),
            search_text=lambda row: " ".join(str(column.value(row)) for column in columns),
            marked=lambda row: LINKED_MARK if row.thread_id == linked else "",
        )
