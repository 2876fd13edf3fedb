"""The refund page's queue of open cases: a live part, with its order, page, count and search on one line above
its rows, and every column within a 1280-pixel window's grid."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping

import streamlit as st

from agents import ages, queue_rights
from agents.db import Store
from agents.decision_rights import DecisionRights
from agents.settings import Settings
from app_pages.refund_cases import CaseBook, QueueRow, first_then_fresh
from app_pages.refund_lists import case_link, search_text, to_pay_cell
from dashboard import auth, live, queues, text_fit
from dashboard.boxes import box
from dashboard.formats import amount
from dashboard.i18n import current_language, t
from dashboard.tables import Column, draw_table
from dashboard.views import age_cell, status_text

#: The queue's column widths in pixels, the link's (``dashboard.tables.LINK_WIDTH``) beside them 812 in all:
#: every column, "who may decide" with the deciders' emails too, fits a 1280 px window's grid (818 px) without
#: scrolling sideways, in English and Korean, each header whole. Left to size themselves, the columns take their
#: longest cell's width.
QUEUE_WIDTHS = {
    "case": 72,
    "status": 80,
    "waiting": 96,
    "customer": 80,
    "requested": 92,
    "amount": 100,
    "attention": 120,
    "deciders": 116,
}
#: The lines of a queue's row: an age marked overdue ("23시간 59분째 대기 · 기한 지남") and an amount waiting read
#: whole in them; a longer text (who may decide, why a case needs attention, a customer) is cut with "…", as the
#: inbox's cells are: the case's panel says it whole, and the search reads it whole.
QUEUE_CELL_LINES = 3
#: The line above the queue's rows: its order (its three choices on one line), page, count of rows and search.
LINE = (9, 2, 3.75, 4.5)


def queue_columns(settings: Settings, rights: Mapping[str, DecisionRights], now: dt.datetime) -> list[Column[QueueRow]]:
    """The queue: every unfinished case, in the chosen order, with its status, how long it has waited
    (marked when past the deadline), when it needs attention why, and who may decide it; each cell fitted to
    its column (:data:`QUEUE_WIDTHS`). When it was requested is in the audit's requests and times: here its
    age says how long it has waited.

    The "attention because" column is drawn even when no row needs attention: the queue is a live
    part, and a case can come to need attention between two runs of the page (its header names what it
    holds, so an empty cell does not read as a refund without a reason)."""
    lang, deadlines, me = current_language(), settings.deadlines, auth.identity()

    def fitted(label: str, column: str, text: Callable[[QueueRow], str], *, cut: bool = True) -> Column[QueueRow]:
        """A column of its width; a text of any length (``cut``) fitted to the row's lines, a short one as it is."""
        width = QUEUE_WIDTHS[column]
        cell = (lambda q: text_fit.cut_to_lines(text(q), width, QUEUE_CELL_LINES)) if cut else text
        return Column(t(label), cell, width)

    return [
        fitted("refund.col.case", "case", lambda q: q[0].case_id),
        # The status without its count of items: the "to pay" cell says what waits.
        fitted("refund.col.status", "status", lambda q: status_text(q[1], counted=False)),
        fitted("col.waiting", "waiting", lambda q: age_cell(q[1], deadlines, now, lang), cut=False),
        fitted("refund.col.customer", "customer", lambda q: q[0].customer),
        fitted("refund.col.requested", "requested", lambda q: amount(q[0].requested_amount, lang=lang), cut=False),
        fitted("refund.col.amount", "amount", lambda q: to_pay_cell(q[0], lang), cut=False),
        fitted("refund.col.attention_because", "attention", lambda q: attention_cell(q, lang)),
        fitted("col.deciders", "deciders", lambda q: queues.rights_cell(rights.get(q[0].thread_id), me, lang)),
    ]


def attention_cell(row: QueueRow, lang: str) -> str:
    """Why a case needs attention, in words; empty for a case that only waits."""
    return "" if row[1].status == "waiting" else row[1].reason_in(lang)


def show_queue(store: Store, settings: Settings, book: CaseBook) -> None:
    """The open cases in the chosen order (the ones this person may decide first), with who may decide each:
    a live part, drawn first from the page's ``book``, then from the cases as they are."""
    _queue(store, settings, first_then_fresh(store, book, lambda cases: cases))


@live.fragment
def _queue(store: Store, settings: Settings, load: Callable[[], CaseBook]) -> None:
    """The queue's notes, then its order, page, count and search on one line (as home's inbox), then its rows."""
    book, now, me = live.rows("refund-queue", load, store=store), ages.utc_now(), auth.identity()
    found = queues.rights_for([status for _row, status in book.queue], settings.deadlines, now)
    with box("refund-queue", (queues.rights_notes_shape(found, me), bool(book.queue))):
        queues.show_rights_notes(found, me)
        order_in, page_in, count_in, search_in = st.columns(LINE, vertical_alignment="center")
        with order_in:
            order = queues.order_control("refund-queue-order", label_visibility="collapsed")
        mine, lang = queue_rights.mine_of(found, me), current_language()
        rows = queue_rights.ordered(
            book.queue,
            order,
            status=lambda q: q[1],
            amount=lambda q: queue_rights.case_amount(store, q[1]),
            mine=lambda q: mine(q[0].thread_id),
        )
        find_case = search_text(book)
        draw_table(
            "refund-queue",
            rows,
            queue_columns(settings, found, now),
            empty_text=t("refund.queue.empty"),
            # a cut cell read whole: who may decide, why it needs attention
            search_text=lambda q: " ".join(
                (find_case(q[0]), attention_cell(q, lang), queues.rights_cell(found.get(q[0].thread_id), me, lang))
            ),
            link=lambda q: case_link(q[0]),
            row_height=text_fit.row_height(QUEUE_CELL_LINES),
            search_in=search_in,
            paging_in=(page_in, count_in),
        )
