"""The refund page's audit and ledger, each searchable and paged; their cells, which the queue shares."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

import streamlit as st

from agents.db import Store
from agents.deletion_record import deleted_by_words
from agents.refund import ledger
from agents.refund.amounts import CaseAmounts, case_amounts
from agents.refund.audit_order import in_view_order
from agents.refund.rules import AUTOMATIC_APPROVER
from agents.refund.spec import SPEC
from agents.settings import Settings
from agents.texts import render
from app_pages.refund_cases import NO_THREAD_HERE, CaseBook, case_status_word, case_text, first_then_fresh
from dashboard import auth, text_fit
from dashboard.audit_views import AUDIT_VIEW_LINES, AUDIT_WIDTHS, audit_shown, audit_view_control
from dashboard.formats import amount, code_word, timestamp
from dashboard.i18n import current_language, t
from dashboard.tables import Column, page_url, paged_table

#: The audit's outcome of a case deleted before it was finished.
DELETED_OUTCOME = "deleted"


def approver_word(approver: str, lang: str | None = None) -> str:
    """An approver as shown: a person's name as typed; the agent's own settlement in words."""
    return t("refund.approver.automatic", lang) if approver == AUTOMATIC_APPROVER else approver


def row_amounts(row: ledger.AuditRow) -> CaseAmounts:
    """A case's figures: while it waits for a decision, what waits (its items' questions, or its one amount)
    and what the ledger paid so far, never a several-item case's whole request as "to pay"; a case deleted
    unfinished pays nothing more (what it had paid stays)."""
    if row.outcome == DELETED_OUTCOME:
        return CaseAmounts(waiting=False, amount=None, paid=row.executed_amount)
    return case_amounts(row.amount, row.decision, row.executed_amount, waiting=row.waiting_amount)


def to_pay_cell(row: ledger.AuditRow, lang: str) -> str:
    """The "to pay" cell: what the case pays, or what still waits for a decision, marked as waiting (every
    waiting case alike, one amount or several items)."""
    shown = row_amounts(row)
    said = amount(shown.amount, lang=lang)
    return t("refund.cell.waiting", lang, amount=said) if shown.waiting else said


def audit_columns(settings: Settings) -> list[Column[ledger.AuditRow]]:
    """The audit table; customer, reason and trace are cells of text (in the session's language). Every
    column is in the table's data; :data:`AUDIT_VIEWS` say which are drawn together."""
    lang, zone = current_language(), settings.zone
    columns: list[Column[ledger.AuditRow]] = [
        Column(t("refund.col.case"), lambda r: r.case_id),
        Column(t("refund.col.status"), lambda r: case_status_word(r, lang)),
        Column(t("refund.col.customer"), lambda r: r.customer),
        Column(t("refund.col.requested"), lambda r: amount(r.requested_amount, lang=lang)),
        Column(t("refund.col.amount"), lambda r: to_pay_cell(r, lang)),
        Column(t("refund.col.executed"), lambda r: amount(row_amounts(r).paid, lang=lang)),
        Column(t("refund.col.decision"), lambda r: code_word("decision", r.decision, lang)),
        Column(t("refund.col.approver"), lambda r: approver_word(r.approver, lang)),
        Column(t("auth.col.approver_role"), lambda r: auth.role_word(r.approver_role) if r.approver_role else ""),
        Column(t("auth.col.requested_by"), lambda r: r.requested_by),
        Column(t("refund.col.outcome"), lambda r: code_word("outcome", r.outcome, lang)),
        Column(t("refund.col.requested_at"), lambda r: timestamp(r.requested_at, zone)),
        Column(t("refund.col.decided_at"), lambda r: timestamp(r.decided_at, zone)),
        Column(t("refund.col.batch"), lambda r: r.batch_id),
        Column(t("refund.col.paid_at"), lambda r: timestamp(r.paid_at, zone)),
        Column(t("refund.col.trace"), lambda r: " | ".join(r.trace)),
        Column(t("refund.col.status_at_deletion"), lambda r: code_word("status", r.status_at_deletion, lang)),
        Column(t("refund.col.deleted_by"), lambda r: render(deleted_by_words(r.deleted_by), lang)),
        Column(t("refund.col.deleted_at"), lambda r: timestamp(r.deleted_at, zone)),
        Column(t("refund.col.deletion_reason"), lambda r: r.deletion_reason),
    ]
    widths = {t(key): width for key, width in AUDIT_WIDTHS.items()}
    return [dataclasses.replace(column, width=widths[column.label]) for column in columns]


def ledger_columns(settings: Settings) -> list[Column[Mapping[str, Any]]]:
    """The ledger: one row per payout (a case with items: one per item, named ``CASE:ITEM``, as
    ``python -m agents ledger`` lists it), with how often a second payout was refused."""
    lang = current_language()
    return [
        Column(t("refund.col.case"), ledger.payout_name),
        Column(t("refund.col.customer"), lambda p: p["customer"]),
        Column(t("refund.col.requested"), lambda p: amount(p["requested_amount"], lang=lang)),
        Column(t("refund.col.executed"), lambda p: amount(p["paid_amount"], lang=lang)),
        Column(t("refund.col.approver"), lambda p: approver_word(p["approver"], lang)),
        Column(t("refund.col.paid_at"), lambda p: timestamp(p["paid_at"], settings.zone)),
        Column(t("refund.col.repeat_attempts"), lambda p: p["repeat_attempts"]),
    ]


def case_link(row: ledger.AuditRow) -> str | None:
    """The case on this page (``?thread=``); a case whose thread was deleted, or is not in this database, has none
    (an empty cell)."""
    return page_url(SPEC.show.page.url_path, row.thread_id) if row.status not in NO_THREAD_HERE else None


def search_text(book: CaseBook) -> Callable[[ledger.AuditRow], str]:
    """A case's searchable text, made once per language and book (a case read since is made afresh)."""
    lang = current_language()

    def text(row: ledger.AuditRow) -> str:
        found = book.search_texts(lang).get(row)  # made on the first search, then looked up
        return found if found is not None else case_text(row, lang)

    return text


def show_audit_and_ledger(store: Store, settings: Settings, book: CaseBook) -> None:
    """Every case (deleted threads' included), then every payout: live parts, like the queue."""
    find_case = search_text(book)
    st.header(t("refund.audit.header"))
    view = audit_view_control()
    audit = first_then_fresh(store, book, lambda cases: in_view_order(cases.audit, view))
    lines = AUDIT_VIEW_LINES.get(view)
    paged_table(
        "refund-audit",
        audit,
        audit_columns(settings),
        empty_text=t("refund.no_rows"),
        search_text=find_case,
        link=case_link,
        live=True,
        shown=audit_shown(view),
        row_height=text_fit.row_height(lines) if lines else None,
    )
    st.header(t("refund.ledger.header"))
    paged_table(
        "refund-ledger",
        first_then_fresh(store, book, lambda cases: cases.payouts),
        ledger_columns(settings),
        empty_text=t("refund.no_rows"),
        search_text=lambda p: " ".join((ledger.payout_name(p), str(p["customer"]), str(p["approver"]))),
        live=True,
    )
