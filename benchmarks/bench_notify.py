"""Event-to-delivery latency of notifications: from the moment a thread starts waiting (or passes its
deadline) to the moment a local webhook receiver has the event.

A ``python -m agents notify --watch`` subprocess runs as an operator would run it (its default interval
unless ``--interval`` is given) on a fresh SQLite file (or ``--db`` a PostgreSQL URL with no threads);
this process starts ``--events`` refund cases through the project's write path, spread over
``--spread`` seconds, with a deadline of ``--sla`` seconds and a roles file with a senior approver (whom an
overdue case escalates to), and a real HTTP receiver on loopback keeps each event's arrival time. For the
``waiting`` events the event's moment is the thread's ``waiting_since``; for ``overdue`` and ``escalated`` it
is the deadline. It prints, per kind, the count, the median and the maximum latency, and whether every event
arrived once (by its Idempotency-Key). Timings are printed, never asserted.

Usage::

    python benchmarks/bench_notify.py [--events 20] [--spread 20] [--sla 30] [--interval SECONDS] [--db URL]
"""

from __future__ import annotations

import argparse
import collections
import datetime as dt
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agents import runs  # noqa: E402  # after the checkout is on the path
from agents.notify import WATCH_INTERVAL_SECONDS  # noqa: E402
from agents.runtime import load_settings, open_store  # noqa: E402
from tests.notify_receivers import webhook_receiver  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    """Runs the benchmark and prints the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=20, help="refund cases started (default 20)")
    parser.add_argument("--spread", type=float, default=20.0, help="seconds over which they start (default 20)")
    parser.add_argument("--sla", type=int, default=30, help="the refund deadline in seconds (default 30)")
    parser.add_argument("--interval", type=float, default=WATCH_INTERVAL_SECONDS, help="notify --watch interval")
    parser.add_argument("--db", help="a PostgreSQL URL with no threads (default: a new SQLite file)")
    args = parser.parse_args(argv)
    expected = args.events * 3  # waiting, overdue, escalated per case
    with tempfile.TemporaryDirectory() as temp, webhook_receiver() as receiver:
        db = args.db or str(Path(temp) / "bench.sqlite")
        roles = Path(temp) / "roles.toml"
        roles.write_text('[users]\n"senior@example.com" = { role = "senior_approver" }\n')
        env = {k: v for k, v in os.environ.items() if not k.startswith("HITL_")}
        env.update(HITL_DB=db, HITL_SLA=f"refund={args.sla}s", HITL_NOTIFY_WEBHOOK=receiver.url, HITL_LANG="en")
        env.update(HITL_ROLES_FILE=str(roles))
        store = open_store(db)
        settings = load_settings(db_override=db, environ=env, secrets={})
        watcher = subprocess.Popen(
            [sys.executable, "-m", "agents", "notify", "--watch", "--interval", str(args.interval)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            began = time.time()
            for index in range(args.events):
                values = {"case_id": f"B{index}", "customer": "bench", "amount": 500_000, "reason": "r"}
                runs.start_run(store, settings, "refund", values)
                time.sleep(max(0.0, began + args.spread * (index + 1) / args.events - time.time()))
            received = receiver.wait_for(expected, timeout=args.sla + args.spread + 4 * args.interval + 120)
        finally:
            watcher.terminate()
            watcher.wait(30)
            store.close()
    latencies: dict[str, list[float]] = collections.defaultdict(list)
    seen = collections.Counter(item.key for item in received)
    first = {}
    for item in received:
        first.setdefault(item.key, item)
    for item in first.values():
        happened = dt.datetime.fromisoformat(item.body["happened_at"]).timestamp()
        latencies[item.body["event"]].append(item.at - happened)
    print(
        f"{args.events} cases over {args.spread:g} s, deadline {args.sla} s, notify --watch every {args.interval:g} s, "
        f"{'PostgreSQL' if args.db else 'SQLite'}"
    )
    for kind in ("waiting", "overdue", "escalated"):
        values = latencies.get(kind, [])
        if values:
            print(
                f"  {kind:<10} {len(values):>3} events  latency median {statistics.median(values):6.2f} s"
                f"  max {max(values):6.2f} s"
            )
    repeats = sum(seen.values()) - len(seen)
    print(f"  received {len(seen)} of {expected} events, {repeats} sent twice")
    return 0 if len(seen) == expected else 1


if __name__ == "__main__":
    sys.exit(main())
