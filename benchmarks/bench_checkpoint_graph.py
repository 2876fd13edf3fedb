"""Benchmark: database → checkpoint-graph figure for a thread of 10,000 checkpoints.

Builds, in a temp database, one thread of about 10,000 checkpoints with a few
branches (a tiny looping graph run with a high recursion limit, then
``update_state`` forks on older checkpoints that run a few steps each, a
``__copy__`` fork, and an ``update_state`` at the head). Building is not measured. Then, in one run, it times end
to end, from the database to a Plotly figure:

(a) ours: ``readmodel.checkpoint_chain`` (plain SQL) + ``checkpoint_figure``;
(b) the straightforward path: ``graph.get_state_history()`` (decodes every
    checkpoint and its writes) turned into the same points + ``checkpoint_figure``;
(c) the floor: the bare SQL statements that (a) issues, rows fetched, nothing else.

The three paths run interleaved (a, b, c, a, b, c, ...) with equal repeats, and
the same points are checked field by field (checkpoint id, parent, step, source,
writers, next, head, waiting) between (a) and (b) first: any checkpoint on which
they disagree is counted and shown, not hidden. It prints the min and median of
each path, the ratios b/a (goal ≥ 5) and a/c (goal ≤ 2) of the medians, and the
peak memory of path (a) measured with tracemalloc in a separate, untimed run.

Usage::

    python benchmarks/bench_checkpoint_graph.py [--checkpoints 10000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypedDict

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from langgraph.graph import END, START, StateGraph  # noqa: E402

from agents import readmodel  # noqa: E402
from agents.chain_layout import chain_to_json, layout_chain  # noqa: E402
from agents.db import Store  # noqa: E402
from agents.runtime import open_store  # noqa: E402
from dashboard.checkpoint_figure import checkpoint_figure  # noqa: E402

THREAD = "bench"
FORKS = 4
FORK_STEPS = 3


class LoopState(TypedDict):
    count: int
    limit: int


def tick(state: LoopState) -> dict[str, int]:
    return {"count": state["count"] + 1}


def _again(state: LoopState) -> str:
    return "tick" if state["count"] < state["limit"] else END


def build_loop_graph(checkpointer: Any) -> Any:
    """One node that loops on itself until ``count`` reaches ``limit``: one checkpoint per step."""
    builder = StateGraph(LoopState)
    builder.add_node("tick", tick)
    builder.add_edge(START, "tick")
    builder.add_conditional_edges("tick", _again, ["tick", END])
    return builder.compile(checkpointer=checkpointer)


def build_thread(store: Store, checkpoints: int) -> Any:
    """Writes the benchmark thread; returns the compiled graph."""
    graph = build_loop_graph(store.saver)
    config = {"configurable": {"thread_id": THREAD}, "recursion_limit": checkpoints + 100}
    # input + one checkpoint per tick; forks add FORK_STEPS + 1 each, the copy one.
    main_ticks = checkpoints - 2 - FORKS * (FORK_STEPS + 1) - 2
    graph.invoke({"count": 0, "limit": main_ticks}, config)
    history = list(store.saver.list({"configurable": {"thread_id": THREAD, "checkpoint_ns": ""}}))
    main = history[::-1]
    for n in range(FORKS):
        old = main[(n + 1) * len(main) // (FORKS + 2)]
        count = old.checkpoint["channel_values"]["count"]
        fork_config = graph.update_state(old.config, {"limit": count + FORK_STEPS}, as_node="tick")
        graph.invoke(None, fork_config)
    graph.update_state(main[len(main) // 2].config, None, as_node="__copy__")
    # An update_state at the head, as a human's edit leaves a thread (the refund agent's edits).
    head = graph.get_state({"configurable": {"thread_id": THREAD}})
    graph.update_state(head.config, {"limit": 0})
    return graph


def path_ours(store: Store, graph: Any) -> Any:
    return checkpoint_figure(readmodel.checkpoint_chain(store, THREAD))


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
                is_waiting=any(t.interrupts and t.result is None for t in snapshot.tasks),
            )
        )
    return points


def path_history(store: Store, graph: Any) -> Any:
    return checkpoint_figure(history_points(graph))


def disagreements(store: Store, graph: Any) -> dict[str, list[str]]:
    """Field → checkpoint ids on which (a)'s chain and ``get_state_history`` differ."""
    ours = {point.checkpoint_id: point for point in readmodel.checkpoint_chain(store, THREAD)}
    theirs = {point.checkpoint_id: point for point in history_points(graph)}
    found: dict[str, list[str]] = {}
    if set(ours) != set(theirs):
        found["checkpoint_id"] = sorted(set(ours) ^ set(theirs))
    for checkpoint_id in sorted(set(ours) & set(theirs)):
        for name in ("parent_checkpoint_id", "step", "source", "writers", "next", "is_head", "is_waiting"):
            if getattr(ours[checkpoint_id], name) != getattr(theirs[checkpoint_id], name):
                found.setdefault(name, []).append(checkpoint_id)
    return found


