"""A refund with several items: one task per item, each paid or decided on its own.

``assess`` fans out with ``Send``, one ``item`` task per item. An item at or under the threshold is
paid at once; one above it calls ``interrupt()`` in its own task, so the thread has several questions
pending at once, each with its own interrupt id, answered in any order
(``Command(resume={interrupt_id: answer})``). An answer refused in its task (not checked before the run:
LangGraph's own tooling) asks that item again with the reason in its ``error``, while the other items
answered in the same run are decided (:func:`agents.refund.asking.ask`). When every item is decided,
``finish_items`` records the case's outcome (``paid``, ``rejected`` or ``partly paid``) beside each item's.

As in ``review`` and ``settle``, nothing irreversible happens before ``interrupt()``: the task pays
only after its answer, and the item ledger's key (case, item) makes a second run of the task (a crash
between the payout and the checkpoint) report "already paid" instead of paying twice. Such a second run
reads the ledger first and, finding the item paid, records that payout without asking again: the
decision and the payout are one task, so the payout is the record of the decision that was lost.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NotRequired

from langchain_core.runnables import RunnableConfig
from langgraph.types import Send
from typing_extensions import TypedDict

from agents.common import run_language
from agents.db import Store
from agents.identity import actor_of, batch_of
from agents.refund.asking import ask
from agents.refund.item_ledger import item_payout, pay_item
from agents.refund.ledger import now_iso
from agents.refund.rules import ACTIONS, AUTOMATIC_APPROVER, krw, signed_decision
from agents.refund.state import RefundState
from agents.refund.strings import STRINGS
from agents.refund.words import item_question_params
from agents.texts import DEFAULT_LANGUAGE, say

#: What a case records about its requester, handed to each item's task (four eyes holds per item).
_REQUESTER_KEYS = ("requested_by", "requested_by_name", "requested_by_names")


class ItemTask(TypedDict):
    """One item's task: the case it belongs to, the item and the threshold the case was assessed under."""

    case_id: str
    customer: str
    reason: str
    item: str
    requested_amount: int
    threshold: int
    item_count: int
    requested_by: NotRequired[str]
    requested_by_name: NotRequired[str]
    requested_by_names: NotRequired[list[str]]


def item_tasks(state: RefundState, threshold: int) -> list[Send]:
    """One ``item`` task per item of the request (the route after ``assess`` for a case with items)."""
    items = state.get("items") or []
    recorded = state.get("threshold")
    limit = min(recorded, threshold) if isinstance(recorded, int) and not isinstance(recorded, bool) else threshold
    common = {key: state[key] for key in _REQUESTER_KEYS if key in state}  # type: ignore[literal-required]
    return [
        Send(
            "item",
            ItemTask(
                case_id=state["case_id"],
                customer=state["customer"],
                reason=state["reason"],
                item=entry["item"],
                requested_amount=entry["amount"],
                threshold=limit,
                item_count=len(items),
                **common,  # type: ignore[typeddict-item]
            ),
        )
        for entry in items
    ]


def item_question(task: ItemTask, lang: str = DEFAULT_LANGUAGE) -> str:
    """The approver's question about one item."""
    return say(STRINGS, "refund.say.item_question", lang, **item_question_params(dict(task)))


