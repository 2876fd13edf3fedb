"""Overhead of the node log on a many-step graph, and what each of its two commits costs.

The same loop graph (one no-op node that runs ``--steps`` times, one superstep
per call) runs on our ``Store`` (one SQLite file in WAL mode, ``synchronous=NORMAL``,
the ``SqliteSaver`` over the shared connection) and the same code path as the
dashboard and CLI (``graph.stream(..., stream_mode="tasks", durability="sync")``),
in these variants:

* ``plain``: no node log, the store as shipped;
* ``node log``: every node wrapped by ``agents.nodelog.logged_node``, as shipped;
* ``AUTOINCREMENT ids``: the same on the first release's table, whose ids came from
  ``sqlite_sequence`` (each ``running`` row rewrote its page: three pages per insert, not two);
* ``own connection``: the node log's writes on a second connection to the file, kept
  open for them (its own lock, its statements prepared once and cached);
* ``BEGIN/COMMIT writes``: each write in the driver's implicit transaction (a ``BEGIN`` and a
  ``COMMIT`` prepared and run around it), the previous path of ``SqliteStore._commit_one``;
* ``plain, checkpoint 1000`` and ``node log, previous``: SQLite's default WAL
  checkpoint (every 1000 pages), without and with the previous node log (``AUTOINCREMENT``
  ids, ``BEGIN/COMMIT`` writes): the store and node log before this change;
* ``one commit per call`` (a reference): the end of call k written in the same
  commit as the start of call k+1. It is not a design the node log can use (a
  process killed between the two would lose an end that had happened, and the last
  call's end needs a write after the run); it shows what the second commit costs;
* ``one bare commit per call`` (a reference): no node-log row at all, only the least
  a commit can be before each node's body: one statement that rewrites one page (a
  counter in a one-row table). It is the floor of every design that keeps the
  ``running`` row durable before the body, whatever the row holds and wherever the
  end goes: such a design commits at least once per call, because LangGraph commits
  nothing between choosing a task and running it. The benchmark prints whether that
  floor is within the goal on this machine: when it is not, no such design meets it.

Each repetition runs every variant on a fresh database file, rotating which goes
first so drift (other processes, page cache, CPU frequency) hits all alike. A run's
time ends after the WAL is folded into the file (``PRAGMA wal_checkpoint``), so a
variant that checkpoints less often pays for its checkpoint inside the window. It
prints each variant's minimum and median wall time and CPU time (the process's,
which other processes on the machine disturb less), the overhead ratios against its
node-log-less twin (``plain`` or ``plain, checkpoint 1000``: of the medians, of the
minimums, and the median of the per-repetition ratios, wall and CPU), whether the goal
is met, and the time spent inside the node log's two writes per call (measured around
``_start`` and ``_finish``; the measuring costs well under a microsecond per call).

Usage::

    python benchmarks/bench_nodelog.py [--steps 1000] [--repeats 11] [--no-reference] [--dir DIR] [--only VARIANT]...

The goal is an overhead ratio of at most 1.10 (of the medians). Timings are printed, never asserted.

Why each call costs two commits: the ``running`` row must be committed before
the node body runs (a node killed half-way, a long model call the likely victim,
must show as stopped), and the end before LangGraph saves the node's writes (a
process killed after a node finished must show it finished). LangGraph commits
nothing between choosing a task and running it, nor between the node's return
and its writes, so neither write can share a commit. What a commit costs is set by
the pages it writes to the WAL (each a 4 KiB frame, two ``pwrite`` calls) beside a
fixed part (the WAL's shared-memory locks, the statement): the insert writes two
(the table's and its index's; three with ``AUTOINCREMENT``), the update one. And
every WAL page is written once more, with two ``fdatasync`` calls, by the checkpoint
that the commit crossing the checkpoint size runs: with SQLite's default size the
node log's pages brought one checkpoint every ~100 steps instead of ~175.
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
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypedDict

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from langgraph.graph import END, START, StateGraph  # noqa: E402

from agents import nodelog  # noqa: E402
from agents.db import SqliteStore, Store, insert_sql  # noqa: E402
from agents.schema import LEASES_TABLE, META_TABLE, NODE_LOG_TABLE, TableSchema  # noqa: E402

GOAL_RATIO = 1.10
PLAIN, LOGGED, PLAIN_1000 = "plain", "node log", "plain, checkpoint 1000"
ONE_COMMIT, BARE_COMMIT = "one commit per call", "one bare commit per call"


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


def build_loop_graph(store: Store, *, logged: bool, log_store: Store | None = None) -> Any:
    """The loop graph on the store's checkpointer, with or without the node log (in ``log_store``)."""
    builder = StateGraph(LoopState)
    builder.add_node("tick", nodelog.logged_node(log_store or store, "bench", tick) if logged else tick)
    builder.add_edge(START, "tick")
    builder.add_conditional_edges("tick", again, ["tick", END])
    return builder.compile(checkpointer=store.saver)


