"""Benchmark: node-log rows → the Timeline page's tables, figures and JSON, for a 10,000-superstep run.

Builds, in memory, the node log of one thread whose one run has 10,000
supersteps (a node looping on itself, like the robot thread of 10,000
checkpoints; every 25th superstep fans out to three labelled parallel tasks),
then times the data work of one draw of the Timeline page at its default
selection, from the rows to what is sent to the browser:

(before) the code as it was at ``--base`` (default ``e9bed8a``, the commit
    before the timeline was made to scale): its ``agents/timing.py``,
    ``dashboard/timeline_axis.py`` and ``dashboard/timeline_figure.py`` are
    read with ``git show`` and loaded as separate modules; the page's
    ``stats_table`` and ``summary_table``, which lived in the page script, are
    copied below. Its page defaulted to all runs of the thread.
(after) this tree: one ``agents.timing.Timeline`` per draw, shared by every
    view; the page defaults to the latest run (here the same single run).

Each path does what its page did per draw: run picker labels, the thread's
figure and its ``to_json()``, the open-call count, the statistics table, the
CSV, and the comparison (both sides default to the thread's first and last
run: here the same run twice) with its figure JSON and two summaries.

Variants are interleaved (alternating which goes first) with equal repeats;
the best and median of each are printed with the ratio, the shape and trace
counts and the JSON sizes. Before timing, the outputs are checked: the
statistics tables, summaries and CSV must be equal (but for a run's
efficiency, now that of its parallel supersteps), and the figure must draw
the run's latest ``MAX_DRAWN_CALLS`` calls where it drew them (the page's
charts draw a window of a long run, every call one click away).

With ``--template``, it times instead what the timeline's own template saves
(``dashboard.timeline_figure.timeline_template``): the page's two figures of a
run of ``--supersteps`` supersteps (8 by default then, a lecture's size), each
with its ``to_json()``, drawn with that template and with Plotly's
``plotly_white`` by name, interleaved; ``--repeat`` draws of each (20 then).

Usage::

    python benchmarks/bench_timeline.py [--supersteps 10000] [--repeat 2] [--base e9bed8a]
    python benchmarks/bench_timeline.py --template [--supersteps 8] [--repeat 20]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pandas as pd  # noqa: E402
from streamlit import logger as streamlit_logger  # noqa: E402

from agents.timing import Timeline, timeline_csv_of_calls, timeline_of  # noqa: E402
from benchmarks._base import load_base_modules  # noqa: E402
from dashboard import timeline_figure  # noqa: E402
from dashboard.i18n import t  # noqa: E402
from dashboard.timeline_figure import MAX_DRAWN_CALLS, compare_figure_of, timeline_figure_of  # noqa: E402
from dashboard.timeline_tables import clock, stats_table, summary_table  # noqa: E402

T0 = 1_750_000_000.0
FAN_OUT_EVERY = 25
GOAL = 5.0  # the page was 10.5 s; "fast" means at least five times less data work


def build_rows(supersteps: int, seed: int = 7) -> list[dict[str, Any]]:
    """Node-log rows of one run: a ``tick`` per superstep, three parallel ``worker`` tasks every 25th."""
    rng = random.Random(seed)
    rows: list[dict[str, Any]] = []
    now = T0

    def add(node: str, step: int, start: float, seconds: float, label: str = "") -> None:
        rows.append(
            {
                "id": len(rows) + 1,
                "agent": "robot",
                "thread_id": "bench",
                "run_id": "run-1",
                "node": node,
                "task_id": f"task-{len(rows) + 1}",
                "step": step,
                "label": label,
                "started_at": start,
                "ended_at": start + seconds,
                "status": "ok",
                "error": "",
            }
        )

    for step in range(1, supersteps + 1):
        if step % FAN_OUT_EVERY == 0:
            durations = [rng.uniform(0.05, 0.2) for _ in range(3)]
            for label, seconds in zip("abc", durations, strict=True):
                add("worker", step, now, seconds, label)
            now += max(durations) + 0.001
        else:
            seconds = rng.uniform(0.005, 0.02)
            add("tick", step, now, seconds)
            now += seconds + 0.0005
    rows.sort(key=lambda row: (row["started_at"], row["id"]))
    return rows


def _load_base_modules(commit: str) -> dict[str, types.ModuleType]:
    """The base commit's timing, axis and figure modules, loaded beside today's under other names."""
    return load_base_modules(
        commit,
        {
            "_base_timing": "agents/timing.py",
            "_base_timeline_axis": "dashboard/timeline_axis.py",
            "_base_timeline_figure": "dashboard/timeline_figure.py",
        },
        {
            "from agents.timing import": "from _base_timing import",
            "from dashboard.timeline_axis import": "from _base_timeline_axis import",
        },
    )


class BasePage:
    """The base commit's page data path: every view resolves the rows again."""

    def __init__(self, commit: str) -> None:
        modules = _load_base_modules(commit)
        self.timing = modules["_base_timing"]
        self.figure = modules["_base_timeline_figure"]

    def stats_table(self, rows: list[dict[str, Any]]) -> pd.DataFrame:
        """``app_pages/timeline.stats_table`` as it was: every run scans every superstep."""
        steps = self.timing.superstep_stats(rows)
        records = []
        for summary in self.timing.run_summaries(rows):
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

    def summary_table(self, rows: list[dict[str, Any]]) -> pd.DataFrame:
        """``app_pages/timeline.summary_table`` as it was."""
        records = [
            {
                "tcol.thread": s.thread_id,
                "tcol.run": s.run_id,
                "tcol.started": clock(s.started_at),
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
            for s in self.timing.run_summaries(rows)
        ]
        return _translated(pd.DataFrame.from_records(records))

    def draw(self, rows: list[dict[str, Any]], laps: Laps) -> dict[str, Any]:
        """One draw at the old default (all runs of the thread)."""
        labels = [s.run_id for s in self.timing.run_summaries(rows)]  # the run picker
        shown = rows
        laps.lap("calls and run picker")
        figure = self.figure.timeline_figure(shown, title="bench")
        laps.lap("figure")
        figure_json = figure.to_json()
        laps.lap("figure to_json")
        open_calls = sum(call.open for call in self.timing.node_calls(shown))
        stats = self.stats_table(shown)
        laps.lap("open calls, stats table")
        csv = self.timing.timeline_csv(shown)
        laps.lap("CSV")
        sides = []
        for pick in (0, -1):  # each side's pickers summarised the thread's runs again: first and last run
            run_id = [s.run_id for s in self.timing.run_summaries(rows)][pick]
            sides.append([row for row in rows if row["run_id"] == run_id])
        compare_json = self.figure.compare_figure(sides[0], sides[1], labels=["A", "B"]).to_json()
        summaries = [self.summary_table(side) for side in sides]
        laps.lap("comparison")
        return _outcome(labels, figure, figure_json, open_calls, stats, csv, compare_json, summaries)


def draw_after(rows: list[dict[str, Any]], laps: Laps) -> dict[str, Any]:
    """One draw at the new default (the latest run), one Timeline shared by every view, each chart a window
    of the run's latest ``MAX_DRAWN_CALLS`` calls (as the page draws them)."""
    timeline = timeline_of(rows)
    labels = [s.run_id for s in timeline.runs]
    shown: Timeline = timeline.of_run(labels[-1])
    laps.lap("calls and run picker")
    figure = timeline_figure_of(shown, title="bench", max_calls=MAX_DRAWN_CALLS)
    laps.lap("figure")
    figure_json = figure.to_json()
    laps.lap("figure to_json")
    stats = stats_table(shown)
    laps.lap("open calls, stats table")
    csv = timeline_csv_of_calls(shown.calls)
    laps.lap("CSV")
    sides = [timeline.of_run(labels[0]), timeline.of_run(labels[-1])]
    compare_json = compare_figure_of(sides[0], sides[1], labels=["A", "B"], max_calls=MAX_DRAWN_CALLS).to_json()
    summaries = [summary_table(side) for side in sides]
    laps.lap("comparison")
    return _outcome(labels, figure, figure_json, shown.open_calls, stats, csv, compare_json, summaries)


class Laps:
    """Seconds per stage of one draw, best over the repeats."""

    def __init__(self) -> None:
        self.best: dict[str, float] = {}
        self.start()

    def start(self) -> None:
        self._since = time.perf_counter()

    def lap(self, stage: str) -> None:
        now = time.perf_counter()
        self.best[stage] = min(self.best.get(stage, float("inf")), now - self._since)
        self._since = now


def _translated(frame: pd.DataFrame) -> pd.DataFrame:
    rounding = {"tcol.wall": 6, "tcol.summed": 6, "tcol.speedup": 2, "tcol.efficiency": 2}
    frame = frame.round({key: digits for key, digits in rounding.items() if key in frame})
    return frame.rename(columns={key: t(key) for key in frame.columns})


def _outcome(*parts: Any) -> dict[str, Any]:
    """One draw's outputs by name, so both paths can be compared field by field."""
    names = ("labels", "figure", "figure_json", "open_calls", "stats", "csv", "compare_json", "summaries")
    return dict(zip(names, parts, strict=True))


def drawn_intervals(figure: Any) -> list[tuple[str, float, float]]:
    """Every call as ``(lane, x_start, x_end)``, from bars or from WebGL segments."""
    intervals = []
    for trace in figure.data:
        if trace.type == "bar":
            intervals += [(y, b, b + x) for y, b, x in zip(trace.y, trace.base, trace.x, strict=True)]
        elif trace.type == "scattergl" and trace.mode == "lines":
            xs, ys = list(trace.x), list(trace.y)
            intervals += [(ys[i], xs[i], xs[i + 1]) for i in range(0, len(xs), 3)]
    return sorted((lane, round(start, 9), round(end, 9)) for lane, start, end in intervals)


def _same_speedups(before: pd.DataFrame, after: pd.DataFrame) -> None:
    """A run's speed-up is as it was wherever the new table gives one (a run with parallel work)."""
    column = t("tcol.speedup")
    given = after[column].notna()
    pd.testing.assert_series_equal(
        before.loc[given, column].astype(float), after.loc[given, column].astype(float), check_names=False
    )


def check_same_output(before: dict[str, Any], after: dict[str, Any]) -> None:
    """The tables, summaries and CSV must be equal, and the figure must draw the latest calls where they were.

    Where the two differ by design: a run's row gives the efficiency of its parallel supersteps (and their
    number) instead of the whole run's, and no speed-up when none of its supersteps ran in parallel; a
    chart draws the run's latest ``MAX_DRAWN_CALLS`` calls, each at least
    ``dashboard.timeline_figure.min_bar_width`` long, so the check is on their lanes and starts.
    """
    assert before["labels"] == after["labels"], "run picker"
    assert before["open_calls"] == after["open_calls"], "open calls"
    steps = after["stats"][t("tcol.step")] != t("timeline.run_total")
    pd.testing.assert_frame_equal(before["stats"][steps], after["stats"][steps])
    same = [t(key) for key in ("tcol.tasks", "tcol.wall", "tcol.summed")]
    pd.testing.assert_frame_equal(before["stats"].loc[~steps, same], after["stats"].loc[~steps, same])
    _same_speedups(before["stats"].loc[~steps], after["stats"].loc[~steps])
    for old, new in zip(before["summaries"], after["summaries"], strict=True):
        kept = [column for column in old.columns if column not in (t("tcol.efficiency"), t("tcol.speedup"))]
        pd.testing.assert_frame_equal(old[kept], new[kept])
        _same_speedups(old, new)
    assert before["csv"] == after["csv"], "CSV"
    old_starts = sorted((start, lane) for lane, start, _ in drawn_intervals(before["figure"]))
    new_starts = sorted((start, lane) for lane, start, _ in drawn_intervals(after["figure"]))
    assert len(new_starts) == min(len(old_starts), MAX_DRAWN_CALLS), "drawn calls"
    latest = old_starts[-len(new_starts) :]
    assert [(lane, round(start - new_starts[0][0], 6)) for start, lane in new_starts] == [
        (lane, round(start - latest[0][0], 6)) for start, lane in latest
    ], "the window is the latest calls"


def _time(draw: Callable[[Laps], dict[str, Any]], laps: Laps) -> float:
    started = time.perf_counter()
    laps.start()
    draw(laps)
    return time.perf_counter() - started


def template_seconds(rows: list[dict[str, Any]], repeat: int) -> dict[str, dict[str, tuple[list[float], int]]]:
    """Each figure of the page with its JSON, drawn with each template, interleaved: the seconds of every draw
    and the JSON's length in bytes, by figure and template."""
    timeline = timeline_of(rows)
    figures: dict[str, Callable[[], Any]] = {
        "thread figure": lambda: timeline_figure_of(timeline, title="bench", max_calls=MAX_DRAWN_CALLS),
        "comparison": lambda: compare_figure_of(timeline, timeline, labels=["A", "B"], max_calls=MAX_DRAWN_CALLS),
    }
    ours = timeline_figure.timeline_template
    templates: dict[str, Callable[[], Any]] = {"timeline_template()": ours, "'plotly_white'": lambda: "plotly_white"}
    seconds: dict[str, dict[str, list[float]]] = {figure: {name: [] for name in templates} for figure in figures}
    sizes: dict[str, dict[str, int]] = {figure: {} for figure in figures}
    try:
        for repeat_index in range(repeat + 1):  # the first draw of each, which imports and fills caches, is not kept
            order = list(templates) if repeat_index % 2 == 0 else list(reversed(templates))
            for name in order:
                timeline_figure.timeline_template = templates[name]  # type: ignore[assignment]
                for figure, draw in figures.items():
                    started = time.perf_counter()
                    sizes[figure][name] = len(draw().to_json())
                    if repeat_index:
                        seconds[figure][name].append(time.perf_counter() - started)
    finally:
        timeline_figure.timeline_template = ours  # type: ignore[assignment]
    return {figure: {name: (seconds[figure][name], sizes[figure][name]) for name in templates} for figure in figures}


def _print_template_seconds(rows: list[dict[str, Any]], repeat: int) -> None:
    print(f"node log: {len(rows)} calls; each figure drawn and turned to JSON {repeat} times with each template")
    for figure, by_template in template_seconds(rows, repeat).items():
        (ours, ours_size), (named, named_size) = (
            (statistics.median(values) * 1000, size / 1024) for values, size in by_template.values()
        )
        print(
            f"{figure:<14} timeline_template() {ours:6.1f} ms, JSON {ours_size:5.1f} KiB   "
            f"'plotly_white' {named:6.1f} ms, JSON {named_size:5.1f} KiB   {named / ours:4.1f}x the time"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--supersteps", type=int, default=None, help="10,000 (8 with --template)")
    parser.add_argument("--repeat", type=int, default=None, help="2 (20 with --template)")
    parser.add_argument("--base", default="e9bed8a", help="the commit whose code is 'before'")
    parser.add_argument("--template", action="store_true", help="time the timeline's template against plotly_white")
    args = parser.parse_args()
    # t() reads the session's language; outside a Streamlit run that is the default, said loudly.
    streamlit_logger.set_log_level("error")
    if args.template:
        _print_template_seconds(build_rows(args.supersteps or 8), args.repeat or 20)
        return
    args.supersteps = args.supersteps or 10_000
    args.repeat = args.repeat or 2

    rows = build_rows(args.supersteps)
    base = BasePage(args.base)
    print(f"node log: {len(rows)} calls in {args.supersteps} supersteps, one run; before = {args.base}")

    before, after = base.draw(rows, Laps()), draw_after(rows, Laps())
    check_same_output(before, after)
    print("same output: stats table, summaries, CSV, run picker and open calls equal; the charts draw the latest calls")
    for name, out in (("before", before), ("after", after)):
        figure = out["figure"]
        print(
            f"{name:<7} figure: {len(figure.data)} traces ({', '.join(sorted({tr.type for tr in figure.data}))}), "
            f"{len(figure.layout.shapes)} shapes, {len(figure.layout.annotations)} annotations; "
            f"JSON {len(out['figure_json']) / 2**20:.2f} MiB; compare JSON {len(out['compare_json']) / 2**20:.2f} MiB"
        )

    variants: dict[str, Callable[[Laps], dict[str, Any]]] = {"before": base.draw, "after": draw_after}
    times: dict[str, list[float]] = {name: [] for name in variants}
    laps = {name: Laps() for name in variants}
    for repeat in range(args.repeat):
        order = list(variants) if repeat % 2 == 0 else list(reversed(variants))
        for name in order:
            times[name].append(_time(lambda lapped, name=name: variants[name](rows, lapped), laps[name]))
    print(f"{'stage (best of ' + str(args.repeat) + ')':<24} {'before':>9} {'after':>9} {'ratio':>7}")
    for stage, old in laps["before"].best.items():
        new = laps["after"].best[stage]
        print(f"{stage:<24} {old:8.3f}s {new:8.3f}s {old / new:6.1f}x")
    for name, seconds in times.items():
        print(f"{name:<7} one draw: best {min(seconds):6.2f} s   median {statistics.median(seconds):6.2f} s")
    ratio = min(times["before"]) / min(times["after"])
    json_ratio = len(before["figure_json"]) / len(after["figure_json"])
    print(f"before/after time  = {ratio:5.1f}x  (goal >= {GOAL:.0f}x)  {'met' if ratio >= GOAL else 'MISSED'}")
    print(f"before/after JSON  = {json_ratio:5.1f}x")


if __name__ == "__main__":
    main()
