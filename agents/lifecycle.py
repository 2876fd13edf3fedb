"""The thread lifecycle: one status per thread, computed the same way everywhere.

Home's inbox, every agent page, the explorer, the CLI (``threads``, ``inbox``)
and every operation's result read a thread's status from here, so a thread
can never be "waiting" on one screen and missing from another.

| status      | meaning                                                          |
|-------------|------------------------------------------------------------------|
| ``waiting`` | an interrupt awaits a human: the question and how to answer      |
| ``attention``| it can neither finish nor ask by itself (edited and not continued,|
|             | stopped by a crash or a cancel, a node raised, or inconsistent;  |
|             | or no agent registered here runs it): a reason and the action    |
|             | that resolves it                                                 |
| ``running`` | a live process holds its lease                                   |
| ``done``    | finished, with the agent's outcome                               |

"Inconsistent" is the agent's word: each :class:`~agents.spec.AgentSpec` says,
from a finished thread's values, what its outcome is or why it is not a
believable end (a refund marked finished with neither a payout nor a rejection).
"""

from __future__ import annotations

import datetime as dt
import threading
from collections import Counter
from collections.abc import Callable, Collection, Mapping
from dataclasses import replace
from typing import Any, cast

from agents import (
    ages,
    changefeed,
    headdamage,
    nodelog,
    readcache,
    readmodel,
    runtime,
    statusindex,
    statuslists,
    summarytable,
    threadindex,
)
from agents.damaged import DamagedValueError
from agents.db import Store
from agents.errors import InputError
from agents.leases import live_leases
from agents.registry import AGENTS, get_agent
from agents.spec import AgentSpec
from agents.strings import STRINGS
from agents.texts import Text, text
from agents.threadstatus import ACTIONS as ACTIONS
from agents.threadstatus import UNFINISHED as UNFINISHED
from agents.threadstatus import ThreadStatus as ThreadStatus
from agents.threadstatus import item_total as item_total
from agents.threadstatus import says_count as says_count
from agents.threadstatus import waiting_words as waiting_words
from agents.threadstatus import with_counts as with_counts
from agents.validation import is_dashboard_thread_id, validate_thread_id


def _question(payload: Any) -> str:
    if isinstance(payload, dict) and isinstance(payload.get("question"), str):
        return payload["question"]
    return readmodel.to_json(payload).replace("\n", " ")


def _error_text(error: Any) -> str:
    return f"{type(error).__name__}: {error}" if isinstance(error, BaseException) else str(error)


def _unfinished(source: str, next_nodes: tuple[str, ...], errors: list[str]) -> tuple[str, Text, str]:
    """(reason code, reason, action) of a thread that has nodes left to run and asks nothing.

    A node with several tasks left (the ``Send`` tasks of a fan-out) is named once, with their count: ``research ×3``.
    """
    counts = Counter(next_nodes)  # in the order LangGraph gave them
    nodes = ", ".join(node if count == 1 else f"{node} ×{count}" for node, count in counts.items())
    if errors:
        return "error", text(STRINGS, "lifecycle.error", error=errors[0]), "rerun"
    if source in ("update", "fork"):
        return "edited", text(STRINGS, "lifecycle.edited", nodes=nodes), "continue"
    # A cancelled run (the HTTP API's runs.cancel) and a killed one leave the same head: the words say either.
    return "stopped", text(STRINGS, "lifecycle.stopped", nodes=nodes), "continue"


#: What LangGraph's state at a head reads besides the head checkpoint: its writes' keys (task, index,
#: channel) and the error a task wrote (see ``readsql.ReadQueries.head_writes``). A write is only ever
#: added, or replaced under its own key, so the mark changes whenever that state may have. Last, the
#: newest node-log row of the thread: a new call adds one. A call's end updates its row, so a verdict
#: read while a left task's call is still running is not kept (see ``nodelog.latest_calls``).
HeadMark = tuple[tuple[Any, ...], ...]
#: A newly computed settled status to keep, with the mark of its stuck head (None: a finished head).
Learned = tuple[summarytable.SettledRow, HeadMark | None]


