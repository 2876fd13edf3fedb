"""The refund page's selected case: the picker, then the case with its decision first, its amounts, its trace.

Both are one live part (:func:`show_case_panel`) following the database within ``HITL_LIVE_REFRESH`` s without
drawing the page again: a case decided elsewhere shows its new status, what is typed on the page stays.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from agents import ages, lifecycle, runs
from agents.db import Store
from agents.identity import CONTINUE
from agents.refund.amounts import asked_amount, case_amounts
from agents.settings import Settings
from app_pages.refund_cases import CaseBook, CaseRead, case_book, read_case
from app_pages.refund_decisions import REFUSED_KEY, VIEW_KEY, decision_controls
from dashboard import auth, case_headline, case_panel, diff_view, live, queues
from dashboard.decision_view import controls_view
from dashboard.formats import amount
from dashboard.forms import act, acted_here, drawn_head, show_refusal, status_word
from dashboard.i18n import current_language, t
from dashboard.safe_markdown import escape_markdown
from dashboard.views import status_text

SELECT_KEY = "refund-case"  # the case picker; it follows ?thread=, which selects the case
FIND_KEY = "refund-case-find"  # narrows the picker's options by case, customer, status...
PICKER_LIMIT = 100  # options in the case picker: the selected case and the first matching ones


def _follow_picker(options: list[str]) -> None:
    """The picker's choice goes to the URL, which selects a case, and the whole page is drawn for it (the
    sidebar's forms act on the selected case). Only one of the ``options`` is followed: a stale tab sends its
    old label (``c500 · 50,000 KRW · waiting``), which names no option; a new label alone draws nothing."""
    picked = st.session_state.get(SELECT_KEY)
    if picked in options and picked != st.query_params.get("thread"):  # a new label alone changes nothing
        st.query_params["thread"] = picked
        st.rerun()


def pick_case(store: Store, book: CaseBook) -> str | None:
    """The case named by ``?thread=`` (or the first the person's own queue shows, else the first in the queue);
    an unknown one selects nothing."""
    cases, options = book.cases, list(book.options)
    requested = st.query_params.get("thread")
    # a link's id is checked before anything uses it (a case's own id is one already)
    selected, unknown = case_panel.selected_case(
        requested, cases, options, lambda tid: lifecycle.thread_named(store, tid, exact=True)
    )
    if unknown is not None:
        st.warning(escape_markdown(t("refund.case.unknown", thread=unknown)))
    if not options:
        return None
    if selected and not requested:  # no link: what "my queue ..., shown first" shows first
        statuses = [status for _row, status in book.queue]
        selected = queues.first_of_mine(statuses, auth.identity(), "refund-queue-order") or selected
        st.query_params["thread"] = selected
    lang = current_language()
    if len(options) > PICKER_LIMIT or st.session_state.get(FIND_KEY):
        query = st.text_input(t("refund.case.find"), key=FIND_KEY, help=t("refund.case.find_help"))
        texts = book.search_texts(lang) if query.strip() else {}
        options, found = case_panel.picker_choices(
            options, selected, lambda tid: texts[cases[tid]], query, PICKER_LIMIT
        )
        if found > PICKER_LIMIT:
            st.caption(t("refund.case.find_more", shown=PICKER_LIMIT, total=found))
    st.session_state[SELECT_KEY] = selected  # the URL decides; the widget follows it
    st.selectbox(
        t("refund.case.select"),
        options,
        key=SELECT_KEY,
        on_change=_follow_picker,
        args=(options,),
        format_func=lambda tid: book.label(tid, lang),
        placeholder=t("refund.case.pick"),
    )
    return selected


@live.fragment
def show_case_panel(store: Store, settings: Settings) -> str | None:
    """The picker and the selected case, a live part; returns the case the page's run drew (None: no case).

    Each of its runs draws the cases and the case as the database holds them. They are read again only
    when the database changed since they were read (:func:`dashboard.live.rows`): a run with nothing
    new, the interval's and a keystroke's, reads only the live token.
    """
    # The page's run gets the book the page read (kept under the same token), so its parts agree.
    cases = live.rows("refund-case-book", lambda: case_book(store), store=store)
    thread_id = pick_case(store, cases)
    if thread_id is None:
        if not cases.cases:
            st.caption(t("refund.case.none"))
        return None
    read = live.rows(f"refund-case:{thread_id}", lambda: read_case(store, settings, thread_id), store=store)
    show_case(store, settings, thread_id, read)
    return thread_id


def show_case(store: Store, settings: Settings, thread_id: str, read: CaseRead) -> None:
    """One case: its status, the controls that fit it (first, so a waiting case's decision is on the first
    screen), then its amounts, its text and its trace.

    Drawn by the live panel (typing reruns the panel alone; a case decided in another tab keeps its controls,
    with a notice, and a click on them is refused as stale), in the same slots every run: a part its status
    does not call for is an empty element, so no change of status leaves one behind (:mod:`dashboard.case_panel`).
    """
    status, result = read.status, read.result
    if status is None or result is None:  # deleted since the page was drawn: its places drawn empty
        st.warning(escape_markdown(t("refund.case.unknown", thread=thread_id)))
        for _ in range(4):  # who may decide, the headline, the controls, the way out
            st.empty()
        show_refusal(REFUSED_KEY, thread_id)  # a click refused because the case went
        st.empty()  # the amounts
        return
    values = result.values
    expected = drawn_head("refund-page", thread_id, result.head_checkpoint_id)
    st.markdown(t("refund.case.status", status=status_text(status)) + f" · `{thread_id}`")
    rights_slot = st.empty()  # who may decide it; a warning when no one may, or when it escalated
    rights = queues.rights_for([status], settings.deadlines, ages.utc_now()).get(thread_id)
    if rights is not None:
        warn = rights.no_decider is not None or rights.escalation is not None
        said = escape_markdown(queues.rights_cell(rights, auth.identity()))
        (rights_slot.warning if warn else rights_slot.caption)(said)
    own_action = acted_here(thread_id)  # this session's own sidebar action: no one else's change
    remembered, head = st.session_state.get(VIEW_KEY), result.head_checkpoint_id
    view = controls_view(remembered, thread_id, result.status, head, expected, own_action=own_action)
    st.session_state[VIEW_KEY] = view.view
    parts = case_panel.case_parts(result.status, view.stale, status.action, auth.why_not(CONTINUE))
    case_headline.show_headline(parts.headline, values, status, thread_id)  # the reason said once, whole on a click
    # A container only where its part is drawn, an empty element where not: a container drawn again
    # updates its widgets in place (what is typed and the focus stay); an element drawn over it removes it.
    if parts.controls:
        with st.container():
            decision_controls(store, settings, result, view.head, own_action=own_action)
    else:
        st.empty()
    if parts.attention == "cannot_continue":
        st.info(t("auth.cannot_act", reason=auth.why_not(CONTINUE)))
    elif parts.attention == "continue":
        with st.container():
            if st.button(t("refund.continue"), key="refund-continue"):

                def carry_on(head_seen: str | None) -> str:
                    me = auth.identity()
                    done = runs.continue_thread(store, settings, thread_id, expected_head=head_seen, actor=me)
                    return t("refund.continued", thread=thread_id, status=status_word(done))

                act(expected, carry_on, thread_id=thread_id, refused_key=REFUSED_KEY)
    elif parts.attention == "explorer":
        link = {"label": t("refund.case.open_explorer"), "icon": ":material/account_tree:"}
        st.page_link("app_pages/explorer.py", **link, query_params={"thread": thread_id})
    else:
        st.empty()
    # Why the last click on its controls was refused, in a place of its own under them: a refused click
    # drops the controls' view, so the panel's next run may draw no controls (the case was decided
    # elsewhere), and it still says why nothing was done.
    show_refusal(REFUSED_KEY, thread_id)
    with st.container():
        show_figures(values, read.paid, asked_amount(result.interrupts) if result.status == "waiting" else 0)
        show_trace(store, thread_id, values, read.node_rows)


def show_figures(values: dict[str, Any], paid: int | None, waiting: int = 0) -> None:
    """The case's requested amount, what it will pay, what the ledger paid (``paid``); its customer and reason.
    An items case with questions waiting (asking for ``waiting``) shows instead what they ask for and what its
    items were paid so far (its amount to pay is the whole request until every item is decided)."""
    requested_col, amount_col, executed_col = st.columns(3)
    requested_col.metric(t("refund.metric.requested"), amount(values.get("requested_amount")))
    rejected = values.get("decision") == "reject"
    waiting = waiting if values.get("items") else 0
    shown = case_amounts(values.get("amount"), values.get("decision"), paid, waiting=waiting)
    if shown.waiting:  # some items paid, others waiting: what waits, and what the ledger paid
        amount_col.metric(t("refund.metric.waiting"), amount(shown.amount))
        executed_col.metric(t("refund.metric.paid_so_far"), amount(shown.paid))
    else:
        amount_col.metric(t("refund.metric.amount"), t("refund.metric.rejected") if rejected else amount(shown.amount))
        executed_col.metric(t("refund.metric.executed"), amount(shown.paid))
    diff_view.show_requested_vs_executed(values.get("requested_amount"), paid, rejected, waiting)
    st.caption(t("refund.case.customer"))
    st.text(values.get("customer", ""))
    st.caption(t("refund.case.reason"))
    st.text(values.get("reason", ""))


#: The nodes that ask an approver: ``review`` for a one-amount case, ``item`` (one task per item) for items.
ASKING_NODES = ("review", "item")


def show_trace(store: Store, thread_id: str, values: dict[str, Any], node_rows: tuple[dict[str, Any], ...]) -> None:
    """The case's trace, and how often the node that asks an approver ran (``node_rows``: its node log)."""
    st.subheader(t("refund.trace"))
    # Text, not a code box: a code box loads the syntax highlighter's code in a new tab (about 300 ms).
    st.text("\n".join(values.get("trace", [])) or "—")
    for node, statuses in case_panel.asking_node_entries(node_rows, ASKING_NODES):
        st.caption(case_panel.entries_caption(node, statuses))
    diff_view.show_head_change(store, thread_id, "refund")  # what the last step or update_state changed
