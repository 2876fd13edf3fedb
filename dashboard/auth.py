"""Who is using the dashboard: a signed-in person through Streamlit's OpenID Connect support, or local mode.

With an ``[auth]`` section in ``.streamlit/secrets.toml`` (Streamlit's own ``st.login``), every page
requires sign-in: a session that is not signed in sees the sign-in page and nothing else. Without it,
the dashboard runs in local mode: it serves this machine only (``server.address`` on loopback), one
local operator may do everything, and a visible badge says so.
"""

from __future__ import annotations

import ipaddress

import streamlit as st

from dashboard.i18n import t
from dashboard.navigation import pages
from dashboard.views import escape_markdown


def sign_in_configured() -> bool:
    """Whether ``[auth]`` is configured: Streamlit then gives every session ``st.user.is_logged_in``."""
    return "is_logged_in" in st.user


def signed_in() -> bool:
    """Whether this session's person has signed in (always false without ``[auth]``)."""
    return bool(st.user.get("is_logged_in", False))


def listens_on_loopback_only(address: str | None) -> bool:
    """Whether a ``server.address`` serves this machine only (unset means every interface)."""
    if not address:
        return False
    if address == "localhost":
        return True
    try:
        return ipaddress.ip_address(address.strip("[]")).is_loopback
    except ValueError:
        return False


def _sign_in_page() -> None:
    st.title(t("auth.sign_in.title"))
    st.write(t("auth.sign_in.intro"))
    if st.button(t("auth.sign_in.button"), key="auth-sign-in", type="primary"):
        st.login()


def gate() -> None:
    """Stops the run unless this session may see the pages.

    Signed in (with ``[auth]``), or local mode on loopback, passes. A session that is not signed in
    is shown the sign-in page only; local mode beyond loopback is refused with what to configure.
    """
    if sign_in_configured():
        if not signed_in():
            # Every page's path draws the sign-in page (a link to /refund is not "page not found").
            title = t("auth.sign_in.title")
            entries = [
                st.Page(_sign_in_page, title=title, url_path=entry.url_path, default=index == 0)
                for index, entry in enumerate(pages())
            ]
            st.navigation(entries, position="hidden").run()
            st.stop()
        return
    address = st.get_option("server.address")
    if not listens_on_loopback_only(address):
        st.error(escape_markdown(t("auth.exposed", address=address or "0.0.0.0")))
        st.stop()


def sidebar_badge() -> None:
    """Who acts in this session, and the way out: the local-mode badge, or the person and sign-out."""
    with st.sidebar:
        if not sign_in_configured():
            st.badge(t("auth.local_badge"), icon=":material/computer:", color="orange")
            st.caption(t("auth.local_help"))
            return
        email = str(st.user.get("email") or "")
        name = str(st.user.get("name") or email)
        st.caption(escape_markdown(f"{name} ({email})"))
        if st.button(t("auth.sign_out"), key="auth-sign-out", icon=":material/logout:"):
            st.logout()
