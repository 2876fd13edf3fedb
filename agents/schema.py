"""The project's own tables: their DDL (one text for both backends), fingerprint and added columns.

:mod:`agents.db` creates them and checks them; each agent declares its own tables
(``AgentSpec.run.tables``) with :class:`TableSchema`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class TableSchema:
    """One of the project's tables: its DDL and what a migration copies.

    An agent that keeps its own table declares it in its package
    (``AgentSpec.run.tables``); the store creates it beside the core tables.

    Attributes:
        name: The table name.
        ddl: ``CREATE TABLE IF NOT EXISTS`` (and its indexes) in SQL both backends share; the two
            column types that differ are written ``{id_column}`` and ``{float_type}``, and ``{code_order}``
            after a text column's type makes it compare by code point (nothing on SQLite, whose text
            comparison is by code point already).
        migrated_columns: The columns ``migrate`` copies to another database; empty for tables that
            are per process rather than data (leases, the schema's own metadata).
        thread_column: The column naming the thread a row belongs to, when a thread's status reads
            the table's rows: the database then notes the thread's changes (:mod:`agents.changefeed`).
    """

    name: str
    ddl: str
    migrated_columns: tuple[str, ...] = ()
    thread_column: str = ""


#: The node log's columns, in table order (``agents.nodelog`` reads them in this order).
NODE_LOG_COLUMNS = (
    "id", "agent", "thread_id", "run_id", "node", "task_id", "step",
    "label", "started_at", "ended_at", "status", "error",
)  # fmt: skip

META_TABLE = TableSchema(
    "hitl_meta",
    """
CREATE TABLE IF NOT EXISTS hitl_meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);""",
)
NODE_LOG_TABLE = TableSchema(
    "node_log",
    """
