"""Home's card of one agent: its threads, and, when none is left, how many deleted ones are on record.

"No threads yet" would be untrue of an agent whose every thread was deleted: a thread deleted while it waited
or needed attention leaves a record (:func:`agents.deletion_record.deleted_threads`), so the card says how many
and links to the checkpoint explorer's *Deleted threads* (:mod:`dashboard.deleted_view`), as a deletion's
notification does. A thread deleted once it was done leaves no record, and is not counted, except a refund case
a person decided (its decision lived only in its thread).
"""

from __future__ import annotations

import streamlit as st

from agents.db import Store
from agents.deletion_record import DELETED_PAGE, DELETED_QUERY, DeletedThread, deleted_threads
from agents.spec import AgentSpec
from dashboard.i18n import t
from dashboard.navigation import pages
from dashboard.views import show_threads_page


def no_threads_text(deleted: int) -> str:
    """What an agent's card says when it has no threads: none yet, or none now and how many were deleted."""
    return t("home.no_threads_deleted", count=deleted) if deleted else t("home.no_threads")


def deleted_page_path() -> str:
    """The script of the page that lists deleted threads (the explorer, at the URL path notifications link to)."""
    return next(entry.path for entry in pages() if entry.url_path == DELETED_PAGE)


def show_agent_threads(store: Store, spec: AgentSpec) -> None:
    """The agent's threads (:func:`dashboard.views.show_threads_page`, no agent column: the card names it); with
    none, what :func:`no_threads_text` says, and a link to the deleted ones, the newest pointed out."""
    gone: list[DeletedThread] = []

    def when_none() -> str:  # read only when the agent has no thread to show
        gone.extend(deleted_threads(store, [spec]))
        return no_threads_text(len(gone))

    empty = t("home.no_threads")
    show_threads_page(f"home-threads-{spec.name}", store, spec.name, empty, with_agent=False, when_none=when_none)
    if gone:
        st.page_link(
            deleted_page_path(),
            label=t("home.deleted_link", count=len(gone)),
            icon=":material/delete:",
            query_params={DELETED_QUERY: gone[0].thread_id},
        )
