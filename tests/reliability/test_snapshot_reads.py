"""A page reads what it shows as one moment of the database, whatever another process writes meanwhile.

The refund page reads every case's status, then the audit of the cases. Another process (the CLI,
here a real ``python -m agents`` child) writes between the two reads: it creates a case that waits,
creates one that pays itself at once, decides one, or deletes one. The child is run to its end at
that exact point (a hook just after the statuses are read, no sleeps), so each interleaving happens
every time.
The page draws without an exception, every case it lists has its status, the queue and the audit
agree with each other, and the next rerun shows the write everywhere. The picker and the open case are
a live part that reads the database when it is drawn, so it may show the write a run before the lists.
"""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from agents import lifecycle
from agents.refund import ledger
from tests.conftest import APP_FILE, PROJECT_ROOT
from tests.factories import start_refund
from tests.fresh_process import run_command

pytestmark = pytest.mark.usefixtures("backend")

PAGE = "app_pages/refund.py"

WAITING = "OLD · 500,000 KRW · waiting"
#: The audit's status of a case whose thread was deleted (its deletion record).
GONE = "thread deleted"
#: What the other process does: its command, the cases the page lists first (the moment of the
#: statuses) and the picker's options on the rerun after it.
WRITES = {
    "creates-a-waiting-case": (
        ["run", "refund", "--case", "NEW", "--customer", "lee", "--amount", "700,000", "--reason", "late"],
        ["OLD"],
        [WAITING, "NEW · 700,000 KRW · waiting"],  # oldest first
    ),
    "creates-a-case-that-pays-itself": (
        ["run", "refund", "--case", "AUTO", "--customer", "lee", "--amount", "50,000", "--reason", "late"],
        ["OLD"],
        [WAITING, "AUTO · 50,000 KRW · done · paid"],
    ),
    "decides-the-waiting-case": (
        ["resume", "refund-OLD", '{"action": "approve", "approver": "kim"}'],
        ["OLD"],
        ["OLD · 500,000 KRW · done · paid"],
    ),
    # Gone: no half row (its deletion record is in the audit, as deleted, and in no queue).
    "deletes-the-waiting-case": (["delete", "refund-OLD", "--yes", "--reason", "entered twice"], [], []),
}


def _other_process(db_location: str, args: list[str]) -> None:
    """``python -m agents --db DB ARGS`` in a new process (a fork of the fork server, :mod:`tests.fresh_process`)."""
    done = run_command(["--db", db_location, *args], PROJECT_ROOT)
    assert done.returncode == 0, done.stderr[-2000:]


@pytest.mark.parametrize("write", list(WRITES))
def test_the_refund_page_draws_one_moment_while_another_process_writes_between_its_reads(
    monkeypatch, store, settings, db_location, write
):
    args, listed_first, options_after = WRITES[write]
    start_refund(store, settings, "OLD")
    at = AppTest.from_file(APP_FILE, default_timeout=60)
    at.run()  # home first (it reads every agent's statuses too), then the hook, then the refund page
    original = lifecycle.thread_statuses
    written: list[bool] = []

    def thread_statuses(*a, **k):
        found = original(*a, **k)
        if _agent_of(a, k) == ledger.AGENT_NAME and not written:  # the statuses are read; the audit is not yet
            _other_process(db_location, args)
            written.append(True)
        return found

    monkeypatch.setattr(lifecycle, "thread_statuses", thread_statuses)
    at.switch_page(PAGE)
    at.run()
    assert written, "the other process never ran between the reads"
    assert not at.exception, at.exception
    assert _listed(at) == listed_first  # the moment of the statuses: the write is not in it yet
    # The picker and the case are a live part, which reads its own moment when it is drawn (after the
    # write here): it shows the write already, every option with its status, none half-written. The
    # queue and the audit, read at the statuses' moment, catch up at their next run (the live interval).
    assert _options(at) == options_after
    at.run()  # the next rerun reads again, and shows the write
    assert not at.exception, at.exception
    assert _options(at) == options_after


def _listed(at) -> list[str]:
    """The cases of the queue and of the audit (the same ones, here; none when both are empty), leaving out
    the audit's records of deleted cases, which no queue lists."""
    tables = []
    for frame in at.dataframe:
        if "case" in frame.value:
            statuses = frame.value["status"] if "status" in frame.value else [""] * len(frame.value)
            tables.append([case for case, status in zip(frame.value["case"], statuses, strict=True) if status != GONE])
    assert all(table == tables[0] for table in tables), tables
    return tables[0] if tables else []


def _options(at) -> list[str]:
    pickers = [box for box in at.selectbox if box.key == "refund-case"]
    return list(pickers[0].options) if pickers else []


def _agent_of(args, kwargs):
    """The ``agent`` a ``thread_statuses(store, agent)`` call asks for, however it is passed."""
    return kwargs.get("agent", args[1] if len(args) > 1 else None)
