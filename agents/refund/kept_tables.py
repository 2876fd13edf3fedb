"""The refund agent's payout tables as a process keeps them: read whole once, then caught up through the
change feed (:mod:`agents.changefeed`), which tells which threads moved, so a read after a change reads
only those threads' rows and every row that did not change stays the same object.

Lists of 10,000 refund threads ask for every case's payout on each rerun (``agents.refund.ledger``): they are
answered from the rows kept here, under the store's change token. ``benchmarks/bench_refund_reruns.py``
measures the refund page's reruns with them (``--base`` against a commit before them).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from agents import changefeed, readcache
from agents.db import Store
from agents.readsql import rows_in

#: The key of a kept row (a case id; a case's item: (case id, item)).
RowKey = Callable[[Mapping[str, Any]], Any]


@dataclass(frozen=True)
class Kept:
    """A table as a process last read it: key → row, newest first; each thread's keys; the change feed's
    position taken before the read (None: the database notes no changes); the store's change token."""

    rows: dict[Any, dict[str, Any]]
    cases_of: dict[str, frozenset[Any]]
    position: int | None
    token: object | None


#: What a read of kept rows makes: the rows, and each thread's keys.
Read = tuple[dict[Any, dict[str, Any]], dict[str, frozenset[Any]]]


@dataclass(frozen=True)
class KeptTable:
    """A payout table as :func:`caught_up` keeps it: its columns, its read, and the key of one of its rows."""

    columns: tuple[str, ...]
    read: str
    key: RowKey

    @classmethod
    def of(cls, name: str, columns: tuple[str, ...], key: RowKey) -> KeptTable:
        """The table ``name``, read by its ``columns`` (each with a ``thread_id`` and a ``paid_at``)."""
        return cls(columns, f"SELECT {', '.join(columns)} FROM {name}", key)


def caught_up(
    store: Store,
    memo_at: tuple[str, str],
    token: object | None,
    read_all: Callable[[Any], Read],
    read_again: Callable[[Any, Kept, set[str]], Read | None],
) -> dict[Any, dict[str, Any]]:
    """Rows kept per process at ``memo_at`` (cache name, key), as they are now.

    While the store's change token stays, the kept rows. After a change, where the change feed
    (:mod:`agents.changefeed`) tells which threads moved, ``read_again(cursor, kept, threads)`` reads
    theirs alone (None: nothing kept moved; a row unchanged stays the same object); where the database
    notes no changes, ``read_all(cursor)`` reads them whole whenever the token moved. ``token``: the store's
    change token, when the caller has just read it.
    """
    token = store.change_token() if token is None else token
    memo = readcache.cache_for(store, memo_at[0], size=1)
    kept: Kept | None = memo.lookup(memo_at[1])
    if kept is not None and token is not None and kept.token == token:
        return kept.rows
    changes = None if kept is None or kept.position is None else changefeed.changed_since(store, kept.position)
    if kept is not None and changes is not None:
        again = None
        if changes[1]:
            with store.read() as cursor:
                again = read_again(cursor, kept, changes[1])
        found = Kept(*(again or (kept.rows, kept.cases_of)), changes[0], token)
    else:
        start = changefeed.position(store)  # before the rows it guards
        with store.read() as cursor:
            found = Kept(*read_all(cursor), start, token)
    memo.put(memo_at[1], found)
    return found.rows


def reader(table: KeptTable) -> Callable[[Any], Read]:
    """What reads ``table`` whole (``read_all`` of :func:`caught_up`)."""

    def read_all(cursor: Any) -> Read:
        cursor.execute(table.read)
        rows = [dict(zip(table.columns, row, strict=True)) for row in cursor.fetchall()]
        return newest_first(rows, table.key), keys_of(rows, table.key)

    return read_all


def rereader(table: KeptTable) -> Callable[[Any, Kept, set[str]], Read | None]:
    """What reads again the rows of ``table`` of the threads that changed (``read_again`` of :func:`caught_up`)."""

    def read_again(cursor: Any, kept: Kept, changed: set[str]) -> Read | None:
        """``kept`` with the rows of the ``changed`` threads read again (None when none of them moved)."""
        key = table.key
        found = rows_in(cursor, table.read + " WHERE thread_id", sorted(changed))
        read = [dict(zip(table.columns, row, strict=True)) for row in found]
        now = {key(row) for row in read}
        dropped = {case for thread_id in changed for case in kept.cases_of.get(thread_id, ())} | now
        same = [kept.rows[key(row)] for row in read if kept.rows.get(key(row)) == row]
        if len(same) == len(read) and dropped == now:  # nothing of the table moved
            return None
        rows = [row for case, row in kept.rows.items() if case not in dropped]
        rows += [kept.rows[key(row)] if kept.rows.get(key(row)) == row else row for row in read]
        cases_of = {t: c for t, c in kept.cases_of.items() if t not in changed}
        for thread_id, cases in keys_of(read, key).items():
            cases_of[thread_id] = cases_of.get(thread_id, frozenset()) | cases
        return newest_first(rows, key), cases_of

    return read_again


def newest_first(rows: list[dict[str, Any]], key: RowKey) -> dict[Any, dict[str, Any]]:
    """Key → row, newest first (by ``paid_at``, then by key in code point order)."""
    ordered = sorted(rows, key=key)
    ordered.sort(key=lambda row: row["paid_at"], reverse=True)  # stable: a tie stays in key order
    return {key(row): row for row in ordered}


def keys_of(rows: list[dict[str, Any]], key: RowKey = lambda row: row["case_id"]) -> dict[str, frozenset[Any]]:
    """Each thread's keys among ``rows`` (a case id each, unless another ``key`` is given)."""
    found: dict[str, set[Any]] = {}
    for row in rows:
        found.setdefault(row["thread_id"], set()).add(key(row))
    return {thread_id: frozenset(cases) for thread_id, cases in found.items()}
