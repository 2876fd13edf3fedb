"""Checkpoint explorer: a thread's parent-chained checkpoints as a Plotly graph.

Pick an agent and a thread (or open ``?thread=ID``), select a checkpoint by
clicking its point or in the list, re-run or fork from it, and read its
decoded state, metadata and writes. A long thread is drawn a window at a
time: its tree is read as (id, parent) pairs (``readmodel.chain_links``), the
window around the selected checkpoint chosen from it
(``chain_layout.window_rows``) and only the window's checkpoints read in full
(``readmodel.chain_points``); "show all" draws the whole chain
(``readmodel.checkpoint_chain``). Only the selected checkpoint is decoded.
"""

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pandas as pd
import streamlit as st

from agents import lifecycle, readmodel, runs, threadindex
from agents.chain_layout import WINDOW_SIZE, ChainColumns, Link, layout_columns, link_tree, window_columns, window_rows
from agents.errors import RunFailedError, short_checkpoint_id
from agents.identity import FORK
from agents.registry import AGENTS
from agents.validation import parse_json_object
from dashboard import auth, diff_view, resources
from dashboard.checkpoint_figure import DEFAULT_LABELS, VIEW_STEPS, columns_figure
from dashboard.formats import node_name
from dashboard.forms import UNCHANGED, act, drawn_head, show_flash, sidebar_forms, status_word
from dashboard.i18n import t
from dashboard.safe_markdown import escape_markdown, inert_markdown, long_texts
from dashboard.views import bounded_select, lazy_expander, pick_thread, show_table

AGENT_KEY = "explorer-agent"
THREAD_KEY = "explorer-thread"
SELECT_HEAD_KEY = "explorer:select-head"
BACK_TO_KEY = "explorer:back-to"  # (thread, earlier head) selected after a failed re-run or fork
FLASH_HERE_KEY = "explorer:flash-here"  # the queued message is this page's action's: shown beside it

store, settings = resources.store(), resources.settings()

st.title(t("explorer.title"))
st.caption(t("explorer.intro"))
st.caption(t("explorer.root_only"))
if not st.session_state.get(FLASH_HERE_KEY):
    show_flash()  # a sidebar form's message; the page's own actions show theirs beside their buttons


def _pick_thread(threads: list[lifecycle.ThreadStatus]) -> str | None:
    """Agent and thread pickers; returns the chosen thread id (None: the agent has no threads)."""
    _agent, thread_id, _rest = pick_thread(
        threads, page="explorer", agent_key=AGENT_KEY, thread_key=THREAD_KEY, empty_key="explorer.no_threads_for_agent"
    )
    return thread_id


def _source_name(source: str) -> str:
    """A checkpoint source in the UI's language (an unknown one as stored)."""
    return t(f"explorer.fig.source.{source}") if f"source.{source}" in DEFAULT_LABELS else source


def _option_label(point: readmodel.ChainCheckpoint, lane: int, branched: bool) -> str:
    """A checkpoint in the list: step, source, short id, and in a branched thread its branch (1: the first)."""
    flags = [t("explorer.flag.branch", branch=lane + 1)] if branched else []
    flags += [t("explorer.flag.head")] if point.is_head else []
    flags += [t("explorer.flag.waiting")] if point.is_waiting else []
    return t(
        "explorer.option",
        step=point.step,
        source=_source_name(point.source),
        short=short_checkpoint_id(point.checkpoint_id),
        flags=f" · {', '.join(flags)}" if flags else "",
    )


def _clicked_checkpoint(chart_key: str) -> str | None:
    """The checkpoint id of the point clicked in the figure (its customdata), if any."""
    event = st.session_state.get(chart_key)
    points = (event or {}).get("selection", {}).get("points", []) if isinstance(event, dict) else []
    if not points:
        return None
    data = points[0].get("customdata")
    if isinstance(data, list | tuple):
        data = data[0] if data else None
    return data if isinstance(data, str) else None


