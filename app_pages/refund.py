"""Refund agent: new requests, the approval queue, decisions, the audit, the ledger, the pitfall demo."""

import pandas as pd
import streamlit as st

from agents import readmodel, runs
from agents.errors import UserError, short_id
from agents.nodelog import node_runs
from agents.refund import ledger
from agents.refund.graph import DEFAULT_THRESHOLD, MAX_AMOUNT, krw, run_unsaved_pitfall
from agents.refund.spec import decide, policy_from_settings, request_refund
from dashboard import resources
from dashboard.forms import act, drawn_head, flash, show_flash, sidebar_forms
from dashboard.i18n import t
from dashboard.views import show_table

SELECT_KEY = "refund-case"  # the case selector widget
SELECT_NEXT_KEY = "refund:select-next"  # a case to select on the next run (after a new request)
PITFALL_KEY = "refund:pitfall"

store, settings = resources.store(), resources.settings()
st.title(t("refund.title"))
st.caption(t("refund.intro"))
show_flash()
try:
    policy = policy_from_settings(settings)
except UserError as error:
    st.error(str(error))
    st.stop()
st.info(t(f"refund.policy.{policy}", threshold=krw(DEFAULT_THRESHOLD)))


def audit_frame(rows: list[ledger.AuditRow]) -> pd.DataFrame:
    """The audit table; customer, reason and trace are cells of text."""
    return pd.DataFrame({
        t("refund.col.case"): [r.case_id for r in rows],
        t("refund.col.status"): [t(f"status.{r.status}") if r.status in ("waiting", "ready", "done") else r.status
                                 for r in rows],
        t("refund.col.customer"): [r.customer for r in rows],
        t("refund.col.requested"): [r.requested_amount for r in rows],
        t("refund.col.amount"): [r.amount for r in rows],
        t("refund.col.executed"): [r.executed_amount for r in rows],
        t("refund.col.decision"): [r.decision for r in rows],
        t("refund.col.approver"): [r.approver for r in rows],
        t("refund.col.outcome"): [r.outcome for r in rows],
        t("refund.col.requested_at"): [r.requested_at for r in rows],
        t("refund.col.decided_at"): [r.decided_at for r in rows],
        t("refund.col.paid_at"): [r.paid_at for r in rows],
        t("refund.col.trace"): [" | ".join(r.trace) for r in rows],
    })


# --- New request ---------------------------------------------------------------------------------
st.header(t("refund.new.header"))
with st.form("refund-new"):
    st.caption(t("refund.new.thread_hint"))
    left, right = st.columns(2)
    new_case = left.text_input(t("field.case_id"), key="refund-new-case")
    new_customer = right.text_input(t("field.customer"), key="refund-new-customer")
    new_amount = left.text_input(t("field.amount"), key="refund-new-amount",
                                 placeholder=t("refund.new.amount_placeholder"))
    new_reason = st.text_area(t("field.reason"), key="refund-new-reason")
    submitted = st.form_submit_button(t("refund.new.submit"), type="primary")
if submitted:
    try:
        created = request_refund(store, settings, {"case_id": new_case, "customer": new_customer,
                                                   "amount": new_amount, "reason": new_reason})
    except UserError as error:
        st.error(f"{t('forms.refused')} {error}")
    else:
        st.session_state[SELECT_NEXT_KEY] = created.thread_id
        flash("success", t("refund.new.done", case=created.values["case_id"], status=t(f"status.{created.status}")))
        st.rerun()

# --- Queue -----------------------------------------------------------------------------------------
audit = ledger.audit_rows(store)
queue = ledger.waiting_queue(store, audit)
st.header(t("refund.queue.header"))
show_table(audit_frame(queue)[[t(f"refund.col.{c}") for c in ("case", "customer", "requested", "amount",
                                                              "requested_at")]],
           t("refund.queue.empty"))

# --- Selected case -------------------------------------------------------------------------------
st.header(t("refund.case.header"))
cases = {r.thread_id: r for r in audit if r.status != "thread deleted"}
options = [r.thread_id for r in queue] + [tid for tid in cases if tid not in {r.thread_id for r in queue}]
if SELECT_NEXT_KEY in st.session_state:
    st.session_state[SELECT_KEY] = st.session_state.pop(SELECT_NEXT_KEY)
elif SELECT_KEY not in st.session_state and st.query_params.get("thread") in cases:
    st.session_state[SELECT_KEY] = st.query_params.get("thread")
if st.session_state.get(SELECT_KEY) not in options:
    st.session_state[SELECT_KEY] = options[0] if options else None
thread_id = st.selectbox(
    t("refund.case.select"), options, key=SELECT_KEY,
    format_func=lambda tid: f"{cases[tid].case_id} · {krw(cases[tid].amount)} KRW · {t(f'status.{cases[tid].status}')}",
)

if thread_id is None:
    st.caption(t("refund.case.none"))
