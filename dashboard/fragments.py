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
from dashboard.i18n import t
from dashboard.safe_markdown import escape_markdown

F = TypeVar("F", bound=Callable[..., Any])


def fragment(function: F) -> F:
    """``st.fragment(function)``, with a :class:`~agents.db.DatabaseError` shown as the frame shows it."""

    @functools.wraps(function)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except DatabaseError as error:
            st.error(escape_markdown(t("app.db_error", error=error)))
            return None

    return st.fragment(guarded)  # type: ignore[return-value]
