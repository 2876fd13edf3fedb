"""Small drawing helpers shared by pages. User and model text is always drawn as text."""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pandas as pd
import streamlit as st

from agents import ages, lifecycle, queue_rights, statuspages
from agents.db import Store
from agents.decision_rights import DecisionRights
from agents.errors import UserError
from agents.identity import Identity
from agents.registry import AGENTS
from agents.validation import validate_thread_id
from dashboard import auth, live, queues, resources, text_fit
from dashboard.boxes import box
from dashboard.formats import clean_frame, code_word, display_zone, short_question_id, timestamp
from dashboard.i18n import catalogue, current_language, localized, t, t_or
from dashboard.safe_markdown import escape_markdown
from dashboard.tables import Column, draw_table, page_url, paged_table


def lazy_expander(label: str, key: str) -> Any:
    """A collapsed expander whose content is made only while it is open, or None while it is closed.

    Opening it reruns the page (Streamlit's ``on_change="rerun"``), and the session keeps it open under
    ``key``; a closed one sends no elements, so a table or JSON view in it costs a new tab nothing.

    A label that changes (a count in it) makes it another element for Streamlit, which would draw it
    closed and empty while the browser kept the old one's content: so its state is set again under ``key``
    before it is drawn, and the new element takes it (open stays open and drawn).
    """
    if key in st.session_state:
        st.session_state[key] = st.session_state[key]
    box = st.expander(label, key=key, on_change="rerun")
    return box if box.open else None


def describe_status(status: str, outcome: str, why: str, lang: str | None = None, *, count: str = "") -> str:
    """A status in words: ``done · paid``, ``needs attention · <why>``, ``waiting``, or ``waiting (2 of 3 items)``
    with ``count`` (:func:`waiting_words`)."""
    if status == "done":
        return f"{t('status.done', lang)} · {code_word('outcome', outcome, lang)}"
    if status == "attention":
        return f"{t('status.attention', lang)} · {why}"
    word = code_word("status", status, lang)
    return f"{word} ({count})" if count else word


def status_text(status: lifecycle.ThreadStatus, lang: str | None = None, *, counted: bool = True) -> str:
    """A thread's status in a few words, as the CLI's ``threads`` lists it (``waiting (2 of 3 items)``), in
    ``lang`` (the page's language): e.g. ``needs attention · a step failed`` (for lists). ``counted=False``
    leaves out how many questions wait (a table whose other column says what waits)."""
    why = t(key, lang) if (key := f"reason.{status.reason_code}") in catalogue() else status.reason_code
    count = waiting_words(status, lang) if counted else ""
    return describe_status(status.status, status.outcome, why, lang, count=count)


def waiting_words(status: lifecycle.ThreadStatus, lang: str | None = None) -> str:
    """How many of a thread's questions wait at once, in the CLI's words (:func:`agents.lifecycle.waiting_words`,
    its ``threads`` and ``inbox``): ``2 of 3 items`` (``항목 3개 중 2개``) when the question says how many items the
    thread decides in all (``1 of 3 items`` too), else ``2 questions``; empty where the status says no count
    (:func:`agents.lifecycle.says_count`: a thread's one question of its own, or none)."""
    if status.status != "waiting" or not lifecycle.says_count(status.waiting_count, status.payload):
        return ""
    total = lifecycle.item_total(status.payload)
    if total is not None:
        return t("status.waiting_items", lang, count=status.waiting_count, total=total)
    return t("status.waiting_questions", lang, count=status.waiting_count)


#: The threads tables' column widths in pixels, the link's (``dashboard.tables.LINK_WIDTH``) beside them 776 in
#: all: an agent card's grid in a 1280 px window (784 px: the inbox's 818 less the card's border and padding).
#: Their rows are one line: a longer status is cut with "…" (whole on the thread's page), a longer id in its
#: middle; without widths the grid sizes a column by the cells of its first drawing and cuts a later, longer one.
THREAD_WIDTHS = {"agent": 110, "thread": 136, "status": 290, "updated": 204, "checkpoints": 90}


