"""What an agent's own page shares: the thread a link names, the thread picker's options, the agent's queue."""

from collections.abc import Mapping

import streamlit as st

from agents import ages, lifecycle, readmodel, statuspages
from agents.db import Store
from agents.errors import UserError
from dashboard import boxes, live, resources
from dashboard.i18n import t
from dashboard.views import (
    HOME_ROWS,
    PICKER_LIMIT,
    inbox_table,
    lazy_expander,
    show_every,
    status_text,
    threads_offered,
)


def linked_thread(
    store: Store, own: Mapping[str, lifecycle.ThreadStatus], requested: str | None
) -> tuple[str | None, str | None]:
    """The thread ``?thread=`` names among the agent's own (else the newest), and a named id that is not one.

    Returns:
        ``(thread, missing)``: the thread to show (None: none), and the link's id when it is malformed
        or not the agent's thread (to be named on the page, as text).
    """
    thread_id = next(iter(own), None)
    if not requested:
        return thread_id, None
    try:  # checked before anything uses it
        thread_id = lifecycle.thread_named(store, requested, exact=True)
    except UserError:
        return None, requested
    return (thread_id, None) if thread_id in own else (None, thread_id)


def picker_options(thread_ids: list[str], shown: str | None, limit: int = PICKER_LIMIT) -> list[str]:
    """The picker's options: every thread, or above ``limit`` the shown one and the newest others."""
    if len(thread_ids) <= limit:
        return thread_ids
    return ([shown] if shown else []) + [x for x in thread_ids if x != shown][:limit]


def show_agent_queue(store: Store, agent: str, shown: str | None) -> None:
    """The agent's unfinished threads but the one shown, in an expander titled with their count (made when open).

    The oldest :data:`~dashboard.views.HOME_ROWS` are read as one page of the kept index of statuses
    (:func:`agents.statuspages.queue_page`), with the counts of the whole queue; "Show all" reads the whole
    queue, for the session. A live part (:mod:`dashboard.live`): count and table follow the database on their own;
    the expander stays open when its count changes, and it and its parts are boxes (:mod:`dashboard.boxes`), so
    a case that arrives or leaves leaves no old line in it.
    """
    _agent_queue(store, agent, shown)


@live.fragment
def _agent_queue(store: Store, agent: str, shown: str | None) -> None:
    key, every_key = f"{agent}-queue", f"{agent}-queue:every"
    page = None
    if st.session_state.get(every_key):
        items = live.rows(key, lambda: [x for x in lifecycle.inbox(store, agent=agent) if x.thread_id != shown])
        total = len(items)
    else:
        page = live.rows(
            f"{key}:page", lambda: statuspages.queue_page(store, agent, shown, limit=HOME_ROWS), store=store
        )
        items, total = page.items, sum(page.counts.values()) if page.more else len(page.items)
    # A new count is a new title: the expander is drawn in a box of that count, so the old one, with its
    # rows, is removed before the new title is sent (no row of the old count is ever shown under it).
    with boxes.box(f"{key}:count", total):
        if (box := lazy_expander(t(f"{agent}.queue", count=total), f"{agent}-queue-open")) is None:
            return
        with box:
            if page is None or not page.more:  # the whole queue: counted from its rows
                inbox_table(key, items, t(f"{agent}.queue_empty"))
            else:
                _queue_page(store, agent, page, total)


def _queue_page(store: Store, agent: str, page: statuspages.QueuePage, total: int) -> None:
    """The oldest page of the queue, its overdue count of the whole queue, and its "Show all" button."""
    key, every_key = f"{agent}-queue", f"{agent}-queue:every"
    now, deadlines = ages.utc_now(), resources.settings().deadlines
    overdue = statuspages.overdue_counts(store, deadlines, now)[agent]
    if page.left_out is not None and lifecycle.is_overdue(page.left_out, deadlines, now):
        overdue -= 1
    inbox_table(key, page.items, t(f"{agent}.queue_empty"), counts=page.counts, overdue=max(overdue, 0))
    st.caption(t("home.inbox_page", shown=len(page.items), total=total))
    st.button(t("home.show_all", total=total), key=f"{every_key}-button", on_click=show_every, args=(every_key,))


def own_threads(store: Store, agent: str, requested: str | None) -> tuple[dict[str, lifecycle.ThreadStatus], bool]:
    """The agent's threads its page offers, newest first, and whether it has more.

    The newest :data:`~dashboard.views.HOME_ROWS` are read as one page of the kept index of statuses, with the
    thread the link names (``requested``) when it is the agent's and further on; once "Show every thread" was
    pressed (:func:`pick_own_thread`), every thread of the agent, for the session.
    """
    return threads_offered(store, agent, requested, every=bool(st.session_state.get(_every_key(agent))))


def _every_key(agent: str) -> str:
    return f"{agent}-threads:every"


def pick_own_thread(
    agent: str, own: Mapping[str, lifecycle.ThreadStatus], shown: str | None, *, more: bool = False
) -> None:
    """The agent's thread picker (``<agent>.pick_thread``); picking another thread opens it by its link.

    ``more``: ``own`` is a page of the agent's threads (:func:`own_threads`); a "Show every thread" button
    offers them all, for the session.
    """
    thread_ids = list(own)
    if len(thread_ids) > PICKER_LIMIT:  # the shown thread and the newest others; the rest open by link
        thread_ids = picker_options(thread_ids, shown)
        st.caption(t(f"{agent}.pick_more", shown=PICKER_LIMIT, total=len(own)))
    picked = st.selectbox(
        t(f"{agent}.pick_thread"),
        thread_ids,
        index=thread_ids.index(shown) if shown else None,
        format_func=lambda tid: f"{tid} · {status_text(own[tid])}",
        placeholder=t(f"{agent}.pick_placeholder"),
    )
    if more:
        every_key = _every_key(agent)
        st.button(t("home.show_all_threads"), key=f"{every_key}-button", on_click=show_every, args=(every_key,))
    if picked is not None and picked != shown:
        st.query_params["thread"] = picked
        st.rerun()


def foreign_thread(store: Store, thread_id: str, head: str | None, agent: str) -> str | None:
    """Why the agent's page does not show a saved thread (``head``: its newest checkpoint) of another agent or of
    none; None when it may (a thread not started yet is the agent's to start)."""
    owner = readmodel.thread_agent(store, thread_id)
    if head is None or owner == agent:
        return None
    return (
        t(f"{agent}.other_agent", thread=thread_id, agent=owner) if owner else t(f"{agent}.no_agent", thread=thread_id)
    )
