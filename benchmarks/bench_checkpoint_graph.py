"""Benchmark: database → checkpoint-graph figure for a thread of 10,000 checkpoints.

Builds (not measured) one thread of about 10,000 checkpoints with a few
branches (a tiny looping graph run with a high recursion limit, then
``update_state`` forks on older checkpoints that run a few steps each, a
``__copy__`` fork, and an ``update_state`` at the head), in two databases:

bare       the thread alone in its file, its node not logged (no node-log rows);
realistic  the thread as a real run leaves it: its node logged by
           ``agents.nodelog.logged_node`` (one node-log row per call, with its
           task id), its checkpoints tagged with an agent and run id like every
           agent's, and 1,000 other threads in the same file, written by the real
           agents through ``agents.runs`` (robots paused and answered yes or no,
           refunds settled on their own, waiting, decided and edited by
           ``update_state``, lecture plans waiting for a human), half of them
           before the big thread and half after.

Then, per database, it times end to end, from the database to a Plotly figure:

(a)  ours: ``readmodel.checkpoint_chain`` (plain SQL) + ``checkpoint_figure``;
(a0) the same at ``--base`` (default: the commit this speed work started from):
     its ``agents/readsql.py``, ``agents/readmodel.py``, ``agents/chain_layout.py``
     and ``dashboard/checkpoint_figure.py``, read with ``git show`` and loaded as
     separate modules (``--base ''`` leaves it out);
(b)  the straightforward path: ``graph.get_state_history()`` (decodes every
     checkpoint and its writes) turned into the same points + ``checkpoint_figure``;
(w)  the explorer's default: the window around the head (``readmodel.chain_links``,
     ``chain_layout.link_tree`` and ``window_rows``, ``readmodel.chain_points`` of the
     window, ``window_columns`` + ``columns_figure``); the JSON the page hands the
     browser, of (w) and of (a)'s figure, is timed apart, in "where (a) spends its time";
(c)  the floor: the bare SQL that reads what the figure shows, rows fetched,
     nothing else: the thread's checkpoints (id, parent, step and source out of
     the metadata) and its writes (checkpoint, task, task path, channel). The
     node-log names are not in it, so (a) pays for reading them on its own.

The paths run interleaved (a, a0, b, c, a, a0, ...) with equal repeats. Before
timing, the points of (a) and (b) are compared field by field (checkpoint id,
parent, step, source, writers, next, head, waiting): any checkpoint on which
they disagree is counted and shown, not hidden; (a0) is compared to (a) the same
way. It prints the min and median of each path, the ratios b/a (goal ≥ 5), a/c
(goal ≤ 2), w/a and a0/a of the medians, where (a) spends its time, and the peak
memory of (a) measured with tracemalloc in a separate, untimed run.

Usage::

    python benchmarks/bench_checkpoint_graph.py [--checkpoints 10000] [--others 1000] [--repeat 5]
        [--base COMMIT] [--only bare|realistic]
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypedDict

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HITL_MODEL_LATENCY", "0")  # the embedded model answers at once

from langgraph.graph import END, START, StateGraph  # noqa: E402

from agents import readmodel, runs  # noqa: E402
from agents.chain_layout import (  # noqa: E402
    chain_to_json,
    layout_chain,
    link_tree,
    window_columns,
    window_rows,
)
from agents.db import Store  # noqa: E402
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT  # noqa: E402
from agents.nodelog import logged_node  # noqa: E402
from agents.runtime import load_settings, open_store  # noqa: E402
from benchmarks._base import BaseStore, load_chain_modules  # noqa: E402
from dashboard.checkpoint_figure import VIEW_STEPS, checkpoint_figure, columns_figure  # noqa: E402

THREAD = "bench"
FORKS = 4
FORK_STEPS = 3
BASE = "2023771"
FIELDS = ("parent_checkpoint_id", "step", "source", "writers", "next", "is_head", "is_waiting")


class LoopState(TypedDict):
    count: int
    limit: int


def tick(state: LoopState) -> dict[str, int]:
    return {"count": state["count"] + 1}


def _again(state: LoopState) -> str:
    return "tick" if state["count"] < state["limit"] else END


def build_loop_graph(checkpointer: Any, store: Store | None = None) -> Any:
    """One node that loops on itself until ``count`` reaches ``limit``: one checkpoint per step.

    With ``store``, the node is logged in its node log, as every agent's node is.
    """
    builder = StateGraph(LoopState)
    builder.add_node("tick", logged_node(store, "robot", tick) if store is not None else tick)
    builder.add_edge(START, "tick")
    builder.add_conditional_edges("tick", _again, ["tick", END])
    return builder.compile(checkpointer=checkpointer)


def build_thread(store: Store, checkpoints: int, *, logged: bool = False) -> Any:
    """Writes the benchmark thread; returns the compiled graph."""
    graph = build_loop_graph(store.saver, store if logged else None)
    config: dict[str, Any] = {"configurable": {"thread_id": THREAD}, "recursion_limit": checkpoints + 100}
    if logged:
        config["metadata"] = {"agent": "robot", "run_id": "bench-run"}
    # input + one checkpoint per tick; forks add FORK_STEPS + 1 each, the copy one.
    main_ticks = checkpoints - 2 - FORKS * (FORK_STEPS + 1) - 2
    graph.invoke({"count": 0, "limit": main_ticks}, config)
    history = list(store.saver.list({"configurable": {"thread_id": THREAD, "checkpoint_ns": ""}}))
    main = history[::-1]
    for n in range(FORKS):
        old = main[(n + 1) * len(main) // (FORKS + 2)]
        count = old.checkpoint["channel_values"]["count"]
        fork_config = graph.update_state(old.config, {"limit": count + FORK_STEPS}, as_node="tick")
        graph.invoke(None, {**fork_config, "metadata": config.get("metadata", {})})
    graph.update_state(main[len(main) // 2].config, None, as_node="__copy__")
    # An update_state at the head, as a human's edit leaves a thread (the refund agent's edits).
    head = graph.get_state({"configurable": {"thread_id": THREAD}})
    graph.update_state(head.config, {"limit": 0})
    return graph


def build_other_thread(store: Store, settings: Any, n: int) -> None:
    """Thread ``n`` of the others, as the real agents write it: 2 in 5 robots, 2 in 5 refunds, 1 in 5 lectures."""
    kind, variant = n % 5, (n // 5) % 4
    if kind in (0, 1):
        thread = f"robot-{n}"
        runs.start_run(store, settings, "robot", {}, thread_id=thread)
        if variant:
            runs.resume_thread(store, settings, thread, "yes" if variant != 3 else "no")
    elif kind in (2, 3):
        amount = 30_000 if variant == 0 else 500_000  # small amounts settle without a human
        case = {"case_id": f"B{n}", "customer": "홍길동", "amount": amount, "reason": "파손"}
        runs.start_run(store, settings, "refund", case)
        if variant == 2:
            runs.resume_from_fields(store, settings, f"refund-B{n}", {"action": "approve", "approver": "kim"})
        elif variant == 3:
            runs.update_thread(store, settings, f"refund-B{n}", {"amount": 50_000})
    else:
        runs.start_run(store, settings, "lecture", dict(DEFAULT_LECTURE_INPUT), thread_id=f"lecture-{n}")


def build_realistic(location: Path, checkpoints: int, others: int) -> tuple[Store, Any]:
    store = open_store(location)
    settings = load_settings(db_override=str(location), secrets={})
    for n in range(others // 2):
        build_other_thread(store, settings, n)
    graph = build_thread(store, checkpoints, logged=True)
    for n in range(others // 2, others):
        build_other_thread(store, settings, n)
    return store, graph


def history_points(graph: Any) -> list[readmodel.ChainCheckpoint]:
    """The chain as LangGraph's ``get_state_history`` sees it (newest first, as it returns them)."""
    points = []
    for index, snapshot in enumerate(graph.get_state_history({"configurable": {"thread_id": THREAD}})):
        parent = (snapshot.parent_config or {}).get("configurable", {}).get("checkpoint_id")
        points.append(
            readmodel.ChainCheckpoint(
                checkpoint_id=snapshot.config["configurable"]["checkpoint_id"],
                parent_checkpoint_id=parent,
                step=snapshot.metadata.get("step", -1),
                source=snapshot.metadata.get("source", "unknown"),
                writers=tuple(dict.fromkeys(t.name for t in snapshot.tasks if t.result is not None)),
                next=tuple(snapshot.next),
                is_head=index == 0,
                # Only the head waits for a human: an older interrupt was answered (or left) on the way.
                is_waiting=index == 0 and any(t.interrupts and t.result is None for t in snapshot.tasks),
            )
        )
    return points


