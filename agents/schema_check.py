"""What a database must hold to be opened: LangGraph's tables and this project's, as a release wrote them.

Both stores (:mod:`agents.db`, :mod:`agents.db_postgres`) read what the database holds (its tables
with their columns, and ``hitl_meta``) and ask :func:`verify_schema` before they write anything. It
accepts three kinds of database:

* an empty one, or one with LangGraph's tables alone (a saver's file): the project's tables are added;
* one this release set up (``hitl_meta.schema_fingerprint`` is this release's): every table and column
  must be there, and nothing else;
* one an earlier release set up (its fingerprint is in :data:`RELEASED_TABLES`): the tables that release
  made must be there; tables and columns added since are added.

Anything else is refused with the reason (:class:`ForeignSchema`): a table neither LangGraph nor this
project makes (another application's file), the project's tables without ``hitl_meta``, a missing or
unreadable ``schema_version`` or fingerprint, a fingerprint no release wrote, a missing table or column,
a column of the project's tables no release made. A newer release's database is :class:`NewerSchema`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from agents.schema import ADDED_COLUMNS

_FIRST_TABLES = frozenset({"hitl_meta", "node_log", "refund_ledger", "thread_leases"})
_WITH_ASSESSMENTS = _FIRST_TABLES | {"refund_assessments"}
_WITH_DELETIONS = _WITH_ASSESSMENTS | {"refund_deletions"}
_WITH_SUMMARIES = _WITH_DELETIONS | {"notify_outbox", "thread_summaries", "refund_item_ledger"}
_WITH_CHANGES = _WITH_SUMMARIES | {"thread_changes"}
_WITH_THIS_RELEASE = _WITH_CHANGES | {"refund_cases", "thread_status_index", "thread_deletions"}

#: The fingerprint each release of the shipped agents wrote, per backend, and the project's tables it made.
#: A release that changes a table's DDL adds its fingerprint here (``tests/agents/test_schema_check.py``
#: fails until it does): a fingerprint that is not here, nor the running release's, was not written by
#: this project.
RELEASED_TABLES: Mapping[str, Mapping[str, frozenset[str]]] = {
    "sqlite": {
        "e28625a439a24afa": _FIRST_TABLES,  # the first release
        "c55586daa3a785f5": _FIRST_TABLES,  # + thread_leases.process_start
        "4d4ca35bf0b25714": _FIRST_TABLES,  # node_log ids without AUTOINCREMENT
        "408248d6ba9859b3": _WITH_ASSESSMENTS,  # + refund_assessments
        "c5095c9699d40a98": _WITH_DELETIONS,  # + refund_deletions
        "84adcbcd5098c2c6": _WITH_SUMMARIES,  # + notify_outbox, thread_summaries, refund_item_ledger
        "91b5f92cc358c558": _WITH_CHANGES,  # + thread_changes, thread_summaries.seen
        "bdd4f8d060ba0754": _WITH_THIS_RELEASE,  # + refund_cases, thread_status_index, thread_deletions
        "5388333f18bfa898": _WITH_THIS_RELEASE,  # + indexes of thread_status_index and refund_ledger.thread_id
        "2a39a96361986064": _WITH_THIS_RELEASE,  # + thread_status_index_open_counts
        "92a1d1029a06b9c0": _WITH_THIS_RELEASE,  # + refund_deletions.kept
    },
    "postgres": {
        "33ff193fda5a5521": _FIRST_TABLES,
        "14a6fce06d7d770b": _FIRST_TABLES,  # + thread_leases.process_start
        "332d3304eb3d0540": _WITH_ASSESSMENTS,  # + refund_assessments
        "3e04912705cf24df": _WITH_DELETIONS,  # + refund_deletions
        "640983500484e5a3": _WITH_SUMMARIES,  # + notify_outbox, thread_summaries, refund_item_ledger
        "3127fb2a744386c9": _WITH_CHANGES,  # + thread_changes, thread_summaries.seen
        "4c11460f438739dc": _WITH_THIS_RELEASE,  # + refund_cases, thread_status_index, thread_deletions
        "e90fdaf30b6612a5": _WITH_THIS_RELEASE,  # + indexes of thread_status_index and refund_ledger.thread_id
        "51ffb07cb414ca87": _WITH_THIS_RELEASE,  # + thread_status_index_open_counts
        "9baa4e917dc6b5e9": _WITH_THIS_RELEASE,  # thread_status_index's ids and agent COLLATE "C"
        "7f83b326271c7510": _WITH_THIS_RELEASE,  # + refund_deletions.kept
    },
}


class ForeignSchema(Exception):
    """The database's tables are not the ones LangGraph and this project wrote; the message says how."""


