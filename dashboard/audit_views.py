"""The refund audit's views: which of its twenty columns are drawn together, how wide each is, and the
control that picks a view. All twenty do not fit one window (1280 pixels wide), so each view shows what
one question needs, whole; every column stays in the table's data (search, export, tests)."""

from __future__ import annotations

import streamlit as st

from dashboard.i18n import t

#: The audit's views, each a few of its columns (string keys of their labels) after the case: all twenty
#: do not fit one window (1280 pixels wide), so each view shows what one question needs, whole.
AUDIT_VIEWS: dict[str, tuple[str, ...]] = {
    "amounts": (
        "refund.col.status",
        "refund.col.customer",
        "refund.col.requested",
        "refund.col.amount",
        "refund.col.executed",
        "refund.col.outcome",
    ),
    "decisions": ("refund.col.decision", "refund.col.approver", "auth.col.approver_role", "refund.col.batch"),
    "times": ("auth.col.requested_by", "refund.col.requested_at", "refund.col.decided_at", "refund.col.paid_at"),
    "deletions": (
        "refund.col.status_at_deletion",
        "refund.col.deleted_by",
        "refund.col.deleted_at",
        "refund.col.deletion_reason",
    ),
    "trace": ("refund.col.trace",),
}
#: Lines of wrapped text a row of a view with a long column (a trace, a reason for deleting, a case's
#: batches: one UUID per batch its items were decided in, wrapped at their commas) shows whole.
AUDIT_VIEW_LINES = {"decisions": 2, "deletions": 3, "trace": 4}
#: Each audit column's width in pixels (string key of its label → width). A grid in a 1280-pixel window is
#: 816 pixels wide inside its border; each view's columns and the link column (56) add up to no more, so
#: none is cut at the right edge, in English or Korean. Left to size themselves, the grid's columns grow
#: to fill its width and the last one can end past the edge.
AUDIT_WIDTHS = {
    "refund.col.case": 80,
    "refund.col.status": 100,
    "refund.col.customer": 95,
    "refund.col.requested": 100,
    "refund.col.amount": 150,
    "refund.col.executed": 100,
    "refund.col.outcome": 135,
    "refund.col.decision": 80,
    "refund.col.approver": 180,
    "auth.col.approver_role": 120,
    "refund.col.batch": 280,
    "auth.col.requested_by": 150,
    "refund.col.requested_at": 170,
    "refund.col.decided_at": 170,
    "refund.col.paid_at": 170,
    "refund.col.trace": 680,
    "refund.col.status_at_deletion": 130,
    "refund.col.deleted_by": 120,
    "refund.col.deleted_at": 180,
    "refund.col.deletion_reason": 250,
}


def audit_view_control() -> str:
    """The audit's view, one click away: the session's last choice (amounts at the start)."""
    key = "refund-audit-view"
    memory = f"{key}:kept"
    kept = st.session_state.get(memory, next(iter(AUDIT_VIEWS)))
    if st.session_state.get(key) is None:
        st.session_state[key] = kept
    chosen = st.segmented_control(
        t("refund.audit.view"),
        tuple(AUDIT_VIEWS),
        key=key,
        format_func=lambda view: t(f"refund.audit.view.{view}"),
        selection_mode="single",
    )
    chosen = chosen if chosen in AUDIT_VIEWS else kept  # clicking the chosen view again keeps it
    st.session_state[memory] = chosen
    return chosen


def audit_shown(view: str) -> list[str]:
    """The labels of the columns the audit's ``view`` draws: the case, then the view's own."""
    return [t("refund.col.case"), *(t(key) for key in AUDIT_VIEWS[view])]
