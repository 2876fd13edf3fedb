"""Live pages: the parts of a page that follow the database redraw themselves, alone, within ``HITL_LIVE_REFRESH`` s.

The parts that show what changes under the user (the home inbox and threads, each agent's queue, the
open refund case, the robot's and the lecture's open thread) are live fragments (:func:`fragment`):
``st.fragment(run_every=...)`` reruns each of them alone every ``Settings.live_refresh`` seconds (2 by
default), never the page around it. A form being typed in outside them is not touched, and no element
outside them is sent again.

Each run of a live part first reads the store's live token (:meth:`~agents.db.Store.live_token`:
SQLite's ``data_version``, PostgreSQL's transaction snapshot; one cheap statement whatever the number
of threads). Its rows (:func:`rows`) are read again only when the token moved since they were read;
a run that finds nothing new draws the rows it already holds. A case another approver decided leaves
the queue, a new case joins it, within one interval.

A page with no live part (the explorer, the timeline) gets the frame's watcher instead (:func:`watch`,
drawn after the page): a fragment that draws nothing, checks the token every interval and, when it
moved, draws the whole page again.

The navigation's overdue counts are drawn by the page's run alone (``st.navigation``): the frame
follows them (:func:`follow_overdue`) and draws the page again, once, when they changed.

A page drawn again whole keeps what was typed in its forms: the browser sends a form's values with its
submit only. So a form does not take the new head from such a run: it keeps the one it was drawn at,
says so, and a submit is refused as stale (``dashboard.forms.armed_head``), never applied to a state
the user had not seen when typing.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import streamlit as st

from agents import ages, statuspages
from agents.db import Store
from dashboard import resources
from dashboard.fragments import guarded, refresh_page_when_behind
from dashboard.navigation import page_counts

#: The session key of the token the page was last drawn under.
DRAWN_KEY = "live.drawn"
#: The session key saying the page's last full run drew a live part (the frame's watcher then stays still).
LIVE_PAGE_KEY = "live.page-has-parts"
#: The session key prefix of a live part's rows and the token they were read under.
ROWS_KEY = "live.rows:"

F = TypeVar("F", bound=Callable[..., Any])
R = TypeVar("R")  # what a part reads: its rows


def page_is_behind(drawn: object, now: object) -> bool:
    """True when the database changed since the page was drawn (an unknown token never redraws)."""
    return drawn is not None and now is not None and drawn != now


#: ``st.session_state``, or a plain dict in tests (Streamlit's proxy is no ``MutableMapping`` to mypy).
SessionState = Any


def mark_drawn(store: Store, state: SessionState) -> None:
    """Records the token the page is drawn under; the frame calls it before the page reads anything.

    It also forgets whether the page has live parts and the rows they kept: the page's run draws its
    parts again from what it reads (another thread shown, another order chosen).
    """
    state[DRAWN_KEY] = store.live_token()
    state.pop(LIVE_PAGE_KEY, None)
    for key in [key for key in state.keys() if str(key).startswith(ROWS_KEY)]:
        del state[key]


def redraw_if_changed(store: Store, state: SessionState, rerun: Callable[[], Any] = st.rerun) -> bool:
    """Reruns the whole page (``rerun``) when the database changed since it was drawn; returns whether it did.

    A page whose last full run drew live parts is never rerun: those parts follow the database themselves.
    """
    if state.get(LIVE_PAGE_KEY):
        return False
    if not page_is_behind(state.get(DRAWN_KEY), store.live_token()):
        return False
    rerun()
    return True


def rows(key: str, load: Callable[[], R], *, store: Store | None = None, state: SessionState | None = None) -> R:
    """``load()``, read again only when the database changed since this part last read it.

    ``key`` names the part (unique on the page). The rows are kept in the session with the live token
    read before them until the page is drawn again (:func:`mark_drawn`), so a run of the part with
    nothing new (most of the interval's runs) costs the token's one statement; an unknown token (a
    store that cannot tell) reads every time.
    """
    state = st.session_state if state is None else state
    token = (resources.store() if store is None else store).live_token()  # read before the rows it guards
    kept = state.get(ROWS_KEY + key)
    if token is not None and kept is not None and kept[0] == token:
        return kept[1]
    found = load()
    state[ROWS_KEY + key] = (token, found)
    return found


def fragment(function: F) -> F:
    """A live part: ``st.fragment(function, run_every=HITL_LIVE_REFRESH)`` that reruns alone.

    With ``HITL_LIVE_REFRESH`` at 0 it is a plain fragment (redrawn when used or with the page).
    Drawing one tells the frame's watcher that this page follows the database by its parts.
    """

    @functools.wraps(function)
    def live_part(*args: Any, **kwargs: Any) -> Any:
        interval = resources.settings().live_refresh
        if interval > 0:
            st.session_state[LIVE_PAGE_KEY] = True
        # Made on each call: Streamlit knows a fragment by its function's name and place, and a page's
        # function is made anew by each run of the page (its globals with it).
        return st.fragment(guarded(function), run_every=interval or None)(*args, **kwargs)

    return live_part  # type: ignore[return-value]


#: The session key saying the watcher is being drawn by the page's run (which checks nothing: it just read).
WATCH_DRAWN_KEY = "live.watch-drawn"


def _check(store: Store) -> None:
    if st.session_state.pop(WATCH_DRAWN_KEY, False):  # drawn with the page: its ticks check, from the next one
        return
    redraw_if_changed(store, st.session_state)


#: One fragment per interval: a fragment is identified by where it is defined, so it is made once.
_WATCHERS: dict[float, Callable[[Store], None]] = {}


def watch(store: Store, interval: float, state: SessionState) -> None:
    """Draws the frame's watcher, after the page: a fragment rerun every ``interval`` seconds that draws
    nothing and redraws the page after a change. A page that drew live parts (they follow the database
    themselves) or ``interval`` 0 draws no watcher."""
    if interval <= 0 or state.get(LIVE_PAGE_KEY):
        return
    if interval not in _WATCHERS:
        _WATCHERS[interval] = st.fragment(_check, run_every=interval)
    state[WATCH_DRAWN_KEY] = True
    _WATCHERS[interval](store)


#: The session key of the overdue counts that last drew the page again.
OVERDUE_KEY = "live.overdue"


def overdue_now(store: Store, deadlines: Mapping[str, int]) -> dict[str, int]:
    """The overdue counts per page URL path, now, counted by the kept index of statuses (:mod:`agents.statuspages`)."""
    by_agent = statuspages.overdue_counts(store, deadlines, ages.utc_now())
    return {page: count for page, count in page_counts(by_agent).items() if count}


def follow_overdue(store: Store, deadlines: Mapping[str, int], interval: float, shown: Mapping[str, int]) -> None:
    """Follows the navigation's overdue counts (``shown``, from :func:`overdue_now`): a fragment that draws
    nothing and, every ``interval`` seconds, counts again and draws the page again when the counts
    changed (a wait passed its deadline, a late case was decided elsewhere), once per change.

    The navigation is drawn by the page's run alone, so this is the one live part that draws the page
    again. A run with nothing new reads only the live token (the time moves the counts, not a read).
    """
    if interval <= 0 or not deadlines:
        return
    drawn = {page: count for page, count in shown.items() if count}
    st.fragment(guarded(_check_overdue), run_every=interval)(store, dict(deadlines), drawn)


def _check_overdue(store: Store, deadlines: dict[str, int], drawn: dict[str, int]) -> None:
    refresh_page_when_behind(OVERDUE_KEY, drawn, overdue_now(store, deadlines))