def _head_marks(store: Store, heads: list[tuple[str, str]]) -> dict[str, HeadMark]:
    """Thread id → the mark of its head, for these (thread id, head id) pairs, in one query per 400."""
    if not heads:
        return {}
    found: dict[str, list[tuple[Any, ...]]] = {thread_id: [] for thread_id, _head in heads}
    with store.read() as cursor:
        for thread_id, task_id, idx, channel, error in store.queries.head_writes(cursor, heads):
            found[thread_id].append((task_id, idx, channel, b"" if error is None else bytes(error)))
    logged = nodelog.latest_row_ids(store, list(found))
    return {thread_id: (*sorted(rows), ("node_log", logged.get(thread_id))) for thread_id, rows in found.items()}


def _settled(
    store: Store,
    summary: readmodel.ThreadSummary,
    running: bool,
    pending: dict[str, Any],
    kept: summarytable.SettledRow | None,
    mark: HeadMark | None,
    learned: list[Learned],
    ended: dict[str, Any] | None = None,
) -> ThreadStatus | None:
    """The status of one thread at its head (None: it was deleted while it was being read).

    ``kept`` is the thread's settled status as the summary table holds it, already checked against the
    head (see ``_statuses``); without it, a head that neither runs nor waits is read through LangGraph
    and its settled status added to ``learned``, for the caller to keep (a stuck head's only once it has
    checked that ``mark``, read before the state, did not move meanwhile). ``ended``: the state at this
    head of a run that ended the thread there (nothing left to run), taken instead of reading it again.
    """
    thread_id, agent, head = summary.thread_id, summary.agent, summary.head_checkpoint_id

    def status(
        kind: str,
        outcome: str = "",
        code: str = "",
        reason: str | Text = "",
        action: str = "",
        payload: Any = None,
    ) -> ThreadStatus:
        count, words = summary.checkpoint_count, reason if isinstance(reason, Text) else None
        since = summary.updated_at if kind in UNFINISHED else None
        return ThreadStatus(
            thread_id,
            agent,
            kind,
            outcome,
            code,
            str(reason),
            action,
            summary.updated_at,
            count,
            head,
            payload,
            words,
            since,
        )

    def keep(kind: str, outcome: str, code: str, reason: str | Text, action: str, **marks: str) -> None:
        since = summary.updated_at.isoformat() if kind in UNFINISHED else None
        row = summarytable.SettledRow(
            thread_id, head, agent, kind, outcome, code, reason, action, since,
            marks.get("head_mark", ""), marks.get("outcome_key", ""), marks.get("outcome_mark", ""),
        )  # fmt: skip
        learned.append((row, mark if row.head_mark else None))

    if running:
        return status("running", code="running", reason=text(STRINGS, "lifecycle.running"), action="wait")
    spec = AGENTS.get(agent)
    # No agent named: maybe its metadata cannot be read.
    if spec is None and (damage := headdamage.damage(store, thread_id, head)) is not None:
        return status("attention", code="damaged", reason=_damaged(thread_id, damage), action="delete")
    if spec is None:  # no graph here can say what runs next or take an answer: shown, never taken for done
        reason = text(STRINGS, "lifecycle.unknown_agent", agent=repr(agent), thread=thread_id)
        return status("attention", code="unknown_agent", reason=reason, action="delete")
    if thread_id in pending and (damage := headdamage.damage(store, thread_id, head)) is not None:
        return status("attention", code="damaged", reason=_damaged(thread_id, damage), action="delete")
    if thread_id in pending:
        payload = pending[thread_id]  # the question as the run asked it; ``reason_in`` translates it
        return status("waiting", code="question", reason=_question(payload), action="answer", payload=payload)
    if kept is not None:
        return status(kept.status, kept.outcome, kept.reason_code, kept.reason, kept.action)
    if ended is not None:
        return _finished_head(store, spec, thread_id, ended, status, keep)
    # LangGraph itself says what runs next (branches, joins, Sends) and which task raised, read at the
    # head that was listed (a checkpoint never changes, so what is read at it stays true of it).
    config = {"configurable": {"thread_id": thread_id, "checkpoint_ns": "", "checkpoint_id": head}}
    try:
        snapshot = runtime.graph(store, agent).get_state(config)
    except DamagedValueError as error:
        return status("attention", code="damaged", reason=_damaged(thread_id, error.detail), action="delete")
    if snapshot.created_at is None:  # deleted while it was being read
        return None
    if snapshot.next:  # read at the head, not live: ``next`` names its finished tasks too
        source = str((snapshot.metadata or {}).get("source", ""))
        errors = [_error_text(task.error) for task in snapshot.tasks if task.error is not None]
        left_tasks = [task for task in snapshot.tasks if task.result is None]
        in_flight = False
        if not errors and left_tasks:  # an error LangGraph could not save is in the node log
            calls = nodelog.latest_calls(store, thread_id, [task.id for task in left_tasks])
            ends = [calls[task.id] for task in left_tasks if task.id in calls]
            errors = [error for status, error in ends if status == "error"]
            # A call still running may yet end in an error: the row is updated then, and the mark
            # (the newest row's id) does not move, so this verdict is not kept.
            in_flight = any(status == "running" for status, _error in ends)
        left = tuple(task.name for task in left_tasks) or tuple(snapshot.next)
        code, reason, action = _unfinished(source, left, errors)
        if mark is not None and not in_flight:
            keep("attention", "", code, reason, action, head_mark=summarytable.mark_digest(mark))
        return status("attention", code=code, reason=reason, action=action)
    return _finished_head(store, spec, thread_id, dict(snapshot.values), status, keep)


