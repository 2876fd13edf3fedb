"""``st.fragment`` for the dashboard: a database that refuses a read or a write is a message in the fragment.

A fragment's exceptions stay inside it (Streamlit draws them there), so the frame's own message for
a busy or damaged database (``streamlit_app.py``) never sees them: each fragment says it itself.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import streamlit as st

from agents.db import DatabaseError
from dashboard.i18n import localized, t
from dashboard.safe_markdown import escape_markdown

F = TypeVar("F", bound=Callable[..., Any])


def fragment(function: F) -> F:
    """``st.fragment(function)``, with a :class:`~agents.db.DatabaseError` shown as the frame shows it."""

    return st.fragment(guarded(function))


def guarded(function: F) -> F:
    """``function`` with a :class:`~agents.db.DatabaseError` said where it draws (a fragment's errors stay in it)."""

    @functools.wraps(function)
    def said(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except DatabaseError as error:
            st.error(escape_markdown(t("app.db_error", error=localized(error))))
            return None

    return said  # type: ignore[return-value]


def refresh_page_when_behind(key: str, drawn: object, now: object) -> None:
    """Reruns the whole page, once, when a fragment reads newer data than the page around it drew.

    A fragment reruns alone (typing in it): what it reads is fresh, the lists around it are as the
    page last drew them. When the fragment sees that its subject moved on (``now`` is not ``drawn``:
    another tab decided the case), the page is drawn again, so a list never says "waiting" beside a
    panel that says "paid". Widgets keep what was typed. ``key`` remembers the rerun, so data that
    changes between the page's read and the fragment's reruns the page once, never in a loop.
    """
    if drawn == now:
        st.session_state.pop(key, None)
        return
    if st.session_state.get(key) == now:
        return
    st.session_state[key] = now
    st.rerun()
