"""Benchmark: the Timeline page's "compare two runs" for an agent with 1,000 runs, and its wait bands.

Builds a SQLite node log (a temporary file) for one agent with ``--threads``
threads of ``--runs-per-thread`` runs each (default 100 x 10 = 1,000 runs),
``--calls`` node calls per run (default 20: a plan, a fan-out of parallel
tasks, a few sequential steps), then times the comparison's data work of one
draw, from the database to what is sent to the browser, in two selections:

* **default**: both sides on the thread shown above the comparison (its first
  and its last run); that thread's ``Timeline`` is resolved once by the page's
  own view, so it is given to both paths, resolved, and not timed.
* **other thread**: side B on a run of another thread.

(before) main's comparison (copied below from ``app_pages/timeline.py`` as it
    was): ``node_runs(store, agent=...)`` loads every node-log row of the
    agent, groups them by thread, resolves every picked thread whole and
    lists each thread's runs from those timelines.
(after) this tree: ``agents.run_index.latest_runs`` gives the latest 50 runs
    as per-run aggregates computed in SQL, and each side reads only its
    run's rows (``node_runs(thread_id=..., run_id=...)``).

Both build the same run option labels, the comparison figure (and its JSON)
and both summaries; before timing, the figures and summaries are checked
equal. Variants are interleaved (alternating which goes first) with equal
repeats; the best and median are printed with the ratio and the rows each
fetched from the database.

Then, for the wait bands, a thread of ``--waits`` + 1 one-call runs with a
compressed wait before each: the number of layout shapes and annotations and
the figure JSON size, with main's band code (``git show main:...``) and this
tree's.

Usage::

    python benchmarks/bench_comparison.py [--threads 100] [--runs-per-thread 10] [--calls 20] [--repeat 5]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from streamlit import logger as streamlit_logger  # noqa: E402

from agents.db import Store  # noqa: E402
from agents.nodelog import node_runs  # noqa: E402
from agents.run_index import latest_runs  # noqa: E402
from agents.runtime import open_store  # noqa: E402
from agents.timing import Timeline, timeline_of  # noqa: E402
from dashboard import timeline_figure as figure_module  # noqa: E402
from dashboard.i18n import t  # noqa: E402
from dashboard.timeline_figure import compare_figure_of  # noqa: E402
from dashboard.timeline_tables import clock, summary_table  # noqa: E402

T0 = 1_750_000_000.0
AGENT = "robot"
COMPARE_PAGE = 50  # app_pages.timeline.COMPARE_PAGE


def fill_node_log(store: Store, threads: int, runs_per_thread: int, calls: int) -> int:
    """Logs ``threads x runs_per_thread`` runs of ``calls`` calls; threads interleave in time. Returns the rows."""
    rows = []
    for run_index in range(runs_per_thread):
        for thread_index in range(threads):
            start = T0 + (run_index * threads + thread_index) * 600.0  # a run every ten minutes
            run_id = f"run-{thread_index}-{run_index}"
            for call in range(calls):
                step, offset = (2, 1.0) if 0 < call < calls // 2 else (call + 1, call * 1.5)
                label = f"topic {call}" if step == 2 else ""
                rows.append((f"thread-{thread_index}", run_id, f"node-{step}", step, label, start + offset))
    with store.transaction() as cursor:
        for index, (thread_id, run_id, node, step, label, start) in enumerate(rows):
            cursor.execute(
                "INSERT INTO node_log (agent, thread_id, run_id, node, task_id, step, label, started_at,"
                " ended_at, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'ok')",
                (AGENT, thread_id, run_id, node, f"task-{index}", step, label, start, start + 1.2),
            )
    return len(rows)


def _option(run_id: str, started_at: float, calls: int) -> str:
    return t("timeline.run_option", run=run_id, start=clock(started_at), calls=calls)


def _outcome(
    picked: dict[str, Timeline], options: dict[str, dict[str, str]], fetched: int, started: float
) -> dict[str, Any]:
    """Figure, JSON and summaries of the picked runs; ``read`` is the time spent before them (the data)."""
    read = time.perf_counter() - started
    labels = [f"{side}: {shown.calls[0].thread_id} · {shown.calls[0].run_id}" for side, shown in picked.items()]
    figure = compare_figure_of(picked["A"], picked["B"], labels=labels)
    return {
        "options": options,
        "figure_json": figure.to_json(),
        "summaries": [summary_table(side) for side in picked.values()],
        "fetched": fetched,
        "read": read,
    }


def compare_before(store: Store, home: Timeline, picks: dict[str, tuple[str, str]]) -> dict[str, Any]:
    """Main's ``_show_compare`` data path: every row of the agent, threads resolved whole."""
    started = time.perf_counter()
    timelines = {home.calls[0].thread_id: home}
    by_thread: dict[str, list[dict[str, Any]]] = {}
    agent_rows = node_runs(store, agent=AGENT)
    for row in agent_rows:
        by_thread.setdefault(row["thread_id"], []).append(row)
    options, picked = {}, {}
    for side, (thread_id, run_id) in picks.items():
        if thread_id not in timelines:
            timelines[thread_id] = timeline_of(by_thread[thread_id])
        options[thread_id] = {
            run.run_id: _option(run.run_id, run.started_at, run.tasks) for run in timelines[thread_id].runs
        }
        picked[side] = timelines[thread_id].of_run(run_id)
    return _outcome(picked, options, len(agent_rows), started)