def _finished_head(
    store: Store,
    spec: AgentSpec,
    thread_id: str,
    values: dict[str, Any],
    status: Callable[..., ThreadStatus],
    keep: Callable[..., None],
) -> ThreadStatus:
    """The status of a head that neither runs nor waits, from its ``values``: done with the agent's
    outcome, or inconsistent. Its outcome may also read the agent's own tables (the refund ledger), whose
    rows are marked before the outcome reads them, so a row that changes meanwhile leaves an old mark
    (``status`` and ``keep`` are ``_settled``'s)."""
    key = spec.show.outcome_key(values)
    marks = {"outcome_key": key, "outcome_mark": spec.show.outcome_mark(store, key)}
    outcome, problem = spec.show.finished_outcome(store, thread_id, values)
    if problem:
        keep("attention", "", "inconsistent", problem, "rerun", **marks)
        return status("attention", code="inconsistent", reason=problem, action="rerun")
    keep("done", outcome, "", "", "", **marks)
    return status("done", outcome=outcome)


def _damaged(thread_id: str, detail: str) -> Text:
    return text(STRINGS, "lifecycle.damaged", error=detail, thread=thread_id)


def _as_acted_on(found: ThreadStatus) -> ThreadStatus:
    """The status as the dashboard can act on it: a thread waiting or needing attention under an id the
    dashboard does not act on (`thread_named`) needs attention for that, never an answer here, which would
    land on its look-alike. Finished or running, it stays as it is."""
    if found.status not in ("waiting", "attention") or is_dashboard_thread_id(found.thread_id):
        return found
    why = _foreign_id_problem(found.thread_id)
    words = text(STRINGS, "lifecycle.foreign_id", thread=repr(found.thread_id), why=why)
    return replace(
        found,
        status="attention",
        waiting_since=found.updated_at,
        reason_code="foreign_id",
        reason=str(words),
        action="delete",
        payload=None,
        reason_text=words,
    )


