"""Parallel-node timeline: the analyst's view of what ran when.

Pick an agent, a thread (or open ``?thread=ID``) and a run (the latest by
default, or all runs of the thread); see the node calls as a Plotly timeline,
the parallelism of every superstep with a summary row per run, and download
the calls as CSV. Below, two runs of the agent (from one thread or two) side
by side, picked among the agent's latest runs (a few dozen, more one click
away) listed from per-run aggregates, so only the two runs' rows are read.
The rows are resolved once per draw into an ``agents.timing.Timeline`` that
the figures (``dashboard.timeline_figure``), the tables
(``dashboard.timeline_tables``) and the export all share; this script only
picks and draws.
"""

from typing import Any

import streamlit as st

from agents import lifecycle
from agents.nodelog import node_runs
from agents.run_index import RunList, latest_runs
from agents.timing import Timeline, timeline_csv_of_calls, timeline_of
from dashboard import resources
from dashboard.i18n import t
from dashboard.timeline_figure import compare_figure_of, timeline_figure_of
from dashboard.timeline_tables import clock, stats_table, summary_table
from dashboard.views import keep_valid, pick_thread, show_table

AGENT_KEY = "timeline-agent"
THREAD_KEY = "timeline-thread"
ALL_RUNS = "__all_runs__"
SIDES = ("A", "B")
LIMIT_KEY = "timeline-compare-limit"
#: The comparison lists this many of the agent's latest runs, and this many more per click.
COMPARE_PAGE = 50

RunOptions = dict[str, dict[str, str]]

store = resources.store()
st.title(t("timeline.title"))
st.caption(t("timeline.intro"))


def _runs_of(timeline: Timeline) -> dict[str, str]:
    """Run id → option label, runs in order of their first start."""
    return {
        summary.run_id: t(
            "timeline.run_option", run=summary.run_id, start=clock(summary.started_at), calls=summary.tasks
        )
        for summary in timeline.runs
    }


def _of_run(timeline: Timeline, run_id: str) -> Timeline:
    return timeline if run_id == ALL_RUNS else timeline.of_run(run_id)


def _pick_thread(threads: list[lifecycle.ThreadStatus]) -> tuple[str, str | None, Any]:
    """Agent and thread pickers; returns the agent, the thread (None: the agent has none) and
    the column left for the run picker."""
    agent, thread_id, (run_column,) = pick_thread(
        threads, page="timeline", agent_key=AGENT_KEY, thread_key=THREAD_KEY, empty_key="timeline.no_threads", columns=3
    )
    return agent, thread_id, run_column


def _show_thread(thread_id: str, timeline: Timeline, run_column: Any) -> None:
    """Run picker, figure, statistics table and CSV download of one thread."""
    runs = _runs_of(timeline)
    run_key = f"timeline-run-{thread_id}"
    options = [ALL_RUNS, *runs]
    # The latest run by default: a long thread's every run at once is slow to draw and
    # rarely the question; "all runs" stays the first option, one click away.
    keep_valid(run_key, options, list(runs)[-1])
    run_id = run_column.selectbox(
        t("timeline.run"),
        options,
        key=run_key,
        format_func=lambda r: t("timeline.all_runs") if r == ALL_RUNS else runs[r],
    )
    shown = _of_run(timeline, run_id)
    title = t("timeline.figure_title", thread=thread_id, runs=t("timeline.all_runs") if run_id == ALL_RUNS else run_id)
    st.plotly_chart(timeline_figure_of(shown, title=title), width="stretch", key=f"timeline-figure-{thread_id}")
    if shown.open_calls:
        st.caption(t("timeline.open_calls", count=shown.open_calls))
    st.subheader(t("timeline.stats"), help=t("timeline.stats.help"))
    show_table(stats_table(shown), t("timeline.no_calls"))
    st.download_button(
        t("timeline.download"),
        timeline_csv_of_calls(shown.calls),
        help=t("timeline.download.help"),
        file_name=f"timeline_{thread_id}_{'all' if run_id == ALL_RUNS else run_id}.csv",
        mime="text/csv",
        key="timeline-download",
        icon=":material/download:",
    )


