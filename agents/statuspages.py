"""One page of a list of statuses, and the counts by status, asked of the kept index of statuses.

Home, the agents' queues and the navigation show the oldest unfinished threads, each agent's newest
threads and how many wait, need attention, run or are overdue; none of that needs every thread's status.
So they ask the table of statuses (:mod:`agents.statusindex`) for one page of rows in the list's order
(only those rows' questions and head times are decoded), for the overdue counts (a range count per agent)
and for the counts by status (a count per agent and status), both by SQL from indexes, so neither reads a
row per thread, once the table is up to date:

* a process that has not brought it up to date yet reads again only the threads whose rows may not
  hold (:func:`agents.statusindex.stale`: changed since the last complete read, a lease that started or
  lapsed, another process's agents), not every row;
* after that it reads again only the threads the change feed noted since (:mod:`agents.changefeed`).

Where the table cannot serve (a database that notes no changes, a read-only one behind, a row that cannot
be written), the page is cut from the whole list (:func:`agents.lifecycle.inbox`), the same statuses in the
same order. The CLI and the API keep listing every thread from the whole lists.

``python benchmarks/bench_inbox_scale.py`` measures home's data read this way at 200 and 10,000 threads;
with ``--whole``, read from the whole lists instead.
"""

from __future__ import annotations

import datetime as dt
import threading
from collections import Counter
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

from agents import changefeed, lifecycle, readcache, statusindex
from agents.db import Store
from agents.errors import InputError
from agents.leases import live_leases
from agents.registry import AGENTS, get_agent
from agents.threadstatus import ThreadStatus

#: Rows a page shows unless asked for another number.
PAGE_SIZE = 50
#: Threads whose rows may not hold that a new process reads one by one; beyond, it reads every thread.
STALE_AT_ONCE = 512


@dataclass(frozen=True)
class StatusPage:
    """One page of a list.

    Attributes:
        items: The statuses on the page, in the list's order.
        more: Whether the list goes on after them.
    """

    items: list[ThreadStatus]
    more: bool


@dataclass
class _Current:
    """Where this process last brought the table up to date: the change feed's position taken before and
    the leases live then (-1: not yet)."""

    position: int = -1
    running: frozenset[str] = frozenset()
    #: Pages and counts by status read since a row last moved, by what was asked; ``moves`` counts the
    #: moves (one read across a move is not kept).
    pages: dict[tuple[object, ...], StatusPage] = field(default_factory=dict)
    counts: dict[str | None, Counter[str]] = field(default_factory=dict)
    moves: int = 0
    #: The threads read again since the change feed noted their latest change: thread → (that change's
    #: ``seq``, the transactions running when it was read). Kept until the position passes the change.
    read_again: dict[str, tuple[int, frozenset[int]]] = field(default_factory=dict)

    def drop_pages(self) -> None:
        self.pages, self.counts, self.moves = {}, {}, self.moves + 1

    lock: threading.Lock = field(default_factory=threading.Lock)

    def forget(self) -> None:
        self.position = -1
        self.read_again = {}
        self.drop_pages()

    def already_read(self, thread_id: str, seq: int, running: frozenset[int]) -> bool:
        """Whether this process read the thread again after its change ``seq`` and no change it did not see
        can have been committed since.

        On PostgreSQL the position stays at the oldest transaction still running (of another schema of the
        database, say), so a change noted after it is found again at each check until that transaction
        ends. A later change of the thread by a transaction whose id is larger than ``seq`` raises ``seq``;
        one by a transaction with a smaller id leaves ``seq`` as it is (the feed keeps the largest), and such
        a transaction was running when the thread was read (its id was given before ``seq``'s, and it had
        not committed). So the read holds while every one of those is still running.
        """
        read = self.read_again.get(thread_id)
        if read is None or read[0] != seq:
            return False
        return all(txid in running for txid in read[1] if txid < seq)

    def note_read(self, changes: changefeed.Changes, thread_ids: Collection[str]) -> None:
        """Notes these threads as read after ``changes`` were (under ``lock``); forgets the changes the
        position has passed, which no later check finds again."""
        for thread_id, seq in changes.marks.items():
            if thread_id in thread_ids:
                self.read_again[thread_id] = (seq, changes.running)
        self.read_again = {t: read for t, read in self.read_again.items() if read[0] >= changes.position}


_LOCK = threading.Lock()


