"""The greeter's page: its title, its waiting threads, and the generic sidebar forms."""

import streamlit as st

from agents import lifecycle
from dashboard import resources
from dashboard.forms import sidebar_forms
from dashboard.i18n import t
from tests.plugin_agent.agent import AGENT_NAME

store, settings = resources.store(), resources.settings()
st.title(t("greeter.title"))
waiting = lifecycle.inbox(store, agent=AGENT_NAME)
for item in waiting:
    st.text(f"{item.thread_id}: {item.status}")
thread_id = st.query_params.get("thread")
sidebar_forms(store, settings, thread_id)
