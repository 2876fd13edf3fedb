"""The payout ledger (a project table) and the audit of all cases.

The ledger is the external side effect of the refund agent: one row per paid
case, keyed by ``case_id``. The key makes a payout idempotent: a second attempt
for the same case (``settle`` re-run after a crash, two approvers, the CLI
resuming twice from another process) inserts nothing, is counted in
``repeat_attempts`` and is reported as "already paid".

The audit is derived: one row per refund thread, read from the thread's head
checkpoint (with what the tasks that finished there wrote: a case with items
whose other items wait, ``agents.refund.step_writes``) and joined with the ledger,
so it always agrees with the save file. An unfinished case deleted with a reason shows from its record
(``refund_deletions``: outcome ``deleted``, who, when and why), and so does a case deleted after a person
decided it (its outcome and decision as they were, beside any later thread of the same case). A payout whose
thread is not in this database shows from the ledger alone (:func:`_ledger_only`): ``thread deleted`` when its
start here is recorded, else ``thread not in this database`` (paid by a graph that keeps its threads elsewhere:
``langgraph dev``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from agents import readcache, readmodel, threadindex
from agents.damaged import DamagedValueError
from agents.db import Store, TableSchema
from agents.readsql import rows_in
from agents.refund.amounts import asked_amount, waiting_amount
from agents.refund.cases import case_of_thread, claimed_here
from agents.refund.deletions import audit_fields, deletion_rows
from agents.refund.item_decisions import CaseDecision, case_decision, joined_approvers
from agents.refund.kept_tables import Kept, KeptTable, Read, caught_up, keys_of, reader, rereader
from agents.spec import imported_on_call

AGENT_NAME = "refund"
#: The audit's status of a case whose thread was deleted (a payout of a thread started here, or an unfinished
#: case deleted with a reason); and of a payout whose thread this database never held (``langgraph dev``'s).
DELETED = "thread deleted"
NOT_HERE = "thread not in this database"
#: The statuses of a case that has no thread in this database (nothing to open, nothing to decide).
NO_THREAD_HERE = frozenset({DELETED, NOT_HERE})

LEDGER_COLUMNS = (
    "case_id", "thread_id", "customer", "requested_amount", "paid_amount",
    "approver", "paid_at", "repeat_attempts",
)  # fmt: skip
#: The item ledger's columns (its table: ``agents.refund.item_ledger.ITEM_LEDGER_TABLE``), read here with the
#: cases' ledger: the audit and the ledger's list show both.
ITEM_LEDGER_COLUMNS = (
    "case_id", "item", "thread_id", "customer", "requested_amount", "paid_amount",
    "approver", "paid_at", "repeat_attempts",
)  # fmt: skip

#: The ledger's table, created by the store beside the core tables (``AgentSpec.run.tables``).
LEDGER_TABLE = TableSchema(
    "refund_ledger",
    """
