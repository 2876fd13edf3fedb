"""Paged, searchable tables: one ``st.dataframe`` of a page of rows, with a link column to act.

Lists that grow with the save file (the inbox, threads, queues, the audit, the ledger, a thread's
checkpoints and writes) are drawn here, so a page costs what it shows: the rows are loaded (from
caches, see :mod:`agents.threadindex`), filtered by the search text, and only the rows of the
current page are turned into cells. Each table is a fragment (``st.fragment``): typing a search
or changing the page reruns the table alone, and it loads its rows again each time, so what it
shows is never older than the database.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar
from urllib.parse import urlencode

import pandas as pd
import streamlit as st

from dashboard import live as live_parts
from dashboard import presenter
from dashboard.boxes import box
from dashboard.formats import cell
from dashboard.fragments import fragment
from dashboard.i18n import language_query, t
from dashboard.safe_markdown import escape_markdown

T = TypeVar("T")

#: Rows per page.
PAGE_SIZE = 25
#: The grid wraps a cell's text, over as many lines as fit, only in rows taller than this (4rem, in pixels).
WRAPS_ABOVE = 64
#: Rows of a table with tall rows shown without scrolling inside it (a longer page of rows scrolls past them).
TALL_ROWS_SHOWN = 8
#: The grid's header row and border in pixels (the header keeps its height when the rows are taller).
HEADER_HEIGHT = 39
#: The link column's width in pixels: its cells read "Open" (열기), whatever their address.
LINK_WIDTH = 56


@dataclass(frozen=True)
class Column(Generic[T]):
    """One column: its header, how a row's cell is made (a missing value shows as an empty cell) and, when
    set, its width in pixels (a long cell then wraps in a table with tall rows, see :data:`WRAPS_ABOVE`)."""

    label: str
    value: Callable[[T], Any]
    width: int | None = None


def page_url(url_path: str, thread_id: str) -> str:
    """A link to a page with a thread selected (``refund?thread=...``), relative to the app's root.

    It carries the session's language (``&lang=ko``), so the tab it opens speaks it too.
    """
    return f"{url_path}?{urlencode({'thread': thread_id, **language_query()})}"


def paged_table(
    key: str,
    load: Callable[[], Sequence[T]],
    columns: Sequence[Column[T]],
    *,
    empty_text: str,
    search_text: Callable[[T], str] | None = None,
    link: Callable[[T], str | None] | None = None,
    page_size: int = PAGE_SIZE,
    marked: Callable[[T], str] | None = None,
    live: bool = False,
    shown: Sequence[str] | None = None,
    row_height: int | None = None,
) -> None:
    """Draws the rows ``load()`` returns as a paged table (searchable when ``search_text`` is given).

    Args:
        key: The table's widget-key prefix (unique on the page).
        load: The rows, loaded on every run of the table (cheap: the read-model caches).
        columns: The cells of a row.
        empty_text: The caption when there are no rows at all.
        search_text: A row's searchable text (built only while a search is typed).
        link: A row's link (see :func:`page_url`), None for a row with nothing to open (its cell is empty,
            never "None"); ``link`` itself None for no link column.
        page_size: Rows per page.
        marked: A row's mark (empty: none): shown in a first column, and a marked row is highlighted.
        live: Whether the table follows the database on its own (a queue): it reruns alone every
            ``HITL_LIVE_REFRESH`` seconds and reads its rows again when the database changed
            (:mod:`dashboard.live`).
        shown: The labels of the columns drawn, in order (after the link column); None draws every column.
            The table's data keeps every column either way.
        row_height: Rows this many pixels tall (above :data:`WRAPS_ABOVE`, long cells wrap); None: one line.
    """
    options = {
        "columns": tuple(columns),
        "empty_text": empty_text,
        "search_text": search_text,
        "link": link,
        "page_size": page_size,
        "marked": marked,
        "shown_labels": None if shown is None else tuple(shown),
        "row_height": row_height,
    }
    if live:
        _live_fragment(key, functools.partial(live_parts.rows, key, load), **options)
    else:
        _fragment(key, load, **options)


# Two fragments, not one function wrapped twice: Streamlit tells fragments apart by their function.
@fragment
def _fragment(key: str, load: Callable[[], Sequence[Any]], **options: Any) -> None:
    draw_table(key, load(), **options)


@live_parts.fragment
def _live_fragment(key: str, load: Callable[[], Sequence[Any]], **options: Any) -> None:
    draw_table(key, load(), **options)


def draw_table(
    key: str,
    rows: Sequence[T],
    columns: Sequence[Column[T]],
    *,
    empty_text: str,
    search_text: Callable[[T], str] | None = None,
    link: Callable[[T], str | None] | None = None,
    page_size: int = PAGE_SIZE,
    marked: Callable[[T], str] | None = None,
    row_height: int | None = None,
    search_in: Any = None,
    shown_labels: Sequence[str] | None = None,
    paging_in: tuple[Any, Any] | None = None,
) -> None:
    """:func:`paged_table` of rows already loaded, inside a fragment of the caller's (or none); rows
    ``row_height`` pixels tall (above :data:`WRAPS_ABOVE`, long cells wrap) when given; the search box in
    the container ``search_in`` (a column beside the caller's controls) when given; only the columns
    labelled in ``shown_labels`` drawn, in that order, when given.

    With ``paging_in`` (two containers: columns on the line of the caller's controls), the page control,
    without a label line above it, goes in the first and the count of rows in the second: one element in
    each on every run, an empty one when there is nothing to show, so a live part's run leaves none of them
    behind (and never a slot sent empty, then filled: the browser would draw the control anew each time).
    """
    if not rows:
        st.caption(empty_text)
        _no_paging(paging_in)
        return
    query = ""
    if search_text is not None:
        query = (
            (search_in or st)
            .text_input(
                t("table.search"),
                key=f"{key}:search",
                help=t("table.search.help"),
                label_visibility="collapsed",
                placeholder=t("table.search"),
            )
            .strip()
        )
    matching = _matching(rows, query, search_text) if query and search_text is not None else rows
    pages = (len(matching) + page_size - 1) // page_size
    # A live part's table that loses its page control or its count keeps none of them on screen.
    with box(f"{key}:rows", (bool(matching), pages > 1, bool(query))):
        _draw_rows(
            key, rows, matching, columns, query, pages, page_size, link, marked, row_height, shown_labels, paging_in
        )


def _draw_rows(
    key: str,
    rows: Sequence[T],
    matching: Sequence[T],
    columns: Sequence[Column[T]],
    query: str,
    pages: int,
    page_size: int,
    link: Callable[[T], str | None] | None,
    marked: Callable[[T], str] | None,
    row_height: int | None,
    shown_labels: Sequence[str] | None,
    paging_in: tuple[Any, Any] | None = None,
) -> None:
    """:func:`draw_table`'s page control, count and grid of the rows that match ``query`` (the page control and
    the count in ``paging_in`` when given)."""
    if not matching:
        st.caption(t("table.no_match", query=escape_markdown(query)))  # typed text is shown as text
        _no_paging(paging_in)
        return
    page_key = f"{key}:page"
    if not 1 <= int(st.session_state.get(page_key, 1)) <= pages:
        st.session_state[page_key] = min(max(int(st.session_state.get(page_key, 1)), 1), pages)
    page, (page_in, count_in) = 1, paging_in or (st, st)
    if pages > 1:
        collapsed = "collapsed" if paging_in else "visible"  # beside its count, which says what it pages
        page_control = page_in.number_input
        page = int(page_control(t("table.page"), 1, pages, step=1, key=page_key, label_visibility=collapsed))
    elif paging_in:
        page_in.empty()
    shown = matching[(page - 1) * page_size : page * page_size]
    first, last = (page - 1) * page_size + 1, (page - 1) * page_size + len(shown)
    if query:
        typed = escape_markdown(query)  # typed text is shown as text
        words = t("table.rows_matching", first=first, last=last, total=len(matching), query=typed, all=len(rows))
        count_in.caption(words)
    elif pages > 1:
        count_in.caption(t("table.rows", first=first, last=last, total=len(matching)))
    elif paging_in:
        count_in.empty()
    marks = [marked(row) for row in shown] if marked is not None else []
    data: dict[str, list[Any]] = {MARK_COLUMN: marks} if any(marks) else {}
    data |= {column.label: [cell(column.value(row)) for row in shown] for column in columns}
    config: dict[str, Any] = {
        column.label: st.column_config.Column(width=column.width) for column in columns if column.width is not None
    }
    drawn = list(shown_labels) if shown_labels is not None else None
    order: list[str] | None = drawn
    if link is not None:
        data[t("col.open")] = [cell(link(row)) for row in shown]  # no link (a deleted case): an empty cell
        config[t("col.open")] = st.column_config.LinkColumn(display_text=t("home.open"), width=LINK_WIDTH)
        # The way to act comes first: a long reason or trace never pushes it off the right edge.
        order = [t("col.open"), *(drawn if drawn is not None else (column.label for column in columns))]
    if any(marks):  # first: what changed is seen before the row is read
        order = [MARK_COLUMN, *(order if order is not None else (column.label for column in columns))]
    frame = pd.DataFrame(data)
    shown_frame: Any = frame.style.apply(_highlight, axis=1) if any(marks) else frame
    # The grid's own height is that of ten short rows: tall rows need their own.
    height: int | Literal["auto"] = "auto"
    row_height = presenter.grid_row_height(row_height)  # presenter mode's type: its rows still wrap
    if row_height is not None:
        height = min(len(shown), TALL_ROWS_SHOWN) * row_height + presenter.grid_header_height(HEADER_HEIGHT)
    st.dataframe(
        shown_frame,
        hide_index=True,
        width="stretch",
        column_config=config,
        column_order=order,
        row_height=row_height,
        height=height,
    )


def _no_paging(paging_in: tuple[Any, Any] | None) -> None:
    """An empty element in each of ``paging_in``'s places, where the page control and the count are not drawn."""
    for place in paging_in or ():
        place.empty()


#: The marks' column: its cells say why a row is highlighted.
MARK_COLUMN = "●"
#: A marked row's background: light enough to read the row's text on.
HIGHLIGHT = "background-color: #fff3b0"


def _highlight(row: pd.Series) -> list[str]:
    return [HIGHLIGHT if row[MARK_COLUMN] else ""] * len(row)


def _matching(rows: Sequence[T], query: str, search_text: Callable[[T], str]) -> list[T]:
    folded = query.casefold()
    return [row for row in rows if folded in search_text(row).casefold()]
