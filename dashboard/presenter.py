"""Presenter mode, for live demos: a toggle kept in the URL (``?present=1``).

When it is on, the type is larger, the robot's explanations are folded until the presenter opens them
(the quiz's answers stay hidden until clicked, as always), the graph's current step is highlighted as
the run moves, and the save file's rows that are new since the previous action are marked. The
decisions (which step is current, which rows are new) are plain functions; the page only draws them.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from contextlib import AbstractContextManager
from typing import Any

import streamlit as st

from dashboard.i18n import t

#: The session key of the toggle, and the URL parameter that carries it.
PRESENT_KEY = "present"
#: The session key of what this session last wrote into ``?present=``.
URL_KEY = "present.url"
#: The value of ``?present=`` that turns it on.
ON = "1"
#: The root's font size, in pixels, in presenter mode (:data:`STYLE`) and without it (Streamlit's).
ROOT_PX, NORMAL_ROOT_PX = 22, 16
#: Streamlit wraps a grid cell's text only in rows taller than 4rem, and draws a grid's header row 2.1875rem high
#: (its borders add 4 px): sizes of the root's, where a grid's rows are given in pixels.
WRAPPING_ROWS_REM, HEADER_ROW_REM = 4, 2.1875
#: Larger type for a projector: every size on the page is relative to the root's (Streamlit's rem).
#: The main block's top margin (6rem) would grow with it; it is kept at about its normal height (4.5rem,
#: 99 px), below the header bar (3.75rem, 82.5 px at this size), which is opaque and covers the page's top
#: while the sidebar is closed (a phone's or a tablet's width, or closed by hand). With the sidebar open
#: the header is transparent and holds nothing over the main block, so the margin is smaller (1.5rem) and
#: a page's first controls stay on a 1280×720 projector's first screen. The sidebar's badge wraps rather
#: than being cut.
#:
#: What is measured in pixels does not grow with the type, and needs room made for it: a grid's columns (the
#: refund queue's are 812 px, for a 1280-pixel window's 818 px grid) and its rows (:func:`grid_row_height`). On a
#: wide window (Streamlit's own condition for its side margins of 5rem, 110 px at this size) the main block's
#: side margins are 2rem (44 px), so it is wider than without presenter mode (892 px at 1280, against 818): the
#: grids fit, and a third of it (a row of three metrics) holds a refund's largest amount, "10,000,000 KRW", in a
#: metric's value at 1.75rem (38.5 px, still over its normal 36 px; at its 2.25rem it is 327 px, cut with "…").
#: A column that holds a segmented control (a queue's order) is at least as wide as its choices: at this size
#: "largest amount first" no longer fits a queue's order column (its choices scrolled sideways, cut), and the
#: line's last control (the search) goes to a line of its own instead. Streamlit sizes a grid's text from the
#: root once, when the grid is first drawn (before this style took effect: the normal 14 px the columns are
#: made for; after it: 19.25 px in the same columns), which no style of ours can change. A constant of ours, no
#: user text.
STYLE = (
    "<style>html { font-size: 22px; }"  # ROOT_PX: a literal, so the style is a constant (tests/test_security.py)
    ' [data-testid="stMainBlockContainer"] { padding-top: 4.5rem; }'
    ' .stApp:has([data-testid="stSidebar"][data-collapsed="false"]) [data-testid="stMainBlockContainer"]'
    " { padding-top: 1.5rem; }"
    ' [data-testid="stMain"] h1 { font-size: 2.25rem; padding-top: 0.5rem; }'
    " @media (min-width: calc(736px + 8rem))"
    ' { [data-testid="stMainBlockContainer"] { padding-left: 2rem; padding-right: 2rem; } }'
    ' [data-testid="stMetricValue"] { font-size: 1.75rem; }'
    ' [data-testid="stMain"] [data-testid="stColumn"]:has([data-testid="stButtonGroup"]) { min-width: fit-content; }'
    # A badge keeps to one line and cuts the rest with an ellipsis; in the sidebar's width at this size
    # it wraps instead, so "local mode — not signed in" reads whole, and Korean wraps between words
    # ("로그인하지 않음" is never split inside "로그인하지").
    ' [data-testid="stSidebar"] .stMarkdownBadge { white-space: normal !important; word-break: keep-all; }</style>'
)
#: Column widths of a page's state beside a folded explanation: a fold needs little width, and lines of
#: the larger type that do not wrap keep the controls under them on the first screen.
STATE_BESIDE_FOLD = [2, 1]

#: A step of the graph: ``done`` (ran in this run), ``current`` (where the run is), ``later``.
StepState = str


def adopt_url() -> None:
    """Takes presenter mode from ``?present=`` when the URL brings a new value (a link, a reload).

    Called before the toggle is drawn. The value this session wrote itself changes nothing, so the
    toggle's own choice is not undone by the URL it is about to rewrite; nor does a URL without it: the
    navigation's links carry no query, so a page change keeps the mode (:func:`keep_in_url` writes it back).
    """
    requested = st.query_params.get(PRESENT_KEY)
    if requested is not None and requested != st.session_state.get(URL_KEY):
        st.session_state[PRESENT_KEY] = requested == ON
    st.session_state.setdefault(PRESENT_KEY, False)


def keep_in_url() -> None:
    """Writes presenter mode into the URL (``?present=1``), so a reload, a link and a page change keep it."""
    if is_on():
        if st.query_params.get(PRESENT_KEY) != ON:
            st.query_params[PRESENT_KEY] = ON
        st.session_state[URL_KEY] = ON
    else:
        if PRESENT_KEY in st.query_params:
            del st.query_params[PRESENT_KEY]
        st.session_state[URL_KEY] = None


def is_on() -> bool:
    """Whether presenter mode is on in this session."""
    return bool(st.session_state.get(PRESENT_KEY, False))


def toggle() -> None:
    """The switch (in the sidebar), then the larger type when it is on."""
    st.toggle(t("presenter.toggle"), key=PRESENT_KEY, help=t("presenter.toggle.help"))
    if is_on():
        st.html(STYLE)  # a style of ours only: Streamlit adds it without taking space on the page


def grid_row_height(height: int | None) -> int | None:
    """The height to ask for rows meant to wrap their cells (``height`` pixels, over 4rem of the normal type): in
    presenter mode at least 4rem of its type (89 px), else Streamlit would draw each cell on one line, cut with
    "…" (a queue's "500,000 KRW wa…"). One-line rows (None, or 4rem or less) are left as they are."""
    if height is None or not is_on() or height <= WRAPPING_ROWS_REM * NORMAL_ROOT_PX:
        return height
    return max(height, WRAPPING_ROWS_REM * ROOT_PX + 1)


def grid_header_height(height: int) -> int:
    """A grid's header row and borders (``height`` pixels at the normal type) at this session's type: the header
    grows with the root, so a grid's height made of its rows and header shows its last row whole."""
    grown = round(HEADER_ROW_REM * ROOT_PX) - round(HEADER_ROW_REM * NORMAL_ROOT_PX)
    return height + grown if is_on() else height


def folded(label: str, key: str) -> AbstractContextManager[Any]:
    """Where an explanation is drawn: a closed expander in presenter mode, else a bordered box."""
    if is_on():
        return st.expander(label, expanded=False)
    return st.container(border=True, key=key)


def step_states(nodes: Sequence[str], next_nodes: Sequence[str], status: str) -> list[tuple[str, StepState]]:
    """Each node of a straight graph with where the run is: nodes before the next one are done.

    ``next_nodes`` is the head's ``next`` (where the run stops or will go on); none means the run
    ended (every node done) or never started (``status`` ``"new"``: none done).
    """
    if status == "new":
        return [(node, "later") for node in nodes]
    if not next_nodes:
        return [(node, "done") for node in nodes]
    current = min((nodes.index(node) for node in next_nodes if node in nodes), default=len(nodes))
    return [
        (node, "done" if i < current else "current" if node in next_nodes else "later") for i, node in enumerate(nodes)
    ]


_BADGE = {"done": "green", "current": "orange", "later": "gray"}


def steps_markdown(states: Iterable[tuple[str, StepState]], finished: bool) -> str:
    """The steps as a row of badges, the current one orange (node names are identifiers, no Markdown)."""
    badges = [f":{_BADGE[state]}-badge[{t(f'presenter.step.{state}', node=node)}]" for node, state in states]
    if finished:
        badges.append(f":green-badge[{t('presenter.step.finished')}]")
    return f"**{t('presenter.steps')}:** " + " → ".join(badges)


def new_keys(seen_key: str, keys: Iterable[Hashable], state: Any = None) -> frozenset[Hashable]:
    """The keys that are new since the rows last changed, and remembers these rows.

    The first draw marks nothing. When the rows differ from the last draw's (an action added some),
    the last draw's rows become the baseline, and what is not in it is new until the rows change again:
    a rerun that adds nothing (a search, a page, a live check) keeps the same rows marked.
    """
    state = st.session_state if state is None else state
    current = frozenset(keys)
    last, baseline = state.get(seen_key, (None, None))
    if last is not None and current != last:
        baseline = last
    state[seen_key] = (current, baseline)
    return frozenset() if baseline is None else current - baseline


def marker(new: frozenset[Hashable], key_of: Callable[[Any], Hashable]) -> Callable[[Any], str]:
    """A cell for the "new" column: the mark for a new row, nothing for the others."""
    mark = t("presenter.new")
    return lambda row: mark if key_of(row) in new else ""
