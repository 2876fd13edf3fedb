"""Overhead of the node log on a many-step graph: queued and written in batches, against two commits per call.

The same loop graph (one no-op node that runs ``--steps`` times, one superstep
per call) runs on our ``Store`` (one SQLite file in WAL mode, ``synchronous=NORMAL``,
the ``SqliteSaver`` over the shared connection) and the same code path as the
dashboard and CLI (``graph.stream(..., stream_mode="tasks", durability="sync")``),
in these variants:

* ``plain``: no node log, the store as shipped;
* ``node log``: every node wrapped by ``agents.nodelog.logged_node``, as shipped: each call
  queued at its start and its end, written in batches by the store's writer thread, and
  the rest written (``agents.nodelog.flush``) when the run ends, inside the timed window;
* ``two commits per call`` (the previous design, a reference): the ``running`` row committed
  before the node's body and the end committed after it, each as one statement
  (``Store.insert``, ``Store.execute_one``).

Each repetition runs every variant on a fresh database file, rotating which goes
first so drift (other processes, page cache, CPU frequency) hits all alike. A run's
time ends after the node log is written and the WAL is folded into the file
(``PRAGMA wal_checkpoint``). It prints each variant's minimum and median wall time
and CPU time, the overhead ratios against ``plain`` (the median of the paired
repetitions' ratios, which the goal is stated on, then of the medians and of the
minimums, and CPU), whether the goal is met, and the time spent inside the node log's
two calls per node call (measured around ``_start`` and ``_finish``).

Usage::

    python benchmarks/bench_nodelog.py [--steps 1000] [--repeats 11] [--no-reference] [--dir DIR] [--only VARIANT]...

The goal is an overhead ratio of at most 1.05 (median of the paired repetitions). Timings are printed,
never asserted.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypedDict

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from langgraph.graph import END, START, StateGraph  # noqa: E402

from agents import nodelog, nodelog_queue  # noqa: E402
from agents.db import Store  # noqa: E402
from agents.db_sqlite import SqliteStore  # noqa: E402
from agents.schema import LEASES_TABLE, META_TABLE, NODE_LOG_TABLE  # noqa: E402

GOAL_RATIO = 1.05
PLAIN, LOGGED, TWO_COMMITS = "plain", "node log", "two commits per call"


class LoopState(TypedDict):
    """The loop's state: how many steps ran, and how many to run."""

    count: int
    limit: int


def tick(state: LoopState) -> dict[str, Any]:
    """The no-op node: one increment."""
    return {"count": state["count"] + 1}


def again(state: LoopState) -> str:
    """Loops back to ``tick`` until the limit is reached."""
    return "tick" if state["count"] < state["limit"] else END


def build_loop_graph(store: Store, *, logged: bool) -> Any:
    """The loop graph on the store's checkpointer, with or without the node log."""
    builder = StateGraph(LoopState)
    builder.add_node("tick", nodelog.logged_node(store, "bench", tick) if logged else tick)
    builder.add_edge(START, "tick")
    builder.add_conditional_edges("tick", again, ["tick", END])
    return builder.compile(checkpointer=store.saver)


@dataclass(frozen=True)
class Variant:
    """One way of running the loop: the node log or not, and how it writes."""

    name: str
    logged: bool
    writes: str = "shipped"  # or "two commits"


VARIANTS = (Variant(PLAIN, logged=False), Variant(LOGGED, logged=True))
REFERENCES = (Variant(TWO_COMMITS, logged=True, writes="two commits"),)


@dataclass(eq=False)
class _CommittedCall:
    """The previous design's handle on a call: its committed row's id and start time."""

    row_id: int
    started_at: float


def _commit_start(store: Any, agent: str, node: str, label: str, config: Any) -> _CommittedCall:
    """The previous design: the ``running`` row committed before the body."""
    thread_id, run_id, task_id, step = nodelog._call_identity(config)
    started_at = time.time()
    values = (agent, thread_id, run_id, node, task_id, step, label, started_at, "running")
    return _CommittedCall(store.insert("node_log", nodelog_queue._START_COLUMNS, values), started_at)


def _commit_finish(store: Any, call: _CommittedCall, status: str, error: str = "") -> None:
    """The previous design: the end committed after the body."""
    store.execute_one(nodelog_queue._FINISH_SQL, (time.time(), status, error[:2000], call.row_id, call.started_at))


@contextmanager
def node_log_writes(variant: Variant, spent: list[float]) -> Iterator[None]:
    """Puts the variant's two calls in place, timed into ``spent``."""
    start, finish = nodelog._start, nodelog._finish
    if variant.writes == "two commits":
        start, finish = _commit_start, _commit_finish

    def timed_start(*args: Any) -> Any:
        began = time.perf_counter()
        call = start(*args)
        spent.append(time.perf_counter() - began)
        return call

    def timed_finish(*args: Any) -> None:
        began = time.perf_counter()
        finish(*args)
        spent.append(time.perf_counter() - began)

    shipped = nodelog._start, nodelog._finish
    nodelog._start, nodelog._finish = timed_start, timed_finish  # type: ignore[assignment]
    try:
        yield
    finally:
        nodelog._start, nodelog._finish = shipped  # type: ignore[assignment]


@dataclass
class Figures:
    """One variant's runs: wall and CPU seconds, and node-log seconds per call."""

    wall: list[float]
    cpu: list[float]
    writes: list[float]


