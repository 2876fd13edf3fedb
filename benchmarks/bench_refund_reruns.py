"""Benchmark: the refund page's reruns on a large save file, the page's own time, before and after.

On the loaded database of ``benchmarks/bench_pages.py`` (``--threads`` mixed threads and the big robot
thread, built once per ``--data-dir``), one AppTest session of the refund page is run again and again,
each kind of rerun timed in the script's own thread (``ScriptRunner._run_script``: what a served page
pays, without AppTest's harness; the scan of installed components is made once and shared):

* ``rerun``: the whole page again with nothing new (a click that wrote nothing);
* ``queue page`` / ``audit page``: the page number of a table changed;
* ``after write``: the whole page after another connection committed (any write, by anyone, moves the
  database's change token, so every cache keyed by it is read again; what a click that wrote costs).

With ``--base COMMIT``, the same is measured on that commit's code (``git archive`` into a temporary
folder), each round running both in fresh processes, interleaved, on the same database. It prints
min and median per kind and tree, and the ratio of the medians (base / this tree). Timings are
printed, never asserted.

Usage::

    python benchmarks/bench_refund_reruns.py [--threads 10000] [--repeat 5] [--rounds 2] [--base COMMIT]
        [--data-dir DIR]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KINDS = ("rerun", "queue page", "audit page", "after write")


def measure(root: Path, location: str, repeat: int) -> dict[str, list[float]]:
    """Runs in a worker process whose imports come from ``root``: each kind's script times, ms."""
    os.environ.update(HITL_MODEL_LATENCY="0", HITL_DB=location, STREAMLIT_LOGGER_LEVEL="error")
    sys.path.insert(0, str(root))
    os.chdir(root)
    from streamlit.components.v2.component_manager import BidiComponentManager
    from streamlit.runtime.scriptrunner import script_runner
    from streamlit.testing.v1 import AppTest

    components = BidiComponentManager()
    components.discover_and_register_components(start_file_watching=False)
    runs: list[float] = []
    run_script = script_runner.ScriptRunner._run_script

    def timed(self: object, rerun_data: object) -> None:
        started = time.perf_counter()
        try:
            run_script(self, rerun_data)
        finally:
            runs.append((time.perf_counter() - started) * 1000)

    script_runner.ScriptRunner._run_script = timed  # type: ignore[method-assign]
    at = AppTest.from_file(str(root / "streamlit_app.py"), default_timeout=900)
    at._bidi_component_manager = components
    at.switch_page("app_pages/refund.py")
    at.run()
    at.run()  # the process's caches filled

    def commit_elsewhere() -> None:
        with sqlite3.connect(location) as other:
            other.execute("CREATE TABLE IF NOT EXISTS bench_touch (x)")
            other.execute("INSERT INTO bench_touch VALUES (1)")

    found: dict[str, list[float]] = {kind: [] for kind in KINDS}

    def one(kind: str, act: Callable[[], object]) -> None:
        gc.collect()
        runs.clear()
        act()
        if at.exception:
            raise RuntimeError(at.exception[0].message)
        found[kind].append(sum(runs))

    for index in range(repeat):
        page = 2 + index % 3
        one("rerun", at.run)
        one("queue page", lambda page=page: at.number_input(key="refund-queue:page").set_value(page).run())
        one("audit page", lambda page=page: at.number_input(key="refund-audit:page").set_value(page).run())
        commit_elsewhere()
        one("after write", at.run)
    return found


def _worker(root: Path, location: Path, repeat: int) -> dict[str, list[float]]:
    command = [sys.executable, str(Path(__file__).resolve()), "--worker", str(root), str(location), str(repeat)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the worker for {root} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    if len(sys.argv) == 5 and sys.argv[1] == "--worker":
        print(json.dumps(measure(Path(sys.argv[2]), sys.argv[3], int(sys.argv[4]))))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=10_000)
    parser.add_argument("--big-checkpoints", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5, help="reruns of each kind per round")
    parser.add_argument("--rounds", type=int, default=2, help="fresh processes per tree, interleaved")
    parser.add_argument("--base", help="a commit to measure beside this tree")
    parser.add_argument("--data-dir", type=Path, help="keep the built database here and reuse it")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from benchmarks._data import built_database

    print(f"load before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory(prefix="bench-reruns-") as scratch:
        location = built_database(args.data_dir or Path(scratch) / "data", args.threads, args.big_checkpoints)
        trees = {"this tree": ROOT}
        if args.base:
            base = Path(scratch) / "base"
            base.mkdir()
            archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.base], capture_output=True, check=True)
            subprocess.run(["tar", "-x", "-C", str(base)], input=archive.stdout, check=True)
            trees = {f"base {args.base}": base, **trees}
        times: dict[str, dict[str, list[float]]] = {tree: {kind: [] for kind in KINDS} for tree in trees}
        for _round in range(args.rounds):
            for tree, root in trees.items():
                for kind, values in _worker(root, location, args.repeat).items():
                    times[tree][kind].extend(values)
    print(f"refund page reruns, script time (ms), {args.threads} threads + the big thread")
    print(f"{'kind':<12}" + "".join(f"   {tree[:22]:>22} min / median" for tree in trees))
    for kind in KINDS:
        cells = "".join(
            f"   {min(times[tree][kind]):>29.1f} / {statistics.median(times[tree][kind]):.1f}" for tree in trees
        )
        ratio = ""
        if args.base:
            medians = [statistics.median(times[tree][kind]) for tree in trees]
            ratio = f"   base/this {medians[0] / medians[1]:.2f}"
        print(f"{kind:<12}{cells}{ratio}")
    print(f"load after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
