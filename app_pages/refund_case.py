"""The refund page's selected case: the picker, then the case with its decision first, its amounts, its trace.

Both are one live part (:func:`show_case_panel`): the panel follows the database by itself, within
``HITL_LIVE_REFRESH`` s, without drawing the page again. A case decided in another tab or by the CLI
shows its new status, and the picker its new label, while what is typed elsewhere on the page stays.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import islice
from typing import Any

import streamlit as st

from agents import ages, lifecycle, runs
from agents.db import Store
from agents.errors import UserError
from agents.identity import CONTINUE
from agents.nodelog import node_runs
from agents.refund import item_ledger, ledger
from agents.refund.permissions import REJECT_REFUND
from agents.refund.rules import amount_to_pay
from agents.settings import Settings
from app_pages.refund_cases import CaseBook, case_book
from app_pages.refund_decisions import VIEW_KEY, Decider, remembered_input
from dashboard import auth, diff_view, live, queues
from dashboard.decision_view import controls_view
from dashboard.formats import amount, code_word
from dashboard.forms import act, acted_here, drawn_head, status_word
from dashboard.i18n import current_language, t
from dashboard.safe_markdown import escape_markdown
from dashboard.views import status_text

SELECT_KEY = "refund-case"  # the case picker; it follows ?thread=, which selects the case
FIND_KEY = "refund-case-find"  # narrows the picker's options by case, customer, status...
PICKER_LIMIT = 100  # options in the case picker: the selected case and the first matching ones


def _follow_picker(options: list[str]) -> None:
    """The picker's choice goes to the URL, which is what selects a case, and the page is drawn for it.

    Only a case of the picker's options is followed. Streamlit keeps a selectbox's choice as its shown
    label; when another tab changed the case's status, a stale tab sends a label that names no option
    any more (``c500 · 50,000 KRW · waiting``), and that must not replace the case in the URL.
    The picker is in the live panel, whose own run would draw the case it was drawn for: the whole
    page runs instead (the sidebar's forms act on the selected case). The browser also sends the
    picker's choice when only its label changed (the case's status moved on): that draws nothing again.
    """
    picked = st.session_state.get(SELECT_KEY)
    if picked in options and picked != st.query_params.get("thread"):  # a new label alone changes nothing
        st.query_params["thread"] = picked
        st.rerun()


def pick_case(store: Store, book: CaseBook) -> str | None:
    """The case named by ``?thread=`` (or the first in the queue); an unknown one selects nothing."""
    cases, options = book.cases, list(book.options)
    requested = st.query_params.get("thread")
    try:  # a link's id is checked before anything uses it (a case's own id is one already)
        named = requested in cases or not requested
        requested = requested if named else lifecycle.thread_named(store, requested, exact=True)
        unknown = requested is not None and requested not in cases
    except UserError:
        unknown = True
    if unknown:
        st.warning(escape_markdown(t("refund.case.unknown", thread=requested)))
    selected = None if unknown else requested or (options[0] if options else None)
    if not options:
        return None
    if selected and not requested:
        st.query_params["thread"] = selected
    lang = current_language()
    if len(options) > PICKER_LIMIT or st.session_state.get(FIND_KEY):
        query = st.text_input(t("refund.case.find"), key=FIND_KEY, help=t("refund.case.find_help")).strip()
        folded = query.casefold()
        texts = book.search_texts(lang) if folded else {}
        found = [tid for tid in options if folded in texts[cases[tid]].casefold()] if folded else options
        others = islice((tid for tid in found if tid != selected), PICKER_LIMIT)
        options = ([selected] if selected else []) + list(others)
        if len(found) > PICKER_LIMIT:
            st.caption(t("refund.case.find_more", shown=PICKER_LIMIT, total=len(found)))
    st.session_state[SELECT_KEY] = selected  # the URL decides; the widget follows it
    st.selectbox(
        t("refund.case.select"),
        options,
        key=SELECT_KEY,
        on_change=_follow_picker,
        args=(options,),
        format_func=lambda tid: book.label(tid, lang),
        placeholder=t("refund.case.pick"),
    )
    return selected


def show_case_panel(store: Store, settings: Settings) -> str | None:
    """The picker and the selected case, a live part; returns the case the page's run drew (None: no case).

    Each of its runs draws the cases and the case as the database holds them. They are read again only
    when the database changed since they were read (:func:`dashboard.live.rows`): a run with nothing
    new, the interval's and a keystroke's, reads only the live token.
    """
    return _case_panel(store, settings)


@live.fragment
def _case_panel(store: Store, settings: Settings) -> str | None:
    # The page's run gets the book the page read (kept under the same token), so its parts agree.
    cases = live.rows("refund-case-book", lambda: case_book(store), store=store)
    thread_id = pick_case(store, cases)
    if thread_id is None:
        if not cases.cases:
            st.caption(t("refund.case.none"))
        return None
    read = live.rows(f"refund-case:{thread_id}", lambda: read_case(store, settings, thread_id), store=store)
    show_case(store, settings, thread_id, read)
    return thread_id


@dataclass(frozen=True)
class CaseRead:
    """A case as read at one moment: its status, its current result, what the ledger paid, its node log."""

    status: lifecycle.ThreadStatus | None  # None: no such thread (deleted since the page was drawn)
    result: runs.RunResult | None
    paid: int | None
    node_rows: tuple[dict[str, Any], ...] = ()


def read_case(store: Store, settings: Settings, thread_id: str) -> CaseRead:
    """Reads what the case panel shows of ``thread_id``."""
    status = lifecycle.thread_status(store, thread_id)
    if status is None:
        return CaseRead(None, None, None)
    result = runs.current_result(store, settings, thread_id)
    values = result.values
    case_id = str(values.get("case_id", ""))
    payout = ledger.payout_for(store, case_id)
    if values.get("items"):  # a case with items: what its items' payouts add up to
        paid_items = item_ledger.item_payouts(store, case_id)
        payout = {"paid_amount": sum(row["paid_amount"] for row in paid_items)} if paid_items else None
    paid = payout["paid_amount"] if payout else None
    return CaseRead(status, result, paid, tuple(node_runs(store, thread_id=thread_id)))


def show_case(store: Store, settings: Settings, thread_id: str, read: CaseRead) -> None:
    """One case: its status, the controls that fit it (first, so a waiting case's decision is on the first
    screen), then its amounts, its text and its trace.

    Drawn by the live panel: typing an approver name or an amount reruns the panel alone, never the
    lists below, and a case another tab decided shows its new status within the live interval, its
    controls kept with a notice until they are used (a click on them is refused as stale).
    """
    status, result = read.status, read.result
    if status is None or result is None:  # deleted since the page was drawn
        st.warning(escape_markdown(t("refund.case.unknown", thread=thread_id)))
        return
    values = result.values
    expected = drawn_head("refund-page", thread_id, result.head_checkpoint_id)
    st.markdown(t("refund.case.status", status=status_text(status)) + f" · `{thread_id}`")
    rights = queues.rights_for([status], settings.deadlines, ages.utc_now()).get(thread_id)
    rights_slot = st.empty()  # drawn by every run, so a case decided meanwhile moves nothing below it
    if rights is not None:  # who may decide it; a warning when no one may, or when it escalated
        shown = (
            rights_slot.warning
            if rights.no_decider is not None or rights.escalation is not None
            else rights_slot.caption
        )
        shown(escape_markdown(queues.rights_cell(rights, auth.identity())))
    own_action = acted_here(thread_id)  # this session's own sidebar action: no one else's change
    remembered = st.session_state.get(VIEW_KEY)
    view = controls_view(
        remembered, thread_id, result.status, result.head_checkpoint_id, expected, own_action=own_action
    )
    st.session_state[VIEW_KEY] = view.view
    if result.status == "waiting" or view.stale:
        decision_controls(store, settings, result, status, view.head, own_action=own_action)
    elif result.status == "attention":
        st.error(escape_markdown(t("refund.case.attention", reason=status.reason_in(current_language()))))
        if status.action == "continue" and auth.why_not(CONTINUE):
            st.info(t("auth.cannot_act", reason=auth.why_not(CONTINUE)))
        elif status.action == "continue" and st.button(t("refund.continue"), key="refund-continue"):

            def carry_on(head_seen: str | None) -> str:
                done = runs.continue_thread(store, settings, thread_id, expected_head=head_seen, actor=auth.identity())
                return t("refund.continued", thread=thread_id, status=status_word(done))

            act(expected, carry_on)
        elif status.action == "rerun":
            st.page_link(
                "app_pages/explorer.py",
                label=t("refund.case.open_explorer"),
                icon=":material/account_tree:",
                query_params={"thread": thread_id},
            )
    elif result.status == "running":
        st.info(t("refund.case.running"))
    else:
        st.success(escape_markdown(t("refund.case.outcome", outcome=code_word("outcome", status.outcome))))
    show_figures(values, read.paid, waiting_amount(result))
    show_trace(store, thread_id, values, read.node_rows)


def decision_controls(
    store: Store,
    settings: Settings,
    result: runs.RunResult,
    status: lifecycle.ThreadStatus,
    head: str | None,
    *,
    own_action: bool,
) -> None:
    """A waiting case's (or one moved on since its controls were drawn) approver, note and buttons."""
    values, thread_id = result.values, result.thread_id
    waiting = result.status == "waiting"
    if waiting:  # what is decided, before the controls that decide it
        st.warning(f"**{t('refund.case.waiting')}** {escape_markdown(case_summary(values))}")
        show_whole_reason(values)
    else:
        st.warning(t("refund.case.moved_on", status=status_text(status)))
    cannot_decide = auth.why_not(REJECT_REFUND)  # a viewer decides nothing; any approver may reject
    if cannot_decide:
        st.info(t("auth.cannot_act", reason=cannot_decide))
        return
    me = auth.identity()
    approver_col, note_col = st.columns(2)
    if me.local:  # local mode: the approver types their name, recorded as typed
        approver = remembered_input("refund-approver", t("field.approver"), approver_col)
    else:  # signed in: the decision is recorded as the signed-in identity
        approver = me.email
        approver_col.caption(escape_markdown(t("auth.approver_is_you", name=me.name, email=me.email)))
    note = note_col.text_input(t("field.note"), key=f"refund-note-{thread_id}")
    requested_by = str(values.get("requested_by") or "")
    case_id = str(values.get("case_id", ""))
    decider = Decider(store, settings, thread_id, case_id, head, me, approver, note, requested_by)
    if values.get("items"):
        decider.item_controls(result, own_action=own_action)
    else:
        decider.controls("refund-{}", int(values["requested_amount"]), int(values["amount"]))


