"""Home: the agents, their threads, and the inbox of every thread that needs a human."""

import streamlit as st

from agents.registry import AGENTS
from dashboard import resources
from dashboard.home_view import show_agent_threads
from dashboard.i18n import t
from dashboard.notify_view import show_notify_failures
from dashboard.settings_view import show_settings
from dashboard.views import show_inbox_page

store, settings = resources.store(), resources.settings()
st.title(t("app.title"))
st.caption(t("home.intro"))
show_notify_failures(store)

st.header(t("home.inbox"))
show_inbox_page("home-inbox", store, t("home.inbox_empty"))

st.header(t("home.agents"))
for spec in AGENTS.values():
    with st.container(border=True):
        st.subheader(t(f"agent.{spec.name}.title"))
        st.caption(t(f"agent.{spec.name}.description"))
        st.page_link(spec.show.page.path, label=t("home.open"), icon=":material/arrow_forward:")
        show_agent_threads(store, spec)  # with none left, how many were deleted, and a link to them

show_settings(settings)
