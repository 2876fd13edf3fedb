"""The refund page's cases: every refund thread's status, the audit, the queue and the picker's order.

Read once per change of the database and shared by every session (:func:`case_book`): a rerun with
nothing new (a click, a page of the queue, a keystroke) reads only whether anything changed, and
the words the page shows for a case (its picker label, its searchable text) are made once per
language. A book is never changed once made, so a session can hold on to it for a whole run.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from agents import lifecycle, readcache, runs
from agents.db import Store
from agents.leases import live_leases
from agents.nodelog import node_runs
from agents.refund import figures, ledger
from agents.settings import Settings
from dashboard.formats import amount, code_word
from dashboard.i18n import t
from dashboard.views import status_text

#: The audit's status of a case whose thread was deleted (``ledger.audit_rows``).
DELETED = ledger.DELETED
#: The audit's statuses of a case with no thread in this database: deleted, or never here (``ledger.NOT_HERE``).
NO_THREAD_HERE = ledger.NO_THREAD_HERE
#: Each of those statuses in words (the catalogue's key).
_NO_THREAD_WORDS = {ledger.DELETED: "refund.status.deleted", ledger.NOT_HERE: "refund.status.not_here"}

QueueRow = tuple[ledger.AuditRow, lifecycle.ThreadStatus]
T = TypeVar("T")


def case_status_word(row: ledger.AuditRow, lang: str | None = None) -> str:
    """A case's status in words; a case whose thread was deleted, or is not in this database, says so."""
    key = _NO_THREAD_WORDS.get(row.status)
    return t(key, lang) if key is not None else code_word("status", row.status, lang)


def case_text(row: ledger.AuditRow, lang: str | None = None) -> str:
    """What a search matches in a case: its id, thread, customer, status, decision (code and word) and approver."""
    decision = code_word("decision", row.decision, lang)
    return " ".join(
        (row.case_id, row.thread_id, row.customer, case_status_word(row, lang), row.decision, decision, row.approver)
    )


def case_label(row: ledger.AuditRow, status: lifecycle.ThreadStatus) -> str:
    """A case in the picker: id, amount and its status, in the session's language."""
    return f"{row.case_id} · {amount(row.amount)} · {status_text(status)}"


@dataclass(frozen=True)
class CaseBook:
    """The refund cases as read at one moment.

    Attributes:
        statuses: Each refund thread's status, by thread id, newest first.
        audit: Every case, newest first (``ledger.audit_rows``), the payouts of threads not here last.
        queue: The open cases with their statuses, the one that has waited longest first.
        cases: The cases that have a thread, by thread id.
        options: The picker's cases: the queue, then every other case with a thread.
        payouts: The payouts of the cases in ``audit``: each case's, then each item's, newest first
            (``ledger.audit_and_ledger``), as ``python -m agents ledger`` lists them.
    """

    statuses: Mapping[str, lifecycle.ThreadStatus]
    audit: tuple[ledger.AuditRow, ...]
    queue: tuple[QueueRow, ...]
    cases: Mapping[str, ledger.AuditRow]
    options: tuple[str, ...]
    payouts: tuple[Mapping[str, Any], ...] = ()
    _words: dict[tuple[str, str, str], str] = field(default_factory=dict, repr=False, compare=False)
    _texts: dict[str, dict[ledger.AuditRow, str]] = field(default_factory=dict, repr=False, compare=False)

    def label(self, thread_id: str, lang: str) -> str:
        """The picker's label of a case (:func:`case_label`), made once per language.

        ``lang`` must be the session's language, which :func:`case_label` writes in.
        """
        key = ("label", thread_id, lang)
        found = self._words.get(key)
        if found is None:
            found = self._words[key] = case_label(self.cases[thread_id], self.statuses[thread_id])
        return found

    def search_texts(self, lang: str) -> Mapping[ledger.AuditRow, str]:
        """Each case's searchable text (:func:`case_text`) in ``lang``, made once per language."""
        found = self._texts.get(lang)
        if found is None:
            found = self._texts[lang] = {row: case_text(row, lang) for row in self.audit}
        return found


def _oldest_first(item: QueueRow) -> tuple[Any, ...]:
    """The queue's order: the case that has waited longest first (a running case, which waits for no one, last)."""
    row, status = item
    return (status.waiting_since is None, status.waiting_since or status.updated_at, row.case_id)


def read_book(store: Store) -> CaseBook:
    """The refund cases, read now (see :class:`CaseBook`)."""
    statuses = {x.thread_id: x for x in lifecycle.thread_statuses(store, agent=ledger.AGENT_NAME)}
    # The audit reads each case at the head its status was computed from: a case created (or deleted)
    # by another process between the two reads is in both or in neither.
    heads = {tid: x.head_checkpoint_id for tid, x in statuses.items()}
    rows, payouts = ledger.audit_and_ledger(store, {tid: x.status for tid, x in statuses.items()}, heads)
    audit = tuple(rows)
    queue = tuple(sorted(((row, statuses[row.thread_id]) for row in ledger.open_cases(list(audit))), key=_oldest_first))
    cases = {row.thread_id: row for row in audit if row.status not in NO_THREAD_HERE}
    queued = {row.thread_id for row, _status in queue}
    options = tuple(row.thread_id for row, _status in queue) + tuple(tid for tid in cases if tid not in queued)
    return CaseBook(statuses, audit, queue, cases, options, tuple(payouts))


def first_then_fresh(store: Store, book: CaseBook, part: Callable[[CaseBook], T]) -> Callable[[], T]:
    """A table's loader: ``part`` of ``book`` on its first call, then of :func:`case_book`.

    The page's run draws every table from the one book it read (one moment: a case another
    process writes meanwhile is in every table or in none); a table that reruns alone, to page or
    search, reads the cases afresh.
    """
    unused = [book]
    return lambda: part(unused.pop() if unused else case_book(store))


def case_book(store: Store) -> CaseBook:
    """The refund cases, reused while the database and the live leases are as they were.

    A status depends on the database and on which leases are live (``lifecycle.thread_statuses``),
    the audit on the database alone, so that pair is the key; where the store cannot tell when it
    changed, the cases are read on every call.
    """
    token = store.change_token()  # read before anything it guards
    if token is None:
        return read_book(store)
    key = (token, frozenset(live_leases(store)))
    memo = readcache.cache_for(store, "refund-case-book", size=2)
    found = memo.lookup("book")
    if found is not None and found[0] == key:
        return found[1]
    book = read_book(store)
    memo.put("book", (key, book))
    return book


@dataclass(frozen=True)
class CaseRead:
    """A case as read at one moment: its status, its current result, what the ledger paid, its node log."""

    status: lifecycle.ThreadStatus | None  # None: no such thread (deleted since the page was drawn)
    result: runs.RunResult | None
    paid: int | None
    node_rows: tuple[dict[str, Any], ...] = ()


def read_case(store: Store, settings: Settings, thread_id: str) -> CaseRead:
    """Reads what the case panel shows of ``thread_id``."""
    status = lifecycle.thread_status(store, thread_id)
    if status is None:
        return CaseRead(None, None, None)
    result = runs.current_result(store, settings, thread_id)
    case_id, with_items = str(result.values.get("case_id", "")), bool(result.values.get("items"))
    paid = figures.paid_amount(store, case_id, with_items=with_items)
    return CaseRead(status, result, paid, tuple(node_runs(store, thread_id=thread_id)))
