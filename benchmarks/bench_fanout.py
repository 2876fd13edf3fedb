"""Parallel efficiency of the lecture planner's research fan-out (N = 4, 8, 16 tasks).

The real graph (``agents.lecture.graph.build_graph`` on our ``Store``: SQLite
checkpointer, node log, ``durability="sync"``) runs with the embedded model at
a fixed simulated latency per model call (default 0.5 s; the model's usual
±20% jitter is switched off so that a perfect overlap would read 1.0). The
plan is replaced by N subtopics the honest way: the run stops after ``plan``
(``interrupt_after``), ``update_state(..., as_node="plan")`` writes an
N-subtopic plan as if ``plan`` had produced it, and the run continues, so the
same conditional edge sends N ``research`` tasks. The run stops before
``write``. Subtopic titles are titles of the bundled corpus, so every task
really searches it.

For each N it prints, from the node log of the research superstep:

* efficiency = summed task time / wall time / N (``agents.timing.superstep_stats_of_calls``);
* wall efficiency = (N × latency) / wall time / N, i.e. latency / wall;
* the spread of the task start times.

It runs each N with the spec's ``max_concurrency`` and once, for comparison,
with LangGraph's default thread pool (``min(32, cores + 4)`` workers).

Usage::

    python benchmarks/bench_fanout.py [--latency 0.5] [--sizes 4 8 16] [--dir DIR]

Goal: efficiency ≥ 0.95 at N = 16. Printed, never asserted.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from langchain_core.messages import BaseMessage  # noqa: E402

from agents.db import Store  # noqa: E402
from agents.db_sqlite import SqliteStore  # noqa: E402
from agents.lecture.graph import build_graph  # noqa: E402
from agents.lecture.inputs import DEFAULT_LECTURE_INPUT  # noqa: E402
from agents.lecture.model import EmbeddedChatModel  # noqa: E402
from agents.lecture.research import DEFAULT_CORPUS_DIR, CorpusResearch, read_corpus  # noqa: E402
from agents.lecture.spec import SPEC  # noqa: E402
from agents.nodelog import node_runs  # noqa: E402
from agents.timing import node_calls, superstep_stats_of_calls  # noqa: E402

GOAL = 0.95


class FixedLatencyModel(EmbeddedChatModel):
    """The embedded model with exactly ``latency`` seconds per call (no jitter)."""

    def simulated_latency(self, messages: Sequence[BaseMessage]) -> float:
        return float(self.latency or 0.0)


def run_fan_out(store: Store, n: int, latency: float, max_concurrency: int | None) -> dict[str, Any]:
    """Runs one N-task research fan-out and returns its figures from the node log."""
    thread_id = f"bench-{n}-{max_concurrency or 'default'}"
    graph = build_graph(
        store.saver, store=store, model=FixedLatencyModel(latency=latency), research_source=CorpusResearch()
    )
    config: dict[str, Any] = {
        "configurable": {"thread_id": thread_id},
        "metadata": {"agent": "lecture", "run_id": thread_id},
    }
    if max_concurrency:
        config["max_concurrency"] = max_concurrency
    graph.invoke({"request": dict(DEFAULT_LECTURE_INPUT)}, config, interrupt_after=["plan"], durability="sync")
    titles = [doc["title"] for doc in read_corpus(DEFAULT_CORPUS_DIR)][:n]
    if len(titles) < n:
        raise SystemExit(f"the corpus has only {len(titles)} documents; N={n} needs more titles")
    subtopics = [{"id": f"s{i + 1}", "title": title, "description": ""} for i, title in enumerate(titles)]
    graph.update_state(config, {"subtopics": subtopics, "next_subtopic": n + 1}, as_node="plan")
    graph.invoke(None, config, interrupt_before=["write"], durability="sync")
    rows = [r for r in node_runs(store, thread_id=thread_id) if r["node"] == "research"]
    if len(rows) != n:
        raise SystemExit(f"expected {n} research calls, the node log has {len(rows)}")
    (stats,) = superstep_stats_of_calls(node_calls(rows))
    starts = [r["started_at"] for r in rows]
    return {
        "n": n,
        "efficiency": stats.efficiency,
        "wall": stats.wall_seconds,
        "wall_efficiency": latency / stats.wall_seconds,
        "start_spread_ms": (max(starts) - min(starts)) * 1000,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.5, help="seconds per model call (default 0.5)")
    parser.add_argument("--sizes", type=int, nargs="+", default=[4, 8, 16])
    parser.add_argument("--dir", help="folder for the benchmark database (default: a temp folder)")
    args = parser.parse_args(argv)
    folder = Path(args.dir or tempfile.mkdtemp(prefix="bench-fanout-"))
    store = SqliteStore(folder / "bench.sqlite")
    CorpusResearch().search("warm up", 1)  # the BM25 index is built once per process; not part of a fan-out
    print(
        f"latency {args.latency:g} s per model call (fixed), max_concurrency {SPEC.run.max_concurrency}, "
        f"database {store.path}"
    )
    print(f"{'pool':<22}{'N':>4}{'wall s':>9}{'N×lat s':>9}{'efficiency':>12}{'wall eff.':>11}{'start spread':>14}")
    results = []
    for n in args.sizes:
        for label, concurrency in (("spec max_concurrency", SPEC.run.max_concurrency), ("LangGraph default", None)):
            r = run_fan_out(store, n, args.latency, concurrency)
            results.append((label, r))
            print(
                f"{label:<22}{n:>4}{r['wall']:>9.3f}{n * args.latency:>9.2f}{r['efficiency']:>12.3f}"
                f"{r['wall_efficiency']:>11.3f}{r['start_spread_ms']:>11.1f} ms"
            )
    largest = max(args.sizes)
    best = next(r for label, r in results if label == "spec max_concurrency" and r["n"] == largest)
    verdict = "meets" if best["efficiency"] >= GOAL else "misses"
    print(f"N={largest}: efficiency {best['efficiency']:.3f} {verdict} the goal ≥ {GOAL}")
    store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
