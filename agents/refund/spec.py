"""The refund agent as the dashboard and CLI see it, and the approver's actions.

A case runs on the thread it is started on (``refund-<case id>`` when none is named; the API's
server-made ids too), and a case id can be used once: ``refund_cases`` (:mod:`agents.refund.cases`)
records which thread holds each case, claimed under the thread's lease. The rules are hooks that
``agents.runs`` calls on every path (page, generic form, raw mode, CLI): :func:`check_start` for a
request, ``check_resume`` / :func:`check_answer_for_case` for a decision,
:func:`check_update` and :func:`check_rerun` for the explorer's actions.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from agents.db import Store
from agents.errors import InputError
from agents.hitl_shape import is_decision_shaped
from agents.identity import Identity
from agents.refund import cases, deciders, deletions, item_ledger, ledger
from agents.refund.amounts import asked_amount
from agents.refund.decisions import Decision, check_decision, check_update_decision, parse_decision
from agents.refund.hitl import plain_answer
from agents.refund.ledger import AGENT_NAME
from agents.refund.rules import (
    ACTIONS,
    APPROVER_MAX_LENGTH,
    DEFAULT_POLICY,
    EMPTY_CASE_ID,
    MAX_AMOUNT,
    NOTE_MAX_LENGTH,
    POLICIES,
    check_approver_name,
    check_edit_amount,
    check_items,
    item_values,
    krw,
    recorded_approver_problem,
)
from agents.refund.strings import STRINGS
from agents.refund.words import (
    amount_line,
    decision_word,
    item_question_params,
    items_waiting_params,
    question_params,
)
from agents.settings_values import choice_setting
from agents.spec import (
    AgentPage,
    AgentSpec,
    AskPart,
    EditPart,
    Field,
    RunPart,
    ShowPart,
    UpdateRequest,
    imported_on_call,
    validate_fields,
)
from agents.texts import DEFAULT_LANGUAGE, Text, say, text
from agents.validation import INT64_MAX, INT64_MIN

THREAD_PREFIX = cases.THREAD_PREFIX
POLICY_SETTING = "HITL_REFUND_POLICY"
CASE_ID_MAX = 40
#: The nodes a human's update may be attributed to: never ``settle`` or ``reject``.
UPDATE_AS_NODES = ("assess", "review")
#: An edited amount's bounds as a field: any whole number a state can hold. Its range is the case's, 1 to the
#: requested amount (:func:`agents.refund.rules.check_edit_amount`, on every path), and a refusal names that
#: range, not the largest request.
EDIT_BOUNDS = (INT64_MIN, INT64_MAX)

START_FIELDS = (
    Field(
        name="case_id",
        kind="id",
        label="Case id",
        max_length=CASE_ID_MAX,
        cli_flag="--case",
        empty=EMPTY_CASE_ID,
        help="Letters, digits and _ . : - ; the thread is refund-<case id> unless another is named."
        " Each case id is used once.",
    ),
    Field(name="customer", label="Customer", max_length=100, help="Who asks for the refund."),
    Field(
        name="amount",
        kind="int",
        label="Requested amount (KRW)",
        minimum=1,
        maximum=MAX_AMOUNT,
        required=False,
        help=f"Whole KRW, 1 to {MAX_AMOUNT:,}. One item; for several, give items instead.",
    ),
    Field(
        name="items",
        kind="list",
        label="Items (JSON)",
        required=False,
        help='Several items instead of one amount: [{"item": "A-1", "amount": 300000}, ...]; each is decided '
        "on its own.",
    ),
    Field(name="reason", kind="textarea", label="Reason", max_length=500, help="Why the customer asks."),
)
RESUME_FIELDS = (
    Field(
        name="action",
        kind="choice",
        label="Action",
        choices=ACTIONS,
        help="edit = pay the amount below instead, and approve.",
    ),
    Field(
        name="amount",
        kind="int",
        label="Amount to pay (KRW), for edit",
        minimum=EDIT_BOUNDS[0],
        maximum=EDIT_BOUNDS[1],
        required=False,
        help="Only with edit.",
        typed_text=False,
    ),
    Field(name="approver", label="Approver", max_length=APPROVER_MAX_LENGTH, help="Who decides."),
    Field(name="note", label="Note", max_length=NOTE_MAX_LENGTH, required=False, help="Optional."),
)
STATE_FIELDS = (
    Field(
        name="amount",
        kind="int",
        label="Amount to pay (KRW)",
        minimum=EDIT_BOUNDS[0],
        maximum=EDIT_BOUNDS[1],
        help="The amount to pay; the requested amount never changes.",
        typed_text=False,
    ),
    Field(
        name="decision",
        kind="choice",
        label="Decision",
        choices=("approve", "reject"),
        help="Set a decision; review records it instead of asking.",
    ),
    Field(name="approver", label="Approver", max_length=APPROVER_MAX_LENGTH, help="Who made the change or decision."),
)


def thread_for_case(case_id: str) -> str:
    """The thread id of a case."""
    return THREAD_PREFIX + case_id


def thread_for(values: dict[str, Any], requested: str | None) -> str:
    """The requested thread, else ``refund-<case id>`` (the id as its field normalised it).

    A requested ``refund-<another case id>`` is refused: that name says it holds another case.
    """
    derived = thread_for_case(values["case_id"])
    if requested and requested.startswith(THREAD_PREFIX) and requested != derived:
        raise InputError("thread_id", text(STRINGS, "refund.error.thread_name", derived=repr(derived)))
    return requested or derived


def make_input(values: dict[str, Any], lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
    """The graph input of a validated request (the same in every run language).

    One amount (``amount``) or several items (``items``, their total the requested amount), never both.
    """
    if values.get("amount") is not None and values.get("items") is not None:
        raise InputError("items", text(STRINGS, "refund.error.amount_or_items"))
    if values.get("amount") is None and values.get("items") is None:
        raise InputError("amount", text(STRINGS, "refund.error.amount_or_items_missing"))
    graph_input = {
        "case_id": values["case_id"],
        "customer": values["customer"],
        "requested_amount": values.get("amount"),
        "reason": values["reason"],
        "requested_at": ledger.now_iso(),
    }
    if values.get("items") is not None:
        items = check_items(values["items"])
        graph_input.update(requested_amount=sum(entry["amount"] for entry in items), items=items)
    return graph_input


def check_resume(value: Any) -> dict[str, Any]:
    """Reads a raw resume value into a decision (:func:`agents.refund.decisions.parse_decision`): a JSON
    object of the resume fields, their types and their rules together. The only shape check of an answer.

    A decision in LangChain's or Agent Inbox's shape is read as those fields first.
    """
    shaped = is_decision_shaped(value)
    value = plain_answer(value)
    if not isinstance(value, dict):
        parse_decision(value)  # raises with an example of the expected object
    if shaped and value.get("approver") in (None, ""):
        # A client's decision (Agent Inbox sends no approver) naming no one, and no one signed in (a
        # signed-in approver is filled in before this): say how a name gets there.
        raise InputError("approver", text(STRINGS, "refund.error.approver_missing"))
    return parse_decision(validate_fields(RESUME_FIELDS, value)).to_answer()


def make_resume(values: dict[str, Any]) -> dict[str, Any]:
    """The resume value of validated resume fields (the typed form's); checked by :func:`check_resume`
    when it is answered, as every answer is."""
    return dict(values)


def check_answer_for_case(values: dict[str, Any], answer: Any) -> None:
    """An edit pays from 1 up to the requested amount; checked against the case on every path."""
    if isinstance(answer, dict) and answer.get("action") == "edit":
        check_edit_amount(answer["amount"], values.get("requested_amount"))


def authorize_answer(actor: Identity, values: dict[str, Any], answer: Any) -> None:
    """An approver's role, limit and four eyes (:func:`agents.refund.decisions.check_decision`), checked
    once per answer on every path before the decision is recorded."""
    check_decision(Decision.of(answer), values, actor)


def recorded_payout(store: Store, question: Any) -> int | None:
    """The amount the ledger holds paid for a question (an item's in the item ledger, a case's in the
    ledger), or None: read after a run that answered it failed, since the payout commits before the
    step's result is saved (a retry then records it as already paid)."""
    if not isinstance(question, dict) or not isinstance(question.get("case_id"), str):
        return None
    if "item" in question:
        row = item_ledger.item_payout(store, question["case_id"], str(question["item"]))
    else:
        row = ledger.payout_for(store, question["case_id"])
    return None if row is None else int(row["paid_amount"])


def authorize_update(actor: Identity, request: UpdateRequest) -> None:
    """A decision or an amount set by ``update_state`` is checked as a decision is
    (:func:`agents.refund.decisions.check_update_decision`)."""
    check_update_decision(request.values, request.target, actor)


def sign_input(graph_input: dict[str, Any], actor: Identity) -> dict[str, Any]:
    """Records a signed-in requester with the request (four eyes); nothing in local mode.

    Every name the requester is known by is recorded (their email, display name and token labels,
    as the roles file has them now), so no way of writing them approves their own case later.
    """
    if actor.local:
        return graph_input
    names = list(actor.names)
    return {**graph_input, "requested_by": actor.email, "requested_by_name": actor.name, "requested_by_names": names}


@dataclass(frozen=True)
class RefundSettings:
    """The refund agent's settings.

    Attributes:
        policy: ``strict`` (routed on the requested amount) or ``reroute`` (LangGraph's own
            behaviour: an edit is routed again), from ``HITL_REFUND_POLICY``.
    """

    policy: str = DEFAULT_POLICY


def settings_from(values: Mapping[str, str]) -> RefundSettings:
    """Reads ``HITL_REFUND_POLICY``; an unknown policy is refused, naming the setting."""
    return RefundSettings(policy=choice_setting(values, POLICY_SETTING, POLICIES, DEFAULT_POLICY))


def options_from_settings(settings: RefundSettings) -> dict[str, Any]:
    """The graph's build options: the routing policy."""
    return {"policy": settings.policy}


#: A case's stored outcome codes and their words' keys, so a message about a case reads in the reader's language.
_OUTCOME_WORDS = {
    "paid": "refund.outcome.paid",
    "already paid": "refund.outcome.already_paid",
    "rejected": "refund.outcome.rejected",
    "partly paid": "refund.outcome.partly_paid",
    "finished": "refund.outcome.finished",
}


def _outcome_word(outcome: Any) -> Text | str:
    """A stored outcome as a word (a code this agent does not know is shown as stored)."""
    key = _OUTCOME_WORDS.get(str(outcome))
    return text(STRINGS, key) if key else str(outcome)


def _case_final(store: Store, head: dict[str, Any]) -> Text | None:
    """Why a case may no longer change (None when it may): it was paid or rejected."""
    outcome = head.get("outcome")
    if outcome:
        return text(STRINGS, "refund.error.finished", outcome=_outcome_word(outcome))
    case_id = head.get("case_id")
    if case_id and ledger.payout_for(store, str(case_id)) is not None:
        return text(STRINGS, "refund.error.paid")
    if case_id and head.get("items") and item_ledger.case_has_item_payouts(store, str(case_id)):
        return text(STRINGS, "refund.error.paid")
    return None


def check_rerun(store: Store, head: dict[str, Any]) -> None:
    """A paid or rejected case is final: no re-run or fork from an older checkpoint can reopen it."""
    problem = _case_final(store, head)
    if problem:
        raise InputError("checkpoint_id", problem)


def check_update(store: Store, request: UpdateRequest) -> dict[str, Any]:
    """The rules of a human's ``update_state`` on a case, whichever form or command sends it.

    * Payment and rejection happen only through a decision: ``as_node`` may be
      ``assess`` or ``review`` (or LangGraph's choice), never ``settle`` or ``reject``.
    * A finished (paid or rejected) case cannot be changed.
    * An amount is a whole number from 1 up to the requested amount.
    * A decision names its approver in the same update; the time and a trace line are added.
    * An approver without a decision names who edits the amount, in the edit's trace line: the case's
      approver is the one on its decision. An approver alone (no decision, no amount) is refused: it
      would record an approver for a case no one decided, with nothing in its trace.
    * A case that was already decided is not edited: continue it instead.
    * An amount edit to the amount the case has is refused: it changes nothing, and the case waiting again
      after it would start its wait (and its deadline) anew, so an overdue case would no longer look it.

    Returns:
        The update to write (the validated values, plus ``decided_at`` and a trace line
        when it carries a decision).
    """
    update = dict(request.values)
    field = next(iter(update), "values")
    if request.as_node not in (None, *UPDATE_AS_NODES):
        raise InputError("as_node", text(STRINGS, "refund.error.as_node", nodes=" or ".join(UPDATE_AS_NODES)))
    if request.head.get("items") or request.target.get("items"):  # each item is its own question
        raise InputError(field, text(STRINGS, "refund.error.items_update"))
    problem = _case_final(store, request.head)
    if problem:
        raise InputError(field, problem)
    if "threshold" not in request.target or "requested_amount" not in request.target:
        key = "refund.error.fork_not_opened" if request.forking else "refund.error.not_opened"
        raise InputError(field, text(STRINGS, key))
    decided = request.target.get("decision")
    if decided:  # not even the approver: the payout is recorded for whoever decided
        approver = request.target.get("approver")
        raise InputError(field, text(STRINGS, "refund.error.decided", decision=decided, approver=approver))
    trace: list[str] = []
    editor = update.get("approver")
    if "approver" in update:
        check_approver_name(update["approver"])
        if "decision" not in update:
            if "amount" not in update:
                raise InputError("approver", text(STRINGS, "refund.error.approver_without_decision"))
            del update["approver"]  # the amount's editor, named in its trace line below; no one decided yet
    if "amount" in update:
        # The trace line is written with the edit itself: the case waits again at ``review``,
        # whose interrupt returns nothing, so no node would write it before the approver looks.
        old = request.target.get("amount")
        check_edit_amount(update["amount"], request.target.get("requested_amount"))
        if update["amount"] == old and "decision" not in update:  # it would only restart the wait and its deadline
            raise InputError("amount", text(STRINGS, "refund.error.same_amount", amount=krw(old)))
        trace.append(amount_line(old, update["amount"], editor, request.lang, by_update=True))
        update["recorded_amount"] = update["amount"]
    if "decision" in update:
        if not update.get("approver"):
            raise InputError("approver", text(STRINGS, "refund.error.approver_with_decision"))
        update["decided_at"] = ledger.now_iso()
        word = decision_word(update["decision"], request.lang)
        trace.append(
            say(STRINGS, "refund.say.update_decision", request.lang, decision=word, approver=update["approver"])
        )
    if trace:
        update["trace"] = trace
    return update


def finished_outcome(store: Store, thread_id: str, values: dict[str, Any]) -> tuple[str, str | Text]:
    """``paid`` (exactly one ledger row) or ``rejected`` (none); anything else is inconsistent.

    A case with items: ``paid``, ``rejected`` or ``partly paid`` when every item has its result and
    each paid item exactly one row of the item ledger, each rejected one none.
    """
    if values.get("items"):
        return _items_outcome(store, values)
    outcome = values.get("outcome")
    case_id = str(values.get("case_id", ""))
    payout = ledger.payout_for(store, case_id) if case_id else None
    if outcome in ("paid", "already paid") and payout is not None:
        return "paid", ""
    if outcome == "rejected" and payout is None:
        if values.get("decision") == "reject" and not recorded_approver_problem(values, "reject"):
            return "rejected", ""
        return "", text(STRINGS, "refund.problem.unsigned_rejection")
    if payout is not None:
        paid = f"{payout['paid_amount']:,}"
        return "", text(STRINGS, "refund.problem.payout", outcome=_outcome_word(outcome or "finished"), paid=paid)
    return "", text(STRINGS, "refund.problem.neither", outcome=_outcome_word(outcome or "finished"))


def outcome_key(values: dict[str, Any]) -> str:
    """The case id, marked ``items:`` for a case with items: :func:`finished_outcome` reads its ledger rows."""
    case_id = str(values.get("case_id", ""))
    return f"{_ITEMS_KEY}{case_id}" if case_id and values.get("items") else case_id


#: How :func:`outcome_key` marks a case with items, whose outcome reads the item ledger too.
_ITEMS_KEY = "items:"


def outcome_mark(store: Store, key: str) -> str:
    """The case's ledger rows as text (empty: none), which changes whenever one of them does.

    The case's own row, and for a case with items its items' rows (:mod:`agents.refund.item_ledger`),
    against which such a case is checked item by item.
    """
    case_id = key.removeprefix(_ITEMS_KEY)
    if not case_id:
        return ""
    items = item_ledger.item_payouts(store, case_id) if key.startswith(_ITEMS_KEY) else []
    return _mark(ledger.payout_for(store, case_id), items)


def outcome_marks(store: Store, keys: Sequence[str]) -> dict[str, str]:
    """:func:`outcome_mark` of each key, from one read of each ledger (a cold start checks every case)."""
    payouts = ledger.payouts(store)
    items: dict[str, list[dict[str, Any]]] = {}
    if any(key.startswith(_ITEMS_KEY) for key in keys):
        for row in item_ledger.item_payouts(store):  # in the order one case's read returns them
            items.setdefault(row["case_id"], []).append(row)
    found = {}
    for key in keys:
        case_id = key.removeprefix(_ITEMS_KEY)
        case_items = items.get(case_id, []) if key.startswith(_ITEMS_KEY) else []
        found[key] = _mark(payouts.get(case_id), case_items) if case_id else ""
    return found


def _mark(payout: dict[str, Any] | None, items: list[dict[str, Any]]) -> str:
    rows: list[Any] = [[payout[column] for column in ledger.LEDGER_COLUMNS]] if payout is not None else []
    rows += items
    return json.dumps(rows, default=str, sort_keys=True) if rows else ""


def _items_outcome(store: Store, values: dict[str, Any]) -> tuple[str, str | Text]:
    """The outcome of a finished case with items, checked item by item against the item ledger."""
    outcome = str(values.get("outcome") or "finished")
    rows = {row["item"]: row for row in item_ledger.item_payouts(store, str(values.get("case_id", "")))}
    results = {r.get("item"): r for r in values.get("item_results") or [] if isinstance(r, dict)}
    wanted = [entry.get("item") for entry in values.get("items") or [] if isinstance(entry, dict)]
    consistent = outcome in ("paid", "rejected", "partly paid") and set(results) == set(wanted)
    for item, result in results.items():
        paid = result.get("outcome") in ("paid", "already paid")
        row = rows.get(item)
        consistent = consistent and (
            row is not None and row["paid_amount"] == result.get("paid_amount") if paid else row is None
        )
    if consistent:
        return outcome, ""
    return "", text(STRINGS, "refund.problem.items", outcome=_outcome_word(outcome))


def check_start(store: Store, values: dict[str, Any]) -> None:
    """A case id is used once: one that a thread holds, or that was already paid (even after its thread
    was deleted), is refused naming ``case_id`` (and the thread). Run by ``runs.start_run`` on every
    path, on the id as its field normalised it: the same text the state and the ledger's key hold.
    An id that reads as another case's (case, width, look-alike letters: :func:`agents.names.id_key`) is that
    case, refused naming it and its thread.
    Two starts racing on different threads both pass here; :func:`claim_start` lets one through."""
    case_id = values["case_id"]
    holder = cases.holding_thread(store, case_id)
    if holder is not None:
        raise InputError("case_id", cases.held_message(case_id, holder))
    if ledger.payout_for(store, case_id) is not None or item_ledger.case_has_item_payouts(store, case_id):
        raise InputError("case_id", text(STRINGS, "refund.error.case_paid", case_id=repr(case_id)))
    cases.check_lookalike(store, case_id)  # `c1`, `Ｃ1`, `С1` are case C1: refused naming it and its thread


def claim_start(store: Store, values: dict[str, Any], thread_id: str) -> None:
    """Records ``thread_id`` as the case's thread, under its lease (:func:`agents.refund.cases.claim`)."""
    cases.claim(store, values["case_id"], thread_id)


def question_text(payload: Any) -> Text | None:
    """The approver's question in the reader's language (the inbox), from the case the payload names."""
    if isinstance(payload, dict) and isinstance(payload.get("question"), str) and _QUESTION_KEYS <= payload.keys():
        if "item" in payload:
            return Text("refund.say.item_question", STRINGS["refund.say.item_question"], item_question_params(payload))
        return Text("refund.say.question", STRINGS["refund.say.question"], question_params(payload))
    return None


def questions_text(payloads: Sequence[Any]) -> Text | None:
    """Why a case waits on several items at once, in the reader's language: the case, how many of its items
    wait (which) and what they ask for together; None unless every payload is an item's question."""
    if not payloads or not all(isinstance(p, dict) and "item" in p and _QUESTION_KEYS <= p.keys() for p in payloads):
        return None
    params = items_waiting_params(payloads, asked_amount(payloads))
    return Text("refund.say.items_waiting", STRINGS["refund.say.items_waiting"], params)


#: What a review payload holds besides its question: the case the question is about.
_QUESTION_KEYS = frozenset(("case_id", "customer", "amount", "requested_amount", "actions"))


SPEC = AgentSpec(
    name=AGENT_NAME,
    title="Refund agent",
    description="Refunds above 100,000 KRW wait for an approver, who approves, rejects or edits; paid once.",
    run=RunPart(
        build_graph=imported_on_call("agents.refund.graph", "build_graph"),
        start_fields=START_FIELDS,
        make_input=make_input,
        thread_for=thread_for,
        check_start=check_start,
        claim_start=claim_start,
        sign_input=sign_input,
        settings_from=settings_from,
        options_from_settings=options_from_settings,
        tables=(
            ledger.LEDGER_TABLE,
            ledger.ASSESSMENT_TABLE,
            deletions.DELETION_TABLE,
            item_ledger.ITEM_LEDGER_TABLE,
            cases.CASES_TABLE,
        ),
    ),
    ask=AskPart(
        resume_fields=RESUME_FIELDS,
        make_resume=make_resume,
        check_resume=check_resume,
        check_answer=check_answer_for_case,
        question_values=item_values,
        authorize_answer=authorize_answer,
        signed_field="approver",
        decision_rights=deciders.decision_rights,
        recorded_payout=recorded_payout,
        asked_amount=asked_amount,
    ),
    show=ShowPart(
        page=AgentPage("app_pages/refund.py", ":material/currency_exchange:", "refund"),
        finished_outcome=finished_outcome,
        outcome_key=outcome_key,
        outcome_mark=outcome_mark,
        outcome_marks=outcome_marks,
        strings=STRINGS,
        question_text=question_text,
        questions_text=questions_text,
    ),
    edit=EditPart(
        state_fields=STATE_FIELDS,
        as_nodes=UPDATE_AS_NODES,
        check_update=check_update,
        check_rerun=check_rerun,
        authorize_update=authorize_update,
        continue_after_update=True,
        as_node_note=" (payment and rejection happen only through a decision, never as settle or reject)",
        check_delete=deletions.check_delete,
        record_delete=deletions.record_delete,
        deleted_unfinished=deletions.deleted_unfinished,
    ),
)
