"""Who is using the dashboard: a signed-in person through Streamlit's OpenID Connect support, or local mode.

With an ``[auth]`` section in ``.streamlit/secrets.toml`` (Streamlit's own ``st.login``), every page
requires sign-in: a session that is not signed in sees the sign-in page and nothing else. Without it,
the dashboard runs in local mode: it serves this machine only (``server.address`` on loopback), one
local operator may do everything, and a visible badge says so.

The session's :func:`identity` (``st.user``'s email and name through the roles file) is what the
pages pass as ``actor=`` to every ``agents.runs`` operation, which is where each right is checked.
The pages ask :func:`why_not` only to hide what the role cannot do and to say why.
"""

from __future__ import annotations

from typing import Any

import streamlit as st
from streamlit.errors import StreamlitAuthError

from agents.identity import LOCAL_OPERATOR, VIEWER, Identity, Roles, refusal
from agents.validation import is_loopback
from dashboard import resources
from dashboard.i18n import localized, t
from dashboard.navigation import pages
from dashboard.safe_markdown import escape_markdown


def sign_in_configured() -> bool:
    """Whether ``[auth]`` is configured: Streamlit then gives every session ``st.user.is_logged_in``."""
    return "is_logged_in" in st.user


def signed_in() -> bool:
    """Whether this session's person has signed in (always false without ``[auth]``)."""
    return bool(st.user.get("is_logged_in", False))


def listens_on_loopback_only(address: str | None) -> bool:
    """Whether a ``server.address`` serves this machine only (unset means every interface)."""
    return bool(address) and is_loopback(str(address))


def _sign_in_page() -> None:
    st.title(t("auth.sign_in.title"))
    st.write(t("auth.sign_in.intro"))
    if st.button(t("auth.sign_in.button"), key="auth-sign-in", type="primary"):
        try:
            st.login()
        except StreamlitAuthError as error:  # [auth] lacks a key; Streamlit's message names it, never a value
            st.error(escape_markdown(t("auth.misconfigured", error=error)))


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


_NO_ROLES = Roles()


def identity() -> Identity:
    """Who acts in this session: the signed-in person with their role, or the local operator.

    An email the provider marks unverified (``email_verified`` false) gets no role from the file: a
    viewer. Without a roles file every signed-in person is a viewer.
    """
    if not sign_in_configured():
        return LOCAL_OPERATOR
    email = str(st.user.get("email") or "").strip()
    name = str(st.user.get("name") or "").strip()
    if not signed_in() or not email:
        return Identity(email=email, name=name or email, role=VIEWER)
    if st.user.get("email_verified") is False:
        return Identity(email=email, name=name or email, role=VIEWER)
    return (resources.settings().roles or _NO_ROLES).identity_for(email, name)


def role_word(role: str) -> str:
    """A role in the session's language; several roles joined by ", " (the audit of a case whose items
    were decided by people of different roles) each in words."""
    return ", ".join(t(f"auth.role.{each}") for each in role.split(", "))


def _krw(amount: object) -> str:
    return f"{amount:,}" if isinstance(amount, int) else str(amount)


def why_not(action: str, **case: Any) -> str:
    """Why this session's identity may not take ``action`` on ``case`` (in the session's language), or ''
    when it may.

    The decision and its words are :func:`agents.identity.refusal`'s (with the rule the action's agent
    registered), the ones ``agents.runs`` refuses with on every path; the page only hides the control.
    """
    found = refusal(identity(), action, **case)
    return localized(found.text) if found is not None else ""


def sidebar_badge() -> None:
    """Who acts in this session, and the way out: the local-mode badge, or the person and sign-out."""
    with st.sidebar:
        if not sign_in_configured():
            st.badge(t("auth.local_badge"), icon=":material/computer:", color="orange")
            st.caption(t("auth.local_help"))
            return
        me = identity()
        name, email = escape_markdown(me.name), escape_markdown(me.email)  # the provider's text, as text
        st.caption(t("auth.signed_in_as", name=name, email=email, role=role_word(me.role)))
        if me.limit_krw is not None:
            st.caption(t("auth.limit", limit=_krw(me.limit_krw)))
        if resources.settings().roles is None:
            st.warning(t("auth.no_roles"))
        if st.button(t("auth.sign_out"), key="auth-sign-out", icon=":material/logout:"):
            st.logout()
