"""Deciding several waiting questions in one action, each on its own: the page's one way to ``decide``.

Every item goes through ``decide_items`` (``python -m agents decide``), which answers each through
``runs.answer_each`` with exactly the checks of a single decision (a case's items in one run); a refused
item never stops the others, and an item decided already (a double click, a second tab) is reported so
and pays nothing.
This module is the one place the dashboard reaches it; when the decision function moves into the agent's
package, only the import below changes.

A selection is kept by identity (``THREAD:INTERRUPT_ID``), never by a row's position: the rows shift
when items are decided elsewhere, and a position would then name another item. When the list changes,
the items still listed stay selected (:func:`still_listed`), ticked at their new rows (:func:`selection_of`).

The results are shown per item (:func:`show_result_rows`) in the words the batch's summary counts them by,
each reason whole.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st

from agents.batch import Decided, decide_items
from agents.db import Store
from agents.identity import Identity
from agents.settings import Settings
from dashboard import text_fit
from dashboard.i18n import localized, t
from dashboard.tables import HEADER_HEIGHT, TALL_ROWS_SHOWN


@dataclass(frozen=True)
class ItemResult:
    """One selected item after a batch: its key, what became of it and why (a refusal's reason)."""

    key: str
    result: str
    reason: str = ""


def item_key(thread_id: str, interrupt_id: str) -> str:
    """The selection's name of one waiting question: ``THREAD:INTERRUPT_ID`` (the thread alone without an id)."""
    return f"{thread_id}:{interrupt_id}" if interrupt_id else thread_id


def rows_digest(keys: Iterable[str]) -> str:
    """A short name of a list of items: a table drawn for other items gets another widget key, so a
    selection made on one list never selects positions of another."""
    return hashlib.sha256("\n".join(keys).encode()).hexdigest()[:12]


def selected_keys(positions: Iterable[int], drawn: Sequence[str]) -> list[str]:
    """The items at the selected ``positions`` of the rows as ``drawn`` (positions past its end are dropped)."""
    return [drawn[i] for i in sorted(set(positions)) if 0 <= i < len(drawn)]


def still_listed(selected: Iterable[str], listed: Sequence[str]) -> tuple[list[str], list[str]]:
    """(the ``selected`` items still ``listed``, the others), each in the order selected: a list drawn again
    after items were decided or created elsewhere keeps what was selected and still waits."""
    present = set(listed)
    chosen = list(dict.fromkeys(selected))
    return [k for k in chosen if k in present], [k for k in chosen if k not in present]


def selection_of(selected: Iterable[str], listed: Sequence[str]) -> dict[str, Any] | None:
    """A table's selection (``st.dataframe``'s ``selection_default``) ticking the rows of ``listed`` that show
    the ``selected`` items; None when none is selected."""
    chosen = set(selected)
    rows = [position for position, key in enumerate(listed) if key in chosen]
    return {"selection": {"rows": rows}} if rows else None


def item_result(decided: Decided, action: str) -> ItemResult:
    """What became of one item: an item whose case still waits on its other items was paid or rejected."""
    result = decided.result
    if result == "waiting":  # this item is decided (its task paid or rejected it); other items still wait
        result = "rejected" if action == "reject" else "paid"
    return ItemResult(decided.item, result, decided.reason)


def decide_batch(
    store: Store,
    settings: Settings,
    keys: Sequence[str],
    *,
    action: str,
    approver: str,
    note: str,
    actor: Identity,
    lang: str,
) -> list[ItemResult]:
    """Answers every item of ``keys`` with ``action`` (approve or reject), each checked and reported alone."""
    answer = {"action": action, "approver": approver}
    if note:
        answer["note"] = note
    decided = decide_items(store, settings, list(keys), answer, actor=actor, lang=lang, explain=localized)
    return [item_result(d, action) for d in decided]


#: The results table's column widths in pixels (case, result, why): 810 in all, within a 1280-pixel window's
#: grid (818). The reason is the widest: it wraps in rows as tall as the longest needs, never cut.
RESULT_WIDTHS = (150, 160, 500)


def result_word(result: str, lang: str | None = None) -> str:
    """What became of an item, in words (``paid``, ``not accepted`` for a refused one, as the batch's summary
    counts it: 거절 is a person's decision, ``agents.strings.GLOSSARY``; ``already decided``...)."""
    return t(f"refund.batch.result.{result}", lang)


def result_rows(results: Sequence[ItemResult], labels: dict[str, str]) -> list[dict[str, str]]:
    """The results as table rows in the session's language (an item no longer listed is named by its key)."""
    return [
        {
            t("refund.col.case"): labels.get(r.key, r.key),
            t("refund.batch.col.result"): result_word(r.result),
            t("refund.batch.col.why"): r.reason,
        }
        for r in results
    ]


def result_lines(rows: Sequence[dict[str, str]]) -> int:
    """The lines the tallest cell of the results' ``rows`` takes in its column (:data:`RESULT_WIDTHS`)."""
    return max(
        (
            text_fit.lines_needed(cell, width)
            for row in rows
            for cell, width in zip(row.values(), RESULT_WIDTHS, strict=True)
        ),
        default=1,
    )


def show_result_rows(results: Sequence[ItemResult], labels: dict[str, str], key: str) -> None:
    """The results per item as a table whose every cell reads whole: its columns fit a 1280-pixel window, and
    a longer reason wraps in rows as tall as the longest needs (one line each while every cell fits one)."""
    rows = result_rows(results, labels)
    lines = result_lines(rows)
    tall = text_fit.row_height(lines) if lines > 1 else None
    st.dataframe(
        rows,
        key=key,
        hide_index=True,
        column_config={
            label: st.column_config.TextColumn(width=width) for label, width in zip(rows[0], RESULT_WIDTHS, strict=True)
        },
        row_height=tall,
        height=min(len(rows), TALL_ROWS_SHOWN) * tall + HEADER_HEIGHT if tall else "auto",
    )