def thread_columns(*, with_agent: bool = True) -> list[Column[lifecycle.ThreadStatus]]:
    """The columns of a threads table: thread, agent (its title in the page's language; left out of a table
    of one agent's threads, which its card names), status, last update, checkpoints."""
    zone, lang, widths = display_zone(), current_language(), dict(THREAD_WIDTHS)
    if with_agent:  # the agent's column takes its room from the status
        widths["status"] -= widths["agent"]
    agent = [Column(t("col.agent"), agent_title, widths["agent"])] if with_agent else []
    return [
        Column(t("col.thread"), lambda x: one_line(x.thread_id, widths["thread"], middle=True), widths["thread"]),
        *agent,
        Column(t("col.status"), lambda x: one_line(status_text(x, lang), widths["status"]), widths["status"]),
        Column(t("col.updated"), lambda x: timestamp(x.updated_at, zone), widths["updated"]),
        Column(t("col.checkpoints"), lambda x: x.checkpoint_count, widths["checkpoints"]),
    ]


def one_line(text: str, width: int, *, middle: bool = False) -> str:
    """``text`` as one line of a grid column ``width`` pixels wide: whole, or cut with "…" at its end (``middle``:
    in its middle, an id's start and its end kept)."""
    if middle:
        return text_fit.cut_in_middle(text, width - text_fit.CELL_PADDING, text_fit.GRID_FONT)
    return text_fit.cut_to_lines(text, width, 1)


def agent_title(status: lifecycle.ThreadStatus) -> str:
    """The thread's agent as people call it ("Approval robot", "승인 로봇"), not its code ("robot")."""
    return t_or(f"agent.{status.agent}.title", status.agent)


def status_search_text(status: lifecycle.ThreadStatus, lang: str | None = None) -> str:
    """What a search matches in a thread's row: id, agent (name and title), status and reason; the reason
    whole, in ``lang`` (the page's language), as the inbox shows it, not as the run asked it."""
    lang = lang or current_language()
    reason = status.reason_in(lang)
    return " ".join((status.thread_id, status.agent, agent_title(status), status_text(status, lang), reason))


def thread_link(status: lifecycle.ThreadStatus) -> str | None:
    """The link to the thread on its agent's page (None: no page knows its agent)."""
    spec = AGENTS.get(status.agent)
    return page_url(spec.show.page.url_path, status.thread_id) if spec is not None else None


def show_threads(
    key: str, load: Callable[[], list[lifecycle.ThreadStatus]], empty_text: str, *, with_agent: bool = True
) -> None:
    """A paged, searchable threads table with a link to each thread's page; live (:mod:`dashboard.live`).

    ``with_agent=False``: the threads are one agent's, named above the table, so no agent column.
    """
    paged_table(
        key,
        load,
        thread_columns(with_agent=with_agent),
        empty_text=empty_text,
        search_text=functools.partial(status_search_text, lang=current_language()),
        link=thread_link,
        live=True,
    )


def age_cell(
    status: lifecycle.ThreadStatus,
    deadlines: dict[str, int],
    now: dt.datetime,
    lang: str | None = None,
    *,
    count: str = "",
) -> str:
    """How long an unfinished thread has waited (``waiting 3 h 20 min``), marked when past its deadline, then how
    many of its questions wait when ``count`` says (:func:`waiting_words`): ``waiting 3 h · overdue · 2 of 3
    items`` (in a cell too narrow for all of it, the mark is kept before the count)."""
    if status.waiting_since is None:
        return ""
    parts = [ages.age_text(status.waiting_since, now).render(lang or current_language())]
    if lifecycle.is_overdue(status, deadlines, now):
        parts.append(t("age.overdue", lang))
    return " · ".join([*parts, *([count] if count else [])])


