"""What an admin sees of the notifications on home: the ones that could not be delivered, and why, and the mails
the mail server refused for some of their recipients, and whom.

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


def _utc(moment: float) -> str:
    return dt.datetime.fromtimestamp(moment, dt.UTC).strftime("%Y-%m-%d %H:%M:%S")


def failing_frame(found: list[outbox.Failing]) -> pd.DataFrame:
    """One row per undelivered notification whose last attempt failed."""
    columns = [t(f"notify.col.{name}") for name in ("event", "channel", "attempts", "error", "next")]
    rows = [(event, channel, attempts, error, _utc(next_at)) for event, channel, attempts, error, next_at in found]
    return pd.DataFrame(rows, columns=columns)


def refused_frame(found: list[outbox.Refused]) -> pd.DataFrame:
    """One row per mail sent that the mail server refused for some of its recipients: whom, in its words."""
    columns = [t(f"notify.col.{name}") for name in ("event", "channel", "sent", "answer")]
    return pd.DataFrame([(event, channel, _utc(at), error) for event, channel, error, at in found], columns=columns)


def show_notify_failures(store: Store) -> None:
    """For an admin, a warning with the undelivered notifications, and one with the mails some recipients
    refused (until dismissed); nothing when there are none."""
    if auth.why_not(SEE_SETTINGS):
        return
    found, refused = outbox.problems(store)
    if found:
        st.warning(t("notify.failing", count=len(found)), icon=":material/notifications_off:")
        with st.expander(t("notify.failing.details")):
            show_table(failing_frame(found), t("notify.none"))
    if refused:
        st.warning(t("notify.refused", count=len(refused)), icon=":material/unsubscribe:")
        with st.expander(t("notify.refused.details")):
            show_table(refused_frame(refused), t("notify.none"))
