"""What an admin sees of the notifications on home: the ones that could not be delivered, and why.

Shown only to someone who may see the settings (an admin, or the local operator), since an error names
the receiving host; the webhook's URL (a secret) is never in it (``agents.notify.channels``).
"""

from __future__ import annotations

import datetime as dt

import pandas as pd
import streamlit as st

from agents.db import Store
from agents.identity import SEE_SETTINGS
from agents.notify import outbox
from dashboard import auth
from dashboard.i18n import t
from dashboard.views import show_table


def failing_frame(found: list[outbox.Failing]) -> pd.DataFrame:
    """One row per undelivered notification whose last attempt failed."""
    columns = [t(f"notify.col.{name}") for name in ("event", "channel", "attempts", "error", "next")]
    rows = [
        (event, channel, attempts, error, dt.datetime.fromtimestamp(next_at, dt.UTC).strftime("%Y-%m-%d %H:%M:%S"))
        for event, channel, attempts, error, next_at in found
    ]
    return pd.DataFrame(rows, columns=columns)


def show_notify_failures(store: Store) -> None:
    """A warning with the undelivered notifications, for an admin; nothing when none failed."""
    if auth.why_not(SEE_SETTINGS):
        return
    found = outbox.failing(store)
    if not found:
        return
    st.warning(t("notify.failing", count=len(found)), icon=":material/notifications_off:")
    with st.expander(t("notify.failing.details")):
        show_table(failing_frame(found), t("notify.none"))
