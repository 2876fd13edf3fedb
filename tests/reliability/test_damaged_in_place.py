"""A finished thread's status kept in the summary table is not served once its head was damaged in place
(its bytes rewritten under the same checkpoint id): a new process checks each kept head's bytes once and
shows the thread as damaged, on SQLite (the checkpoint is one blob) and on PostgreSQL (its values are
rows of ``checkpoint_blobs``, checked as LangGraph would decode them).
"""

from __future__ import annotations

import pytest

from agents import lifecycle, readmodel, runs
from agents.runtime import open_store
from tests.factories import start_refund

pytestmark = pytest.mark.usefixtures("backend")

DAMAGED = "refund-D"


def damage_head(store, thread_id: str) -> None:
    """Rewrites the bytes of the thread's head checkpoint where the backend keeps them."""
    head = readmodel.head_checkpoint_id(store, thread_id)
    with store.transaction() as cursor:
        if store.backend == "postgres":  # every value blob the head names
            cursor.execute(
                "UPDATE checkpoint_blobs b SET blob = ? FROM checkpoints c,"
                " jsonb_each_text(c.checkpoint -> 'channel_versions') v"
                " WHERE c.thread_id = ? AND c.checkpoint_ns = '' AND c.checkpoint_id = ?"
                " AND b.thread_id = c.thread_id AND b.checkpoint_ns = '' AND b.channel = v.key"
                " AND b.version = v.value AND b.type = 'msgpack'",
                (b"\xc1\xc1", thread_id, head),
            )
        else:
            cursor.execute(
                "UPDATE checkpoints SET checkpoint = ? WHERE thread_id = ? AND checkpoint_ns = ''"
                " AND checkpoint_id = ?",
                (b"\xc1\xc1", thread_id, head),
            )
        assert cursor.rowcount > 0


def test_a_kept_status_is_not_served_for_a_head_damaged_in_place(store, settings, db_location):
    for case in ("OK", "D"):
        start_refund(store, settings, case)
        runs.resume_thread(store, settings, f"refund-{case}", {"action": "approve", "approver": "kim"})
    assert {s.thread_id: s.status for s in lifecycle.thread_statuses(store)} == {"refund-OK": "done", DAMAGED: "done"}
    damage_head(store, DAMAGED)

    fresh = open_store(db_location)  # a new process: the kept rows hold, each head's bytes are checked once
    try:
        found = {s.thread_id: s for s in lifecycle.thread_statuses(fresh)}
        assert found["refund-OK"].status == "done"
        assert found[DAMAGED].status == "attention" and found[DAMAGED].reason_code == "damaged"
        assert "cannot be read" in found[DAMAGED].reason
    finally:
        fresh.close()