class NewerSchema(Exception):
    """The database was set up by a newer release (``found`` is its schema version)."""

    def __init__(self, found: int) -> None:
        super().__init__(found)
        self.found = found


@dataclass(frozen=True)
class FoundSchema:
    """What a database holds.

    Attributes:
        tables: Every table (SQLite's own excepted) with its column names.
        meta: ``hitl_meta``'s rows (key → value); None when there is no ``hitl_meta`` table.
    """

    tables: Mapping[str, set[str]]
    meta: Mapping[str, str] | None


@dataclass(frozen=True)
class WantedSchema:
    """What this release makes.

    Attributes:
        tables: LangGraph's tables and the project's, with the columns read and written.
        project: The names of the project's tables (every column of theirs is known).
        langgraph: The names of LangGraph's tables, which a database may hold alone.
        fingerprint: This release's schema fingerprint (with the registered agents' tables).
        released: Earlier releases' fingerprints → the project's tables each made.
        version: The newest schema version this release reads.
        other_langgraph: LangGraph's tables that are neither read nor written (PostgreSQL's migrations).
    """

    tables: Mapping[str, set[str]]
    project: frozenset[str]
    langgraph: frozenset[str]
    fingerprint: str
    released: Mapping[str, frozenset[str]]
    version: int
    other_langgraph: frozenset[str] = frozenset()


def verify_schema(found: FoundSchema, wanted: WantedSchema) -> bool:
    """Whether the database needs its tables set up (created or completed); refuses what is not ours.

    Raises:
        ForeignSchema: The tables are not LangGraph's and this project's as a release wrote them.
        NewerSchema: A newer release set the database up.
    """
    foreign = sorted(set(found.tables) - set(wanted.tables) - wanted.other_langgraph)
    if foreign:
        raise ForeignSchema(f"it holds {_tables(foreign)} that neither this project nor LangGraph makes")
    if found.meta is None:
        ours = sorted(set(found.tables) & wanted.project)
        if ours:
            raise ForeignSchema(f"hitl_meta is missing beside the project's table(s) {', '.join(map(repr, ours))}")
        _check_columns(found, wanted, found.tables.keys() & wanted.langgraph, current=False)
        return True
    version = _version(found.meta)
    if version > wanted.version:
        raise NewerSchema(version)
    fingerprint = found.meta.get("schema_fingerprint")
    if fingerprint is None:
        raise ForeignSchema("hitl_meta has no schema_fingerprint")
    current = fingerprint == wanted.fingerprint
    if current:
        required = set(wanted.tables)
    elif fingerprint in wanted.released:
        required = set(wanted.langgraph | wanted.released[fingerprint])
    else:
        raise ForeignSchema(f"hitl_meta.schema_fingerprint is {fingerprint!r}, which no release of this project wrote")
    missing = sorted(required - set(found.tables))
    if missing:
        raise ForeignSchema(f"the table {missing[0]!r} is missing")
    _check_columns(found, wanted, found.tables.keys() & wanted.tables.keys(), current=current)
    return not (current and version == wanted.version)


def _version(meta: Mapping[str, str]) -> int:
    if "schema_version" not in meta:
        raise ForeignSchema("hitl_meta has no schema_version")
    raw = meta["schema_version"]
    try:
        version = int(str(raw))
    except ValueError:
        raise ForeignSchema(f"hitl_meta.schema_version is {raw!r}, not a version number") from None
    if version < 1:
        raise ForeignSchema(f"hitl_meta.schema_version is {raw!r}; no release wrote a version below 1")
    return version


def _check_columns(found: FoundSchema, wanted: WantedSchema, tables: Iterable[str], *, current: bool) -> None:
    """Refuses a table that lacks a column (one added since only on an earlier release's database), or a
    project table with a column no release made."""
    added = set() if current else {(table, column) for table, column, _type in ADDED_COLUMNS}
    for table in sorted(tables):
        present, columns = found.tables[table], wanted.tables[table]
        lacking = sorted(c for c in columns - present if (table, c) not in added)
        if lacking:
            raise ForeignSchema(f"the table {table!r} lacks the column(s) {', '.join(lacking)}")
        extra = sorted(present - columns) if table in wanted.project else []
        if extra:
            raise ForeignSchema(f"the table {table!r} has the column(s) {', '.join(extra)}, which no release made")


def _tables(names: list[str]) -> str:
    return ("the table " if len(names) == 1 else "the tables ") + ", ".join(repr(name) for name in names)
