"""Two processes deciding overlapping batches at once pay each item once, on both backends.

Both children load everything first, say ``ready`` and wait on their standard input; the test lets
both go at once (a barrier on the pipes, no sleeping). Every item then has at most one accepted
decision (``paid`` or ``waiting``) between the two, the other reads ``already decided`` or ``busy``; a
retry of both batches decides what was left; the ledger has exactly one row per item.
"""

from __future__ import annotations

from collections import Counter

import pytest

from agents import runs
from agents.refund import item_ledger, ledger
from tests.factories import released_together

pytestmark = [pytest.mark.usefixtures("backend"), pytest.mark.slow]

CASES = 30
ITEMS = [{"item": "A-1", "amount": 300_000}, {"item": "A-2", "amount": 200_000}, {"item": "A-3", "amount": 150_000}]
CHILD = """
import contextlib, io, json, sys
from agents.cli import main
db, approver, items = sys.argv[1], sys.argv[2], sys.argv[3:]
with contextlib.redirect_stdout(io.StringIO()):
    main(["--db", db, "threads", "--json"])  # everything loaded and the database opened before the barrier
print("ready", flush=True)
sys.stdin.readline()
out = io.StringIO()
with contextlib.redirect_stdout(out):
    main(["--db", db, "decide", *items, "--action", "approve", "--approver", approver, "--json"])
print(out.getvalue(), flush=True)
"""


def decide_at_once(db: str, batches: list[list[str]]) -> list[list[dict[str, str]]]:
    return released_together(CHILD, [[db, f"approver{k}", *items] for k, items in enumerate(batches)])


def test_two_processes_deciding_overlapping_batches_pay_each_item_once(store, settings, db_location):
    for n in range(CASES):
        runs.start_run(
            store, settings, "refund", {"case_id": f"S{n}", "customer": "k", "amount": 200_000, "reason": "r"}
        )
    runs.start_run(store, settings, "refund", {"case_id": "M1", "customer": "k", "reason": "r", "items": ITEMS})
    ids = [f"refund-M1:{i.id}" for i in runs.thread_snapshot(store, settings, "refund-M1")[1].interrupts]
    singles = [f"refund-S{n}" for n in range(CASES)]
    first = singles[:20] + ids[:2]
    second = list(reversed(singles[10:] + ids[1:]))  # the overlap is met from both ends
    results = decide_at_once(db_location, [first, second])
    accepted = Counter(r["item"] for found in results for r in found if r["result"] in ("paid", "waiting"))
    assert all(count == 1 for count in accepted.values()), accepted
    for found in results:
        assert {r["result"] for r in found} <= {"paid", "waiting", "already decided", "busy"}, found
    assert len(ledger.ledger_rows(store)) + len(item_ledger.item_payouts(store)) == len(accepted)
    again = decide_at_once(db_location, [first, second])  # what one left busy, the retry decides
    assert {r["result"] for found in again for r in found} <= {"paid", "waiting", "already decided", "busy"}
    leftover = [r["item"] for found in again for r in found if r["result"] == "busy"]
    if leftover:
        runs_left = decide_at_once(db_location, [leftover])
        assert all(r["result"] != "busy" for r in runs_left[0])
    assert len(ledger.ledger_rows(store)) == CASES and len(item_ledger.item_payouts(store, "M1")) == 3
    assert all(row["repeat_attempts"] == 0 for row in ledger.ledger_rows(store))
    assert all(row["repeat_attempts"] == 0 for row in item_ledger.item_payouts(store))
