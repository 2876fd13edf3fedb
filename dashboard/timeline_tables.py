"""The Timeline page's tables: per-superstep statistics and per-run summaries.

Pure functions ``agents.timing.Timeline -> pandas.DataFrame`` with headers in
the session's language, so the page only draws them and the tests and the
benchmark call them without a page. A run's efficiency is that of its
parallel supersteps (``agents.timing.RunSummary.parallel_efficiency``): the
whole run's, which divides by every sequential call too, reads as poor
however well its fan-outs overlapped. A run with no parallel superstep has none,
and no speed-up either (:func:`run_speedup`): its task time over wall time is
below 1 whenever time passes between nodes, which would read as a slowdown.
The whole-run row counts its supersteps in its nodes cell and a step of several calls whose speed-up is
under 1 (:func:`no_gain`: fewer than one of its calls ran at a time on average, so running them in
parallel gained nothing) says "no gain" in its own; what each means, in full sentences, is a caption
under the table (:func:`whole_run_notes`, :func:`no_gain_notes`), so every row stays two lines high.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

import pandas as pd
import streamlit as st

from agents.timing import RunSummary, SuperstepStats, Timeline
from dashboard.i18n import t

#: The superstep table's row height in pixels: two lines of text. Only above 4rem (64 px) does the grid wrap
#: a cell's text instead of cutting it ("review_conten…"); no cell needs more than two lines, as a step's
#: nodes fit two at :data:`NODES_WIDTH` and the definitions are under the table, so an eight-row run's
#: table is whole on a 1400×900 screen.
WRAPPED_ROW_HEIGHT = 65
#: The nodes column's width in pixels: three reviewers' names and "no gain" wrap onto two lines, between
#: names, and the other columns keep to a 1280 px page's table without scrolling sideways.
NODES_WIDTH = 260
#: The step column's width in pixels: "whole run" on one line.
STEP_WIDTH = 72
#: The grid's header row in pixels (it keeps its height when the rows are taller).
HEADER_HEIGHT = 36
#: Rows of the superstep table shown without scrolling inside it (a longer run's table scrolls past them):
#: a lecture run with a revision or two (8 to 10 rows) is whole, and the table stays under 700 px.
SHOWN_ROWS = 10
#: A call shorter than this on average (in seconds) is too short to overlap with its siblings: starting
#: the next call of a step takes about as long (the embedded model at no latency).
SHORT_CALL_SECONDS = 0.01


def stats_height(rows: int) -> int:
    """The superstep table's height in pixels: every row up to :data:`SHOWN_ROWS`, its header and border."""
    return min(rows, SHOWN_ROWS) * WRAPPED_ROW_HEIGHT + HEADER_HEIGHT + 3


def stats_columns(timeline: Timeline) -> dict[str, Any]:
    """The superstep table's columns: the nodes wide enough to wrap between names, not inside them; the run
    hidden when one run is shown (the run picker names it) and the calls with no end logged when there are
    none (a caption above the table counts them when there are), which leaves the nodes that width."""
    columns: dict[str, Any] = {
        t("tcol.nodes"): st.column_config.TextColumn(width=NODES_WIDTH),
        t("tcol.step"): st.column_config.TextColumn(width=STEP_WIDTH),
    }
    if len(timeline.runs) == 1:
        columns[t("tcol.run")] = None
    if not any(summary.open_tasks for summary in timeline.runs):
        columns[t("tcol.open")] = None  # every call logged its end: a column of zeros would only cost width
    return columns


def clock(epoch_seconds: float) -> str:
    """``2025-01-02 03:04:05``: a UTC wall-clock time to the second."""
    return datetime.fromtimestamp(epoch_seconds, tz=UTC).strftime("%Y-%m-%d %H:%M:%S")


def no_gain(item: SuperstepStats) -> bool:
    """A step of several calls whose speed-up, as shown (to 0.01), is under 1.

    Speed-up is the calls' summed time over the step's wall time: the number of calls running at once,
    on average. Under 1, less than one call ran at a time: the calls did not overlap, and the parallel
    step took as long as (or longer than) running them one after another."""
    return item.tasks > 1 and round(item.speedup, 2) < 1


def _too_short(item: SuperstepStats) -> bool:
    return item.summed_seconds / item.tasks < SHORT_CALL_SECONDS


def _nodes_cell(item: SuperstepStats) -> str:
    nodes = ", ".join(item.nodes)
    if not no_gain(item):
        return nodes
    return f"{nodes} · {t('timeline.no_gain')}"


def no_gain_notes(timeline: Timeline) -> list[str]:
    """Under the table, each step without gain explained in full: its speed-up, what the figure means, and
    why (its calls' average length), led by the run when several runs are shown."""
    notes = []
    for item in timeline.supersteps:
        if no_gain(item):
            why = "timeline.no_gain.note_short" if _too_short(item) else "timeline.no_gain.note"
            mean_ms = f"{1000 * item.summed_seconds / item.tasks:.1f}"
            note = t(why, step=item.step, speedup=f"{item.speedup:.2f}", tasks=item.tasks, ms=mean_ms)
            notes.append(f"{item.run_id}: {note}" if len(timeline.runs) > 1 else note)
    return notes


