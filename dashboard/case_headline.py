"""A refund case panel's headline: what its status says, and under a waiting case's reason cut with "…" the
switch that shows the reason whole in the headline's place (for the case it was turned on for, while drawn).

The switch's state is its own widget value, not a button's callback: on a page with live parts the browser
may deliver one click twice (docs/ARCHITECTURE.md), and a value sent twice is the same value, where a
button drawn again between the two deliveries would fold the reason it had just shown."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import streamlit as st

from agents.lifecycle import ThreadStatus
from dashboard import case_panel

WHOLE_REASON_KEY = "refund-whole-reason"  # the switch's key, followed by its case's thread id


def show_headline(
    headline: case_panel.Headline, values: Mapping[str, Any], status: ThreadStatus, thread_id: str
) -> None:
    """The headline in one container, in the page's flow above the decision buttons: the reason is said once,
    and Approve / Reject stay on the first screen with it whole. The switch is keyed by the case, so another
    case starts cut, and Streamlit forgets a case's switch once a run no longer draws it."""
    key = f"{WHOLE_REASON_KEY}-{thread_id}"
    label = case_panel.reason_toggle(headline, values)
    whole = bool(label) and bool(st.session_state.get(key, False))
    kind, said = case_panel.headline_message(headline, values, status, whole_reason=whole)
    with st.container():
        getattr(st, kind)(said)
        if label:
            st.toggle(label, key=key)
        else:
            st.empty()
