"""Parallel-node timeline: the analyst's view of what ran when.

Pick an agent, a thread (or open ``?thread=ID``) and a run (by default the
newest with parallel work, else the latest, or all runs of the thread; a first
visit opens on the newest parallel run of any thread, and says why); see the node calls as a Plotly timeline,
the parallelism of every superstep with a summary row per run, and download
the calls as CSV. Below, two runs of the agent (from one thread or two) side
by side, picked among the agent's latest runs (a few dozen, more one click
away), opening on two comparable runs (``agents.run_index.comparable_pair``).

What a draw costs follows what it shows: the runs are listed from per-run
aggregates (``agents.run_index``), so only the rows of the run shown (or of
every run, when asked) and of the two compared runs are read; each is
resolved once into an ``agents.timing.Timeline`` that the figures
(``dashboard.timeline_figure``), the tables (``dashboard.timeline_tables``)
and the export share; and a chart draws a run's latest
``dashboard.timeline_figure.MAX_DRAWN_CALLS`` calls, every call one click
away. This script only picks and draws.
"""

from typing import Any

import streamlit as st

from agents import lifecycle
from agents.nodelog import node_runs
from agents.registry import AGENTS
from agents.run_index import (
    RunEntry,
    RunList,
    comparable_pair,
    latest_runs,
    newest_parallel_run,
    opening_run,
    run_summary,
    run_tail,
    thread_runs,
)
from agents.timing import Timeline, timeline_csv_of_calls, timeline_of
from dashboard import resources
from dashboard.downloads import csv_download
from dashboard.i18n import t
from dashboard.safe_markdown import escape_markdown
from dashboard.timeline_figure import MAX_DRAWN_CALLS, compare_figure_of, timeline_figure_of
from dashboard.timeline_tables import clock, stats_table, summary_table, whole_run_notes
from dashboard.views import keep_valid, pick_thread, show_table

AGENT_KEY = "timeline-agent"
THREAD_KEY = "timeline-thread"
ALL_RUNS = "__all_runs__"
SIDES = ("A", "B")
LIMIT_KEY = "timeline-compare-limit"
#: The comparison lists this many of the agent's latest runs, and this many more per click.
COMPARE_PAGE = 50

RunOptions = dict[str, dict[str, str]]
#: The runs listed in this draw, by (thread, run).
Entries = dict[tuple[str, str], RunEntry]
#: Timelines read in this draw, by (thread, run or ALL_RUNS), shared by the thread's view and the comparison.
Resolved = dict[tuple[str, str], Timeline]

store = resources.store()
st.title(t("timeline.title"))
st.caption(t("timeline.intro"))


def _labels(entries: tuple[RunEntry, ...] | list[RunEntry]) -> dict[str, str]:
    """Run id → option label, runs in the order given (oldest first)."""
    return {
        entry.run_id: t("timeline.run_option", run=entry.run_id, start=clock(entry.started_at), calls=entry.calls)
        for entry in entries
    }


def _timeline(resolved: Resolved, thread_id: str, run_id: str) -> Timeline:
    """The run's (or, for ``ALL_RUNS``, the thread's) timeline, its rows read once per draw."""
    key = (thread_id, run_id)
    if key not in resolved:
        rows = node_runs(store, thread_id=thread_id, **({} if run_id == ALL_RUNS else {"run_id": run_id}))
        resolved[key] = timeline_of(rows)
    return resolved[key]


def _draw_all(key: str, calls: int) -> int | None:
    """The figure's ``max_calls``: a window of the latest calls, or every call when the box is ticked."""
    if calls <= MAX_DRAWN_CALLS:
        return None
    st.caption(t("timeline.window", drawn=f"{MAX_DRAWN_CALLS:,}", calls=f"{calls:,}"))
    every = st.checkbox(t("timeline.draw_all", calls=f"{calls:,}"), key=key, help=t("timeline.draw_all.help"))
    return None if every else MAX_DRAWN_CALLS


def _pick_thread(threads: list[lifecycle.ThreadStatus]) -> tuple[str, str | None, Any]:
    """Agent and thread pickers; returns the agent, the thread (None: the agent has none) and
    the column left for the run picker."""
    agent, thread_id, (run_column,) = pick_thread(
        threads, page="timeline", agent_key=AGENT_KEY, thread_key=THREAD_KEY, empty_key="timeline.no_threads", columns=3
    )
    return agent, thread_id, run_column