CREATE TABLE IF NOT EXISTS refund_ledger (
    case_id TEXT PRIMARY KEY,
    thread_id TEXT NOT NULL,
    customer TEXT NOT NULL,
    requested_amount INTEGER NOT NULL,
    paid_amount INTEGER NOT NULL CHECK (paid_amount > 0),
    approver TEXT NOT NULL,
    paid_at TEXT NOT NULL,
    repeat_attempts INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS refund_ledger_thread ON refund_ledger (thread_id);""",
    migrated_columns=LEDGER_COLUMNS,
    thread_column="thread_id",  # a finished case's outcome reads its rows
)


#: The policy each refund thread's last real ``assess`` run was assessed under. A node writes it, never
#: ``update_state`` (which runs no node), so the route and ``settle`` can trust it where the state's own
#: ``policy`` could have been written by an update on a path that checks no keys. A thread's row stays when
#: the thread is deleted; a new thread of that id is assessed, which replaces it.
ASSESSMENT_COLUMNS = ("thread_id", "policy", "assessed_at")
ASSESSMENT_TABLE = TableSchema(
    "refund_assessments",
    """
CREATE TABLE IF NOT EXISTS refund_assessments (
    thread_id TEXT PRIMARY KEY,
    policy TEXT NOT NULL,
    assessed_at TEXT NOT NULL
);""",
    migrated_columns=ASSESSMENT_COLUMNS,
)


def record_assessment(store: Store, thread_id: str, policy: str) -> None:
    """Records the policy a thread's case was just assessed under (``assess`` calls it), replacing an earlier one."""
    store.execute_one(
        "INSERT INTO refund_assessments (thread_id, policy, assessed_at) VALUES (?, ?, ?)"
        " ON CONFLICT (thread_id) DO UPDATE SET policy = excluded.policy, assessed_at = excluded.assessed_at",
        (thread_id, policy, now_iso()),
    )


def assessed_policy(store: Store, thread_id: str) -> str | None:
    """The policy the thread's last ``assess`` run recorded, or None (no run recorded one)."""
    with store.read() as cursor:
        cursor.execute("SELECT policy FROM refund_assessments WHERE thread_id = ?", (thread_id,))
        found = cursor.fetchone()
    return str(found[0]) if found else None


@dataclass(frozen=True)
class Payout:
    """The ledger row of a case, and whether this attempt created it."""

    case_id: str
    thread_id: str
    customer: str
    requested_amount: int
    paid_amount: int
    approver: str
    paid_at: str
    repeat_attempts: int
    created: bool


def now_iso() -> str:
    """The current time, UTC, ISO 8601 to the second."""
    return dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat()


def pay(
    store: Store,
    *,
    case_id: str,
    thread_id: str,
    customer: str,
    requested_amount: int,
    amount: int,
    approver: str,
) -> Payout:
    """Records the payout of a case exactly once.

    The insert and the read-back happen in one transaction under the store's
    lock, and SQLite's write lock covers other processes, so of two attempts
    exactly one creates the row. The other changes only ``repeat_attempts``.

    Returns:
        The case's ledger row; ``created`` is False when it was already paid.
    """
    row = (case_id, thread_id, customer, requested_amount, amount, approver)
    paid, created = pay_once(store, "refund_ledger", LEDGER_COLUMNS, 1, row)
    return Payout(**paid, created=created)


def pay_once(store: Store, table: str, columns: tuple[str, ...], keys: int, row: tuple[Any, ...]) -> tuple[dict, bool]:
    """Inserts ``row`` (``columns`` but the last two: ``paid_at``, now, and ``repeat_attempts``) into ``table``
    unless a row of its key (the first ``keys`` columns) is there, which then counts a repeat attempt, as
    :func:`pay` says; returns the row as read back in the same transaction, and whether this attempt created it.
    """
    where = " AND ".join(f"{name} = ?" for name in columns[:keys])
    with store.transaction() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({', '.join(columns[:-1])}) VALUES ({', '.join('?' * (len(columns) - 1))})"
            f" ON CONFLICT ({', '.join(columns[:keys])}) DO NOTHING",
            (*row, now_iso()),
        )
        created = cursor.rowcount == 1
        if not created:
            cursor.execute(f"UPDATE {table} SET repeat_attempts = repeat_attempts + 1 WHERE {where}", row[:keys])
        cursor.execute(f"SELECT {', '.join(columns)} FROM {table} WHERE {where}", row[:keys])
        return dict(zip(columns, cursor.fetchone(), strict=True)), created


#: The ledgers as :func:`_payouts` and :func:`_item_payouts` keep them: the cases' by case id, the item ledger's
#: (``agents.refund.item_ledger``) by (case id, item).
_CASE_TABLE = KeptTable.of("refund_ledger", LEDGER_COLUMNS, lambda row: row["case_id"])
_ITEM_TABLE = KeptTable.of("refund_item_ledger", ITEM_LEDGER_COLUMNS, lambda row: (row["case_id"], row["item"]))


def _payouts(store: Store, token: object | None = None) -> dict[str, dict[str, Any]]:
    """Case id → ledger row, newest first (by ``paid_at``, then case id in code point order).

    The rows are shared by every caller (never change them). Lists of 10,000 refund threads ask for
    every case's payout on each rerun; this answers them from one read, kept per process
    (:mod:`agents.refund.kept_tables`). ``token``: the store's change token, when the caller has just read it.
    """
    return caught_up(store, ("refund-payouts", "payouts"), token, reader(_CASE_TABLE), rereader(_CASE_TABLE))


