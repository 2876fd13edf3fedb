"""The timeline page's choices: which run opens, why it is shown, which runs are listed, what each side reads.

What a draw costs follows what it shows: each run is read once per draw into an
``agents.timing.Timeline`` (kept in a ``Resolved`` dict the thread's view and the comparison share),
and a compared run longer than the chart draws is read only as far as it is drawn.
"""

import streamlit as st

from agents import nodelog, run_index
from agents.db import Store
from agents.registry import AGENTS
from agents.run_index import RunEntry, RunList
from agents.timing import Timeline, timeline_of
from dashboard.i18n import t
from dashboard.timeline_figure import MAX_DRAWN_CALLS
from dashboard.timeline_tables import clock

AGENT_KEY = "timeline-agent"
THREAD_KEY = "timeline-thread"
ALL_RUNS = "__all_runs__"
LIMIT_KEY = "timeline-compare-limit"
#: The comparison lists this many of the agent's latest runs, and this many more per click.
COMPARE_PAGE = 50

RunOptions = dict[str, dict[str, str]]
#: The runs listed in this draw, by (thread, run).
Entries = dict[tuple[str, str], RunEntry]
#: Timelines read in this draw, by (thread, run or ALL_RUNS), shared by the thread's view and the comparison.
Resolved = dict[tuple[str, str], Timeline]


def run_labels(entries: tuple[RunEntry, ...] | list[RunEntry]) -> dict[str, str]:
    """Run id → option label, runs in the order given (oldest first)."""
    return {
        entry.run_id: t(
            "timeline.run_option_one" if entry.calls == 1 else "timeline.run_option",
            run=entry.run_id,
            start=clock(entry.started_at),
            calls=entry.calls,
        )
        for entry in entries
    }


def read_timeline(store: Store, resolved: Resolved, thread_id: str, run_id: str) -> Timeline:
    """The run's (or, for ``ALL_RUNS``, the thread's) timeline, its rows read once per draw."""
    key = (thread_id, run_id)
    if key not in resolved:
        where = {} if run_id == ALL_RUNS else {"run_id": run_id}
        resolved[key] = timeline_of(nodelog.node_runs(store, thread_id=thread_id, **where))
    return resolved[key]


def draw_all(key: str, calls: int) -> int | None:
    """The figure's ``max_calls``: a window of the latest calls, or every call when the box is ticked."""
    if calls <= MAX_DRAWN_CALLS:
        return None
    st.caption(t("timeline.window", drawn=f"{MAX_DRAWN_CALLS:,}", calls=f"{calls:,}"))
    every = st.checkbox(t("timeline.draw_all", calls=f"{calls:,}"), key=key, help=t("timeline.draw_all.help"))
    return None if every else MAX_DRAWN_CALLS


def open_on_parallel_run(store: Store) -> None:
    """On a first visit without ``?thread=``, the agent, thread and run of the newest parallel work are preselected.

    The most recently updated thread's latest run is often a resume of two nodes in a row, drawn on an
    axis of milliseconds; the newest fan-out is what this page is for. Every other run is one pick away.
    """
    if AGENT_KEY in st.session_state or st.query_params.get("thread"):
        return
    found = run_index.newest_parallel_run(store)
    if found is not None and found[0] in AGENTS:
        agent_name, thread, run = found
        st.session_state[AGENT_KEY], st.session_state[THREAD_KEY] = agent_name, thread
        st.session_state[f"timeline-run-{thread}"] = run


def shown_why(run_id: str, opening: RunEntry | None) -> str:
    """Which run the view shows, and why (the page's own choice, or the user's)."""
    if run_id == ALL_RUNS:
        return t("timeline.shown.all")
    if opening is not None and run_id == opening.run_id:
        return t("timeline.shown.parallel" if opening.parallel else "timeline.shown.latest", run=run_id)
    return t("timeline.shown.picked", run=run_id)


def run_lists(store: Store, agent: str, entries: Entries) -> tuple[RunOptions, RunList]:
    """Thread → run id → option label of the agent's latest runs, and those runs as listed.

    The runs come from :func:`agents.run_index.latest_runs` (per-run aggregates
    in SQL, the latest ``COMPARE_PAGE`` or as many more as asked for), not from
    the agent's node-log rows; the thread shown above (its runs already in
    ``entries``) lists all its runs. ``entries`` gains the runs listed.
    """
    limit = st.session_state.get(f"{LIMIT_KEY}-{agent}", COMPARE_PAGE)
    listed = run_index.latest_runs(store, agent, limit=limit)
    shown = {thread for thread, _ in entries}
    for entry in listed.runs:
        if entry.thread_id not in shown:
            entries[(entry.thread_id, entry.run_id)] = entry
    by_thread: RunOptions = {}
    for entry in sorted(entries.values(), key=lambda entry: entry.started_at):
        by_thread.setdefault(entry.thread_id, {}).update(run_labels([entry]))
    return by_thread, listed


def show_more(agent: str, listed: int) -> None:
    """The comparison's "more runs" button, drawn with ``listed`` runs listed: lists ``COMPARE_PAGE`` more.

    Set from what the button was drawn with, not added to what is kept: a click the browser hands to two
    runs (docs/ARCHITECTURE.md) lists one page more, not two."""
    st.session_state[f"{LIMIT_KEY}-{agent}"] = listed + COMPARE_PAGE


def compare_side(
    store: Store, resolved: Resolved, entry: RunEntry, max_calls: int | None
) -> tuple[Timeline, Timeline, float | None]:
    """What one side draws, its summary (a ``Timeline`` of its run summary) and its run's start.

    A run already read in this draw (the one shown above) is not read again.
    Of a run longer than the chart draws, only the rows drawn are read
    (``agents.run_index.run_tail``) and its summary is summed up in SQL; any
    other run is read on its own, its rows only.
    """
    key = (entry.thread_id, entry.run_id)
    if max_calls is None or entry.calls <= max_calls or key in resolved:
        whole = read_timeline(store, resolved, *key)
        return whole, whole, None
    rows, latest = run_index.run_tail(store, entry.thread_id, entry.run_id, max_calls)
    summary = run_index.run_summary(store, entry.thread_id, entry.run_id, latest[entry.run_id]) if latest else None
    runs = (summary,) if summary else ()
    return timeline_of(rows, latest), Timeline((), (), runs), summary.started_at if summary else None
