"""The index of statuses: a new process lists every thread from one table, and what changed behind its back
(another process, LangGraph's own saver, a deletion) is read again, never served from an old row."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from unittest import mock

import pytest

from agents import lifecycle, runtime, statusindex, threadindex
from agents.robot.graph import build_graph
from agents.runtime import open_store
from tests.agents.test_changefeed import langgraph_saver, served, write_elsewhere
from tests.factories import answer_robot, pause_robot, start_refund
from tests.fresh_process import run_code

pytestmark = pytest.mark.usefixtures("backend")
ROOT = Path(__file__).resolve().parents[2]


def agrees_with_langgraph(store, statuses):
    """Each listed status against LangGraph's own ``get_state`` of its thread, and the listed threads
    against the threads LangGraph's saver holds."""
    saved = {item.config["configurable"]["thread_id"] for item in store.saver.list(None)}
    assert set(statuses) == saved
    for thread_id, status in statuses.items():
        state = runtime.graph(store, status.agent).get_state({"configurable": {"thread_id": thread_id}})
        assert state.config["configurable"]["checkpoint_id"] == status.head_checkpoint_id
        assert (status.status == "waiting") == bool(state.interrupts), status
        if status.status == "done":
            assert not state.next, status


_COLD = """
import json, sys
sys.path.insert(0, {root!r})
from agents.runtime import open_store
from tests.agents.test_statusindex import agrees_with_langgraph
from tests.agents.test_changefeed import served
store = open_store({db!r})
statuses = served(store)
agrees_with_langgraph(store, statuses)
store.close()
print(json.dumps({{thread_id: status.to_json() for thread_id, status in statuses.items()}}))
"""


def cold(db_location):
    """A new process's listing, checked there against a recompute and LangGraph's reads; thread id → the
    status as ``--json`` shows it."""
    code = textwrap.dedent(_COLD).format(root=str(ROOT), db=db_location)
    done = run_code(code, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def as_json(statuses):
    return {thread_id: status.to_json() for thread_id, status in statuses.items()}


def mixed_threads(store, settings):
    for number in range(3):
        answer_robot(store, settings, f"done-{number}")
    for thread_id in ("w1", "w2", "w4"):
        pause_robot(store, settings, thread_id)
    start_refund(store, settings, "A")
    start_refund(store, settings, "B")
    from agents import runs

    runs.resume_from_fields(store, settings, "refund-B", {"action": "reject", "approver": "kim"})


def test_a_new_process_lists_what_changed_behind_the_back_of_the_one_that_kept_the_rows(store, settings, db_location):
    mixed_threads(store, settings)
    before = served(store)  # every row kept
    assert cold(db_location) == as_json(before)
    write_elsewhere(db_location)
    with langgraph_saver(store, db_location) as saver:  # no code of this project writes through it
        graph = build_graph(saver)
        graph.update_state({"configurable": {"thread_id": "w4"}}, {"decision": "no"})
        saver.delete_thread("done-1")
    other = open_store(db_location)
    try:
        with other.transaction() as cursor:  # raw SQL: a refund's payout written by another program
            cursor.execute(
                "INSERT INTO refund_ledger (case_id, thread_id, customer, requested_amount, paid_amount, approver,"
                " paid_at) VALUES ('B', 'refund-B', 'c', 500000, 1, 'k', '2026-01-01T00:00:00+00:00')"
            )
    finally:
        other.close()
    statuses = cold(db_location)
    assert statuses["w1"]["outcome"] == "executed"
    assert statuses["w2"]["reason_code"] == statuses["w4"]["reason_code"] == "edited"
    assert statuses["w3"]["status"] == "waiting"
    assert statuses["refund-B"]["reason_code"] == "inconsistent"
    assert "done-0" not in statuses and "done-1" not in statuses
    assert as_json(served(store)) == statuses  # the process that read before catches up alike
    assert cold(db_location) == statuses  # and the rows kept since hold


def test_a_new_process_reads_no_thread_when_nothing_changed(store, settings, db_location):
    mixed_threads(store, settings)
    before = served(store)
    fresh = open_store(db_location)
    refuse = mock.patch.object(threadindex, "_read", side_effect=AssertionError("a thread was read"))
    try:
        with refuse, mock.patch.object(runtime, "graph", side_effect=AssertionError("a state was read")):
            assert {s.thread_id: s for s in lifecycle.thread_statuses(fresh)} == before
            assert lifecycle.inbox(fresh) == lifecycle.unfinished(list(before.values()))
    finally:
        fresh.close()


def test_a_new_process_reads_the_changed_thread_alone(store, settings, db_location):
    mixed_threads(store, settings)
    served(store)
    from agents import runs

    runs.resume_thread(store, settings, "w1", "no")  # written by this process, which does not read again
    fresh = open_store(db_location)
    try:
        with mock.patch.object(threadindex, "_read", wraps=threadindex._read) as reads:
            assert {s.thread_id: s for s in lifecycle.thread_statuses(fresh)}["w1"].outcome == "refused"
        assert [call.args[1] for call in reads.call_args_list] == ["w1"]
    finally:
        fresh.close()


def test_a_garbled_row_is_read_again(store, settings, db_location):
    mixed_threads(store, settings)
    before = served(store)
    with store.transaction() as cursor:  # as another writer might leave it
        cursor.execute("UPDATE thread_status_index SET reason = '{not json', payload = '{not json'")
    assert cold(db_location) == as_json(before)


def test_without_a_complete_read_kept_a_new_process_reads_every_thread(store, settings, db_location):
    mixed_threads(store, settings)
    before = served(store)
    with store.transaction() as cursor:
        cursor.execute("DELETE FROM hitl_meta WHERE key = ?", (statusindex.COMPLETE_KEY,))
    fresh = open_store(db_location)
    try:
        assert statusindex.read(fresh) is None
        with mock.patch.object(threadindex, "thread_index", wraps=threadindex.thread_index) as every:
            assert {s.thread_id: s for s in lifecycle.thread_statuses(fresh)} == before
        assert every.called
        assert statusindex.read(fresh) is not None  # kept again, for the next one
    finally:
        fresh.close()


def test_a_row_kept_by_a_process_with_other_agents_is_read_again(store, settings, db_location):
    mixed_threads(store, settings)
    served(store)
    with store.transaction() as cursor:  # as a process running an agent not registered here would keep it
        cursor.execute("UPDATE thread_status_index SET agent = 'gone-agent' WHERE thread_id = 'done-0'")
        cursor.execute(
            "UPDATE thread_status_index SET reason_code = 'unknown_agent', status = 'attention'"
            " WHERE thread_id = 'done-1'"
        )
    fresh = open_store(db_location)
    try:
        statuses = served(fresh)
        assert statuses["done-0"].agent == statuses["done-1"].agent == "robot"
        assert statuses["done-0"].status == statuses["done-1"].status == "done"
    finally:
        fresh.close()
