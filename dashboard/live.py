"""Live pages: an open page redraws itself, within ``HITL_LIVE_REFRESH`` seconds, after the database changed.

A fragment of the frame (``streamlit_app.py``), rerun alone every ``Settings.live_refresh`` seconds
(2 by default), reads the store's live token (:meth:`~agents.db.Store.live_token`: SQLite's
``data_version``, PostgreSQL's transaction snapshot; one cheap statement whatever the number of
threads) and compares it with the token read when the page was last drawn. Only when they differ is
the page drawn again: a case another approver decided leaves the queue, a new case joins it, an open
thread shows its new head. A check that finds nothing new draws nothing and reruns nothing else.
Widgets keep their values across the redraw, a half-typed note included (the browser keeps what it
has not sent yet).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from agents.db import Store

#: The session key of the token the page was last drawn under.
DRAWN_KEY = "live.drawn"


def page_is_behind(drawn: object, now: object) -> bool:
    """True when the database changed since the page was drawn (an unknown token never redraws)."""
    return drawn is not None and now is not None and drawn != now


#: ``st.session_state``, or a plain dict in tests (Streamlit's proxy is no ``MutableMapping`` to mypy).
SessionState = Any


def mark_drawn(store: Store, state: SessionState) -> None:
    """Records the token the page is drawn under; the frame calls it before the page reads anything."""
    state[DRAWN_KEY] = store.live_token()


def redraw_if_changed(store: Store, state: SessionState, rerun: Callable[[], Any] = st.rerun) -> bool:
    """Reruns the whole page (``rerun``) when the database changed since it was drawn; returns whether it did."""
    if not page_is_behind(state.get(DRAWN_KEY), store.live_token()):
        return False
    rerun()
    return True


def _check(store: Store) -> None:
    redraw_if_changed(store, st.session_state)


#: One fragment per interval: a fragment is identified by where it is defined, so it is made once.
_WATCHERS: dict[float, Callable[[Store], None]] = {}


def watch(store: Store, interval: float) -> None:
    """Draws the frame's watcher: a fragment rerun every ``interval`` seconds that draws nothing and
    redraws the page after a change. ``interval`` 0 draws no watcher (pages redraw only when used)."""
    if interval <= 0:
        return
    if interval not in _WATCHERS:
        _WATCHERS[interval] = st.fragment(_check, run_every=interval)
    _WATCHERS[interval](store)
