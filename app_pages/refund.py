"""Refund agent: new requests, the approval queue, decisions, the audit, the ledger, the pitfall demo."""

import datetime as dt
from collections.abc import Callable, Mapping
from itertools import islice
from typing import Any

import streamlit as st

from agents import ages, lifecycle, queue_rights, readmodel, runs, threadindex
from agents.decision_rights import DecisionRights
from agents.errors import RunFailedError, UserError, short_id
from agents.identity import APPROVE_REFUND, CONTINUE, REJECT_REFUND, START_RUN
from agents.nodelog import node_runs
from agents.refund import item_ledger, ledger
from agents.refund.graph import AGENT_NAME, DEFAULT_THRESHOLD, run_unsaved_pitfall
from agents.refund.rules import AUTOMATIC_APPROVER, amount_to_pay, check_edit_amount
from agents.refund.spec import SPEC
from agents.validation import parse_whole_number
from app_pages.refund_cases import (
    DELETED,
    CaseBook,
    QueueRow,
    case_book,
    case_status_word,
    case_text,
    first_then_fresh,
)
from dashboard import auth, diff_view, live, queues, resources
from dashboard.formats import amount, code_word, timestamp
from dashboard.forms import (
    act,
    acted_here,
    drawn_head,
    flash,
    show_flash,
    show_run_failed,
    shown_head,
    sidebar_forms,
    status_word,
)
from dashboard.fragments import fragment, refresh_page_when_behind
from dashboard.i18n import current_language, localized, t
from dashboard.safe_markdown import escape_markdown
from dashboard.tables import Column, page_url, paged_table
from dashboard.views import age_cell, status_text

SELECT_KEY = "refund-case"  # the case picker; it follows ?thread=, which selects the case
FIND_KEY = "refund-case-find"  # narrows the picker's options by case, customer, status...
PICKER_LIMIT = 100  # options in the case picker: the selected case and the first matching ones
URL_PATH = SPEC.page.url_path
PITFALL_KEY = "refund:pitfall"
VIEW_KEY = "refund:decision-view"  # (thread, head) the decision controls were drawn for

store, settings = resources.store(), resources.settings()
st.title(t("refund.title"))
st.caption(t("refund.intro"))
show_flash()
policy = settings.agent(AGENT_NAME).policy
st.info(t(f"refund.policy.{policy}", threshold=amount(DEFAULT_THRESHOLD)))


def approver_word(approver: str, lang: str | None = None) -> str:
    """An approver as shown: a person's name as typed; the agent's own settlement in words."""
    return t("refund.approver.automatic", lang) if approver == AUTOMATIC_APPROVER else approver


def audit_columns() -> list[Column[ledger.AuditRow]]:
    """The audit table; customer, reason and trace are cells of text (in the session's language)."""
    lang, zone = current_language(), settings.zone
    return [
        Column(t("refund.col.case"), lambda r: r.case_id),
        Column(t("refund.col.status"), lambda r: case_status_word(r, lang)),
        Column(t("refund.col.customer"), lambda r: r.customer),
        Column(t("refund.col.requested"), lambda r: amount(r.requested_amount, lang=lang)),
        Column(t("refund.col.amount"), lambda r: amount(amount_to_pay(r.amount, r.decision), lang=lang)),
        Column(t("refund.col.executed"), lambda r: amount(r.executed_amount, lang=lang)),
        Column(t("refund.col.decision"), lambda r: code_word("decision", r.decision, lang)),
        Column(t("refund.col.approver"), lambda r: approver_word(r.approver, lang)),
        Column(t("auth.col.approver_role"), lambda r: auth.role_word(r.approver_role) if r.approver_role else ""),
        Column(t("auth.col.requested_by"), lambda r: r.requested_by),
        Column(t("refund.col.outcome"), lambda r: code_word("outcome", r.outcome, lang)),
        Column(t("refund.col.requested_at"), lambda r: timestamp(r.requested_at, zone)),
        Column(t("refund.col.decided_at"), lambda r: timestamp(r.decided_at, zone)),
        Column(t("refund.col.paid_at"), lambda r: timestamp(r.paid_at, zone)),
        Column(t("refund.col.trace"), lambda r: " | ".join(r.trace)),
        Column(t("refund.col.status_at_deletion"), lambda r: code_word("status", r.status_at_deletion, lang)),
        Column(t("refund.col.deleted_by"), lambda r: r.deleted_by),
        Column(t("refund.col.deleted_at"), lambda r: timestamp(r.deleted_at, zone)),
        Column(t("refund.col.deletion_reason"), lambda r: r.deletion_reason),
    ]