def thread_named(store: Store, thread_id: Any, *, exact: bool = False) -> str:
    """The id of the thread a request names: ``thread_id`` as `validate_thread_id` returns it, unless
    other software saved a thread under exactly ``thread_id``, an id the dashboard does not act on.

    Every path that reads, changes or deletes a thread takes its id from here, so a request that names
    such a thread never acts on its look-alike (``cafe\u0301`` on ``café``, `` x`` on ``x``).

    Args:
        store: The database.
        thread_id: The id as the request gave it.
        exact: Such a thread is read or deleted as it is named (True), else the request is refused.

    Raises:
        InputError: The id is not a valid thread id and names no saved thread, or it names such a
            thread and ``exact`` is False; nothing was changed.
    """
    try:
        canonical = validate_thread_id(thread_id)
    except InputError:
        if not _saved_as_named(store, thread_id):
            raise
    else:
        if canonical == thread_id or not _saved_as_named(store, thread_id):
            return canonical
    if exact:
        return str(thread_id)
    why = _foreign_id_problem(str(thread_id))
    raise InputError("thread_id", text(STRINGS, "error.foreign_thread_id", thread=repr(thread_id), why=why))


def _saved_as_named(store: Store, thread_id: Any) -> bool:
    """Whether a thread is saved under exactly ``thread_id``; text no database can hold (a lone surrogate,
    a NUL, which PostgreSQL refuses) names none."""
    if not isinstance(thread_id, str) or "\x00" in thread_id:
        return False
    try:
        thread_id.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return readmodel.head_checkpoint_id(store, thread_id) is not None


def _foreign_id_problem(thread_id: str) -> Text | str:
    """Why the dashboard does not act on a saved thread's id, in words."""
    try:
        canonical = validate_thread_id(thread_id)
    except InputError as error:
        return getattr(error, "text", error.message)
    return text(STRINGS, "lifecycle.foreign_id.normal_form", canonical=repr(canonical))


def _kept_rows(
    store: Store, settled: list[readmodel.ThreadSummary], present: set[str] | None, changed: Collection[str] = ()
) -> tuple[dict[str, summarytable.SettledRow], dict[str, HeadMark]]:
    """The summary table's rows of these threads that still hold, and the marks of the heads not known
    to be finished (read before the states they guard, in one query per 400).

    A row holds when it was computed at the thread's head for its agent and, for a stuck head, its
    writes and node-log row are as they were, or, for a finished one, the agent's rows its outcome read.
    ``changed``: threads the database noted a change of since they were last read in this process.
    """
    heads = [(s.thread_id, s.head_checkpoint_id, s.agent) for s in settled]
    rows, unchanged = summarytable.stored_rows(store, heads, present)
    unchanged -= set(changed)
    unsure = [
        (s.thread_id, s.head_checkpoint_id) for s in settled if s.thread_id not in rows or rows[s.thread_id].head_mark
    ]
    marks = _head_marks(store, unsure)
    finished = [row for row in rows.values() if not row.head_mark]
    outcome_marks = _outcome_marks(store, finished)
    kept = {}
    for thread_id, row in rows.items():
        if row.head_mark:
            holds = thread_id in marks and row.head_mark == summarytable.mark_digest(marks[thread_id])
        else:
            holds = outcome_marks[row.agent].get(row.outcome_key, "") == row.outcome_mark
        if holds:
            kept[thread_id] = row
    # A row says what its head held when it was read; a head damaged in place since (its bytes rewritten
    # under the same id) is read again, by LangGraph, which says so. The database notes such a rewrite
    # (:mod:`agents.changefeed`), so only a row of a thread changed since is checked (once per head and
    # process), and every row where the database notes no changes.
    made = readcache.cache_for(store, "kept-statuses")
    unchecked = [
        (thread_id, row.head_checkpoint_id)
        for thread_id, row in kept.items()
        if thread_id not in unchanged
        and (thread_id in changed or (before := made.lookup(thread_id)) is None or before[0] is not row)
    ]
    for thread_id in headdamage.damages(store, unchecked, blobs_only=True, again=changed):
        del kept[thread_id]
    return kept, marks


