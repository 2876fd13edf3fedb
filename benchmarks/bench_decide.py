"""Benchmark: a batch of refund decisions against the same decisions one at a time, per item.

On a fresh SQLite database, ``--items`` refund cases above the threshold wait for an approver. Then:

* ``cli``: what an approver pays from the command line. ``--singles`` cases are approved one
  ``python -m agents resume THREAD VALUE`` process each (all of them when ``--singles`` is ``--items``),
  and ``--items`` other cases by one ``python -m agents decide ITEM... --action approve`` process: the
  time per item of each, and their ratio (singles / batch; the goal is at least 3).
* ``in-process``: the same in one process, ``runs.resume_thread`` per case against one
  ``agents.batch.decide_items`` call: what the batch saves besides a process start per decision.
* ``checks per decision``: how often the shape (``rules.check_answer``) and the permission
  (``rules.check_decision``) of an answer were checked per decision, counted in-process on both paths
  (the goal is 1 each: ``agents.refund.decisions``).

Timings are printed, never asserted.

Usage::

    python benchmarks/bench_decide.py [--items 200] [--singles 200]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agents import runs  # noqa: E402 - after the project root is on the path
from agents.batch import decide_items  # noqa: E402
from agents.refund import decisions, ledger  # noqa: E402
from agents.runtime import load_settings, open_store  # noqa: E402

APPROVE = {"action": "approve", "approver": "kim"}


def waiting_cases(store: Any, settings: Any, prefix: str, count: int) -> list[str]:
    """``count`` refund cases of 500,000 KRW, each waiting for an approver."""
    return [
        runs.start_run(
            store, settings, "refund", {"case_id": f"{prefix}{n}", "customer": "c", "amount": 500_000, "reason": "r"}
        ).thread_id
        for n in range(count)
    ]


def cli(location: str, *args: str) -> None:
    env = {**os.environ, "HITL_DB": location, "HITL_MODEL_LATENCY": "0"}
    done = subprocess.run([sys.executable, "-m", "agents", "--db", location, *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=False)  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args[:2])} failed: {done.stderr}")


def timed(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def counting(counted: Counter[str]) -> None:
    """Counts every check of an answer's shape and permission, wherever it is asked."""
    for attribute, name in (("check_answer", "shape"), ("check_permission", "permission")):
        function = getattr(decisions, attribute)

        def call(*args: Any, _function: Callable[..., Any] = function, _name: str = name, **kwargs: Any) -> Any:
            counted[_name] += 1
            return _function(*args, **kwargs)

        setattr(decisions, attribute, call)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--items", type=int, default=200, help="decisions in the batch (default 200)")
    parser.add_argument("--singles", type=int, default=200, help="single decisions timed (default 200)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        location = str(Path(folder) / "bench.db")
        store, settings = open_store(location), load_settings(db_override=location, secrets={})
        singles = waiting_cases(store, settings, "S", args.singles)
        batch = waiting_cases(store, settings, "B", args.items)
        single_s = sum(timed(lambda t=t: cli(location, "resume", t, json.dumps(APPROVE))) for t in singles)
        batch_s = timed(lambda: cli(location, "decide", *batch, "--action", "approve", "--approver", "kim"))
        per_single, per_batch = single_s / args.singles * 1000, batch_s / args.items * 1000
        print(f"cli: {args.singles} single `resume` processes: {per_single:.1f} ms per item")
        print(f"cli: one `decide` of {args.items} items: {per_batch:.1f} ms per item")
        print(f"cli: ratio (single / batch, per item): {per_single / per_batch:.1f}x (goal >= 3x)")
        assert len(ledger.ledger_rows(store)) == args.singles + args.items

        counted: Counter[str] = Counter()
        counting(counted)
        one_by_one = waiting_cases(store, settings, "P", args.items)
        together = waiting_cases(store, settings, "Q", args.items)
        single_s = sum(timed(lambda t=t: runs.resume_thread(store, settings, t, dict(APPROVE))) for t in one_by_one)
        single_checks = Counter(counted)
        counted.clear()
        batch_s = timed(lambda: decide_items(store, settings, together, APPROVE))
        per_single, per_batch = single_s / args.items * 1000, batch_s / args.items * 1000
        print(f"in-process: {args.items} `runs.resume_thread`: {per_single:.1f} ms per item")
        print(f"in-process: one `decide_items` of {args.items}: {per_batch:.1f} ms per item")
        print(f"in-process: ratio (single / batch, per item): {per_single / per_batch:.2f}x")
        for path, found in (("single", single_checks), ("batch", counted)):
            shape, permission = found["shape"] / args.items, found["permission"] / args.items
            print(f"checks per decision ({path}): shape {shape:g}, permission {permission:g} (goal 1 each)")
        store.close()


if __name__ == "__main__":
    main()
