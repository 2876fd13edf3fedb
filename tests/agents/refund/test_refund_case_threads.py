"""One case, one thread, whatever the thread is called: ``refund_cases`` on both backends.

A refund may start on any thread id; a second start of its case on another thread is refused naming the
case and the thread that holds it, also when two processes start it at once (a barrier on the pipes, no
sleeping). A database written before the table existed is filled from its ``refund-<case id>`` threads
when it is opened, and a case whose thread is gone (deleted, or a start that died before saving) may be
started again.
"""

from __future__ import annotations

import uuid

import pytest

from agents import deletion, runs
from agents.db import Store
from agents.errors import InputError
from agents.refund import cases, ledger
from agents.refund.deletions import deletion_rows
from agents.runtime import open_store
from tests.factories import released_together

pytestmark = pytest.mark.usefixtures("backend")

#: The fingerprints the release before ``refund_cases`` wrote (``agents.schema_check.RELEASED_TABLES``).
BEFORE_CASES = {"sqlite": "91b5f92cc358c558", "postgres": "3127fb2a744386c9"}


def request(case: str, amount: int = 500_000) -> dict[str, object]:
    return {"case_id": case, "customer": "홍길동", "amount": amount, "reason": "파손"}


def start(store: Store, settings, case: str, thread: str | None = None) -> runs.RunResult:
    return runs.start_run(store, settings, "refund", request(case), thread_id=thread)


def approve(store: Store, settings, thread: str) -> runs.RunResult:
    return runs.resume_thread(store, settings, thread, {"action": "approve", "approver": "kim"})


def test_a_case_runs_on_any_thread_id_and_a_second_thread_for_it_is_refused_naming_both(store, settings):
    thread = uuid.uuid4().hex
    assert start(store, settings, "C-1", thread).interrupts
    with pytest.raises(InputError) as refused:
        start(store, settings, "C-1", uuid.uuid4().hex)
    assert refused.value.field == "case_id"
    assert "'C-1'" in str(refused.value) and repr(thread) in str(refused.value)
    with pytest.raises(InputError) as default_name:
        start(store, settings, "C-1")  # its default thread, refund-C-1, is another thread too
    assert default_name.value.field == "case_id" and repr(thread) in str(default_name.value)
    assert approve(store, settings, thread).values["outcome"] == "paid"
    assert [(r["case_id"], r["thread_id"]) for r in ledger.ledger_rows(store)] == [("C-1", thread)]
    assert cases.case_of_thread(store, thread) == "C-1"


def test_a_thread_named_for_another_case_is_refused(store, settings):
    with pytest.raises(InputError) as refused:
        start(store, settings, "C-2", "refund-C-3")
    assert refused.value.field == "thread_id" and "refund-C-2" in str(refused.value)


def test_a_deleted_threads_case_starts_again_on_another_thread_and_its_record_reads_the_case(store, settings):
    first = uuid.uuid4().hex
    start(store, settings, "C-4", first)
    deletion.delete_thread(store, first, reason="duplicate request")
    assert [(r["case_id"], r["thread_id"]) for r in deletion_rows(store)] == [("C-4", first)]
    second = uuid.uuid4().hex
    assert start(store, settings, "C-4", second).interrupts
    assert cases.case_of_thread(store, second) == "C-4" and cases.case_of_thread(store, first) == ""
    # The deleted thread's id may hold another case now.
    assert start(store, settings, "C-5", first).interrupts
    assert cases.case_of_thread(store, first) == "C-5"


def test_a_start_that_died_before_saving_leaves_its_case_to_the_next_start(store, settings):
    dead = uuid.uuid4().hex
    cases.claim(store, "C-6", dead)  # claimed, then the process died: no checkpoint, no live lease
    thread = uuid.uuid4().hex
    assert start(store, settings, "C-6", thread).interrupts
    assert cases.case_of_thread(store, thread) == "C-6"