def _outcome_marks(store: Store, rows: list[summarytable.SettledRow]) -> dict[str, dict[str, str]]:
    """Agent → outcome key → the mark of the agent's rows now, for these finished rows: one read per agent."""
    keys: dict[str, list[str]] = {}
    for row in rows:
        if row.outcome_key:
            keys.setdefault(row.agent, []).append(row.outcome_key)
    found: dict[str, dict[str, str]] = {name: {} for name in {row.agent for row in rows}}
    for name, wanted in keys.items():
        found[name] = AGENTS[name].show.marks_of(store, wanted)
    return found


def _statuses(
    store: Store,
    summaries: list[readmodel.ThreadSummary],
    pending: dict[str, Any],
    running: Collection[str],
    present: set[str] | None = None,
    *,
    seen: int | None = None,
    changed: Collection[str] = (),
    ended: Mapping[str, dict[str, Any]] | None = None,
) -> list[ThreadStatus]:
    """The statuses of these threads: settled ones from the summary table where its rows still hold, the
    others read through LangGraph and then kept there. ``present``: every thread, when all are read.
    ``seen``: the change feed's position taken before anything was read (kept with the rows);
    ``changed``: threads the database noted a change of since this process last read them; ``ended``:
    thread id → the state a run ended it with at the head listed (see ``_settled``)."""
    ended = ended or {}
    # A head a run ended with its state given has no kept row to look up (the run made it) nor marks to
    # read before its state (its state is not read): the marks guard a stuck head's state read after them.
    unsettled = {*running, *pending, *ended}
    settled = [s for s in summaries if s.thread_id not in unsettled and s.agent in AGENTS]
    kept, marks = _kept_rows(store, settled, present, changed)
    headdamage.damages(
        store, [(s.thread_id, s.head_checkpoint_id) for s in summaries if s.thread_id in pending], again=changed
    )
    learned: list[Learned] = []
    # A status made from a kept row is made once per process: the row (the same object while mirrored)
    # and the thread's index entry fix it.
    made = readcache.cache_for(store, "kept-statuses")
    found: list[ThreadStatus] = []
    for s in summaries:
        row = kept.get(s.thread_id)
        if row is None:
            mark, at_end = marks.get(s.thread_id), ended.get(s.thread_id)
            status = _settled(store, s, s.thread_id in running, pending, None, mark, learned, at_end)
            if status is not None:
                found.append(_as_acted_on(status))
            continue
        before = made.lookup(s.thread_id)
        if before is not None and before[0] is row and before[1] == s:
            found.append(before[2])
            continue
        status = _as_acted_on(cast(ThreadStatus, _settled(store, s, False, pending, row, None, learned)))
        made.put(s.thread_id, (row, s, status))
        found.append(status)
    if learned:  # a stuck head's status is kept only where no write landed while its state was read
        again = _head_marks(store, [(row.thread_id, row.head_checkpoint_id) for row, mark in learned if mark])
        holding = [row for row, mark in learned if mark is None or again.get(row.thread_id) == mark]
        summarytable.save(store, [replace(row, seen=seen) for row in holding])
    return found


#: Changed threads a read after a write reads one by one; beyond, it reads every thread.
_CHANGED_AT_ONCE = 64