def inbox_counts(
    items: list[lifecycle.ThreadStatus],
    lang: str | None = None,
    *,
    overdue: int = 0,
    counts: Mapping[str, int] | None = None,
) -> str:
    """How many threads wait, need attention, run and are overdue, e.g. ``2 waiting · 1 needs attention``
    (``counts``: status → how many, when ``items`` are not all of them).

    English agrees the verb with the count ("1 needs", "2 need"); Korean counts with 건 either way.
    """
    parts = []
    for kind in ("waiting", "attention", "running"):
        count = counts.get(kind, 0) if counts is not None else sum(item.status == kind for item in items)
        if count:
            key = "home.inbox_attention_one" if kind == "attention" and count == 1 else f"home.inbox_{kind}"
            parts.append(t(key, lang, count=count))
    if overdue:
        parts.append(t("home.inbox_overdue", lang, count=overdue))
    return " · ".join(parts)


#: The inbox's column widths in pixels, with the link's (``dashboard.tables.LINK_WIDTH``) 812 in all: every
#: column, "who may decide" too, fits a 1280 px window's grid (818 px) without scrolling sideways. The reason,
#: the widest, wraps; the status holds "needs attention" over its age, and an age with "overdue", on two lines.
INBOX_WIDTHS = {"agent": 80, "thread": 100, "status": 128, "reason": 244, "deciders": 108, "action": 96}
#: The lines a cell of the inbox shows: a longer text (a refund's question is about 100 characters, who may
#: decide it with the people's emails longer still) is cut with "…" (whole on the item's page, one click on
#: Open; the search reads it whole), so rows stay two lines high and a 1280×720 first screen holds five of them.
INBOX_CELL_LINES = 2
#: The inbox's rows in pixels: :data:`INBOX_CELL_LINES` lines of wrapped text.
INBOX_ROW_HEIGHT = text_fit.row_height(INBOX_CELL_LINES)


def inbox_cell(text: str, column: str) -> str:
    """A cell's text as the inbox shows it in ``column``: whole, or cut to :data:`INBOX_CELL_LINES` lines with "…"
    (an email broken after its "@" or before a ".", not inside its name, where a line ends inside it)."""
    return text_fit.cut_to_lines(text, INBOX_WIDTHS[column], INBOX_CELL_LINES)


def inbox_status(
    status: lifecycle.ThreadStatus, deadlines: dict[str, int], now: dt.datetime, lang: str | None = None
) -> str:
    """An inbox item's status and how long it has waited, in one cell: ``waiting 3 h 20 min · overdue``,
    ``waiting 20 s · 2 of 3 items`` (the age says "waiting" already; the count as the CLI's ``inbox`` says it);
    ``needs attention · waiting 2 min`` (why is the reason's cell beside it)."""
    age = age_cell(status, deadlines, now, lang, count=waiting_words(status, lang))
    if status.status == "waiting" and age:
        return age
    return " · ".join(part for part in (code_word("status", status.status, lang), age) if part)


def inbox_search_text(status: lifecycle.ThreadStatus, shown: Sequence[str], lang: str | None = None) -> str:
    """What a search matches in an inbox row: :func:`status_search_text` and every cell ``shown`` whole (the
    status with its age, who may decide, what resolves it), as the row reads in ``lang``."""
    return " ".join((status_search_text(status, lang), *shown))


#: Rows home shows of a list until every row is asked for (:func:`show_inbox_page`, :func:`show_threads_page`).
HOME_ROWS = 50
#: Who may decide each waiting item, by thread id (:func:`agents.queue_rights.rights_of`).
RightsById = Mapping[str, DecisionRights]


def show_inbox_page(key: str, store: Store, empty_text: str) -> None:
    """The inbox: every unfinished thread, oldest first (another order one click away, kept for the
    session; a signed-in person's own items first), with its status, how long it has waited (marked
    when past its deadline, ``HITL_SLA``), its reason (as text), who may decide it and a link to act.

    The oldest :data:`HOME_ROWS` items are read as one page of the kept index of statuses
    (:mod:`agents.statuspages`), with the counts of every item; "Show all" reads every item (search and the
    other orders then cover them all), for the session. With a roles file, who may decide is read for every
    waiting item (:func:`agents.queue_rights.every_rights`, the refund queue's and the CLI's rule), so "my
    queue" counts all of the person's items and the rows shown start with theirs, wherever they are in the
    list; and every item no one may decide is flagged. One paged, searchable table in a live part
    (:mod:`dashboard.live`): it reruns alone every ``HITL_LIVE_REFRESH`` seconds and when searched or paged,
    and reads its rows again whenever the database changed.
    """
    _inbox_page(key, store, empty_text)