def disagreements(ours: list[Any], theirs: list[Any]) -> dict[str, list[str]]:
    """Field → checkpoint ids on which two chains differ."""
    mine = {point.checkpoint_id: point for point in ours}
    other = {point.checkpoint_id: point for point in theirs}
    found: dict[str, list[str]] = {}
    if set(mine) != set(other):
        found["checkpoint_id"] = sorted(set(mine) ^ set(other))
    for checkpoint_id in sorted(set(mine) & set(other)):
        for name in FIELDS:
            if getattr(mine[checkpoint_id], name) != getattr(other[checkpoint_id], name):
                found.setdefault(name, []).append(checkpoint_id)
    return found


def _agreement(label: str, found: dict[str, list[str]]) -> str:
    if not found:
        return f"{label} agree on every field of every checkpoint"
    return f"{label} DISAGREE: " + ", ".join(f"{name} on {len(ids)} (e.g. {ids[0]})" for name, ids in found.items())


def sql_floor(store: Store) -> Any:
    with store.read() as cursor:
        cursor.execute(
            "SELECT checkpoint_id, parent_checkpoint_id,"
            " json_extract(CAST(metadata AS TEXT), '$.step'),"
            " json_extract(CAST(metadata AS TEXT), '$.source')"
            " FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = '' ORDER BY checkpoint_id",
            (THREAD,),
        )
        checkpoints = cursor.fetchall()
        cursor.execute(
            "SELECT checkpoint_id, task_id, task_path, channel FROM writes WHERE thread_id = ? AND checkpoint_ns = ''",
            (THREAD,),
        )
        writes = cursor.fetchall()
    return checkpoints, writes