def _open_on_parallel_run() -> None:
    """On a first visit without ``?thread=``, the agent, thread and run of the newest parallel work are preselected.

    The most recently updated thread's latest run is often a resume of two nodes in a row, drawn on an
    axis of milliseconds; the newest fan-out is what this page is for. Every other run is one pick away.
    """
    if AGENT_KEY in st.session_state or st.query_params.get("thread"):
        return
    found = newest_parallel_run(store)
    if found is not None and found[0] in AGENTS:
        agent_name, thread, run = found
        st.session_state[AGENT_KEY], st.session_state[THREAD_KEY] = agent_name, thread
        st.session_state[f"timeline-run-{thread}"] = run


def _shown_why(run_id: str, opening: RunEntry | None) -> str:
    """Which run the view shows, and why (the page's own choice, or the user's)."""
    if run_id == ALL_RUNS:
        return t("timeline.shown.all")
    if opening is not None and run_id == opening.run_id:
        return t("timeline.shown.parallel" if opening.parallel else "timeline.shown.latest", run=run_id)
    return t("timeline.shown.picked", run=run_id)


def _show_thread(
    thread_id: str, runs: dict[str, str], resolved: Resolved, run_column: Any, opening: RunEntry | None
) -> None:
    """Run picker, figure, statistics table and CSV download of one thread."""
    run_key = f"timeline-run-{thread_id}"
    options = [ALL_RUNS, *runs]
    # The newest run with parallel work by default (else the latest): a long thread's every run at
    # once is slow to draw and rarely the question; "all runs" stays the first option, one click away.
    keep_valid(run_key, options, opening.run_id if opening else list(runs)[-1])
    run_id = run_column.selectbox(
        t("timeline.run"),
        options,
        key=run_key,
        format_func=lambda r: t("timeline.all_runs") if r == ALL_RUNS else runs[r],
    )
    st.caption(_shown_why(run_id, opening))
    shown = _timeline(resolved, thread_id, run_id)
    title = t("timeline.figure_title", thread=thread_id, runs=t("timeline.all_runs") if run_id == ALL_RUNS else run_id)
    max_calls = _draw_all("timeline-draw-all", len(shown.calls))
    figure = timeline_figure_of(shown, title=title, max_calls=max_calls)
    st.plotly_chart(figure, width="stretch", key=f"timeline-figure-{thread_id}")
    if shown.open_calls:
        st.caption(t("timeline.open_calls", count=shown.open_calls))
    st.subheader(t("timeline.stats"), help=t("timeline.stats.help"))
    show_table(stats_table(shown), t("timeline.no_calls"))
    st.caption("  \n".join(escape_markdown(note) for note in whole_run_notes(shown)))  # uncut, under its cells
    st.download_button(
        t("timeline.download"),
        csv_download(timeline_csv_of_calls(shown.calls)),
        help=t("timeline.download.help"),
        file_name=f"timeline_{thread_id}_{'all' if run_id == ALL_RUNS else run_id}.csv",
        mime="text/csv",
        key="timeline-download",
        icon=":material/download:",
    )


def _run_lists(agent: str, entries: Entries) -> tuple[RunOptions, RunList]:
    """Thread → run id → option label of the agent's latest runs, and those runs as listed.

    The runs come from :func:`agents.run_index.latest_runs` (per-run aggregates
    in SQL, the latest ``COMPARE_PAGE`` or as many more as asked for), not from
    the agent's node-log rows; the thread shown above (its runs already in
    ``entries``) lists all its runs. ``entries`` gains the runs listed.
    """
    listed = latest_runs(store, agent, limit=st.session_state.get(f"{LIMIT_KEY}-{agent}", COMPARE_PAGE))
    shown = {thread for thread, _ in entries}
    for entry in listed.runs:
        if entry.thread_id not in shown:
            entries[(entry.thread_id, entry.run_id)] = entry
    by_thread: RunOptions = {}
    for entry in sorted(entries.values(), key=lambda entry: entry.started_at):
        by_thread.setdefault(entry.thread_id, {}).update(_labels([entry]))
    return by_thread, listed


