"""What a case panel shows of a case, as pure functions of what it read: the parts its status calls for,
the picker's options, and how often the asking node ran.

A case panel is a live part (:func:`dashboard.live.fragment`). Every run draws one thing in each of the
same places: a part of several elements as a container where its status calls for it, an empty element
where not. Streamlit removes what a fragment's run did not draw only when that run's end reaches the
browser as a fragment run's end, and a live part's timer run that starts before it turns that end into
"stopped early", so an element of the old layout would stay; an element drawn over a container removes it
with all it held, and a container drawn again updates its widgets in place (typed text and focus stay).
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any, Literal

from agents.errors import UserError
from agents.lifecycle import ThreadStatus
from dashboard.formats import amount, code_word
from dashboard.i18n import current_language, t
from dashboard.safe_markdown import escape_markdown
from dashboard.views import status_text

Headline = Literal["waiting", "moved_on", "attention", "running", "done"]
AttentionControl = Literal["cannot_continue", "continue", "explorer"]


@dataclass(frozen=True)
class CaseParts:
    """The status-dependent parts of a case panel.

    Attributes:
        headline: The one line under the status: what is decided, that the case moved on since its controls
            were drawn, why it needs attention, that it runs, or its outcome.
        controls: The decision controls are drawn (a waiting case, or one moved on since they were drawn).
        attention: The way out of a case needing attention, if it has one here.
    """

    headline: Headline
    controls: bool = False
    attention: AttentionControl | None = None


def case_parts(status: str, stale: bool, action: str | None, why_not_continue: str | None) -> CaseParts:
    """The parts for a case whose run ``status`` is this, ``stale`` when its controls were drawn for a head it
    has left (:func:`dashboard.decision_view.controls_view`); ``action`` is the lifecycle's way out of
    ``attention`` and ``why_not_continue`` why this user may not continue (None or empty: they may)."""
    if status == "waiting" or stale:
        return CaseParts("waiting" if status == "waiting" else "moved_on", controls=True)
    if status == "attention":
        if action == "continue":
            return CaseParts("attention", attention="cannot_continue" if why_not_continue else "continue")
        return CaseParts("attention", attention="explorer" if action == "rerun" else None)
    return CaseParts("running" if status == "running" else "done")


def selected_case(
    requested: str | None, cases: Container[str], options: Sequence[str], resolve: Callable[[str], str]
) -> tuple[str | None, str | None]:
    """(the case selected, the id named as unknown): the ``requested`` case (a link's ``?thread=``), or the
    first option when none is requested; a request naming no case selects nothing and is named.

    ``resolve`` checks a link's id that is no case's own id (:func:`agents.lifecycle.thread_named`); an id it
    refuses is unknown.
    """
    try:
        named = requested in cases or not requested
        requested = requested if named or requested is None else resolve(requested)
        unknown = requested is not None and requested not in cases
    except UserError:
        unknown = True
    if unknown:
        return None, requested
    return requested or (options[0] if options else None), None


def headline_message(
    headline: Headline, values: Mapping[str, Any], status: ThreadStatus, *, whole_reason: bool = False
) -> tuple[str, str]:
    """(the message's kind: ``st.warning``, ``error``, ``info`` or ``success``, its Markdown) for the line
    under a case's status: what is decided (before the controls that decide it), with its reason whole when
    ``whole_reason``, that the case moved on, why it needs attention, that it runs, or its outcome."""
    if headline == "waiting":
        summary = case_summary(values, whole_reason=whole_reason)
        return "warning", f"**{t('refund.case.waiting')}** {escape_markdown(summary)}"
    if headline == "moved_on":
        return "warning", t("refund.case.moved_on", status=status_text(status))
    if headline == "attention":
        return "error", escape_markdown(t("refund.case.attention", reason=status.reason_in(current_language())))
    if headline == "running":
        return "info", t("refund.case.running")
    return "success", escape_markdown(t("refund.case.outcome", outcome=code_word("outcome", status.outcome)))


#: The reason's characters in the summary above a waiting case's buttons while it is cut: about two lines of
#: a 1280 px page, so the whole reason, shown in its place, still leaves Approve / Reject on the first screen.
SUMMARY_REASON_CHARS = 160


def case_summary(values: Mapping[str, Any], *, whole_reason: bool = False) -> str:
    """Who asks for how much back and why, in a few lines: read before Approve / Reject, which stay on a
    1280×720 first screen under it. A long reason is cut with "…" unless ``whole_reason``; it is then shown
    whole in the same place (:func:`reason_toggle`), so the page never shows it twice above the buttons."""
    reason = " ".join(str(values.get("reason", "")).split())
    if len(reason) > SUMMARY_REASON_CHARS and not whole_reason:
        reason = reason[: SUMMARY_REASON_CHARS - 1].rstrip() + "…"
    customer, requested = str(values.get("customer", "")), amount(values.get("requested_amount"))
    return t("refund.case.summary", customer=customer or "—", amount=requested, reason=reason or "—")


def reason_toggle(headline: Headline, values: Mapping[str, Any]) -> str | None:
    """The label of the switch under a waiting case's summary that shows its cut reason whole in the summary's
    place; None when nothing is cut."""
    reason = " ".join(str(values.get("reason", "")).split())
    if headline != "waiting" or len(reason) <= SUMMARY_REASON_CHARS:
        return None
    return t("refund.case.whole_reason", count=f"{len(reason):,}")


def picker_choices(
    options: Sequence[str], selected: str | None, text_of: Callable[[str], str], query: str, limit: int
) -> tuple[list[str], int]:
    """(the picker's options, how many cases match): the ``selected`` case first, then up to ``limit`` of
    the ``options`` whose search text (``text_of``) holds ``query``, case folded; every option when the
    query is empty (``text_of`` is then not called)."""
    folded = query.strip().casefold()
    found = [option for option in options if folded in text_of(option).casefold()] if folded else list(options)
    others = islice((option for option in found if option != selected), limit)
    return ([selected] if selected else []) + list(others), len(found)


def asking_node_entries(rows: Iterable[Mapping[str, Any]], nodes: Sequence[str]) -> list[tuple[str, list[str]]]:
    """Each of the asking ``nodes`` that ran, with its node-log statuses in order; the first with none if none ran."""
    listed = list(rows)
    entries = [(node, [row["status"] for row in listed if row["node"] == node]) for node in nodes]
    return [(node, statuses) for node, statuses in entries if statuses] or [(nodes[0], [])]


def entries_caption(node: str, statuses: list[str]) -> str:
    """How often ``node`` was entered, worded for one entry and for several, with its node-log statuses."""
    words = ", ".join(code_word("nodelog", status) for status in statuses) or "—"
    key = "refund.node_entries.once" if len(statuses) == 1 else "refund.node_entries.many"
    return t(key, node=node, count=len(statuses), statuses=words)
