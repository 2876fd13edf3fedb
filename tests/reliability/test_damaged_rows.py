"""One thread's damaged row takes down that thread only: it shows as damaged, everything else works.

A garbage blob in a thread's checkpoint or writes, or a serializer type nobody knows, in a case that waits
or one that was paid: the thread is ``attention`` (reason ``damaged``, in the inbox, with the reason) on
the CLI, the pages and the API; an operation on it is a message (exit 2, a 503), never a traceback; every
other thread, the ledger and the audit keep working.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest

from agents import lifecycle, runs
from agents.db import Store
from agents.refund import ledger
from agents.runtime import load_settings, open_store
from agents.settings import Settings
from tests.api.conftest import start_server, stop_server
from tests.factories import pause_robot, start_refund
from tests.templates import copy_into

DAMAGED = "refund-D"
CANNOT_BE_READ = "a saved value cannot be read"


def _sql(statement: str) -> Callable[..., None]:
    def damage(path: Path, thread: str = DAMAGED) -> None:
        with closing(sqlite3.connect(path)) as conn:
            conn.execute(statement, (thread,))
            conn.commit()

    return damage


#: The ways a row can be damaged, each kept to the one thread.
DAMAGES = {
    "garbage checkpoint": _sql("UPDATE checkpoints SET checkpoint = x'deadbeef' WHERE thread_id = ?"),
    "garbage write": _sql("UPDATE writes SET value = x'c1c1' WHERE thread_id = ?"),
    "unknown serializer of a checkpoint": _sql("UPDATE checkpoints SET type = 'bogus' WHERE thread_id = ?"),
    "unknown serializer of a write": _sql("UPDATE writes SET type = 'bogus' WHERE thread_id = ?"),
    "garbled metadata": _sql("UPDATE checkpoints SET metadata = '{not json' WHERE thread_id = ?"),
}
#: The damaged case as it was when it was damaged.
STATES = ["waiting", "paid"]


def _three_threads(state: str) -> Callable[[Store, Settings], None]:
    """A waiting robot, a paid case, and the case to damage, waiting or paid as ``state`` says."""

    def build(store: Store, settings: Settings) -> None:
        pause_robot(store, settings)
        start_refund(store, settings, "OK")
        runs.resume_thread(store, settings, "refund-OK", {"action": "approve", "approver": "kim"})
        start_refund(store, settings, "D", 700_000)
        if state == "paid":
            runs.resume_thread(store, settings, DAMAGED, {"action": "approve", "approver": "kim"})

    return build


def _prepare(db: Path, damage: str, state: str) -> None:
    """The three threads (run once per process, copied into ``db``: ``tests/templates.py``), then the damage."""
    copy_into(db, f"three-threads-{state}", _three_threads(state))
    DAMAGES[damage](db)


def _head_is_damaged(damage: str, state: str) -> bool:
    return "write" not in damage or state == "waiting"


@pytest.fixture(params=[(d, s) for d in DAMAGES for s in STATES], ids=lambda p: f"{p[0]}, {p[1]}")
def damaged(request, db_path):
    _prepare(db_path, *request.param)
    return request.param


def test_the_cli_shows_the_thread_as_damaged_and_everything_else_works(run_cli, db_path, damaged):
    listed = run_cli("threads", "--json")
    assert listed.code == 0, listed.err
    statuses = {row["thread_id"]: row for row in json.loads(listed.out)}
    if _head_is_damaged(*damaged):
        assert statuses[DAMAGED]["status"] == "attention" and statuses[DAMAGED]["reason_code"] == "damaged"
        assert "its saved state cannot be read" in statuses[DAMAGED]["reason"]
    else:  # a finished head has no writes: the damage is in its history, which inspect reads
        assert statuses[DAMAGED]["outcome"] == "paid"
    assert statuses["hitl_demo"]["status"] == "waiting" and statuses["refund-OK"]["outcome"] == "paid"
    inbox = json.loads(run_cli("inbox", "--json").out)
    assert (DAMAGED in {row["thread_id"] for row in inbox}) == _head_is_damaged(*damaged)
    audit = run_cli("ledger", "--audit", "--json")
    assert audit.code == 0 and "Traceback" not in audit.err, audit.err
    cases = {row["thread_id"]: row for row in json.loads(audit.out)}
    assert cases["refund-OK"]["executed_amount"] == 500_000
    if damaged[0] == "garbled metadata":  # no checkpoint says which agent the thread is: the audit cannot tell
        assert statuses[DAMAGED]["agent"] == "unknown"
    else:
        assert cases[DAMAGED]["status"] == statuses[DAMAGED]["status"] and cases[DAMAGED]["case_id"] == "D"
    if damaged[1] == "paid":  # the payout stays on the record
        assert [row["executed_amount"] for row in cases.values() if row["case_id"] == "D"] == [700_000]
    assert run_cli("ledger").code == 0
    assert run_cli("inspect", "refund-OK").code == 0
    for command in (("inspect", DAMAGED), ("resume", DAMAGED, '{"action": "approve", "approver": "lee"}')):
        before = db_path.read_bytes()
        refused = run_cli(*command)
        assert refused.code == 2 and "Traceback" not in refused.err, (command, refused.err[-400:])
        assert any(m in refused.err for m in (CANNOT_BE_READ, "is damaged", "not waiting", "no thread named")), (
            command,
            refused.err,
        )
        assert db_path.read_bytes() == before, command
    assert run_cli("resume", "hitl_demo", "yes").code == 0
    # The action the reason names; an unreadable refund may have been unfinished, so its deletion says why.
    assert run_cli("delete", DAMAGED, "--yes", "--reason", "damaged row").code == 0
    assert DAMAGED not in run_cli("threads").out


def test_the_pages_show_the_thread_as_damaged_and_raise_nothing(app, store, damaged):
    assert lifecycle.thread_status(store, DAMAGED).status == ("attention" if _head_is_damaged(*damaged) else "done")
    assert "refund-OK" in {row.thread_id for row in ledger.audit_rows(store)}
    home = app()
    assert not home.exception, home.exception[0].message
    for page in ("app_pages/refund.py", "app_pages/explorer.py", "app_pages/timeline.py"):
        for selected in (DAMAGED, "refund-OK"):
            at = app(page)
            at.query_params["thread"] = selected
            at.run()
            assert not at.exception, (page, selected, at.exception[0].message)


def test_the_api_lists_each_damaged_thread_as_an_error_and_refuses_it_with_a_message(tmp_path):
    """One server for every damage: each in a waiting case of its own beside the three threads."""
    folder = tmp_path / "server"
    folder.mkdir()
    db = folder / "checkpoints.sqlite"
    _prepare(db, "garbage checkpoint", "waiting")  # the template's own case: damaged as before
    damaged = {"garbage checkpoint": DAMAGED}
    store = open_store(db)
    try:
        for number, damage in enumerate(list(DAMAGES)[1:]):
            start_refund(store, load_settings(db_override=str(db), secrets={}), f"D{number}", 700_000)
            damaged[damage] = f"refund-D{number}"
    finally:
        store.close()
    for damage, thread in damaged.items():
        if thread != DAMAGED:
            DAMAGES[damage](db, thread)
    server = start_server(folder)
    try:
        with server.client() as client:
            found = client.post("/threads/search", json={"limit": 20})
            assert found.status_code == 200, found.text
            statuses = {row["thread_id"]: row["status"] for row in found.json()}
            assert statuses["hitl_demo"] == "interrupted" and statuses["refund-OK"] == "idle", statuses
            for damage, thread in damaged.items():
                assert statuses[thread] == "error", (damage, statuses)
                state = client.get(f"/threads/{thread}/state")
                assert state.status_code == 503 and CANNOT_BE_READ in state.text, (damage, state.text)
            assert client.get("/threads/hitl_demo/state").status_code == 200
    finally:
        stop_server(server)
    assert "Traceback" not in server.log()
