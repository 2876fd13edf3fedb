"""Each thread's settled status, kept in the database beside its threads and checked against its head.

What a thread's status costs to find out is LangGraph's state at its head (``get_state``: the checkpoint
decoded, its writes, the graph's next tasks). A head that waits or runs is read from cheap queries each
time; one that is finished, or stuck with nothing to ask, is settled: its status changes only when its
head does (a new checkpoint), when its head's writes or node-log rows do (a run resumed and killed), or,
for a finished head, when the agent's own rows its outcome reads do (a refund's payout). So the
lifecycle (:mod:`agents.lifecycle`) keeps each settled status here, with what it was computed from:

* the head checkpoint id and the agent;
* for a stuck head, a digest of its writes and newest node-log row (``head_mark``);
* for a finished head, the key and mark of the agent's rows its outcome read
  (``AgentSpec.show.outcome_key`` and ``AgentSpec.show.outcome_mark``).

A reader compares those with what the database holds now and uses a row only when all are the same;
any other row is computed again and replaced. The check is in the read, so a write by any path (a page,
the CLI, the API, ``langgraph dev``, another process's raw SQL) and a process killed between its
checkpoint and its row can leave a row behind but never have it served. A row that cannot be written
(a read-only file, a write lock held by another process) is left out: the reader has its status anyway.
Rows of deleted threads are unused (no head names them) and pruned by a reader that reads every row.

Each row also keeps the change feed's position taken before it was computed (``seen``,
:mod:`agents.changefeed`): where the database noted no change of the thread since, nothing the status
reads was written since, the head's own bytes included, so a restarted process does not read the head
again to see whether it was damaged in place.

Rows are also mirrored per process (:mod:`agents.readcache`, under the head they were computed at), so a
reader after a write reads from the table only the threads it has not seen at their heads.

What this table and the status index (:mod:`agents.statusindex`) save a new process is measured by
``python benchmarks/bench_inbox_scale.py --whole --without kept-tables``: every status read by a new
process with both tables and as if both were empty, in turn in the same run.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from agents import readcache
from agents.db import DatabaseError, Store
from agents.schema import SUMMARY_COLUMNS
from agents.texts import Text

logger = logging.getLogger(__name__)

#: Above this many threads not mirrored in the process, the whole table is read in one query.
_READ_ALL_ABOVE = 400
_THREADS_PER_QUERY = 400


@dataclass(frozen=True)
class SettledRow:
    """One thread's settled status and what it was computed from (see the module docstring).

    Attributes:
        thread_id: The thread.
        head_checkpoint_id: The head it was computed at.
        agent: The agent the thread belonged to then.
        status: ``done`` or ``attention``.
        outcome: The agent's outcome when done.
        reason_code: Why it is not done (``edited``, ``stopped``, ``error``, ``inconsistent``); empty when done.
        reason: The same in words.
        action: What resolves it; empty when done.
        waiting_since: When it started to need attention (its head's time, ISO 8601 UTC); None when done.
        head_mark: A stuck head's digest of its writes and node-log row (:func:`mark_digest`); empty for a
            finished head.
        outcome_key: A finished head's key of the agent's rows its outcome read (a refund's case id).
        outcome_mark: Those rows as they were (empty: none).
        seen: The change feed's position taken before the row was computed (:mod:`agents.changefeed`);
            None when unknown.
    """

    thread_id: str
    head_checkpoint_id: str
    agent: str
    status: str
    outcome: str
    reason_code: str
    reason: str | Text
    action: str
    waiting_since: str | None
    head_mark: str
    outcome_key: str
    outcome_mark: str
    seen: int | None = None


def mark_digest(mark: Any) -> str:
    """A short, stable digest of a head's mark (a tuple of its writes' keys and error bytes and a row id);
    made once per mark and process, as every read after a write checks every stuck head's."""
    return _DIGESTS.get(mark, lambda: hashlib.sha256(repr(mark).encode()).hexdigest()[:32])


_DIGESTS: readcache.BoundedCache[str] = readcache.BoundedCache()


def _encode(value: Any) -> Any:
    if isinstance(value, Text):
        return {"key": value.key, "templates": list(value.templates), "params": _encode(dict(value.params))}
    if isinstance(value, dict):
        return {str(name): _encode(item) for name, item in value.items()}
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def _decode_text(data: dict[str, Any]) -> Text:
    params = {name: _decode_text(item) if _is_text(item) else item for name, item in data["params"].items()}
    return Text(data["key"], (data["templates"][0], data["templates"][1]), params)


def _is_text(item: Any) -> bool:
    return isinstance(item, dict) and {"key", "templates", "params"} <= item.keys()


def encode_reason(reason: str | Text) -> str:
    """The reason as stored: JSON of a translatable text (its key, both templates and its values) or of a plain text."""
    return json.dumps({"text": _encode(reason)} if isinstance(reason, Text) else {"plain": reason}, ensure_ascii=False)


def decode_reason(stored: str) -> str | Text:
    """The reason :func:`encode_reason` stored."""
    data = json.loads(stored or '{"plain": ""}')
    return _decode_text(data["text"]) if "text" in data else str(data.get("plain", ""))


def _row_of(values: Sequence[Any]) -> SettledRow:
    fields = dict(zip(SUMMARY_COLUMNS, values, strict=True))
    fields["reason"] = decode_reason(fields["reason"])
    return SettledRow(**fields)


def _mirror(store: Store) -> readcache.BoundedCache[tuple[SettledRow, bool]]:
    return readcache.cache_for(store, "settled-rows")


def stored_rows(
    store: Store, heads: Sequence[tuple[str, str, str]], present: set[str] | None = None
) -> tuple[dict[str, SettledRow], set[str]]:
    """Thread id → its row, for these (thread id, head id, agent), where the row was computed at that head
    for that agent (any other row is not returned). Read from the process's mirror, then from the table.

    Also the threads whose rows are unchanged since: the database noted no change of the thread after
    the row's ``seen`` position (:mod:`agents.changefeed`), so nothing its status reads was written since,
    its head's bytes included.

    ``present``: every thread the database holds now, when the caller read them all; a read of the whole
    table then deletes the rows of threads no longer there (best effort).
    """
    mirror = _mirror(store)
    found: dict[str, SettledRow] = {}
    unchanged: set[str] = set()
    missing = []
    for thread_id, head, agent in heads:
        entry = mirror.lookup((thread_id, head, agent))
        if entry is not None:
            found[thread_id] = entry[0]
            if entry[1]:
                unchanged.add(thread_id)
        else:
            missing.append((thread_id, head, agent))
    if not missing:
        return found, unchanged
    try:
        read = _read(store, [thread_id for thread_id, _head, _agent in missing])
    except DatabaseError as error:  # a read-only file the project never set up (empty, or a saver's alone)
        logger.info("thread summaries not read: %s", error)
        return found, unchanged
    for thread_id, head, agent in missing:
        row, fresh = read.get(thread_id, (None, False))
        if row is not None and (row.head_checkpoint_id, row.agent) == (head, agent):
            found[thread_id] = row
            if fresh:
                unchanged.add(thread_id)
            mirror.put((thread_id, head, agent), (row, fresh))
    if present is not None and len(missing) > _READ_ALL_ABOVE:
        _forget(store, [thread_id for thread_id in read if thread_id not in present])
    return found, unchanged


def _read(store: Store, thread_ids: list[str]) -> dict[str, tuple[SettledRow, bool]]:
    """Thread id → (its row, whether the database noted no change of the thread since the row's ``seen``)."""
    columns = ", ".join(f"s.{column}" for column in SUMMARY_COLUMNS)
    if store.notes_changes:
        select = f"SELECT {columns}, c.seq FROM thread_summaries s LEFT JOIN thread_changes c USING (thread_id)"
    else:
        select = f"SELECT {columns}, NULL FROM thread_summaries s"
    rows: list[Any] = []
    with store.read() as cursor:
        if len(thread_ids) > _READ_ALL_ABOVE:
            cursor.execute(select)
            rows = cursor.fetchall()
        else:
            for start in range(0, len(thread_ids), _THREADS_PER_QUERY):
                chunk = thread_ids[start : start + _THREADS_PER_QUERY]
                cursor.execute(f"{select} WHERE s.thread_id IN ({', '.join('?' * len(chunk))})", chunk)
                rows += cursor.fetchall()
    found = {}
    for values in rows:
        try:
            row = _row_of(values[:-1])
        except (ValueError, KeyError, TypeError, IndexError):  # a row garbled by another writer: computed again
            continue
        changed_at = values[-1]
        fresh = store.notes_changes and isinstance(row.seen, int) and (changed_at is None or changed_at < row.seen)
        found[row.thread_id] = (row, fresh)
    return found


def save(store: Store, rows: Sequence[SettledRow]) -> None:
    """Keeps ``rows`` (one per thread, replacing the thread's row) in the table and the mirror.

    A row that cannot be written (read-only, busy, the table missing from a read-only file the project
    never set up) is logged and left out; the caller's read is not affected.
    """
    mirror = _mirror(store)
    for row in rows:  # the caller checked what it read it from: as fresh as a row found unchanged
        mirror.put((row.thread_id, row.head_checkpoint_id, row.agent), (row, True))
    if not rows or store.read_only:
        return
    updates = ", ".join(f"{column} = excluded.{column}" for column in SUMMARY_COLUMNS[1:])
    sql = (
        f"INSERT INTO thread_summaries ({', '.join(SUMMARY_COLUMNS)}) VALUES ({', '.join('?' * len(SUMMARY_COLUMNS))})"
        f" ON CONFLICT (thread_id) DO UPDATE SET {updates}"
    )
    values = [
        (
            row.thread_id,
            row.head_checkpoint_id,
            row.agent,
            row.status,
            row.outcome,
            row.reason_code,
            encode_reason(row.reason),
            row.action,
            row.waiting_since,
            row.head_mark,
            row.outcome_key,
            row.outcome_mark,
            row.seen,
        )  # fmt: skip
        for row in rows
    ]
    try:
        store.write_if_free(sql, values)
    except Exception as error:  # noqa: BLE001 - a cache that cannot be written must not fail a read
        logger.info("thread summaries not kept (%d threads): %s", len(rows), error)


def _forget(store: Store, thread_ids: list[str]) -> None:
    """Deletes the rows of threads the database no longer holds (best effort, as :func:`save`)."""
    if not thread_ids or store.read_only:
        return
    try:
        store.write_if_free("DELETE FROM thread_summaries WHERE thread_id = ?", [(t,) for t in thread_ids])
    except Exception as error:  # noqa: BLE001 - see save
        logger.info("thread summaries of deleted threads not pruned: %s", error)