CREATE TABLE IF NOT EXISTS node_log (
    id {id_column},
    agent TEXT NOT NULL,
    thread_id TEXT NOT NULL,
    run_id TEXT NOT NULL,
    node TEXT NOT NULL,
    task_id TEXT NOT NULL DEFAULT '',
    step INTEGER NOT NULL DEFAULT 0,
    label TEXT NOT NULL DEFAULT '',
    started_at {float_type} NOT NULL,
    ended_at {float_type},
    status TEXT NOT NULL,
    error TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS node_log_thread ON node_log (thread_id, started_at);""",
    migrated_columns=NODE_LOG_COLUMNS[1:],
    thread_column="thread_id",
)  # the id is the target's own
LEASES_TABLE = TableSchema(
    "thread_leases",
    """
CREATE TABLE IF NOT EXISTS thread_leases (
    thread_id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    host TEXT NOT NULL,
    pid INTEGER NOT NULL,
    acquired_at {float_type} NOT NULL,
    process_start TEXT
);""",
)
#: A thread's status as the tables that keep statuses write it (the summaries and the status index).
STATUS_DDL = """\
    status TEXT NOT NULL,
    outcome TEXT NOT NULL DEFAULT '',
    reason_code TEXT NOT NULL DEFAULT '',
    reason TEXT NOT NULL DEFAULT '',
    action TEXT NOT NULL DEFAULT '',
    waiting_since TEXT,
"""
#: Each thread's settled status (:mod:`agents.summarytable`), in table order.
SUMMARY_COLUMNS = (
    "thread_id", "head_checkpoint_id", "agent", "status", "outcome", "reason_code", "reason", "action",
    "waiting_since", "head_mark", "outcome_key", "outcome_mark", "seen",
)  # fmt: skip
SUMMARY_TABLE = TableSchema(
    "thread_summaries",
    f"""
CREATE TABLE IF NOT EXISTS thread_summaries (
    thread_id TEXT PRIMARY KEY,
    head_checkpoint_id TEXT NOT NULL,
    agent TEXT NOT NULL,
{STATUS_DDL}    head_mark TEXT NOT NULL DEFAULT '',
    outcome_key TEXT NOT NULL DEFAULT '',
    outcome_mark TEXT NOT NULL DEFAULT '',
    seen BIGINT
);""",
)  # computed from the threads and checked against them on every read, so never migrated

#: The threads changed lately (:mod:`agents.changefeed`): one row per thread, its latest change's number.
CHANGES_TABLE = TableSchema(
    "thread_changes",
    """
CREATE TABLE IF NOT EXISTS thread_changes (
    thread_id TEXT PRIMARY KEY,
    seq BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS thread_changes_seq ON thread_changes (seq);""",
)  # kept by the database's triggers; never migrated (the target's own triggers fill it)

#: Every thread's status as last read (:mod:`agents.statusindex`): one row per thread, checked against the
#: change feed, so a new process lists every thread from this table alone.
INDEX_COLUMNS = (
    "thread_id", "agent", "head_checkpoint_id", "checkpoint_count", "status", "outcome", "reason_code", "reason",
    "action", "waiting_since", "waiting_count", "payload", "seen",
)  # fmt: skip
INDEX_TABLE = TableSchema(
    "thread_status_index",
    f"""
CREATE TABLE IF NOT EXISTS thread_status_index (
    thread_id TEXT{{code_order}} PRIMARY KEY,
    agent TEXT{{code_order}} NOT NULL,
    head_checkpoint_id TEXT{{code_order}} NOT NULL,
    checkpoint_count INTEGER NOT NULL,
{STATUS_DDL}    waiting_count INTEGER NOT NULL DEFAULT 0,
    payload TEXT,
    seen BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS thread_status_index_open ON thread_status_index (head_checkpoint_id, thread_id)
    WHERE status <> 'done';
CREATE INDEX IF NOT EXISTS thread_status_index_agent_open
    ON thread_status_index (agent, head_checkpoint_id, thread_id) WHERE status <> 'done';
CREATE INDEX IF NOT EXISTS thread_status_index_head ON thread_status_index (head_checkpoint_id, thread_id);
CREATE INDEX IF NOT EXISTS thread_status_index_agent_head ON thread_status_index (agent, head_checkpoint_id, thread_id);
CREATE INDEX IF NOT EXISTS thread_status_index_status
    ON thread_status_index (status, agent, waiting_since, thread_id);
CREATE INDEX IF NOT EXISTS thread_status_index_unknown ON thread_status_index (thread_id)
    WHERE reason_code = 'unknown_agent';
CREATE INDEX IF NOT EXISTS thread_status_index_open_counts ON thread_status_index (agent, status)
    WHERE status <> 'done';""",
)  # computed from the threads and checked against the change feed on every read, so never migrated;
# indexed for one page of a list in its order (:mod:`agents.statuspages`) and the counts by status (the
# unfinished rows' agent and status alone, so a count walks no other row and reads no table row). The lists
# order by head, then thread id, in code point order (as Python sorts); PostgreSQL compares text by the
# database's collation unless told otherwise, so there the three columns a list orders or ranges by are
# declared ``COLLATE "C"`` (``{code_order}``), and the indexes on them serve a page in that order.


def deletion_ddl(table: str, columns: str) -> str:
    """The DDL of a table of deletion records: the thread and head deleted, the record's own ``columns``
    (whole lines), the status at deletion, who deleted it, when and why; (thread, head) is the key."""
    return f"""
CREATE TABLE IF NOT EXISTS {table} (
    thread_id TEXT NOT NULL,
    head_checkpoint_id TEXT NOT NULL,
{columns}    status TEXT NOT NULL,
    deleted_by TEXT NOT NULL,
    deleted_by_name TEXT NOT NULL,
    deleted_at TEXT NOT NULL,
    reason TEXT NOT NULL,
    PRIMARY KEY (thread_id, head_checkpoint_id)
);"""


DELETIONS_COLUMNS = (
    "thread_id", "head_checkpoint_id", "agent", "status", "deleted_by", "deleted_by_name", "deleted_at", "reason",
)  # fmt: skip
#: Unfinished threads deleted, of the agents that keep no record of their own (:mod:`agents.deletion_record`).
DELETIONS_TABLE = TableSchema(
    "thread_deletions",
    deletion_ddl("thread_deletions", "    agent TEXT NOT NULL,\n"),
    migrated_columns=DELETIONS_COLUMNS,
)

OUTBOX_COLUMNS = (
    "id", "event_id", "channel", "kind", "thread_id", "agent", "episode", "facts", "happened_at",
    "recorded_at", "attempts", "next_attempt_at", "delivered_at", "last_error",
)  # fmt: skip

#: The notification outbox (``agents.notify.outbox``): one row per event and channel.
OUTBOX_TABLE = TableSchema(
    "notify_outbox",
    """
CREATE TABLE IF NOT EXISTS notify_outbox (
    id TEXT PRIMARY KEY,
    event_id TEXT NOT NULL,
    channel TEXT NOT NULL,
    kind TEXT NOT NULL,
    thread_id TEXT NOT NULL,
    agent TEXT NOT NULL,
    episode TEXT NOT NULL,
    facts TEXT NOT NULL,
    happened_at {float_type} NOT NULL,
    recorded_at {float_type} NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at {float_type} NOT NULL,
    delivered_at {float_type},
    last_error TEXT NOT NULL DEFAULT '',
    claim_owner TEXT,
    claim_host TEXT,
    claim_pid INTEGER,
    claim_start TEXT,
    claimed_until {float_type}
);
CREATE INDEX IF NOT EXISTS notify_outbox_due ON notify_outbox (delivered_at, next_attempt_at);
CREATE INDEX IF NOT EXISTS notify_outbox_thread ON notify_outbox (thread_id, kind);""",
    migrated_columns=OUTBOX_COLUMNS,
)


def project_tables(agent_tables: Sequence[TableSchema] = ()) -> tuple[TableSchema, ...]:
    """The core tables with the agents' own between them.

    The order is the order of the first release's single schema text (the refund ledger sat
    between the node log and the leases), so a database it set up keeps its fingerprint; tables added
    since come last.
    """
    return (
        META_TABLE,
        NODE_LOG_TABLE,
        *agent_tables,
        LEASES_TABLE,
        OUTBOX_TABLE,
        SUMMARY_TABLE,
        CHANGES_TABLE,
        INDEX_TABLE,
        DELETIONS_TABLE,
    )


def schema_text(tables: Sequence[TableSchema], *, id_column: str, float_type: str, code_order: str = "") -> str:
    """The DDL of ``tables`` for one backend's two differing column types and its code point collation."""
    text = "".join(table.ddl for table in tables)
    return text.format(id_column=id_column, float_type=float_type, code_order=code_order) + "\n"


def fingerprint(schema: str) -> str:
    """Changes whenever a table is added to the schema, so older files get the new tables."""
    return hashlib.sha256(schema.encode()).hexdigest()[:16]


#: Columns added to a table after its first release, as (table, column, type); each is also in the
#: table's CREATE TABLE above (which changes the schema fingerprint). CREATE TABLE IF NOT EXISTS leaves
#: an existing table as it is, so opening a database of an older release adds them with ALTER TABLE.
#: They are nullable: rows of an older release (and rows it still writes) have NULL there.
#:
#: * ``thread_leases.process_start``: the lease owner's start time, ``"<boot id>:<clock ticks since
#:   boot>"`` (``/proc/<pid>/stat`` field 22), so a reused PID is not taken for the owner
#:   (:mod:`agents.leases`); NULL in rows of the previous release and where there is no ``/proc``.
#: * ``thread_summaries.seen``: the position of the change feed a row was computed at
#:   (:mod:`agents.summarytable`); NULL (a row computed again) in rows written before the feed.
#: * ``refund_deletions.kept``: what the audit showed of a deleted case (``agents.refund.deletions``); NULL in
#:   rows recorded before it was kept.
ADDED_COLUMNS: tuple[tuple[str, str, str], ...] = (
    ("thread_leases", "process_start", "TEXT"),
    ("thread_summaries", "seen", "BIGINT"),
    ("refund_deletions", "kept", "TEXT"),
)

#: Tables whose stored definition changed after their first release in a way ALTER TABLE cannot make,
#: as (table, text of the old definition): opening a SQLite file whose stored ``CREATE TABLE`` still
#: contains the text rebuilds the table from its current DDL, rows and ids kept (``agents.db``). The
#: columns are the same, so the previous release reads and writes a rebuilt table as it is.
#:
#: * ``node_log`` ``AUTOINCREMENT``: the first release's ids came from ``sqlite_sequence``, whose
#:   page every insert rewrote (a third page per row, beside the table's and its index's).
#:   A plain ``INTEGER PRIMARY KEY`` takes
#:   the largest id plus one, so deleting a thread whose rows are the newest lets their ids come
#:   back; the node log's end write also matches the row's start time (``agents.nodelog_queue``), the one
#:   place that keeps an id across a delete. PostgreSQL's ``BIGSERIAL`` is unchanged.
REBUILT_TABLES: tuple[tuple[str, str], ...] = (("node_log", "AUTOINCREMENT"),)

#: Text columns that compare by code point on PostgreSQL (declared ``{code_order}``), as (table, column). A
#: PostgreSQL database set up before a column was declared so gets it at open (``ALTER COLUMN ... TYPE TEXT
#: COLLATE "C"``, which builds the indexes on it again); SQLite's text compares by code point already.
#:
#: * ``thread_status_index`` ``thread_id``, ``agent``, ``head_checkpoint_id``: a page of a list is its rows
#:   by head, then thread id, in code point order (:mod:`agents.statuspages`); an index in the database's
#:   collation cannot serve that order, so every page sorted every row. ``agent`` is compared in ranges
#:   between the registered agents' names in Python's order (:func:`agents.statusindex.stale`).
CODE_ORDER_COLUMNS: tuple[tuple[str, str], ...] = (
    ("thread_status_index", "thread_id"),
    ("thread_status_index", "agent"),
    ("thread_status_index", "head_checkpoint_id"),
)

SQLITE_TYPES = {"id_column": "INTEGER PRIMARY KEY", "float_type": "REAL", "code_order": ""}