def compare_after(store: Store, home: Timeline, picks: dict[str, tuple[str, str]]) -> dict[str, Any]:
    """This tree's ``_show_compare`` data path: per-run aggregates in SQL, each side's run read alone."""
    started = time.perf_counter()
    home_id = home.calls[0].thread_id
    listed = latest_runs(store, AGENT, limit=COMPARE_PAGE)
    by_thread: dict[str, dict[str, str]] = {}
    for entry in listed.runs:
        by_thread.setdefault(entry.thread_id, {})[entry.run_id] = _option(entry.run_id, entry.started_at, entry.calls)
    by_thread[home_id] = {run.run_id: _option(run.run_id, run.started_at, run.tasks) for run in home.runs}
    fetched, picked = len(listed.runs) + int(listed.more), {}
    for side, (thread_id, run_id) in picks.items():
        if thread_id == home_id:
            picked[side] = home.of_run(run_id)
        else:
            rows = node_runs(store, thread_id=thread_id, run_id=run_id)
            fetched += len(rows)
            picked[side] = timeline_of(rows)
    options = {thread_id: by_thread[thread_id] for thread_id, _ in picks.values()}
    return _outcome(picked, options, fetched, started)


def check_same(before: dict[str, Any], after: dict[str, Any]) -> None:
    assert before["figure_json"] == after["figure_json"], "the comparison figures differ"
    for old, new in zip(before["summaries"], after["summaries"], strict=True):
        assert old.equals(new), "the summaries differ"
    for thread_id, runs in after["options"].items():
        # A thread's runs among the latest listed are the ones main listed, same labels.
        assert runs.items() <= before["options"][thread_id].items(), f"run options of {thread_id} differ"


def timed(variants: dict[str, Callable[[], dict[str, Any]]], repeat: int) -> dict[str, dict[str, list[float]]]:
    """``{variant: {"draw": [...], "read": [...]}}`` seconds, variants interleaved."""
    times: dict[str, dict[str, list[float]]] = {name: {"draw": [], "read": []} for name in variants}
    for index in range(repeat):
        for name in list(variants) if index % 2 == 0 else list(reversed(variants)):
            started = time.perf_counter()
            outcome = variants[name]()
            times[name]["draw"].append(time.perf_counter() - started)
            times[name]["read"].append(outcome["read"])
    return times


def _main_bands() -> types.ModuleType:
    """Main's ``dashboard/timeline_bands.py``, loaded beside this tree's."""
    source = subprocess.run(
        ["git", "-C", str(ROOT), "show", "main:dashboard/timeline_bands.py"], check=True, capture_output=True, text=True
    ).stdout
    module = types.ModuleType("_main_timeline_bands")
    exec(compile(source, "main:dashboard/timeline_bands.py", "exec"), module.__dict__)
    return module