#: The reason's characters in the summary above a waiting case's buttons; the whole reason is below them.
SUMMARY_REASON_CHARS = 160


def case_summary(values: dict[str, Any]) -> str:
    """Who asks for how much back and why, in a few lines: read before Approve / Reject, which stay on a
    1280×720 first screen under it however long the reason is (cut here, whole with the amounts below)."""
    reason = " ".join(str(values.get("reason", "")).split())
    if len(reason) > SUMMARY_REASON_CHARS:
        reason = t("refund.case.summary_cut", reason=reason[: SUMMARY_REASON_CHARS - 1].rstrip() + "…")
    customer, requested = str(values.get("customer", "")), amount(values.get("requested_amount"))
    return t("refund.case.summary", customer=customer or "—", amount=requested, reason=reason or "—")


def show_whole_reason(values: dict[str, Any]) -> None:
    """Right under a summary that cut the reason, the whole reason one click away (as text), so it is reached
    from a 1280×720 first screen; nothing when the summary holds it whole. A popover, not an expander: it
    opens over the page, so Approve / Reject stay where they were rather than pushed below the fold."""
    reason = str(values.get("reason", ""))
    if len(" ".join(reason.split())) > SUMMARY_REASON_CHARS:
        with st.popover(t("refund.case.whole_reason", count=f"{len(reason):,}"), key="refund-whole-reason"):
            st.text(reason)


