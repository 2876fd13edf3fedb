"""The checkpoint explorer's reading and drawing: the tree, the window drawn, the selection, the detail.

A long thread is drawn a window at a time: its tree is read as (id, parent) pairs
(``readmodel.chain_links``), the window around the selected checkpoint chosen from it
(``chain_layout.window_rows``) and only the window's checkpoints read in full
(``readmodel.chain_points``); "show all" draws the whole chain (``readmodel.checkpoint_chain``).
"""

import json
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import pandas as pd
import streamlit as st

from agents import lifecycle, readmodel, runs, threadindex
from agents.chain_layout import WINDOW_SIZE, ChainColumns, Link, layout_columns, link_tree, window_columns, window_rows
from agents.db import Store
from agents.errors import RunFailedError, short_checkpoint_id
from agents.identity import Identity
from agents.registry import AGENTS
from agents.settings import Settings
from dashboard.checkpoint_figure import DEFAULT_LABELS
from dashboard.checkpoint_hover import lane_label
from dashboard.formats import checkpoint_source, node_name
from dashboard.forms import acted_here, changed_here
from dashboard.i18n import t
from dashboard.safe_markdown import DOCUMENT_BOX, document_style, escape_markdown, inert_markdown, long_texts
from dashboard.views import lazy_expander, pick_thread, show_table

SELECT_HEAD_KEY = "explorer:select-head"
BACK_TO_KEY = "explorer:back-to"  # (thread, earlier head) selected after a failed re-run or fork
FLASH_HERE_KEY = "explorer:flash-here"  # the queued message is this page's action's: shown beside it
AGENT_KEY = "explorer-agent"
THREAD_KEY = "explorer-thread"
SHOWN_KEY = "explorer:shown"  # the thread the page showed on its last run (None: none)
PICKER_DRAWN_KEY = "explorer:picker-drawn"  # the thread picker's value as the last run drew it
UNPICKED_KEY = "explorer:unpicked"  # the thread shown was deleted here: none is open until one is picked
OPEN_KEY = "explorer-open-picked"  # the button that opens the thread the picker shows


def _listed(store: Store, thread_id: str) -> bool:
    """Whether the picker can select ``thread_id``: a thread of one of the agents (as ``pick_thread`` checks)."""
    found = lifecycle.thread_status(store, thread_id)
    return found is not None and found.agent in AGENTS


def open_thread(store: Store) -> tuple[str | None, str | None]:
    """The agent and thread pickers; (the thread the page shows, a thread it showed that is gone now).

    ``?thread=`` names the thread shown, and the picker follows it; a thread picked in the picker goes to the
    URL, so a reload or a copied link opens it again. The page never shows a thread the user did not pick
    in the place of one that disappeared: when the thread a link names is not there (deleted, here or
    elsewhere, or never there) no thread is open, and the sidebar arms no form, until one is picked or
    opened with the button (the picker cannot be picked again on the thread it shows). After a delete made
    here the message that says so is the only one: the deleted id leaves the URL, so nothing calls it unknown.
    The second value is the thread shown on the previous run when it is gone: a form still in the browser
    for it, sent, is refused saying why (``forms.sidebar_forms``).
    """
    requested = st.query_params.get("thread") or None
    listed = requested is not None and _listed(store, requested)
    gone = requested if requested is not None and not listed and requested == st.session_state.get(SHOWN_KEY) else None
    if gone is not None and acted_here(gone):  # deleted by this session: its flash says so
        del st.query_params["thread"]
        st.session_state[UNPICKED_KEY] = True
        requested = gone = None
    before = st.session_state.get(THREAD_KEY)  # the browser's choice, before the picker checks it
    _, picked, _ = pick_thread(
        store, page="explorer", agent_key=AGENT_KEY, thread_key=THREAD_KEY, empty_key="explorer.no_threads_for_agent"
    )
    chosen = before is not None and before != st.session_state.get(PICKER_DRAWN_KEY)
    st.session_state[PICKER_DRAWN_KEY] = picked
    if chosen or listed or st.session_state.get(OPEN_KEY):
        st.session_state.pop(UNPICKED_KEY, None)
    elif requested is not None or st.session_state.get(UNPICKED_KEY):  # a link to no thread, or one deleted here
        _none_open(picked)
        picked = None
    if picked is not None and picked != requested:
        st.query_params["thread"] = picked
    st.session_state[SHOWN_KEY] = picked
    return picked, gone


def _none_open(offered: str | None) -> None:
    """No thread is open: says so, with a button that opens the one the picker shows (``offered``)."""
    st.info(t("explorer.none_open"))
    if offered is not None:
        st.button(escape_markdown(t("explorer.open", thread=offered)), key=OPEN_KEY)