def make_item(store: Store | None) -> Callable[[ItemTask, RunnableConfig], dict[str, Any]]:
    """The ``item`` node over the item ledger in ``store``."""

    def item(task: ItemTask, config: RunnableConfig) -> dict[str, Any]:
        """Pays an item at or under the threshold; asks about one above it, then pays or rejects it."""
        if store is None:
            raise RuntimeError("an item task needs the database that holds the ledger (build_graph(store=...))")
        lang, requested = run_language(config), task["requested_amount"]
        result: dict[str, Any] = {"item": task["item"], "requested_amount": requested}
        if (paid := item_payout(store, task["case_id"], task["item"])) is not None:
            # Paid by an earlier run of this task that died before its result was saved (the payout is
            # committed after the answer, in the same task): the ledger is the record, and the item is
            # not asked again, so no later answer can contradict a payout that happened.
            words = {"item": task["item"], "paid": krw(paid["paid_amount"]), "requested": krw(requested)}
            line = say(STRINGS, "refund.say.item_already_paid", lang, paid_at=paid["paid_at"], **words)
            recorded = {"decision": "approve", "approver": paid["approver"], "decided_at": paid["paid_at"]}
            done = {"amount": paid["paid_amount"], "paid_amount": paid["paid_amount"], "paid_at": paid["paid_at"]}
            return {"item_results": [{**result, **recorded, **done, "outcome": "already paid"}], "trace": [line]}
        if requested <= task["threshold"]:
            approver, amount, note = AUTOMATIC_APPROVER, requested, ""
            result.update(decision="approve", approver=approver, decided_at=now_iso())
        else:
            payload = {**task, "question": item_question(task, lang), "amount": requested, "actions": list(ACTIONS)}
            actor = actor_of(config)
            # Checked per item (an edit from 1 to the item's amount); a refused answer asks this item again.
            answer = ask(payload, {**task, "amount": requested}, actor, config, lang).to_answer()
            approver = answer["approver"] if actor.local else actor.email
            amount = answer["amount"] if answer["action"] == "edit" else requested
            note = say(STRINGS, "refund.say.note", lang, note=answer["note"]) if answer.get("note") else ""
            decision = "reject" if answer["action"] == "reject" else "approve"
            result.update(decision=decision, approver=approver, note=answer.get("note") or "", decided_at=now_iso())
            result.update(signed_decision(actor))
            if batch := batch_of(config):
                result["batch_id"] = batch
                note += say(STRINGS, "refund.say.batch", lang, batch=batch)
            if decision == "reject":
                line = say(STRINGS, "refund.say.item_rejected", lang, item=task["item"], approver=approver, note=note)
                return {"item_results": [{**result, "amount": amount, "outcome": "rejected"}], "trace": [line]}
        payout = pay_item(
            store,
            case_id=task["case_id"],
            item=task["item"],
            thread_id=str(config["configurable"]["thread_id"]),
            customer=task["customer"],
            requested_amount=requested,
            amount=amount,
            approver=approver,
        )
        words = {"item": task["item"], "paid": krw(payout.paid_amount), "requested": krw(requested)}
        if not payout.created:
            line = say(STRINGS, "refund.say.item_already_paid", lang, paid_at=payout.paid_at, **words)
        elif approver == AUTOMATIC_APPROVER:
            line = say(STRINGS, "refund.say.item_paid_automatic", lang, threshold=krw(task["threshold"]), **words)
        else:
            line = say(STRINGS, "refund.say.item_paid", lang, approver=approver, note=note, **words)
        outcome = "paid" if payout.created else "already paid"
        paid = {"amount": amount, "paid_amount": payout.paid_amount, "paid_at": payout.paid_at, "outcome": outcome}
        return {"item_results": [{**result, **paid}], "trace": [line]}

    return item


def finish_items(state: RefundState, config: RunnableConfig) -> dict[str, Any]:
    """Records the case's outcome once every item is decided: ``paid``, ``rejected`` or ``partly paid``."""
    results = state.get("item_results") or []
    paid = [r for r in results if r.get("outcome") in ("paid", "already paid")]
    rejected = [r for r in results if r.get("outcome") == "rejected"]
    outcome = "paid" if not rejected else "rejected" if not paid else "partly paid"
    total = sum(int(r["paid_amount"]) for r in paid)
    line = say(
        STRINGS, "refund.say.items_done", run_language(config), paid=len(paid), total=krw(total), rejected=len(rejected)
    )
    return {"outcome": outcome, "paid_amount": total, "amount": total, "recorded_amount": total, "trace": [line]}