def _item_payouts(store: Store) -> dict[tuple[str, str], dict[str, Any]]:
    """(case id, item) → item ledger row, newest first (by ``paid_at``, then case and item in code point
    order); kept per process as :func:`_payouts` keeps the cases' rows (the rows are shared: never change them)."""
    return caught_up(store, ("refund-item-payouts", "items"), None, reader(_ITEM_TABLE), rereader(_ITEM_TABLE))


def payouts(store: Store) -> dict[str, dict[str, Any]]:
    """Case id → ledger row, of every case, from one read (the rows are shared: never change them)."""
    return _payouts(store)


def ledger_rows(store: Store) -> list[dict[str, Any]]:
    """Every payout (keys :data:`LEDGER_COLUMNS`), newest first; empty when nothing was paid yet."""
    return [dict(row) for row in _payouts(store).values()]


def payout_rows(store: Store) -> list[dict[str, Any]]:
    """What the ledger lists (``python -m agents ledger``, the refund page's ledger): every case's payout (keys
    :data:`LEDGER_COLUMNS`), then every item's (keys :data:`ITEM_LEDGER_COLUMNS`), each part newest first."""
    return ledger_rows(store) + [dict(row) for row in _item_payouts(store).values()]


def payout_name(row: Mapping[str, Any]) -> str:
    """The name of a payout row: its case, and an item's ``CASE:ITEM``."""
    return f"{row['case_id']}:{row['item']}" if "item" in row else str(row["case_id"])


#: Single-row reads of the ledger under one change token before ``payout_for`` reads it whole.
ROWS_BEFORE_WHOLE = 8


def payout_for(store: Store, case_id: str) -> dict[str, Any] | None:
    """The ledger row of one case, or None.

    A status list asks this for every finished case with nothing written in between: from the
    :data:`ROWS_BEFORE_WHOLE`-th ask under one change token on, the whole ledger is read once and
    kept. A decision asks it once or twice between writes (its payout, its status): one row each
    time, so a batch of decisions never reads the whole ledger per decision.
    """
    token = store.change_token()  # asked once: a status list asks this for every finished case
    if token is not None:
        memo = readcache.cache_for(store, "refund-payouts", size=1)
        kept: Kept | None = memo.lookup("payouts")
        if kept is not None and kept.token == token:
            row = kept.rows.get(case_id)
            return dict(row) if row else None
        asked = readcache.cache_for(store, "refund-payout-asks", size=1)
        count = asked.lookup(token) or 0
        if count + 1 >= ROWS_BEFORE_WHOLE:
            row = _payouts(store, token).get(case_id)
            return dict(row) if row else None
        asked.put(token, count + 1)
    with store.read() as cursor:  # one row, not the whole ledger
        cursor.execute(f"SELECT {', '.join(LEDGER_COLUMNS)} FROM refund_ledger WHERE case_id = ?", (case_id,))
        one = cursor.fetchone()
    return dict(zip(LEDGER_COLUMNS, one, strict=True)) if one else None


@dataclass(frozen=True)
class AuditRow:
    """One case as the audit shows it: requested and executed amounts side by side.

    ``requested_by`` (who requested the case), ``approver`` (who decided: the signed-in email, or
    in local mode the name typed), ``approver_name`` and ``approver_role`` (their display name and
    role when signed in) and ``decided_at`` say who did what, and when. A case with items has them from
    its items (:mod:`agents.refund.item_decisions`): ``approve``, ``reject`` or ``mixed``, its items'
    approvers joined by ", ", and when its last item was decided. A case deleted before it was
    finished has the outcome ``deleted``, ``status_at_deletion``, ``deleted_by``, ``deleted_at`` and
    ``deletion_reason``; one deleted after a person decided it keeps its outcome (``paid``, ``rejected``,
    ``partly paid``) and its decision, with ``status_at_deletion`` ``done`` and the same deletion columns.
    ``batch_id`` names the batch the case was decided in (``agents.batch``); for a case with items, the batches
    its items were decided in, in the items' order, separated by ", ".
    ``waiting_amount`` is what waits for a decision in a waiting case (0 when its thread does not wait):
    for a case with items, what its waiting items ask for together (its ``amount`` is the whole request
    until every item is decided); for a case with one amount, that amount
    (``agents.refund.amounts.waiting_amount``).
    """

    case_id: str
    thread_id: str
    status: str  # the thread's lifecycle status (waiting / attention / running / done), or NO_THREAD_HERE's
    customer: str
    reason: str
    requested_amount: int | None
    amount: int | None
    executed_amount: int | None
    decision: str
    approver: str
    outcome: str
    requested_at: str
    decided_at: str
    paid_at: str
    trace: tuple[str, ...]
    requested_by: str = ""
    approver_name: str = ""
    approver_role: str = ""
    status_at_deletion: str = ""
    deleted_by: str = ""
    deleted_at: str = ""
    deletion_reason: str = ""
    batch_id: str = ""
    waiting_amount: int = 0

    def to_json(self) -> dict[str, Any]:
        """A plain dict (the trace as a list)."""
        return asdict(self) | {"trace": list(self.trace)}