#: The first release's node log: ids from ``AUTOINCREMENT``.
FIRST_RELEASE_NODE_LOG = TableSchema(
    "node_log",
    NODE_LOG_TABLE.ddl.replace("{id_column}", "INTEGER PRIMARY KEY AUTOINCREMENT"),
    NODE_LOG_TABLE.migrated_columns,
)
#: SQLite's default checkpoint size, the shipped store's before ``WAL_AUTOCHECKPOINT_PAGES``.
DEFAULT_CHECKPOINT = ("PRAGMA wal_autocheckpoint=1000",)


@dataclass(frozen=True)
class Variant:
    """One way of running the loop: the node log or not, its table, the connection's settings."""

    name: str
    logged: bool
    baseline: str = PLAIN  # the node-log-less variant its ratios are taken against
    node_log: TableSchema = NODE_LOG_TABLE
    pragmas: tuple[str, ...] = ()
    writes: str = "shipped"  # or "own connection", "begin commit", "one commit", "bare commit"


VARIANTS = (
    Variant(PLAIN, logged=False, baseline=""),
    Variant(LOGGED, logged=True),
    Variant("AUTOINCREMENT ids", logged=True, node_log=FIRST_RELEASE_NODE_LOG),
    Variant("own connection", logged=True, writes="own connection"),
    Variant("BEGIN/COMMIT writes", logged=True, writes="begin commit"),
    Variant(PLAIN_1000, logged=False, baseline="", pragmas=DEFAULT_CHECKPOINT),
    Variant(
        "node log, previous",
        logged=True,
        baseline=PLAIN_1000,
        node_log=FIRST_RELEASE_NODE_LOG,
        pragmas=DEFAULT_CHECKPOINT,
        writes="begin commit",
    ),
)
REFERENCES = (
    Variant(ONE_COMMIT, logged=True, writes="one commit"),
    Variant(BARE_COMMIT, logged=True, writes="bare commit"),
)
#: The one-row table the bare commit rewrites, and its statement.
BARE_TABLE = "CREATE TABLE bench_marker (n INTEGER NOT NULL); INSERT INTO bench_marker VALUES (0);"
BARE_SQL = "UPDATE bench_marker SET n = n + 1"


def _begin_commit(store: Any, sql: str, params: Any) -> Any:
    """One statement in the driver's implicit transaction, then ``commit()``: the previous path."""
    with store.lock:
        try:
            cursor = store.conn.execute(sql, params)
            store.conn.commit()
        except BaseException:
            store.conn.rollback()
            raise
    return cursor


def _begin_commit_start(store: Any, agent: str, node: str, label: str, config: Any) -> nodelog.RowId:
    thread_id, run_id, task_id, step = nodelog._call_identity(config)
    started_at = time.time()
    values = (agent, thread_id, run_id, node, task_id, step, label, started_at, "running")
    row_id = nodelog.RowId(_begin_commit(store, insert_sql("node_log", nodelog._START_COLUMNS), values).lastrowid)
    row_id.started_at = started_at
    return row_id


def _begin_commit_finish(store: Any, row_id: nodelog.RowId, status: str, error: str = "") -> None:
    _begin_commit(store, nodelog._FINISH_SQL, (time.time(), status, error[:2000], int(row_id), row_id.started_at))


class _OneCommit:
    """The reference: a call's end waits for the next call's start and shares its commit."""

    def __init__(self) -> None:
        self.pending: tuple[Any, ...] | None = None

    def start(self, store: Any, agent: str, node: str, label: str, config: Any) -> nodelog.RowId:
        thread_id, run_id, task_id, step = nodelog._call_identity(config)
        started_at = time.time()
        with store.lock:
            if self.pending is not None:
                store.conn.execute(nodelog._FINISH_SQL, self.pending)
                self.pending = None
            values = (agent, thread_id, run_id, node, task_id, step, label, started_at, "running")
            row_id = nodelog.RowId(store.conn.execute(insert_sql("node_log", nodelog._START_COLUMNS), values).lastrowid)
            store.conn.commit()
        row_id.started_at = started_at
        return row_id

    def finish(self, store: Any, row_id: nodelog.RowId, status: str, error: str = "") -> None:
        self.pending = (time.time(), status, error[:2000], int(row_id), row_id.started_at)

    def flush(self, store: Store) -> None:
        if self.pending is not None:
            store.execute_one(nodelog._FINISH_SQL, self.pending)


def _bare_start(store: Any, agent: str, node: str, label: str, config: Any) -> nodelog.RowId:
    """The floor: one committed one-page write before the body, and no row."""
    store.execute_one(BARE_SQL, ())
    return nodelog.RowId(0)


def _bare_finish(store: Any, row_id: nodelog.RowId, status: str, error: str = "") -> None:
    """Nothing: the floor's end is written by no one."""