def inbox_page(store: Store, agent: str | None = None, *, limit: int = PAGE_SIZE, offset: int = 0) -> StatusPage:
    """One page of the inbox (:func:`agents.lifecycle.inbox`): the threads not done, oldest first.

    Raises:
        InputError: ``agent`` names no registered agent, or ``limit`` / ``offset`` is out of range.
    """
    return _page(store, agent, unfinished=True, limit=limit, offset=offset)


def every_unfinished(store: Store, agent: str | None = None) -> list[ThreadStatus]:
    """Every thread of the inbox (or one agent's), oldest first: :func:`inbox_page` of all its rows, read as a
    page is (from the kept index of statuses; a row decoded before is not decoded again).

    Raises:
        InputError: ``agent`` names no registered agent.
    """
    limit = max(1, sum(open_counts(store, agent).values()))
    while (page := inbox_page(store, agent, limit=limit)).more:  # threads came between the count and the page
        limit *= 2
    return page.items


def threads_page(store: Store, agent: str | None = None, *, limit: int = PAGE_SIZE, offset: int = 0) -> StatusPage:
    """One page of every thread (or one agent's), newest first (:func:`agents.lifecycle.thread_statuses`).

    Raises:
        InputError: ``agent`` names no registered agent, or ``limit`` / ``offset`` is out of range.
    """
    return _page(store, agent, unfinished=False, limit=limit, offset=offset)


@dataclass(frozen=True)
class QueuePage:
    """One page of an agent's queue without the thread its page shows.

    Attributes:
        items: The unfinished threads on the page, oldest first, the shown one left out.
        more: Whether the queue goes on after them.
        counts: The whole queue's counts by status, the shown thread's left out.
        left_out: The shown thread's status when it is in the queue (None: it is not).
    """

    items: list[ThreadStatus]
    more: bool
    counts: Counter[str]
    left_out: ThreadStatus | None


def queue_page(store: Store, agent: str, shown: str | None, *, limit: int = PAGE_SIZE) -> QueuePage:
    """The first page of the agent's queue (its inbox, oldest first) without the thread ``shown``, which its
    page shows above; the shown thread's own status is read only when the queue goes on past the page.

    Raises:
        InputError: ``agent`` names no registered agent, or ``limit`` is out of range.
    """
    _check_range(limit, 0)
    page = inbox_page(store, agent, limit=limit + 1)
    left_out = next((s for s in page.items if s.thread_id == shown), None)
    if left_out is None and shown is not None and page.more:  # it may be further on
        found = lifecycle.thread_status(store, shown)
        if found is not None and found.agent == agent and found.status != "done":
            left_out = found
    items = [s for s in page.items if s.thread_id != shown]
    counts = open_counts(store, agent)
    if left_out is not None:
        counts[left_out.status] -= 1
    return QueuePage(items[:limit], page.more or len(items) > limit, +counts, left_out)


def open_counts(store: Store, agent: str | None = None) -> Counter[str]:
    """How many threads (or one agent's) wait, need attention and run: status → count (none of ``done``)."""
    if agent is not None:
        get_agent(agent)
    current = _current(store)
    if current is None:
        return Counter(s.status for s in lifecycle.inbox(store, agent))
    # Counted again once a row moved rather than moved by the threads read again: another process may have
    # rewritten a thread's row before this one reads the thread again, so no row says what was counted.
    moves = current.moves
    if (found := current.counts.get(agent)) is None:
        found = statusindex.open_counts(store, agent)
        with current.lock:
            if current.moves == moves:
                current.counts[agent] = found
    return Counter(found)


def overdue_counts(store: Store, deadlines: Mapping[str, int], now: dt.datetime) -> Counter[str]:
    """How many waiting or attention threads of each agent are past its deadline at ``now``
    (:func:`agents.lifecycle.is_overdue`): agent → count, the agents with a deadline only."""
    if _current(store) is None:
        return Counter(s.agent for s in lifecycle.overdue(lifecycle.inbox(store), deadlines, now))
    found: Counter[str] = Counter()
    for agent, seconds in deadlines.items():
        found[agent] = statusindex.overdue_count(store, agent, now - dt.timedelta(seconds=seconds))
    return +found