def waiting_amount(result: runs.RunResult) -> int:
    """What the questions still waiting ask for (an items case's waiting items; 0 when nothing waits)."""
    if result.status != "waiting":
        return 0
    asked = (question.get("requested_amount") for question in result.interrupts if isinstance(question, dict))
    return sum(value for value in asked if isinstance(value, int) and not isinstance(value, bool))


def show_figures(values: dict[str, Any], paid: int | None, waiting: int = 0) -> None:
    """The case's requested amount, what it will pay, what the ledger paid (``paid``); its customer and reason.

    An items case with questions waiting shows what they ask for and what its items were paid so far instead
    (its amount to pay is still the whole request until every item is decided).

    ``waiting``: what questions still waiting ask for; with items, some may be paid while others wait.
    """
    requested_col, amount_col, executed_col = st.columns(3)
    requested_col.metric(t("refund.metric.requested"), amount(values.get("requested_amount")))
    rejected = values.get("decision") == "reject"
    if values.get("items") and waiting:  # some items paid, others waiting: what waits, and what the ledger paid
        amount_col.metric(t("refund.metric.waiting"), amount(waiting))
        executed_col.metric(t("refund.metric.paid_so_far"), amount(paid or 0))
    else:
        to_pay = amount_to_pay(values.get("amount"), values.get("decision"))
        amount_col.metric(t("refund.metric.amount"), t("refund.metric.rejected") if rejected else amount(to_pay))
        executed_col.metric(t("refund.metric.executed"), amount(paid))
    diff_view.show_requested_vs_executed(
        values.get("requested_amount"), paid, rejected, waiting if values.get("items") else 0
    )
    st.caption(t("refund.case.customer"))
    st.text(values.get("customer", ""))
    st.caption(t("refund.case.reason"))
    st.text(values.get("reason", ""))


