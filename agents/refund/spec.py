"""The refund agent as the dashboard and CLI see it, and the approver's actions.

A case's thread id is derived from its case id (``refund-<case id>``), so a
case id can be used once. The page and the CLI go through the same functions:
``runs.start_run`` for a request, :func:`decide` (or ``runs.resume_thread``)
for a decision.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from agents import readmodel
from agents.db import Store
from agents.errors import InputError, StaleFormError, ThreadNotFoundError
from agents.refund import ledger
from agents.refund.graph import (
    ACTIONS,
    AGENT_NAME,
    DEFAULT_POLICY,
    MAX_AMOUNT,
    POLICIES,
    build_graph,
    check_answer,
)
from agents.settings import Settings
from agents.spec import AgentSpec, Field, validate_fields
from agents.validation import validate_thread_id

if TYPE_CHECKING:
    from agents.runs import RunResult

THREAD_PREFIX = "refund-"
POLICY_SETTING = "HITL_REFUND_POLICY"
CASE_ID_MAX = 40

START_FIELDS = (
    Field(name="case_id", label="Case id", max_length=CASE_ID_MAX, cli_flag="--case",
          help="Letters, digits and _ . : - ; the thread is refund-<case id>. Each case id is used once."),
    Field(name="customer", label="Customer", max_length=100, help="Who asks for the refund."),
    Field(name="amount", kind="int", label="Requested amount (KRW)", minimum=1, maximum=MAX_AMOUNT,
          help=f"Whole KRW, 1 to {MAX_AMOUNT:,}."),
    Field(name="reason", kind="textarea", label="Reason", max_length=500, help="Why the customer asks."),
)
RESUME_FIELDS = (
    Field(name="action", kind="choice", label="Action", choices=ACTIONS,
          help="edit = pay the amount below instead, and approve."),
    Field(name="amount", kind="int", label="Amount to pay (KRW), for edit", minimum=1, maximum=MAX_AMOUNT,
          required=False, help="Only with edit."),
    Field(name="approver", label="Approver", max_length=60, help="Who decides."),
    Field(name="note", label="Note", max_length=300, required=False, help="Optional."),
)
STATE_FIELDS = (
    Field(name="amount", kind="int", label="Amount to pay (KRW)", minimum=1, maximum=MAX_AMOUNT,
          help="The amount to pay; the requested amount never changes."),
    Field(name="decision", kind="choice", label="Decision", choices=("approve", "reject"),
          help="Set a decision; review records it instead of asking."),
    Field(name="approver", label="Approver", max_length=60, help="Who made the change or decision."),
)


def thread_for_case(case_id: str) -> str:
    """The thread id of a case."""
    return THREAD_PREFIX + case_id


def thread_for(values: dict[str, Any], requested: str | None) -> str:
    """``refund-<case id>``; another requested thread id is refused."""
    case_id = validate_thread_id(values["case_id"], field="case_id")
    derived = thread_for_case(case_id)
    if requested and requested != derived:
        raise InputError("thread_id", f"a refund's thread is named after its case: use {derived!r} or omit it")
    return derived


def make_input(values: dict[str, Any]) -> dict[str, Any]:
    """The graph input of a validated request."""
    return {
        "case_id": values["case_id"],
        "customer": values["customer"],
        "requested_amount": values["amount"],
        "reason": values["reason"],
        "requested_at": ledger.now_iso(),
    }


def check_resume(value: Any) -> dict[str, Any]:
    """Validates a raw resume value: a JSON object of the resume fields, and their rules together."""
    if not isinstance(value, dict):
        check_answer(value)  # raises with an example of the expected object
    return make_resume(validate_fields(RESUME_FIELDS, value))


def make_resume(values: dict[str, Any]) -> dict[str, Any]:
    """The resume value of validated resume fields (checks that ``edit`` has an amount, and only it)."""
    return check_answer(dict(values))


def options_from_settings(settings: Settings) -> dict[str, Any]:
    """The routing policy from ``HITL_REFUND_POLICY`` (``strict`` or ``reroute``)."""
    return {"policy": policy_from_settings(settings)}


def policy_from_settings(settings: Settings) -> str:
    """The configured routing policy; an unknown value is refused, naming the setting."""
    policy = (settings.get(POLICY_SETTING, DEFAULT_POLICY) or DEFAULT_POLICY).strip().lower()
    if policy not in POLICIES:
        raise InputError(POLICY_SETTING, f"must be one of {', '.join(POLICIES)}; got {policy!r}")
    return policy


def check_update(values: dict[str, Any], update: dict[str, Any]) -> None:
    """A settled or rejected case is final: its amount and decision cannot be edited."""
    outcome = values.get("outcome")
    if outcome:
        field = next(iter(update), "values")
        raise InputError(field, f"the case is already {outcome}; a finished case cannot be edited")


def check_start(store: Store, values: dict[str, Any]) -> None:
    """A case id is used once: one that was already paid is refused (``case_id``), even after
    its thread was deleted. Run by ``runs.start_run`` for the page and the CLI alike."""
    case_id = validate_thread_id(values["case_id"], field="case_id")
    if ledger.payout_for(store, case_id) is not None:
        raise InputError("case_id", f"case {case_id!r} was already paid; use a new case id")


SPEC = AgentSpec(
    name=AGENT_NAME,
    title="Refund agent",
    description="Refunds above 100,000 KRW wait for an approver, who approves, rejects or edits; paid once.",
    build_graph=build_graph,
    page="app_pages/refund.py",
    start_fields=START_FIELDS,
    make_input=make_input,
    thread_for=thread_for,
    resume_fields=RESUME_FIELDS,
    make_resume=make_resume,
    check_resume=check_resume,
    state_fields=STATE_FIELDS,
    as_nodes=("assess", "review", "settle", "reject"),
    check_start=check_start,
    check_update=check_update,
    options_from_settings=options_from_settings,
)





def decide(
    store: Store,
    settings: Settings,
    thread_id: str,
    answer: dict[str, Any],
    *,
    expected_head: str | None = None,
) -> RunResult:
    """An approver's decision on a waiting case (approve, reject, or edit then approve).

    Raises:
        InputError: A field is wrong (named), e.g. an edit without an amount.
        InputError: (``action``) The case is not waiting for a decision (settled, rejected).
        StaleFormError: The case changed since the approver's page was drawn.
    """
    from agents import runs

    fields = {key: value for key, value in answer.items() if value not in (None, "")}
    value = make_resume(validate_fields(RESUME_FIELDS, fields))
    thread_id = validate_thread_id(thread_id)
    head = readmodel.head_checkpoint_id(store, thread_id)
    if head is None:
        raise ThreadNotFoundError(thread_id)
    if expected_head is not None and head != expected_head:
        raise StaleFormError(thread_id, expected_head, head)  # checked again, under the lock, by resume
    result = runs.current_result(store, settings, thread_id)
    if result.agent != AGENT_NAME:
        raise InputError("thread_id", f"thread {thread_id!r} is not a refund case")
    if result.status != "waiting":
        outcome = result.values.get("outcome") or t_status(result.status)
        raise InputError("action", f"case {result.values.get('case_id')!r} is not waiting for a decision "
                                   f"({outcome}); nothing was changed")
    return runs.resume_thread(store, settings, thread_id, value, expected_head=expected_head)


def t_status(status: str) -> str:
    """A thread status in words, for messages."""
    return {"ready": "an update waits to be continued", "done": "finished"}.get(status, status)


def request_refund(
    store: Store, settings: Settings, values: dict[str, Any], **kwargs: Any
) -> RunResult:
    """Starts a case; a case id that has a thread is refused naming the form's ``case_id`` field
    (a paid one is refused by :func:`check_start`)."""
    from agents import runs  # not at import time: runs imports the registry, which imports this module

    case_id = validate_thread_id(validate_fields(START_FIELDS, values)["case_id"], field="case_id")
    if readmodel.head_checkpoint_id(store, thread_for_case(case_id)) is not None:
        raise InputError("case_id", f"case {case_id!r} already exists; use a new case id")
    return runs.start_run(store, settings, AGENT_NAME, values, **kwargs)