@contextmanager
def node_log_writes(variant: Variant, store: Store, spent: list[float]) -> Iterator[Callable[[], None]]:
    """Puts the variant's two writes in place, timed into ``spent``; yields what ends the run."""
    writes: tuple[Callable[..., Any], Callable[..., None]] = (nodelog._start, nodelog._finish)
    flush: Callable[[], None] = lambda: None  # noqa: E731
    if variant.writes == "begin commit":
        writes = (_begin_commit_start, _begin_commit_finish)
    elif variant.writes == "bare commit":
        writes = (_bare_start, _bare_finish)
    elif variant.writes == "one commit":
        reference = _OneCommit()
        writes, flush = (reference.start, reference.finish), lambda: reference.flush(store)
    start, finish = writes

    def timed_start(*args: Any) -> Any:
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


@dataclass
class Figures:
    """One variant's runs: wall and CPU seconds, and node-log seconds per call."""

    wall: list[float]
    cpu: list[float]
    writes: list[float]


def run_once(directory: Path, steps: int, variant: Variant) -> tuple[float, float, float]:
    """Runs the loop on a fresh database file; returns wall and CPU seconds and node-log seconds per call."""
    path = directory / f"bench-{uuid.uuid4().hex}.sqlite"
    store = SqliteStore(path, tables=(META_TABLE, variant.node_log, LEASES_TABLE))
    log_store = SqliteStore(path, tables=store.tables) if variant.writes == "own connection" else None
    spent: list[float] = []
    try:
        if variant.writes == "bare commit":
            store.conn.executescript(BARE_TABLE)
        for pragma in variant.pragmas:
            for opened in (store, log_store):
                if opened is not None:
                    opened.conn.execute(pragma)
        graph = build_loop_graph(store, logged=variant.logged, log_store=log_store)
        config = {
            "configurable": {"thread_id": "bench"},
            "metadata": {"agent": "bench", "run_id": uuid.uuid4().hex[:12]},
            "recursion_limit": steps + 10,
        }
        with node_log_writes(variant, store, spent) as flush:
            started, cpu_started = time.perf_counter(), time.process_time()
            for _ in graph.stream({"count": 0, "limit": steps}, config, stream_mode="tasks", durability="sync"):
                pass
            flush()
            with store.lock:  # the run's WAL folded into the file, inside the window
                store.conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started
        if variant.writes == "bare commit":
            with store.read() as cursor:
                cursor.execute("SELECT n FROM bench_marker")
                if cursor.fetchone()[0] != steps:
                    raise RuntimeError(f"{variant}: expected {steps} bare commits")
        elif variant.logged:
            with store.read() as cursor:
                cursor.execute("SELECT COUNT(*), SUM(status = 'ok') FROM node_log")
                logged_rows, ok_rows = cursor.fetchone()
            if logged_rows != steps or ok_rows != steps:
                raise RuntimeError(f"{variant}: expected {steps} ok node-log rows, found {logged_rows} ({ok_rows} ok)")
        return elapsed, cpu, sum(spent) / steps
    finally:
        if log_store is not None:
            log_store.close()
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
        help=f"also run the references {ONE_COMMIT!r} and {BARE_COMMIT!r} (default: yes)",
    )
    parser.add_argument("--dir", help="where to put the database files (default: a temp dir)")
    parser.add_argument(
        "--only", action="append", metavar="VARIANT", help="run only these variants (and their baselines); repeatable"
    )
    args = parser.parse_args(argv)
    variants = [*VARIANTS, *(REFERENCES if args.reference else ())]
    if args.only:
        wanted = set(args.only) | {v.baseline for v in variants if v.name in args.only and v.baseline}
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
    print(f"  overhead ratio against the same store without the node log (goal <= {GOAL_RATIO:.2f} of the medians):")
    for variant in variants:
        if not variant.baseline:
            continue
        baseline = figures[variant.baseline]
        of_medians, of_minimums, paired, paired_cpu, cpu_minimums = _ratios(figures[variant.name], baseline)
        verdict = "met" if of_medians <= GOAL_RATIO else "NOT met"
        share = statistics.median(figures[variant.name].writes) * args.steps / statistics.median(baseline.wall)
        print(
            f"    {variant.name:<22} against {variant.baseline!r}: {of_medians:.3f} of medians ({verdict}),"
            f" {of_minimums:.3f} of minimums, {paired:.3f} median of paired runs;"
            f" CPU {paired_cpu:.3f} paired, {cpu_minimums:.3f} of minimums;"
            f" its writes alone: +{share:.3f}"
        )
    if BARE_COMMIT in figures:
        floor = statistics.median(figures[BARE_COMMIT].wall) / statistics.median(figures[PLAIN].wall)
        reachable = floor <= GOAL_RATIO
        print(
            f"  the floor of any design with the running row durable before the body (one bare commit per call):"
            f" {floor:.3f} of medians, so such a design "
            + ("can meet the goal here" if reachable else f"cannot meet {GOAL_RATIO:.2f} on this machine")
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
