"""Home: the agents, their threads, and the inbox of everything waiting for a human."""

import streamlit as st

from agents import readmodel
from agents.registry import AGENTS
from dashboard import resources
from dashboard.i18n import t
from dashboard.views import payload_summary, show_table, threads_frame

store = resources.store()
st.title(t("app.title"))
st.caption(t("home.intro"))

waiting = readmodel.pending_interrupts(store)
st.header(t("home.inbox"))
if not waiting:
    st.info(t("home.inbox_empty"))
else:
    st.caption(t("home.inbox_count", count=len(waiting)))
for item in waiting:
    spec = AGENTS.get(item.agent)
    with st.container(border=True):
        left, right = st.columns([4, 1])
        left.markdown(f"**{t(f'agent.{item.agent}.title')}** · `{item.thread_id}` · {item.node}")
        left.text(payload_summary(item.payload))
        if spec is not None:
            right.page_link(spec.page, label=t("home.open"), icon=":material/open_in_new:",
                            query_params={"thread": item.thread_id})

threads = readmodel.list_threads(store)
st.header(t("home.agents"))
for spec in AGENTS.values():
    own = [x for x in threads if x.agent == spec.name]
    with st.container(border=True):
        st.subheader(t(f"agent.{spec.name}.title"))
        st.caption(t(f"agent.{spec.name}.description"))
        st.page_link(spec.page, label=t("home.open"), icon=":material/arrow_forward:")
        show_table(threads_frame(own), t("home.no_threads"))