def _show_more(agent: str) -> None:
    key = f"{LIMIT_KEY}-{agent}"
    st.session_state[key] = st.session_state.get(key, COMPARE_PAGE) + COMPARE_PAGE


def _pick_run(side: str, by_thread: RunOptions, default: tuple[str, str], column: Any) -> tuple[str, str]:
    """Thread and run pickers of one side of the comparison; returns the thread and the run."""
    thread_key, run_key = f"timeline-compare-thread-{side}", f"timeline-compare-run-{side}"
    column.markdown(f"**{t('timeline.compare.side', side=side)}**")
    keep_valid(thread_key, list(by_thread), default[0])
    thread_id = column.selectbox(t("timeline.thread"), list(by_thread), key=thread_key)
    runs = by_thread[thread_id]
    fallback = default[1] if default[1] in runs else list(runs)[-1]
    keep_valid(run_key, list(runs), fallback)
    run_id = column.selectbox(t("timeline.run"), list(runs), key=run_key, format_func=runs.get)
    return thread_id, run_id


def _side(resolved: Resolved, entry: RunEntry, max_calls: int | None) -> tuple[Timeline, Timeline, float | None]:
    """What one side draws, its summary (a ``Timeline`` of its run summary) and its run's start.

    A run already read in this draw (the one shown above) is not read again.
    Of a run longer than the chart draws, only the rows drawn are read
    (``agents.run_index.run_tail``) and its summary is summed up in SQL; any
    other run is read on its own, its rows only.
    """
    key = (entry.thread_id, entry.run_id)
    if max_calls is None or entry.calls <= max_calls or key in resolved:
        whole = _timeline(resolved, *key)
        return whole, whole, None
    rows, latest = run_tail(store, entry.thread_id, entry.run_id, max_calls)
    summary = run_summary(store, entry.thread_id, entry.run_id, latest[entry.run_id]) if latest else None
    runs = (summary,) if summary else ()
    return timeline_of(rows, latest), Timeline((), (), runs), summary.started_at if summary else None


def _show_compare(agent: str, entries: Entries, resolved: Resolved) -> None:
    """Two runs of the agent side by side, with both summaries."""
    st.header(t("timeline.compare"))
    st.caption(t("timeline.compare.intro"))
    by_thread, listed = _run_lists(agent, entries)
    pair = comparable_pair(listed.runs)
    if not by_thread or pair is None:
        st.info(t("timeline.compare.need_runs"))
        return
    defaults = {side: (entry.thread_id, entry.run_id) for side, entry in zip(SIDES, pair, strict=True)}
    columns = st.columns(2)
    picked = {
        side: entries[_pick_run(side, by_thread, defaults[side], column)]
        for side, column in zip(SIDES, columns, strict=True)
    }
    if listed.more:
        st.caption(t("timeline.compare.listed", count=len(listed.runs)))
        st.button(
            t("timeline.compare.more", count=COMPARE_PAGE),
            key=f"timeline-compare-more-{agent}",
            on_click=_show_more,
            args=(agent,),
        )
    labels = [f"{side}: {entry.thread_id} · {entry.run_id}" for side, entry in picked.items()]
    max_calls = _draw_all("timeline-compare-draw-all", max(entry.calls for entry in picked.values()))
    sides = [_side(resolved, entry, max_calls) for entry in picked.values()]
    figure = compare_figure_of(
        *(drawn for drawn, _, _ in sides), labels=labels, max_calls=max_calls, origins=[start for _, _, start in sides]
    )
    st.plotly_chart(figure, width="stretch", key="timeline-compare-figure")
    for (_, summary, _), side, column in zip(sides, SIDES, st.columns(2), strict=True):
        column.markdown(f"**{t('timeline.summary', side=side)}**")
        with column:
            show_table(summary_table(summary), t("timeline.no_calls"))


_open_on_parallel_run()
agent, thread_id, run_column = _pick_thread(lifecycle.thread_statuses(store))
resolved: Resolved = {}
listed_runs: Entries = {}
if thread_id is not None:
    listed_runs = {(entry.thread_id, entry.run_id): entry for entry in thread_runs(store, thread_id)}
    if listed_runs:
        entries = list(listed_runs.values())
        _show_thread(thread_id, _labels(entries), resolved, run_column, opening_run(entries))
    else:
        st.info(t("timeline.no_calls"))
_show_compare(agent, listed_runs, resolved)