def audit_rows(
    store: Store, statuses: Mapping[str, str] | None = None, heads: Mapping[str, str] | None = None
) -> list[AuditRow]:
    """All refund cases, newest first: one per refund thread, plus ledger rows whose thread is gone.

    Args:
        store: The database.
        statuses: Each thread's lifecycle status (``agents.lifecycle``, which sits above the
            agents); a thread missing from it shows an empty status.
        heads: The refund threads to list, thread id → head checkpoint id, newest first, as read
            with ``statuses`` (``ThreadStatus.head_checkpoint_id``). Each case is then read at the
            head its status was computed from, so a case created, decided or deleted since is shown
            as the statuses saw it (or not at all) and statuses and rows always agree. Without
            ``heads``, the threads are read now.

    Where the store tells when it changed, the rows are reused while neither it nor the arguments have.
    """
    statuses = statuses or {}
    token = store.change_token()  # read before anything it guards
    memo = readcache.cache_for(store, "refund-audit", size=4)
    key = (token, frozenset(statuses.items()), None if heads is None else tuple(heads.items()))
    if token is not None and (found := memo.lookup(key)) is not None:
        return list(found)
    if heads is None:
        heads = {s.thread_id: s.head_checkpoint_id for s in threadindex.list_threads(store, agent=AGENT_NAME)}
    rows = _audit_rows(store, statuses, heads, _payouts(store), _item_payouts(store))
    if token is not None:
        memo.put(key, tuple(rows))
    return rows


def audit_and_ledger(
    store: Store, statuses: Mapping[str, str], heads: Mapping[str, str]
) -> tuple[list[AuditRow], list[dict[str, Any]]]:
    """:func:`audit_rows` at ``heads``, and the payout rows of the cases it lists (as :func:`payout_rows` lists
    them: the cases' rows, then their items'), from one read of each ledger.

    What one page shows together: a case paid by another process after ``heads`` were read is in
    neither list (it is in both on the next read), and every payout listed is the one its case's
    row shows.
    """
    payouts, items = _payouts(store), _item_payouts(store)  # read after the heads: what a head says was paid is in them
    rows = _audit_rows(store, statuses, heads, payouts, items)
    listed = {row.case_id for row in rows}
    cases = [dict(row) for case_id, row in payouts.items() if case_id in listed]
    return rows, cases + [dict(row) for (case_id, _item), row in items.items() if case_id in listed]


def _amount_or_none(value: Any) -> int | None:
    """An amount as the audit shows it: a whole number, or None for anything else.

    The nodes write whole numbers; LangGraph's ``update_state`` on the tooling path writes whatever
    it is given, and one such case must not take the queue of every other case down with it.
    """
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _lines(trace: Any) -> tuple[str, ...]:
    """A case's trace as lines of text (nothing when the state holds no list of them)."""
    return tuple(str(line) for line in trace) if isinstance(trace, list | tuple) else ()


#: A case as it stands at its head (``agents.refund.step_writes.case_values``), imported when first called: it
#: loads LangGraph's channels, which a command reading no case that needs them (``ledger`` on any database) does not.
case_values = imported_on_call("agents.refund.step_writes", "case_values")


