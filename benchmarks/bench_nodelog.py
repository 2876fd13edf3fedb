"""Overhead of the node log on a many-step graph.

The same loop graph (one no-op node that runs ``--steps`` times, one superstep
per call) runs on the same kind of database (our ``Store``: one SQLite file in
WAL mode, ``synchronous=NORMAL``, the ``SqliteSaver`` over the shared
connection) and the same code path as the dashboard and CLI
(``graph.stream(..., stream_mode="tasks", durability="sync")``) in these variants:

* ``plain``: no node log;
* ``node log``: every node wrapped by ``agents.nodelog.logged_node``, as shipped;
* ``transaction() writes``: the same wrapper, its two writes through
  ``Store.transaction`` (``BEGIN IMMEDIATE``, ``INSERT ... RETURNING id``), the
  node log's earlier path: the baseline of the shipped one;
* ``one commit per call`` (reference only, with ``--reference``): the end of call
  k written in the same commit as the start of call k+1. It is not a design the
  node log can use (a process killed between the two would lose an end that
  had happened, and the last call's end needs a write after the run); it shows
  what the second commit costs.

Each repetition runs every variant on a fresh database file, rotating which goes
first so drift (other processes, page cache, CPU frequency) hits all alike. It
prints each variant's minimum and median wall time, the overhead ratios against
``plain`` (of the medians, of the minimums, and the median of the per-repetition
ratios), whether the goal is met, and the time spent inside the node log's two
writes per call (measured around ``_start`` and ``_finish``; the measuring costs
well under a microsecond per call).

Usage::

    python benchmarks/bench_nodelog.py [--steps 1000] [--repeats 11] [--reference] [--dir DIR]

The goal is an overhead ratio of at most 1.10 (of the medians). Timings are printed, never asserted.

Why each call costs two commits: the ``running`` row must be committed before
the node body runs (a node killed half-way, a long model call the likely victim,
must show as stopped), and the end before LangGraph saves the node's writes (a
process killed after a node finished must show it finished). LangGraph commits
nothing between choosing a task and running it, nor between the node's return
and its writes, so neither write can share a commit. What a commit costs is set by
the pages it writes to the WAL: the insert writes three (the table's, its index's
and ``sqlite_sequence``'s, for AUTOINCREMENT), the update one.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypedDict

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from langgraph.graph import END, START, StateGraph  # noqa: E402

from agents import nodelog  # noqa: E402
from agents.db import SqliteStore, Store, insert_sql  # noqa: E402

GOAL_RATIO = 1.10
PLAIN, LOGGED, BASELINE, ONE_COMMIT = "plain", "node log", "transaction() writes", "one commit per call"


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


def _transaction_start(store: Store, agent: str, node: str, label: str, config: Any) -> int:
    """The running row through ``Store.transaction`` (the baseline)."""
    thread_id, run_id, task_id, step = nodelog._call_identity(config)
    with store.transaction() as cursor:
        cursor.execute(
            "INSERT INTO node_log (agent, thread_id, run_id, node, task_id, step, label,"
            " started_at, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'running') RETURNING id",
            (agent, thread_id, run_id, node, task_id, step, label, time.time()),
        )
        return int(cursor.fetchone()[0])


def _transaction_finish(store: Store, row_id: int, status: str, error: str = "") -> None:
    """The end through ``Store.transaction`` (the baseline)."""
    with store.transaction() as cursor:
        cursor.execute(
            "UPDATE node_log SET ended_at = ?, status = ?, error = ? WHERE id = ?",
            (time.time(), status, error[:2000], row_id),
        )


class _OneCommit:
    """The reference: a call's end waits for the next call's start and shares its commit."""

    def __init__(self) -> None:
        self.pending: tuple[Any, ...] | None = None

    def start(self, store: Any, agent: str, node: str, label: str, config: Any) -> int:
        thread_id, run_id, task_id, step = nodelog._call_identity(config)
        with store.lock:
            if self.pending is not None:
                store.conn.execute(nodelog._FINISH_SQL, self.pending)
                self.pending = None
            values = (agent, thread_id, run_id, node, task_id, step, label, time.time(), "running")
            row_id = store.conn.execute(insert_sql("node_log", nodelog._START_COLUMNS), values).lastrowid
            store.conn.commit()
        return int(row_id)

    def finish(self, store: Any, row_id: int, status: str, error: str = "") -> None:
        self.pending = (time.time(), status, error[:2000], row_id)

    def flush(self, store: Store) -> None:
        if self.pending is not None:
            store.execute_one(nodelog._FINISH_SQL, self.pending)


@contextmanager
def node_log_writes(variant: str, store: Store, spent: list[float]) -> Iterator[Callable[[], None]]:
    """Puts the variant's two writes in place, timed into ``spent``; yields what ends the run."""
    writes: tuple[Callable[..., int], Callable[..., None]] = (nodelog._start, nodelog._finish)
    flush: Callable[[], None] = lambda: None  # noqa: E731
    if variant == BASELINE:
        writes = (_transaction_start, _transaction_finish)
    elif variant == ONE_COMMIT:
        reference = _OneCommit()
        writes, flush = (reference.start, reference.finish), lambda: reference.flush(store)
    start, finish = writes

    def timed_start(*args: Any) -> int:
        began = time.perf_counter()
        row_id = start(*args)
        spent.append(time.perf_counter() - began)
        return row_id

    def timed_finish(*args: Any) -> None:
        began = time.perf_counter()
        finish(*args)
        spent.append(time.perf_counter() - began)

    shipped = nodelog._start, nodelog._finish
    nodelog._start, nodelog._finish = timed_start, timed_finish  # type: ignore[assignment]
    try:
        yield flush
    finally:
        nodelog._start, nodelog._finish = shipped  # type: ignore[assignment]


