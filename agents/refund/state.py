"""State of the refund agent.

The request's own keys (``case_id``, ``customer``, ``requested_amount``,
``reason``, ``requested_at``, ``requested_by``) are written once, at the start,
and the ``policy`` and ``threshold`` a case was assessed under once, by
``assess``: their channels (:class:`agents.common.WriteOnce`) keep the first
value and ignore a later one on every path, LangGraph's own ``update_state``
included, so the route and ``settle`` can rely on them. ``amount`` is what
will be paid; an approver may edit it. ``trace`` uses an add-reducer, so
every step and every human edit appends a line and no line is ever replaced.

The annotations are evaluated as the module loads (no ``from __future__ import annotations``): LangGraph
reads this state's type hints every time a graph is built (its channels, each route's input), and
annotations kept as text would be parsed and evaluated again on each of those reads.
"""

import operator
from typing import Annotated, Any, Literal, NotRequired

from typing_extensions import TypedDict

from agents.common import WriteOnce

Decision = Literal["approve", "reject"]


class RefundInput(TypedDict):
    """What starts a run: one refund request (``requested_by``: the signed-in requester, when signed in)."""

    case_id: str
    customer: str
    requested_amount: int
    reason: str
    requested_at: str
    requested_by: NotRequired[str]
    requested_by_name: NotRequired[str]
    requested_by_names: NotRequired[list[str]]
    items: NotRequired[list[dict[str, Any]]]


class RefundState(TypedDict, total=False):
    """What the refund agent remembers between steps.

    Attributes:
        case_id: The case, unique per request (the thread is ``refund-<case_id>``).
        customer: Who asked for the refund (shown as text only).
        requested_amount: The amount asked for, in KRW; never changed after the request.
        reason: Why the customer asks (shown as text only).
        requested_at: When the request was made (ISO 8601, UTC).
        requested_by: The signed-in email that requested it (absent in local mode); it cannot
            approve the case (four eyes).
        requested_by_name: Their display name.
        requested_by_names: Every name they were known by at the request (email, display name,
            their API tokens' labels and names): none of them may approve the case.
        policy: The routing policy the run was assessed under (``strict`` or ``reroute``).
        threshold: Amounts above this need a human; this amount itself settles automatically.
        amount: The amount to pay; starts as ``requested_amount``, a human may edit it.
        recorded_amount: The amount the trace last accounted for. When ``amount`` differs
            (an ``update_state`` edit), the next node appends the edit to the trace.
        decision: ``approve`` or ``reject``.
        approver: Who decided (``automatic`` for amounts at or under the threshold): the signed-in
            email, or in local mode the name typed.
        approver_name: The signed-in approver's display name (absent in local mode).
        approver_role: The signed-in approver's role when they decided (absent in local mode).
        note: The approver's optional note.
        decided_at: When the decision was made (ISO 8601, UTC).
        batch_id: The batch the decision was made in (``agents.batch``; absent for a decision on its own).
        outcome: ``paid``, ``already paid`` (a repeated payout attempt, a no-op) or ``rejected``.
        paid_amount: The amount in the ledger for this case.
        paid_at: When the ledger recorded the payout.
        trace: One line per step and per human edit, appended by an add-reducer.
        items: A request with several items: ``[{"item": id, "amount": KRW}, ...]`` (absent for a
            single amount); ``requested_amount`` is then their total.
        item_results: One entry per decided item (``item``, ``requested_amount``, ``amount``,
            ``decision``, ``approver``, ``batch_id``, ``outcome``, ``paid_amount``, ...), appended by each item's task.
    """

    case_id: Annotated[str, WriteOnce]
    customer: Annotated[str, WriteOnce]
    requested_amount: Annotated[int, WriteOnce]
    reason: Annotated[str, WriteOnce]
    requested_at: Annotated[str, WriteOnce]
    requested_by: Annotated[str, WriteOnce]
    requested_by_name: Annotated[str, WriteOnce]
    requested_by_names: Annotated[list[str], WriteOnce]
    policy: Annotated[str, WriteOnce]
    threshold: Annotated[int, WriteOnce]
    amount: int
    recorded_amount: int
    decision: Decision
    approver: str
    approver_name: str
    approver_role: str
    note: str
    decided_at: str
    batch_id: str
    outcome: str
    paid_amount: int
    paid_at: str
    trace: Annotated[list[str], operator.add]
    items: Annotated[list[dict[str, Any]], WriteOnce]
    item_results: Annotated[list[dict[str, Any]], operator.add]
