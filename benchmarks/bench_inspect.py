"""Benchmark: ``inspect --json`` on a thread of N and of 10×N checkpoints, and the old path at N.

Builds, in a temp SQLite database, two robot-like threads (building is not
measured): a node, logged in the node log like every agent's node, that
proposes an action on each step and loops on itself, so every checkpoint has
writes and a node-log row; then an ``update_state`` fork on an older
checkpoint that runs a few steps, and a ``__copy__`` fork (childless leaves).

Then it measures, variants interleaved with equal repeats, the best time of

(a) ``python -m agents inspect <thread> --json`` run in-process through
    ``agents.cli.main`` with its output going to /dev/null, at N and at 10×N;
(b) the old path at N: the chain, then ``readmodel.checkpoint_detail`` per
    checkpoint, the whole document built in memory and printed at once.

(a) and (b) print the same bytes at N (checked before timing). It prints the
ratio time(10×N) / time(N) (goal ≤ 12: linear), (b)/(a) at N, and the peak
memory of (a) at both sizes with tracemalloc in separate, untimed runs (goal:
under 100 MB at 10,000 checkpoints), and the peak RSS of (a) at both sizes,
each run in a fresh process (interpreter and libraries included).

Usage::

    python benchmarks/bench_inspect.py [--checkpoints 1000] [--repeat 2]
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import io
import json
import os
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agents import readmodel  # noqa: E402
from agents.cli import main as cli_main  # noqa: E402
from agents.cli.core import inspect_checkpoint  # noqa: E402
from agents.runtime import open_store  # noqa: E402
from benchmarks._data import build_proposal_thread  # noqa: E402

MEMORY_GOAL_MB = 100
MEMORY_GOAL_AT = 10_000


def inspect_new(location: str, thread_id: str) -> None:
    """(a): the ``inspect --json`` command as a user runs it."""
    code = cli_main(["--db", location, "inspect", thread_id, "--json"])
    assert code == 0


def inspect_old(location: str, thread_id: str) -> None:
    """(b): the path before streaming, one ``checkpoint_detail`` per checkpoint, printed at once."""
    store = open_store(location)
    try:
        checkpoints = []
        for entry in readmodel.checkpoint_chain(store, thread_id):
            detail = readmodel.checkpoint_detail(store, thread_id, entry.checkpoint_id)
            assert detail is not None
            checkpoints.append(inspect_checkpoint(entry, detail))
        document = {
            "thread_id": thread_id,
            "counts": readmodel.table_counts(store, thread_id),
            "checkpoints": checkpoints,
        }
        print(json.dumps(readmodel.to_jsonable(document), ensure_ascii=False, indent=2))
    finally:
        store.close()


def captured(path: Callable[[str, str], None], location: str, thread_id: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        path(location, thread_id)
    return out.getvalue()


def timed(path: Callable[[str, str], None], location: str, thread_id: str) -> float:
    gc.collect()  # start each run clean; the collector stays on while it runs
    with open(os.devnull, "w", encoding="utf-8") as devnull, contextlib.redirect_stdout(devnull):
        started = time.perf_counter()
        path(location, thread_id)
        return time.perf_counter() - started


def peak_memory_mb(path: Callable[[str, str], None], location: str, thread_id: str) -> float:
    with open(os.devnull, "w", encoding="utf-8") as devnull, contextlib.redirect_stdout(devnull):
        tracemalloc.start()
        try:
            path(location, thread_id)
            return tracemalloc.get_traced_memory()[1] / 2**20
        finally:
            tracemalloc.stop()


#: Runs ``inspect --json`` in a fresh process and reports that process's own peak RSS (VmHWM). The
#: child's ``ru_maxrss`` would not do: Linux carries the forking parent's peak across the exec.
_RSS_PROBE = """
import contextlib, os, sys
from agents.cli import main
with open(os.devnull, "w") as devnull, contextlib.redirect_stdout(devnull):
    code = main(["--db", sys.argv[1], "inspect", sys.argv[2], "--json"])
peak = next(line.split()[1] for line in open("/proc/self/status") if line.startswith("VmHWM"))
print(code, peak)
"""


def subprocess_rss_mb(location: str, thread_id: str) -> float:
    """Peak RSS of ``inspect --json`` in its own process, interpreter and libraries included."""
    command = [sys.executable, "-c", _RSS_PROBE, location, thread_id]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True)
    code, kilobytes = done.stdout.split()
    assert code == "0", done.stderr
    return int(kilobytes) / 1024


def verdict(met: bool) -> str:
    return "met" if met else "MISSED"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkpoints", type=int, default=1_000, help="N (the large thread has 10×N)")
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    small, large = args.checkpoints, 10 * args.checkpoints
    with tempfile.TemporaryDirectory() as folder:
        location = str(Path(folder) / "bench.sqlite")
        store = open_store(location)
        started = time.perf_counter()
        build_proposal_thread(store, "bench-n", small)
        build_proposal_thread(store, "bench-10n", large)
        sizes = {t: readmodel.table_counts(store, t) for t in ("bench-n", "bench-10n")}
        store.close()
        print(
            f"threads: {sizes['bench-n']} and {sizes['bench-10n']}"
            f" (built in {time.perf_counter() - started:.1f} s, not measured)"
        )
        assert captured(inspect_new, location, "bench-n") == captured(inspect_old, location, "bench-n")
        print("(a) and (b) print the same bytes at N")
        variants = {
            f"a inspect --json, N={small}": (inspect_new, "bench-n"),
            f"a inspect --json, 10N={large}": (inspect_new, "bench-10n"),
            f"b old path, N={small}": (inspect_old, "bench-n"),
        }
        times: dict[str, list[float]] = {name: [] for name in variants}
        for _ in range(args.repeat):
            for name, (path, thread_id) in variants.items():
                times[name].append(timed(path, location, thread_id))
        best = {name: min(values) for name, values in times.items()}
        for name, seconds in best.items():
            print(f"{name:<34} {seconds * 1000:9.1f} ms")
        new_small, new_large, old_small = best.values()
        print(f"a(10N)/a(N) = {new_large / new_small:6.1f}   (goal <= 12)  {verdict(new_large / new_small <= 12)}")
        print(f"b(N)/a(N)   = {old_small / new_small:6.1f}   (the old path, for comparison)")
        memory_small = peak_memory_mb(inspect_new, location, "bench-n")
        memory_large = peak_memory_mb(inspect_new, location, "bench-10n")
        goal = f"(goal < {MEMORY_GOAL_MB} MB at {MEMORY_GOAL_AT} checkpoints)"
        met = memory_large < MEMORY_GOAL_MB if large >= MEMORY_GOAL_AT else None
        print(
            f"peak memory of (a), tracemalloc: N {memory_small:.1f} MiB, 10N {memory_large:.1f} MiB  {goal}"
            f"  {verdict(met) if met is not None else 'not judged (10N below the goal size)'}"
        )
        rss = {
            size: subprocess_rss_mb(location, thread_id) for size, thread_id in (("N", "bench-n"), ("10N", "bench-10n"))
        }
        print(
            f"peak RSS of (a) in its own process (interpreter and libraries included):"
            f" N {rss['N']:.0f} MiB, 10N {rss['10N']:.0f} MiB"
        )


if __name__ == "__main__":
    main()