def queue_columns(rights: Mapping[str, DecisionRights], now: dt.datetime) -> list[Column[QueueRow]]:
    """The queue: every unfinished case, in the chosen order, with its status, how long it has waited
    (marked when past the deadline), when it needs attention why, and who may decide it."""
    lang, zone, deadlines, me = current_language(), settings.zone, settings.deadlines, auth.identity()
    return [
        Column(t("refund.col.case"), lambda q: q[0].case_id),
        Column(t("refund.col.status"), lambda q: status_text(q[1])),
        Column(t("col.waiting"), lambda q: age_cell(q[1], deadlines, now, lang)),
        Column(t("refund.col.customer"), lambda q: q[0].customer),
        Column(t("refund.col.requested"), lambda q: amount(q[0].requested_amount, lang=lang)),
        Column(t("refund.col.amount"), lambda q: amount(q[0].amount, lang=lang)),
        Column(t("refund.col.requested_at"), lambda q: timestamp(q[0].requested_at, zone)),
        Column(t("col.reason"), lambda q: "" if q[1].status == "waiting" else q[1].reason_in(lang)),
        Column(t("col.deciders"), lambda q: queues.rights_cell(rights.get(q[0].thread_id), me, lang)),
    ]


def case_link(row: ledger.AuditRow) -> str | None:
    """The case on this page (``?thread=``); a case whose thread was deleted has none."""
    return page_url(URL_PATH, row.thread_id) if row.status != DELETED else None


def search_text(book: CaseBook) -> Callable[[ledger.AuditRow], str]:
    """A case's searchable text, made once per language and book (a case read since is made afresh)."""
    lang = current_language()

    def text(row: ledger.AuditRow) -> str:
        found = book.search_texts(lang).get(row)  # made on the first search, then looked up
        return found if found is not None else case_text(row, lang)

    return text


def _follow_picker(options: list[str]) -> None:
    """The picker's choice goes to the URL, which is what selects a case.

    Only a case of the picker's options is followed. Streamlit keeps a selectbox's choice as its shown
    label; when another tab changed the case's status, a stale tab sends a label that names no option
    any more (``c500 · 50,000 KRW · waiting``), and that must not replace the case in the URL.
    """
    picked = st.session_state.get(SELECT_KEY)
    if picked in options:
        st.query_params["thread"] = picked


def pick_case(book: CaseBook) -> str | None:
    """The case named by ``?thread=`` (or the first in the queue); an unknown one selects nothing."""
    cases, options = book.cases, list(book.options)
    requested = st.query_params.get("thread")
    try:  # a link's id is checked before anything uses it
        requested = lifecycle.thread_named(store, requested, exact=True) if requested else None
        unknown = requested is not None and requested not in cases
    except UserError:
        unknown = True
    if unknown:
        st.warning(escape_markdown(t("refund.case.unknown", thread=requested)))
        selected = None
    else:
        selected = requested or (options[0] if options else None)
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
        options = ([selected] if selected else []) + list(
            islice((tid for tid in found if tid != selected), PICKER_LIMIT)
        )
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


def remembered_input(widget_key: str, label: str, **kwargs: Any) -> str:
    """A text input whose value outlives reruns in which it is not drawn (a decided case, another case)."""
    memory = f"refund:memory:{widget_key}"
    if widget_key not in st.session_state:
        st.session_state[widget_key] = st.session_state.get(memory, "")
    value = st.text_input(label, key=widget_key, **kwargs)
    st.session_state[memory] = value
    return value


def edit_amount(thread_id: str, current: int, requested: int) -> int | None:
    """The approver's new amount, checked by the same rule as every path; None (and why) when unusable."""
    edit_col, preview_col = st.columns(2)
    text = remembered_input(
        f"refund-edit-amount-{thread_id}",
        t("refund.edit.amount"),
        placeholder=f"{current:,}",
        help=t("refund.edit.help", requested=amount(requested)),
    )
    if not text.strip():
        edit_col.caption(t("refund.edit.type_amount"))
        return None
    try:
        edited = check_edit_amount(parse_whole_number(text, "amount"), requested)
    except UserError as error:
        edit_col.error(escape_markdown(t("refund.edit.invalid", error=localized(error))))
        return None
    # The difference is shown before anything is sent.
    preview_col.metric(t("refund.edit.preview"), amount(edited), delta=amount(edited - current, signed=True))
    return edited