def thread_statuses(store: Store, agent: str | None = None) -> list[ThreadStatus]:
    """Every thread (or one agent's), newest first, each with its one status.

    Every thread's status is read at once, and one agent's are taken from them, so a page that lists
    several agents reads each status once. A status depends on the database and on which leases are
    live (a lease lapses with time, not with a write). Where the database notes which threads changed
    (:mod:`agents.changefeed`), a read after a write reads those threads alone and keeps the others'
    statuses; elsewhere, where the store tells when it changed, the list is reused while neither has.

    Raises:
        InputError: ``agent`` names no registered agent (``../x``, ``""``): bad input, never an empty list.
    """
    if agent is not None:
        get_agent(agent)
    known = _known_view(store, agent, newest_first=True, unfinished=False)
    if known is not None:
        return known
    token = store.change_token()  # read before anything it guards
    running = live_leases(store)
    memo = readcache.cache_for(store, "statuses", size=16)
    key = (token, frozenset(running))
    if token is not None and (found := memo.lookup((*key, agent))) is not None:
        return list(found)
    every = memo.lookup((*key, None)) if token is not None else None
    if every is None:
        every = tuple(_every_status(store, running, None))
    found = every if agent is None else tuple(s for s in every if s.agent == agent)
    if token is not None:
        memo.put((*key, None), every)
        memo.put((*key, agent), found)
    return list(found)


def _every_status(store: Store, running: Collection[str], seen: int | None) -> list[ThreadStatus]:
    """Every thread's status, read from the whole index (``seen``: the change feed's position before it)."""
    index = threadindex.thread_index(store)
    pending = {p.thread_id: p.payload for p in reversed(index.pending)}
    present = {s.thread_id for s in index.threads}
    statuses = _statuses(store, list(index.threads), pending, running, present, seen=seen)
    return with_counts(statuses, list(index.pending))


_KNOWN_LOCK = threading.Lock()


def _known_view(store: Store, agent: str | None, *, newest_first: bool, unfinished: bool) -> list[ThreadStatus] | None:
    """Every status now (or one agent's, or the unfinished ones), read for the threads the database noted
    changes of since the last read (all of them the first time); None where the database notes no changes."""
    memo = readcache.cache_for(store, "known-statuses", size=1)
    with _KNOWN_LOCK:
        known: statuslists.StatusLists[ThreadStatus] | None = memo.lookup("known")
        if known is None:
            known = statuslists.StatusLists(-1, frozenset(), {})
            memo.put("known", known)
    with known.lock:  # one reader brings it up to date, the others then find it so
        if known.position >= 0 and _caught_up(store, known):
            return known.view(agent, newest_first=newest_first, unfinished=unfinished)
        start = changefeed.position(store)  # before anything it guards
        if start is None:
            return None
        running = frozenset(live_leases(store))
        statuses = _listed(store, running, start)
        known.statuses, known.views = {}, {}
        known.update(start, running, set(), statuses)
        return known.view(agent, newest_first=newest_first, unfinished=unfinished)


def _listed(store: Store, running: frozenset[str], start: int) -> list[ThreadStatus]:
    """Every thread's status, for a process that has none (or fell too far behind): the kept rows that
    still hold (:mod:`agents.statusindex`), and the other threads read again; every thread read when
    the table cannot say which threads there are, or too many of its rows no longer hold."""
    kept = statusindex.read(store)
    if kept is not None:
        # A row's ``running`` is checked against the leases live now (a lease lapses with time), and a row
        # of an agent not registered here (or then) is read again, by this process's agents.
        redo = kept.stale | {
            t
            for t, s in kept.statuses.items()
            if (s.status == "running") != (t in running) or s.agent not in AGENTS or s.reason_code == "unknown_agent"
        }
        redo |= running - kept.statuses.keys()
        if len(redo) <= _CHANGED_AT_ONCE + len(kept.statuses) // 20:
            fresh, gone = _read_threads(store, redo, running, start)
            statusindex.save(store, fresh, start, gone=gone, complete=True)
            return [s for t, s in kept.statuses.items() if t not in redo] + fresh
    statuses = _every_status(store, running, start)
    deleted = statusindex.kept_ids(store) - {s.thread_id for s in statuses}  # rows of threads gone since
    statusindex.save(store, statuses, start, gone=deleted, complete=True)
    return statuses