def _page(store: Store, agent: str | None, *, unfinished: bool, limit: int, offset: int) -> StatusPage:
    if agent is not None:
        get_agent(agent)
    _check_range(limit, offset)
    for _attempt in range(2):
        current = _current(store)
        if current is None:
            break
        asked, moves = (agent, unfinished, limit, offset), current.moves
        if (found := current.pages.get(asked)) is not None:  # no row moved since it was read
            return StatusPage(list(found.items), found.more)
        rows = statusindex.page_rows(
            store, agent=agent, unfinished=unfinished, newest_first=not unfinished, limit=limit + 1, offset=offset
        )
        items, garbled = statusindex.decoded(store, rows)
        if not garbled:
            found = StatusPage(items[:limit], len(items) > limit)
            with current.lock:
                if current.moves == moves:
                    current.pages[asked] = found
            return StatusPage(list(found.items), found.more)
        # a row another writer left unreadable: its thread is read again, then the page asked again
        with current.lock:
            if not _reread(store, current, garbled, current.running):
                break
    whole = lifecycle.inbox(store, agent) if unfinished else lifecycle.thread_statuses(store, agent)
    whole = sorted(whole, key=lambda s: (s.head_checkpoint_id, s.thread_id), reverse=not unfinished)
    return StatusPage(whole[offset : offset + limit], len(whole) > offset + limit)


def _check_range(limit: int, offset: int) -> None:
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise InputError("limit", "must be a whole number of at least 1")
    if isinstance(offset, bool) or not isinstance(offset, int) or offset < 0:
        raise InputError("offset", "must be a whole number of at least 0")


def _current(store: Store) -> _Current | None:
    """This process's mark of the table, after bringing the table up to date; None when it cannot serve."""
    memo = readcache.cache_for(store, "status-pages", size=1)
    with _LOCK:
        current: _Current | None = memo.lookup("current")
        if current is None:
            current = _Current()
            memo.put("current", current)
    with current.lock:  # one reader brings it up to date, the others then find it so
        if current.position >= 0 and _caught_up(store, current):
            return current
        current.forget()
        changes = changefeed.changes_since(store)  # before anything it guards
        if changes is None:
            return None
        start, running = changes.position, frozenset(live_leases(store))
        redo = statusindex.stale(store, running, AGENTS)
        if redo is None or len(redo) > STALE_AT_ONCE:
            statuses = lifecycle._every_status(store, running, start)  # noqa: SLF001 - the one whole read
            gone = statusindex.kept_ids(store) - {s.thread_id for s in statuses}
            kept = statusindex.save(store, statuses, start, gone=gone, complete=True)
            redo = {s.thread_id for s in statuses} | gone
        elif redo:
            kept = _reread(store, current, redo, running, start, complete=True)
        else:  # every row holds; the mark moves on when it can be written, so later checks start later
            kept = True
            statusindex.save(store, (), start, complete=True)
        if not kept:
            return None
        current.position, current.running = start, running
        current.note_read(changes, redo)
        return current


def _caught_up(store: Store, current: _Current) -> bool:
    """Reads the threads changed since ``current`` into the table; False when there are too many, or
    their rows could not be written (call under ``current.lock``)."""
    changes = changefeed.changes_since(store, current.position)
    if changes is None:
        return False
    position, running = changes.position, frozenset(live_leases(store))
    # A change this process read its thread after is not read again, nor are the pages dropped for it.
    changed = {t for t, seq in changes.marks.items() if not current.already_read(t, seq, changes.running)}
    changed |= current.running ^ running
    if len(changed) > lifecycle._CHANGED_AT_ONCE:  # noqa: SLF001 - the same bound as the whole lists'
        return False
    if changed and not _reread(store, current, changed, running, position):
        return False
    if changed or running != current.running:
        current.drop_pages()
    current.position, current.running = position, running
    current.note_read(changes, changed)
    return True


def _reread(
    store: Store,
    current: _Current,
    thread_ids: Collection[str],
    running: Collection[str],
    seen: int | None = None,
    *,
    complete: bool = False,
) -> bool:
    """Reads these threads again and keeps their rows; whether every row was written (call under
    ``current.lock``)."""
    if seen is None:
        seen = changefeed.position(store)
        if seen is None:
            return False
    fresh, gone = lifecycle._read_threads(store, thread_ids, running, seen)  # noqa: SLF001 - shared reader
    if not statusindex.save(store, fresh, seen, gone=gone, complete=complete):
        return False
    current.drop_pages()
    return True