#: The case panel's buttons: a run that one of them started answers the click (a stale one with its
#: refusal) instead of drawing the page again first, which would drop the click unanswered.
DECISION_BUTTONS = ("refund-approve", "refund-reject", "refund-edit", "refund-continue")
#: The buttons of an item's own controls (a refund with several items) begin with this.
ITEM_BUTTON = "refund-item-"


def clicked_decision() -> bool:
    """Whether this run answers a click on one of the case panel's buttons (an item's included)."""
    return any(st.session_state.get(key) for key in DECISION_BUTTONS) or any(
        key.startswith(ITEM_BUTTON) and value is True for key, value in st.session_state.items()
    )


@fragment
def show_case(thread_id: str, page_head: str | None = None) -> None:
    """One case: amounts, text, its status and the controls that fit it, and its trace.

    A fragment: typing an approver name or an amount reruns the case alone, never the lists above.
    It reads the case afresh on every run, so it never shows less than the database holds; when the
    case moved on since the page drew it at ``page_head`` (another tab decided it), the whole page is drawn
    again, so the queue and the picker above never contradict it.
    """
    status = lifecycle.thread_status(store, thread_id)
    if not clicked_decision():  # a click is answered, never dropped
        refresh_page_when_behind("refund:refreshed", page_head, status.head_checkpoint_id if status else None)
    if status is None:  # deleted since the page was drawn
        st.warning(escape_markdown(t("refund.case.unknown", thread=thread_id)))
        return
    result = runs.current_result(store, settings, thread_id)
    values = result.values
    payout = ledger.payout_for(store, str(values.get("case_id", "")))
    if values.get("items"):  # a case with items: what its items' payouts add up to
        paid_items = item_ledger.item_payouts(store, str(values.get("case_id", "")))
        payout = {"paid_amount": sum(row["paid_amount"] for row in paid_items)} if paid_items else None
    expected = drawn_head("refund-page", thread_id, result.head_checkpoint_id)
    st.markdown(t("refund.case.status", status=status_text(status)) + f" · `{thread_id}`")
    rights = queues.rights_for([status], settings.deadlines, ages.utc_now()).get(thread_id)
    if rights is not None:  # who may decide it; a warning when no one may, or when it escalated
        shown = st.warning if rights.no_decider is not None or rights.escalation is not None else st.caption
        shown(escape_markdown(queues.rights_cell(rights, auth.identity())))
    requested_col, amount_col, executed_col = st.columns(3)
    requested_col.metric(t("refund.metric.requested"), amount(values.get("requested_amount")))
    rejected = values.get("decision") == "reject"
    to_pay = amount_to_pay(values.get("amount"), values.get("decision"))
    amount_col.metric(t("refund.metric.amount"), t("refund.metric.rejected") if rejected else amount(to_pay))
    executed_col.metric(t("refund.metric.executed"), amount(payout["paid_amount"] if payout else None))
    diff_view.show_requested_vs_executed(values.get("requested_amount"), payout and payout["paid_amount"], rejected)
    st.caption(t("refund.case.customer"))
    st.text(values.get("customer", ""))
    st.caption(t("refund.case.reason"))
    st.text(values.get("reason", ""))
    # The head the approver's decision controls were drawn for. While the case waits it follows
    # the head; when the case moves on elsewhere (another tab, another approver) it stays, so the
    # controls stay, with a notice, through any rerun (typing a name) until the approver clicks:
    # the click is then refused with a message instead of landing on controls that vanished.
    view = st.session_state.get(VIEW_KEY)
    if acted_here(thread_id):  # this session's own sidebar action moved the case on: no one else's change
        view = None
    if result.status == "waiting" or not view or view[0] != thread_id:
        view = (thread_id, result.head_checkpoint_id if result.status == "waiting" else None)
        st.session_state[VIEW_KEY] = view
    stale = view[1] is not None and view[1] != result.head_checkpoint_id
    decision_head = view[1] if stale else expected

    def send(answer: dict, interrupt_id: str | None = None) -> None:
        """Sends a decision (on one item: its question's ``interrupt_id``), refusing it if the page is
        stale or the case (the item) is not waiting."""
        st.session_state.pop(VIEW_KEY, None)  # decided or refused: the next run shows the case as it is
        st.session_state.pop(ITEM_VIEW_KEY, None)

        def action(head_seen: str | None) -> str:
            done = runs.resume_from_fields(
                store,
                settings,
                thread_id,
                answer,
                agent=AGENT_NAME,
                interrupt_id=interrupt_id,
                expected_head=head_seen,
                actor=me,
            )
            return t(
                "refund.decided",
                case=values["case_id"],
                action=t(f"refund.action.{answer['action']}"),
                approver=answer.get("approver") or "?",
                status=status_word(done),
            )

        act(decision_head, action)

    me, requested_by = auth.identity(), str(values.get("requested_by") or "")
    cannot_decide = auth.why_not(REJECT_REFUND)  # a viewer decides nothing; any approver may reject
    if (result.status == "waiting" or stale) and cannot_decide:
        st.warning(
            t("refund.case.waiting")
            if result.status == "waiting"
            else t("refund.case.moved_on", status=status_text(status))
        )
        st.info(t("auth.cannot_act", reason=cannot_decide))
    elif result.status == "waiting" or stale:
        if result.status == "waiting":
            st.warning(t("refund.case.waiting"))
        else:
            st.warning(t("refund.case.moved_on", status=status_text(status)))
        if me.local:  # local mode: the approver types their name, recorded as typed
            approver = remembered_input("refund-approver", t("field.approver"))
        else:  # signed in: the decision is recorded as the signed-in identity
            approver = me.email
            st.caption(escape_markdown(t("auth.approver_is_you", name=me.name, email=me.email)))
        note = st.text_input(t("field.note"), key=f"refund-note-{thread_id}")
        if values.get("items"):  # each waiting item with its own controls, answered by its interrupt id
            for interrupt_id, question in item_view(thread_id, result):
                item_controls(thread_id, interrupt_id, question, approver, note, requested_by, send)
            st.caption(t("refund.items.waiting", count=len(result.interrupts)))
            show_trace(thread_id, values)
            return
        approve_col, reject_col = st.columns(2)
        cannot_approve = auth.why_not(APPROVE_REFUND, amount=values.get("amount"), requested_by=requested_by)
        if cannot_approve:
            approve_col.caption(t("auth.cannot_act", reason=cannot_approve))
        elif approve_col.button(t("refund.approve"), key="refund-approve", type="primary", width="stretch"):
            send({"action": "approve", "approver": approver, "note": note})
        if reject_col.button(t("refund.reject"), key="refund-reject", width="stretch"):
            send({"action": "reject", "approver": approver, "note": note})
        new_amount = edit_amount(thread_id, int(values["amount"]), int(values["requested_amount"]))
        cannot_edit = new_amount is not None and auth.why_not(
            APPROVE_REFUND, amount=new_amount, requested_by=requested_by
        )
        if cannot_edit:
            st.caption(t("auth.cannot_act", reason=cannot_edit))
        if st.button(t("refund.edit.submit"), key="refund-edit", disabled=new_amount is None or bool(cannot_edit)):
            send({"action": "edit", "amount": new_amount, "approver": approver, "note": note})
    elif result.status == "attention":
        st.error(escape_markdown(t("refund.case.attention", reason=status.reason_in(current_language()))))
        if status.action == "continue" and auth.why_not(CONTINUE):
            st.info(t("auth.cannot_act", reason=auth.why_not(CONTINUE)))
        elif status.action == "continue" and st.button(t("refund.continue"), key="refund-continue"):

            def carry_on(head_seen: str | None) -> str:
                done = runs.continue_thread(store, settings, thread_id, expected_head=head_seen, actor=me)
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

    show_trace(thread_id, values)