@live.fragment
def _inbox_page(key: str, store: Store, empty_text: str) -> None:
    every_key = f"{key}:every"
    if st.session_state.get(every_key):
        # Kept under a name of their own: "Show all" reruns this part alone, which keeps the page's rows.
        inbox_table(key, live.rows(every_key, lambda: lifecycle.inbox(store), store=store), empty_text)
        return
    settings = resources.settings()

    def load() -> tuple[statuspages.StatusPage, Mapping[str, int], list[lifecycle.ThreadStatus], RightsById]:
        page, counts = statuspages.inbox_page(store, limit=HOME_ROWS), statuspages.open_counts(store)
        # Read with the rows, once per change of the database: who may decide does not move with the clock
        # (the rows' cells, with their escalations, are weighed as of each run).
        waiting, rights = queue_rights.every_rights(store, settings.roles, ages.utc_now())
        return page, counts, waiting, rights

    page, counts, waiting, rights = live.rows(key, load, store=store)
    mine = queue_rights.mine_of(rights, auth.identity())
    own = [x for x in waiting if mine(x.thread_id)]  # the person's items beyond the page come first too
    listed = {x.thread_id for x in page.items}
    items = page.items + [x for x in own if x.thread_id not in listed]
    overdue = sum(statuspages.overdue_counts(store, settings.deadlines, ages.utc_now()).values())
    inbox_table(key, items, empty_text, counts=counts, overdue=overdue, every_rights=rights, limit=HOME_ROWS)
    if page.more:
        total = sum(counts.values())
        words = "home.inbox_page_mine" if own else "home.inbox_page"
        st.caption(t(words, shown=min(len(items), HOME_ROWS), total=total))
        st.button(t("home.show_all", total=total), key=f"{key}:every-button", on_click=show_every, args=(every_key,))


def show_threads_page(
    key: str,
    store: Store,
    agent: str,
    empty_text: str,
    *,
    with_agent: bool = True,
    when_none: Callable[[], str] | None = None,
) -> None:
    """:func:`show_threads` of the agent's newest :data:`HOME_ROWS` threads, read as one page of the kept index
    of statuses; "Show all" reads every thread of the agent, for the session.

    ``when_none()``: the text said instead of ``empty_text`` when the agent has no thread as the page is drawn,
    called only then (what it reads costs nothing while there are threads to show).
    """
    every_key = f"{key}:every"
    if st.session_state.get(every_key):
        show_threads(key, lambda: lifecycle.thread_statuses(store, agent=agent), empty_text, with_agent=with_agent)
        return
    page = statuspages.threads_page(store, agent, limit=HOME_ROWS)
    if not page.items and when_none is not None:
        empty_text = when_none()

    def load() -> list[lifecycle.ThreadStatus]:
        return statuspages.threads_page(store, agent, limit=HOME_ROWS).items

    show_threads(key, load, empty_text, with_agent=with_agent)
    if page.more:
        st.caption(t("home.threads_page", shown=len(page.items)))
        st.button(t("home.show_all_threads"), key=f"{key}:every-button", on_click=show_every, args=(every_key,))


def show_every(every_key: str) -> None:
    """Shows every row of a list instead of its first page, for the session (a "Show all" button's action)."""
    st.session_state[every_key] = True


