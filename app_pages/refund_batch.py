"""The refund queue's batch: select several waiting items (across cases, and within one), decide them in one action.

The selection is kept by identity (``dashboard.batch_decisions``): the table's row selection is turned into
item keys by its callback, against the rows that table showed. A table drawn for another list of items (a
case created or decided elsewhere) is another widget, drawn with the items still selected ticked at their new
rows; a selected item that left the list is dropped, and a notice names it. The decision runs in the
buttons' callback, before the page is drawn, so the page that follows already shows every decided item gone
from the queue.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass

import streamlit as st

from agents.db import Store
from agents.readmodel import PendingInterrupt
from agents.refund.graph import AGENT_NAME
from agents.refund.permissions import REJECT_REFUND
from agents.settings import Settings
from app_pages.refund_cases import CaseBook
from app_pages.refund_decisions import remembered_input
from dashboard import auth
from dashboard.batch_decisions import (
    decide_batch,
    item_key,
    rows_digest,
    selected_keys,
    selection_of,
    show_result_rows,
    still_listed,
)
from dashboard.formats import amount
from dashboard.i18n import current_language, t
from dashboard.safe_markdown import escape_markdown

SELECTED_KEY = "refund:batch-selected"  # the selected items' keys
DRAWN_KEY = "refund:batch-drawn"  # (digest, keys, labels) of the rows as last drawn
RESULTS_KEY = "refund:batch-results"  # (action, results, labels) of the last batch, shown once
APPROVER_KEY = "refund-batch-approver"
NOTE_KEY = "refund-batch-note"


@dataclass(frozen=True)
class WaitingItem:
    """One waiting question of a refund case: the whole case, or one of its items."""

    key: str  # THREAD:INTERRUPT_ID
    thread_id: str
    case_id: str
    item: str  # empty for a case with one amount
    customer: str
    amount: int | None

    @property
    def label(self) -> str:
        """The item as a result names it: its case, and the item when the case has several."""
        return f"{self.case_id} · {self.item}" if self.item else self.case_id


def waiting_items(pending: Iterable[PendingInterrupt], book: CaseBook) -> list[WaitingItem]:
    """Every question a waiting refund case asks, in the queue's order (oldest first), then by item."""
    order = {row.thread_id: n for n, (row, status) in enumerate(book.queue) if status.status == "waiting"}
    found = []
    for question in pending:
        payload = question.payload
        if question.thread_id not in order or question.agent != AGENT_NAME or not isinstance(payload, dict):
            continue
        row = book.cases[question.thread_id]
        money = payload.get("amount", payload.get("requested_amount"))
        found.append(
            WaitingItem(
                item_key(question.thread_id, question.interrupt_id),
                question.thread_id,
                row.case_id,
                str(payload.get("item") or ""),
                row.customer,
                money if isinstance(money, int) else None,
            )
        )
    return sorted(found, key=lambda w: (order[w.thread_id], w.item))


def _remember_selection(table_key: str, keys: tuple[str, ...]) -> None:
    """The table's selected rows, as the keys of the items its rows showed (``keys``). Only the table last drawn
    selects: the browser can hand a table's selection over again once the next list is drawn (docs/ARCHITECTURE.md)."""
    if st.session_state.get(DRAWN_KEY, ("",))[0] != rows_digest(keys):
        return
    state = st.session_state.get(table_key)
    positions = state.selection.rows if state is not None else []
    st.session_state[SELECTED_KEY] = selected_keys(positions, keys)


def _decide(store: Store, settings: Settings, action: str) -> None:
    """Decides every selected item with ``action``; keeps the results for the page to show.

    A click the browser hands to two runs (a live part's tick and the click's own message, see
    docs/ARCHITECTURE.md) calls this twice: the second call finds the selection taken and leaves the
    first call's results, not yet shown, in place of "select items first"."""
    keys = st.session_state.pop(SELECTED_KEY, [])
    labels = st.session_state.get(DRAWN_KEY, ("", (), {}))[2]
    if not keys:
        st.session_state.setdefault(RESULTS_KEY, (action, [], labels))
        return
    me = auth.identity()
    approver = str(st.session_state.get(APPROVER_KEY, "")) if me.local else me.email
    note = str(st.session_state.get(NOTE_KEY, ""))
    lang = current_language()
    done = decide_batch(store, settings, keys, action=action, approver=approver, note=note, actor=me, lang=lang)
    st.session_state[RESULTS_KEY] = (action, done, labels)