def _sync_selection(thread_id: str, rows_of: dict[str, int], head: str, chart_key: str) -> str:
    """Resolves the selected checkpoint before the widgets are drawn: a new click wins, else the list."""
    select_key = f"explorer-checkpoint-{thread_id}"
    if st.session_state.pop(SELECT_HEAD_KEY, False):
        st.session_state[select_key] = head
    back_to = st.session_state.pop(BACK_TO_KEY, None)
    if back_to and back_to[0] == thread_id and back_to[1] in rows_of:
        st.session_state[select_key] = back_to[1]
        st.info(t("explorer.back_to", checkpoint=short_checkpoint_id(back_to[1])))
    clicked = _clicked_checkpoint(chart_key)
    last_click_key = f"explorer:last-click-{thread_id}"
    if clicked in rows_of and clicked != st.session_state.get(last_click_key):
        st.session_state[select_key] = clicked
    st.session_state[last_click_key] = clicked
    if st.session_state.get(select_key) not in rows_of:
        st.session_state[select_key] = head
    return select_key


def _writes_frame(writes: tuple[readmodel.WriteRecord, ...]) -> pd.DataFrame:
    """Writes as text: task id, node, channel (``__interrupt__``, ``branch:to:*`` as stored), value."""
    return pd.DataFrame(
        {
            t("col.task_id"): [w.task_id for w in writes],
            t("col.node"): [node_name(w.node) for w in writes],
            t("col.channel"): [w.channel for w in writes],
            t("col.value"): [json.dumps(readmodel.to_jsonable(w.value), ensure_ascii=False) for w in writes],
        }
    )


def _show_detail(detail: readmodel.CheckpointDetail) -> None:
    """The selected checkpoint's ids, its decoded state collapsed below its top-level keys, its metadata collapsed."""
    st.subheader(t("explorer.selected", checkpoint=short_checkpoint_id(detail.checkpoint_id)))
    st.markdown(
        t(
            "explorer.ids",
            checkpoint=detail.checkpoint_id,
            parent=detail.parent_checkpoint_id or "-",
            next=", ".join(detail.next) or "-",
        )
    )
    state_col, meta_col = st.columns([3, 2])
    shown, documents = long_texts(
        readmodel.to_jsonable(detail.values), lambda length: t("explorer.document.note", length=f"{length:,}")
    )
    with state_col:
        st.markdown(f"**{t('explorer.state')}**", help=t("explorer.state.help"))
        st.json(shown, expanded=1)
        for key, document in documents.items():  # a draft: read as the document it is, opened on request
            box = lazy_expander(t("explorer.document", name=key, length=f"{len(document):,}"), f"explorer-doc-{key}")
            if box is not None:
                box.markdown(inert_markdown(document))
    with meta_col:
        st.markdown(f"**{t('explorer.metadata')}**")
        st.json(readmodel.to_jsonable(detail.metadata), expanded=False)


def _show_writes(detail: readmodel.CheckpointDetail) -> None:
    st.markdown(f"**{t('explorer.writes')}**", help=t("explorer.writes.help"))
    show_table(_writes_frame(detail.writes), t("explorer.no_writes"))


def _editable_values(spec: Any, values: dict[str, Any]) -> str:
    """The fork editor's starting text: the checkpoint's values of the keys that may be updated."""
    keys = [f.name for f in spec.state_fields if f.name in values]
    return json.dumps({k: readmodel.to_jsonable(values[k]) for k in keys}, ensure_ascii=False, indent=2)


