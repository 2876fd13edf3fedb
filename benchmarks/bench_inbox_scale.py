"""Benchmark: home's data (the inbox and each agent's threads) at 200 and at 10,000 threads, three ways.

Home reads what it shows (``dashboard.views.show_inbox_page`` and ``show_threads_page``): the inbox's
oldest page, its counts by status, the overdue counts, and each agent's newest page of threads, all from
the kept index of statuses (:mod:`agents.statuspages`); ``--whole`` reads every status instead
(``lifecycle.inbox`` and ``lifecycle.thread_statuses`` per agent: what the CLI and the API list). What
that costs depends on what the process knows already, so each size is measured three ways:

* **warm**: the same process again, the database unchanged;
* **after a write**: one write through the project's write path (a robot run started in a new thread,
  which then waits), then home's data; each repeat is a new write;
* **cold**: a new process opens the database and reads home's data once (a restart of the dashboard).
  The file has been read by an earlier process, as it has after any restart.

Each database is built once per ``--data-dir`` (``benchmarks/_data.py``: the mixed threads of every
agent and status, written by the real graphs, and a small ``robot-big``) and copied before each size is
measured, so the writes of one run never reach the next. Last, ``python -m agents threads --json`` at the
largest size, in a new process (its whole run, imports included).

It prints the median of each way at each size and the ratio largest / smallest, with the goals:
after a write within 1.5×, cold within 3×. Run it at two commits to compare them (the database is built
by the code that runs, so give each its own ``--data-dir``).

``--without PART`` measures each size a second time with a part of the read side switched off in the
measuring processes (:data:`WITHOUT`), and prints those figures and their ratio to the part's own, the
two measured in turn in the same run: what the part saves, the reason it is kept.

Usage::

    python benchmarks/bench_inbox_scale.py [--threads 200,10000] [--repeat 5] [--data-dir DIR] [--whole] [--cpu]
        [--without caches|kept-tables]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ["HITL_MODEL_LATENCY"] = "0"
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agents import ages, lifecycle, readcache, runs, statusindex, statuspages, summarytable  # noqa: E402
from agents.db import Store  # noqa: E402
from agents.registry import AGENTS  # noqa: E402
from agents.runtime import open_store  # noqa: E402
from agents.settings import Settings  # noqa: E402
from benchmarks._data import built_database, settings_for  # noqa: E402

AFTER_WRITE_GOAL = 1.5
COLD_GOAL = 3.0
BIG_CHECKPOINTS = 20
WAYS = ("warm", "after a write", "cold")

#: Run in a new process per measurement: opens the database, reads home's data (timed), prints seconds.
_MEASURE = """
import json, os, sys, time
sys.path.insert(0, {root!r})
from benchmarks.bench_inbox_scale import home_data, open_for_bench, switch_off
switch_off({without!r})
store, settings = open_for_bench({db!r})
mode = {mode!r}
found = {{}}
from benchmarks.bench_inbox_scale import clock
started = clock()
home_data(store)
found["cold"] = clock() - started
if mode == "all":
    from benchmarks.bench_inbox_scale import after_writes, warm_runs
    found["warm"] = warm_runs(store, {repeat})
    found["after a write"] = after_writes(store, settings, {repeat})
store.close()
print(json.dumps(found))
"""


#: What ``--without`` switches off, and what a read does then.
WITHOUT = {
    "caches": "the per-process caches (agents.readcache): every read decodes and derives again",
    "kept-tables": "the status index and the summary table (agents.statusindex, agents.summarytable): "
    "a new process reads every thread's status through LangGraph (with --whole: the paged home needs the index)",
}


def switch_off(part: str | None, set_to: Callable[[object, str, object], None] = setattr) -> None:
    """Switches ``part`` (a key of :data:`WITHOUT`) off in this process; None switches nothing off.

    ``set_to`` replaces each function (a test passes its own, which puts them back afterwards).
    """
    if part == "caches":  # a new, empty cache at every call: nothing is kept from one call to the next
        set_to(readcache, "cache_for", lambda _owner, _name, size=readcache.DEFAULT_SIZE: readcache.BoundedCache(size))
    elif part == "kept-tables":  # no row read, none written: every status computed as if the tables were empty
        set_to(statusindex, "read", lambda _store: None)
        set_to(statusindex, "kept_ids", lambda _store: set())
        set_to(statusindex, "save", lambda *_args, **_kwargs: False)
        set_to(summarytable, "stored_rows", lambda _store, _heads, _present=None: ({}, set()))
        set_to(summarytable, "save", lambda _store, _rows: None)
    elif part is not None:
        raise ValueError(f"nothing called {part!r} can be switched off: {', '.join(WITHOUT)}")


def clock() -> float:
    """Seconds: wall time, or with ``HITL_BENCH_CLOCK=cpu`` the measuring process's CPU time (steadier on a
    machine other work keeps busy; it leaves out time spent waiting for the disk)."""
    return time.process_time() if os.environ.get("HITL_BENCH_CLOCK") == "cpu" else time.perf_counter()


def open_for_bench(location: str) -> tuple[Store, Settings]:
    """The store and settings a measuring process uses."""
    return open_store(location), settings_for(location)


#: Rows of each list home shows (``dashboard.views.HOME_ROWS``; not imported, to keep Streamlit out).
HOME_ROWS = 50
#: The deadlines the overdue counts are counted against (every agent's, so each is counted).
DEADLINES = {name: 24 * 3600 for name in AGENTS}


def home_data(store: Store) -> int:
    """What home reads: the inbox's oldest page with its counts and each agent's newest page of threads
    (every status with ``HITL_BENCH_WHOLE=1``); returns how many rows it would draw."""
    if os.environ.get("HITL_BENCH_WHOLE") == "1":
        rows = len(lifecycle.inbox(store))
        for name in AGENTS:
            rows += len(lifecycle.thread_statuses(store, agent=name))
        return rows
    rows = len(statuspages.inbox_page(store, limit=HOME_ROWS).items)
    statuspages.open_counts(store)
    statuspages.overdue_counts(store, DEADLINES, ages.utc_now())
    for name in AGENTS:
        rows += len(statuspages.threads_page(store, name, limit=HOME_ROWS).items)
    return rows


def warm_runs(store: Store, repeat: int) -> list[float]:
    """Home's data read again ``repeat`` times with the database unchanged."""
    found = []
    for _ in range(repeat):
        started = clock()
        home_data(store)
        found.append(clock() - started)
    return found