def inbox_table(
    key: str,
    items: list[lifecycle.ThreadStatus],
    empty_text: str,
    *,
    counts: Mapping[str, int] | None = None,
    overdue: int | None = None,
    every_rights: RightsById | None = None,
    limit: int | None = None,
) -> None:
    """The inbox (:func:`show_inbox_page`) of items already read, inside a fragment of the caller's; ``counts``
    (status → how many) and ``overdue`` count the whole list when ``items`` are one page of it (else ``items``
    are counted). ``every_rights``: who may decide every waiting item of the whole list, when ``items`` are
    part of it: the notes count and flag from it, and the person's own come first by it (else from ``items``).
    ``limit``: the rows shown, the first in the chosen order (the person's own first)."""
    if not items:
        with box(key, None):  # the last item gone: no line of the table stays beside the message
            st.info(empty_text)
        return
    now, deadlines = ages.utc_now(), resources.settings().deadlines
    if overdue is None:
        overdue = len(lifecycle.overdue(items, deadlines, now))
    me = auth.identity()
    rights = queues.rights_for(items, deadlines, now) if every_rights is None else every_rights
    with box(key, queues.rights_notes_shape(rights, me)):
        whole = every_rights is not None
        _inbox_rows(key, items, empty_text, rights, me, now, counts=counts, overdue=overdue, limit=limit, whole=whole)


def _inbox_rows(
    key: str,
    items: list[lifecycle.ThreadStatus],
    empty_text: str,
    rights: RightsById,
    me: Identity,
    now: dt.datetime,
    *,
    counts: Mapping[str, int] | None,
    overdue: int,
    limit: int | None = None,
    whole: bool = False,
) -> None:
    """:func:`inbox_table`'s notes, controls and rows, for a list that is not empty (``whole``: ``rights`` are
    of the whole list's waiting items; the rows' cells are read for the rows shown)."""
    lang, deadlines = current_language(), resources.settings().deadlines
    queues.show_rights_notes(rights, me)
    mine = queue_rights.mine_of(rights, me)
    # The order, the counts and the search on one line, each without a label above it (the order's choices and
    # the search's placeholder say what they are): at 1280×720 the first screen holds five rows.
    order_column, count_column, search_column = st.columns([5, 2, 4], vertical_alignment="center")
    count_column.caption(inbox_counts(items, overdue=overdue, counts=counts))
    with order_column:
        order = queues.order_control(f"{key}-order", label_visibility="collapsed")
    store = resources.store()
    items = queue_rights.ordered(
        items,
        order,
        status=lambda x: x,
        amount=lambda x: queue_rights.case_amount(store, x),
        mine=lambda x: mine(x.thread_id),
    )[:limit]
    if whole:  # the rows' cells as of now (an escalation moves with the clock)
        rights = queues.rights_for(items, deadlines, now)

    def deciders(x: lifecycle.ThreadStatus) -> str:
        return queues.rights_cell(rights.get(x.thread_id), me, lang)

    def action(x: lifecycle.ThreadStatus) -> str:
        return t(f"action.{x.action}", lang) if x.action else ""

    def status(x: lifecycle.ThreadStatus) -> str:
        return inbox_status(x, deadlines, now, lang)

    def cell(column: str, text: Callable[[lifecycle.ThreadStatus], str]) -> Callable[[lifecycle.ThreadStatus], str]:
        return lambda x: inbox_cell(text(x), column)

    columns = [
        Column(t("col.agent"), cell("agent", agent_title), INBOX_WIDTHS["agent"]),
        Column(t("col.thread"), cell("thread", lambda x: x.thread_id), INBOX_WIDTHS["thread"]),
        Column(t("col.status"), cell("status", status), INBOX_WIDTHS["status"]),
        Column(t("col.reason"), cell("reason", lambda x: x.reason_in(lang)), INBOX_WIDTHS["reason"]),
        Column(t("col.deciders"), cell("deciders", deciders), INBOX_WIDTHS["deciders"]),
        Column(t("col.action"), cell("action", action), INBOX_WIDTHS["action"]),
    ]
    draw_table(
        key,
        items,
        columns,
        empty_text=empty_text,
        search_text=lambda x: inbox_search_text(x, (status(x), deciders(x), action(x)), lang),
        link=thread_link,
        row_height=INBOX_ROW_HEIGHT,
        search_in=search_column,
    )