def _step_record(item: SuperstepStats) -> dict[str, Any]:
    return {
        "tcol.run": item.run_id,
        "tcol.step": str(item.step),
        "tcol.tasks": item.tasks,
        "tcol.wall": item.wall_seconds,
        "tcol.summed": item.summed_seconds,
        "tcol.speedup": item.speedup,
        "tcol.efficiency": item.efficiency,
        "tcol.nodes": _nodes_cell(item),
        "tcol.open": item.open_tasks,
    }


def run_speedup(summary: RunSummary) -> float | None:
    """A whole run's speed-up (all task time / wall time), or None when no superstep ran in parallel.

    Without a parallel superstep nothing overlapped, so there is no speed-up to show; the ratio would
    only say how much of the wall time the nodes were busy (:func:`whole_run_notes` says that in words).
    """
    return summary.speedup if summary.parallel_supersteps else None


def run_steps(summary: RunSummary) -> str:
    """The whole-run row's nodes cell: its supersteps and how many ran in parallel, on one line (what its
    figures mean is under the table, :func:`whole_run_notes`)."""
    return t("timeline.run_steps", steps=summary.supersteps, parallel=summary.parallel_supersteps)


def _definition(summary: RunSummary) -> str:
    if summary.parallel_supersteps:
        return t("timeline.run_meaning.parallel")
    busy = round(100 * summary.summed_seconds / summary.wall_seconds) if summary.wall_seconds > 0 else 100
    return t("timeline.run_meaning.sequential", busy=busy)


def whole_run_notes(timeline: Timeline) -> list[str]:
    """Each whole-run row's definition in full, for under the table (never in its row, which would need
    four lines in the nodes cell). One line per run, led by its id when several runs are shown."""
    notes = [f"{summary.run_id}: {_definition(summary)}" for summary in timeline.runs]
    return notes if len(timeline.runs) > 1 else [_definition(summary) for summary in timeline.runs]


def _run_total_record(summary: RunSummary) -> dict[str, Any]:
    return {
        "tcol.run": summary.run_id,
        "tcol.step": t("timeline.run_total"),
        "tcol.tasks": summary.tasks,
        "tcol.wall": summary.wall_seconds,
        "tcol.summed": summary.summed_seconds,
        "tcol.speedup": run_speedup(summary),
        "tcol.efficiency": summary.parallel_efficiency,
        "tcol.nodes": run_steps(summary),
        "tcol.open": summary.open_tasks,
    }


def stats_table(timeline: Timeline) -> pd.DataFrame:
    """Per-superstep statistics, each run's supersteps followed by a whole-run row.

    The supersteps are grouped by run once (``Timeline.steps_by_run``), so the
    table costs one pass however many runs the thread has.
    """
    steps_by_run = timeline.steps_by_run()
    records = []
    for summary in timeline.runs:
        records += [_step_record(item) for item in steps_by_run[summary.run_id]]
        records.append(_run_total_record(summary))
    return _translated(pd.DataFrame.from_records(records))


def summary_table(timeline: Timeline) -> pd.DataFrame:
    """One row per run: the compare section's summaries."""
    records = [
        {
            "tcol.thread": s.thread_id,
            "tcol.run": s.run_id,
            "tcol.started": clock(s.started_at),
            "tcol.supersteps": s.supersteps,
            "tcol.tasks": s.tasks,
            "tcol.wall": s.wall_seconds,
            "tcol.summed": s.summed_seconds,
            "tcol.speedup": run_speedup(s),
            "tcol.parallel_steps": s.parallel_supersteps,
            "tcol.parallel_efficiency": s.parallel_efficiency,
            "tcol.errors": s.errors,
            "tcol.interrupted": s.interrupted,
            "tcol.open": s.open_tasks,
        }
        for s in timeline.runs
    ]
    return _translated(pd.DataFrame.from_records(records))


def compare_table(sides: Mapping[str, Timeline]) -> pd.DataFrame:
    """The compare section's figures: a row per figure (:func:`summary_table`'s columns) and a column per side
    (``A``, ``B``: its run's figures), so the two runs' figures sit side by side however narrow the page.
    Cells are text (a figure's column holds numbers and ids); a side with no run has empty cells."""
    tables = {side: summary_table(timeline) for side, timeline in sides.items()}
    figures = next((list(table.columns) for table in tables.values() if not table.empty), [])
    if not figures:
        return pd.DataFrame()
    columns: dict[str, list[str]] = {t("tcol.figure"): figures}
    for side, table in tables.items():
        record = table.iloc[0] if not table.empty else pd.Series(dtype=object)
        columns[side] = ["" if pd.isna(value := record.get(figure)) else str(value) for figure in figures]
    return pd.DataFrame(columns)


def _translated(frame: pd.DataFrame) -> pd.DataFrame:
    """Seconds to the microsecond, ratios to 0.01, headers in the session's language."""
    rounding = {
        "tcol.wall": 6,
        "tcol.summed": 6,
        "tcol.speedup": 2,
        "tcol.efficiency": 2,
        "tcol.parallel_efficiency": 2,
    }
    frame = frame.round({key: digits for key, digits in rounding.items() if key in frame})
    return frame.rename(columns={key: t(key) for key in frame.columns})