def option_label(
    point: readmodel.ChainCheckpoint, lane: int, branched: bool, labels: Mapping[str, str] | None = None
) -> str:
    """A checkpoint in the list: step, source, short id, and in a branched thread its lane as the chart names it.

    ``labels``: the figure's labels (:func:`figure_labels`), read once by a caller that labels many.
    """
    flags = [lane_label(lane, labels or figure_labels())] if branched else []
    flags += [t("explorer.flag.head")] if point.is_head else []
    flags += [t("explorer.flag.waiting")] if point.is_waiting else []
    return t(
        "explorer.option",
        step=point.step,
        source=checkpoint_source(point.source),
        short=short_checkpoint_id(point.checkpoint_id),
        flags=f" · {', '.join(flags)}" if flags else "",
    )


def labeller(drawn: ChainColumns[readmodel.ChainCheckpoint], branched: bool) -> Callable[[str], str]:
    """Checkpoint id → its label in the list, for the checkpoints drawn (labelled only when offered)."""
    by_id = {c.checkpoint_id: (c, lane) for c, lane in zip(drawn.points, drawn.lanes, strict=True)}
    labels = figure_labels() if branched else None  # one lookup per label of the figure's, not per option
    return lambda cid: option_label(by_id[cid][0], by_id[cid][1], branched, labels)


def search_text(point: readmodel.ChainCheckpoint) -> str:
    """What the checkpoint list's search matches: step, source, id and the nodes next."""
    return f"{point.step} {point.source} {point.checkpoint_id} {' '.join(point.next)}"


def clicked_checkpoint(event: object) -> str | None:
    """The checkpoint id of the point clicked in the figure (its customdata), given the chart's event."""
    points = (event or {}).get("selection", {}).get("points", []) if isinstance(event, dict) else []
    if not points:
        return None
    data = points[0].get("customdata")
    if isinstance(data, list | tuple):
        data = data[0] if data else None
    return data if isinstance(data, str) else None


def sync_selection(thread_id: str, rows_of: dict[str, int], head: str, chart_key: str) -> str:
    """Resolves the selected checkpoint before the widgets are drawn (a new click wins, else the list); its key.

    A selected head stays the head: when the thread moved on since the page was drawn (another tab, the
    CLI), the new head is selected, and said so unless this session moved it, so the page shows the state
    the sidebar's forms name, never the old head's beside forms acting on the new one.
    """
    select_key, head_key = f"explorer-checkpoint-{thread_id}", f"explorer:head-{thread_id}"
    before, st.session_state[head_key] = st.session_state.get(head_key), head
    followed = before not in (None, head) and st.session_state.get(select_key) == before
    if followed:
        st.session_state[select_key] = head
    if st.session_state.pop(SELECT_HEAD_KEY, False):
        st.session_state[select_key] = head
        followed = False
    back_to = st.session_state.pop(BACK_TO_KEY, None)
    if back_to and back_to[0] == thread_id and back_to[1] in rows_of:
        st.session_state[select_key] = back_to[1]
        st.info(t("explorer.back_to", checkpoint=short_checkpoint_id(back_to[1])))
        followed = False
    if followed and not changed_here(thread_id):
        st.info(t("explorer.followed_head", before=short_checkpoint_id(str(before)), head=short_checkpoint_id(head)))
    clicked = clicked_checkpoint(st.session_state.get(chart_key))
    last_click_key = f"explorer:last-click-{thread_id}"
    if clicked in rows_of and clicked != st.session_state.get(last_click_key):
        st.session_state[select_key] = clicked
    st.session_state[last_click_key] = clicked
    if st.session_state.get(select_key) not in rows_of:
        st.session_state[select_key] = head
    return select_key


def writes_frame(writes: tuple[readmodel.WriteRecord, ...]) -> pd.DataFrame:
    """Writes as text: task id, node, channel (``__interrupt__``, ``branch:to:*`` as stored), value."""
    return pd.DataFrame(
        {
            t("col.task_id"): [w.task_id for w in writes],
            t("col.node"): [node_name(w.node) for w in writes],
            t("col.channel"): [w.channel for w in writes],
            t("col.value"): [json.dumps(readmodel.to_jsonable(w.value), ensure_ascii=False) for w in writes],
        }
    )