def show_trace(thread_id: str, values: dict[str, Any]) -> None:
    """The case's trace, and how often its review node ran."""
    st.subheader(t("refund.trace"))
    # Text, not a code box: a code box loads the syntax highlighter's code in a new tab (about 300 ms).
    st.text("\n".join(values.get("trace", [])) or "—")
    reviews = [r for r in node_runs(store, thread_id=thread_id) if r["node"] == "review"]
    entries = ", ".join(code_word("nodelog", r["status"]) for r in reviews) or "—"
    st.caption(t("refund.review_entries", count=len(reviews), statuses=entries))
    diff_view.show_head_change(store, thread_id, "refund")  # what the last step or update_state changed


ITEM_VIEW_KEY = "refund:item-view"  # (thread, ((interrupt id, question), ...)) the item controls were drawn for


def item_view(thread_id: str, result: runs.RunResult) -> list[tuple[str, dict[str, Any]]]:
    """The items to draw controls for: every one waiting, and every one drawn before that was decided
    elsewhere since (another tab, another approver), so that a click on it is refused with a message
    instead of landing on controls that vanished. A decision from this session starts afresh."""
    waiting = list(zip(result.interrupt_ids, result.interrupts, strict=True)) if result.status == "waiting" else []
    drawn = st.session_state.get(ITEM_VIEW_KEY)
    known = {interrupt for interrupt, _ in waiting}
    gone = []
    if drawn and drawn[0] == thread_id and not acted_here(thread_id):
        gone = [(interrupt, question) for interrupt, question in drawn[1] if interrupt not in known]
    for _, question in gone:
        st.warning(escape_markdown(t("refund.items.decided_elsewhere", item=str(question.get("item", "")))))
    st.session_state[ITEM_VIEW_KEY] = (thread_id, tuple(waiting + gone))
    return waiting + gone