def show_results() -> None:
    """The last batch's result per item, once: paid, rejected, refused with the reason, or already decided."""
    found = st.session_state.pop(RESULTS_KEY, None)
    if found is None:
        return
    action, results, labels = found
    if not results:
        st.warning(t("refund.batch.select_first"))
        return
    counts = {
        word: sum(r.result == word for r in results) for word in ("paid", "rejected", "refused", "already decided")
    }
    summary = t(
        "refund.batch.summary",
        action=t(f"refund.action.{action}"),
        count=len(results),
        paid=counts["paid"],
        rejected=counts["rejected"],
        not_accepted=counts["refused"],
        already=counts["already decided"],
    )
    (st.success if len(results) == counts["paid"] + counts["rejected"] else st.warning)(escape_markdown(summary))
    show_result_rows(results, labels, "refund-batch-results")  # each reason whole


def show_batch(store: Store, settings: Settings, book: CaseBook, pending: Iterable[PendingInterrupt]) -> None:
    """The waiting items as a selectable table, and approve / reject for the selected ones."""
    st.subheader(t("refund.batch.header"))
    show_results()
    items = waiting_items(pending, book)
    keys = tuple(w.key for w in items)
    # Another list (a case created or decided elsewhere): what is still listed stays selected, by item.
    kept, gone = still_listed(st.session_state.get(SELECTED_KEY, []), keys)
    st.session_state[SELECTED_KEY] = kept
    dropped = st.empty()  # drawn by every run: a notice that came and went would move the request form below
    if gone:
        named = st.session_state.get(DRAWN_KEY, ("", (), {}))[2]
        dropped.info(escape_markdown(t("refund.batch.dropped", items=", ".join(named.get(k, k) for k in gone))))
    if not items:
        st.caption(t("refund.batch.none_waiting"))
        return
    st.caption(t("refund.batch.help"))
    digest = rows_digest(keys)
    st.session_state[DRAWN_KEY] = (digest, keys, {w.key: w.label for w in items})
    table_key, lang = f"refund-batch-{digest}", current_language()
    rows = [
        {
            t("refund.col.case"): w.case_id,
            t("refund.batch.col.item"): w.item or "—",
            t("refund.col.customer"): w.customer,
            t("refund.col.amount"): amount(w.amount, lang=lang),
        }
        for w in items
    ]
    st.dataframe(
        rows,
        key=table_key,
        hide_index=True,
        on_select=functools.partial(_remember_selection, table_key, keys),
        selection_mode="multi-row",
        selection_default=selection_of(kept, keys),  # a new table shows what stays selected ticked
    )
    selected = st.session_state.get(SELECTED_KEY, [])
    st.caption(t("refund.batch.selected", count=len(selected)))
    cannot_decide = auth.why_not(REJECT_REFUND)
    if cannot_decide:
        st.info(t("auth.cannot_act", reason=cannot_decide))
        return
    me = auth.identity()
    approver_col, note_col = st.columns(2)
    if me.local:
        remembered_input(APPROVER_KEY, t("refund.batch.approver"), approver_col)
    else:
        approver_col.caption(escape_markdown(t("refund.batch.approver_is_you", name=me.name, email=me.email)))
    note_col.text_input(t("refund.batch.note"), key=NOTE_KEY)
    approve_col, reject_col = st.columns(2)
    for column, action in ((approve_col, "approve"), (reject_col, "reject")):
        column.button(
            t(f"refund.batch.{action}"),
            key=f"refund-batch-{action}",
            disabled=not selected,
            on_click=_decide,
            args=(store, settings, action),
            width="stretch",
        )