def wait_bands(waits: int) -> None:
    """Layout size of a thread of ``waits`` + 1 runs, with main's wait bands and this tree's."""
    rows = [
        {
            "id": index + 1,
            "agent": AGENT,
            "thread_id": "waits",
            "run_id": f"run-{index}",
            "node": "step",
            "task_id": f"task-{index}",
            "step": 1,
            "label": "",
            "started_at": T0 + index * 61.0,
            "ended_at": T0 + index * 61.0 + 1.0,
            "status": "interrupted",
            "error": "",
        }
        for index in range(waits + 1)
    ]
    timeline = timeline_of(rows)
    ours = figure_module.wait_decorations
    for name, decorations in (("before", _main_bands().wait_decorations), ("after", ours)):
        figure_module.wait_decorations = decorations
        try:
            started = time.perf_counter()
            figure = figure_module.timeline_figure_of(timeline)
            text = figure.to_json()
            seconds = time.perf_counter() - started
        finally:
            figure_module.wait_decorations = ours
        print(
            f"  {name:<7} {len(figure.layout.shapes):>6} shapes {len(figure.layout.annotations):>6} annotations"
            f"   figure + JSON {seconds:6.2f} s   JSON {len(text) / 2**20:6.2f} MiB"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, default=100)
    parser.add_argument("--runs-per-thread", type=int, default=10)
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--waits", type=int, default=5_000)
    args = parser.parse_args()
    streamlit_logger.set_log_level("error")  # t() outside a Streamlit run: the default language

    with tempfile.TemporaryDirectory() as folder:
        store = open_store(str(Path(folder) / "bench.sqlite"))
        try:
            total = fill_node_log(store, args.threads, args.runs_per_thread, args.calls)
            runs = args.threads * args.runs_per_thread
            print(f"node log: {total} rows, {runs} runs of {args.calls} calls in {args.threads} threads, one agent")
            home_id = f"thread-{args.threads - 1}"  # the thread of the latest run: the page's default
            home = timeline_of(node_runs(store, thread_id=home_id))
            last = args.runs_per_thread - 1
            other = f"thread-{args.threads // 2 + 1}"  # its last run is among the 50 latest, so it is listed
            selections = {
                "default": {
                    "A": (home_id, f"run-{args.threads - 1}-0"),
                    "B": (home_id, f"run-{args.threads - 1}-{last}"),
                },
                "other thread": {"A": (home_id, f"run-{args.threads - 1}-0"), "B": (other, f"run-{other[7:]}-{last}")},
            }
            print(
                f"{'selection':<14} {'variant':<7} {'rows fetched':>12}"
                f" {'read best':>10} {'read median':>11} {'draw best':>10} {'draw median':>11}"
            )
            for selection, picks in selections.items():
                variants = {
                    "before": lambda picks=picks: compare_before(store, home, picks),
                    "after": lambda picks=picks: compare_after(store, home, picks),
                }
                outcomes = {name: draw() for name, draw in variants.items()}
                check_same(outcomes["before"], outcomes["after"])
                times = timed(variants, args.repeat)
                for name, laps in times.items():
                    read, draw = laps["read"], laps["draw"]
                    print(
                        f"{selection:<14} {name:<7} {outcomes[name]['fetched']:>12}"
                        f" {min(read):9.3f}s {statistics.median(read):10.3f}s"
                        f" {min(draw):9.3f}s {statistics.median(draw):10.3f}s"
                    )
                read_ratio = min(times["before"]["read"]) / min(times["after"]["read"])
                draw_ratio = min(times["before"]["draw"]) / min(times["after"]["draw"])
                print(
                    f"{selection:<14} before/after: data read {read_ratio:5.1f}x, whole draw {draw_ratio:5.1f}x"
                    f" (best of {args.repeat}); same figure and summaries"
                )
        finally:
            store.close()
    print(f"wait bands: one thread of {args.waits + 1} runs, {args.waits} compressed waits")
    wait_bands(args.waits)


if __name__ == "__main__":
    main()
