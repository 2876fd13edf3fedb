"""Copies a SQLite save file into a PostgreSQL database, and checks the copy.

Checkpoints are copied through the savers' own API, oldest first per thread
(``list`` on the source, ``put`` and ``put_writes`` on the target), so the
target holds them in its own format: blobs split per channel, ``jsonb``
metadata. The project's tables are copied row by row. Afterwards the counts of
both databases are compared; any difference is an error.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from agents.db import Store
from agents.strings import STRINGS
from agents.texts import Text, text


def migrated_tables(store: Store) -> dict[str, tuple[str, ...]]:
    """The project's tables that move with the threads, with their columns: the core tables' and every
    agent's that declare migrated columns (leases are per running process, not data)."""
    return {table.name: table.migrated_columns for table in store.tables if table.migrated_columns}


class MigrationError(Exception):
    """The copy cannot be made, or does not match the source; ``text`` says why in the reader's language."""

    def __init__(self, message: Text) -> None:
        super().__init__(str(message))
        self.text = message


@dataclass(frozen=True)
class MigrationReport:
    """What was copied, counted on both sides."""

    threads: int
    counts: dict[str, tuple[int, int]]  # table → (source rows, target rows)


def _thread_ids(store: Store) -> list[str]:
    with store.read() as cursor:
        cursor.execute("SELECT DISTINCT thread_id FROM checkpoints ORDER BY thread_id")
        return [row[0] for row in cursor.fetchall()]


def _task_paths(source: Store, thread_id: str) -> dict[tuple[str, str, str], str]:
    """Task paths of a thread's writes; the savers' API hands writes over without them."""
    with source.read() as cursor:
        cursor.execute(
            "SELECT checkpoint_ns, checkpoint_id, task_id, task_path FROM writes WHERE thread_id = ?", (thread_id,)
        )
        return {(ns, cp, task): path or "" for ns, cp, task, path in cursor.fetchall()}


def copy_thread(source: Store, target: Store, thread_id: str) -> None:
    """Copies one thread's checkpoints (every namespace) and their pending writes."""
    paths = _task_paths(source, thread_id)
    saved = list(source.saver.list({"configurable": {"thread_id": thread_id}}))
    for entry in sorted(saved, key=lambda e: e.config["configurable"]["checkpoint_id"]):
        configurable = entry.config["configurable"]
        parent = (entry.parent_config or {}).get("configurable", {}).get("checkpoint_id")
        put_config: dict[str, Any] = {
            "configurable": {
                "thread_id": thread_id,
                "checkpoint_ns": configurable.get("checkpoint_ns", ""),
                **({"checkpoint_id": parent} if parent else {}),
            }
        }
        checkpoint = entry.checkpoint
        stored = target.saver.put(put_config, checkpoint, entry.metadata, dict(checkpoint["channel_versions"]))
        by_task: dict[str, list[tuple[str, Any]]] = defaultdict(list)
        for task_id, channel, value in entry.pending_writes or ():
            by_task[task_id].append((channel, value))
        for task_id, writes in by_task.items():
            key = (configurable.get("checkpoint_ns", ""), configurable["checkpoint_id"], task_id)
            target.saver.put_writes(stored, writes, task_id, paths.get(key, ""))


def _copy_table(source: Store, target: Store, table: str, columns: tuple[str, ...]) -> None:
    with source.read() as cursor:
        cursor.execute(f"SELECT {', '.join(columns)} FROM {table}")
        rows = cursor.fetchall()
    if not rows:
        return
    placeholders = ", ".join("?" for _ in columns)
    with target.transaction() as cursor:
        cursor.executemany(
            f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({placeholders}) ON CONFLICT DO NOTHING", rows
        )


def _count(store: Store, table: str) -> int:
    with store.read() as cursor:
        cursor.execute(f"SELECT COUNT(*) FROM {table}")
        return int(cursor.fetchone()[0])


def migrate(source: Store, target: Store) -> MigrationReport:
    """Copies every thread and the project's tables, then verifies the counts.

    Raises:
        MigrationError: The source is not SQLite or the target not PostgreSQL, the
            target already holds threads, or the counts differ afterwards.
    """
    if source.backend != "sqlite" or target.backend != "postgres":
        raise MigrationError(text(STRINGS, "error.migrate.direction"))
    if _thread_ids(target):
        raise MigrationError(text(STRINGS, "error.migrate.not_empty", target=target.path))
    threads = _thread_ids(source)
    for thread_id in threads:
        copy_thread(source, target, thread_id)
    tables = migrated_tables(target)
    for table, columns in tables.items():
        _copy_table(source, target, table, columns)
    write_tables = {"sqlite": "writes", "postgres": "checkpoint_writes"}
    counts = {
        "threads": (len(threads), len(_thread_ids(target))),
        "checkpoints": (_count(source, "checkpoints"), _count(target, "checkpoints")),
        "writes": (_count(source, write_tables[source.backend]), _count(target, write_tables[target.backend])),
        **{table: (_count(source, table), _count(target, table)) for table in tables},
    }
    wrong = {name: pair for name, pair in counts.items() if pair[0] != pair[1]}
    if wrong:
        raise MigrationError(text(STRINGS, "error.migrate.mismatch", wrong=wrong))
    return MigrationReport(threads=len(threads), counts=counts)