def path_sql_floor(store: Store, graph: Any) -> Any:
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


def _timed(path: Callable[[Store, Any], Any], store: Store, graph: Any) -> float:
    gc.collect()  # start each run clean; the collector stays on while it runs
    started = time.perf_counter()
    path(store, graph)
    return time.perf_counter() - started


def interleaved_times(
    paths: dict[str, Callable[[Store, Any], Any]], store: Store, graph: Any, repeat: int
) -> dict[str, list[float]]:
    """Each path ``repeat`` times, round-robin, so drift of the machine hits all of them alike."""
    times: dict[str, list[float]] = {name: [] for name in paths}
    for _ in range(repeat):
        for name, path in paths.items():
            times[name].append(_timed(path, store, graph))
    return times


def best_time(path: Callable[[Store, Any], Any], store: Store, graph: Any, repeat: int) -> float:
    return min(_timed(path, store, graph) for _ in range(repeat))


def peak_memory(path: Callable[[Store, Any], Any], store: Store, graph: Any) -> int:
    tracemalloc.start()
    try:
        path(store, graph)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkpoints", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(Path(folder) / "bench.sqlite")
        started = time.perf_counter()
        graph = build_thread(store, args.checkpoints)
        chain = readmodel.checkpoint_chain(store, THREAD)
        lanes = 1 + max(p["lane"] for p in chain_to_json(chain))
        print(
            f"thread: {len(chain)} checkpoints, {lanes} lanes "
            f"(built in {time.perf_counter() - started:.1f} s, not measured)"
        )
        figure = path_ours(store, graph)
        assert type(figure.data[0]).__name__ == "Scattergl"
        differ = disagreements(store, graph)
        print(
            "(a) and get_state_history agree on every field of every checkpoint"
            if not differ
            else "(a) and get_state_history DISAGREE: "
            + ", ".join(f"{name} on {len(ids)} (e.g. {ids[0]})" for name, ids in differ.items())
        )
        floor_rows = path_sql_floor(store, graph)
        times = interleaved_times(
            {
                "a ours (SQL chain + figure)": path_ours,
                "b get_state_history + figure": path_history,
                "c bare SQL read (floor)": path_sql_floor,
            },
            store,
            graph,
            args.repeat,
        )
        medians = {}
        for name, runs in times.items():
            medians[name] = statistics.median(runs)
            print(f"{name:<32} min {min(runs) * 1000:9.1f} ms   median {medians[name] * 1000:9.1f} ms")
        a, b, c = medians.values()
        print(f"b/a = {b / a:6.1f} of medians  (goal >= 5)  {'met' if b / a >= 5 else 'MISSED'}")
        print(f"a/c = {a / c:6.1f} of medians  (goal <= 2)  {'met' if a / c <= 2 else 'MISSED'}")
        split = {
            "chain (SQL + Python)": best_time(
                lambda s, g: readmodel.checkpoint_chain(s, THREAD), store, graph, args.repeat
            ),
            "figure (incl. layout)": best_time(lambda s, g: checkpoint_figure(chain), store, graph, args.repeat),
            "layout only": best_time(lambda s, g: layout_chain(chain), store, graph, args.repeat),
        }
        print("where (a) spends its time: " + ", ".join(f"{k} {v * 1000:.1f} ms" for k, v in split.items()))
        print(f"peak memory of (a): {peak_memory(path_ours, store, graph) / 2**20:.1f} MiB (tracemalloc)")
        print(f"rows read by (c): {len(floor_rows[0])} checkpoints, {len(floor_rows[1])} writes")
        store.close()


if __name__ == "__main__":
    main()
