"""Which refund cases the audit's views draw first: the rows each view is about, before the rest.

The audit is one table of every case (newest first) whose views each draw a few of its columns
(``dashboard.audit_views.AUDIT_VIEWS``). A view whose columns only some cases fill would start with
rows of empty cells: the deletions view with every live case, the decisions view with every undecided
one. Those views put the cases they are about first; the other views, and the JSON export
(``AuditRow.to_json`` of :func:`agents.refund.ledger.audit_rows`), keep the audit's own order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from agents.refund.ledger import DELETED, AuditRow


def _deleted(row: AuditRow) -> bool:
    return row.status == DELETED


def _decided(row: AuditRow) -> bool:
    return bool(row.decision or row.decided_at or row.batch_id)


#: The views that draw some cases first, and which: a view not named here keeps the audit's order.
FIRST_IN_VIEW: dict[str, Callable[[AuditRow], bool]] = {"deletions": _deleted, "decisions": _decided}


def in_view_order(rows: Sequence[AuditRow], view: str) -> list[AuditRow]:
    """The audit's ``rows`` as ``view`` draws them: the deletions view the deleted cases first, the
    decisions view the decided cases (a decision, a decision time or a batch) first; each part keeps
    the audit's order (newest first), and every other view keeps it whole.

    First, not only: the views are one table whose search and pages every view shares, so a case found
    in one view is in the next one too, and the row count does not change with the view; the cases a view
    is not about follow, with their empty cells saying "not deleted" or "not decided yet".
    """
    first = FIRST_IN_VIEW.get(view)
    if first is None:
        return list(rows)
    return sorted(rows, key=lambda row: not first(row))  # stable: each part keeps its order
