"""A refund case panel's headline: what its status says, and under a waiting case's reason cut with "…" the
button that shows the reason whole in the headline's place and folds it again (remembered for one case)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import streamlit as st

from agents.lifecycle import ThreadStatus
from dashboard import case_panel

WHOLE_REASON_KEY = "refund-whole-reason-of"  # the case whose reason its headline shows whole, not cut


def _show_reason(thread_id: str, whole: bool) -> None:
    """Shows ``thread_id``'s reason whole in its headline (``whole``), or cut again."""
    st.session_state[WHOLE_REASON_KEY] = thread_id if whole else None


def show_headline(
    headline: case_panel.Headline, values: Mapping[str, Any], status: ThreadStatus, thread_id: str
) -> None:
    """The headline in one container, in the page's flow above the decision buttons: the reason is said once,
    and Approve / Reject stay on the first screen with it whole."""
    whole = st.session_state.get(WHOLE_REASON_KEY) == thread_id
    kind, said = case_panel.headline_message(headline, values, status, whole_reason=whole)
    with st.container():
        getattr(st, kind)(said)
        toggle = case_panel.reason_toggle(headline, values, whole)
        if toggle:
            icon = ":material/unfold_less:" if whole else ":material/unfold_more:"
            st.button(
                toggle,
                key="refund-whole-reason",
                type="tertiary",
                icon=icon,
                on_click=_show_reason,
                args=(thread_id, not whole),
            )
        else:
            st.empty()