def _timed(path: Callable[[], Any]) -> float:
    gc.collect()  # start each run clean; the collector stays on while it runs
    started = time.perf_counter()
    path()
    return time.perf_counter() - started


def interleaved_times(paths: dict[str, Callable[[], Any]], repeat: int) -> dict[str, list[float]]:
    """Each path ``repeat`` times, round-robin, so drift of the machine hits all of them alike."""
    times: dict[str, list[float]] = {name: [] for name in paths}
    for _ in range(repeat):
        for name, path in paths.items():
            times[name].append(_timed(path))
    return times


def best_time(path: Callable[[], Any], repeat: int) -> float:
    return min(_timed(path) for _ in range(repeat))


def peak_memory(path: Callable[[], Any]) -> int:
    tracemalloc.start()
    try:
        path()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _verdict(met: bool) -> str:
    return "met" if met else "MISSED"


def measure(name: str, store: Store, graph: Any, base: tuple[Any, Any, Any] | None, repeat: int) -> None:
    """Checks and times the paths on one database and prints the figures."""
    chain = readmodel.checkpoint_chain(store, THREAD)
    lanes = 1 + max(p["lane"] for p in chain_to_json(chain))
    with store.read() as cursor:
        cursor.execute("SELECT COUNT(DISTINCT thread_id), COUNT(*) FROM checkpoints")
        threads, rows = cursor.fetchone()
        cursor.execute("SELECT COUNT(*), SUM(thread_id = ?) FROM node_log", (THREAD,))
        logged, logged_here = cursor.fetchone()
    print(f"\n== {name}: {len(chain)} checkpoints, {lanes} lanes; the file: {threads} threads, {rows} checkpoints,")
    print(f"   {logged} node-log rows ({logged_here or 0} of the thread)")
    expected = "Scattergl" if len(chain) > 2000 else "Scatter"  # WebGL above the figure's threshold
    assert type(checkpoint_figure(chain).data[0]).__name__ == expected
    print(_agreement("(a) and get_state_history", disagreements(chain, history_points(graph))))
    paths: dict[str, Callable[[], Any]] = {"a ours (SQL chain + figure)": lambda: _ours(store)}
    if base is not None:
        base_readmodel, base_sql, base_figure = base
        old = BaseStore(store, base_sql.SqliteQueries())
        print(_agreement("(a0) and (a)", disagreements(base_readmodel.checkpoint_chain(old, THREAD), chain)))
        draw_before = base_figure.checkpoint_figure
        paths["a0 the same at --base"] = lambda: draw_before(base_readmodel.checkpoint_chain(old, THREAD))
    paths["w the window at the head"] = lambda: _window(store)
    paths["b get_state_history + figure"] = lambda: checkpoint_figure(history_points(graph))
    paths["c bare SQL read (floor)"] = lambda: sql_floor(store)
    times = interleaved_times(paths, repeat)
    medians = {}
    for label, runs_ in times.items():
        medians[label[:2].strip()] = statistics.median(runs_)
        print(f"{label:<32} min {min(runs_) * 1000:9.1f} ms   median {medians[label[:2].strip()] * 1000:9.1f} ms")
    a, b, c = medians["a"], medians["b"], medians["c"]
    print(f"b/a = {b / a:6.1f} of medians  (goal >= 5)  {_verdict(b / a >= 5)}")
    print(f"a/c = {a / c:6.1f} of medians  (goal <= 2)  {_verdict(a / c <= 2)}")
    print(f"w/a = {medians['w'] / a:6.2f} of medians  (the window's share of the whole chain's path)")
    if "a0" in medians:
        print(f"a0/a = {medians['a0'] / a:5.1f} of medians  (the speed-up over --base)")
    split = {
        "chain (SQL + Python)": best_time(lambda: readmodel.checkpoint_chain(store, THREAD), repeat),
        "figure (incl. layout)": best_time(lambda: checkpoint_figure(chain), repeat),
        "layout only": best_time(lambda: layout_chain(chain), repeat),
        "figure JSON": best_time(lambda: checkpoint_figure(chain).to_json(), repeat),
        "window + its JSON": best_time(lambda: _window(store).to_json(), repeat),
    }
    print("where (a) spends its time: " + ", ".join(f"{k} {v * 1000:.1f} ms" for k, v in split.items()))
    print(f"peak memory of (a): {peak_memory(lambda: _ours(store)) / 2**20:.1f} MiB (tracemalloc)")
    floor_rows = sql_floor(store)
    print(f"rows read by (c): {len(floor_rows[0])} checkpoints, {len(floor_rows[1])} writes")


