"""Benchmark: a batch of refund decisions against the same decisions one at a time, per item.

On a fresh SQLite database, refund cases above the threshold wait for an approver. Then:

* ``cli``: what an approver pays from the command line. ``--singles`` cases are approved one
  ``python -m agents resume THREAD VALUE`` process each, and ``--items`` other cases by one
  ``python -m agents decide ITEM... --action approve`` process: the time per item of each, and their
  ratio (singles / batch). ``--skip-cli`` leaves it out (a process start is seconds on a busy machine).
* ``in-process``: the same in one process, ``runs.resume_thread`` per item against one
  ``agents.batch.decide_items`` call of ``--items`` items, for two kinds of item: cases with one amount
  (one question per thread: a batch still runs each thread's graph once) and cases of
  ``--items-per-case`` items (several questions per thread: a batch answers a case's items in one run).
  The variants alternate over ``--repeats`` rounds on fresh cases; the median per item is compared with
  the goal (the batch at least 3x faster per item), and the ledgers the two variants wrote are compared
  row by row (the same amounts paid, by the same approver, once each).
* ``floor`` (cases with one amount): LangGraph's own run alone, a bare
  ``graph.invoke(Command(resume=...), durability="sync")`` per thread on the same database (no checks, no
  lease, no status read): what any path that runs each thread's graph once pays at least, and the ratio
  it leaves for a batch (singles / floor).
* ``checks per decision``: how often the shape (``rules.check_answer``) and the permission
  (``rules.check_decision``) of an answer were checked per decision, counted in-process on both paths
  (the goal is 1 each: ``agents.refund.decisions``).
* ``state reads per decision``: how often LangGraph's ``get_state`` was called per decision, on both
  paths (the goal is 1: the check's read; a decision that leaves questions of its case waiting reads the
  state once more, for what then waits).

Timings are printed, never asserted.

Usage::

    python benchmarks/bench_decide.py [--items 200] [--singles 200] [--items-per-case 5] [--repeats 3] [--skip-cli]
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import statistics
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

from langgraph.pregel import Pregel  # noqa: E402 - after the project root is on the path
from langgraph.types import Command  # noqa: E402

from agents import runs, runtime  # noqa: E402
from agents.batch import decide_items, split_item  # noqa: E402
from agents.refund import decisions, item_ledger, ledger  # noqa: E402
from agents.runtime import load_settings, open_store  # noqa: E402

APPROVE = {"action": "approve", "approver": "kim"}
GOAL = 3.0


def waiting_cases(store: Any, settings: Any, prefix: str, count: int) -> list[str]:
    """``count`` refund cases of 500,000 KRW, each waiting for an approver."""
    return [
        runs.start_run(
            store, settings, "refund", {"case_id": f"{prefix}{n}", "customer": "c", "amount": 500_000, "reason": "r"}
        ).thread_id
        for n in range(count)
    ]


def waiting_items(store: Any, settings: Any, prefix: str, count: int, per_case: int) -> list[str]:
    """``count`` items (``THREAD:INTERRUPT_ID``) of cases of ``per_case`` items above the threshold each."""
    found: list[str] = []
    for n in range(-(-count // per_case)):
        entries = [{"item": f"I{i}", "amount": 300_000 + i} for i in range(per_case)]
        values = {"case_id": f"{prefix}{n}", "customer": "c", "reason": "r", "items": entries}
        started = runs.start_run(store, settings, "refund", values)
        found += [f"{started.thread_id}:{interrupt}" for interrupt in started.interrupt_ids]
    return found[:count]


def bare_runs(store: Any, settings: Any, threads: list[str]) -> None:
    """Each thread's graph resumed with the approval and nothing else: LangGraph's run, saved before each step."""
    graph = runtime.graph(store, "refund", **runtime.graph_options(settings, "refund"))
    for thread in threads:
        graph.invoke(Command(resume=dict(APPROVE)), {"configurable": {"thread_id": thread}}, durability="sync")


def one_by_one(store: Any, settings: Any, items: list[str]) -> None:
    for item in items:
        thread, interrupt = split_item(item)
        runs.resume_thread(store, settings, thread, dict(APPROVE), interrupt_id=interrupt)


def paid(store: Any, prefix: str) -> list[tuple[Any, ...]]:
    """The payouts of the cases named ``prefix<n>``, without the prefix: (case, item, amount, approver)."""
    rows = [(r["case_id"], "", r["paid_amount"], r["approver"]) for r in ledger.ledger_rows(store)]
    rows += [(r["case_id"], r["item"], r["paid_amount"], r["approver"]) for r in item_ledger.item_payouts(store)]
    return sorted((case[len(prefix) :], *rest) for case, *rest in rows if case.startswith(prefix))


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
    get_state = Pregel.get_state

    def read(self: Any, *args: Any, **kwargs: Any) -> Any:
        counted["state reads"] += 1
        return get_state(self, *args, **kwargs)

    Pregel.get_state = read  # type: ignore[method-assign]  # counted for the whole benchmark


def in_process(store: Any, settings: Any, args: argparse.Namespace, per_case: int, counted: Counter[str]) -> None:
    """Singles against one batch, alternating which goes first, on fresh items each round."""
    kind = "one amount per case" if per_case == 1 else f"{per_case} items per case"
    wall_ms: dict[str, list[float]] = {"single": [], "batch": [], "floor": []}
    checks: dict[str, Counter[str]] = {"single": Counter(), "batch": Counter()}
    cpu_ms: dict[str, list[float]] = {"single": [], "batch": [], "floor": []}  # steadier on a busy host
    for round_number in range(args.repeats):
        tag = f"{per_case}r{round_number}"

        def items(prefix: str, tag: str = tag) -> list[str]:
            if per_case == 1:
                return waiting_cases(store, settings, f"{prefix}{tag}-", args.items)
            return waiting_items(store, settings, f"{prefix}{tag}-", args.items, per_case)

        singles, together = items("P"), items("Q")
        variants = [("single", functools.partial(one_by_one, store, settings, singles)),
                    ("batch", functools.partial(decide_items, store, settings, together, APPROVE))]  # fmt: skip
        if per_case == 1:
            variants.insert(1, ("floor", functools.partial(bare_runs, store, settings, items("R"))))
        for name, action in variants if round_number % 2 == 0 else variants[::-1]:
            counted.clear()
            cpu = time.process_time()
            wall_ms[name].append(timed(action) / args.items * 1000)
            cpu_ms[name].append((time.process_time() - cpu) / args.items * 1000)
            if name in checks:
                checks[name] += counted
        expected = paid(store, f"P{tag}-")
        if paid(store, f"Q{tag}-") != expected or len(expected) != args.items:
            raise SystemExit(f"in-process ({kind}): the two variants paid differently")
        if per_case == 1 and paid(store, f"R{tag}-") != expected:
            raise SystemExit(f"in-process ({kind}): the bare runs paid differently")
    single, batch = statistics.median(wall_ms["single"]), statistics.median(wall_ms["batch"])
    rounds = f"median of {args.repeats} rounds"
    print(f"in-process ({kind}): {args.items} `runs.resume_thread`: {single:.1f} ms per item ({rounds})")
    print(f"in-process ({kind}): one `decide_items` of {args.items}: {batch:.1f} ms per item ({rounds})")
    cpu_single, cpu_batch = statistics.median(cpu_ms["single"]), statistics.median(cpu_ms["batch"])
    print(f"in-process ({kind}): CPU time per item: single {cpu_single:.1f} ms, batch {cpu_batch:.1f} ms")
    verdict = "met" if single / batch >= GOAL else "not met"
    print(
        f"in-process ({kind}): ratio (single / batch, per item): {single / batch:.2f}x (goal >= {GOAL:g}x: {verdict})"
    )
    if wall_ms["floor"]:
        floor, cpu_floor = statistics.median(wall_ms["floor"]), statistics.median(cpu_ms["floor"])
        print(
            f"in-process ({kind}): floor, a bare `graph.invoke` per thread: {floor:.1f} ms per item"
            f" (CPU {cpu_floor:.1f})"
        )
        print(
            f"in-process ({kind}): ratio the floor allows (single / floor): {single / floor:.2f}x"
            f" (CPU {cpu_single / cpu_floor:.2f}x); batch / floor: {batch / floor:.2f}x"
            f" (CPU {cpu_batch / cpu_floor:.2f}x)"
        )
    for path, found in checks.items():
        decisions_made = args.items * args.repeats
        shape, permission = found["shape"] / decisions_made, found["permission"] / decisions_made
        print(f"checks per decision ({kind}, {path}): shape {shape:g}, permission {permission:g} (goal 1 each)")
        print(f"state reads per decision ({kind}, {path}): {found['state reads'] / decisions_made:g} (goal 1)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--items", type=int, default=200, help="decisions in the batch (default 200)")
    parser.add_argument("--singles", type=int, default=200, help="single `resume` processes timed (default 200)")
    parser.add_argument("--items-per-case", type=int, default=5, help="items of each case with items (default 5)")
    parser.add_argument("--repeats", type=int, default=3, help="in-process rounds of each variant (default 3)")
    parser.add_argument("--skip-cli", action="store_true", help="time in one process only")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        location = str(Path(folder) / "bench.db")
        store, settings = open_store(location), load_settings(db_override=location, secrets={})
        if not args.skip_cli:
            singles = waiting_cases(store, settings, "S", args.singles)
            batch = waiting_cases(store, settings, "B", args.items)
            single_s = sum(timed(lambda t=t: cli(location, "resume", t, json.dumps(APPROVE))) for t in singles)
            batch_s = timed(lambda: cli(location, "decide", *batch, "--action", "approve", "--approver", "kim"))
            per_single, per_batch = single_s / args.singles * 1000, batch_s / args.items * 1000
            print(f"cli: {args.singles} single `resume` processes: {per_single:.1f} ms per item")
            print(f"cli: one `decide` of {args.items} items: {per_batch:.1f} ms per item")
            print(f"cli: ratio (single / batch, per item): {per_single / per_batch:.1f}x (goal >= {GOAL:g}x)")
            assert len(ledger.ledger_rows(store)) == args.singles + args.items

        counted: Counter[str] = Counter()
        counting(counted)
        in_process(store, settings, args, 1, counted)
        in_process(store, settings, args, args.items_per_case, counted)
        store.close()


if __name__ == "__main__":
    main()
