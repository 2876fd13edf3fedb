"""Benchmark: database → checkpoint-graph figure for a thread of 10,000 checkpoints.

Builds, in a temp database, one thread of about 10,000 checkpoints with a few
branches (a tiny looping graph run with a high recursion limit, then
``update_state`` forks on older checkpoints that run a few steps each, and a
``__copy__`` fork). Building is not measured. Then, in one run, it times end
to end, from the database to a Plotly figure:

(a) ours: ``readmodel.checkpoint_chain`` (plain SQL) + ``checkpoint_figure``;
(b) the straightforward path: ``graph.get_state_history()`` (decodes every
    checkpoint and its writes) turned into the same points + ``checkpoint_figure``;
(c) the floor: the bare SQL statements that (a) issues, rows fetched, nothing else.

It prints the best time of each path, the ratios b/a (goal ≥ 5) and a/c
(goal ≤ 2), and the peak memory of path (a) measured with tracemalloc in a
separate, untimed run.

Usage::

    python benchmarks/bench_checkpoint_graph.py [--checkpoints 10000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import gc
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
    main_ticks = checkpoints - 2 - FORKS * (FORK_STEPS + 1) - 1
    graph.invoke({"count": 0, "limit": main_ticks}, config)
    history = list(store.saver.list({"configurable": {"thread_id": THREAD, "checkpoint_ns": ""}}))
    main = history[::-1]
    for n in range(FORKS):
        old = main[(n + 1) * len(main) // (FORKS + 2)]
        count = old.checkpoint["channel_values"]["count"]
        fork_config = graph.update_state(old.config, {"limit": count + FORK_STEPS}, as_node="tick")
        graph.invoke(None, fork_config)
    graph.update_state(main[len(main) // 2].config, None, as_node="__copy__")
    return graph


def path_ours(store: Store, graph: Any) -> Any:
    return checkpoint_figure(readmodel.checkpoint_chain(store, THREAD))


def path_history(store: Store, graph: Any) -> Any:
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
    return checkpoint_figure(points)


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


def best_time(path: Callable[[Store, Any], Any], store: Store, graph: Any, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        gc.collect()  # start each run clean; the collector stays on while it runs
        started = time.perf_counter()
        path(store, graph)
        times.append(time.perf_counter() - started)
    return min(times)


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
        history_figure = path_history(store, graph)
        assert sum(len(t.x) for t in figure.data) == sum(len(t.x) for t in history_figure.data)
        floor_rows = path_sql_floor(store, graph)
        timings = {
            "a ours (SQL chain + figure)": best_time(path_ours, store, graph, args.repeat),
            "b get_state_history + figure": best_time(path_history, store, graph, max(2, args.repeat // 2)),
            "c bare SQL read (floor)": best_time(path_sql_floor, store, graph, args.repeat),
        }
        for name, seconds in timings.items():
            print(f"{name:<32} {seconds * 1000:9.1f} ms")
        a, b, c = timings.values()
        print(f"b/a = {b / a:6.1f}   (goal >= 5)  {'met' if b / a >= 5 else 'MISSED'}")
        print(f"a/c = {a / c:6.1f}   (goal <= 2)  {'met' if a / c <= 2 else 'MISSED'}")
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
