"""The refund page's new-request form, folded below the queue so it never pushes a decision down.

The request is sent by the submit button's callback, which runs before the page is drawn: the new
case is then the selected case (``?thread=``) at the top of that very run.
"""

from __future__ import annotations

import streamlit as st

from agents import runs
from agents.db import Store
from agents.errors import RunFailedError, UserError
from agents.identity import START_RUN
from agents.refund.graph import AGENT_NAME
from agents.settings import Settings
from dashboard import auth
from dashboard.forms import flash, refused_text, status_word
from dashboard.i18n import current_language, localized, t
from dashboard.safe_markdown import escape_markdown

REFUSED_KEY = "refund:new-refused"  # why the last request was refused, shown once in the form
OPEN_KEY = "refund:new-open"  # this session sent a request: the form stays open for the next one


def _submit(store: Store, settings: Settings) -> None:
    """Starts the case the form holds: selects it and says so, or keeps why it was refused."""
    st.session_state[OPEN_KEY] = True
    values = {
        "case_id": st.session_state.get("refund-new-case", ""),
        "customer": st.session_state.get("refund-new-customer", ""),
        "amount": st.session_state.get("refund-new-amount", ""),
        "items": st.session_state.get("refund-new-items", "").strip() or None,
        "reason": st.session_state.get("refund-new-reason", ""),
    }
    try:
        created = runs.start_run(store, settings, AGENT_NAME, values, lang=current_language(), actor=auth.identity())
    except UserError as error:
        st.session_state[REFUSED_KEY] = refused_text(error)
    except RunFailedError as error:  # what finished is saved; the case needs attention: it is selected
        st.session_state[REFUSED_KEY] = localized(error)
        st.query_params["thread"] = error.thread_id
    else:
        st.query_params["thread"] = created.thread_id
        flash("success", t("refund.new.done", case=created.values["case_id"], status=status_word(created)))


def new_request_form(store: Store, settings: Settings, *, expanded: bool) -> None:
    """The form for a new case (one amount, or several items), in an expander: open when ``expanded``
    (no case yet) and, once this session sent a request, for the rest of it."""
    with st.expander(t("refund.new.header"), expanded=expanded or bool(st.session_state.get(OPEN_KEY))):
        refused = st.session_state.pop(REFUSED_KEY, None)
        if refused:
            st.error(escape_markdown(refused))
        with st.form("refund-new"):
            st.caption(t("refund.new.thread_hint"))
            left, right = st.columns(2)
            left.text_input(t("field.case_id"), key="refund-new-case")
            right.text_input(t("field.customer"), key="refund-new-customer")
            placeholder = t("refund.new.amount_placeholder")
            left.text_input(t("field.amount"), key="refund-new-amount", placeholder=placeholder)
            example = '[{"item": "A-1", "amount": 300000}]'
            st.text_area(t("field.items"), key="refund-new-items", placeholder=example, help=t("refund.new.items_help"))
            st.text_area(t("field.reason"), key="refund-new-reason")
            cannot_start = auth.why_not(START_RUN)
            if cannot_start:
                st.caption(t("auth.cannot_act", reason=cannot_start))
            st.form_submit_button(
                t("refund.new.submit"),
                type="primary",
                disabled=bool(cannot_start),
                on_click=_submit,
                args=(store, settings),
            )