def _run_lists(agent: str, current: str | None, timelines: dict[str, Timeline]) -> tuple[RunOptions, RunList]:
    """Thread → run id → option label of the agent's latest runs, and those runs as listed.

    The runs come from :func:`agents.run_index.latest_runs` (per-run aggregates
    in SQL, the latest ``COMPARE_PAGE`` or as many more as asked for), not from
    the agent's node-log rows; the thread shown above lists all its runs, from
    the timeline already resolved for it.
    """
    listed = latest_runs(store, agent, limit=st.session_state.get(f"{LIMIT_KEY}-{agent}", COMPARE_PAGE))
    by_thread: RunOptions = {}
    for entry in listed.runs:
        label = t("timeline.run_option", run=entry.run_id, start=clock(entry.started_at), calls=entry.calls)
        by_thread.setdefault(entry.thread_id, {})[entry.run_id] = label
    if current in timelines:
        by_thread[current] = _runs_of(timelines[current])
    return by_thread, listed


def _show_more(agent: str) -> None:
    key = f"{LIMIT_KEY}-{agent}"
    st.session_state[key] = st.session_state.get(key, COMPARE_PAGE) + COMPARE_PAGE


def _pick_run(
    side: str, timelines: dict[str, Timeline], by_thread: RunOptions, default: tuple[str, str], column: Any
) -> Timeline:
    """Thread and run pickers of one side of the comparison; returns that run's timeline.

    ``timelines`` holds the threads resolved so far in this draw (the thread
    shown above); a run of another thread is read on its own, its rows only.
    """
    thread_key, run_key = f"timeline-compare-thread-{side}", f"timeline-compare-run-{side}"
    column.markdown(f"**{t('timeline.compare.side', side=side)}**")
    keep_valid(thread_key, list(by_thread), default[0])
    thread_id = column.selectbox(t("timeline.thread"), list(by_thread), key=thread_key)
    runs = by_thread[thread_id]
    fallback = default[1] if default[1] in runs else next(iter(runs))
    keep_valid(run_key, list(runs), fallback)
    run_id = column.selectbox(t("timeline.run"), list(runs), key=run_key, format_func=runs.get)
    if thread_id in timelines:
        return timelines[thread_id].of_run(run_id)
    return timeline_of(node_runs(store, thread_id=thread_id, run_id=run_id))


def _show_compare(agent: str, current: str | None, timelines: dict[str, Timeline]) -> None:
    """Two runs of the agent side by side, with both summaries."""
    st.header(t("timeline.compare"))
    st.caption(t("timeline.compare.intro"))
    by_thread, listed = _run_lists(agent, current, timelines)
    if not by_thread:
        st.info(t("timeline.compare.need_runs"))
        return
    home = current if current in by_thread else next(iter(by_thread))
    home_runs = list(by_thread[home])
    defaults = {"A": (home, home_runs[0]), "B": (home, home_runs[-1])}
    columns = st.columns(2)
    picked = {
        side: _pick_run(side, timelines, by_thread, defaults[side], column)
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
    labels = [f"{side}: {shown.calls[0].thread_id} · {shown.calls[0].run_id}" for side, shown in picked.items()]
    st.plotly_chart(
        compare_figure_of(picked["A"], picked["B"], labels=labels), width="stretch", key="timeline-compare-figure"
    )
    for side, column in zip(SIDES, st.columns(2), strict=True):
        column.markdown(f"**{t('timeline.summary', side=side)}**")
        with column:
            show_table(summary_table(picked[side]), t("timeline.no_calls"))


agent, thread_id, run_column = _pick_thread(lifecycle.thread_statuses(store))
# Threads resolved in this draw, shared by the thread's own view and the comparison.
resolved: dict[str, Timeline] = {}
if thread_id is not None:
    thread_rows = node_runs(store, thread_id=thread_id)
    if thread_rows:
        resolved[thread_id] = timeline_of(thread_rows)
        _show_thread(thread_id, resolved[thread_id], run_column)
    else:
        st.info(t("timeline.no_calls"))
_show_compare(agent, thread_id, resolved)