def _read_threads(
    store: Store, thread_ids: Collection[str], running: Collection[str], seen: int
) -> tuple[list[ThreadStatus], list[str]]:
    """(the statuses of these threads, each read for it alone; the ones no longer there)."""
    summaries: list[readmodel.ThreadSummary] = []
    pending: dict[str, Any] = {}
    waiting: list[readmodel.PendingInterrupt] = []
    for thread_id in sorted(thread_ids):
        index = threadindex.thread_of(store, thread_id)  # read for this thread alone
        summaries += index.threads
        pending.update({p.thread_id: p.payload for p in reversed(index.pending)})
        waiting += index.pending
    statuses = with_counts(_statuses(store, summaries, pending, running, seen=seen, changed=thread_ids), waiting)
    found = {s.thread_id for s in statuses}
    return statuses, [thread_id for thread_id in thread_ids if thread_id not in found]


def _caught_up(store: Store, known: statuslists.StatusLists[ThreadStatus]) -> bool:
    """Reads the threads changed since ``known`` was read into it, and keeps their rows in the index;
    False when there are too many to."""
    changes = changefeed.changed_since(store, known.position)
    if changes is None:
        return False
    position, changed = changes
    running = frozenset(live_leases(store))
    changed |= known.running ^ running
    if len(changed) > _CHANGED_AT_ONCE:
        return False
    if changed:
        statuses, gone = _read_threads(store, changed, running, position)
        statusindex.save(store, statuses, position, gone=gone)
        known.update(position, running, changed, statuses)
    else:
        known.position, known.running = position, running
    return True


def thread_status(
    store: Store, thread_id: str, *, held: bool = False, ended: tuple[str, dict[str, Any]] | None = None
) -> ThreadStatus | None:
    """One thread's status, or None when there is no such thread.

    ``held``: the caller holds the thread's lease (its run has just ended, and no other process can
    change the thread until it lets go): the status as that run left it, never ``running`` for the
    caller's own lease. Read so, an operation reports what it did, not what another process that takes
    the thread the moment the lease is let go is doing.

    ``ended``: (head, state) of a run that ended the thread there, no task left to run, as the run gave
    them: while that is still the head, its status is made from that state, not read again through
    LangGraph (a checkpoint never changes, so the state a run saved at it is the state there).
    """
    seen = changefeed.position(store)  # before anything it guards
    index = threadindex.thread_of(store, thread_id)  # read for this thread alone
    summary = next(iter(index.threads), None)
    if summary is None:
        return None
    pending = {p.thread_id: p.payload for p in reversed(index.pending)}
    running = () if held else live_leases(store)
    at_end = {summary.thread_id: ended[1]} if ended is not None and ended[0] == summary.head_checkpoint_id else None
    statuses = _statuses(store, [summary], pending, running, seen=seen, ended=at_end)
    found = with_counts(statuses, list(index.pending))
    return found[0] if found else None


def unfinished(statuses: list[ThreadStatus]) -> list[ThreadStatus]:
    """The inbox of already-read statuses: every thread not done, oldest first (then by thread id)."""
    return sorted((s for s in statuses if s.status != "done"), key=lambda s: (s.head_checkpoint_id, s.thread_id))


def inbox(store: Store, agent: str | None = None) -> list[ThreadStatus]:
    """Every thread that is not done (waiting, attention, running), oldest first: nothing waits unseen."""
    if agent is not None:
        get_agent(agent)
    known = _known_view(store, agent, newest_first=False, unfinished=True)
    if known is not None:
        return known
    return unfinished(thread_statuses(store, agent))


def is_overdue(status: ThreadStatus, deadlines: Mapping[str, int], now: dt.datetime) -> bool:
    """Whether an unfinished thread is past its agent's deadline (``Settings.deadlines``) at ``now``."""
    return ages.is_overdue(status.waiting_since, deadlines.get(status.agent), now)


def overdue(statuses: list[ThreadStatus], deadlines: Mapping[str, int], now: dt.datetime) -> list[ThreadStatus]:
    """The threads among ``statuses`` that are past their agent's deadline at ``now``, in the same order."""
    return [status for status in statuses if is_overdue(status, deadlines, now)]