def test_a_damaged_thread_is_audited_and_its_deletion_recorded_under_the_case_its_start_claimed(
    store, settings, backend
):
    thread = uuid.uuid4().hex
    start(store, settings, "C-7", thread)
    table = "checkpoints" if backend == "sqlite" else "checkpoint_blobs"  # where each keeps the values
    with store.transaction() as cursor:  # the head's values no longer decode: an unknown serializer
        cursor.execute(f"UPDATE {table} SET type = 'bogus' WHERE thread_id = ?", (thread,))
    rows = {row.thread_id: row for row in ledger.audit_rows(store)}
    assert rows[thread].case_id == "C-7"
    deletion.delete_thread(store, thread, reason="unreadable")
    assert [(r["case_id"], r["thread_id"], r["status"]) for r in deletion_rows(store)] == [("C-7", thread, "attention")]


def forget_cases_table(store: Store, backend: str) -> None:
    """The database as the release before ``refund_cases`` left it: no table, that release's fingerprint."""
    with store.transaction() as cursor:
        cursor.execute("DROP TABLE refund_cases")
        cursor.execute("UPDATE hitl_meta SET value = ? WHERE key = 'schema_fingerprint'", (BEFORE_CASES[backend],))


def test_opening_a_database_of_the_earlier_release_fills_the_table_from_its_threads(
    store, settings, db_location, backend
):
    start(store, settings, "OLD-1", "refund-OLD-1")
    start(store, settings, "OLD-2", "refund-OLD-2")
    approve(store, settings, "refund-OLD-2")
    runs.start_run(store, settings, "robot", {}, thread_id="robot-1")
    forget_cases_table(store, backend)
    store.close()
    reopened = open_store(db_location)
    try:
        assert cases.case_of_thread(reopened, "refund-OLD-1") == "OLD-1"
        assert cases.case_of_thread(reopened, "refund-OLD-2") == "OLD-2"
        with pytest.raises(InputError) as refused:
            start(reopened, settings, "OLD-1", uuid.uuid4().hex)
        assert refused.value.field == "case_id" and "'refund-OLD-1'" in str(refused.value)
        assert approve(reopened, settings, "refund-OLD-1").values["outcome"] == "paid"  # the old thread works on
        assert {r["case_id"] for r in ledger.ledger_rows(reopened)} == {"OLD-1", "OLD-2"}
    finally:
        reopened.close()


CHILD = """
import contextlib, io, json, sys
from agents.cli import main
db, tag, cases = sys.argv[1], sys.argv[2], sys.argv[3:]
with contextlib.redirect_stdout(io.StringIO()):
    main(["--db", db, "threads", "--json"])  # everything loaded and the database opened before the barrier
print("ready", flush=True)
sys.stdin.readline()
results = {}
for case in cases:
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = main(["--db", db, "run", "refund", "--case", case, "--customer", "k", "--amount", "500000",
                     "--reason", "r", "--thread", f"{tag}-{case}"])
    results[case] = [code, err.getvalue()]
print(json.dumps(results), flush=True)
"""


def start_at_once(db: str, case_ids: list[str]) -> list[dict[str, list]]:
    """Two processes start every case of ``case_ids``, each on threads of its own, released together."""
    return released_together(CHILD, [[db, tag, *case_ids] for tag in ("a", "b")])


@pytest.mark.slow
def test_two_processes_starting_one_case_on_different_threads_make_one_case_and_one_payout(
    store, settings, db_location
):
    case_ids = [f"R{n}" for n in range(12)]
    results = start_at_once(db_location, case_ids)
    for case in case_ids:
        codes = sorted(found[case][0] for found in results)
        assert codes == [0, 2], (case, [found[case] for found in results])
        loser = next(found[case][1] for found in results if found[case][0] == 2)
        winner = next(tag for tag, found in zip("ab", results, strict=True) if found[case][0] == 0)
        assert "case_id" in loser and f"'{winner}-{case}'" in loser  # names the case's thread
        assert cases.case_of_thread(store, f"{winner}-{case}") == case
        assert approve(store, settings, f"{winner}-{case}").values["outcome"] == "paid"
    refund_threads = [row for row in ledger.audit_rows(store) if row.case_id in case_ids]
    assert sorted(row.case_id for row in refund_threads) == sorted(case_ids)  # one thread per case
    assert sorted(row["case_id"] for row in ledger.ledger_rows(store)) == sorted(case_ids)  # one payout each
