"""Parallel-node timeline: the analyst's view of what ran when.

Pick an agent, a thread (or open ``?thread=ID``) and a run (by default the
newest with parallel work, else the latest, or all runs of the thread; a first
visit opens on the newest parallel run of any thread, and says why); see the node calls as a Plotly timeline,
the parallelism of every superstep with a summary row per run, and download
the calls as CSV. Below, two runs of the agent (from one thread or two) side
by side, picked among the agent's latest runs (a few dozen, more one click
away), opening on two comparable runs (``agents.run_index.comparable_pair``).

What a draw costs follows what it shows (``dashboard.timeline_view``): the runs are listed from per-run
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

from agents.run_index import RunEntry, comparable_pair, opening_run, thread_runs
from agents.timing import timeline_csv_of_calls
from dashboard import resources
from dashboard import timeline_view as view
from dashboard.downloads import csv_download
from dashboard.i18n import t
from dashboard.safe_markdown import escape_markdown
from dashboard.timeline_figure import compare_figure_of, timeline_figure_of
from dashboard.timeline_tables import (
    WRAPPED_ROW_HEIGHT,
    compare_table,
    no_gain_notes,
    stats_columns,
    stats_height,
    stats_table,
    whole_run_notes,
)
from dashboard.views import keep_valid, pick_thread, show_table

SIDES = ("A", "B")
ALL_RUNS = view.ALL_RUNS

store = resources.store()
st.title(t("timeline.title"))
st.caption(t("timeline.intro"))


def _show_thread(
    thread_id: str, runs: dict[str, str], resolved: view.Resolved, run_column: Any, opening: RunEntry | None
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
    st.caption(view.shown_why(run_id, opening))
    shown = view.read_timeline(store, resolved, thread_id, run_id)
    title = t("timeline.figure_title", thread=thread_id, runs=t("timeline.all_runs") if run_id == ALL_RUNS else run_id)
    max_calls = view.draw_all("timeline-draw-all", len(shown.calls))
    figure = timeline_figure_of(shown, title=title, max_calls=max_calls)
    st.plotly_chart(figure, width="stretch", key=f"timeline-figure-{thread_id}")
    if shown.open_calls:
        st.caption(t("timeline.open_calls", count=shown.open_calls))
    st.subheader(t("timeline.stats"), help=t("timeline.stats.help"))
    stats = stats_table(shown)
    show_table(  # cells wrap, never cut
        stats,
        t("timeline.no_calls"),
        row_height=WRAPPED_ROW_HEIGHT,
        column_config=stats_columns(shown),
        height=stats_height(len(stats)),
    )
    notes = [*no_gain_notes(shown), *whole_run_notes(shown)]
    st.caption("  \n".join(escape_markdown(note) for note in notes))  # uncut, under its cells
    st.download_button(
        t("timeline.download"),
        csv_download(timeline_csv_of_calls(shown.calls)),
        help=t("timeline.download.help"),
        file_name=f"timeline_{thread_id}_{'all' if run_id == ALL_RUNS else run_id}.csv",
        mime="text/csv",
        key="timeline-download",
        icon=":material/download:",
    )


def _pick_run(side: str, by_thread: view.RunOptions, default: tuple[str, str], column: Any) -> tuple[str, str]:
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


def _show_compare(agent: str, entries: view.Entries, resolved: view.Resolved) -> None:
    """Two runs of the agent side by side, with both summaries."""
    st.header(t("timeline.compare"))
    st.caption(t("timeline.compare.intro"))
    by_thread, listed = view.run_lists(store, agent, entries)
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
            t("timeline.compare.more", count=view.COMPARE_PAGE),
            key=f"timeline-compare-more-{agent}",
            on_click=view.show_more,
            args=(agent, len(listed.runs)),
        )
    labels = [f"{side}: {entry.thread_id} · {entry.run_id}" for side, entry in picked.items()]
    max_calls = view.draw_all("timeline-compare-draw-all", max(entry.calls for entry in picked.values()))
    sides = [view.compare_side(store, resolved, entry, max_calls) for entry in picked.values()]
    figure = compare_figure_of(
        *(drawn for drawn, _, _ in sides), labels=labels, max_calls=max_calls, origins=[start for _, _, start in sides]
    )
    st.plotly_chart(figure, width="stretch", key="timeline-compare-figure")
    st.markdown(f"**{t('timeline.compare.figures')}**")
    summaries = {side: summary for side, (_, summary, _) in zip(SIDES, sides, strict=True)}
    show_table(compare_table(summaries), t("timeline.no_calls"))


view.open_on_parallel_run(store)
agent, thread_id, (run_column,) = pick_thread(
    store,
    page="timeline",
    agent_key=view.AGENT_KEY,
    thread_key=view.THREAD_KEY,
    empty_key="timeline.no_threads",
    columns=(2, 3, 4),  # the run's label (id, start, calls) is the longest: shown whole, at 1280 px too
)
resolved: view.Resolved = {}
listed_runs: view.Entries = {}
if thread_id is not None:
    listed_runs = {(entry.thread_id, entry.run_id): entry for entry in thread_runs(store, thread_id)}
    if listed_runs:
        entries = list(listed_runs.values())
        _show_thread(thread_id, view.run_labels(entries), resolved, run_column, opening_run(entries))
    else:
        st.info(t("timeline.no_calls"))
_show_compare(agent, listed_runs, resolved)
