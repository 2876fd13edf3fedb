"""Parallel-node timeline: the analyst's view of what ran when.

Pick an agent, a thread (or open ``?thread=ID``) and a run (or all runs of
the thread); see the node calls as a Plotly timeline, the parallelism of
every superstep with a summary row per run, and download the calls as CSV.
Below, two runs of the agent (from one thread or two) side by side. The
statistics and exports come from ``agents.timing``, the figures from
``dashboard.timeline_figure``; this script only picks and draws.
"""

from datetime import UTC, datetime
from typing import Any

import pandas as pd
import streamlit as st

from agents import lifecycle
from agents.nodelog import node_runs
from agents.timing import node_calls, run_summaries, superstep_stats, timeline_csv
from dashboard import resources
from dashboard.i18n import t
from dashboard.timeline_figure import compare_figure, timeline_figure
from dashboard.views import keep_valid, pick_thread, show_table

AGENT_KEY = "timeline-agent"
THREAD_KEY = "timeline-thread"
ALL_RUNS = "__all_runs__"
SIDES = ("A", "B")

Rows = list[dict[str, Any]]

store = resources.store()
st.title(t("timeline.title"))
st.caption(t("timeline.intro"))


def _clock(epoch_seconds: float) -> str:
    return datetime.fromtimestamp(epoch_seconds, tz=UTC).strftime("%Y-%m-%d %H:%M:%S")


def _runs_of(rows: Rows) -> dict[str, str]:
    """Run id → option label, runs in order of their first start."""
    return {
        summary.run_id: t(
            "timeline.run_option", run=summary.run_id, start=_clock(summary.started_at), calls=summary.tasks
        )
        for summary in run_summaries(rows)
    }


def _of_run(rows: Rows, run_id: str) -> Rows:
    return rows if run_id == ALL_RUNS else [row for row in rows if row["run_id"] == run_id]


def stats_table(rows: Rows) -> pd.DataFrame:
    """Per-superstep statistics, each run's supersteps followed by a whole-run row."""
    steps = superstep_stats(rows)
    records = []
    for summary in run_summaries(rows):
        for item in (s for s in steps if s.run_id == summary.run_id):
            records.append(
                {
                    "tcol.run": item.run_id,
                    "tcol.step": str(item.step),
                    "tcol.tasks": item.tasks,
                    "tcol.wall": item.wall_seconds,
                    "tcol.summed": item.summed_seconds,
                    "tcol.speedup": item.speedup,
                    "tcol.efficiency": item.efficiency,
                    "tcol.nodes": ", ".join(item.nodes),
                    "tcol.open": item.open_tasks,
                }
            )
        records.append(
            {
                "tcol.run": summary.run_id,
                "tcol.step": t("timeline.run_total"),
                "tcol.tasks": summary.tasks,
                "tcol.wall": summary.wall_seconds,
                "tcol.summed": summary.summed_seconds,
                "tcol.speedup": summary.speedup,
                "tcol.efficiency": summary.efficiency,
                "tcol.nodes": t("tcol.supersteps") + f": {summary.supersteps}",
                "tcol.open": summary.open_tasks,
            }
        )
    return _translated(pd.DataFrame.from_records(records))


def summary_table(rows: Rows) -> pd.DataFrame:
    """One row per run: the compare section's summaries."""
    records = [
        {
            "tcol.thread": s.thread_id,
            "tcol.run": s.run_id,
            "tcol.started": _clock(s.started_at),
            "tcol.supersteps": s.supersteps,
            "tcol.tasks": s.tasks,
            "tcol.wall": s.wall_seconds,
            "tcol.summed": s.summed_seconds,
            "tcol.speedup": s.speedup,
            "tcol.efficiency": s.efficiency,
            "tcol.errors": s.errors,
            "tcol.interrupted": s.interrupted,
            "tcol.open": s.open_tasks,
        }
        for s in run_summaries(rows)
    ]
    return _translated(pd.DataFrame.from_records(records))


def _translated(frame: pd.DataFrame) -> pd.DataFrame:
    """Seconds to the microsecond, ratios to 0.01, headers in the session's language."""
    rounding = {"tcol.wall": 6, "tcol.summed": 6, "tcol.speedup": 2, "tcol.efficiency": 2}
    frame = frame.round({key: digits for key, digits in rounding.items() if key in frame})
    return frame.rename(columns={key: t(key) for key in frame.columns})