def _may_hold_writes(values: Mapping[str, Any], status: str) -> bool:
    """Whether a case's head can hold writes its values do not: a step of several tasks (a case with items)
    not ended, some of whose tasks finished while others wait, or a step stopped (attention) after its task
    wrote. A one-amount case's step has one task, whose writes are the next checkpoint as it finishes."""
    return status == "attention" or (bool(values.get("items")) and status != "done")


def _listed_as_refund(store: Store, thread_id: str) -> bool:
    """Whether the thread exists as a refund thread (its head's metadata names the agent): the audit lists it."""
    if readmodel.head_checkpoint_id(store, thread_id) is None:
        return False
    try:
        return readmodel.thread_agent(store, thread_id) == AGENT_NAME
    except DamagedValueError:  # no checkpoint says which agent it is: its payout stays on the record
        return False


def _audit_rows(
    store: Store,
    statuses: Mapping[str, str],
    heads: Mapping[str, str],
    payouts: Mapping[str, dict[str, Any]],
    items: Mapping[tuple[str, str], dict[str, Any]],
) -> list[AuditRow]:
    """The audit of the threads at ``heads``, joined with ``payouts`` and the item payouts ``items`` (both read
    after the heads). Each case is read as it stands at its head: with the writes of the tasks that finished
    there (``agents.refund.step_writes.case_values``; a case with items, some of them decided)."""
    rows: list[AuditRow] = []
    item_totals = _item_totals(store)  # a case with items: its executed amount is the sum of its items' payouts
    seen: set[str] = set()
    # A thread's row is made once while what it is made of stays the same objects: its head's values
    # (decoded once per head), its status and its payout (kept while its ledger rows do not change).
    made = readcache.cache_for(store, "refund-audit-rows")
    for thread_id, head in heads.items():
        status = statuses.get(thread_id, "")
        try:
            values = threadindex.head_values(store, thread_id, head)
        except DamagedValueError:  # shown with its status (attention, damaged) and its ledger row, if any
            values = {"case_id": case_of_thread(store, thread_id)}  # the case its start claimed
        else:
            if values is not None and _may_hold_writes(values, status):
                values = case_values(store, thread_id, head, values)
        if values is None:  # deleted since the heads were read: as if it had gone before
            continue
        case_id = str(values.get("case_id", ""))
        seen.add(case_id)
        paid = payouts.get(case_id) or item_totals.get(case_id)
        asked = _waiting_items(store, thread_id) if status == "waiting" and values.get("items") else 0
        waiting = waiting_amount(values, asked) if status == "waiting" else 0
        before = made.lookup(thread_id)
        if before is not None and before[0] is values and before[1:3] == (status, waiting) and before[3] is paid:
            rows.append(before[4])
            continue
        decided = _decided(values)
        row = AuditRow(
            case_id=case_id,
            thread_id=thread_id,
            status=status,
            customer=str(values.get("customer", "")),
            reason=str(values.get("reason", "")),
            requested_amount=_amount_or_none(values.get("requested_amount")),
            amount=_amount_or_none(values.get("amount")),
            executed_amount=paid["paid_amount"] if paid else None,
            decision=decided.decision,
            approver=decided.approver,
            outcome=str(values.get("outcome", "")),
            requested_at=str(values.get("requested_at", "")),
            decided_at=decided.decided_at,
            paid_at=paid["paid_at"] if paid else "",
            trace=_lines(values.get("trace")),
            requested_by=str(values.get("requested_by", "")),
            approver_name=decided.approver_name,
            approver_role=decided.approver_role,
            batch_id=_batches(values),
            waiting_amount=waiting,
        )
        made.put(thread_id, (values, status, waiting, paid, row))
        rows.append(row)
    for gone in deletion_rows(store):
        kept_paid = _paid_before(gone, payouts.get(gone["case_id"]) or item_totals.get(gone["case_id"]))
        if kept_paid is not None:  # its payout is this row's: not another row's of the case
            seen.add(gone["case_id"])
        rows.append(
            AuditRow(
                case_id=gone["case_id"],
                thread_id=gone["thread_id"],
                status=DELETED,
                customer=gone["customer"],
                requested_amount=gone["requested_amount"],
                amount=gone["amount"],
                executed_amount=kept_paid["paid_amount"] if kept_paid else None,
                outcome=str(gone["kept"].get("outcome") or "deleted"),  # a decided case keeps its outcome
                requested_at=gone["requested_at"],
                paid_at=kept_paid["paid_at"] if kept_paid else "",
                **audit_fields(gone),  # who decided what, its trace and reason, as the audit showed them then
                status_at_deletion=gone["status"],
                deleted_by=gone["deleted_by"],
                deleted_at=gone["deleted_at"],
                deletion_reason=gone["reason"],
            )
        )
    # The payouts whose case no thread lists: a case's own, and a case with items by its items' rows together.
    left = [(case_id, paid) for case_id, paid in payouts.items() if case_id not in seen]
    left += _item_cases(items, seen).items()
    # A thread paid after the heads were read is new, not deleted: it is left to the next read. Each is
    # looked up alone, so the audit of a save file with many deleted paid cases reads no other thread.
    unlisted = {
        thread_id for thread_id in {paid["thread_id"] for _, paid in left} if not _listed_as_refund(store, thread_id)
    }
    started_here = claimed_here(store, sorted(unlisted))
    rows += [
        _ledger_only(c, paid, (c, paid["thread_id"]) in started_here)
        for c, paid in left
        if paid["thread_id"] in unlisted
    ]
    return rows