def question_id_caption(interrupt_id: str) -> None:
    """The question a control answers, by its short id; the whole id (for the CLI) in the tooltip."""
    whole = t("forms.resume.answers.help", interrupt=interrupt_id)
    st.caption(t("forms.resume.answers", interrupt=short_question_id(interrupt_id)), help=whole)


def preselect_query_thread(
    status_of: Callable[[str], lifecycle.ThreadStatus | None], *, page: str, agent_key: str, thread_key: str
) -> None:
    """Preselects the agent and thread named by ``?thread=``, once per link (``status_of``: a thread's status,
    None when there is no such thread).

    An invalid or unknown id gets a clear message (``<page>.bad_thread`` /
    ``<page>.unknown_thread``) and selects nothing.
    """
    requested = st.query_params.get("thread")
    if not requested:
        return
    found = status_of(requested)
    try:
        # A thread saved under exactly that id is the one named, even one other software saved under an id
        # the dashboard does not act on (`lifecycle.thread_named`): never its look-alike.
        thread_id = requested if found is not None else validate_thread_id(requested)
    except UserError as error:
        st.error(escape_markdown(t(f"{page}.bad_thread", error=localized(error))))
        return
    if found is None or found.agent not in AGENTS:
        st.warning(escape_markdown(t(f"{page}.unknown_thread", thread=thread_id)))
        return
    applied_key = f"{page}:query-thread"
    if st.session_state.get(applied_key) != thread_id:
        st.session_state[applied_key] = thread_id
        st.session_state[agent_key] = found.agent
        st.session_state[thread_key] = thread_id


def keep_valid(key: str, options: Sequence[str], default: str) -> None:
    """A selectbox's remembered value must be one of its current options."""
    if st.session_state.get(key) not in options:
        st.session_state[key] = default


def pick_thread(
    store: Store,
    *,
    page: str,
    agent_key: str,
    thread_key: str,
    empty_key: str,
    columns: int | Sequence[float] = 2,
) -> tuple[str, str | None, list[Any]]:
    """The agent and thread pickers of the explorer and the timeline, preselected by ``?thread=``.

    Each agent's newest :data:`HOME_ROWS` threads are offered, read as one page of the kept index of statuses
    (:mod:`agents.statuspages`), with the selected thread (a link's, or one picked before) beside them;
    "Show every thread" offers every thread of the agent, for the session. ``columns`` is how many columns
    the row has, or their relative widths (``st.columns``'s ``spec``).

    Returns:
        The agent, the chosen thread (None: the agent has none, and ``empty_key`` is shown) and
        the columns after the two pickers (``columns`` in all).
    """
    status_of = functools.partial(lifecycle.thread_status, store)
    preselect_query_thread(status_of, page=page, agent_key=agent_key, thread_key=thread_key)
    agents = list(AGENTS)
    newest = statuspages.threads_page(store, limit=HOME_ROWS).items
    keep_valid(agent_key, agents, next((x.agent for x in newest if x.agent in AGENTS), agents[0]))
    left, middle, *rest = st.columns(columns)
    agent = left.selectbox(
        t(f"{page}.agent"),
        agents,
        key=agent_key,
        format_func=lambda name: t_or(f"agent.{name}.title", AGENTS[name].title),
    )
    every_key = f"{thread_key}:every-{agent}"
    every = bool(st.session_state.get(every_key))
    own, more = threads_offered(store, agent, st.session_state.get(thread_key), every=every)
    if not own:
        st.info(t(empty_key))
        return agent, None, rest
    keep_valid(thread_key, list(own), next(iter(own)))
    now, deadlines, lang = ages.utc_now(), resources.settings().deadlines, current_language()
    with middle:
        thread_id = bounded_select(
            t(f"{page}.thread"),
            list(own),
            key=thread_key,
            format_func=lambda tid: thread_option(own[tid], deadlines, now, lang),
            search_text=lambda tid: status_search_text(own[tid], lang),
        )
        if more:
            st.button(t("home.show_all_threads"), key=f"{every_key}-button", on_click=show_every, args=(every_key,))
    return agent, thread_id, rest


