"""The record of refund cases deleted before they were finished, or after a person decided them (a project table).

A refund that waits for a decision, or needs attention, is a customer's open claim: deleting its thread
must not make it vanish. :func:`check_delete` refuses such a deletion without a reason ("reject it first,
or delete with a reason"); with one, :func:`record_delete` writes a permanent row (case, customer,
requested amount, status at deletion, who, when, why) before the thread's checkpoints go, and the audit
(``agents.refund.ledger.audit_rows``) shows it as a case whose outcome is ``deleted``. Both run from
``agents.deletion.delete_thread``, the one path the CLI, the sidebar form and the HTTP API take.

A case a person decided (rejected, or paid on an approval) is deleted without a reason, but not without a
trace: its decision (who, when, the note) lived only in its thread, and a rejection erased with it would let
the same case be started again and paid as if no one had ever refused it. Its row is written the same way,
with its status ``done`` and its outcome (:data:`KEPT_FINISHED`); the audit shows it beside a later thread of
the case, ``python -m agents deletions`` and the explorer's *Deleted threads* list it with its outcome, and a
notification scan that never saw its decision tells it from here (its last wait: ``waited_since``). A case the
agent settled on its own (no one asked) keeps no row: its payout in the ledger is its whole record.

The row also keeps (``kept``, JSON) what the audit showed of the case at that moment, which the thread's
checkpoints held and its deletion takes away: who decided what, when, in which batch, its trace and the
customer's reason (:func:`audit_fields`), what it had paid and what still waited (of how many items), and
each question it asked a person (:data:`agents.notify.facts.QUESTION_FACTS`: item, amount), so the deletion
is told to the people who were asked to decide it, chosen as its waiting mails were
(:func:`deleted_unfinished`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from agents import threadindex
from agents.db import Store, TableSchema
from agents.deletion_record import ENDED_FIELDS, deletion_row, insert_deletion
from agents.errors import InputError
from agents.readmodel import checkpoint_time
from agents.refund.cases import case_of_thread
from agents.refund.rules import AUTOMATIC_APPROVER
from agents.refund.strings import STRINGS
from agents.schema import deletion_ddl
from agents.spec import DeleteRequest, imported_on_call
from agents.texts import text

DELETION_COLUMNS = (
    "thread_id", "head_checkpoint_id", "case_id", "customer", "requested_amount", "amount",
    "requested_at", "kept", "status", "deleted_by", "deleted_by_name", "deleted_at", "reason",
)  # fmt: skip

#: One row per deleted unfinished case; (thread, head) is the key, so a delete retried after a crash
#: between the record and the deletion records the case once.
DELETION_TABLE = TableSchema(
    "refund_deletions",
    deletion_ddl(
        "refund_deletions",
        """\
    case_id TEXT NOT NULL,
    customer TEXT NOT NULL,
    requested_amount INTEGER,
    amount INTEGER,
    requested_at TEXT NOT NULL,
    kept TEXT,
