"""One page of a list and the counts by status, asked of the kept index of statuses: the same statuses, in the
same order, as a recompute from LangGraph's state, in this process, after writes, and in a new process that
reads neither every row nor any unchanged thread."""

from __future__ import annotations

import datetime as dt
import json
import textwrap
from collections import Counter
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

import pytest

from agents import lifecycle, runs, runtime, statusindex, statuspages, summarytable, threadindex
from agents.errors import InputError
from agents.leases import thread_lease
from agents.runtime import open_store
from tests.agents.test_changefeed import langgraph_saver
from tests.agents.test_statusindex import mixed_threads
from tests.factories import pause_robot
from tests.fresh_process import run_code

pytestmark = pytest.mark.usefixtures("backend")
ROOT = Path(__file__).resolve().parents[2]
AGENTS = (None, "robot", "refund", "lecture")


def _order(status):
    return (status.head_checkpoint_id, status.thread_id)


def recomputed(store, running=()):
    """Every status read through LangGraph, no kept row used, with these threads' leases live (the oracle)."""
    no_rows = mock.patch.object(summarytable, "stored_rows", return_value=({}, set()))
    with no_rows, mock.patch.object(summarytable, "save"):
        index = threadindex._read(store, None)
        pending = {p.thread_id: p.payload for p in reversed(index.pending)}
        found = lifecycle._statuses(store, list(index.threads), pending, set(running))
        return lifecycle.with_counts(found, index.pending)


def pages_agree(store, *, limit=2, running=()):
    """Every page of every list (inbox and threads, all agents and each) and every count against a
    recompute from LangGraph's state; returns the recompute's statuses by thread id."""
    every = recomputed(store, running)
    now = dt.datetime.now(dt.UTC)
    for agent in AGENTS:
        mine = [s for s in every if agent is None or s.agent == agent]
        expected = {
            "inbox": sorted((s for s in mine if s.status != "done"), key=_order),
            "threads": sorted(mine, key=_order, reverse=True),
        }
        for kind, read in (("inbox", statuspages.inbox_page), ("threads", statuspages.threads_page)):
            shown, offset = [], 0
            while True:
                page = read(store, agent, limit=limit, offset=offset)
                shown += page.items
                offset += limit
                assert page.more == (len(expected[kind]) > offset), (kind, agent, offset)
                if not page.more:
                    break
            assert [s.to_json() for s in shown] == [s.to_json() for s in expected[kind]], (kind, agent)
            assert shown == expected[kind]
        assert statuspages.open_counts(store, agent) == Counter(s.status for s in expected["inbox"])
    for deadline in (0, 1, 3600):
        deadlines = {"robot": deadline, "refund": deadline, "lecture": deadline}
        overdue = Counter(s.agent for s in lifecycle.overdue(lifecycle.unfinished(every), deadlines, now))
        assert statuspages.overdue_counts(store, deadlines, now) == overdue
    return {s.thread_id: s for s in every}


_COLD = """
import json, sys
sys.path.insert(0, {root!r})
from unittest import mock
from agents import statusindex
from agents.runtime import open_store
from tests.agents.test_statuspages import pages_agree
store = open_store({db!r})
with mock.patch.object(statusindex, "read", side_effect=AssertionError("every row was read")):
    statuses = pages_agree(store)
store.close()
print(json.dumps(sorted(statuses)))
"""


