"""The refund page's new-request form, folded below the queue so it never pushes a decision down.

The request is sent by the submit button's callback, which runs before the page is drawn: the new
case is then the selected case (``?thread=``) at the top of that very run.

What the request came to (the case sent, or why it was refused) is said in the form's box, in a place every
run draws: a message above the form, drawn by the run after a request and not by the next, moved every box
below it one place down the page, and the browser draws a box that changed place anew, with its fields. The
navigation's overdue counts draw the whole page again at any moment (``dashboard.live.follow_overdue``):
such a run used to take the focus from the field being typed in and lose the rest of what was typed.
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
from dashboard.forms import refused_text, status_word
from dashboard.i18n import current_language, localized, t
from dashboard.resubmission import sending, sent_again
from dashboard.safe_markdown import escape_markdown

SAID_KEY = "refund:new-said"  # what the last request came to, (kind, message), shown once in the form
OPEN_KEY = "refund:new-open"  # this session sent a request: the form stays open for the next one
BOX_KEY = "refund-new-box"  # the expander's key: the browser keeps its state by it, not by its place
FORM = "refund-new"  # the form, as the session remembers the last request it sent (dashboard.resubmission)


def _submit(store: Store, settings: Settings) -> None:
    """Starts the case the form holds: selects it and says so, or says why it was refused, in the form.

    The request this session just sent, sent again (a double click), is said as sent and selected
    (:mod:`dashboard.resubmission`): refused, it looked failed, and was entered again under a new id."""
    st.session_state[OPEN_KEY] = True
    values = {
        "case_id": st.session_state.get("refund-new-case", ""),
        "customer": st.session_state.get("refund-new-customer", ""),
        "amount": st.session_state.get("refund-new-amount", ""),
        "items": st.session_state.get("refund-new-items", "").strip() or None,
        "reason": st.session_state.get("refund-new-reason", ""),
    }
    run_id = sending(st.session_state, FORM, values)  # before the start: a second click ends this callback in it
    try:
        created = runs.start_run(
            store, settings, AGENT_NAME, values, lang=current_language(), actor=auth.identity(), run_id=run_id
        )
    except UserError as error:
        if (thread_id := sent_again(store, st.session_state, FORM, values)) is None:
            st.session_state[SAID_KEY] = ("error", refused_text(error))
        else:  # this request, sent by this session's click before: said as it was sent, and selected
            _said_sent(runs.current_result(store, settings, thread_id))
    except RunFailedError as error:  # what finished is saved; the case needs attention: it is selected
        st.session_state[SAID_KEY] = ("error", localized(error))
        st.query_params["thread"] = error.thread_id
    else:
        _said_sent(created)


def _said_sent(created: runs.RunResult) -> None:
    """Selects the case ``created`` and says it was sent, and where it stands."""
    st.query_params["thread"] = created.thread_id
    done = t("refund.new.done", case=created.values["case_id"], status=status_word(created))
    st.session_state[SAID_KEY] = ("success", done)


def new_request_form(store: Store, settings: Settings, *, expanded: bool) -> None:
    """The form for a new case (one amount, or several items), in an expander: open when ``expanded``
    (no case yet) and, once this session sent a request, for the rest of it."""
    opened = expanded or bool(st.session_state.get(OPEN_KEY))
    with st.expander(t("refund.new.header"), expanded=opened, key=BOX_KEY):
        said = st.empty()  # drawn by every run, message or not, so the form below keeps its place
        if SAID_KEY in st.session_state:
            kind, message = st.session_state.pop(SAID_KEY)
            (said.success if kind == "success" else said.error)(escape_markdown(message))
        with st.form(FORM):
            st.caption(t("refund.new.thread_hint"))
            # One row of columns per line, so the fields come in the order they are read, Tab included.
            case_id, customer = st.columns(2)
            case_id.text_input(t("field.case_id"), key="refund-new-case")
            customer.text_input(t("field.customer"), key="refund-new-customer")
            placeholder = t("refund.new.amount_placeholder")
            st.columns(2)[0].text_input(t("field.amount"), key="refund-new-amount", placeholder=placeholder)
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