def run_once(directory: Path, steps: int, variant: Variant) -> tuple[float, float, float]:
    """Runs the loop on a fresh database file; returns wall and CPU seconds and node-log seconds per call."""
    path = directory / f"bench-{uuid.uuid4().hex}.sqlite"
    store = SqliteStore(path, tables=(META_TABLE, NODE_LOG_TABLE, LEASES_TABLE))
    spent: list[float] = []
    try:
        graph = build_loop_graph(store, logged=variant.logged)
        config = {
            "configurable": {"thread_id": "bench"},
            "metadata": {"agent": "bench", "run_id": uuid.uuid4().hex[:12]},
            "recursion_limit": steps + 10,
        }
        with node_log_writes(variant, spent):
            started, cpu_started = time.perf_counter(), time.process_time()
            for _ in graph.stream({"count": 0, "limit": steps}, config, stream_mode="tasks", durability="sync"):
                pass
            nodelog.flush(store)  # what the run's end writes (agents.runs), inside the window
            with store.lock:  # the run's WAL folded into the file, inside the window
                store.conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started
        if variant.logged:
            with store.read() as cursor:
                cursor.execute("SELECT COUNT(*), SUM(status = 'ok'), SUM(ended_at >= started_at) FROM node_log")
                logged_rows, ok_rows, ended_rows = cursor.fetchone()
            if not logged_rows == ok_rows == ended_rows == steps:
                raise RuntimeError(f"{variant}: expected {steps} ended ok node-log rows, found {logged_rows}")
        return elapsed, cpu, sum(spent) / steps
    finally:
        store.close()


def _ratios(figures: Figures, baseline: Figures) -> tuple[float, float, float, float, float]:
    """Wall: of the medians, of the minimums, median of the paired runs; CPU: of the paired runs, of the minimums."""
    return (
        statistics.median(figures.wall) / statistics.median(baseline.wall),
        min(figures.wall) / min(baseline.wall),
        statistics.median(v / p for v, p in zip(figures.wall, baseline.wall, strict=True)),
        statistics.median(v / p for v, p in zip(figures.cpu, baseline.cpu, strict=True)),
        min(figures.cpu) / min(baseline.cpu),
    )


def main(argv: list[str] | None = None) -> int:
    """Runs the benchmark and prints the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=1000, help="node calls per run (default 1000)")
    parser.add_argument("--repeats", type=int, default=11, help="runs per variant (default 11)")
    parser.add_argument(
        "--reference",
        action=argparse.BooleanOptionalAction,
        default=True,
        help=f"also run the reference {TWO_COMMITS!r} (default: yes)",
    )
    parser.add_argument("--dir", help="where to put the database files (default: a temp dir)")
    parser.add_argument(
        "--only", action="append", metavar="VARIANT", help=f"run only these variants (and {PLAIN!r}); repeatable"
    )
    args = parser.parse_args(argv)
    variants = [*VARIANTS, *(REFERENCES if args.reference else ())]
    if args.only:
        wanted = set(args.only) | {PLAIN}
        unknown = set(args.only) - {v.name for v in variants}
        if unknown:
            parser.error(f"unknown variant(s): {', '.join(sorted(unknown))}")
        variants = [v for v in variants if v.name in wanted]

    figures = {variant.name: Figures([], [], []) for variant in variants}
    with tempfile.TemporaryDirectory(dir=args.dir) as temp:
        directory = Path(temp)
        for variant in variants:  # warm-up: imports, first compile, page cache
            run_once(directory, min(args.steps, 50), variant)
        for repeat in range(args.repeats):
            # Rotate the order so no variant always runs first (or last).
            shift = repeat % len(variants)
            for variant in variants[shift:] + variants[:shift]:
                wall, cpu, per_call = run_once(directory, args.steps, variant)
                figures[variant.name].wall.append(wall)
                figures[variant.name].cpu.append(cpu)
                figures[variant.name].writes.append(per_call)

    print(
        f"loop graph, {args.steps} no-op steps, {args.repeats} rotating repeats, "
        "SqliteSaver (WAL, synchronous=NORMAL), stream_mode='tasks', durability='sync'"
    )
    for variant in variants:
        ran = figures[variant.name]
        median, fastest = statistics.median(ran.wall), min(ran.wall)
        line = (
            f"  {variant.name:<22} median {median:.3f} s ({median / args.steps * 1e6:4.0f} us/step)"
            f"  min {fastest:.3f} s ({fastest / args.steps * 1e6:4.0f} us/step)"
            f"  CPU median {statistics.median(ran.cpu):.3f} s, min {min(ran.cpu):.3f} s"
        )
        if variant.logged:
            line += (
                f"  node-log writes per call: median {statistics.median(ran.writes) * 1e6:4.1f} us,"
                f" min {min(ran.writes) * 1e6:4.1f} us"
            )
        print(line)
    print(f"  overhead ratio against {PLAIN!r} (goal <= {GOAL_RATIO:.2f}, median of the paired repetitions):")
    baseline = figures[PLAIN]
    for variant in variants:
        if not variant.logged:
            continue
        of_medians, of_minimums, paired, paired_cpu, cpu_minimums = _ratios(figures[variant.name], baseline)
        verdict = "met" if paired <= GOAL_RATIO else "NOT met"
        share = statistics.median(figures[variant.name].writes) * args.steps / statistics.median(baseline.wall)
        print(
            f"    {variant.name:<22} {paired:.3f} median of paired runs ({verdict}),"
            f" {of_medians:.3f} of medians, {of_minimums:.3f} of minimums;"
            f" CPU {paired_cpu:.3f} paired, {cpu_minimums:.3f} of minimums;"
            f" its calls alone: +{share:.3f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
