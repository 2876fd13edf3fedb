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

from agents import readmodel, runs, threadindex
from agents.chain_layout import WINDOW_SIZE, ChainColumns, Link, layout_columns, link_tree, window_columns, window_rows
from agents.db import Store
from agents.errors import RunFailedError, short_checkpoint_id
from agents.identity import Identity
from agents.settings import Settings
from dashboard.checkpoint_figure import DEFAULT_LABELS
from dashboard.checkpoint_hover import lane_label
from dashboard.formats import checkpoint_source, node_name
from dashboard.i18n import t
from dashboard.safe_markdown import inert_markdown, long_texts
from dashboard.views import lazy_expander, show_table

SELECT_HEAD_KEY = "explorer:select-head"
BACK_TO_KEY = "explorer:back-to"  # (thread, earlier head) selected after a failed re-run or fork
FLASH_HERE_KEY = "explorer:flash-here"  # the queued message is this page's action's: shown beside it


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
    """Resolves the selected checkpoint before the widgets are drawn (a new click wins, else the list); its key."""
    select_key = f"explorer-checkpoint-{thread_id}"
    if st.session_state.pop(SELECT_HEAD_KEY, False):
        st.session_state[select_key] = head
    back_to = st.session_state.pop(BACK_TO_KEY, None)
    if back_to and back_to[0] == thread_id and back_to[1] in rows_of:
        st.session_state[select_key] = back_to[1]
        st.info(t("explorer.back_to", checkpoint=short_checkpoint_id(back_to[1])))
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
    for key, document in documents.items():
        box = lazy_expander(t("explorer.document", name=key, length=f"{len(document):,}"), f"explorer-doc-{key}")
        if box is not None:
            box.markdown(inert_markdown(document))
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