def item_controls(
    thread_id: str,
    interrupt_id: str,
    question: dict[str, Any],
    approver: str,
    note: str,
    requested_by: str,
    send: Callable[[dict[str, Any], str | None], None],
) -> None:
    """One waiting item: its amount and its own approve / reject / edit, sent for its interrupt id."""
    item, item_amount = str(question.get("item", "")), int(question.get("requested_amount") or 0)
    with st.container(border=True):
        st.markdown(escape_markdown(t("refund.items.item", item=item, amount=amount(item_amount))))
        st.caption(escape_markdown(t("forms.resume.answers", interrupt=interrupt_id)))
        approve_col, reject_col = st.columns(2)
        cannot_approve = auth.why_not(APPROVE_REFUND, amount=item_amount, requested_by=requested_by)
        if cannot_approve:
            approve_col.caption(t("auth.cannot_act", reason=cannot_approve))
        elif approve_col.button(t("refund.approve"), key=f"{ITEM_BUTTON}approve-{interrupt_id}", width="stretch"):
            send({"action": "approve", "approver": approver, "note": note}, interrupt_id)
        if reject_col.button(t("refund.reject"), key=f"{ITEM_BUTTON}reject-{interrupt_id}", width="stretch"):
            send({"action": "reject", "approver": approver, "note": note}, interrupt_id)
        new_amount = edit_amount(f"{thread_id}-{interrupt_id}", item_amount, item_amount)
        cannot_edit = new_amount is not None and auth.why_not(
            APPROVE_REFUND, amount=new_amount, requested_by=requested_by
        )
        if cannot_edit:
            st.caption(t("auth.cannot_act", reason=cannot_edit))
        edit_key = f"{ITEM_BUTTON}edit-{interrupt_id}"
        if st.button(t("refund.edit.submit"), key=edit_key, disabled=new_amount is None or bool(cannot_edit)):
            send({"action": "edit", "amount": new_amount, "approver": approver, "note": note}, interrupt_id)


# --- New request ---------------------------------------------------------------------------------
st.header(t("refund.new.header"))
with st.form("refund-new"):
    st.caption(t("refund.new.thread_hint"))
    left, right = st.columns(2)
    new_case = left.text_input(t("field.case_id"), key="refund-new-case")
    new_customer = right.text_input(t("field.customer"), key="refund-new-customer")
    new_amount = left.text_input(
        t("field.amount"), key="refund-new-amount", placeholder=t("refund.new.amount_placeholder")
    )
    new_items = st.text_area(
        t("field.items"),
        key="refund-new-items",
        placeholder='[{"item": "A-1", "amount": 300000}]',
        help=t("refund.new.items_help"),
    )
    new_reason = st.text_area(t("field.reason"), key="refund-new-reason")
    cannot_start = auth.why_not(START_RUN)
    if cannot_start:
        st.caption(t("auth.cannot_act", reason=cannot_start))
    submitted = st.form_submit_button(t("refund.new.submit"), type="primary", disabled=bool(cannot_start))
if submitted:
    try:
        created = runs.start_run(
            store,
            settings,
            AGENT_NAME,
            {
                "case_id": new_case,
                "customer": new_customer,
                "amount": new_amount,
                "items": new_items.strip() or None,
                "reason": new_reason,
            },
            lang=current_language(),
            actor=auth.identity(),
        )
    except UserError as error:
        st.error(escape_markdown(f"{t('forms.refused')} {localized(error)}"))
    except RunFailedError as error:  # what finished is saved; the case needs attention: it is shown below
        show_run_failed(error)
        st.query_params["thread"] = error.thread_id
    else:
        st.query_params["thread"] = created.thread_id
        flash("success", t("refund.new.done", case=created.values["case_id"], status=status_word(created)))
        st.rerun()