#: The nodes that ask an approver: ``review`` for a one-amount case, ``item`` (one task per item) for items.
ASKING_NODES = ("review", "item")


def asking_node_entries(rows: list[dict[str, Any]]) -> list[tuple[str, list[str]]]:
    """Each asking node that ran, with its node-log statuses in order; ``review`` with none if neither ran."""
    entries = [(node, [r["status"] for r in rows if r["node"] == node]) for node in ASKING_NODES]
    return [(node, statuses) for node, statuses in entries if statuses] or [("review", [])]


def entries_caption(node: str, statuses: list[str]) -> str:
    """How often ``node`` was entered, worded for one entry and for several, with its node-log statuses."""
    words = ", ".join(code_word("nodelog", status) for status in statuses) or "—"
    key = "refund.node_entries.once" if len(statuses) == 1 else "refund.node_entries.many"
    return t(key, node=node, count=len(statuses), statuses=words)


def show_trace(store: Store, thread_id: str, values: dict[str, Any], node_rows: tuple[dict[str, Any], ...]) -> None:
    """The case's trace, and how often the node that asks an approver ran (``node_rows``: its node log)."""
    st.subheader(t("refund.trace"))
    # Text, not a code box: a code box loads the syntax highlighter's code in a new tab (about 300 ms).
    st.text("\n".join(values.get("trace", [])) or "—")
    for node, statuses in asking_node_entries(list(node_rows)):
        st.caption(entries_caption(node, statuses))
    diff_view.show_head_change(store, thread_id, "refund")  # what the last step or update_state changed