""",
    ),
    migrated_columns=DELETION_COLUMNS,
)


#: The audit's rows (``agents.refund.ledger.audit_rows``), imported when first called: the ledger reads this
#: module's rows, and a deletion reads the audit's row of the case it deletes.
audit_rows = imported_on_call("agents.refund.ledger", "audit_rows")

#: What the record keeps of the case's audit row at deletion (``agents.refund.ledger.AuditRow``'s fields), which
#: the audit of the deleted case shows again (:func:`audit_fields`).
KEPT_AUDIT = (
    "reason", "decision", "approver", "approver_name", "approver_role", "decided_at", "batch_id", "trace",
    "requested_by",
)  # fmt: skip
#: What it keeps of the case's values for choosing whom its deletion is told to (four eyes: never the requester).
KEPT_REQUESTER = ("requested_by_name", "requested_by_names")
#: What it keeps of a case a person decided (status ``done``): its outcome (``paid``, ``rejected``, ``partly
#: paid``), the approver's note, and when its last wait began (``waited_since``, ISO 8601 UTC: the episode its
#: ``decided`` notification is keyed by).
KEPT_FINISHED = ("outcome", "note", "waited_since")


def _amount(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def decided_by_person(values: Mapping[str, Any]) -> bool:
    """Whether a person decided the case: its decision names an approver (not the agent's own settlement), or,
    for a case with items, at least one item's does."""
    if values.get("items"):
        results = values.get("item_results")
        return any(
            isinstance(result, dict) and result.get("approver") not in (None, "", AUTOMATIC_APPROVER)
            for result in (results if isinstance(results, list) else [])
        )
    return bool(values.get("decision")) and values.get("approver") not in (None, "", AUTOMATIC_APPROVER)


def _kept_for(request: DeleteRequest) -> bool:
    """Whether deleting the case leaves a row: it is unfinished, or a person decided it."""
    return request.status != "done" or decided_by_person(request.values)


def check_delete(store: Store, request: DeleteRequest) -> None:
    """Refuses deleting an unfinished case (waiting or attention) without a reason, naming ``reason``; its
    status in the reader's words."""
    if request.status != "done" and request.reason is None:
        key = f"refund.delete.status.{request.status}"
        status = text(STRINGS, key) if key in STRINGS else request.status
        raise InputError(
            "reason", text(STRINGS, "refund.error.delete_unfinished", thread=repr(request.thread_id), status=status)
        )


def _audit_row(store: Store, request: DeleteRequest) -> dict[str, Any]:
    """The case's audit row as the audit shows it now, at the head about to go ({} for none)."""
    rows = audit_rows(store, {request.thread_id: request.status}, {request.thread_id: request.head_checkpoint_id})
    found = [row for row in rows if row.thread_id == request.thread_id and row.status == request.status]
    return found[0].to_json() if found else {}


def _question(item: Any, amount: Any, requested: Any) -> dict[str, Any]:
    return {"item": str(item), "amount": _amount(amount), "requested_amount": _amount(requested)}


def asked_questions(store: Store, thread_id: str, values: Mapping[str, Any]) -> tuple[list[dict[str, Any]], int]:
    """(each question a case with items asked a person, how many of them wait now); ``([], 0)`` without items.

    The questions waiting at the thread's head first (each item's, as it asks), then the items a person decided
    (an item settled automatically asked no one), each with the amount it asked about.
    """
    if not values.get("items"):
        return [], 0
    waiting = [
        _question(payload["item"], payload.get("amount"), payload.get("requested_amount"))
        for payload in (pending.payload for pending in threadindex.thread_of(store, thread_id).pending)
        if isinstance(payload, dict) and "item" in payload
    ]
    asked = {question["item"] for question in waiting}
    results = values.get("item_results")
    decided = [
        _question(result.get("item"), result.get("requested_amount"), result.get("requested_amount"))
        for result in (results if isinstance(results, list) else [])
        if isinstance(result, dict) and result.get("approver") not in (None, "", AUTOMATIC_APPROVER)
        and str(result.get("item")) not in asked
    ]  # fmt: skip
    return waiting + decided, len(waiting)


def kept_of(store: Store, request: DeleteRequest) -> dict[str, Any]:
    """What the record keeps of the case beside its columns (the ``kept`` column): :data:`KEPT_AUDIT` as its
    audit row shows them, what it had paid (``paid_amount``) and what waited (``waiting_amount``), its items
    (``item_count``, ``waiting_count``), the questions it asked a person (``questions``), and who requested it."""
    values = request.values
    row = _audit_row(store, request)
    kept: dict[str, Any] = {key: row[key] for key in KEPT_AUDIT if row.get(key) not in (None, "", [])}
    kept |= {key: values[key] for key in KEPT_REQUESTER if values.get(key)}
    kept["paid_amount"] = _amount(row.get("executed_amount")) or 0
    kept["waiting_amount"] = _amount(row.get("waiting_amount")) or 0
    if row.get("paid_at"):  # when it was paid: a later thread of the case is paid apart (its own row)
        kept["paid_at"] = row["paid_at"]
    questions, waiting = asked_questions(store, request.thread_id, values)
    items = values.get("items")
    if isinstance(items, list) and items:
        kept |= {"item_count": len(items), "waiting_count": waiting, "questions": questions}
    if request.status == "done":
        outcome = values.get("outcome")
        kept["outcome"] = "paid" if outcome == "already paid" else outcome  # as its finished status reads it
        kept |= {"note": values["note"]} if isinstance(values.get("note"), str) and values["note"] else {}
        kept |= {"waited_since": since} if (since := last_wait(store, request.thread_id)) else {}
    return {key: value for key, value in kept.items() if value is not None}


def last_wait(store: Store, thread_id: str) -> str | None:
    """When the thread's last wait for a person began (ISO 8601 UTC: the time of the last checkpoint it waited
    at, as ``waiting_since`` reads it), or None when it never waited."""
    with store.read() as cursor:
        waits = [row[1] for row in store.queries.interrupt_writes(cursor, [thread_id])]
    return checkpoint_time(max(waits)).isoformat() if waits else None


def record_delete(store: Store, request: DeleteRequest) -> None:
    """Writes the permanent row of a case about to be deleted unfinished, or after a person decided it (one the
    agent settled on its own keeps its ledger row)."""
    if not _kept_for(request):
        return
    values = request.values
    row = deletion_row(
        request,
        str(values.get("case_id") or case_of_thread(store, request.thread_id)),  # unreadable: the case it claimed
        str(values.get("customer", "")),
        _amount(values.get("requested_amount")),
        _amount(values.get("amount")),
        str(values.get("requested_at", "")),
        json.dumps(kept_of(store, request), ensure_ascii=False),
    )
    insert_deletion(store, "refund_deletions", DELETION_COLUMNS, row)


def _kept(value: Any) -> dict[str, Any]:
    """The ``kept`` column read back; {} for a row recorded before it was kept (or one that cannot be read)."""
    try:
        found = json.loads(value) if isinstance(value, str) else None
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}


