"""The index of threads: every thread's head, count and agent, and what waits at each head.

Home, every agent page, the explorer's pickers, the lifecycle and the CLI list threads from here. It
reads two queries over the checkpointer's key columns and interrupt writes (:mod:`agents.readsql`) and
decodes only what it has not decoded before: what a checkpoint fixes is cached per store
(:mod:`agents.readcache`), under keys that name the checkpoint, so a cached answer can never be stale.
``python benchmarks/bench_inbox_scale.py --without caches`` measures what the caches save.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from agents import readcache, readmodel, tasknames
from agents.damaged import DamagedValueError
from agents.db import Store
from agents.loaded import is_instance
from agents.readsql import Rows

V = TypeVar("V")


@dataclass(frozen=True)
class ThreadIndex:
    """Every thread's head and what waits at it, as read at one moment (see :func:`thread_index`).

    Attributes:
        threads: Each thread, newest head first.
        pending: Unanswered interrupts at thread heads, oldest first.
    """

    threads: tuple[readmodel.ThreadSummary, ...]
    pending: tuple[readmodel.PendingInterrupt, ...]


def thread_index(store: Store) -> ThreadIndex:
    """Every thread's head, count and agent, and every unanswered interrupt at a head.

    Two queries over key columns and interrupt writes. What a checkpoint fixes is cached per store
    (:mod:`agents.readcache`): a thread's agent under (thread, first checkpoint), a decoded interrupt
    under its row, so a read decodes only what is new. Where the store tells when it last changed
    (:meth:`~agents.db.Store.change_token`), the whole index is reused until it does.
    """
    token = store.change_token()
    memo = readcache.cache_for(store, "thread-index", size=1)
    found = memo.lookup("index") if token is not None else None
    if found is not None and found[0] == token:
        return found[1]
    index = _read(store, None, found[1].threads if found is not None else ())
    if token is not None:
        memo.put("index", (token, index))
    return index


def thread_of(store: Store, thread_id: str) -> ThreadIndex:
    """One thread's entry and what waits at its head (empty: no such thread), read for it alone.

    What an operation reads of the thread it acted on: the same queries kept to one thread, so its
    cost does not grow with the other threads in the file.
    """
    return _read(store, thread_id)


def _read(store: Store, only: str | None, known: tuple[readmodel.ThreadSummary, ...] = ()) -> ThreadIndex:
    """The index as the database holds it now; a thread whose head is one of ``known``'s keeps its summary.

    A summary is fixed by its thread's head (and count), so one read before is used as it is: a read
    after a write makes summaries only for the threads that moved. A thread no checkpoint names an
    agent of yet is asked again.
    """
    agents = readcache.cache_for(store, "thread-agent")
    before = {s.thread_id: s for s in known if s.agent != "unknown"}
    summaries: dict[str, readmodel.ThreadSummary] = {}
    with store.read() as cursor:
        heads = store.queries.heads(cursor, only)
        rows = store.queries.head_interrupts(cursor, only)
        found: dict[str, str | None] = {}
        unnamed = []
        for thread_id, count, first, head in heads:
            same = before.get(thread_id)
            if same is not None and (same.head_checkpoint_id, same.checkpoint_count) == (head, int(count)):
                summaries[thread_id], found[thread_id] = same, same.agent
                continue
            found[thread_id] = agents.lookup((thread_id, first))
            if found[thread_id] is None:
                unnamed.append((thread_id, first))
        # The first checkpoints of the threads not named yet, in one query per 400 (a new process reads
        # them all); a thread whose first checkpoint names none is asked alone.
        named: dict[str, str | None] = dict(store.queries.agents_at(cursor, unnamed)) if len(unnamed) > 1 else {}
        for thread_id, first in unnamed:
            owner = named.get(thread_id) or store.queries.agent(cursor, thread_id)
            if owner is not None:  # a later checkpoint may still name it
                agents.put((thread_id, first), owner)
            found[thread_id] = owner
        owners = {thread_id: owner or "unknown" for thread_id, owner in found.items()}
        pending = _pending(store, cursor, rows, owners)
    threads = sorted(
        (
            summaries.get(t) or readmodel.ThreadSummary(t, owners[t], readmodel.checkpoint_time(head), int(count), head)
            for t, count, _first, head in heads
        ),
        key=lambda s: s.head_checkpoint_id,
        reverse=True,
    )
    return ThreadIndex(tuple(threads), tuple(pending))


def _pending(store: Store, cursor: Any, rows: Rows, owners: dict[str, str]) -> list[readmodel.PendingInterrupt]:
    """Decoded interrupts of ``head_interrupts`` rows; each row is decoded and named once per process."""
    decoded = readcache.cache_for(store, "interrupt")
    found = []
    for thread_id, checkpoint_id, task_id, task_path, type_, blob in rows:
        key = (thread_id, checkpoint_id, task_id, task_path, type_, bytes(blob))
        items = decoded.lookup(key)
        if items is None:
            node = tasknames.node_of(task_id, task_path or "", _task_node(cursor, thread_id, task_id, task_path or ""))
            try:
                saved = store.saver.serde.loads_typed((type_, blob))
            except DamagedValueError:  # no question can be read: the lifecycle shows the thread as damaged
                continue
            if not isinstance(saved, list | tuple):
                continue
            items = tuple(
                (
                    node,
                    item.value if is_instance(item, "langgraph.types", "Interrupt") else item,
                    getattr(item, "id", ""),
                )
                for item in saved
            )
            decoded.put(key, items)
        for node, payload, interrupt_id in items:
            found.append(
                readmodel.PendingInterrupt(
                    thread_id, owners.get(thread_id, "unknown"), checkpoint_id, node, payload, interrupt_id
                )
            )
    return found


def _task_node(cursor: Any, thread_id: str, task_id: str, task_path: str) -> dict[str, str]:
    """The node-log name of one task, unless its task path names its node already.

    Read without writing this process's queued calls first: a call that ends in an interrupt is written
    before LangGraph saves the interrupt (``agents.nodelog``), so a waiting task's row is on disk.
    """
    if task_path.startswith(tasknames.PULL_PREFIX):
        return {}
    cursor.execute("SELECT node FROM node_log WHERE thread_id = ? AND task_id = ? LIMIT 1", (thread_id, task_id))
    row = cursor.fetchone()
    return {task_id: row[0]} if row else {}


def list_threads(store: Store, agent: str | None = None) -> list[readmodel.ThreadSummary]:
    """Every thread (or one agent's), newest first, with its checkpoint count (no checkpoint is decoded).

    A thread's status is the lifecycle's (:mod:`agents.lifecycle`), which needs the agents' rules.
    """
    return [s for s in thread_index(store).threads if agent is None or s.agent == agent]


def pending_interrupts(store: Store, thread_id: str | None = None) -> list[readmodel.PendingInterrupt]:
    """Everything waiting for a human, across agents (or in one thread), oldest first."""
    if thread_id is not None:
        return list(thread_of(store, thread_id).pending)
    return list(thread_index(store).pending)


def head_values(store: Store, thread_id: str, checkpoint_id: str) -> dict[str, Any] | None:
    """A checkpoint's agent state (internal channels left out), decoded once per process.

    The dict is shared by every caller: read it, never change it. None: no such checkpoint.
    """

    def decode() -> dict[str, Any] | None:
        saved = readmodel.saved_tuple(store, thread_id, checkpoint_id)
        if saved is None:
            return None
        channel_values = saved.checkpoint.get("channel_values", {})
        return {k: v for k, v in channel_values.items() if not readmodel.is_internal_channel(k)}

    values = readcache.cache_for(store, "values").lookup((thread_id, checkpoint_id))
    if values is None:
        values = decode()
        if values is not None:
            readcache.cache_for(store, "values").put((thread_id, checkpoint_id), values)
    return values


def while_unchanged(store: Store, name: str, key: Hashable, compute: Callable[[], V]) -> V:
    """``compute()``, reused while the database is unchanged (where the store can tell; else computed).

    For reads that depend on more than one checkpoint (a thread's chain, its writes): the result is
    kept under (``key``, the store's change token) and shared; callers must not change it.
    """
    token = store.change_token()  # read before the data it guards
    if token is None:
        return compute()
    memo = readcache.cache_for(store, f"unchanged:{name}", size=16)
    found = memo.lookup(key)
    if found is not None and found[0] == token:
        return cast(V, found[1])
    value = compute()
    memo.put(key, (token, value))
    return value