def _ours(store: Store) -> Any:
    return checkpoint_figure(readmodel.checkpoint_chain(store, THREAD))


def _window(store: Store) -> Any:
    """The explorer's figure of the window around the head, read as the page reads it."""
    links = readmodel.chain_links(store, THREAD)
    tree = link_tree(links)
    head = len(tree.points) - 1
    rows = window_rows(tree, head, keep=[head])
    ids = [tree.points[row].checkpoint_id for row in rows]
    parents = {ids[k] for k, row in enumerate(rows) if tree.children[row]}
    points = readmodel.chain_points(store, THREAD, ids, head_id=links[-1][0], parents=parents)
    return columns_figure(window_columns(tree, rows, points), selected_id=links[-1][0], view_steps=VIEW_STEPS)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkpoints", type=int, default=10_000)
    parser.add_argument("--others", type=int, default=1_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--base", default=BASE, help="commit of the before path (a0); '' leaves it out")
    parser.add_argument("--only", choices=("bare", "realistic"))
    args = parser.parse_args()
    base = load_chain_modules(args.base) if args.base else None
    with tempfile.TemporaryDirectory() as folder:
        if args.only != "realistic":
            started = time.perf_counter()
            store = open_store(Path(folder) / "bare.sqlite")
            graph = build_thread(store, args.checkpoints)
            print(f"bare database built in {time.perf_counter() - started:.1f} s (not measured)")
            measure("bare", store, graph, base, args.repeat)
            store.close()
        if args.only != "bare":
            started = time.perf_counter()
            store, graph = build_realistic(Path(folder) / "realistic.sqlite", args.checkpoints, args.others)
            print(f"\nrealistic database built in {time.perf_counter() - started:.1f} s (not measured)")
            measure("realistic", store, graph, base, args.repeat)
            store.close()


if __name__ == "__main__":
    main()
