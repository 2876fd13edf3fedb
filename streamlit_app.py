"""The dashboard's frame: page setup, language switch, navigation.

Pages live in ``app_pages/``: a top-level ``pages/`` folder would switch
Streamlit to its legacy multipage mode, which skips this frame (language
switch, translated navigation) on a page's first load. Everything the pages
share (database, strings, forms) lives in ``dashboard/`` and ``agents/``.
"""

import streamlit as st

from agents.db import DatabaseError
from agents.errors import UserError
from dashboard import auth, live, presenter, resources
from dashboard.i18n import (
    LANGUAGE_KEY,
    LANGUAGES,
    adopt_url_language,
    keep_language_in_url,
    language_style,
    localized,
    t,
)
from dashboard.navigation import nav_title, pages
from dashboard.safe_markdown import escape_markdown, inline_code_style

st.set_page_config(page_title="HITL Dashboard", page_icon="✋", layout="wide")
adopt_url_language()  # ?lang= of a link or a reload wins over the session's earlier choice

presenter.adopt_url()  # ?present=1 of a link or a reload
with st.sidebar:
    st.selectbox(t("app.language"), list(LANGUAGES), format_func=LANGUAGES.get, key=LANGUAGE_KEY)
    language_style()  # in the sidebar: a style takes no room there, and applies to the whole page
    inline_code_style()  # ids and code spans are never broken at their punctuation
    presenter.toggle()
keep_language_in_url()
presenter.keep_in_url()
auth.gate()  # signed in, or local mode on this machine; otherwise the sign-in page and nothing else

try:
    resources.settings()
except UserError as error:  # a setting has a value it cannot take (named in the message)
    st.error(escape_markdown(t("app.settings_error", error=localized(error))))
    st.stop()
try:
    store = resources.store()
except UserError as error:  # the database cannot be used
    st.error(escape_markdown(t("app.db_error", error=localized(error))))
    st.stop()
if store.read_only:
    st.warning(t("app.read_only"))
auth.sidebar_badge()
live.mark_drawn(store, st.session_state)  # read before the page reads anything it guards

settings = resources.settings()
# Overdue counts beside the page names; nothing to count (and nothing read) without a deadline (HITL_SLA).
try:
    late = live.overdue_now(store, settings.deadlines) if settings.deadlines else {}
except DatabaseError:  # the page says why when it reads; the names go without their counts
    late = {}
navigation = st.navigation(
    [
        st.Page(
            page.path,
            title=nav_title(
                t(page.title_key), late.get(page.url_path, 0), t("home.inbox_overdue", count=late.get(page.url_path, 0))
            ),
            icon=page.icon,
            url_path=page.url_path,
            default=index == 0,
        )
        for index, page in enumerate(pages())
    ]
)
try:
    navigation.run()
except DatabaseError as error:  # a read or write the database refused (busy too long, damaged): said, not a traceback
    st.error(escape_markdown(t("app.db_error", error=localized(error))))
finally:  # after the page (stopped early or not): a page without live parts is drawn again after a change
    live.watch(store, settings.live_refresh, st.session_state)
    live.follow_overdue(store, settings.deadlines, settings.live_refresh, late)