def show_detail(detail: readmodel.CheckpointDetail) -> None:
    """The selected checkpoint's ids, its decoded state collapsed below its top-level keys, its metadata collapsed."""
    st.subheader(t("explorer.selected", checkpoint=short_checkpoint_id(detail.checkpoint_id)))
    parent, next_nodes = detail.parent_checkpoint_id or "-", ", ".join(detail.next) or "-"
    st.markdown(t("explorer.ids", checkpoint=detail.checkpoint_id, parent=parent, next=next_nodes))
    # The state takes the page's width: a channel key such as ``join:review_content+…:gate`` reads whole.
    shown, documents = long_texts(readmodel.to_jsonable(detail.values))
    st.markdown(f"**{t('explorer.state')}**", help=t("explorer.state.help"))
    st.json(shown, expanded=1)
    if documents:  # a draft: not in the view above, read as the document it is, opened on request
        names = ", ".join(f"`{key}`" for key in documents)
        st.caption(t("explorer.document.note", names=names))
    for index, (key, document) in enumerate(documents.items()):
        box = lazy_expander(t("explorer.document", name=key, length=f"{len(document):,}"), f"explorer-doc-{key}")
        if box is not None:
            with box.container(
                key=f"explorer-{DOCUMENT_BOX}-{index}"
            ):  # its tables' long words wrap, as on the lecture page
                document_style()
                st.markdown(inert_markdown(document))
    st.markdown(f"**{t('explorer.metadata')}**")
    st.json(readmodel.to_jsonable(detail.metadata), expanded=False)


def show_writes(detail: readmodel.CheckpointDetail) -> None:
    """The selected checkpoint's pending writes as a table."""
    st.markdown(f"**{t('explorer.writes')}**", help=t("explorer.writes.help"))
    show_table(writes_frame(detail.writes), t("explorer.no_writes"))


def editable_values(spec: Any, values: dict[str, Any]) -> str:
    """The fork editor's starting text: the checkpoint's values of the keys that may be updated."""
    keys = [f.name for f in spec.edit.state_fields if f.name in values]
    return json.dumps({k: readmodel.to_jsonable(values[k]) for k in keys}, ensure_ascii=False, indent=2)


def figure_labels() -> dict[str, str]:
    """The figure's labels in the UI's language."""
    return {name: t(f"explorer.fig.{name}") for name in DEFAULT_LABELS}


@contextmanager
def back_to_head_on_failure(thread_id: str, head: str) -> Iterator[None]:
    """When a re-run or fork fails, selects the earlier head, so "restore as head" is one click away."""
    try:
        yield
    except RunFailedError:
        st.session_state[BACK_TO_KEY] = (thread_id, head)
        raise


def select_head_here() -> None:
    """After this page's action: the next draw selects the new head and shows the message beside the actions."""
    st.session_state[SELECT_HEAD_KEY] = True
    st.session_state[FLASH_HERE_KEY] = True


def fork_at(
    store: Store,
    settings: Settings,
    thread_id: str,
    checkpoint_id: str,
    values: dict[str, Any],
    *,
    as_node: str | None,
    expected_head: str | None,
    actor: Identity,
    continue_after: bool,
) -> runs.RunResult:
    """Forks at a checkpoint with new values and, when ``continue_after`` and the fork has work next, runs it."""
    result = runs.update_thread(
        store,
        settings,
        thread_id,
        values,
        as_node=as_node,
        checkpoint_id=checkpoint_id,
        expected_head=expected_head,
        actor=actor,
    )
    if continue_after and result.status == "attention" and result.next:
        result = runs.continue_thread(store, settings, thread_id, expected_head=result.head_checkpoint_id, actor=actor)
    return result


def chain_tree(store: Store, thread_id: str) -> tuple[ChainColumns[Link], dict[str, int], str]:
    """The thread's tree from its (id, parent) pairs, each checkpoint's row in it and the head (the newest).

    Reused while the database is unchanged; an unknown thread has no rows.
    """

    def read() -> tuple[ChainColumns[Link], dict[str, int], str]:
        links = readmodel.chain_links(store, thread_id)  # oldest first: the head is the last
        tree = link_tree(links)
        return tree, {point.checkpoint_id: row for row, point in enumerate(tree.points)}, links[-1][0] if links else ""

    return threadindex.while_unchanged(store, "chain-tree", thread_id, read)


def drawn_columns(
    store: Store,
    thread_id: str,
    tree: ChainColumns[Link],
    rows_of: dict[str, int],
    head: str,
    selected: str,
    *,
    show_all: bool,
) -> ChainColumns[readmodel.ChainCheckpoint]:
    """What the figure draws: the whole chain, or the window around the selected checkpoint (read alone)."""
    if show_all or len(tree.points) <= WINDOW_SIZE:
        chain = threadindex.while_unchanged(
            store, "chain", thread_id, lambda: readmodel.checkpoint_chain(store, thread_id)
        )
        return layout_columns(chain)
    rows = window_rows(tree, rows_of[selected], keep=[rows_of[head]])
    ids = [tree.points[row].checkpoint_id for row in rows]
    parents = {ids[k] for k, row in enumerate(rows) if tree.children[row]}
    points = threadindex.while_unchanged(
        store,
        "chain-window",
        (thread_id, tuple(ids)),
        lambda: readmodel.chain_points(store, thread_id, ids, head_id=head, parents=parents),
    )
    return window_columns(tree, rows, points)