def threads_offered(
    store: Store, agent: str, selected: str | None, *, every: bool
) -> tuple[dict[str, lifecycle.ThreadStatus], bool]:
    """The agent's threads a picker offers, newest first, and whether it has more: its newest
    :data:`HOME_ROWS` read as one page of the kept index of statuses, with ``selected`` (picked before, or
    named by a link) when it is the agent's and further on; ``every``: all of the agent's threads."""
    if every:
        return {x.thread_id: x for x in lifecycle.thread_statuses(store, agent=agent)}, False
    page = statuspages.threads_page(store, agent, limit=HOME_ROWS)
    own = {x.thread_id: x for x in page.items}
    if page.more and isinstance(selected, str) and selected and selected not in own:
        try:  # checked before anything uses it
            thread_id = lifecycle.thread_named(store, selected, exact=True)
        except UserError:
            return own, True
        found = lifecycle.thread_status(store, thread_id)
        if found is not None and found.agent == agent:
            own[thread_id] = found
    return own, page.more


#: Options a picker offers at once: the selected one and the first matching ones.
PICKER_LIMIT = 100


def thread_option(
    status: lifecycle.ThreadStatus, deadlines: dict[str, int], now: dt.datetime, lang: str | None = None
) -> str:
    """A thread in a picker: its id and status and, while it waits for a person, its age (marked when overdue, with
    how many of its questions wait): ``refund-C1 · waiting 3 h 20 min · overdue · 2 of 3 items``. The age's
    words say waiting, so a waiting thread's status is not said again; any other status (``needs attention · …``)
    stays beside its age."""
    age = age_cell(status, deadlines, now, lang, count=waiting_words(status, lang))
    shown = [age] if age and status.status == "waiting" else [status_text(status, lang), *([age] if age else [])]
    return " · ".join([status.thread_id, *shown])


def bounded_select(
    label: str,
    options: Sequence[str],
    *,
    key: str,
    format_func: Callable[[str], str],
    search_text: Callable[[str], str],
    limit: int = PICKER_LIMIT,
) -> str:
    """A selectbox over at most ``limit`` options (and the selected one), narrowed by a search field.

    Below the limit it is a plain selectbox. Above it, a search field (``<key>:find``) narrows the
    options; the selected option is always offered, so a selection made elsewhere (a link, a click
    on a chart) stays. Only the offered options are labelled, so 10,000 threads cost 100 labels.
    """
    selected = st.session_state.get(key)
    offered = list(options)
    if len(offered) > limit or st.session_state.get(f"{key}:find"):
        query = st.text_input(t("table.find", what=label), key=f"{key}:find", help=t("table.search.help")).strip()
        folded = query.casefold()
        found = [o for o in offered if not folded or folded in search_text(o).casefold()]
        kept = [str(selected)] if selected in options else []
        offered = kept + [o for o in found if o != selected][:limit]
        if len(found) > limit:
            st.caption(t("table.find_more", shown=limit, total=len(found)))
    keep_label_current(key, selected if selected in offered else None, format_func)
    return str(st.selectbox(label, offered, key=key, format_func=format_func))


def keep_label_current(key: str, selected: object, format_func: Callable[[str], str]) -> None:
    """Sends a selectbox's selected option again when its label changed (``thread · done · refused``).

    The browser keeps showing the label it was sent with the choice; new labels for the same options
    change the list, not the shown choice. Setting the choice again, before the widget is drawn, sends
    its current label. Nothing is sent while the label stays the same.
    """
    label_key = f"{key}:label"
    if selected is None:
        st.session_state.pop(label_key, None)
        return
    shown = format_func(str(selected))
    if st.session_state.get(label_key) not in (None, shown):
        st.session_state[key] = selected
    st.session_state[label_key] = shown


def show_table(frame: pd.DataFrame, empty_text: str, **kwargs: Any) -> None:
    """A dataframe (cells are text, never HTML; a missing value is an empty cell), or a caption when it has no rows."""
    if frame.empty:
        st.caption(empty_text)
    else:
        st.dataframe(clean_frame(frame), hide_index=True, width="stretch", **kwargs)