def cold_pages(db_location):
    """A new process's pages and counts, checked there against a recompute; the thread ids it listed."""
    code = textwrap.dedent(_COLD).format(root=str(ROOT), db=db_location)
    done = run_code(code, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


_WRITE_ELSEWHERE = """
import sys
sys.path.insert(0, {root!r})
from agents import runs
from agents.runtime import load_settings, open_store
store = open_store({db!r})
settings = load_settings(db_override={db!r}, secrets={{}})
runs.resume_thread(store, settings, "w1", "yes")
runs.update_thread(store, settings, "w2", {{"decision": "no"}})
runs.delete_thread(store, "done-0")
runs.start_run(store, settings, "robot", {{}}, thread_id="w3")
store.close()
"""


def test_pages_and_counts_agree_with_a_recompute_here_after_writes_and_in_a_new_process(store, settings, db_location):
    mixed_threads(store, settings)
    pages_agree(store)
    assert len(cold_pages(db_location)) == 8
    runs.resume_thread(store, settings, "w4", "no")  # a write of this process: read after it here
    pause_robot(store, settings, "w5")
    assert pages_agree(store, limit=3)["w4"].outcome == "refused"
    code = textwrap.dedent(_WRITE_ELSEWHERE).format(root=str(ROOT), db=db_location)
    done = run_code(code, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    with langgraph_saver(store, db_location) as saver:  # no code of this project writes through it
        from agents.robot.graph import build_graph

        build_graph(saver).update_state({"configurable": {"thread_id": "w5"}}, {"decision": "no"})
        saver.delete_thread("done-1")
    statuses = pages_agree(store, limit=1)  # this process catches up
    assert "done-0" not in statuses and "done-1" not in statuses and statuses["w3"].status == "waiting"
    assert statuses["w5"].reason_code == "edited"
    assert cold_pages(db_location) == sorted(statuses)  # and a new one reads the rows kept


def test_a_new_process_serves_a_page_reading_no_thread_and_decoding_only_its_rows(store, settings, db_location):
    mixed_threads(store, settings)
    pages_agree(store)
    fresh = open_store(db_location)
    refuse = mock.patch.object(threadindex, "_read", side_effect=AssertionError("a thread was read"))
    no_state = mock.patch.object(runtime, "graph", side_effect=AssertionError("a state was read"))
    no_rows = mock.patch.object(statusindex, "read", side_effect=AssertionError("every row was read"))
    try:
        with refuse, no_state, no_rows, mock.patch.object(statusindex, "_decoded", wraps=statusindex._decoded) as made:
            page = statuspages.inbox_page(fresh, limit=2)
            assert statuspages.open_counts(fresh) == Counter({"waiting": 4})
        assert [s.thread_id for s in page.items] == ["w1", "w2"] and page.more
        assert made.call_count == 3  # the page's rows and the one that says there are more
    finally:
        fresh.close()


@contextmanager
def index_reads(store):
    """Records each statement ``store`` reads the table of statuses with: (SQL, arguments, rows fetched)."""
    seen: list[tuple[str, tuple, int]] = []
    read = store.read

    class Recording:
        def __init__(self, cursor):
            self.cursor, self.asked = cursor, None

        def execute(self, sql, params=()):
            self.asked = (sql, tuple(params)) if "thread_status_index" in sql else None
            self.cursor.execute(sql, params)
            return self

        def fetchall(self):
            rows = self.cursor.fetchall()
            if self.asked is not None:
                seen.append((*self.asked, len(rows)))
            return rows

        def fetchone(self):
            row = self.cursor.fetchone()
            if self.asked is not None:
                seen.append((*self.asked, int(row is not None)))
            return row

    @contextmanager
    def recorded():
        with read() as cursor:
            yield Recording(cursor)

    with mock.patch.object(store, "read", recorded):
        yield seen


def test_a_new_process_counts_by_status_fetching_one_row_per_agent_and_status(store, settings, db_location):
    mixed_threads(store, settings)
    pages_agree(store)
    fresh = open_store(db_location)
    try:
        statuspages.inbox_page(fresh, limit=1)  # the table brought up to date
        with index_reads(fresh) as seen:
            assert statuspages.open_counts(fresh) == Counter({"waiting": 4})
            assert statuspages.open_counts(fresh, "robot") == Counter({"waiting": 3})
        # w1, w2 and w4 wait for the robot and refund-A for the refund agent: counted, not fetched one by one
        assert [rows for _sql, _args, rows in seen] == [2, 1]
    finally:
        fresh.close()


def test_the_counts_by_status_are_served_by_the_index_of_the_unfinished_rows(store, settings):
    mixed_threads(store, settings)
    pages_agree(store)
    statuspages.inbox_page(store, limit=1)
    for agent in (None, "robot"):
        with index_reads(store) as seen:
            statusindex.open_counts(store, agent)
        [(sql, args, _rows)] = seen
        if store.backend == "postgres":
            # as autovacuum leaves a table: its dead rows gone and its pages marked all-visible, which an
            # index-only scan needs (a schema used by an earlier test still holds that test's deleted rows)
            with store.pool.connection() as conn:  # autocommit: VACUUM runs outside a transaction
                conn.execute("VACUUM (ANALYZE) thread_status_index")
        with store.read() as cursor:
            if store.backend == "postgres":  # a table this small is read whole, unless that is ruled out
                cursor.execute("SET LOCAL enable_seqscan = off")
                cursor.execute("EXPLAIN " + sql, args)
                plan = " | ".join(row[0] for row in cursor.fetchall())
                assert "Index Only Scan using thread_status_index_open_counts" in plan, plan
            else:
                cursor.execute("EXPLAIN QUERY PLAN " + sql, args)
                plan = " | ".join(row[-1] for row in cursor.fetchall())
                assert "USING COVERING INDEX thread_status_index_open_counts" in plan, plan


def test_a_new_process_reads_the_changed_thread_alone_for_a_page(store, settings, db_location):
    mixed_threads(store, settings)
    pages_agree(store)
    runs.resume_thread(store, settings, "w1", "no")  # written by this process, which does not read again
    fresh = open_store(db_location)
    try:
        with mock.patch.object(threadindex, "_read", wraps=threadindex._read) as reads:
            assert "w1" not in [s.thread_id for s in statuspages.inbox_page(fresh).items]
        assert [call.args[1] for call in reads.call_args_list] == ["w1"]
        pages_agree(fresh)
    finally:
        fresh.close()


def test_a_garbled_row_on_a_page_is_read_again(store, settings, db_location):
    mixed_threads(store, settings)
    pages_agree(store)
    with store.transaction() as cursor:  # as another writer might leave it
        cursor.execute("UPDATE thread_status_index SET reason = '{not json', payload = '{not json'")
    fresh = open_store(db_location)
    try:
        pages_agree(fresh, limit=100)
    finally:
        fresh.close()


def test_a_row_kept_by_a_process_with_other_agents_is_read_again_for_a_page(store, settings, db_location):
    mixed_threads(store, settings)
    pages_agree(store)
    with store.transaction() as cursor:
        cursor.execute("UPDATE thread_status_index SET agent = 'gone-agent' WHERE thread_id = 'done-0'")
        cursor.execute(
            "UPDATE thread_status_index SET reason_code = 'unknown_agent', status = 'attention'"
            " WHERE thread_id = 'done-1'"
        )
    fresh = open_store(db_location)
    try:
        assert pages_agree(fresh)["done-0"].agent == "robot"
    finally:
        fresh.close()


def test_a_running_thread_is_counted_and_listed_as_running_until_its_lease_ends(store, settings, db_location):
    mixed_threads(store, settings)
    pages_agree(store)
    with thread_lease(store, "w1"):
        pages_agree(store, running={"w1"})
        other = open_store(db_location)
        try:
            pages_agree(other, running={"w1"})
        finally:
            other.close()
    pages_agree(store)


def test_a_row_read_before_the_kept_one_does_not_replace_it(store, settings):
    mixed_threads(store, settings)
    statuses = pages_agree(store)
    with store.read() as cursor:
        cursor.execute("SELECT seen FROM thread_status_index WHERE thread_id = 'w1'")
        seen = cursor.fetchone()[0]
    old = statuses["w1"]
    late = lifecycle.ThreadStatus(old.thread_id, old.agent, "done", "executed", "", "", "", old.updated_at, 9, "x")
    assert statusindex.save(store, [late], seen - 1)
    fresh = statusindex.page_rows(store, agent="robot", unfinished=True, newest_first=False, limit=10, offset=0)
    assert "w1" in [row[0] for row in fresh]


def test_overdue_counts_follow_the_deadline_to_the_microsecond(store, settings):
    mixed_threads(store, settings)
    pages_agree(store)
    oldest = statuspages.inbox_page(store, "robot", limit=1).items[0]
    at = oldest.waiting_since + dt.timedelta(seconds=60)
    before, after = at, at + dt.timedelta(microseconds=1)
    deadlines = {"robot": 60}
    assert statuspages.overdue_counts(store, deadlines, before) == Counter()
    assert statuspages.overdue_counts(store, deadlines, after) == Counter({"robot": 1})
    inbox = lifecycle.inbox(store, "robot")
    assert [s.thread_id for s in lifecycle.overdue(inbox, deadlines, after)] == [oldest.thread_id]


@pytest.mark.parametrize(("field", "value"), [("limit", 0), ("limit", True), ("offset", -1)])
def test_a_bad_page_is_refused_naming_its_field(store, field, value):
    with pytest.raises(InputError) as refused:
        statuspages.inbox_page(store, **{field: value})
    assert refused.value.field == field
    with pytest.raises(InputError):
        statuspages.threads_page(store, "../x")


def test_a_page_asked_again_is_read_again_only_after_a_change(store, settings, db_location):
    mixed_threads(store, settings)
    first = pages_agree(store)
    no_read = mock.patch.object(statusindex, "page_rows", side_effect=AssertionError("the page was read again"))
    no_count = mock.patch.object(statusindex, "open_counts", side_effect=AssertionError("counted again"))
    with no_read, no_count:
        pages_agree(store)  # nothing moved: every page and count as it was read
    runs.resume_thread(store, settings, "w4", "no")  # a write here
    assert pages_agree(store)["w4"].outcome == "refused" != first["w4"].outcome
    code = textwrap.dedent(_WRITE_ELSEWHERE).format(root=str(ROOT), db=db_location)
    done = run_code(code, cwd=ROOT)
    assert done.returncode == 0, done.stderr  # and another process's
    assert pages_agree(store)["w3"].status == "waiting"
    with thread_lease(store, "w3"):  # a lease that starts moves the pages too
        pages_agree(store, running={"w3"})