def after_writes(store: Store, settings: Settings, repeat: int) -> list[float]:
    """Home's data after each of ``repeat`` writes: a robot run started in a new thread (it then waits)."""
    found = []
    for number in range(repeat):
        runs.start_run(store, settings, "robot", {}, thread_id=f"bench-write-{os.getpid()}-{number}")
        started = clock()
        home_data(store)
        found.append(clock() - started)
    return found


def _measure(location: Path, mode: str, repeat: int, without: str | None = None) -> dict[str, object]:
    code = _MEASURE.format(root=str(ROOT), db=str(location), mode=mode, repeat=repeat, without=without)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, cwd=ROOT)
    if done.returncode != 0:
        raise SystemExit(f"the measuring process failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def measure_size(source: Path, work: Path, repeat: int, without: str | None = None) -> dict[str, float]:
    """Median seconds of each way on a fresh copy of ``source`` (with ``without`` switched off)."""
    copy = work / f"copy-{source.parent.name}.sqlite"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{copy}{suffix}").unlink(missing_ok=True)
    shutil.copyfile(source, copy)
    _measure(copy, "cold", 1, without)  # a first reader: what any earlier process left in the file
    colds = [float(_measure(copy, "cold", 1, without)["cold"]) for _ in range(repeat)]  # type: ignore[arg-type]
    found = _measure(copy, "all", repeat, without)
    return {
        "warm": statistics.median(found["warm"]),  # type: ignore[arg-type]
        "after a write": statistics.median(found["after a write"]),  # type: ignore[arg-type]
        "cold": statistics.median(colds),
    }


def threads_json_seconds(source: Path, work: Path, repeat: int) -> float:
    """Median seconds of ``python -m agents threads --json`` (a new process each) on a copy of ``source``."""
    copy = work / "threads-json.sqlite"
    shutil.copyfile(source, copy)
    env = {**os.environ, "HITL_DB": str(copy)}
    times = []
    for _ in range(repeat + 1):
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "agents", "threads", "--json"], cwd=ROOT, env=env, capture_output=True, check=True
        )
        times.append(time.perf_counter() - started)
    return statistics.median(times[1:])  # the first read by any process is not among them


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", default="200,10000", help="two sizes, comma-separated")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--data-dir", type=Path, default=None, help="where built databases are kept and reused")
    parser.add_argument("--whole", action="store_true", help="read every status, as the CLI and the API list")
    parser.add_argument("--cpu", action="store_true", help="measure the CPU time of the measuring process")
    parser.add_argument("--without", choices=sorted(WITHOUT), help="measure again with this part switched off")
    args = parser.parse_args()
    if args.without == "kept-tables" and not args.whole:
        parser.error("--without kept-tables goes with --whole: the paged home reads nothing but the status index")
    if args.cpu:
        os.environ["HITL_BENCH_CLOCK"] = "cpu"
    if args.whole:
        os.environ["HITL_BENCH_WHOLE"] = "1"  # seen by the measuring processes too
    sizes = [int(n) for n in args.threads.split(",")]
    with tempfile.TemporaryDirectory() as scratch:
        data = args.data_dir or Path(scratch) / "data"
        work = Path(scratch)
        built = {n: built_database(data, n, BIG_CHECKPOINTS) for n in sizes}
        print(f"load average before: {os.getloadavg()[0]:.2f}")
        results, apart = {}, {}
        for n in sizes:  # with and without the part in turn, so both see the same machine
            results[n] = measure_size(built[n], work, args.repeat)
            if args.without:
                apart[n] = measure_size(built[n], work, args.repeat, args.without)
        small, large = min(sizes), max(sizes)
        print(f"\nhome's data, median of {args.repeat} (ms)")
        print(f"{'way':<16}" + "".join(f"{n:>10}" for n in sizes) + f"{'ratio':>10}{'goal':>8}  verdict")
        for way in WAYS:
            ratio = results[large][way] / results[small][way]
            goal = {"after a write": AFTER_WRITE_GOAL, "cold": COLD_GOAL}.get(way)
            verdict = "" if goal is None else ("met" if ratio <= goal else "MISSED")
            row = "".join(f"{results[n][way] * 1000:>10.1f}" for n in sizes)
            print(f"{way:<16}{row}{ratio:>9.1f}×{'' if goal is None else f'{goal:>7.1f}×'}  {verdict}")
        if args.without:
            print(f"\nwithout {WITHOUT[args.without]}:")
            print(f"median of {args.repeat} (ms), and × the time with it")
            print(f"{'way':<16}" + "".join(f"{n:>10}{'×':>8}" for n in sizes))
            for way in WAYS:
                row = "".join(f"{apart[n][way] * 1000:>10.1f}{apart[n][way] / results[n][way]:>7.1f}×" for n in sizes)
                print(f"{way:<16}{row}")
        seconds = threads_json_seconds(built[large], work, max(1, args.repeat // 2))
        print(f"\npython -m agents threads --json at {large} threads: {seconds:.2f} s (whole process)")
        print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