def run_once(directory: Path, steps: int, *, variant: str) -> tuple[float, float]:
    """Runs the loop on a fresh database file; returns wall seconds and node-log seconds per call."""
    store = SqliteStore(directory / f"bench-{uuid.uuid4().hex}.sqlite")
    spent: list[float] = []
    try:
        graph = build_loop_graph(store, logged=variant != PLAIN)
        config = {
            "configurable": {"thread_id": "bench"},
            "metadata": {"agent": "bench", "run_id": uuid.uuid4().hex[:12]},
            "recursion_limit": steps + 10,
        }
        with node_log_writes(variant, store, spent) as flush:
            started = time.perf_counter()
            for _ in graph.stream({"count": 0, "limit": steps}, config, stream_mode="tasks", durability="sync"):
                pass
            flush()
            elapsed = time.perf_counter() - started
        if variant != PLAIN:
            with store.read() as cursor:
                cursor.execute("SELECT COUNT(*), SUM(status = 'ok') FROM node_log")
                logged_rows, ok_rows = cursor.fetchone()
            if logged_rows != steps or ok_rows != steps:
                raise RuntimeError(f"{variant}: expected {steps} ok node-log rows, found {logged_rows} ({ok_rows} ok)")
        return elapsed, sum(spent) / steps
    finally:
        store.close()


def main(argv: list[str] | None = None) -> int:
    """Runs the benchmark and prints the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=1000, help="node calls per run (default 1000)")
    parser.add_argument("--repeats", type=int, default=11, help="runs per variant (default 11)")
    parser.add_argument("--reference", action="store_true", help=f"also run the {ONE_COMMIT!r} reference")
    parser.add_argument("--dir", help="where to put the database files (default: a temp dir)")
    args = parser.parse_args(argv)
    variants = [PLAIN, LOGGED, BASELINE] + ([ONE_COMMIT] if args.reference else [])

    times: dict[str, list[float]] = {variant: [] for variant in variants}
    writes: dict[str, list[float]] = {variant: [] for variant in variants}
    with tempfile.TemporaryDirectory(dir=args.dir) as temp:
        directory = Path(temp)
        for variant in variants:  # warm-up: imports, first compile, page cache
            run_once(directory, min(args.steps, 50), variant=variant)
        for repeat in range(args.repeats):
            # Rotate the order so no variant always runs first (or last).
            shift = repeat % len(variants)
            for variant in variants[shift:] + variants[:shift]:
                wall, per_call = run_once(directory, args.steps, variant=variant)
                times[variant].append(wall)
                writes[variant].append(per_call)

    print(
        f"loop graph, {args.steps} no-op steps, {args.repeats} rotating repeats, "
        "SqliteSaver (WAL, synchronous=NORMAL), stream_mode='tasks', durability='sync'"
    )
    plain_median, plain_min = statistics.median(times[PLAIN]), min(times[PLAIN])
    for variant in variants:
        median = statistics.median(times[variant])
        line = (
            f"  {variant:<22} median {median:.3f} s ({median / args.steps * 1e6:4.0f} us/step)"
            f"  min {min(times[variant]):.3f} s ({min(times[variant]) / args.steps * 1e6:4.0f} us/step)"
        )
        if variant != PLAIN:
            line += (
                f"  node-log writes per call: median {statistics.median(writes[variant]) * 1e6:4.1f} us,"
                f" min {min(writes[variant]) * 1e6:4.1f} us"
            )
        print(line)
    print(f"  overhead ratio against {PLAIN!r} (goal <= {GOAL_RATIO:.2f} of the medians):")
    for variant in variants[1:]:
        ratio = statistics.median(times[variant]) / plain_median
        paired = statistics.median(v / p for v, p in zip(times[variant], times[PLAIN], strict=True))
        verdict = "met" if ratio <= GOAL_RATIO else "NOT met"
        share = statistics.median(writes[variant]) * args.steps / plain_median
        print(
            f"    {variant:<22} {ratio:.3f} of medians ({verdict}), {min(times[variant]) / plain_min:.3f} of minimums,"
            f" {paired:.3f} median of paired runs; its writes alone: +{share:.3f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