def deletion_rows(store: Store) -> list[dict[str, Any]]:
    """Every recorded deletion (keys :data:`DELETION_COLUMNS`, ``kept`` read as a dict), newest first."""
    with store.read() as cursor:
        cursor.execute(
            f"SELECT {', '.join(DELETION_COLUMNS)} FROM refund_deletions ORDER BY deleted_at DESC, thread_id"
        )
        rows = [dict(zip(DELETION_COLUMNS, found, strict=True)) for found in cursor.fetchall()]
    return [row | {"kept": _kept(row["kept"])} for row in rows]


def audit_fields(row: Mapping[str, Any]) -> dict[str, Any]:
    """What the audit row of a deleted case (a :func:`deletion_rows` row) shows of it as the audit showed it at
    deletion: :data:`KEPT_AUDIT` (empty for a row recorded before they were kept)."""
    kept = row["kept"]
    trace = kept.get("trace")
    fields = {key: str(kept.get(key) or "") for key in KEPT_AUDIT if key != "trace"}
    return fields | {"trace": tuple(str(line) for line in trace) if isinstance(trace, list) else ()}


def deleted_unfinished(store: Store) -> list[dict[str, Any]]:
    """Every recorded deletion as its ``deleted`` notification tells it (the refund's ``EditPart.deleted_unfinished``):
    the row's columns, what waited (``amount``: what its waiting items asked for, for a case with items), what it
    had paid, its items, the questions it asked a person and who requested it (whom the message goes to:
    ``agents.notify.channels.may_decide``, who may decide at least one of those questions)."""
    found = []
    for row in deletion_rows(store):
        kept = row["kept"]
        told = {key: kept[key] for key in ("paid_amount", "item_count", "waiting_count", "questions") if key in kept}
        if "item_count" in kept:
            told["amount"] = kept.get("waiting_amount", 0)
        requester = {key: kept[key] for key in ("requested_by", *KEPT_REQUESTER) if key in kept}
        found.append({key: value for key, value in row.items() if key != "kept"} | requester | told | _ended(row))
    return found


def _ended(row: Mapping[str, Any]) -> dict[str, Any]:
    """How a decided case ended, for a row of one deleted once a person decided it (status ``done``; {} for
    another): :data:`ENDED_FIELDS`, when its last wait began (``waited_since``), and ``outcome_text``, those
    words in the reader's language ("rejected by park (note: fraud suspected)")."""
    kept = row["kept"]
    if row["status"] != "done":
        return {}
    ended = {key: kept[key] for key in ENDED_FIELDS if kept.get(key) not in (None, "")}
    ended |= {"waited_since": kept["waited_since"]} if kept.get("waited_since") else {}
    outcome = str(kept.get("outcome") or "finished")
    key = f"refund.outcome.{outcome.replace(' ', '_')}"
    paid = _amount(kept.get("paid_amount"))
    ended["outcome_text"] = text(
        STRINGS,
        "refund.deleted.outcome",
        outcome=text(STRINGS, key) if key in STRINGS else outcome,
        approver=str(kept.get("approver") or "?"),
        paid=text(STRINGS, "refund.deleted.paid", amount=f"{paid:,}") if paid else "",
        note=text(STRINGS, "refund.say.note", note=kept["note"]) if kept.get("note") else "",
    )
    return ended