def _actions(thread_id: str, head: str, detail: readmodel.CheckpointDetail) -> None:
    """Re-run from, or fork at, the selected checkpoint; both refuse a stale view."""
    spec = AGENTS[readmodel.thread_agent(store, thread_id) or ""]
    checkpoint_id = detail.checkpoint_id
    short = short_checkpoint_id(checkpoint_id)
    expected_rerun = drawn_head("explorer-rerun", thread_id, head)
    expected_fork = drawn_head("explorer-fork", thread_id, head)
    expected_restore = drawn_head("explorer-restore", thread_id, head)
    st.subheader(t("explorer.actions"))
    st.caption(t("explorer.actions.help"))
    if st.session_state.pop(FLASH_HERE_KEY, False):
        show_flash()
    if auth.why_not(FORK):  # re-run, restore and fork are for admins (as runs checks)
        st.info(t("auth.admin_only"))
        return
    me = auth.identity()
    rerun_col, fork_col = st.columns([1, 2])
    # Keyed by thread, as the fork form is: a click drawn for one thread never counts for another
    # (the picker moves on by itself when another tab deletes the thread shown).
    rerun_key, restore_key = f"explorer-rerun-{thread_id}", f"explorer-restore-{thread_id}"
    if rerun_col.button(t("explorer.rerun"), key=rerun_key, help=t("explorer.rerun.help"), type="primary"):

        def rerun(expected: str | None) -> str:
            with back_to_head_on_failure(thread_id, head):
                result = runs.continue_thread(
                    store, settings, thread_id, checkpoint_id=checkpoint_id, expected_head=expected, actor=me
                )
            st.session_state[SELECT_HEAD_KEY] = True
            st.session_state[FLASH_HERE_KEY] = True
            return t("explorer.rerun.done", thread=thread_id, checkpoint=short, status=status_word(result))

        act(expected_rerun, rerun)
    if checkpoint_id != head and rerun_col.button(
        t("explorer.restore"), key=restore_key, help=t("explorer.restore.help")
    ):

        def restore(expected: str | None) -> str:
            result = runs.restore_checkpoint(
                store, settings, thread_id, checkpoint_id, expected_head=expected, actor=me
            )
            st.session_state[SELECT_HEAD_KEY] = True
            st.session_state[FLASH_HERE_KEY] = True
            return t("explorer.restore.done", thread=thread_id, checkpoint=short, status=status_word(result))

        act(expected_restore, restore)
    with fork_col, st.form(f"explorer-fork-{thread_id}"):
        st.markdown(f"**{t('explorer.fork.title')}**")
        raw = st.text_area(
            t("explorer.fork.values"),
            value=_editable_values(spec, detail.values),
            key=f"explorer-fork-values-{checkpoint_id}",
            help=t("explorer.fork.values.help", keys=", ".join(f"`{f.name}`" for f in spec.state_fields)),
        )
        as_node = st.selectbox(
            t("explorer.fork.as_node"),
            [UNCHANGED, *spec.as_nodes],
            key=f"explorer-fork-asnode-{thread_id}",
            help=t("forms.as_node.help"),
        )
        continue_after = st.checkbox(t("explorer.fork.continue"), key=f"explorer-fork-continue-{thread_id}")
        submitted = st.form_submit_button(t("explorer.fork.submit"))
    if submitted:

        def fork(expected: str | None) -> str:
            values = parse_json_object(raw, "values")
            node = None if as_node == UNCHANGED else as_node
            with back_to_head_on_failure(thread_id, head):
                result = runs.update_thread(
                    store,
                    settings,
                    thread_id,
                    values,
                    as_node=node,
                    checkpoint_id=checkpoint_id,
                    expected_head=expected,
                    actor=me,
                )
                if continue_after and result.status == "attention" and result.next:
                    result = runs.continue_thread(
                        store, settings, thread_id, expected_head=result.head_checkpoint_id, actor=me
                    )
            st.session_state[SELECT_HEAD_KEY] = True
            st.session_state[FLASH_HERE_KEY] = True
            return t("explorer.fork.done", thread=thread_id, checkpoint=short, status=status_word(result))

        act(expected_fork, fork)


@contextmanager
def back_to_head_on_failure(thread_id: str, head: str) -> Iterator[None]:
    """When a re-run or fork fails, selects the earlier head, so "restore as head" is one click away."""
    try:
        yield
    except RunFailedError:
        st.session_state[BACK_TO_KEY] = (thread_id, head)
        raise