def _paid_before(gone: Mapping[str, Any], paid: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
    """What a deleted case had paid when it was deleted (a :func:`agents.refund.deletions.deletion_rows` row;
    ``paid``: the ledger's payout of its case now), or None. A case id whose thread was deleted unpaid may be
    started again, and what that later thread pays is its own, never the deleted row's: the record's own
    ``paid_amount`` says. A row recorded before it kept one reads the ledger, as it always did."""
    kept = gone["kept"]
    if "paid_amount" not in kept:
        return paid
    if not kept["paid_amount"]:
        return None
    when = kept.get("paid_at") or (paid["paid_at"] if paid else "")
    return {"paid_amount": kept["paid_amount"], "paid_at": when}


def _ledger_only(case_id: str, paid: Mapping[str, Any], started_here: bool) -> AuditRow:
    """The audit row of a payout whose thread is not in this database: ``thread deleted`` when the case's start
    here is recorded (``refund_cases``: a case settled automatically is deleted without a record), else ``thread
    not in this database``. A case's own ledger row is its whole case (request, payout, approver; ``settle`` is its
    last step). A case with items (``item_count``) shows what its paid items were paid and by whom; its request and
    outcome stay empty: a rejected item, or one not decided, left no row to make them up from."""
    whole = "item_count" not in paid
    return AuditRow(
        case_id=case_id,
        thread_id=paid["thread_id"],
        status=DELETED if started_here else NOT_HERE,
        customer=paid["customer"],
        reason="",
        requested_amount=paid["requested_amount"] if whole else None,
        amount=paid["paid_amount"] if whole else None,
        executed_amount=paid["paid_amount"],
        decision="approve" if whole else "",
        approver=paid["approver"],  # a case with items: the approvers of its paid items
        outcome="paid" if whole else "",
        requested_at="",
        decided_at="",
        paid_at=paid["paid_at"],
        trace=(),
    )


def _item_cases(items: Mapping[tuple[str, str], dict[str, Any]], seen: set[str]) -> dict[str, dict[str, Any]]:
    """The cases with item payouts but not in ``seen``, each as its paid items' rows add up (what they were paid,
    how many they are: ``item_count``, the last payout's time, their approvers as a case's audit row joins them:
    :func:`agents.refund.item_decisions.joined_approvers`), for the audit of a thread not in this database. What
    the paid items asked for is not the case's request: an item rejected, or not decided, has no row."""
    found: dict[str, dict[str, Any]] = {}
    approvers: dict[str, list[Any]] = {}
    for (case_id, _item), row in sorted(items.items()):  # by item id: the ledger keeps no order of the request's
        if case_id in seen:
            continue
        kept = {key: row[key] for key in ("case_id", "thread_id", "customer", "paid_at")}  # not an item's request
        case = found.setdefault(case_id, {**kept, "paid_amount": 0, "item_count": 0})
        case["item_count"] += 1
        case["paid_amount"] += row["paid_amount"]
        case["paid_at"] = max(case["paid_at"], row["paid_at"])
        approvers.setdefault(case_id, []).append(row["approver"])
    for case_id, case in found.items():
        case["approver"] = joined_approvers(approvers[case_id])
    return found


def _decided(values: Mapping[str, Any]) -> CaseDecision:
    """Who decided a case and when: its own decision, or, for a case with items (which holds none: each item is
    decided on its own), what its items' decisions say together (:func:`agents.refund.item_decisions.case_decision`)."""
    if values.get("items"):
        return case_decision(values)
    return CaseDecision(
        decision=str(values.get("decision", "")),
        approver=str(values.get("approver", "")),
        approver_name=str(values.get("approver_name", "")),
        approver_role=str(values.get("approver_role", "")),
        decided_at=str(values.get("decided_at", "")),
    )


def _batches(values: Mapping[str, Any]) -> str:
    """The batch a case was decided in, or those its items were (each once, in order); '' for none."""
    results = values.get("item_results")
    found = [r.get("batch_id") for r in results if isinstance(r, dict)] if isinstance(results, list) else []
    found.append(values.get("batch_id"))
    return ", ".join(dict.fromkeys(str(b) for b in found if isinstance(b, str) and b))


def _waiting_items(store: Store, thread_id: str) -> int:
    """What the questions waiting in ``thread_id`` ask for together: its items still to decide."""
    return asked_amount(pending.payload for pending in threadindex.thread_of(store, thread_id).pending)


def _item_totals(store: Store) -> dict[str, dict[str, Any]]:
    """Case id → the total paid for its items and when the last was paid (cases with items only).

    Kept per process as :func:`_payouts` is: after a change, only the cases of the threads the change
    feed noted are summed again (a total unchanged stays the same object).
    """
    return caught_up(store, ("refund-item-totals", "totals"), None, _read_totals, _totals_again)


_ITEM_SUMS = "SELECT case_id, thread_id, SUM(paid_amount), MAX(paid_at) FROM refund_item_ledger"


def _read_totals(cursor: Any) -> Read:
    cursor.execute(_ITEM_SUMS + " GROUP BY case_id, thread_id")
    sums = cursor.fetchall()
    return _totals(sums, {}), keys_of([{"case_id": c, "thread_id": t} for c, t, *_ in sums])


def _totals(sums: list[Any], before: Mapping[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Case id → its total, from (case, thread, sum, latest) rows; a total equal to ``before``'s is that object."""
    found: dict[str, dict[str, Any]] = {}
    for case_id, _thread_id, paid, paid_at in sums:
        total = found.setdefault(case_id, {"paid_amount": 0, "paid_at": paid_at})
        total["paid_amount"] += int(paid)
        total["paid_at"] = max(total["paid_at"], paid_at)
    return {case_id: before[case_id] if before.get(case_id) == total else total for case_id, total in found.items()}


def _totals_again(cursor: Any, kept: Kept, changed: set[str]) -> Read | None:
    """``kept`` with the totals of the cases of the ``changed`` threads summed again (None: no case to sum)."""
    cases = {case for thread_id in changed for case in kept.cases_of.get(thread_id, ())}
    distinct = "SELECT DISTINCT case_id FROM refund_item_ledger WHERE thread_id"
    cases |= {row[0] for row in rows_in(cursor, distinct, sorted(changed))}
    if not cases:
        return None
    sums = rows_in(cursor, _ITEM_SUMS + " WHERE case_id", sorted(cases), " GROUP BY case_id, thread_id")
    rows = {case_id: total for case_id, total in kept.rows.items() if case_id not in cases}
    rows.update(_totals(sums, kept.rows))
    cases_of = {t: c - cases for t, c in kept.cases_of.items()}
    for thread_id, found in keys_of([{"case_id": c, "thread_id": t} for c, t, *_ in sums]).items():
        cases_of[thread_id] = cases_of.get(thread_id, frozenset()) | found
    return rows, {t: c for t, c in cases_of.items() if c}


def open_cases(audit: list[AuditRow]) -> list[AuditRow]:
    """The refund queue: every case that is not done (waiting for a decision, needing attention,
    running), so that no case can drop out of sight; in the audit's order (the page orders the queue
    by how long each case has waited, which the lifecycle knows)."""
    return [row for row in audit if row.status in ("waiting", "attention", "running")]