else:
    result = runs.current_result(store, settings, thread_id)
    values = result.values
    expected = drawn_head("refund-page", thread_id, result.head_checkpoint_id)
    row = cases[thread_id]
    st.markdown(t("refund.case.status", status=t(f"status.{result.status}")) + f" · `{thread_id}`")
    requested_col, amount_col, executed_col = st.columns(3)
    requested_col.metric(t("refund.metric.requested"), krw(values.get("requested_amount")))
    amount_col.metric(t("refund.metric.amount"), krw(values.get("amount")))
    executed_col.metric(t("refund.metric.executed"), krw(row.executed_amount))
    st.caption(t("refund.case.customer"))
    st.text(values.get("customer", ""))
    st.caption(t("refund.case.reason"))
    st.text(values.get("reason", ""))
    if values.get("amount") != values.get("recorded_amount"):
        st.warning(t("refund.case.pending_edit", old=krw(values.get("recorded_amount")),
                     new=krw(values.get("amount"))))

    def send(answer: dict) -> None:
        """Sends a decision, refusing it if the page is stale or the case is not waiting."""

        def action(head_seen: str | None) -> str:
            done = decide(store, settings, thread_id, answer, expected_head=head_seen)
            return t("refund.decided", case=values["case_id"], action=answer["action"],
                     approver=answer.get("approver") or "?", status=done.values.get("outcome") or done.status)

        act(expected, action)

    # A page drawn while the case waited keeps its controls for one more run, so that a click
    # made after another tab acted is refused with a message instead of silently vanishing.
    had_controls_key = f"refund:had-controls:{thread_id}"
    stale = expected != result.head_checkpoint_id and st.session_state.get(had_controls_key, False)
    st.session_state[had_controls_key] = result.status == "waiting"
    if result.status == "waiting" or stale:
        if result.status == "waiting":
            st.warning(t("refund.case.waiting"))
        approver = st.text_input(t("field.approver"), key=f"refund-approver-{thread_id}")
        note = st.text_input(t("field.note"), key=f"refund-note-{thread_id}")
        approve_col, reject_col = st.columns(2)
        if approve_col.button(t("refund.approve"), key="refund-approve", type="primary", width="stretch"):
            send({"action": "approve", "approver": approver, "note": note})
        if reject_col.button(t("refund.reject"), key="refund-reject", width="stretch"):
            send({"action": "reject", "approver": approver, "note": note})
        current = int(values["amount"])
        edit_col, preview_col = st.columns(2)
        new_value = edit_col.number_input(t("refund.edit.amount"), min_value=1, max_value=MAX_AMOUNT, step=1000,
                                          value=current, key=f"refund-edit-amount-{thread_id}")
        # The difference is shown before anything is sent.
        preview_col.metric(t("refund.edit.preview"), krw(int(new_value)), delta=f"{int(new_value) - current:+,}")
        if st.button(t("refund.edit.submit"), key="refund-edit"):
            send({"action": "edit", "amount": int(new_value), "approver": approver, "note": note})
    if result.status == "ready":
        st.info(t("refund.case.ready"))
        if st.button(t("refund.continue"), key="refund-continue"):
            def carry_on(head_seen: str | None) -> str:
                done = runs.continue_thread(store, settings, thread_id, expected_head=head_seen)
                return t("refund.continued", thread=thread_id, status=t(f"status.{done.status}"))

            act(expected, carry_on)
    if result.status == "done":
        st.success(t("refund.case.outcome", outcome=values.get("outcome") or "—"))

    st.subheader(t("refund.trace"))
    st.code("\n".join(values.get("trace", [])) or "—", language=None)
    reviews = [r for r in node_runs(store, thread_id=thread_id) if r["node"] == "review"]
    st.caption(t("refund.review_entries", count=len(reviews),
                 statuses=", ".join(r["status"] for r in reviews) or "—"))

# --- Audit and ledger ------------------------------------------------------------------------------
st.header(t("refund.audit.header"))
show_table(audit_frame(audit), t("refund.no_rows"))
st.header(t("refund.ledger.header"))
payouts = ledger.ledger_rows(store)
show_table(pd.DataFrame({
    t("refund.col.case"): [p["case_id"] for p in payouts],
    t("refund.col.customer"): [p["customer"] for p in payouts],
    t("refund.col.requested"): [p["requested_amount"] for p in payouts],
    t("refund.col.executed"): [p["paid_amount"] for p in payouts],
    t("refund.col.approver"): [p["approver"] for p in payouts],
    t("refund.col.paid_at"): [p["paid_at"] for p in payouts],
    t("refund.col.repeat_attempts"): [p["repeat_attempts"] for p in payouts],
}), t("refund.no_rows"))

# --- Pitfall demo ----------------------------------------------------------------------------------
st.header(t("refund.pitfall.header"))
st.caption(t("refund.pitfall.explain"))
if st.button(t("refund.pitfall.run"), key="refund-pitfall"):
    st.session_state[PITFALL_KEY] = run_unsaved_pitfall()
unsaved_col, saved_col = st.columns(2)
with unsaved_col, st.container(border=True):
    st.markdown(f"**{t('refund.pitfall.unsaved')}**")
    demo = st.session_state.get(PITFALL_KEY)
    if demo:
        st.json(readmodel.to_jsonable(demo["state"]))
        st.text(t("refund.pitfall.resume_error", error=demo["resume_error"]))
with saved_col, st.container(border=True):
    st.markdown(f"**{t('refund.pitfall.saved')}**")
    waiting = [p for p in readmodel.pending_interrupts(store) if p.agent == ledger.AGENT_NAME]
    if waiting:
        st.text(t("refund.pitfall.saved_item", thread=waiting[0].thread_id, node=waiting[0].node,
                  checkpoint=short_id(waiting[0].checkpoint_id)))
    else:
        st.caption(t("refund.pitfall.no_saved"))

sidebar_forms(store, settings, thread_id)