def _figure_labels() -> dict[str, str]:
    return {name: t(f"explorer.fig.{name}") for name in DEFAULT_LABELS}


def _tree(thread_id: str) -> tuple[ChainColumns[Link], dict[str, int], str]:
    """The thread's tree from its (id, parent) pairs, each checkpoint's row in it and the head (the newest).

    Reused while the database is unchanged; an unknown thread has no rows.
    """

    def read() -> tuple[ChainColumns[Link], dict[str, int], str]:
        links = readmodel.chain_links(store, thread_id)  # oldest first: the head is the last
        tree = link_tree(links)
        return tree, {point.checkpoint_id: row for row, point in enumerate(tree.points)}, links[-1][0] if links else ""

    return threadindex.while_unchanged(store, "chain-tree", thread_id, read)


def _drawn(
    thread_id: str, tree: ChainColumns[Link], rows_of: dict[str, int], head: str, selected: str, show_all: bool
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


threads = lifecycle.thread_statuses(store)
thread_id = _pick_thread(threads) if threads else None
if not threads:
    st.info(t("explorer.empty_db"))
tree, rows_of, head = _tree(thread_id) if thread_id else (None, {}, "")
if thread_id and not rows_of:  # deleted since the list was read
    st.warning(escape_markdown(t("explorer.unknown_thread", thread=thread_id)))
if thread_id and tree is not None and rows_of:
    chart_key = f"explorer-chart-{thread_id}"
    select_key = _sync_selection(thread_id, rows_of, head, chart_key)
    selected = st.session_state[select_key]
    count = len(tree.points)
    st.caption(t("explorer.summary", count=count, lanes=1 + max(tree.lanes), head=short_checkpoint_id(head)))
    if tree.orphans:
        st.warning(t("explorer.orphans", count=len(tree.orphans)))
    show_all = count > WINDOW_SIZE and st.toggle(
        t("explorer.show_all", count=f"{count:,}"), key=f"explorer-all-{thread_id}", help=t("explorer.show_all.help")
    )
    drawn = _drawn(thread_id, tree, rows_of, head, selected, show_all)
    if len(drawn.points) < count:
        st.caption(t("explorer.window", shown=len(drawn.points), count=f"{count:,}"))
    figure = columns_figure(
        drawn, selected_id=selected, labels=_figure_labels(), view_steps=None if show_all else VIEW_STEPS
    )
    st.plotly_chart(
        figure,
        key=chart_key,
        on_select="rerun",
        selection_mode="points",
        config={"scrollZoom": True, "displaylogo": False},
    )
    st.caption(t("explorer.figure.help"))
    by_id = {c.checkpoint_id: c for c in drawn.points}
    lane_of = {c.checkpoint_id: lane for c, lane in zip(drawn.points, drawn.lanes, strict=True)}
    branched = len(set(tree.lanes)) > 1
    if selected not in by_id and by_id:  # deleted since the tree was read
        selected = st.session_state[select_key] = head if head in by_id else next(iter(by_id))
    bounded_select(
        t("explorer.checkpoint"),
        list(by_id),
        key=select_key,
        format_func=lambda cid: _option_label(by_id[cid], lane_of[cid], branched),
        search_text=lambda cid: f"{by_id[cid].step} {by_id[cid].source} {cid} {' '.join(by_id[cid].next)}",
    )
    detail = readmodel.checkpoint_detail(store, thread_id, selected)
    if detail is None:
        st.warning(t("explorer.gone"))
    else:
        _show_detail(detail)
        others = [cid for cid in by_id if cid != selected]  # against its parent, or any checkpoint drawn
        diff_view.show_checkpoint_change(
            store, thread_id, selected, others, lambda cid: _option_label(by_id[cid], lane_of[cid], branched)
        )
        _actions(thread_id, head, detail)
        _show_writes(detail)

sidebar_forms(store, settings, thread_id if rows_of else None, head or None)  # the head the chart drew