# --- Queue -----------------------------------------------------------------------------------------
book = case_book(store)
find_case = search_text(book)
st.header(t("refund.queue.header"))
queue_now = ages.utc_now()
queue_rights_found = queues.rights_for([status for _row, status in book.queue], settings.deadlines, queue_now)
queues.show_rights_notes(queue_rights_found, auth.identity())
queue_order = queues.order_control("refund-queue-order")
mine = queue_rights.mine_of(queue_rights_found, auth.identity())


def ordered_queue(cases: CaseBook) -> list[QueueRow]:
    """The queue in the chosen order, the cases this person may decide first."""
    return queue_rights.ordered(
        cases.queue,
        queue_order,
        status=lambda q: q[1],
        amount=lambda q: q[0].amount,
        mine=lambda q: mine(q[0].thread_id),
    )


paged_table(
    "refund-queue",
    first_then_fresh(store, book, ordered_queue),
    queue_columns(queue_rights_found, queue_now),
    empty_text=t("refund.queue.empty"),
    search_text=lambda q: find_case(q[0]),
    link=lambda q: case_link(q[0]),
    live=True,
)

# --- Selected case -------------------------------------------------------------------------------
# The selected case lives in the URL (?thread=): reruns, a language switch, reload and
# back/forward keep it, and nothing else (a new queue order, a finished case) can change it.
st.header(t("refund.case.header"))
thread_id = pick_case(book)

if thread_id is None:
    if not book.cases:
        st.caption(t("refund.case.none"))
else:
    shown_case_head = book.statuses[thread_id].head_checkpoint_id if thread_id in book.statuses else None
    show_case(thread_id, shown_case_head)
    live.follow_thread(store, thread_id, shown_case_head)  # decided elsewhere: the page is drawn again

# --- Audit and ledger ------------------------------------------------------------------------------
st.header(t("refund.audit.header"))
paged_table(
    "refund-audit",
    first_then_fresh(store, book, lambda cases: cases.audit),
    audit_columns(),
    empty_text=t("refund.no_rows"),
    search_text=find_case,
    link=case_link,
)
st.header(t("refund.ledger.header"))
page_lang = current_language()
paged_table(
    "refund-ledger",
    first_then_fresh(store, book, lambda cases: cases.payouts),
    [
        Column(t("refund.col.case"), lambda p: p["case_id"]),
        Column(t("refund.col.customer"), lambda p: p["customer"]),
        Column(t("refund.col.requested"), lambda p: amount(p["requested_amount"], lang=page_lang)),
        Column(t("refund.col.executed"), lambda p: amount(p["paid_amount"], lang=page_lang)),
        Column(t("refund.col.approver"), lambda p: approver_word(p["approver"], page_lang)),
        Column(t("refund.col.paid_at"), lambda p: timestamp(p["paid_at"], settings.zone)),
        Column(t("refund.col.repeat_attempts"), lambda p: p["repeat_attempts"]),
    ],
    empty_text=t("refund.no_rows"),
    search_text=lambda p: " ".join(str(p[k]) for k in ("case_id", "customer", "approver")),
)

# --- Pitfall demo ----------------------------------------------------------------------------------
st.header(t("refund.pitfall.header"))
st.caption(t("refund.pitfall.explain"))
if st.button(t("refund.pitfall.run"), key="refund-pitfall"):
    st.session_state[PITFALL_KEY] = run_unsaved_pitfall(lang=current_language())
unsaved_col, saved_col = st.columns(2)
with unsaved_col, st.container(border=True):
    st.markdown(f"**{t('refund.pitfall.unsaved')}**")
    demo = st.session_state.get(PITFALL_KEY)
    if demo:
        st.json(readmodel.to_jsonable(demo["state"]))
        st.text(t("refund.pitfall.resume_error", error=demo["resume_error"]))
with saved_col, st.container(border=True):
    st.markdown(f"**{t('refund.pitfall.saved')}**")
    waiting = [p for p in threadindex.pending_interrupts(store) if p.agent == ledger.AGENT_NAME]
    if waiting:
        st.text(
            t(
                "refund.pitfall.saved_item",
                thread=waiting[0].thread_id,
                node=waiting[0].node,
                checkpoint=short_id(waiting[0].checkpoint_id),
            )
        )
    else:
        st.caption(t("refund.pitfall.no_saved"))

sidebar_forms(store, settings, thread_id, shown_head("refund-page", thread_id) if thread_id else None)
