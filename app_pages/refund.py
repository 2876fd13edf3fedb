"""Refund agent: the selected case and its decision first, then the queue, a new request, the audit,
the ledger and the pitfall demo."""

import streamlit as st

from agents import readmodel, threadindex
from agents.errors import short_id
from agents.refund import ledger
from agents.refund.graph import AGENT_NAME, DEFAULT_THRESHOLD, run_unsaved_pitfall
from app_pages.refund_batch import show_batch
from app_pages.refund_case import show_case_panel
from app_pages.refund_cases import case_book
from app_pages.refund_decisions import REFUSED_KEY
from app_pages.refund_lists import show_audit_and_ledger
from app_pages.refund_queue import show_queue
from app_pages.refund_request import new_request_form
from dashboard import resources
from dashboard.decision_view import forget
from dashboard.formats import amount
from dashboard.forms import show_flash, shown_head, sidebar_forms
from dashboard.i18n import current_language, t

PITFALL_KEY = "refund:pitfall"

store, settings = resources.store(), resources.settings()
st.title(t("refund.title"))
st.caption(t("refund.intro"))
show_flash()
book = case_book(store)

# --- Selected case -------------------------------------------------------------------------------
# First, and under no header of its own (the picker's label names it), so a waiting case's decision
# is on a 1280×720 first screen. The selected case lives in the URL (?thread=): reruns, a language
# switch, reload and back/forward keep it, and nothing else (a new queue order, a finished case) can
# change it. The picker and the case are a live part: they follow the database by themselves.
forget(st.session_state, REFUSED_KEY)  # the page's run draws the case as it is
thread_id = show_case_panel(store, settings)

# --- Queue, its batch decisions, and a new request below it -------------------------------------------
st.header(t("refund.queue.header"))
# The routing policy says which requests wait; it sits with the queue, not above the case being decided.
policy = settings.agent(AGENT_NAME).policy
st.info(t(f"refund.policy.{policy}", threshold=amount(DEFAULT_THRESHOLD)))
show_queue(store, settings, book)
pending = threadindex.pending_interrupts(store)
# The batch's elements come and go with its list (a notice, a table or none): in a container of its own, the
# page's elements after it keep their places, so the browser never draws the request form anew (the case
# panel and the queue are live parts, each a container already).
with st.container():
    show_batch(store, settings, book, pending)
new_request_form(store, settings, expanded=not book.cases)

# --- Audit and ledger ------------------------------------------------------------------------------
show_audit_and_ledger(store, settings, book)

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
    waiting = [p for p in pending if p.agent == ledger.AGENT_NAME]
    if waiting:
        first = waiting[0]
        saved = t(
            "refund.pitfall.saved_item",
            thread=first.thread_id,
            node=first.node,
            checkpoint=short_id(first.checkpoint_id),
        )
        st.text(saved)
    else:
        st.caption(t("refund.pitfall.no_saved"))

sidebar_forms(store, settings, thread_id, shown_head("refund-page", thread_id) if thread_id else None)