def _pick_thread(threads: list[lifecycle.ThreadStatus]) -> tuple[str, str | None, Any]:
    """Agent and thread pickers; returns the agent, the thread (None: the agent has none) and
    the column left for the run picker."""
    agent, thread_id, (run_column,) = pick_thread(
        threads, page="timeline", agent_key=AGENT_KEY, thread_key=THREAD_KEY, empty_key="timeline.no_threads", columns=3
    )
    return agent, thread_id, run_column


def _show_thread(thread_id: str, rows: Rows, run_column: Any) -> None:
    """Run picker, figure, statistics table and CSV download of one thread."""
    runs = _runs_of(rows)
    run_key = f"timeline-run-{thread_id}"
    options = [ALL_RUNS, *runs]
    keep_valid(run_key, options, ALL_RUNS)
    run_id = run_column.selectbox(
        t("timeline.run"),
        options,
        key=run_key,
        format_func=lambda r: t("timeline.all_runs") if r == ALL_RUNS else runs[r],
    )
    shown = _of_run(rows, run_id)
    title = t("timeline.figure_title", thread=thread_id, runs=t("timeline.all_runs") if run_id == ALL_RUNS else run_id)
    st.plotly_chart(timeline_figure(shown, title=title), width="stretch", key=f"timeline-figure-{thread_id}")
    open_calls = sum(call.open for call in node_calls(shown))
    if open_calls:
        st.caption(t("timeline.open_calls", count=open_calls))
    st.subheader(t("timeline.stats"), help=t("timeline.stats.help"))
    show_table(stats_table(shown), t("timeline.no_calls"))
    st.download_button(
        t("timeline.download"),
        timeline_csv(shown),
        help=t("timeline.download.help"),
        file_name=f"timeline_{thread_id}_{'all' if run_id == ALL_RUNS else run_id}.csv",
        mime="text/csv",
        key="timeline-download",
        icon=":material/download:",
    )


def _pick_run(side: str, by_thread: dict[str, Rows], default: tuple[str, str], column: Any) -> Rows:
    """Thread and run pickers of one side of the comparison; returns that run's rows."""
    thread_key, run_key = f"timeline-compare-thread-{side}", f"timeline-compare-run-{side}"
    column.markdown(f"**{t('timeline.compare.side', side=side)}**")
    keep_valid(thread_key, list(by_thread), default[0])
    thread_id = column.selectbox(t("timeline.thread"), list(by_thread), key=thread_key)
    runs = _runs_of(by_thread[thread_id])
    fallback = default[1] if default[1] in runs else next(iter(runs))
    keep_valid(run_key, list(runs), fallback)
    run_id = column.selectbox(t("timeline.run"), list(runs), key=run_key, format_func=runs.get)
    return _of_run(by_thread[thread_id], run_id)


def _show_compare(agent: str, current: str | None) -> None:
    """Two runs of the agent side by side, with both summaries."""
    st.header(t("timeline.compare"))
    st.caption(t("timeline.compare.intro"))
    by_thread: dict[str, Rows] = {}
    for row in node_runs(store, agent=agent):
        by_thread.setdefault(row["thread_id"], []).append(row)
    if not by_thread:
        st.info(t("timeline.compare.need_runs"))
        return
    home = current if current in by_thread else next(iter(by_thread))
    home_runs = list(dict.fromkeys(row["run_id"] for row in by_thread[home]))
    defaults = {"A": (home, home_runs[0]), "B": (home, home_runs[-1])}
    columns = st.columns(2)
    picked = {
        side: _pick_run(side, by_thread, defaults[side], column) for side, column in zip(SIDES, columns, strict=True)
    }
    labels = [f"{side}: {rows[0]['thread_id']} · {rows[0]['run_id']}" for side, rows in picked.items()]
    st.plotly_chart(
        compare_figure(picked["A"], picked["B"], labels=labels), width="stretch", key="timeline-compare-figure"
    )
    for side, column in zip(SIDES, st.columns(2), strict=True):
        column.markdown(f"**{t('timeline.summary', side=side)}**")
        with column:
            show_table(summary_table(picked[side]), t("timeline.no_calls"))


agent, thread_id, run_column = _pick_thread(lifecycle.thread_statuses(store))
if thread_id is not None:
    thread_rows = node_runs(store, thread_id=thread_id)
    if thread_rows:
        _show_thread(thread_id, thread_rows, run_column)
    else:
        st.info(t("timeline.no_calls"))
_show_compare(agent, thread_id)
